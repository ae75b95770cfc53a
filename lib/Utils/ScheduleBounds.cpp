//===- ScheduleBounds.cpp - The schedule's bounds as IR -------------------===//
//
// Instantiates the clamp rules of BoundsPolicy.h with an emitter that builds
// ops: a max-map becomes one affine.max (a min-map one affine.min), a
// pairwise max/min arith.maxsi/minsi or an affine.max/min of two values, as
// the rule asks; the full-key-tile test an affine.apply and arith.cmpi ult.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Utils/ScheduleBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// The rules' emitter over IR values (`index`, and i1 for a compare).
struct IREmitter {
  using Value = mlir::Value;
  OpBuilder &b;
  Location loc;

  Value max(AffineMap map, ArrayRef<Value> operands) {
    return affine::AffineMaxOp::create(b, loc, map, operands);
  }
  Value min(AffineMap map, ArrayRef<Value> operands) {
    return affine::AffineMinOp::create(b, loc, map, operands);
  }
  Value apply(AffineMap map, ArrayRef<Value> operands) {
    return affine::AffineApplyOp::create(b, loc, map, operands);
  }
  /// One affine.max / affine.min of the two maps' results, the dominated
  /// ones pruned.
  Value maxOfBoth(AffineMap x, AffineMap y, ArrayRef<Value> operands) {
    return max(mergeMapResults(x, y, /*isMax=*/true), operands);
  }
  Value minOfBoth(AffineMap x, AffineMap y, ArrayRef<Value> operands) {
    return min(mergeMapResults(x, y, /*isMax=*/false), operands);
  }
  /// The map (d0, d1) -> (d0, d1) of a pairwise affine.max/min.
  AffineMap pairMap() {
    MLIRContext *ctx = b.getContext();
    return AffineMap::get(
        2, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
  }
  Value pairMax(Value x, Value y, PairStyle style) {
    if (style == PairStyle::Arith)
      return arith::MaxSIOp::create(b, loc, x, y);
    return max(pairMap(), {x, y});
  }
  Value pairMin(Value x, Value y, PairStyle style) {
    if (style == PairStyle::Arith)
      return arith::MinSIOp::create(b, loc, x, y);
    return min(pairMap(), {x, y});
  }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
};

} // namespace

ForwardBounds mlir::sdpa::emitForwardBounds(OpBuilder &builder, Location loc,
                                            ScheduleAttr schedule,
                                            BoundsPolicy policy, Value qTile,
                                            Value seqQ, Value seqKv) {
  IREmitter e{builder, loc};
  ClampedBounds<Value> r =
      bounds_rules::forward(e, policy, schedule.getMaps(), qTile, seqQ, seqKv);
  return {r.begin, r.end, r.interiorBegin, r.interiorEnd};
}

Value mlir::sdpa::emitOutsideInterior(OpBuilder &builder, Location loc,
                                      Value interiorBegin, Value interiorEnd,
                                      Value x) {
  using arith::CmpIPredicate;
  // One op per statement: the IR's order must not depend on the compiler's
  // order of evaluating arguments.
  Value beforeInterior = arith::CmpIOp::create(builder, loc, CmpIPredicate::ult,
                                               x, interiorBegin);
  Value pastInterior = arith::CmpIOp::create(builder, loc, CmpIPredicate::uge,
                                             x, interiorEnd);
  return arith::OrIOp::create(builder, loc, beforeInterior, pastInterior);
}

std::pair<Value, Value> mlir::sdpa::emitVisitTests(OpBuilder &builder,
                                                   Location loc,
                                                   const ForwardBounds &bounds,
                                                   Value x) {
  using arith::CmpIPredicate;
  auto cmp = [&](CmpIPredicate pred, Value y) -> Value {
    return arith::CmpIOp::create(builder, loc, pred, x, y);
  };
  // One op per statement: the IR's order must not depend on the compiler's
  // order of evaluating arguments.
  Value fromBegin = cmp(CmpIPredicate::sge, bounds.kvBegin);
  Value beforeEnd = cmp(CmpIPredicate::slt, bounds.kvEnd);
  Value visited = arith::AndIOp::create(builder, loc, fromBegin, beforeEnd);
  Value masked = emitOutsideInterior(builder, loc, bounds.interiorBegin,
                                     bounds.interiorEnd, x);
  return {visited, masked};
}

BackwardBounds mlir::sdpa::emitBackwardBounds(OpBuilder &builder, Location loc,
                                              ScheduleAttr schedule,
                                              BoundsPolicy policy, Value kvTile,
                                              Value seqQ, Value seqKv) {
  IREmitter e{builder, loc};
  ClampedBounds<Value> r =
      bounds_rules::backward(e, policy, schedule.getMaps(),
                             schedule.getTileShape(), kvTile, seqQ, seqKv);
  return {r.begin, r.end, r.interiorBegin, r.interiorEnd};
}

Value mlir::sdpa::emitRelayTurn(OpBuilder &builder, Location loc,
                                ScheduleAttr schedule, Value kvTile,
                                Value qTile, Value seqQ, Value seqKv) {
  IREmitter e{builder, loc};
  return bounds_rules::relayTurn(e, schedule.getMaps(), kvTile, qTile, seqQ,
                                 seqKv);
}

ScheduleAttr mlir::sdpa::getKernelSchedule(AttentionOpInterface op,
                                           TileShape tiles) {
  ScheduleAttr schedule = op.getScheduleAttr();
  auto [seqQ, seqKv] = getUniformSeqLengths(op);
  if (schedule && !seqQ && !seqKv)
    return schedule;
  if (schedule)
    tiles = schedule.getTileShape();
  return deriveSchedule(op.getMaskAttr().getBand(), tiles, op->getContext());
}

ScheduleAttr mlir::sdpa::deriveSchedule(const Band &band, TileShape tiles,
                                        MLIRContext *context) {
  return ScheduleAttr::get(context, tiles,
                           deriveScheduleMaps(band, tiles, context));
}

FailureOr<ClampedBounds<int64_t>>
mlir::sdpa::foldEmittedBounds(ScheduleAttr schedule, BoundsPolicy policy,
                              bool forward, int64_t tile, int64_t seqQ,
                              int64_t seqKv, ArrayRef<int64_t> turnKvTiles,
                              SmallVectorImpl<int64_t> *turns) {
  MLIRContext *ctx = schedule.getContext();
  ctx->loadDialect<affine::AffineDialect, arith::ArithDialect,
                   func::FuncDialect>();
  OpBuilder b(ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, "bounds", b.getFunctionType({}, {}));
  b.setInsertionPointToStart(func.addEntryBlock());
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value t = index(tile);
  Value sq = index(seqQ);
  Value skv = index(seqKv);
  SmallVector<Value> results;
  if (forward) {
    ForwardBounds f = emitForwardBounds(b, loc, schedule, policy, t, sq, skv);
    results = {f.kvBegin, f.kvEnd, f.interiorBegin, f.interiorEnd};
    for (int64_t u : turnKvTiles) {
      Value kv = index(u);
      results.push_back(emitRelayTurn(b, loc, schedule, kv, t, sq, skv));
    }
  } else {
    BackwardBounds w = emitBackwardBounds(b, loc, schedule, policy, t, sq, skv);
    results = {w.qBegin, w.qEnd, w.interiorBegin, w.interiorEnd};
  }
  auto ret = func::ReturnOp::create(b, loc, results);
  func.setType(b.getFunctionType({}, ValueRange(results).getTypes()));
  if (failed(applyPatternsGreedily(func, RewritePatternSet(ctx))))
    return failure();
  SmallVector<int64_t> values;
  for (Value v : ret.getOperands()) {
    APInt constant;
    if (!matchPattern(v, m_ConstantInt(&constant)))
      return failure();
    values.push_back(constant.getSExtValue());
  }
  if (turns)
    turns->assign(values.begin() + 4, values.end());
  return ClampedBounds<int64_t>{values[0], values[1], values[2], values[3]};
}
