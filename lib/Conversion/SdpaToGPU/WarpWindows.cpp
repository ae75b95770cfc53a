//===- WarpWindows.cpp - The forward's key walk in per-warp windows -------===//
//
// ForwardKernelSpec::warpWindows (docs/Semantics.md §3.9): the walk's
// program-wide values come from window_rules::walk (Analysis/WarpWindows.h,
// checked there against the brute-force mask); here they become IR, and
// the walk its loops. The key tiles of the program are the global tiles of
// Tk keys from tile0 = floor(max(start_0, 0) / Tk); step j reads tiles
// j .. j + span - 1 of them from a ring of `stages` (at least span + 1),
// while tiles up to j + stages - 1 are copied. Tiles at or past the
// program's kv_end hold no key its rows see and are zero-filled (their
// cells are masked). An unclipped program masks its edge windows with the
// band test alone; a clipped one starts its windows at key 0 at the
// earliest and masks every window with the band and key tests.
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"
#include "SdpaDialect/Conversion/WindowWalkIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

SoftmaxState ForwardKernelBuilder::emitWindowWalk() {
  int64_t tk = spec.tiles.kv;
  int64_t ahead = spec.stages - 1;
  WindowWalk<Value> walk = emitWindowWalkValues(
      *this, spec.band, spec.windowShape(), q0, delta, seqKv);
  Value zero = idx(0);
  Value start = add(walk.start0, warpRow0);

  // Starts clamped to key 0; tile0 and this warp's offset into the ring.
  windowStart = arith::MaxSIOp::create(b, start, zero);
  Value start0Clamped = arith::MaxSIOp::create(b, walk.start0, zero);
  windowTile0 = divu(start0Clamped, idx(tk));
  Value offset = sub(windowStart, mul(windowTile0, idx(tk)));
  windowBlocks = emitWindowBlocks(*this, offset, tk, sm80::kMmaK);

  // Prologue: Q and the first stages - 1 tiles; step 0 reads the first
  // span of them.
  copyTileAsync(q, qBase, qStrideS, q0, seqQ, /*enabled=*/Value(), qSmem, {},
                spec.tiles.q);
  for (int64_t i = 0; i < ahead; ++i)
    copyWindowTile(idx(i));
  waitGroups(pendingWindowGroups());
  gpu::BarrierOp::create(b);
  if (spec.queryFragmentsResident)
    qFrags = loadQueryFragments();

  SoftmaxState state = initialState();
  int64_t rowValues = state.rowMax.size(), accs = state.acc.size();
  scf::IfOp paths = scf::IfOp::create(
      b, ValueRange(state.flatten()).getTypes(), walk.clipped,
      /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&paths.getThenRegion().front());
    SoftmaxState inner = state;
    emitTileLoop(zero, walk.windows, TileMask::BandAndKeys, inner);
    scf::YieldOp::create(b, inner.flatten());
    b.setInsertionPointToStart(&paths.getElseRegion().front());
    inner = state;
    // Window 0 is masked (interiorBegin >= 1) and starts from the initial
    // state: it is emitted on its own, without the rescale. The steps read
    // tiles 0 .. windows + span - 2; steps from copyEnd on would copy a
    // tile past them (j + stages - 1), and copy nothing: the last step, at
    // stages = span + 1 (2-3% faster on an H100, bench/RESULTS.md
    // 2026-12-06).
    WindowCounts counts = windowCounts(spec.band, spec.windowShape());
    int64_t copyEnd =
        counts.windows + windowSpanTiles(spec.windowShape()) - spec.stages;
    auto emitSteps = [&](int64_t lo, int64_t hi, TileMask mask) {
      int64_t split = std::clamp(copyEnd, lo, hi);
      auto emitLoop = [&](int64_t from, int64_t to, bool copiesNext) {
        if (from >= to)
          return;
        // (One op a statement: the IR's order must not hang on the
        // compiler's order of evaluating arguments.)
        Value first = idx(from);
        Value end = idx(to);
        emitTileLoop(first, end, mask, inner, copiesNext);
      };
      emitLoop(lo, split, /*copiesNext=*/true);
      emitLoop(split, hi, /*copiesNext=*/false);
    };
    emitWindowStep(zero, TileMask::Band, inner, /*firstStep=*/true);
    emitSteps(1, counts.interiorBegin, TileMask::Band);
    emitSteps(counts.interiorBegin, counts.interiorEnd, TileMask::None);
    emitSteps(counts.interiorEnd, counts.windows, TileMask::Band);
    scf::YieldOp::create(b, inner.flatten());
  }
  return SoftmaxState::unflatten(paths.getResults(), rowValues, accs);
}

void ForwardKernelBuilder::copyWindowTile(Value i) {
  Value stage = remu(i, idx(spec.stages));
  copyKeyValueTileAsync(add(windowTile0, i), stage);
}

int64_t ForwardKernelBuilder::pendingWindowGroups() const {
  return 2 * (spec.stages - 1 - windowSpanTiles(spec.windowShape()));
}

void ForwardKernelBuilder::emitWindowStep(Value j, TileMask mask,
                                          SoftmaxState &state, bool firstStep,
                                          bool copiesNext) {
  // Tiles j .. j + span - 1 have landed (K and V a group each; those after
  // them may be in flight); every warp is past step j - 1, which read tile
  // j - 1 first, so its stage is free for tile j + stages - 1.
  waitGroups(pendingWindowGroups());
  gpu::BarrierOp::create(b);
  if (copiesNext)
    copyWindowTile(add(j, idx(spec.stages - 1)));
  KeyBlocks keys;
  for (auto [firstTile, row] :
       llvm::zip(windowBlocks.firstTile, windowBlocks.row)) {
    keys.stage.push_back(remu(add(firstTile, j), idx(spec.stages)));
    keys.row.push_back(row);
  }
  Scores scores = computeScores(keys);
  capAndMask(scores, add(windowStart, mul(j, idx(spec.tiles.kv))), mask);
  SmallVector<Value> pFrags =
      updateSoftmax(scores, state, /*everyRowSeesAKey=*/mask == TileMask::None,
                    firstStep);
  accumulateValues(pFrags, keys, state);
}
