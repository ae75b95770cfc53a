//===- QueryWindows.cpp - bwd_main's walk in per-warp query windows -------===//
//
// BackwardKernelSpec::queryWindows: each warp of 16 keys walks windows of
// Tw = kWindowQueries queries, the forward's key windows (docs/Semantics.md
// §3.9) under the transposed band, whose program-wide values come from
// window_rules::walk (emitWindowWalkValues; checked against the
// brute-force mask in WarpWindowsTest). The query tiles of the program are
// the global tiles of Tw queries from tile0 = floor(start_0 / Tw); step j
// reads tiles j .. j + span - 1 of them from a ring of `queryStages` = span
// + 1 stages of Q, dO, LSE and Delta, while tile j + span is copied.
//
// No window starts before query 0 (top-left, R = 0: start_0 = k0). One
// that reaches past Sq needs no test: those rows are zero-filled and their
// row stats give P = 0 and Delta = 0. Tiles at or past the program's last
// query tile (q_end(u) Tq) hold no query its keys see and are zero-filled
// without a read; only masked windows touch them. So every program masks
// its edge windows with the band test alone, in the one loop's uniform
// branch (three loops cost bwd_main a third of its occupancy, MainKernel.cpp).
//
// The heads of the group are walked one after another in one loop, each
// from its own prologue: the first tiles of a head are fetched once every
// warp is past the previous head's last window.
//
//===----------------------------------------------------------------------===//

#include "MainKernel.h"
#include "SdpaDialect/Conversion/WindowWalkIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

Value MainKernelBuilder::windowStage(Value i) {
  return remu(i, idx(spec.queryStages));
}

PendingRowStats MainKernelBuilder::fetchWindowTile(const QueryHeadBases &bases,
                                                   Value i, Value fetchEnd) {
  int64_t tw = BackwardKernelSpec::kWindowQueries;
  QueryVisit visit;
  visit.bases = bases;
  Value tile = add(windowTile0, i);
  visit.q0 = mul(tile, idx(tw));
  Value enabled = cmp(arith::CmpIPredicate::ult, visit.q0, fetchEnd);
  Value stage = windowStage(i);
  return emitFetch(visit, stage, enabled);
}

void MainKernelBuilder::emitWindowWalk(const BackwardBounds &bounds,
                                       GradAccumulators &acc) {
  int64_t tw = BackwardKernelSpec::kWindowQueries;
  int64_t ahead = spec.queryStages - 1;
  // Under the transposed band a warp's rows are its keys, their "keys" the
  // queries (delta' = -delta, over lengths Skv and Sq).
  Value zero = idx(0);
  Value transposedDelta = sub(zero, delta);
  WindowWalk<Value> walk =
      emitWindowWalkValues(*this, spec.band.transposed(), spec.windowShape(),
                           k0, transposedDelta, seqQ);
  Value warpKey0 = warpKeyRow0();
  windowStart = add(walk.start0, warpKey0);
  windowTile0 = divu(walk.start0, idx(tw));
  Value tileStart = mul(windowTile0, idx(tw));
  Value offset = sub(windowStart, tileStart);
  windowFirstTile.clear();
  windowRow.clear();
  for (int64_t j = 0; j < tw / sm80::kMmaN; ++j) {
    Value local = add(offset, idx(j * sm80::kMmaN));
    windowFirstTile.push_back(divu(local, idx(tw)));
    windowRow.push_back(remu(local, idx(tw)));
  }

  // One loop over the slots of every query head of the group, in
  // ascending order (dK and dV are deterministic): slot s of a head fetches
  // its ring tile s and, from s = ahead on, computes window s - ahead. A
  // head's first `ahead` slots are its prologue; every slot fetches exactly
  // one tile. (A loop a head, or a prologue branch in the loop, cost 58 and
  // 62 registers for sm_90, 226 and 222: two blocks an SM. The prologue's
  // copy addresses, the same for every head, were hoisted out of the
  // loop.)
  Value slotsPerHead = add(walk.windows, idx(ahead));
  // Window j reads tiles j .. j + span - 1.
  int64_t span = windowSpanTiles(spec.windowShape());
  Value tilesPerHead = add(walk.windows, idx(span - 1));
  // Tiles are read from the program's last query tile's end, or past the
  // head's windows' tiles: zero-filled without a read.
  Value lastTile = add(windowTile0, tilesPerHead);
  Value readEnd = mul(lastTile, idx(tw));
  Value queryEnd = mul(bounds.qEnd, idx(spec.tiles.q));
  Value fetchEnd = arith::MinUIOp::create(b, queryEnd, readEnd);
  Value slots = mul(group, slotsPerHead);
  auto loop = scf::ForOp::create(
      b, zero, slots, idx(1), acc.flatten(),
      [&](OpBuilder &nested, Location, Value n, ValueRange iterArgs) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value h = divu(n, slotsPerHead);
        Value slot = remu(n, slotsPerHead);
        Value head = add(mul(kvHead, group), h);
        QueryHeadBases bases = emitQueryHeadBases(head);
        Value computes = cmp(arith::CmpIPredicate::uge, slot, idx(ahead));
        // A computing slot: tiles j .. j + span - 1 (j = slot - ahead)
        // have landed and their stats are stored. A head's first slot: the
        // previous head's last copy has landed (its stage may be any).
        // Every slot: every warp is past window slot - stages, the last to
        // read the stage of tile `slot`.
        Value headStart = cmp(arith::CmpIPredicate::eq, slot, zero);
        Value waits = arith::OrIOp::create(b, computes, headStart);
        scf::IfOp::create(b, waits, [&](OpBuilder &, Location) {
          waitAll(copyGroup);
          scf::YieldOp::create(b);
        });
        gpu::BarrierOp::create(b);
        PendingRowStats stats =
            fetchWindowTile(bases, slot, fetchEnd);
        scf::IfOp step = ifElse(computes, iterArgs, [&] {
          Value j = sub(slot, idx(ahead));
          QueryBlocks blocks;
          for (auto [firstTile, row] : llvm::zip(windowFirstTile, windowRow)) {
            Value tile = add(firstTile, j);
            blocks.stage.push_back(windowStage(tile));
            blocks.row.push_back(row);
          }
          Value first = add(windowStart, mul(j, idx(tw)));
          Value edge = emitOutsideInterior(b, b.getLoc(), walk.interiorBegin,
                                           walk.interiorEnd, j);
          GradAccumulators stepAcc = GradAccumulators::unflatten(iterArgs);
          emitGradientStep(blocks, first, edge, stepAcc);
          return stepAcc.flatten();
        });
        storeRowStats(stats, windowStage(slot));
        scf::YieldOp::create(b, step.getResults());
      });
  loop->setAttr("sdpa.q_loop", b.getUnitAttr());
  waitAll(copyGroup);
  acc = GradAccumulators::unflatten(loop.getResults());
}
