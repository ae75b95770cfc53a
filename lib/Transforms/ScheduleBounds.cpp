//===- ScheduleBounds.cpp - Schedule maps as affine.max/min ops -----------===//
//
// The clamps mirror evaluateSchedule (lib/Analysis), which the brute-force
// tests check: kv = [b, max(e, b)), interior = [min(max(ia, b), e'),
// max(min(ib, e), ia')), where b, e are the kv maps and ia, ib the interior
// maps. Max-maps over the same operands merge into one affine.max (likewise
// for min), so the interior clamp costs two extra ops. The backward interior
// is clamped the same way into [q_begin, q_end), and collapses to
// [q_end, q_end) unless the key tile is full (u < Skv floordiv Tk).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Transforms/ScheduleBounds.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::sdpa;

/// The max-map (or min-map) of the results of `a` and `b` together.
static AffineMap mergeResults(AffineMap a, AffineMap b, bool isMax) {
  SmallVector<AffineExpr> results(a.getResults());
  llvm::append_range(results, b.getResults());
  return pruneDominatedResults(AffineMap::get(a.getNumDims(),
                                              a.getNumSymbols(), results,
                                              a.getContext()),
                               isMax);
}

/// max(x, y) / min(x, y) of two index values.
static Value pairwise(OpBuilder &builder, Location loc, bool isMax, Value x,
                      Value y) {
  MLIRContext *ctx = builder.getContext();
  AffineMap both = AffineMap::get(
      2, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
  if (isMax)
    return affine::AffineMaxOp::create(builder, loc, both, ValueRange{x, y});
  return affine::AffineMinOp::create(builder, loc, both, ValueRange{x, y});
}

/// A visit range [begin, max(end, begin)) from a max-map and a min-map.
static std::pair<Value, Value> buildRange(OpBuilder &builder, Location loc,
                                          AffineMap begin, AffineMap end,
                                          ValueRange operands) {
  Value first = affine::AffineMaxOp::create(builder, loc, begin, operands);
  Value last = affine::AffineMinOp::create(builder, loc, end, operands);
  return {first, pairwise(builder, loc, /*isMax=*/true, last, first)};
}

/// The interior [interiorBegin, interiorEnd) of a visit range [first, last),
/// clamped into it: the interior's begin also takes the range's begin maps,
/// its end the range's end maps.
static std::pair<Value, Value>
buildInterior(OpBuilder &builder, Location loc, AffineMap rangeBegin,
              AffineMap rangeEnd, AffineMap interiorBegin,
              AffineMap interiorEnd, Value last, ValueRange operands) {
  Value begin = affine::AffineMaxOp::create(
      builder, loc, mergeResults(interiorBegin, rangeBegin, true), operands);
  begin = pairwise(builder, loc, /*isMax=*/false, begin, last);
  Value end = affine::AffineMinOp::create(
      builder, loc, mergeResults(interiorEnd, rangeEnd, false), operands);
  return {begin, pairwise(builder, loc, /*isMax=*/true, end, begin)};
}

ForwardBounds mlir::sdpa::buildForwardBounds(OpBuilder &builder, Location loc,
                                             ScheduleAttr schedule,
                                             Value qTile, Value seqQ,
                                             Value seqKv) {
  SmallVector<Value> operands{qTile, seqQ, seqKv};
  ForwardBounds bounds;
  std::tie(bounds.kvBegin, bounds.kvEnd) = buildRange(
      builder, loc, schedule.getKvBegin(), schedule.getKvEnd(), operands);
  std::tie(bounds.interiorBegin, bounds.interiorEnd) = buildInterior(
      builder, loc, schedule.getKvBegin(), schedule.getKvEnd(),
      schedule.getInteriorBegin(), schedule.getInteriorEnd(), bounds.kvEnd,
      operands);
  return bounds;
}

BackwardBounds mlir::sdpa::buildBackwardBounds(OpBuilder &builder,
                                               Location loc,
                                               ScheduleAttr schedule,
                                               Value kvTile, Value seqQ,
                                               Value seqKv) {
  SmallVector<Value> operands{kvTile, seqQ, seqKv};
  BackwardBounds bounds;
  std::tie(bounds.qBegin, bounds.qEnd) = buildRange(
      builder, loc, schedule.getQBegin(), schedule.getQEnd(), operands);
  auto [begin, end] = buildInterior(
      builder, loc, schedule.getQBegin(), schedule.getQEnd(),
      schedule.getQInteriorBegin(), schedule.getQInteriorEnd(), bounds.qEnd,
      operands);
  // Only a full key tile has an interior: u < Skv floordiv Tk.
  MLIRContext *ctx = builder.getContext();
  Value fullTiles = affine::AffineApplyOp::create(
      builder, loc,
      AffineMap::get(0, 1,
                     getAffineSymbolExpr(0, ctx).floorDiv(schedule.getTileKv())),
      ValueRange{seqKv});
  Value full = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                     kvTile, fullTiles);
  bounds.interiorBegin =
      arith::SelectOp::create(builder, loc, full, begin, bounds.qEnd);
  bounds.interiorEnd =
      arith::SelectOp::create(builder, loc, full, end, bounds.qEnd);
  return bounds;
}

Value mlir::sdpa::buildRelayTurn(OpBuilder &builder, Location loc,
                                 ScheduleAttr schedule, Value kvTile,
                                 Value qTile, Value seqQ, Value seqKv) {
  AffineMap turn = schedule.getRelayTurn();
  SmallVector<Value> operands{kvTile, qTile, seqQ, seqKv};
  // Without a left edge the turn is the key tile itself.
  if (turn.getNumResults() == 1)
    return affine::AffineApplyOp::create(builder, loc, turn, operands);
  return affine::AffineMinOp::create(builder, loc, turn, operands);
}
