"""Registers the runtime's XLA FFI handlers with JAX (docs/Export.md).

    import sdpa_jax
    sdpa_jax.register()          # $SDPA_FFI_LIB or <build>/lib/libsdpa_ffi.so

After this, StableHLO that `sdpa-stablehlo-pipeline` wrote (attention sites
as `stablehlo.custom_call @sdpa_forward` / `@sdpa_backward`, api_version 4)
compiles and runs under JAX on CUDA. The calls name their artifacts by path
stem; set SDPA_ARTIFACT_DIR to look them up in another directory.
"""

import ctypes
import os

TARGETS = {"sdpa_forward": "SdpaFfiForward", "sdpa_backward": "SdpaFfiBackward"}

_registered = None


def default_library():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("SDPA_FFI_LIB") or os.path.join(
        here, "..", "..", "build-runtime", "lib", "libsdpa_ffi.so")


def register(library=None):
    """Loads the handler library once and registers both targets for CUDA.
    Returns the library path."""
    global _registered
    path = library or default_library()
    if _registered is not None:
        if os.path.realpath(_registered) != os.path.realpath(path):
            raise RuntimeError(f"sdpa FFI targets already registered from {_registered}")
        return _registered
    import jax
    lib = ctypes.cdll.LoadLibrary(path)
    for target, symbol in TARGETS.items():
        jax.ffi.register_ffi_target(target, jax.ffi.pycapsule(getattr(lib, symbol)),
                                    platform="CUDA")
    _registered = path
    return path
