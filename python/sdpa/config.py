"""Kernel configurations: what one compiled artifact is, and its cache key.

A configuration is everything `sdpa-opt` bakes into an artifact
(docs/Artifact.md): direction, element type, head dim, band (left, right,
alignment), dense or THD, the backward's dQ mode, the softmax scale, the
logit softcap and the tiles. Shapes are not part of it: every artifact is compiled from an op with
dynamic batch, heads and lengths, so one serves every shape.

    cfg = select("forward", "bf16", 64, left=127, right=0)
    cfg.key        # 'fwd-bf16-d64-l127-r0-tl-dense-s0.125'
    KernelConfig.from_key(cfg.key) == cfg

Pure Python (no torch, no runtime): the frontends call `select` with what
the user asked for, and the cache (sdpa.kernels) stores artifacts by key.
"""

import math
import re
import struct
from dataclasses import dataclass
from typing import Optional

from .schema_tables import BACKWARD_HEAD_DIMS, FORWARD_HEAD_DIMS

__all__ = ["ConfigError", "KernelConfig", "select", "resolve_band", "DTYPES", "HEAD_DIMS"]

#: Element types the kernels are compiled for (docs/Runtime.md).
DTYPES = ("f16", "bf16")
#: Head dims by direction: the schema's table (sdpa.schema_tables, generated
#: from include/SdpaSchema), the one the lowering and the runtime check.
HEAD_DIMS = {"forward": FORWARD_HEAD_DIMS, "backward": BACKWARD_HEAD_DIMS}
ALIGNS = ("top_left", "bottom_right")
DIRECTIONS = ("forward", "backward")


class ConfigError(ValueError):
    """A configuration the kernels do not have; the message names the argument."""


def float32(x):
    """`x` rounded to the nearest float32, as the manifest and kernels hold it."""
    return struct.unpack("f", struct.pack("f", x))[0]


def describe_dims(dims):
    """(64, 128) -> "64 or 128", as the schema says it."""
    dims = [str(d) for d in dims]
    return dims[0] if len(dims) == 1 else ", ".join(dims[:-1]) + " or " + dims[-1]


def check_softcap(softcap):
    """The logit cap c of c * tanh(s / c) (docs/Semantics.md §7): None or +inf is
    none (returns None); otherwise a positive finite number, rounded to float32
    as the op's attribute and the kernels hold it."""
    if softcap is None:
        return None
    if isinstance(softcap, bool) or not isinstance(softcap, (int, float)) or \
            math.isnan(softcap) or softcap <= 0:
        raise ConfigError(f"softcap: expected a positive number (or None/inf: no cap), "
                          f"got {softcap!r}")
    if math.isinf(softcap):
        return None
    return float32(float(softcap))


def _edge(name, value):
    """A band edge: None or -1 (unbounded) or a non-negative integer."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"window: {name} edge must be an integer or None, got {value!r}")
    if value == -1:
        return None
    if value < 0:
        raise ConfigError(f"window: {name} edge must be >= 0 (or None/-1: unbounded), got {value}")
    return value


def resolve_band(causal=False, window=(None, None), align="top_left"):
    """(left, right, align) of the band the frontends' arguments describe
    (docs/Semantics.md §1): query q sees key k when q - left <= k <= q + right
    (bottom_right: shifted by Skv - Sq). `causal` is right = 0; together with
    a window its right edge must be 0 or None."""
    if window is None:
        window = (None, None)
    if not isinstance(window, (tuple, list)) or len(window) != 2:
        raise ConfigError(f"window: expected a pair (left, right), got {window!r}")
    left, right = _edge("left", window[0]), _edge("right", window[1])
    if causal:
        if right not in (None, 0):
            raise ConfigError(f"window: causal=True needs the right edge 0 or None, got {right}")
        right = 0
    if align not in ALIGNS:
        raise ConfigError(f"align: expected 'top_left' or 'bottom_right', got {align!r}")
    return left, right, align


@dataclass(frozen=True)
class KernelConfig:
    """One artifact's configuration; build it with `select`, which checks it
    and picks the tiles."""

    direction: str
    dtype: str
    head_dim: int
    left: Optional[int]
    right: Optional[int]
    align: str
    varlen: bool
    deterministic: bool
    scale: float  # float32-rounded
    tile_q: Optional[int] = None  # None: the pipeline's default
    tile_kv: Optional[int] = None
    softcap: Optional[float] = None  # float32-rounded; None: no cap
    sinks: bool = False  # one f32 sink logit per query head (docs/Semantics.md §7)

    @property
    def key(self):
        """The cache key: the artifact's file stem, readable and reversible."""
        edge = lambda e: "inf" if e is None else str(e)  # noqa: E731
        parts = ["fwd" if self.direction == "forward" else "bwd", self.dtype,
                 f"d{self.head_dim}", f"l{edge(self.left)}", f"r{edge(self.right)}",
                 "tl" if self.align == "top_left" else "br",
                 "thd" if self.varlen else "dense"]
        if self.direction == "backward":
            parts.append("det" if self.deterministic else "nd")
        parts.append("s" + f"{self.scale:.9g}".replace("+", ""))  # a plain file stem
        if self.softcap is not None:
            parts.append("c" + f"{self.softcap:.9g}".replace("+", ""))
        if self.tile_q:
            parts.append(f"tq{self.tile_q}")
        if self.tile_kv:
            parts.append(f"tk{self.tile_kv}")
        if self.sinks:
            parts.append("sinks")
        return "-".join(parts)

    _KEY = re.compile(r"(fwd|bwd)-(f16|bf16)-d(\d+)-l(inf|\d+)-r(inf|\d+)-(tl|br)-(dense|thd)"
                      r"(?:-(det|nd))?-s([0-9.e+-]+)(?:-c([0-9.e+-]+))?(?:-tq(\d+))?"
                      r"(?:-tk(\d+))?(-sinks)?")

    @classmethod
    def from_key(cls, key):
        """The configuration of a key (ConfigError if it is not one)."""
        m = cls._KEY.fullmatch(key)
        if not m or (m.group(1) == "bwd") != (m.group(8) is not None):
            raise ConfigError(f"key: '{key}' is not a kernel configuration key "
                              "(e.g. fwd-bf16-d64-l127-r0-tl-dense-s0.125)")
        edge = lambda e: None if e == "inf" else int(e)  # noqa: E731
        cfg = cls("forward" if m.group(1) == "fwd" else "backward", m.group(2),
                  int(m.group(3)), edge(m.group(4)), edge(m.group(5)),
                  "top_left" if m.group(6) == "tl" else "bottom_right",
                  m.group(7) == "thd", m.group(8) == "det", float32(float(m.group(9))),
                  int(m.group(11)) if m.group(11) else None,
                  int(m.group(12)) if m.group(12) else None,
                  float32(float(m.group(10))) if m.group(10) else None,
                  m.group(13) is not None)
        if cfg.key != key:
            raise ConfigError(f"key: '{key}' is not in canonical form (expected '{cfg.key}')")
        return cfg

    def describe(self):
        """A one-line human description (for messages)."""
        edge = lambda e: "inf" if e is None else str(e)  # noqa: E731
        text = (f"{self.direction} {self.dtype} head_dim {self.head_dim} "
                f"band(left={edge(self.left)}, right={edge(self.right)}, {self.align}) "
                f"{'thd' if self.varlen else 'dense'} "
                f"scale {self.scale:.9g}")
        if self.softcap is not None:
            text += f" softcap {self.softcap:.9g}"
        if self.sinks:
            text += " sinks"
        if self.direction == "backward":
            text += " deterministic" if self.deterministic else " atomic-dq"
        return text

    def mlir(self, name=None):
        """The function `sdpa-opt` compiles: the op with dynamic sizes (the one
        writer of this text: bench/make_artifacts.py compiles it too). `name`:
        the function's symbol, by default the key's."""
        d, t = self.head_dim, self.dtype
        if self.varlen:
            x, lse = f"tensor<?x?x{d}x{t}>", "tensor<?x?xf32>"
            seqlens = " seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>)"
            offsets = ", %cq: tensor<?xi32>, %ck: tensor<?xi32>"
            layout = ", layout = #sdpa.layout<thd>"
        else:
            x, lse = f"tensor<?x?x?x{d}x{t}>", "tensor<?x?x?xf32>"
            seqlens = offsets = layout = ""
        edge = lambda e: "inf" if e is None else str(e)  # noqa: E731
        attrs = (f"mask = #sdpa.band<left = {edge(self.left)}, right = {edge(self.right)}, "
                 f"align = {self.align}>, scale = {self.scale:.17e} : f64{layout}")
        if self.softcap is not None:
            attrs += f", softcap = {self.softcap:.9e} : f32"
        name = "@" + (name or self.key.replace("-", "_").replace(".", "p").replace("+", ""))
        sinks = " sinks(%s : tensor<?xf32>)" if self.sinks else ""
        if self.sinks:
            offsets += ", %s: tensor<?xf32>"
        if self.direction == "forward":
            return (f"func.func {name}(%q: {x}, %k: {x}, %v: {x}{offsets}) -> ({x}, {lse}) {{\n"
                    f"  %o, %lse = sdpa.attention %q, %k, %v{seqlens}{sinks} {{{attrs}}}\n"
                    f"      : {x}, {x}, {x} -> {x}, {lse}\n"
                    f"  return %o, %lse : {x}, {lse}\n}}\n")
        det = ", deterministic" if self.deterministic else ""
        ds, ds_t = (", %ds", ", tensor<?xf32>") if self.sinks else ("", "")
        return (f"func.func {name}(%q: {x}, %k: {x}, %v: {x}, %o: {x}, %do: {x}, "
                f"%lse: {lse}{offsets}) -> ({x}, {x}, {x}{ds_t}) {{\n"
                f"  %dq, %dk, %dv{ds} = sdpa.attention_grad %q, %k, %v, %o, %do, %lse{seqlens}"
                f"{sinks} {{{attrs}{det}}}\n"
                f"      : {x}, {x}, {x}, {x}, {x}, {lse} -> {x}, {x}, {x}{ds_t}\n"
                f"  return %dq, %dk, %dv{ds} : {x}, {x}, {x}{ds_t}\n}}\n")

    def pipeline(self, out_dir):
        """The `sdpa-opt` option that lowers `mlir()` to `<out_dir>/<key>.{ptx,manifest}`."""
        opts = [f"artifact-dir={out_dir}", f"artifact-name={self.key}"]
        if self.tile_q:
            opts.append(f"tile-q={self.tile_q}")
        if self.tile_kv:
            opts.append(f"tile-kv={self.tile_kv}")
        return f"--sdpa-{self.direction}-pipeline={' '.join(opts)}"


def _tiles(direction, head_dim):
    """(tile_q, tile_kv) of a configuration; None is the pipeline's default
    (the default tile rule, lib/Analysis/KernelDefaults.cpp). The forward
    from d = 128 up takes key tiles of 32 (at 64 x 64 its bf16 kernel spills
    at d 128, and from d 160 the tiles do not fit shared memory), its query
    tile and warps still the rule's; the backward keeps the rule's. These are the tiles
    bench/make_artifacts.py compiles and the GPU checks cover."""
    return (None, 32) if direction == "forward" and head_dim >= 128 else (None, None)


def select(direction, dtype, head_dim, left=None, right=None, align="top_left", varlen=False,
           deterministic=False, scale=None, softcap=None, sinks=False):
    """The configuration for an attention call: checks every argument
    (ConfigError naming it) and picks the tiles. `scale` None is
    1/sqrt(head_dim); it and `softcap` (None or inf: no cap) are rounded to
    float32 so that equal kernels get one key. `sinks` compiles the kernels
    with one f32 sink logit per query head (docs/Semantics.md §7)."""
    if direction not in DIRECTIONS:
        raise ConfigError(f"direction: expected 'forward' or 'backward', got {direction!r}")
    if dtype not in DTYPES:
        raise ConfigError(f"dtype: the kernels take f16 or bf16, got {dtype}")
    if head_dim not in HEAD_DIMS[direction]:
        raise ConfigError(f"head_dim: the {direction} kernels are compiled for "
                          f"{describe_dims(HEAD_DIMS[direction])}, got {head_dim}")
    left, right, align = resolve_band(False, (left, right), align)
    if scale is None:
        scale = 1.0 / math.sqrt(head_dim)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale) \
            or scale <= 0:
        raise ConfigError(f"scale: expected a positive finite number, got {scale!r}")
    if direction == "forward" and deterministic:
        deterministic = False  # the forward has no dQ: one artifact serves both
    softcap = check_softcap(softcap)
    tile_q, tile_kv = _tiles(direction, head_dim)
    return KernelConfig(direction, dtype, head_dim, left, right, align, bool(varlen),
                        bool(deterministic), float32(float(scale)), tile_q, tile_kv, softcap,
                        bool(sinks))
