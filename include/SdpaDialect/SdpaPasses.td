//===- SdpaPasses.td - sdpa passes -------------------------*- tablegen -*-===//

#ifndef SDPA_PASSES_TD
#define SDPA_PASSES_TD

include "mlir/Pass/PassBase.td"

defvar Sdpa_TileOptions = [
  Option<"tileQ", "tile-q", "int64_t", /*default=*/"0",
         "Query rows per tile (Tq; 0: the default tile rule of each op, "
         "lib/Analysis/KernelDefaults.cpp)">,
  Option<"tileKv", "tile-kv", "int64_t", /*default=*/"0",
         "Keys per tile (Tk; 0: the default tile rule of each op)">,
];

def SdpaDeriveBounds : Pass<"sdpa-derive-bounds"> {
  let summary = "Attach the exact tile schedule of each attention op's band";
  let description = [{
    Derives, from the band and the tile sizes, the affine maps of the tile
    schedule (`#sdpa.schedule`, docs/Semantics.md §3-4) and attaches them to every
    `sdpa.attention` and `sdpa.attention_grad` as `schedule`. Each map takes a
    tile index and the symbols `[Sq, Skv]`; begin maps are max-maps and end
    maps min-maps, e.g. for a causal window `L`, `R = 0`, top-left:

        kv_begin(t) = max(0, (t*Tq - L) floordiv Tk)
        kv_end(t)   = min(Skv ceildiv Tk, (t*Tq + Tq - 1) floordiv Tk + 1,
                          (Sq - 1) floordiv Tk + 1)
        relay_turn(u, t) = min(u, u - (t*Tq - L) floordiv Tk)

    With static sequence lengths the symbols are replaced by constants and
    dominated results are dropped. Lowerings turn the maps into
    `affine.max`/`affine.min` loop bounds.

    A tile option left 0 (the default) takes, per op, the default tile rule
    of `lib/Analysis/KernelDefaults.cpp` (docs/Semantics.md §3.1, from the
    configuration sweep of bench/RESULTS.md): by direction, head dim, band
    width `L + R + 1` (the key length for a one-sided band with static
    lengths; wide when unknown) and, for `sdpa.attention_grad`, the dQ mode
    (`dq-mode`, the conversion's option: pass both the same value), the
    tiles the convert passes would choose.
  }];
  let options = !listconcat(Sdpa_TileOptions, [
    Option<"dqMode", "dq-mode", "::mlir::sdpa::DqModeOption",
           /*default=*/"::mlir::sdpa::DqModeOption::Default",
           "The dQ mode whose default backward tiles to take: default (the "
           "rule of lib/Analysis/KernelDefaults.cpp), accumulate or "
           "recompute; as convert-sdpa-grad-to-gpu's option",
           [{::mlir::sdpa::getDqModeOptionValues()}]>,
  ]);
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def SdpaMaterializeBounds : Pass<"sdpa-materialize-bounds", "::mlir::ModuleOp"> {
  let summary = "Outline each op's schedule as host functions of affine.max/min";
  let description = [{
    For every attention op that carries a `schedule`, adds to the module three
    functions computing its bounds with `affine.max`/`affine.min` and the
    clamps every consumer applies (the same code the backward kernel uses
    for its loop bounds and relay turn):

        @<func>_sdpa<i>_forward_bounds(%t, %sq, %skv)
            -> (kv_begin, kv_end, interior_begin, interior_end)
        @<func>_sdpa<i>_backward_bounds(%u, %sq, %skv)
            -> (q_begin, q_end, q_interior_begin, q_interior_end)
        @<func>_sdpa<i>_relay_turn(%u, %t, %sq, %skv) -> turn

    with `kv_begin <= interior_begin <= interior_end <= kv_end` and
    `q_begin <= q_interior_begin <= q_interior_end <= q_end` (the backward
    interior is empty, at `q_end`, for a partial key tile). Host code of a compiler stack can call them, e.g. to
    size work queues; lit tests read them.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def SdpaPrintSchedule : Pass<"sdpa-print-schedule"> {
  let summary = "Print the concrete tile schedule of each attention op";
  let description = [{
    For every attention op whose sequence lengths are known, evaluates its
    schedule (the attached `schedule`, else one derived with `tile-q` and
    `tile-kv`) and prints one line per tile to stdout, tile indices
    ascending. `sdpa.attention` prints the forward visits:

        sdpa.schedule fwd q_tile=<t> kv=[<lo>,<hi>) interior=[<a>,<b>)

    and `sdpa.attention_grad` the backward visits and the dQ relay:

        sdpa.schedule bwd kv_tile=<u> q=[<lo>,<hi>) interior=[<a>,<b>)
        sdpa.schedule relay q_tile=<t> first=<kv_first> visitors=<count>

    An empty range prints with lo = hi. For THD ops (and dense ops with
    per-batch lengths) each line carries `seq=<i>` after the direction word;
    the lengths come from constant `seqlens` operands or from the
    `seq-lens-q`/`seq-lens-kv` options, which also supply the lengths of
    dense ops with dynamic shapes. Ops whose lengths are unknown get a remark.
    The IR is not changed.
  }];
  let options = !listconcat(Sdpa_TileOptions, [
    ListOption<"seqLensQ", "seq-lens-q", "int64_t",
               "Query lengths, one per sequence, where the IR does not fix them">,
    ListOption<"seqLensKv", "seq-lens-kv", "int64_t",
               "Key lengths, one per sequence, where the IR does not fix them">,
  ]);
}

#endif // SDPA_PASSES_TD
