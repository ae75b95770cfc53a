"""JAX: `attention` with jax.custom_vjp over XLA FFI calls to the kernels.

    import sdpa.jax_ops as sj
    sj.register()                      # the runtime's FFI handler, libsdpa_ffi.so
    o = sj.attention(q, k, v, causal=True, window=(127, 0))   # q [B, S, Hq, D]
    jax.grad(lambda q: sj.attention(q, k, v, causal=True).sum())(q)
    o = sj.attention(q, k, v, causal=True, window=(127, 0), sinks=s)  # s f32 [Hq]

The forward is an `sdpa_forward` call, the backward an `sdpa_backward` call
(with sinks `sdpa_forward_sinks` and `sdpa_backward_sinks`, which also take
the sinks and return their f32 gradient; the call convention of
docs/Export.md, run by the handler in runtime/ffi):
the kernels are the cache's (sdpa.kernels), looked up (or compiled) when
the function is traced, and named to the handler by artifact path; the
handler checks band, scale, softcap and layout against the manifest. Dense
layouts (bshd, JAX's [B, T, N, H], and bhsd) with static shapes; f16/bf16,
the head dims of the schema's tables (sdpa.config.HEAD_DIMS), GQA. The backward's workspaces are extra results of its call
that nothing reads (XLA allocates them).
"""

import math
import os
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from . import kernels
from .config import MAX_INDEX, check_softcap, resolve_band, select

__all__ = ["attention", "register", "find_ffi_library", "FFI_LIBRARY", "TARGETS"]

FFI_LIBRARY = "libsdpa_ffi.so"
#: FFI target -> the handler library's symbol (runtime/ffi/XlaHandlers.cpp).
TARGETS = {"sdpa_forward": "SdpaFfiForward", "sdpa_backward": "SdpaFfiBackward",
           "sdpa_forward_sinks": "SdpaFfiForwardSinks",
           "sdpa_backward_sinks": "SdpaFfiBackwardSinks"}
_registered = None
_DTYPES = {jnp.dtype(jnp.float16): "f16", jnp.dtype(jnp.bfloat16): "bf16"}


def find_ffi_library():
    """$SDPA_FFI_LIB, the package's _lib/, or the checkout's build-runtime/lib
    or build/lib (the handler is built with -DSDPA_RUNTIME_BUILD_FFI=ON)."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    env = os.environ.get("SDPA_FFI_LIB")
    candidates = [env] if env else [
        os.path.join(here, "_lib", FFI_LIBRARY),
        os.path.join(root, "build-runtime", "lib", FFI_LIBRARY),
        os.path.join(root, "build", "lib", FFI_LIBRARY)]
    for c in candidates:
        if os.path.isfile(c):
            return c
    raise FileNotFoundError(
        f"{FFI_LIBRARY} not found (looked at {', '.join(candidates)}): build it where jax is "
        "installed with `cmake -G Ninja -S runtime -B build-runtime -DSDPA_RUNTIME_BUILD_FFI=ON "
        "&& ninja -C build-runtime` and set SDPA_FFI_LIB=build-runtime/lib/" + FFI_LIBRARY)


def register(library=None):
    """Registers the handler's targets (TARGETS) for CUDA, once; returns its path."""
    global _registered
    path = library or find_ffi_library()
    if _registered is not None:
        if os.path.realpath(_registered) != os.path.realpath(path):
            raise RuntimeError(f"sdpa FFI targets already registered from {_registered}")
        return _registered
    import ctypes
    lib = ctypes.cdll.LoadLibrary(path)
    for target, symbol in TARGETS.items():
        jax.ffi.register_ffi_target(target, jax.ffi.pycapsule(getattr(lib, symbol)),
                                    platform="CUDA")
    _registered = path
    return path


@dataclass(frozen=True)
class _Spec:
    """What the calls need besides the arrays (static, hashable)."""

    layout: str
    left: int
    right: int
    bottom_right: bool
    scale: float
    softcap: float  # 0: none (the calls' backend_config, docs/Export.md)
    deterministic: bool
    fwd_artifact: str
    fwd_kernel: str
    bwd_artifact: str
    bwd_kernel: str
    bwd_tile_q: int
    sinks: bool  # the `_sinks` targets, whose kernels take the sinks
    bwd_recomputes_dq: bool = False  # a bwd_dq kernel: no dQ accumulator


_cache = None


def _artifact(cfg, role):
    """(path stem, kernel name of `role`, header, roles of its kernels) of a
    configuration's artifact."""
    global _cache
    if _cache is None:
        _cache = kernels.KernelCache()
    path = _cache.manifest(cfg)
    header, kernel_list = kernels.read_manifest(path)
    names = [n for n, r in kernel_list if r == role]
    if len(names) != 1:
        raise kernels.StaleKernelError(f"{path}: expected one '{role}' kernel")
    return path[: -len(".manifest")], names[0], header, {r for _, r in kernel_list}


def _batch_heads_seq(x, layout):
    """(B, H, S) of a dense array."""
    if layout == "bhsd":
        return x.shape[0], x.shape[1], x.shape[2]
    return x.shape[0], x.shape[2], x.shape[1]


def _target(direction, spec):
    return f"sdpa_{direction}_sinks" if spec.sinks else f"sdpa_{direction}"


def _forward_call(q, k, v, sinks, spec):
    """(o, lse); the sinks are the last operand of the `_sinks` target."""
    b, h, s = _batch_heads_seq(q, spec.layout)
    out = (jax.ShapeDtypeStruct(q.shape, q.dtype), jax.ShapeDtypeStruct((b, h, s), jnp.float32))
    operands = (q, k, v) + ((sinks,) if spec.sinks else ())
    return jax.ffi.ffi_call(_target("forward", spec), out)(
        *operands, artifact=spec.fwd_artifact, kernel=spec.fwd_kernel, layout=spec.layout,
        left=np.int64(spec.left), right=np.int64(spec.right), bottom_right=spec.bottom_right,
        scale=np.float32(spec.scale), softcap=np.float32(spec.softcap))


def _backward_call(q, k, v, o, lse, do, sinks, spec):
    """(dq, dk, dv, d sinks or None). Results as docs/Export.md: the
    gradients (d sinks f32 [Hq] after dv with sinks), then the workspaces
    (dsink_partials last with sinks), which nothing reads."""
    b, h, s = _batch_heads_seq(q, spec.layout)
    d = q.shape[-1]
    per_tile = (b, h, -(-s // spec.bwd_tile_q))  # one entry per (batch, head, query tile)
    grads = [jax.ShapeDtypeStruct(q.shape, q.dtype), jax.ShapeDtypeStruct(k.shape, k.dtype),
             jax.ShapeDtypeStruct(v.shape, v.dtype)]
    # No dQ accumulator where bwd_dq recomputes dQ (docs/Artifact.md).
    acc = (0,) if spec.bwd_recomputes_dq else (b, h, s, d)
    workspaces = [jax.ShapeDtypeStruct(acc, jnp.float32),            # dQ accumulator
                  jax.ShapeDtypeStruct((b, h, s), jnp.float32),      # Delta
                  jax.ShapeDtypeStruct(per_tile, jnp.int32)]         # relay counters
    operands = (q, k, v, o, do, lse)
    if spec.sinks:
        grads.append(jax.ShapeDtypeStruct((h,), jnp.float32))        # d sinks
        workspaces.append(jax.ShapeDtypeStruct(per_tile, jnp.float32))  # dsink partials
        operands += (sinks,)
    results = jax.ffi.ffi_call(_target("backward", spec), tuple(grads + workspaces))(
        *operands, artifact=spec.bwd_artifact, kernel=spec.bwd_kernel,
        layout=spec.layout, left=np.int64(spec.left), right=np.int64(spec.right),
        bottom_right=spec.bottom_right, scale=np.float32(spec.scale),
        softcap=np.float32(spec.softcap), deterministic=spec.deterministic)
    dq, dk, dv = results[:3]
    return dq, dk, dv, (results[3] if spec.sinks else None)


# `sinks` is None without sinks (an empty pytree, whose cotangent is None).
@partial(jax.custom_vjp, nondiff_argnums=(4,))
def _attention(q, k, v, sinks, spec):
    return _forward_call(q, k, v, sinks, spec)[0]


def _attention_fwd(q, k, v, sinks, spec):
    o, lse = _forward_call(q, k, v, sinks, spec)
    return o, (q, k, v, sinks, o, lse)


def _attention_bwd(spec, residuals, do):
    q, k, v, sinks, o, lse = residuals
    return _backward_call(q, k, v, o, lse, do.astype(q.dtype), sinks, spec)


_attention.defvjp(_attention_fwd, _attention_bwd)


def attention(q, k, v, *, causal=False, window=(None, None), align="top_left", sinks=None,
              softcap=None, scale=None, deterministic=False, layout="bshd"):
    """Attention of q over k, v under a band (docs/Semantics.md), differentiable.

    layout "bshd" (default; q [B, Sq, Hq, D] as jax.nn.dot_product_attention)
    or "bhsd". window=(left, right), causal, align, scale, softcap (c * tanh(s / c)
    before the mask; None or inf: none), deterministic as
    sdpa.torch_ops.attention. sinks: None, or a float32 [Hq] array of one
    sink logit per query head (gpt-oss, docs/Semantics.md §7), differentiable.
    Call register() first.
    """
    left, right, align = resolve_band(causal, window, align)
    if layout not in ("bshd", "bhsd"):
        raise ValueError(f"layout: the JAX function takes 'bshd' or 'bhsd', got {layout!r} "
                         "(packed sequences are not exported, docs/Export.md)")
    softcap = check_softcap(softcap)
    for name, x in (("q", q), ("k", k), ("v", v)):
        if x.ndim != 4:
            raise ValueError(f"{name}: expected 4 dimensions for layout {layout}, got {x.ndim}")
        if jnp.dtype(x.dtype) not in _DTYPES:
            raise ValueError(f"{name}: the kernels take float16 or bfloat16, got {x.dtype}")
    if k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError(f"k, v: expected q's dtype {q.dtype}, got {k.dtype} and {v.dtype}")
    if k.shape != v.shape:
        raise ValueError(f"v: shape {list(v.shape)} differs from k's {list(k.shape)}")
    d = q.shape[-1]
    if sinks is not None:
        heads = _batch_heads_seq(q, layout)[1]
        if getattr(sinks, "ndim", None) != 1 or sinks.shape[0] != heads:
            raise ValueError(f"sinks: expected shape [{heads}] (one per query head), got "
                             f"{list(getattr(sinks, 'shape', ()))}")
        if jnp.dtype(sinks.dtype) != jnp.dtype(jnp.float32):
            raise ValueError(f"sinks: expected float32, got {sinks.dtype}")
    with_sinks = sinks is not None
    if _batch_heads_seq(q, layout)[2] == _batch_heads_seq(k, layout)[2]:
        align = "top_left"  # Sq = Skv: both alignments are one band, one kernel
    if scale is None:
        scale = 1.0 / math.sqrt(d)
    dtype = _DTYPES[jnp.dtype(q.dtype)]
    fwd = select("forward", dtype, d, left, right, align, scale=scale, softcap=softcap,
                 sinks=with_sinks)
    bwd = select("backward", dtype, d, left, right, align, deterministic=deterministic,
                 scale=scale, softcap=softcap, sinks=with_sinks)
    # XLA allocates every operand and result densely packed, none with more
    # elements than q or k (o, dO, dQ and the dQ accumulator are q's size;
    # dK, dV k's), so the largest element offset is max(q.size, k.size) - 1:
    # past MAX_INDEX, the 64-bit twins (static shapes decide at trace time).
    if max(q.size, k.size) - 1 > MAX_INDEX:
        fwd, bwd = fwd.wide(), bwd.wide()
    fwd_stem, fwd_kernel, _, _ = _artifact(fwd, "forward")
    bwd_stem, bwd_kernel, bwd_header, bwd_roles = _artifact(bwd, "bwd_main")
    spec = _Spec(layout, -1 if left is None else left, -1 if right is None else right,
                 align == "bottom_right", fwd.scale, fwd.softcap or 0.0, bool(deterministic),
                 fwd_stem, fwd_kernel,
                 bwd_stem, bwd_kernel, int(bwd_header["tile_q"]), with_sinks,
                 "bwd_dq" in bwd_roles)
    return _attention(q, k, v, sinks, spec)
