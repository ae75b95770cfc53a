//===- BoundsPolicy.cpp - The clamp rules over integers -------------------===//
//
// Instantiates the rules of BoundsPolicy.h with integer arithmetic: the
// reference the emitted IR of every policy is folded against, and what
// evaluateSchedule tabulates.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/BoundsPolicy.h"

#include <algorithm>

namespace mlir::sdpa {
namespace {

/// The rules' emitter over int64_t (comparisons give 0 or 1).
struct IntegerEmitter {
  using Value = int64_t;

  static std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>
  split(AffineMap map, ArrayRef<int64_t> operands) {
    return {operands.take_front(map.getNumDims()),
            operands.drop_front(map.getNumDims())};
  }
  int64_t max(AffineMap map, ArrayRef<int64_t> operands) {
    auto [dims, symbols] = split(map, operands);
    return evaluateMaxMap(map, dims, symbols);
  }
  int64_t min(AffineMap map, ArrayRef<int64_t> operands) {
    auto [dims, symbols] = split(map, operands);
    return evaluateMinMap(map, dims, symbols);
  }
  int64_t apply(AffineMap map, ArrayRef<int64_t> operands) {
    assert(map.getNumResults() == 1 && "apply of a multi-result map");
    return min(map, operands);
  }
  /// Over the results of both maps as they stand: the union's max (min)
  /// needs no pruning, so the folded IR's merged, pruned maps are checked
  /// against the plain union.
  int64_t maxOfBoth(AffineMap x, AffineMap y, ArrayRef<int64_t> operands) {
    return std::max(max(x, operands), max(y, operands));
  }
  int64_t minOfBoth(AffineMap x, AffineMap y, ArrayRef<int64_t> operands) {
    return std::min(min(x, operands), min(y, operands));
  }
  int64_t pairMax(int64_t x, int64_t y, PairStyle) { return std::max(x, y); }
  int64_t pairMin(int64_t x, int64_t y, PairStyle) { return std::min(x, y); }
  int64_t ult(int64_t x, int64_t y) {
    assert(x >= 0 && y >= 0 && "unsigned compare of a negative value");
    return x < y;
  }
  int64_t select(int64_t c, int64_t x, int64_t y) { return c ? x : y; }
};

} // namespace

AffineMap mergeMapResults(AffineMap a, AffineMap b, bool isMax) {
  SmallVector<AffineExpr> results(a.getResults());
  llvm::append_range(results, b.getResults());
  return pruneDominatedResults(AffineMap::get(a.getNumDims(), a.getNumSymbols(),
                                              results, a.getContext()),
                               isMax);
}

ClampedBounds<int64_t> evaluateForwardBounds(const ScheduleMaps &maps,
                                             BoundsPolicy policy, int64_t t,
                                             int64_t seqQ, int64_t seqKv) {
  IntegerEmitter e;
  return bounds_rules::forward(e, policy, maps, t, seqQ, seqKv);
}

ClampedBounds<int64_t> evaluateBackwardBounds(const ScheduleMaps &maps,
                                              TileShape tiles,
                                              BoundsPolicy policy, int64_t u,
                                              int64_t seqQ, int64_t seqKv) {
  IntegerEmitter e;
  return bounds_rules::backward(e, policy, maps, tiles, u, seqQ, seqKv);
}

int64_t evaluateRelayTurn(const ScheduleMaps &maps, int64_t kvTile,
                          int64_t qTile, int64_t seqQ, int64_t seqKv) {
  IntegerEmitter e;
  return bounds_rules::relayTurn(e, maps, kvTile, qTile, seqQ, seqKv);
}

} // namespace mlir::sdpa
