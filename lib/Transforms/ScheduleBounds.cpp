//===- ScheduleBounds.cpp - Schedule maps as affine.max/min ops -----------===//
//
// The clamps mirror evaluateSchedule (lib/Analysis), which the brute-force
// tests check: kv = [b, max(e, b)), interior = [min(max(ia, b), e'),
// max(min(ib, e), ia')), where b, e are the kv maps and ia, ib the interior
// maps. Max-maps over the same operands merge into one affine.max (likewise
// for min), so the interior clamp costs two extra ops.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Transforms/ScheduleBounds.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"

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

ForwardBounds mlir::sdpa::buildForwardBounds(OpBuilder &builder, Location loc,
                                             ScheduleAttr schedule,
                                             Value qTile, Value seqQ,
                                             Value seqKv) {
  SmallVector<Value> operands{qTile, seqQ, seqKv};
  ForwardBounds bounds;
  bounds.kvBegin = affine::AffineMaxOp::create(builder, loc,
                                               schedule.getKvBegin(), operands);
  Value rawEnd = affine::AffineMinOp::create(builder, loc,
                                             schedule.getKvEnd(), operands);
  bounds.kvEnd = pairwise(builder, loc, /*isMax=*/true, rawEnd, bounds.kvBegin);
  Value interiorBegin = affine::AffineMaxOp::create(
      builder, loc,
      mergeResults(schedule.getInteriorBegin(), schedule.getKvBegin(), true),
      operands);
  bounds.interiorBegin =
      pairwise(builder, loc, /*isMax=*/false, interiorBegin, bounds.kvEnd);
  Value interiorEnd = affine::AffineMinOp::create(
      builder, loc,
      mergeResults(schedule.getInteriorEnd(), schedule.getKvEnd(), false),
      operands);
  bounds.interiorEnd =
      pairwise(builder, loc, /*isMax=*/true, interiorEnd, bounds.interiorBegin);
  return bounds;
}

BackwardBounds mlir::sdpa::buildBackwardBounds(OpBuilder &builder,
                                               Location loc,
                                               ScheduleAttr schedule,
                                               Value kvTile, Value seqQ,
                                               Value seqKv) {
  SmallVector<Value> operands{kvTile, seqQ, seqKv};
  BackwardBounds bounds;
  bounds.qBegin = affine::AffineMaxOp::create(builder, loc,
                                              schedule.getQBegin(), operands);
  Value rawEnd = affine::AffineMinOp::create(builder, loc, schedule.getQEnd(),
                                             operands);
  bounds.qEnd = pairwise(builder, loc, /*isMax=*/true, rawEnd, bounds.qBegin);
  return bounds;
}

Value mlir::sdpa::buildRelayTurn(OpBuilder &builder, Location loc,
                                 ScheduleAttr schedule, Value kvTile,
                                 Value qTile, Value seqQ, Value seqKv) {
  AffineMap turn = schedule.getRelayTurn();
  ValueRange operands{kvTile, qTile, seqQ, seqKv};
  // Without a left edge the turn is the key tile itself.
  if (turn.getNumResults() == 1)
    return affine::AffineApplyOp::create(builder, loc, turn, operands);
  return affine::AffineMinOp::create(builder, loc, turn, operands);
}
