"""The PyTorch op: `attention`, a torch.library custom op with autograd.

    from sdpa.torch_ops import attention
    o = attention(q, k, v, causal=True, window=(127, 0))          # q [B, Hq, S, D]
    o = torch.compile(model, fullgraph=True)(...)                  # traced, no graph break
    o = attention(q, k, v, causal=True, window=(127, 0), sinks=s)  # gpt-oss: s [Hq]

Two custom ops, `sdpa_dialect::attention_forward` (O and LSE) and
`sdpa_dialect::attention_backward` (dQ, dK, dV, d sinks), each with a fake
(meta) implementation, and the forward's autograd formula calling the
backward (docs/Frontends.md). Both take an optional float32 sinks operand
(one code path: without sinks it is None and the backward's d sinks is an
empty tensor); with it the kernels are the configuration's sinks variant.
The real implementations pick the kernels by configuration from the kernel
cache (sdpa.kernels: compiled once per configuration, then every shape) and
launch them through the runtime on the current CUDA stream of the inputs'
device.

`attention` checks its arguments first, in plain Python that torch.compile
traces (and that runs on any torch, 1.13 included): a bad argument is a
ValueError/TypeError naming it, before any kernel is looked up. The custom
ops need torch >= 2.4 (torch.library.custom_op); on an older torch,
`attention` says so once the arguments pass.
"""

import math
from typing import Optional, Tuple

import torch

from . import kernels
from .config import DTYPES, HEAD_DIMS, ConfigError, check_softcap, describe_dims, resolve_band, \
    select

__all__ = ["attention", "HAVE_CUSTOM_OP", "LAYOUTS", "set_kernel_cache"]

LAYOUTS = ("bhsd", "bshd", "thd")
#: The kernels' element types, by torch dtype.
_DTYPE_NAMES = {torch.float16: "f16", torch.bfloat16: "bf16"}
assert set(_DTYPE_NAMES.values()) == set(DTYPES)

HAVE_CUSTOM_OP = all(hasattr(torch.library, n) for n in ("custom_op", "register_fake"))


# -- argument checks (traced by torch.compile, no kernel needed) -------------

def _check_tensor(name, t, rank, layout):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    if t.dim() != rank:
        raise ValueError(f"{name}: expected {rank} dimensions for layout {layout}, "
                         f"got {t.dim()}")
    if t.dtype not in _DTYPE_NAMES:
        raise ValueError(f"{name}: the kernels take float16 or bfloat16, got {t.dtype}")


def _dims(t, layout):
    """(batch, heads, seq, head_dim) of a tensor in `layout` (thd: batch None)."""
    if layout == "bhsd":
        return t.shape[0], t.shape[1], t.shape[2], t.shape[3]
    if layout == "bshd":
        return t.shape[0], t.shape[2], t.shape[1], t.shape[3]
    return None, t.shape[1], t.shape[0], t.shape[2]


def _check_sinks(sinks, q, hq):
    """gpt-oss's sinks: one logit per query head (docs/Semantics.md §7), any
    float dtype (the kernels take them as float32), on q's device (checked
    before the CUDA check, so that it runs on the CPU too)."""
    if not isinstance(sinks, torch.Tensor):
        raise TypeError(f"sinks: expected a torch.Tensor, got {type(sinks).__name__}")
    if not sinks.is_floating_point():
        raise ValueError(f"sinks: expected a floating-point tensor, got {sinks.dtype}")
    if sinks.dim() != 1 or sinks.shape[0] != hq:
        raise ValueError(f"sinks: expected shape [{hq}] (one logit per query head), got "
                         f"{list(sinks.shape)}")
    if sinks.device != q.device:
        raise ValueError(f"sinks: expected q's device {q.device}, got {sinks.device}")


def _check_args(q, k, v, layout, cu_seqlens_q, cu_seqlens_kv, max_seqlen_q, max_seqlen_kv,
                sinks, softcap, scale, deterministic):
    if layout not in LAYOUTS:
        raise ValueError(f"layout: expected 'bhsd', 'bshd' or 'thd', got {layout!r}")
    rank = 3 if layout == "thd" else 4
    for name, t in (("q", q), ("k", k), ("v", v)):
        _check_tensor(name, t, rank, layout)
    if k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError(f"k, v: expected q's dtype {q.dtype}, got {k.dtype} and {v.dtype}")
    if tuple(v.shape) != tuple(k.shape):
        raise ValueError(f"v: shape {list(v.shape)} differs from k's {list(k.shape)}")
    bq, hq, _, d = _dims(q, layout)
    bk, hk, _, dk = _dims(k, layout)
    # The forward's table; a backward (q, k or v requiring grad) needs the
    # backward's too (the schema's tables, sdpa.config.HEAD_DIMS).
    direction = "backward" if any(t.requires_grad for t in (q, k, v)) else "forward"
    if d not in HEAD_DIMS["forward"] or d not in HEAD_DIMS[direction]:
        raise ValueError(f"q: head_dim (last dimension) must be "
                         f"{describe_dims(HEAD_DIMS[direction])}"
                         f"{' (with autograd)' if direction == 'backward' else ''}, got {d}")
    if dk != d:
        raise ValueError(f"k: head_dim {dk} differs from q's {d}")
    if bk != bq:
        raise ValueError(f"k: batch {bk} differs from q's {bq}")
    if hk == 0 or hq % hk != 0:
        raise ValueError(f"k: query heads ({hq}) are not a multiple of kv heads ({hk})")
    if layout == "thd":
        for name, cu in (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_kv", cu_seqlens_kv)):
            if cu is None:
                raise ValueError(f"{name}: required for layout thd")
            if not isinstance(cu, torch.Tensor) or cu.dim() != 1 or cu.dtype != torch.int32:
                raise ValueError(f"{name}: expected a 1-D int32 tensor")
        if cu_seqlens_q.shape[0] != cu_seqlens_kv.shape[0]:
            raise ValueError(f"cu_seqlens_kv: {cu_seqlens_kv.shape[0]} offsets, but "
                             f"cu_seqlens_q has {cu_seqlens_q.shape[0]}")
    else:
        for name, cu in (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_kv", cu_seqlens_kv)):
            if cu is not None:
                raise ValueError(f"{name}: given for the dense layout {layout} (packed "
                                 "sequences take layout='thd')")
    for name, m in (("max_seqlen_q", max_seqlen_q), ("max_seqlen_kv", max_seqlen_kv)):
        if m is not None and layout != "thd":
            raise ValueError(f"{name}: only for layout thd")
        if m is not None and (not isinstance(m, int) or m < 0):
            raise ValueError(f"{name}: expected a non-negative integer, got {m!r}")
    if sinks is not None:
        _check_sinks(sinks, q, hq)
    try:
        check_softcap(softcap)
    except ConfigError as e:
        raise ValueError(str(e)) from None
    if scale is not None and (isinstance(scale, bool) or not isinstance(scale, (int, float))
                              or not math.isfinite(scale) or scale <= 0):
        raise ValueError(f"scale: expected a positive finite number, got {scale!r}")
    if not isinstance(deterministic, bool):
        raise TypeError(f"deterministic: expected a bool, got {deterministic!r}")
    # Last, so that every check above also runs (and is tested) on the CPU.
    # (cu_seqlens_* may be on the host: the runtime wrapper copies them.)
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.device.type != "cuda":
            raise ValueError(f"{name}: expected a CUDA tensor, got one on {t.device}")
    if k.device != q.device or v.device != q.device:
        raise ValueError(f"k, v: expected q's device {q.device}, got {k.device} and {v.device}")


def attention(q, k, v, *, causal=False, window=(None, None), align="top_left", sinks=None,
              softcap=None, scale=None, deterministic=False, cu_seqlens_q=None,
              cu_seqlens_kv=None, max_seqlen_q=None, max_seqlen_kv=None, layout="bhsd"):
    """Attention of q over k, v under a band (docs/Semantics.md), with autograd.

    layout: "bhsd" q [B, Hq, Sq, D] (PyTorch's SDPA), "bshd" q [B, Sq, Hq, D]
    (flash-attn's), "thd" q [Tq, Hq, D] packed with int32 cu_seqlens_q/kv
    [N + 1] (max_seqlen_* computed from them when not given: one host
    synchronization). k, v have Hkv heads, Hq a multiple of Hkv (GQA).
    window=(left, right): query i sees keys i - left .. i + right (None or -1:
    unbounded); causal=True is right = 0. align "bottom_right" shifts the
    band by Skv - Sq (per sequence for thd). scale None is 1/sqrt(D).
    softcap=c caps every score as c * tanh(s / c) before the mask (Gemma 2;
    None or inf: no cap), both ways.
    sinks: a [Hq] tensor of one logit per query head (gpt-oss), any float
    dtype, on q's device: an extra column of every row's softmax that no
    value takes (docs/Semantics.md §7); the kernels take it as float32, and
    its gradient comes back in its own dtype.
    deterministic: the backward adds dQ partials in a fixed order (bitwise
    repeatable). float16/bfloat16, D of the schema's tables (sdpa.config.HEAD_DIMS:
    the backward's when autograd needs it), CUDA tensors on one device;
    any strides with a contiguous head dim are used as they are, others are
    copied. Returns O with q's shape.
    """
    left, right, align = resolve_band(causal, window, align)
    _check_args(q, k, v, layout, cu_seqlens_q, cu_seqlens_kv, max_seqlen_q, max_seqlen_kv,
                sinks, softcap, scale, deterministic)
    if not HAVE_CUSTOM_OP:
        raise RuntimeError(f"sdpa.attention needs torch >= 2.4 (torch.library.custom_op), "
                           f"this is torch {torch.__version__}")
    if sinks is not None:
        sinks = sinks.to(torch.float32).contiguous()  # autograd casts d sinks back
    o, _ = torch.ops.sdpa_dialect.attention_forward(
        q, k, v, cu_seqlens_q, cu_seqlens_kv, sinks,
        -1 if max_seqlen_q is None else max_seqlen_q,
        -1 if max_seqlen_kv is None else max_seqlen_kv,
        -1 if left is None else left, -1 if right is None else right,
        align == "bottom_right", -1.0 if scale is None else float(scale),
        _softcap_arg(softcap), layout, deterministic)
    return o


def _softcap_arg(softcap):
    """The ops' softcap argument: the float32 cap, 0.0 for none."""
    cap = check_softcap(softcap)
    return 0.0 if cap is None else cap


# -- kernels by configuration ------------------------------------------------

_cache = None
_artifacts = {}


def set_kernel_cache(cache):
    """Uses `cache` (a sdpa.kernels.KernelCache) from now on; None: the default."""
    global _cache
    _cache = cache
    _artifacts.clear()


def _config(direction, q, k, left, right, bottom_right, scale, softcap, layout,
            deterministic, sinks):
    """The configuration of a call (`select`'s, at its index width)."""
    if layout != "thd" and q.shape[-2 if layout == "bhsd" else -3] == \
            k.shape[-2 if layout == "bhsd" else -3]:
        bottom_right = False  # Sq = Skv: both alignments are one band, one kernel
    return select(direction, _DTYPE_NAMES[q.dtype], q.shape[-1],
                  None if left < 0 else left, None if right < 0 else right,
                  "bottom_right" if bottom_right else "top_left", layout == "thd",
                  deterministic, None if scale <= 0 else scale,
                  None if softcap <= 0 else softcap, sinks=sinks is not None)


def _artifact(cfg):
    """The loaded artifact of `cfg` (loaded once per configuration)."""
    global _cache
    art = _artifacts.get(cfg)
    if art is None:
        from .runtime import Artifact
        if _cache is None:
            _cache = kernels.KernelCache()
        art = _artifacts[cfg] = Artifact(_cache.manifest(cfg))
    return art


def _run(cfg, call):
    """`call(artifact)` with `cfg`'s artifact; where the runtime finds the
    call past a 32-bit artifact's index arithmetic (SDPA_ERROR_INDEX_RANGE,
    checked before anything is launched), with the 64-bit twin's."""
    from .runtime import SDPA_ERROR_INDEX_RANGE, SdpaError
    try:
        return call(_artifact(cfg))
    except SdpaError as e:
        if e.status != SDPA_ERROR_INDEX_RANGE or cfg.index_bits == 64:
            raise
    return call(_artifact(cfg.wide()))


def _usable(t):
    """`t` if the runtime takes its strides (head dim contiguous, other
    strides multiples of 16 bytes, 16-byte aligned data), else a copy."""
    elem = t.element_size()
    ok = t.stride(-1) == 1 and t.data_ptr() % 16 == 0 and all(
        size == 1 or (stride * elem) % 16 == 0
        for size, stride in zip(t.shape[:-1], t.stride()[:-1]))
    return t if ok else t.contiguous()


def _lse_shape(q, layout):
    b, h, s, _ = _dims(q, layout)
    return (h, s) if layout == "thd" else (b, h, s)


def _max(m):
    return None if m < 0 else m


def _no_sinks_grad(q):
    """The backward op's d sinks without sinks: empty."""
    return q.new_empty((0,), dtype=torch.float32)


if HAVE_CUSTOM_OP:
    @torch.library.custom_op("sdpa_dialect::attention_forward", mutates_args=())
    def _forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                 cu_seqlens_q: Optional[torch.Tensor], cu_seqlens_kv: Optional[torch.Tensor],
                 sinks: Optional[torch.Tensor], max_seqlen_q: int, max_seqlen_kv: int,
                 left: int, right: int, bottom_right: bool, scale: float, softcap: float,
                 layout: str, deterministic: bool) -> Tuple[torch.Tensor, torch.Tensor]:
        cfg = _config("forward", q, k, left, right, bottom_right, scale, softcap, layout,
                      False, sinks)
        q, k, v = _usable(q), _usable(k), _usable(v)
        return _run(cfg, lambda art: art.forward(
            q, k, v, layout=layout, cu_seqlens_q=cu_seqlens_q, cu_seqlens_kv=cu_seqlens_kv,
            max_seqlen_q=_max(max_seqlen_q), max_seqlen_kv=_max(max_seqlen_kv), sinks=sinks))

    @_forward.register_fake
    def _forward_fake(q, k, v, cu_seqlens_q, cu_seqlens_kv, sinks, max_seqlen_q, max_seqlen_kv,
                      left, right, bottom_right, scale, softcap, layout, deterministic):
        return q.new_empty(q.shape), q.new_empty(_lse_shape(q, layout), dtype=torch.float32)

    @torch.library.custom_op("sdpa_dialect::attention_backward", mutates_args=())
    def _backward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor,
                  lse: torch.Tensor, do: torch.Tensor, cu_seqlens_q: Optional[torch.Tensor],
                  cu_seqlens_kv: Optional[torch.Tensor], sinks: Optional[torch.Tensor],
                  max_seqlen_q: int, max_seqlen_kv: int, left: int, right: int,
                  bottom_right: bool, scale: float, softcap: float, layout: str,
                  deterministic: bool
                  ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """dQ, dK, dV and d sinks (f32 [Hq]; without sinks an empty f32 tensor:
        a custom op returns no None)."""
        cfg = _config("backward", q, k, left, right, bottom_right, scale, softcap, layout,
                      deterministic, sinks)
        q, k, v, do = _usable(q), _usable(k), _usable(v), _usable(do)
        grads = _run(cfg, lambda art: art.backward(
            q, k, v, o, lse, do, layout=layout, cu_seqlens_q=cu_seqlens_q,
            cu_seqlens_kv=cu_seqlens_kv, max_seqlen_q=_max(max_seqlen_q),
            max_seqlen_kv=_max(max_seqlen_kv), sinks=sinks))
        return tuple(grads) if sinks is not None else tuple(grads) + (_no_sinks_grad(q),)

    @_backward.register_fake
    def _backward_fake(q, k, v, o, lse, do, cu_seqlens_q, cu_seqlens_kv, sinks, max_seqlen_q,
                       max_seqlen_kv, left, right, bottom_right, scale, softcap, layout,
                       deterministic):
        grad_sinks = _no_sinks_grad(q) if sinks is None else sinks.new_empty(sinks.shape)
        return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape), grad_sinks

    _CONFIG_ARGS = ("max_seqlen_q", "max_seqlen_kv", "left", "right", "bottom_right", "scale",
                    "softcap", "layout", "deterministic")

    #: The forward's tensor operands: q, k, v, cu_seqlens_q, cu_seqlens_kv, sinks.
    _TENSORS = 6

    def _setup_context(ctx, inputs, output):
        q, k, v, cu_q, cu_kv, sinks = inputs[:_TENSORS]
        o, lse = output
        ctx.save_for_backward(q, k, v, o, lse, cu_q, cu_kv, sinks)
        ctx.config = inputs[_TENSORS:]
        ctx.mark_non_differentiable(lse)

    def _autograd(ctx, grad_o, grad_lse):
        q, k, v, o, lse, cu_q, cu_kv, sinks = ctx.saved_tensors
        dq, dk, dv, dsinks = torch.ops.sdpa_dialect.attention_backward(
            q, k, v, o, lse, grad_o, cu_q, cu_kv, sinks, *ctx.config)
        dsinks = dsinks if sinks is not None and ctx.needs_input_grad[5] else None
        return (dq, dk, dv, None, None, dsinks) + (None,) * len(_CONFIG_ARGS)

    _forward.register_autograd(_autograd, setup_context=_setup_context)
