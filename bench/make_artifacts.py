#!/usr/bin/env python3
"""Compiles every kernel artifact the GPU scripts use, with sdpa-opt.

One table (CONFIGS) names each configuration: direction, element type, head
dim, band, alignment, dense or THD, dQ mode, tiles, the logit softcap and sinks
(docs/Semantics.md §7). Each becomes
`<name>.ptx` + `<name>.manifest` in --out through `sdpa-forward-pipeline` or
`sdpa-backward-pipeline`, from an op with dynamic batch, heads and lengths,
so one artifact serves every shape the GPU checks and benchmark use.
Configurations the lowering refuses are reported and skipped (exit 1 unless
--allow-refused), so the table can name what is planned.

IMPORTED names StableHLO that JAX printed, compiled whole with
`sdpa-stablehlo-pipeline` into the subdirectory <out>/<name>/ (its kernel
modules keep their symbols: sdpa_fwd_0, sdpa_bwd_0, ...), next to
module.mlir, the rewritten module whose attention sites call them
(docs/Export.md).

  bench/make_artifacts.py --sdpa-opt build/bin/sdpa-opt --out .artifacts/kernels
  bench/make_artifacts.py ... --only bwd_f16_d64_win127_det,f16_d64_win127
  bench/make_artifacts.py ... --sweep --out .artifacts/sweep

--sweep compiles the configuration sweep of bench/sweep_configs.py instead
(timed by bench/sweep.py). With ptxas found (--ptxas, else on PATH), every
PTX written (an imported model's too) is assembled for sm_80 and for sm_90,
what an H100 or H200 allocates when its driver compiles the sm_80 PTX. An
artifact with spills or a stack frame for sm_80, or for sm_90 other than
SM90_SPILLS lists, is removed and reported as refused; a listed spill that
changed is refused too, so the list stays what spills. With --set (the other
side of an A/B) only sm_80 is checked: bench/compare_registers.py compares
both targets' registers and spills of the two sides.

--set FIELD=VALUE (repeatable) changes one field of every configuration
compiled, which keeps its name: the other side of an A/B
(bench/time_kernels.py --baseline compares artifacts by name),

  bench/make_artifacts.py --out .artifacts/s3 --only bf16_d64_win127 --set stages=3

The artifacts that override a choice of the compiler's rule (tiles, warps,
dQ mode, stages; RULE_FIELDS) are listed in <out>/overrides.txt
(bench_cases.read_overrides), and the benchmark does not time them for its
cases: it shows what the compiler picks.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from typing import Optional, get_args

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from sdpa.config import KernelConfig, default_index_bits, float32  # noqa: E402

from bench_cases import write_overrides  # noqa: E402
from ptxas_resources import PtxasError, kernel_resources  # noqa: E402


@dataclass(frozen=True)
class Config:
    direction: str  # forward | backward
    dtype: str  # f16 | bf16
    head_dim: int
    left: Optional[int]  # None: no left edge (inf)
    right: Optional[int]
    align: str = "top_left"
    thd: bool = False
    deterministic: bool = False
    tile_q: Optional[int] = None  # None: the pipeline's default
    tile_kv: Optional[int] = None
    softcap: Optional[float] = None
    sinks: bool = False  # one f32 sink logit per query head (docs/Semantics.md §7)
    warps: Optional[int] = None  # forward only; None: the pipeline's default
    dq_mode: Optional[str] = None  # backward only: accumulate | recompute; None: the default
    stages: Optional[int] = None  # forward only: K/V shared stages; None: the pipeline's (2)
    # 32 or 64: the pipelines' index-bitwidth; None: the frontends' rule
    # (sdpa.config.default_index_bits: 32 but for the bottom-right forwards
    # from d 128).
    index_bitwidth: Optional[int] = None


F, B = "forward", "backward"
CONFIGS = {
    # Forward: every band kind of docs/Semantics.md §1, both alignments,
    # d 64/128.
    "f16_d64_full": Config(F, "f16", 64, None, None),
    "bf16_d64_causal": Config(F, "bf16", 64, None, 0),
    "bf16_d64_win127": Config(F, "bf16", 64, 127, 0),
    "f16_d64_win127": Config(F, "f16", 64, 127, 0),
    "f16_d64_diag": Config(F, "f16", 64, 0, 0),
    "f16_d64_local16_br": Config(F, "f16", 64, 16, 16, "bottom_right"),
    # d = 128 (the rule's key tiles of 32: at 64 the bf16 kernel spills).
    "f16_d128_causal_br": Config(F, "f16", 128, None, 0, "bottom_right"),
    # Causal d 128 as Llama-class models train it.
    "bf16_d128_causal": Config(F, "bf16", 128, None, 0),
    "bf16_d128_win127_br": Config(F, "bf16", 128, 127, 0, "bottom_right"),
    "bf16_d128_left32": Config(F, "bf16", 128, 32, None),
    "bf16_d128_win4096": Config(F, "bf16", 128, 4095, 0),
    "f16_d128_win4096": Config(F, "f16", 128, 4095, 0),
    # Forward at every other head dim of the schema's table (lib/Schema): the
    # lowering writes them and the runtime loads them.
    "bf16_d32_causal": Config(F, "bf16", 32, None, 0),
    "f16_d96_win127": Config(F, "f16", 96, 127, 0),
    "bf16_d160_causal_br": Config(F, "bf16", 160, None, 0, "bottom_right"),
    # d 80 has an odd k16 count (its last K load is x2); from d 192 the rule's
    # key tiles of 16 keep the forward free of spills.
    "bf16_d80_causal": Config(F, "bf16", 80, None, 0),
    "f16_d192_win127": Config(F, "f16", 192, 127, 0),
    "bf16_d224_full": Config(F, "bf16", 224, None, None),
    "f16_d256_causal": Config(F, "f16", 256, None, 0),
    # Forward, THD packed sequences.
    "bf16_d64_win127_thd": Config(F, "bf16", 64, 127, 0, thd=True),
    "f16_d128_causal_br_thd": Config(F, "f16", 128, None, 0, "bottom_right", thd=True),
    # Forward logit softcap (Gemma 2's cap of 50 on its 4096-key window), and
    # a small cap that bites on most scores, THD.
    "bf16_d128_win4095_softcap50": Config(F, "bf16", 128, 4095, 0, softcap=50.0),
    "f16_d64_causal_br_softcap2_thd": Config(F, "f16", 64, None, 0, "bottom_right",
                                             thd=True, softcap=2.0),
    # K and V in three shared stages (copies two tiles ahead): gpt-oss's band,
    # and causal bottom-right THD with a softcap (the key-tail tile).
    "bf16_d64_win127_s3": Config(F, "bf16", 64, 127, 0, stages=3),
    "f16_d64_causal_br_softcap2_thd_s3": Config(F, "f16", 64, None, 0, "bottom_right",
                                                thd=True, softcap=2.0, stages=3),
    # Lowered at a 64-bit index, the frontends' fallback past 2^31 - 1
    # elements (sdpa.config.KernelConfig.wide; the rule's width is 32 for
    # these): gpt-oss's forward and backward, packed sequences with a cap,
    # bottom-right, packed with sinks, a cap and two key row tiles.
    "bf16_d64_win127_i64": Config(F, "bf16", 64, 127, 0, index_bitwidth=64),
    "f16_d64_causal_br_softcap2_thd_i64": Config(F, "f16", 64, None, 0, "bottom_right",
                                                 thd=True, softcap=2.0, index_bitwidth=64),
    "bwd_bf16_d64_win127_nd_i64": Config(B, "bf16", 64, 127, 0, index_bitwidth=64),
    "bwd_f16_d40_win127_thd_nd_i64": Config(B, "f16", 40, 127, 0, thd=True,
                                            index_bitwidth=64),
    "bwd_f16_d48_sym_thd_sinks_softcap2_kr2_i64": Config(B, "f16", 48, 40, 40, thd=True,
                                                         sinks=True, softcap=2.0, tile_q=32,
                                                         tile_kv=64, index_bitwidth=64),
    # ... and the relay's element pointers (dQ accumulated, deterministic).
    "bwd_f16_d64_win127_acc_det_i64": Config(B, "f16", 64, 127, 0, deterministic=True,
                                             dq_mode="accumulate", index_bitwidth=64),
    # Attention sinks (gpt-oss: d 64, window 128, GQA), bottom-right so that
    # some rows see no key, forward dense and THD, backward both dQ modes.
    "bf16_d64_win127_br_sinks": Config(F, "bf16", 64, 127, 0, "bottom_right", sinks=True),
    "f16_d128_causal_br_sinks_thd": Config(F, "f16", 128, None, 0, "bottom_right",
                                           thd=True, sinks=True),
    "bf16_d128_win4095_softcap50_sinks": Config(F, "bf16", 128, 4095, 0, softcap=50.0,
                                                sinks=True),
    "bwd_bf16_d64_win127_br_sinks_det": Config(B, "bf16", 64, 127, 0, "bottom_right",
                                               deterministic=True, sinks=True),
    "bwd_f16_d64_win127_br_sinks_nd": Config(B, "f16", 64, 127, 0, "bottom_right",
                                             sinks=True),
    "bwd_f16_d128_causal_br_sinks_thd_det": Config(B, "f16", 128, None, 0,
                                                   "bottom_right", thd=True,
                                                   deterministic=True, sinks=True),
    "bwd_bf16_d128_win4095_sinks_nd": Config(B, "bf16", 128, 4095, 0, sinks=True),
    # The benchmark's real gpt-oss rows (bench/benchmark.py): top-left window
    # 128 with sinks, bf16, forward and both dQ modes.
    "bf16_d64_win127_sinks": Config(F, "bf16", 64, 127, 0, sinks=True),
    "bwd_bf16_d64_win127_sinks_nd": Config(B, "bf16", 64, 127, 0, sinks=True),
    "bwd_bf16_d64_win127_sinks_det": Config(B, "bf16", 64, 127, 0, deterministic=True,
                                            sinks=True),
    # Backward at the new head dims: d 80 and 96 with one warp per 16 keys;
    # above mma width 128 with split visits (two warps a key block,
    # BackwardKernelSpec::columnGroups: Gemma 2's d 256 with its cap and
    # window, 160, 192, 224 and 240), also packed with sinks and a symmetric
    # band.
    "bwd_f16_d80_win127_det": Config(B, "f16", 80, 127, 0, deterministic=True),
    "bwd_bf16_d96_causal_nd": Config(B, "bf16", 96, None, 0),
    # Wide d 80 (mma width 80): the rule's 64 x 64, one key row tile a warp.
    "bwd_bf16_d80_causal_nd": Config(B, "bf16", 80, None, 0),
    "bwd_bf16_d160_win127_br_det": Config(B, "bf16", 160, 127, 0, "bottom_right",
                                          deterministic=True),
    "bwd_f16_d192_causal_nd": Config(B, "f16", 192, None, 0),
    "bwd_f16_d160_sym_thd_sinks_det": Config(B, "f16", 160, 40, 40, thd=True,
                                             deterministic=True, sinks=True),
    "bwd_bf16_d256_win4095_softcap50_det": Config(B, "bf16", 256, 4095, 0,
                                                  softcap=50.0, deterministic=True),
    # The benchmark's Gemma-2-like rows: its forward (the rule's key tiles
    # of 16: at 32 ptxas spills with the cap), and the nondeterministic
    # backward.
    "bf16_d256_win4095_softcap50": Config(F, "bf16", 256, 4095, 0, softcap=50.0),
    "bwd_bf16_d256_win4095_softcap50_nd": Config(B, "bf16", 256, 4095, 0, softcap=50.0),
    # Backward softcap: both dQ modes.
    "bwd_bf16_d128_win4095_softcap50_nd": Config(B, "bf16", 128, 4095, 0, softcap=50.0),
    "bwd_f16_d64_win127_softcap2_det": Config(B, "f16", 64, 127, 0, deterministic=True,
                                              softcap=2.0),
    # Backward: both dQ modes, the benchmark's pairs, bottom-right, symmetric.
    # dQ recomputed per query tile (bwd_dq): the benchmark's cases, both
    # alignments, GQA, THD, sinks, softcap, d 80 to 128.
    "bwd_bf16_d64_win127_rc": Config(B, "bf16", 64, 127, 0, dq_mode="recompute"),
    "bwd_bf16_d64_win127_rc_det": Config(B, "bf16", 64, 127, 0, deterministic=True,
                                         dq_mode="recompute"),
    "bwd_f16_d64_brwin_rc": Config(B, "f16", 64, 100, 0, "bottom_right", dq_mode="recompute"),
    "bwd_f16_d64_win127_thd_rc": Config(B, "f16", 64, 127, 0, thd=True, dq_mode="recompute"),
    "bwd_bf16_d64_win127_br_sinks_rc": Config(B, "bf16", 64, 127, 0, "bottom_right",
                                              sinks=True, dq_mode="recompute"),
    "bwd_bf16_d64_win127_sinks_rc": Config(B, "bf16", 64, 127, 0, sinks=True,
                                           dq_mode="recompute"),
    "bwd_f16_d128_causal_br_sinks_thd_rc": Config(B, "f16", 128, None, 0, "bottom_right",
                                                  thd=True, sinks=True, dq_mode="recompute"),
    "bwd_f16_d64_win127_softcap2_rc": Config(B, "f16", 64, 127, 0, softcap=2.0,
                                             dq_mode="recompute"),
    "bwd_f16_d80_win127_rc": Config(B, "f16", 80, 127, 0, dq_mode="recompute"),
    "bwd_bf16_d96_causal_rc": Config(B, "bf16", 96, None, 0, dq_mode="recompute"),
    "bwd_bf16_d128_win4096_rc": Config(B, "bf16", 128, 4095, 0, dq_mode="recompute"),
    # dQ accumulated (the default recomputes it but for a capped
    # non-deterministic wide band up to d 128): atomics and the relay, in
    # one warp per key block and, above d 128, in split visits at the
    # earlier 32 x 64 tiles (Gemma 2's relayed step among them).
    "bwd_bf16_d64_win127_acc": Config(B, "bf16", 64, 127, 0, dq_mode="accumulate"),
    "bwd_f16_d64_win127_acc_det": Config(B, "f16", 64, 127, 0, deterministic=True,
                                         dq_mode="accumulate"),
    "bwd_bf16_d176_causal_acc": Config(B, "bf16", 176, None, 0, dq_mode="accumulate",
                                       tile_q=32, tile_kv=64),
    "bwd_bf16_d256_win4095_softcap50_acc_det": Config(B, "bf16", 256, 4095, 0,
                                                      deterministic=True, softcap=50.0,
                                                      dq_mode="accumulate", tile_q=32,
                                                      tile_kv=64),
    "bwd_f16_d160_sym_thd_sinks_acc_det": Config(B, "f16", 160, 40, 40, thd=True, sinks=True,
                                                 deterministic=True, dq_mode="accumulate",
                                                 tile_q=32, tile_kv=64),
    "bwd_f16_d64_sym_rc": Config(B, "f16", 64, 40, 40, dq_mode="recompute"),
    # bwd_main with two key row tiles a warp (tile_q <= 32, d <= 64, dQ
    # recomputed): packed, sinks, a cap, a symmetric band.
    "bwd_f16_d48_sym_thd_sinks_softcap2_kr2": Config(B, "f16", 48, 40, 40, thd=True, sinks=True,
                                                     softcap=2.0, tile_q=32, tile_kv=64),
    # ... and on a wide band (the rule's 64 x 64 unless capped or packed):
    # visits formed 32 queries at a time (BackwardKernelSpec::querySlices).
    "bwd_bf16_d40_causal_br_sinks_nd": Config(B, "bf16", 40, None, 0, "bottom_right",
                                              sinks=True),
    "bwd_f16_d64_win127_nd": Config(B, "f16", 64, 127, 0),
    "bwd_f16_d64_win127_det": Config(B, "f16", 64, 127, 0, deterministic=True),
    "bwd_bf16_d64_win127_nd": Config(B, "bf16", 64, 127, 0),
    "bwd_bf16_d64_win127_det": Config(B, "bf16", 64, 127, 0, deterministic=True),
    "bwd_f16_d128_win4096_nd": Config(B, "f16", 128, 4095, 0),
    "bwd_f16_d128_win4096_det": Config(B, "f16", 128, 4095, 0, deterministic=True),
    "bwd_bf16_d128_win4096_nd": Config(B, "bf16", 128, 4095, 0),
    # The heavy benchmark case's deterministic row (ours-det).
    "bwd_bf16_d128_win4096_det": Config(B, "bf16", 128, 4095, 0, deterministic=True),
    "bwd_f16_d64_brcausal_det": Config(B, "f16", 64, None, 0, "bottom_right",
                                       deterministic=True),
    "bwd_f16_d64_sym_det": Config(B, "f16", 64, 40, 40, deterministic=True),
    "bwd_f16_d64_brwin_nd": Config(B, "f16", 64, 100, 0, "bottom_right"),
    # Context parallelism (bench/check_cp.py, docs/ContextParallel.md): the
    # block bands of a causal window-127 sequence's ranks. Exact mode: a
    # rank's rows against keys from a key tile before them (bottom-right);
    # overlap mode: its rows against the 127 halo keys alone (top-left 0/127).
    "cp_f16_d64_win127_br": Config(F, "f16", 64, 127, 0, "bottom_right"),
    "bwd_cp_f16_d64_win127_br_det": Config(B, "f16", 64, 127, 0, "bottom_right",
                                           deterministic=True),
    "cp_f16_d64_halo127": Config(F, "f16", 64, 0, 127),
    "bwd_cp_f16_d64_halo127_det": Config(B, "f16", 64, 0, 127, deterministic=True),
    # Head dims that are odd multiples of 8, zero-padded to their mma width
    # in shared memory (getMmaHeadDim), and the backward's 224 and 240 (split
    # visits, at their own width): every band kind, both dtypes, THD, GQA, sinks, softcap,
    # every dQ mode.
    "f16_d8_win127": Config(F, "f16", 8, 127, 0),
    # At the default 64 x 64 this THD kernel spills 4 bytes (found 2026-12-04).
    "bf16_d40_causal_br_thd": Config(F, "bf16", 40, None, 0, "bottom_right", thd=True,
                                     tile_kv=32),
    "f16_d72_win127_sinks": Config(F, "f16", 72, 127, 0, sinks=True),
    "bf16_d120_full": Config(F, "bf16", 120, None, None),
    # Wide bands at mma width <= 64 ask for 3 blocks per SM (nvvm.minctasm).
    "bf16_d56_causal": Config(F, "bf16", 56, None, 0),
    "f16_d8_full": Config(F, "f16", 8, None, None),
    "f16_d200_win4095_softcap50": Config(F, "f16", 200, 4095, 0, softcap=50.0),
    "bf16_d248_causal": Config(F, "bf16", 248, None, 0),
    # Copies whose threads do not divide the tile's chunks (d 176: 22 chunks
    # a row, 32 or 64 rows, 128 threads): the surplus threads issue none.
    "bf16_d176_win127": Config(F, "bf16", 176, 127, 0),
    "bwd_bf16_d176_causal_nd": Config(B, "bf16", 176, None, 0),
    "bwd_f16_d8_win127_rc": Config(B, "f16", 8, 127, 0),
    "bwd_bf16_d24_causal_br_det": Config(B, "bf16", 24, None, 0, "bottom_right",
                                         deterministic=True),
    "bwd_f16_d40_win127_thd_nd": Config(B, "f16", 40, 127, 0, thd=True),
    "bwd_bf16_d72_win127_sinks_rc": Config(B, "bf16", 72, 127, 0, sinks=True,
                                           dq_mode="recompute"),
    "bwd_f16_d120_causal_softcap2_det": Config(B, "f16", 120, None, 0,
                                               deterministic=True, softcap=2.0),
    "bwd_bf16_d136_win127_br_nd": Config(B, "bf16", 136, 127, 0, "bottom_right"),
    "bwd_f16_d216_causal_det": Config(B, "f16", 216, None, 0, deterministic=True),
    "bwd_bf16_d224_win127_nd": Config(B, "bf16", 224, 127, 0),
    "bwd_f16_d240_full_det": Config(B, "f16", 240, None, None, deterministic=True),
    "bwd_bf16_d248_win4095_softcap50_sinks_nd": Config(B, "bf16", 248, 4095, 0,
                                                       softcap=50.0, sinks=True),
    # Backward, THD packed sequences.
    "bwd_f16_d64_win127_thd_det": Config(B, "f16", 64, 127, 0, thd=True,
                                         deterministic=True),
    "bwd_bf16_d64_brwin_thd_nd": Config(B, "bf16", 64, 100, 0, "bottom_right",
                                        thd=True),
}


HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "test", "Import", "Inputs", "models")
IMPORTED = {
    # A training step on JAX's cuDNN path (bench/check_jax_step.py).
    "jax-step": os.path.join(HERE, "..", "test", "Import", "Inputs",
                             "jax_cudnn_causal_swa_bwd.mlir"),
    # Whole models, training steps (bench/check_jax_model.py).
    **{name: os.path.join(MODELS, name + ".mlir") for name in (
        "gptoss_like_cudnn_vg", "mistral_like_cudnn_vg", "gptoss_like_xla_vg",
        "flax_nnx_mha_window32_vg", "gemma2_like_softcap_xla_vg", "gptoss_sinks_xla_vg")},
}


def source(name, c):
    """The op of configuration `c` in a function @name, with dynamic sizes: the
    text sdpa.config writes for the frontends' kernel cache (one writer)."""
    softcap = None if c.softcap is None else float32(c.softcap)
    return KernelConfig(c.direction, c.dtype, c.head_dim, c.left, c.right, c.align, c.thd,
                        c.deterministic, float32(1.0 / math.sqrt(c.head_dim)), c.tile_q,
                        c.tile_kv, softcap, c.sinks).mlir(name)


def parse_value(field, text):
    """`text` as a value of Config field `field`: `none` for an optional
    field, else an integer, a number, true/false or a string, by the field's
    type; ValueError naming the field otherwise."""
    kinds = get_args(field.type) or (field.type,)
    if text == "none":
        if type(None) not in kinds:
            raise ValueError(f"{field.name} is not optional")
        return None
    kind = kinds[0]
    if kind is bool:
        if text not in ("true", "false"):
            raise ValueError(f"{field.name} takes true or false, got {text!r}")
        return text == "true"
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise ValueError(f"{field.name} takes {what}, got {text!r}") from None
    return text


def apply_settings(configs, names, settings):
    """`configs` with each FIELD=VALUE of `settings` applied to the
    configurations `names`; SystemExit naming a bad setting."""
    known = {f.name: f for f in fields(Config)}
    changes = {}
    for setting in settings:
        field, sep, text = setting.partition("=")
        if not sep or field not in known:
            sys.exit(f"--set {setting}: expected FIELD=VALUE with FIELD one of "
                     f"{', '.join(known)}")
        try:
            changes[field] = parse_value(known[field], text)
        except ValueError as e:
            sys.exit(f"--set {setting}: {e}")
    imported = [n for n in names if n in IMPORTED]
    if changes and imported:
        sys.exit(f"--set applies to the table's configurations, not to the "
                 f"imported model(s) {', '.join(imported)}")
    return {n: replace(c, **changes) if n in names else c
            for n, c in configs.items()}


# The fields that override a choice of the compiler's default rule, each a
# pipeline option of the same name ("_" -> "-"); unset (None or 0): the rule.
RULE_FIELDS = ("tile_q", "tile_kv", "warps", "dq_mode", "stages", "index_bitwidth")


def rule_settings(c):
    """[(field, value)] of the rule's choices `c` overrides."""
    return [(f, getattr(c, f)) for f in RULE_FIELDS if getattr(c, f)]


def rule_overrides(c):
    """"field=value ..." of the rule's choices `c` overrides ('' for none)."""
    return " ".join(f"{f}={v}" for f, v in rule_settings(c))


def index_bits(c):
    """The index width `c` is lowered at: its own, else the frontends' rule."""
    return c.index_bitwidth or default_index_bits(c.direction, c.head_dim, c.align)


def pipeline(name, c, out):
    opts = [f"artifact-dir={out}", f"artifact-name={name}"]
    opts += [f"{f.replace('_', '-')}={v}" for f, v in rule_settings(c)]
    if not c.index_bitwidth and index_bits(c) == 32:  # the rule's width, not the pipeline's
        opts.append("index-bitwidth=32")
    kind = "forward" if c.direction == F else "backward"
    return f"--sdpa-{kind}-pipeline={' '.join(opts)}"


# The kernels that spill for sm_90 under ptxas 13.0, (artifact, kernel) ->
# bytes of spill stores (docs/Performance.md, "Spills"): each has a stack
# frame, none spills for sm_80. They are what issue 15's "no spills" still
# lacks on an H100 or H200; ptxas_problem refuses any other sm_90 spill and
# any change to these.
SM90_SPILLS = {
    # d 128, two row tiles a warp (128 x 32), causal, bottom-right (64-bit
    # index: at 32 bits they spill for sm_80): 255 registers. The top-left
    # bf16_d128_causal spills 12 bytes at 64 bits, none at 32.
    ("f16_d128_causal_br", "sdpa_fwd_0"): 4,
    ("f16_d128_causal_br_thd", "sdpa_fwd_0"): 16,
    # d 128, window 128, one row tile a warp: ptxas aims at 3 blocks an SM
    # (168 registers); capped at 176 it would not spill, at 2 blocks.
    ("bf16_d128_win127_br", "sdpa_fwd_0"): 12,
    # At a 32-bit index, where the 64-bit kernel does not spill: ptxas aims
    # at the same occupancy (168 registers for bwd_main and the d 128
    # window, 128 for the d 64 forward) and spills 4-12 bytes. bwd_main at
    # d 64 with a bottom-right, packed or two-sided band, and with sinks:
    ("bwd_bf16_d64_win127_br_sinks_det", "sdpa_bwd_main"): 12,
    ("bwd_f16_d64_win127_br_sinks_nd", "sdpa_bwd_main"): 12,
    ("bwd_bf16_d64_win127_br_sinks_rc", "sdpa_bwd_main"): 12,
    ("bwd_f16_d64_brwin_rc", "sdpa_bwd_main"): 12,
    ("bwd_f16_d64_brwin_nd", "sdpa_bwd_main"): 12,
    ("bwd_cp_f16_d64_win127_br_det", "sdpa_bwd_main"): 12,
    ("bwd_bf16_d64_brwin_thd_nd", "sdpa_bwd_main"): 12,
    ("bwd_f16_d64_win127_thd_rc", "sdpa_bwd_main"): 8,
    ("bwd_f16_d64_win127_thd_det", "sdpa_bwd_main"): 8,
    ("bwd_f16_d64_sym_rc", "sdpa_bwd_main"): 8,
    ("bwd_f16_d64_sym_det", "sdpa_bwd_main"): 8,
    # ... the forward with sinks at d 64, the d 128 window of 32 keys:
    ("bf16_d64_win127_sinks", "sdpa_fwd_0"): 4,
    # ... an imported model's forward (sdpa-stablehlo-pipeline lowers at
    # 32 bits unless told otherwise): gpt-oss with sinks.
    ("gptoss_sinks_xla_vg", "sdpa_fwd_0"): 4,
    ("bf16_d128_left32", "sdpa_fwd_0"): 8,
    # ... and a tiling of bench/sweep_configs.py: gpt-oss's forward at
    # 64 x 64 with 2 warps (two row tiles a warp).
    ("sweep_gptoss_fwd_q64k64w2", "sdpa_fwd_0"): 16,
}


def ptxas_problem(ptxas, name, ptx_files, known_sm90):
    """'' when every PTX file of artifact `name` assembles for sm_80 without
    spills or a stack frame, and (unless `known_sm90` is None) for sm_90
    with exactly the spills `known_sm90` lists for `name`; else what is
    wrong (ptxas's first line if it failed, else the kernel, the target and
    ptxas's line of stack frame and spills)."""
    known = known_sm90 or {}
    for arch in ("sm_80", "sm_90") if known_sm90 is not None else ("sm_80",):
        for ptx in ptx_files:
            try:
                kernels = kernel_resources(ptxas, arch, ptx)
            except PtxasError as e:
                return f"ptxas -arch={arch}: {e}"
            for kernel, resources in kernels.items():
                listed = known.get((name, kernel)) if arch == "sm_90" else None
                found = resources.spill_stores if resources.spills else None
                if found == listed:
                    continue
                where = f"{kernel} for {arch}: {resources.frame_line or 'no spills'}"
                if listed is None:
                    return "ptxas: " + where
                return f"ptxas: {where}; SM90_SPILLS lists {listed} bytes"
    return ""


def artifact_ptx_files(name, out):
    """The PTX files of artifact `name` in `out`: <name>.ptx, or every PTX
    file of an imported model's folder."""
    if name in IMPORTED:
        folder = os.path.join(out, name)
        return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                      if f.endswith(".ptx"))
    return [os.path.join(out, name + ".ptx")]


def remove_artifact(name, out):
    """Removes what compile_artifact wrote for `name`."""
    if name in IMPORTED:
        shutil.rmtree(os.path.join(out, name))
        return
    for ext in (".ptx", ".manifest"):
        os.remove(os.path.join(out, name + ext))


def compile_artifact(name, configs, args):
    """Writes artifact `name` into args.out; '' on success, else why it was
    refused (the lowering's first diagnostic, or ptxas's complaint, in which
    case the PTX and manifest are removed)."""
    if name in IMPORTED:
        out = os.path.join(args.out, name)
        os.makedirs(out, exist_ok=True)
        res = subprocess.run([args.sdpa_opt, IMPORTED[name], "-o",
                              os.path.join(out, "module.mlir"),
                              f"--sdpa-stablehlo-pipeline=lowering={{artifact-dir={out}}}"],
                             text=True, capture_output=True)
    else:
        c = configs[name]
        res = subprocess.run([args.sdpa_opt, pipeline(name, c, args.out), "-o", os.devnull],
                             input=source(name, c), text=True, capture_output=True)
    if res.returncode != 0:
        return (res.stderr.strip().splitlines() or ["(no diagnostic)"])[0]
    if args.ptxas:
        known_sm90 = None if args.set else SM90_SPILLS
        problem = ptxas_problem(args.ptxas, name, artifact_ptx_files(name, args.out),
                                known_sm90)
        if problem:
            remove_artifact(name, args.out)
            return problem
    return ""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sdpa-opt", default="build/bin/sdpa-opt")
    p.add_argument("--out", default=".artifacts/kernels")
    p.add_argument("--only", help="comma list of configuration names")
    p.add_argument("--allow-refused", action="store_true",
                   help="exit 0 when the lowering refuses a configuration")
    p.add_argument("--list", action="store_true", help="print the table and exit")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="change a field of every configuration compiled (repeatable; "
                        "'none' for an optional field)")
    p.add_argument("--sweep", action="store_true",
                   help="the configuration sweep (bench/sweep_configs.py) instead")
    p.add_argument("--ptxas", default=shutil.which("ptxas"),
                   help="ptxas for the spill check (default: on PATH; 'none', or none on "
                        "PATH: no check)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="artifacts compiled at once (default: the CPU count)")
    args = p.parse_args()
    if args.ptxas == "none":
        args.ptxas = None
    configs = CONFIGS
    if args.sweep:
        from sweep_configs import SWEEP
        configs = {name: entry[2] for name, entry in SWEEP.items()}
    names = args.only.split(",") if args.only else list(configs) + (
        [] if args.sweep else list(IMPORTED))
    unknown = [n for n in names if n not in configs and n not in IMPORTED]
    if unknown:
        sys.exit(f"unknown configuration(s): {', '.join(unknown)}")
    configs = apply_settings(configs, names, args.set)
    if args.list:
        for n in names:
            print(n, configs.get(n) or IMPORTED[n])
        return 0
    os.makedirs(args.out, exist_ok=True)
    # Each artifact is one sdpa-opt (and ptxas) process: run --jobs at a
    # time, report in the table's order.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(lambda n: compile_artifact(n, configs, args), names))
    refused = []
    for name, problem in zip(names, outcomes):
        if problem:
            print(f"REFUSED {name}: {problem}")
            refused.append(name)
        elif name in IMPORTED:
            print(f"wrote {os.path.join(args.out, name)}/")
        else:
            print(f"wrote {os.path.join(args.out, name)}.{{ptx,manifest}}")
    # Which of the artifacts written override the rule (the benchmark times
    # only those that do not).
    write_overrides(args.out, {n: rule_overrides(configs[n]) for n in names
                               if n not in IMPORTED and n not in refused})
    print(f"{len(names) - len(refused)} written, {len(refused)} refused")
    return 1 if refused and not args.allow_refused else 0


if __name__ == "__main__":
    sys.exit(main())
