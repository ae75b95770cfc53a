//===- BoundsPolicy.h - How each consumer clamps the schedule ---*- C++ -*-===//
//
// The one place where the clamps of the schedule maps (TileBounds.h) and the
// full-key-tile rule are written. A consumer chooses its clamp policy; the
// rules below are written once over an "emitter" and instantiated twice:
// with integers (evaluateSchedule, the fuzzer) and with IR
// (SdpaDialect/Utils/ScheduleBounds.h: both kernels, sdpa-materialize-bounds).
//
// With B, E the range maps and IB, IE the interior maps of a tile x, every
// policy yields [begin, end) and [interiorBegin, interiorEnd) with
//
//   visited tiles  = [begin, end)
//   interior tiles = [interiorBegin, interiorEnd)
//   edge tiles     = [begin, interiorBegin) and [interiorEnd, end)
//
// (a half-open range whose end is not above its begin is empty):
//
//   ForwardKernel   begin = B, end = E (possibly below begin: an empty loop),
//                   interiorBegin = maxsi(minsi(IB, end), begin),
//                   interiorEnd = maxsi(minsi(IE, end), interiorBegin).
//                   The lightest form: the forward kernel's edge and
//                   interior loops need nothing more (measured: the
//                   heavier normalized form costs it 6 registers and 2-3%,
//                   docs/Rationale.md); the kernel itself stops the edge
//                   loops at Skv / tile_kv (ForwardKernel.cpp).
//   BackwardKernel, begin = B, end = max(E, begin),
//   HostFunctions   interiorBegin = min(max(IB, B), end),
//                   interiorEnd = max(min(IE, E), interiorBegin),
//                   where max(IB, B) is one max-map (the results of both),
//                   so begin <= interiorBegin <= interiorEnd <= end.
//
// Backward bounds (x = key tile u) are the same rules over the q maps, and
// then the full-key-tile rule: only a full key tile, u < Skv floordiv Tk, has
// an interior; a partial one gets [end, end).
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_ANALYSIS_BOUNDSPOLICY_H
#define SDPADIALECT_ANALYSIS_BOUNDSPOLICY_H

#include "SdpaDialect/Analysis/TileBounds.h"
#include "mlir/IR/AffineExpr.h"

namespace mlir::sdpa {

/// The consumer whose clamps are emitted. Each consumer names its own; two
/// may share a form, never a call site's guess.
enum class BoundsPolicy { ForwardKernel, BackwardKernel, HostFunctions };

/// How a pairwise max/min is written: arith.maxsi/minsi (the forward kernel)
/// or affine.max/min of two values.
enum class PairStyle { Arith, Affine };

/// A visit range and its interior, of any value type.
template <typename V> struct ClampedBounds {
  V begin, end, interiorBegin, interiorEnd;
};

/// The map ()[Skv] -> (Skv floordiv Tk): the number of full key tiles.
inline AffineMap getFullKeyTilesMap(int64_t tileKv, MLIRContext *context) {
  return AffineMap::get(0, 1, getAffineSymbolExpr(0, context).floorDiv(tileKv));
}

/// The max-map (`isMax`) or min-map of the results of `a` and `b` together.
AffineMap mergeMapResults(AffineMap a, AffineMap b, bool isMax);

namespace bounds_rules {

/// The emitter interface the rules use (`E::Value` is int64_t or mlir::Value):
///   max(map, operands), min(map, operands), apply(map, operands): a max-,
///     min- or single-result map at operands (its dims, then its symbols);
///   maxOfBoth(x, y, operands), minOfBoth(x, y, operands): the max (min)
///     over the results of two maps of the same operands (the IR emitter
///     merges them, mergeMapResults);
///   pairMax(x, y, style), pairMin(x, y, style), ult(x, y), select(c, x, y).
/// Each rule emits in statement order, one emitter call per statement.

/// Whether key tile `u` is full: u < Skv floordiv Tk.
template <typename E, typename V = typename E::Value>
V isFullKeyTile(E &e, V u, V seqKv, int64_t tileKv, MLIRContext *context) {
  V fullTiles = e.apply(getFullKeyTilesMap(tileKv, context), {seqKv});
  return e.ult(u, fullTiles);
}

/// A range and its interior from the maps B, E, IB, IE at `operands`.
template <typename E, typename V = typename E::Value>
ClampedBounds<V> clamp(E &e, BoundsPolicy policy, AffineMap begin,
                       AffineMap end, AffineMap interiorBegin,
                       AffineMap interiorEnd, ArrayRef<V> operands) {
  ClampedBounds<V> r;
  if (policy == BoundsPolicy::ForwardKernel) {
    r.begin = e.max(begin, operands);
    r.end = e.min(end, operands);
    V rawBegin = e.max(interiorBegin, operands);
    V rawEnd = e.min(interiorEnd, operands);
    V below = e.pairMin(rawBegin, r.end, PairStyle::Arith);
    r.interiorBegin = e.pairMax(below, r.begin, PairStyle::Arith);
    V above = e.pairMin(rawEnd, r.end, PairStyle::Arith);
    r.interiorEnd = e.pairMax(above, r.interiorBegin, PairStyle::Arith);
    return r;
  }
  r.begin = e.max(begin, operands);
  V last = e.min(end, operands);
  r.end = e.pairMax(last, r.begin, PairStyle::Affine);
  V first = e.maxOfBoth(interiorBegin, begin, operands);
  r.interiorBegin = e.pairMin(first, r.end, PairStyle::Affine);
  V stop = e.minOfBoth(interiorEnd, end, operands);
  r.interiorEnd = e.pairMax(stop, r.interiorBegin, PairStyle::Affine);
  return r;
}

/// The forward bounds of query tile `t`.
template <typename E, typename V = typename E::Value>
ClampedBounds<V> forward(E &e, BoundsPolicy policy, const ScheduleMaps &maps,
                         V t, V seqQ, V seqKv) {
  V operands[] = {t, seqQ, seqKv};
  return clamp<E, V>(e, policy, maps.kvBegin, maps.kvEnd, maps.interiorBegin,
                     maps.interiorEnd, operands);
}

/// The backward bounds of key tile `u`; a partial key tile has no interior.
template <typename E, typename V = typename E::Value>
ClampedBounds<V> backward(E &e, BoundsPolicy policy, const ScheduleMaps &maps,
                          TileShape tiles, V u, V seqQ, V seqKv) {
  V operands[] = {u, seqQ, seqKv};
  ClampedBounds<V> r =
      clamp<E, V>(e, policy, maps.qBegin, maps.qEnd, maps.qInteriorBegin,
                  maps.qInteriorEnd, operands);
  V full = isFullKeyTile<E, V>(e, u, seqKv, tiles.kv, maps.qEnd.getContext());
  r.interiorBegin = e.select(full, r.interiorBegin, r.end);
  r.interiorEnd = e.select(full, r.interiorEnd, r.end);
  return r;
}

/// The relay turn of key tile `u` at query tile `t`: u - kv_first(t).
template <typename E, typename V = typename E::Value>
V relayTurn(E &e, const ScheduleMaps &maps, V u, V t, V seqQ, V seqKv) {
  V operands[] = {u, t, seqQ, seqKv};
  // Without a left edge the turn is the key tile itself.
  if (maps.relayTurn.getNumResults() == 1)
    return e.apply(maps.relayTurn, operands);
  return e.min(maps.relayTurn, operands);
}

} // namespace bounds_rules

/// The rules evaluated over integers.
ClampedBounds<int64_t> evaluateForwardBounds(const ScheduleMaps &maps,
                                             BoundsPolicy policy, int64_t t,
                                             int64_t seqQ, int64_t seqKv);
ClampedBounds<int64_t> evaluateBackwardBounds(const ScheduleMaps &maps,
                                              TileShape tiles,
                                              BoundsPolicy policy, int64_t u,
                                              int64_t seqQ, int64_t seqKv);

} // namespace mlir::sdpa

#endif // SDPADIALECT_ANALYSIS_BOUNDSPOLICY_H
