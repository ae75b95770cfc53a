"""Registers the runtime's XLA FFI handlers with JAX (docs/Export.md).

    import sdpa_jax
    sdpa_jax.register()          # $SDPA_FFI_LIB or <build>/lib/libsdpa_ffi.so

After this, StableHLO that `sdpa-stablehlo-pipeline` wrote (attention sites
as `stablehlo.custom_call @sdpa_forward` / `@sdpa_backward`, or their
`_sinks` variants for attention with sinks, api_version 4)
compiles and runs under JAX on CUDA. The calls name their artifacts by path
stem; set SDPA_ARTIFACT_DIR to look them up in another directory.

The registration is the Python package's (sdpa.jax_ops.register,
docs/Frontends.md), so a process that also uses sdpa.jax_ops.attention
registers the targets once.
"""

import os
import sys

_PACKAGE_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
if os.path.realpath(_PACKAGE_ROOT) not in map(os.path.realpath, sys.path):
    sys.path.insert(0, _PACKAGE_ROOT)


def default_library():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("SDPA_FFI_LIB") or os.path.join(
        here, "..", "..", "build-runtime", "lib", "libsdpa_ffi.so")


def register(library=None):
    """Loads the handler library once and registers its targets
    (sdpa.jax_ops.TARGETS) for CUDA.
    Returns the library path."""
    from sdpa import jax_ops
    return jax_ops.register(library or default_library())
