"""The configuration sweep of the benchmark's two cases (issue 15, track A).

One table for both ends: bench/make_artifacts.py --sweep compiles every entry
of SWEEP (and drops those ptxas reports spills for), bench/sweep.py times and
checks what was written. Each entry is an artifact of the EXISTING kernels at
one tile shape, warp count (forward) or dQ mode (backward) for one case:

  gpt-oss  bf16, d 64, window 128 keys (band 127 / 0, top-left)
  heavy    bf16, d 128, window 4096 keys (band 4095 / 0, top-left)

Names (the case without '-', a symbol): sweep_<case>_fwd_q<Tq>k<Tk>w<warps>, sweep_<case>_bwd_q<Tq>k<Tk>_<nd|det>
(the backward has one warp per 16 keys, so Tk fixes its warps). The entry
marked DEFAULT per case and direction is what the pipelines pick today (the
anchor rows of the sweep's report are measured against it).
"""

from make_artifacts import Config

# Case: (head dim, left edge of the band).
CASES = {"gpt-oss": (64, 127), "heavy": (128, 4095)}

# Left out: what ptxas spills for (at 6dc557d: heavy forward 64x64 w4, and
# 32 rows per warp at d 128: 64x64 w2, 128x64 w4) or the lowering refuses
# (backward 16x128 at d 64: 16 rows do not split among 256 threads). 128x32
# w4 and 64x32 w2 at d 128 compile clean since the forward loads Q fragments
# per key tile at two row tiles per warp, the heavy backward's 64x64 and
# 64x128 since bwd_main reduces S^T and dP^T over head_dim outermost.
# The gpt-oss forward at 64x128 w4 (measured 10-45% slower at b9a9aaf) spills
# 52 bytes since the exponent became one fma (5b656b4) and is left out; the
# heavy forward at 32x32 w2 spills 8 bytes since the tile holding Skv has a
# loop of its own (3bfd632) and is left out too. So are the gpt-oss forward
# at 64x64 w4 (28 bytes for sm_80) and the heavy one at 64x32 w2 (4 bytes),
# found when the sweep's test first ran with ptxas (2026-12-06).
# Forward (Tq, Tk, warps): rows per warp = Tq / warps (16 or 32: one or two
# m16 atoms per warp), keys per step Tk.
FORWARD = {
    "gpt-oss": [(64, 32, 4), (128, 64, 8), (128, 32, 8), (64, 64, 2),
                (64, 32, 2), (128, 64, 4), (128, 32, 4), (128, 128, 8),
                (32, 64, 2), (32, 32, 2)],
    "heavy": [(64, 32, 4), (128, 32, 8), (128, 64, 8), (128, 32, 4)],
}
# Backward (Tq, Tk, deterministic).
BACKWARD = {
    "gpt-oss": [(tq, tk, det) for tq, tk in ((32, 64), (16, 64), (64, 64), (16, 32),
                                             (32, 32), (32, 128), (64, 128))
                for det in (False, True)],
    "heavy": [(32, 64, False), (16, 64, False), (16, 32, False), (32, 32, False),
              (32, 128, False), (32, 64, True), (16, 64, True), (32, 128, True),
              (64, 128, False), (64, 64, False), (64, 128, True), (64, 64, True)],
}
# What the pipelines pick today (tile-q / tile-kv / warps as make_artifacts.py
# compiles the benchmark's artifacts): the default tile rule of
# lib/Analysis/KernelDefaults.cpp, from this sweep at b9a9aaf. gpt-oss (128
# keys <= 512, d 64): forward 64x32 w4, backward 64x64 both dQ modes; heavy
# (4096 keys, d 128): forward 128 rows and 4 warps at the key tile of 32 that
# make_artifacts.py's bf16_d128_win4096 sets, backward 64x128 in both dQ
# orders (2026-12-04: spill-free since bwd_main reduces over head_dim
# outermost).
DEFAULT = {("gpt-oss", "fwd"): "sweep_gptoss_fwd_q64k32w4",
           ("heavy", "fwd"): "sweep_heavy_fwd_q128k32w4",
           ("gpt-oss", "bwd"): "sweep_gptoss_bwd_q64k64_nd",
           ("gpt-oss", "det"): "sweep_gptoss_bwd_q64k64_det",
           ("heavy", "bwd"): "sweep_heavy_bwd_q64k128_nd",
           ("heavy", "det"): "sweep_heavy_bwd_q64k128_det"}


def forward_name(case, tq, tk, warps):
    return f"sweep_{case.replace('-', '')}_fwd_q{tq}k{tk}w{warps}"


def backward_name(case, tq, tk, det):
    return f"sweep_{case.replace('-', '')}_bwd_q{tq}k{tk}_{'det' if det else 'nd'}"


def _table():
    table = {}  # name -> (case, kind, Config); kind fwd | bwd | det
    for case, (d, left) in CASES.items():
        for tq, tk, w in FORWARD[case]:
            table[forward_name(case, tq, tk, w)] = (
                case, "fwd", Config("forward", "bf16", d, left, 0, tile_q=tq, tile_kv=tk,
                                    warps=w))
        for tq, tk, det in BACKWARD[case]:
            table[backward_name(case, tq, tk, det)] = (
                case, "det" if det else "bwd",
                Config("backward", "bf16", d, left, 0, deterministic=det, tile_q=tq,
                       tile_kv=tk))
    return table


SWEEP = _table()
assert all(name in SWEEP for name in DEFAULT.values())
