//===- TileBounds.cpp - Exact symbolic tile bounds of a band --------------===//
//
// The derivation follows docs/Semantics.md §3-4. With q0 = t*Tq, k0 = u*Tk and
// delta = Skv - Sq (bottom-right) or 0 (top-left):
//
//   kvBegin(t)       = max(0, (q0 + delta - L) floordiv Tk,
//                          [top-left] q0 + delta - L - Skv + 1 + (Skv - 1) floordiv Tk)
//   kvEnd(t)         = min(Skv ceildiv Tk, (q0 + Tq - 1 + delta + R) floordiv Tk + 1,
//                          [top-left] (Sq - 1 + R) floordiv Tk + 1)
//   interiorBegin(t) = max(0, (q0 + Tq - 1 + delta - L) ceildiv Tk)
//   interiorEnd(t)   = min(Skv floordiv Tk, (q0 + delta + R + 1) floordiv Tk)
//   qBegin(u)        = max(0, (k0 - delta - R) floordiv Tq,
//                          [top-left] k0 - delta - R - Sq + 1 + (Sq - 1) floordiv Tq)
//   qEnd(u)          = min(Sq ceildiv Tq, (k0 + Tk - 1 - delta + L) floordiv Tq + 1,
//                          [top-left] (Skv - 1 + L) floordiv Tq + 1)
//   qInteriorBegin(u)= max(0, (k0 + Tk - 1 - delta - R) ceildiv Tq)
//   qInteriorEnd(u)  = min(Sq ceildiv Tq, (k0 - delta + L + 1) floordiv Tq)
//   kvFirst(t)       = max(0, (q0 + delta - L) floordiv Tk)
//   turn(u, t)       = min(u, u - (q0 + delta - L) floordiv Tk)
//
// An unbounded edge drops every term that mentions it. The linear third term
// of kvBegin (qBegin) empties the range of a tile whose window starts past the
// last key (query); it never exceeds the floordiv term otherwise, and it can
// only bite with top-left alignment. Likewise the third term of kvEnd (qEnd)
// accounts for the last, partial tile and is dominated under bottom-right
// alignment. Interior tiles are judged on the tile's nominal rows and need a
// full key tile: every real row then sees every key without a cell mask.
// The backward interior is the same relation read from the key tile: the
// maps bound the nominal rows, and the key tile's fullness (u < Skv floordiv
// Tk) is a property of the program, applied by the clamp rules
// (BoundsPolicy.h) every consumer goes through: a partial key tile has no
// interior. Rows past Sq need no mask in the backward either, because the
// kernel gives them P = 0 through their row statistics.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/Analysis/BoundsPolicy.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

namespace mlir::sdpa {
namespace {

/// Builds the expressions of one schedule over the tile index `index` and
/// the length symbols.
struct ScheduleBuilder {
  const Band &band;
  TileShape tiles;
  MLIRContext *context;
  AffineExpr seqQ = getAffineSymbolExpr(kSeqQSymbol, context);
  AffineExpr seqKv = getAffineSymbolExpr(kSeqKvSymbol, context);

  AffineExpr constant(int64_t value) const {
    return getAffineConstantExpr(value, context);
  }
  AffineExpr delta() const {
    return band.align == Alignment::BottomRight ? seqKv - seqQ : constant(0);
  }
  bool topLeft() const { return band.align == Alignment::TopLeft; }

  /// The lower bound of a range over `n` tiles of size `tile` whose first
  /// visible element is max(0, first) within a sequence of `length`.
  SmallVector<AffineExpr> rangeBegin(std::optional<AffineExpr> first,
                                     AffineExpr length, int64_t tile,
                                     bool mayStartPastEnd) const {
    SmallVector<AffineExpr> results{constant(0)};
    if (first) {
      results.push_back(first->floorDiv(tile));
      if (mayStartPastEnd)
        results.push_back(*first - length + 1 + (length - 1).floorDiv(tile));
    }
    return results;
  }

  AffineMap map(unsigned numDims, ArrayRef<AffineExpr> results) const {
    return AffineMap::get(numDims, /*symbolCount=*/2, results, context);
  }

  ScheduleMaps build() const {
    AffineExpr t = getAffineDimExpr(0, context);
    AffineExpr q0 = t * tiles.q;
    AffineExpr k0 = t * tiles.kv; // the same dimension, read as a key tile
    std::optional<int64_t> left = band.left, right = band.right;

    ScheduleMaps maps;
    // Forward: keys visited by query tile t.
    std::optional<AffineExpr> kvFirstKey;
    if (left)
      kvFirstKey = q0 + delta() - *left;
    maps.kvBegin = map(1, rangeBegin(kvFirstKey, seqKv, tiles.kv, topLeft()));
    SmallVector<AffineExpr> kvEnd{seqKv.ceilDiv(tiles.kv)};
    if (right) {
      kvEnd.push_back((q0 + tiles.q - 1 + delta() + *right).floorDiv(tiles.kv) +
                      1);
      if (topLeft())
        kvEnd.push_back((seqQ - 1 + *right).floorDiv(tiles.kv) + 1);
    }
    maps.kvEnd = map(1, kvEnd);

    // Interior: every nominal row of tile t sees every key of a full tile u.
    SmallVector<AffineExpr> interiorBegin{constant(0)};
    if (left)
      interiorBegin.push_back(
          (q0 + tiles.q - 1 + delta() - *left).ceilDiv(tiles.kv));
    maps.interiorBegin = map(1, interiorBegin);
    SmallVector<AffineExpr> interiorEnd{seqKv.floorDiv(tiles.kv)};
    if (right)
      interiorEnd.push_back((q0 + delta() + *right + 1).floorDiv(tiles.kv));
    maps.interiorEnd = map(1, interiorEnd);

    // Backward: queries visited by key tile u (the roles of L, R swapped).
    std::optional<AffineExpr> qFirstRow;
    if (right)
      qFirstRow = k0 - delta() - *right;
    maps.qBegin = map(1, rangeBegin(qFirstRow, seqQ, tiles.q, topLeft()));
    SmallVector<AffineExpr> qEnd{seqQ.ceilDiv(tiles.q)};
    if (left) {
      qEnd.push_back((k0 + tiles.kv - 1 - delta() + *left).floorDiv(tiles.q) +
                     1);
      if (topLeft())
        qEnd.push_back((seqKv - 1 + *left).floorDiv(tiles.q) + 1);
    }
    maps.qEnd = map(1, qEnd);

    // Backward interior: every nominal row of tile t sees every key of tile
    // u (the forward interior with the roles of L, R swapped).
    SmallVector<AffineExpr> qInteriorBegin{constant(0)};
    if (right)
      qInteriorBegin.push_back(
          (k0 + tiles.kv - 1 - delta() - *right).ceilDiv(tiles.q));
    maps.qInteriorBegin = map(1, qInteriorBegin);
    SmallVector<AffineExpr> qInteriorEnd{seqQ.ceilDiv(tiles.q)};
    if (left)
      qInteriorEnd.push_back((k0 - delta() + *left + 1).floorDiv(tiles.q));
    maps.qInteriorEnd = map(1, qInteriorEnd);

    // Relay: the first visitor of query tile t and the turn of visitor u.
    maps.kvFirst = map(1, rangeBegin(kvFirstKey, seqKv, tiles.kv,
                                     /*mayStartPastEnd=*/false));
    AffineExpr u = getAffineDimExpr(0, context);
    SmallVector<AffineExpr> turn{u};
    if (left) {
      AffineExpr visitedT = getAffineDimExpr(1, context);
      turn.push_back(
          u - (visitedT * tiles.q + delta() - *left).floorDiv(tiles.kv));
    }
    maps.relayTurn = map(2, turn);
    return maps;
  }
};

/// Applies `fn` to every map of `maps`, with whether it is a max-map.
template <typename Fn>
ScheduleMaps transformMaps(const ScheduleMaps &maps, Fn fn) {
  ScheduleMaps out;
  out.kvBegin = fn(maps.kvBegin, true);
  out.kvEnd = fn(maps.kvEnd, false);
  out.interiorBegin = fn(maps.interiorBegin, true);
  out.interiorEnd = fn(maps.interiorEnd, false);
  out.qBegin = fn(maps.qBegin, true);
  out.qEnd = fn(maps.qEnd, false);
  out.qInteriorBegin = fn(maps.qInteriorBegin, true);
  out.qInteriorEnd = fn(maps.qInteriorEnd, false);
  out.kvFirst = fn(maps.kvFirst, true);
  out.relayTurn = fn(maps.relayTurn, false);
  return out;
}

} // namespace

ScheduleMaps deriveScheduleMaps(const Band &band, TileShape tiles,
                                MLIRContext *context) {
  assert(tiles.q >= 1 && tiles.kv >= 1 && "tile sizes must be positive");
  ScheduleMaps maps = ScheduleBuilder{band, tiles, context}.build();
  return transformMaps(maps, [](AffineMap map, bool isMax) {
    return pruneDominatedResults(map, isMax);
  });
}

namespace {

/// The constant c with a - b = c for every point, if there is one: results
/// of one map, flattened over shared locals (one flattener), differ by a
/// constant iff their forms agree in every column but the constant term,
/// which is what simplifying a - b to a constant decides, with one
/// flattening per result instead of one per pair. Semi-affine results
/// (none of the schedule's) are simplified pairwise.
class ConstantDifferences {
public:
  ConstantDifferences(ArrayRef<AffineExpr> results, unsigned numDims,
                      unsigned numSymbols)
      : results(results), numDims(numDims), numSymbols(numSymbols),
        flattener(numDims, numSymbols) {
    flat = llvm::all_of(results, [&](AffineExpr r) {
      return r.isPureAffine() && succeeded(flattener.walkPostOrder(r));
    });
  }

  std::optional<int64_t> operator()(size_t i, size_t j) {
    if (flat) {
      ArrayRef<int64_t> a = flattener.operandExprStack[i];
      ArrayRef<int64_t> b = flattener.operandExprStack[j];
      if (a.drop_back() != b.drop_back())
        return std::nullopt;
      return a.back() - b.back();
    }
    AffineExpr diff =
        simplifyAffineExpr(results[i] - results[j], numDims, numSymbols);
    if (auto cst = dyn_cast<AffineConstantExpr>(diff))
      return cst.getValue();
    return std::nullopt;
  }

private:
  ArrayRef<AffineExpr> results;
  unsigned numDims, numSymbols;
  SimpleAffineExprFlattener flattener;
  bool flat;
};

} // namespace

AffineMap pruneDominatedResults(AffineMap map, bool isMax) {
  unsigned numDims = map.getNumDims(), numSymbols = map.getNumSymbols();
  SmallVector<AffineExpr> results;
  for (AffineExpr result : map.getResults())
    results.push_back(simplifyAffineExpr(result, numDims, numSymbols));
  // Results that differ by constants form classes; each class keeps its
  // best result (the largest of a max-map, the smallest of a min-map), the
  // first of equal ones. A result is dropped iff another one beats it.
  ConstantDifferences difference(results, numDims, numSymbols);
  SmallVector<bool> dropped(results.size(), false);
  for (size_t i = 0; i < results.size(); ++i) {
    for (size_t j = i + 1; j < results.size(); ++j) {
      std::optional<int64_t> c = difference(i, j); // results[i] - results[j]
      if (!c)
        continue;
      bool iWins = isMax ? *c >= 0 : *c <= 0; // ties: the first
      (iWins ? dropped[j] : dropped[i]) = true;
    }
  }
  SmallVector<AffineExpr> kept;
  for (size_t i = 0; i < results.size(); ++i)
    if (!dropped[i])
      kept.push_back(results[i]);
  return AffineMap::get(numDims, numSymbols, kept, map.getContext());
}

ScheduleMaps specializeScheduleMaps(const ScheduleMaps &maps,
                                    std::optional<int64_t> seqQ,
                                    std::optional<int64_t> seqKv) {
  return transformMaps(maps, [&](AffineMap map, bool isMax) {
    MLIRContext *context = map.getContext();
    SmallVector<AffineExpr> dims, symbols;
    for (unsigned i = 0; i < map.getNumDims(); ++i)
      dims.push_back(getAffineDimExpr(i, context));
    symbols.push_back(seqQ ? getAffineConstantExpr(*seqQ, context)
                           : getAffineSymbolExpr(kSeqQSymbol, context));
    symbols.push_back(seqKv ? getAffineConstantExpr(*seqKv, context)
                            : getAffineSymbolExpr(kSeqKvSymbol, context));
    AffineMap replaced = map.replaceDimsAndSymbols(
        dims, symbols, map.getNumDims(), map.getNumSymbols());
    return pruneDominatedResults(replaced, isMax);
  });
}

int64_t evaluateAffineExpr(AffineExpr expr, ArrayRef<int64_t> dims,
                           ArrayRef<int64_t> symbols) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbols[cast<AffineSymbolExpr>(expr).getPosition()];
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = evaluateAffineExpr(binary.getLHS(), dims, symbols);
  int64_t rhs = evaluateAffineExpr(binary.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return llvm::divideFloorSigned(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return llvm::divideCeilSigned(lhs, rhs);
  case AffineExprKind::Mod:
    return lhs - rhs * llvm::divideFloorSigned(lhs, rhs);
  default:
    llvm_unreachable("unknown affine expression kind");
  }
}

int64_t evaluateMaxMap(AffineMap map, ArrayRef<int64_t> dims,
                       ArrayRef<int64_t> symbols) {
  assert(map.getNumResults() > 0 && "max of no results");
  int64_t best = evaluateAffineExpr(map.getResult(0), dims, symbols);
  for (AffineExpr result : map.getResults().drop_front())
    best = std::max(best, evaluateAffineExpr(result, dims, symbols));
  return best;
}

int64_t evaluateMinMap(AffineMap map, ArrayRef<int64_t> dims,
                       ArrayRef<int64_t> symbols) {
  assert(map.getNumResults() > 0 && "min of no results");
  int64_t best = evaluateAffineExpr(map.getResult(0), dims, symbols);
  for (AffineExpr result : map.getResults().drop_front())
    best = std::min(best, evaluateAffineExpr(result, dims, symbols));
  return best;
}

TileRange clampRange(int64_t begin, int64_t end, int64_t lo, int64_t hi) {
  TileRange range;
  range.begin = std::clamp(begin, lo, hi);
  range.end = std::clamp(end, range.begin, hi);
  return range;
}

ScheduleTable evaluateSchedule(const ScheduleMaps &maps, TileShape tiles,
                               int64_t seqQ, int64_t seqKv) {
  int64_t numQTiles = tileCount(seqQ, tiles.q);
  int64_t numKvTiles = tileCount(seqKv, tiles.kv);
  int64_t symbols[] = {seqQ, seqKv};
  const BoundsPolicy policy = BoundsPolicy::HostFunctions;
  ScheduleTable table;
  for (int64_t t = 0; t < numQTiles; ++t) {
    ClampedBounds<int64_t> f =
        evaluateForwardBounds(maps, policy, t, seqQ, seqKv);
    TileRange kv = clampRange(f.begin, f.end, 0, numKvTiles);
    TileRange interior =
        clampRange(f.interiorBegin, f.interiorEnd, kv.begin, kv.end);
    table.forward.push_back({t, kv, interior});
    table.relay.push_back(
        {t, evaluateMaxMap(maps.kvFirst, t, symbols), kv.size()});
  }
  for (int64_t u = 0; u < numKvTiles; ++u) {
    ClampedBounds<int64_t> b =
        evaluateBackwardBounds(maps, tiles, policy, u, seqQ, seqKv);
    TileRange q = clampRange(b.begin, b.end, 0, numQTiles);
    TileRange interior =
        clampRange(b.interiorBegin, b.interiorEnd, q.begin, q.end);
    table.backward.push_back({u, q, interior});
  }
  return table;
}

} // namespace mlir::sdpa
