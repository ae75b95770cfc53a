"""Kernel configurations: what one compiled artifact is, and its cache key.

A configuration is everything `sdpa-opt` bakes into an artifact
(docs/Artifact.md): direction, element type, head dim, band (left, right,
alignment), dense or THD, the backward's dQ mode, the softmax scale, the
logit softcap, the tiles and the width of the kernels' index arithmetic.
Shapes are not part of it: every artifact is compiled from an op with
dynamic batch, heads and lengths, so one serves every shape its index width
can address (a 32-bit artifact: every operand's last element within
2^31 - 1; the frontends fall back to the 64-bit twin, `wide()`, past that).

    cfg = select("forward", "bf16", 64, left=127, right=0)
    cfg.key        # 'fwd-bf16-d64-l127-r0-tl-dense-s0.125-i32'
    KernelConfig.from_key(cfg.key) == cfg

Pure Python (no torch, no runtime): the frontends call `select` with what
the user asked for, and the cache (sdpa.kernels) stores artifacts by key.
"""

import dataclasses
import math
import re
import struct
from dataclasses import dataclass
from typing import Optional

from .schema_tables import BACKWARD_HEAD_DIMS, FORWARD_HEAD_DIMS, MAX_OFFSET_32

__all__ = ["ConfigError", "KernelConfig", "select", "resolve_band", "DTYPES", "HEAD_DIMS",
           "INDEX_BITS", "MAX_INDEX", "default_index_bits"]

#: Element types the kernels are compiled for (docs/Runtime.md).
DTYPES = ("f16", "bf16")
#: Head dims by direction: the schema's table (sdpa.schema_tables, generated
#: from include/SdpaSchema), the one the lowering and the runtime check.
HEAD_DIMS = {"forward": FORWARD_HEAD_DIMS, "backward": BACKWARD_HEAD_DIMS}
ALIGNS = ("top_left", "bottom_right")
DIRECTIONS = ("forward", "backward")
#: Widths of the kernels' index arithmetic (the pipelines' `index-bitwidth`).
INDEX_BITS = (32, 64)
#: The largest element offset a 32-bit artifact addresses: the schema's
#: kMaxOffset32 (sdpa.schema_tables), which the runtime checks.
MAX_INDEX = MAX_OFFSET_32


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
    """One artifact's configuration; build it with `select`, which checks it."""

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
    index_bits: int = 64  # the kernels' index arithmetic: 32 or 64 (select: 32)

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
        if self.index_bits == 32:
            parts.append("i32")
        return "-".join(parts)

    def wide(self):
        """The same configuration at a 64-bit index: the artifact that takes
        the calls a 32-bit one refuses (SdpaStatus SDPA_ERROR_INDEX_RANGE)."""
        return dataclasses.replace(self, index_bits=64)

    _KEY = re.compile(r"(fwd|bwd)-(f16|bf16)-d(\d+)-l(inf|\d+)-r(inf|\d+)-(tl|br)-(dense|thd)"
                      r"(?:-(det|nd))?-s([0-9.e+-]+)(?:-c([0-9.e+-]+))?(?:-tq(\d+))?"
                      r"(?:-tk(\d+))?(-sinks)?(-i32)?")

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
                  m.group(13) is not None, 32 if m.group(14) else 64)
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
        return text + f", {self.index_bits}-bit index"

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
        if self.index_bits != 64:
            opts.append(f"index-bitwidth={self.index_bits}")
        return f"--sdpa-{self.direction}-pipeline={' '.join(opts)}"


def default_index_bits(direction, head_dim, align):
    """The index width `select` picks (and bench/make_artifacts.py's table
    where an entry names none): 32, whose kernels run 1-8% faster on an
    H100 (docs/Performance.md), except the bottom-right forwards from d 128 up:
    there the band's shift Skv - Sq joins 255 live registers, and at 32 bits
    ptxas spills 8-20 bytes for sm_80 where at 64 it does not
    (make_artifacts.py's spill check, docs/Performance.md "Spills")."""
    return 64 if direction == "forward" and head_dim >= 128 and align == "bottom_right" else 32


def select(direction, dtype, head_dim, left=None, right=None, align="top_left", varlen=False,
           deterministic=False, scale=None, softcap=None, sinks=False, index_bits=None):
    """The configuration for an attention call: checks every argument
    (ConfigError naming it). The tiles are the pipelines' rule. `scale` None is
    1/sqrt(head_dim); it and `softcap` (None or inf: no cap) are rounded to
    float32 so that equal kernels get one key. `sinks` compiles the kernels
    with one f32 sink logit per query head (docs/Semantics.md §7).
    `index_bits` (32 or 64; None: `default_index_bits`) is the width of the
    kernels' index arithmetic; a call a 32-bit artifact cannot address goes
    to `cfg.wide()`."""
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
    if index_bits is None:
        index_bits = default_index_bits(direction, head_dim, align)
    if index_bits not in INDEX_BITS:
        raise ConfigError(f"index_bits: expected 32 or 64, got {index_bits!r}")
    # The tiles are the compiler's rule (lib/Analysis/KernelDefaults.cpp), as
    # for bench/make_artifacts.py's table.
    return KernelConfig(direction, dtype, head_dim, left, right, align, bool(varlen),
                        bool(deterministic), float32(float(scale)), None, None, softcap,
                        bool(sinks), index_bits)
