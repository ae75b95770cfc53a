//===- TileBoundsMapsTest.cpp - Shape of the derived maps -----------------===//
//
// What the maps look like, beyond their values: unbounded edges are absent,
// static lengths remove the symbols, dominated results are dropped.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/TileBounds.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {

bool usesSymbols(AffineMap map) {
  bool uses = false;
  for (AffineExpr e : map.getResults())
    e.walk([&](AffineExpr sub) { uses |= isa<AffineSymbolExpr>(sub); });
  return uses;
}

TEST(TileBoundsMaps, FullAttentionHasNoEdgeTerms) {
  MLIRContext context;
  ScheduleMaps maps = deriveScheduleMaps({}, {128, 64}, &context);
  EXPECT_EQ(maps.kvBegin.getNumResults(), 1u);
  EXPECT_EQ(maps.kvEnd.getNumResults(), 1u);
  EXPECT_EQ(maps.qBegin.getNumResults(), 1u);
  EXPECT_EQ(maps.kvFirst.getNumResults(), 1u);
}

TEST(TileBoundsMaps, StaticLengthsFoldSymbols) {
  MLIRContext context;
  Band band{127, 0, Alignment::TopLeft};
  ScheduleMaps maps = specializeScheduleMaps(
      deriveScheduleMaps(band, {128, 64}, &context), 8192, 8192);
  for (AffineMap map : {maps.kvBegin, maps.kvEnd, maps.interiorBegin,
                        maps.interiorEnd, maps.qBegin, maps.qEnd,
                        maps.qInteriorBegin, maps.qInteriorEnd, maps.kvFirst,
                        maps.relayTurn})
    EXPECT_FALSE(usesSymbols(map)) << "map still symbolic";
}

TEST(TileBoundsMaps, EvaluatorUsesFloorSemantics) {
  MLIRContext context;
  AffineExpr d0 = getAffineDimExpr(0, &context);
  int64_t dims[] = {-7};
  EXPECT_EQ(evaluateAffineExpr(d0.floorDiv(2), dims, {}), -4);
  EXPECT_EQ(evaluateAffineExpr(d0.ceilDiv(2), dims, {}), -3);
  EXPECT_EQ(evaluateAffineExpr(d0 % 3, dims, {}), 2);
}

TEST(TileBoundsMaps, PruneKeepsOnlyUndominatedResults) {
  MLIRContext context;
  AffineExpr d0 = getAffineDimExpr(0, &context);
  AffineMap map = AffineMap::get(1, 0, {d0, d0 + 3, d0 * 2}, &context);
  AffineMap maxMap = pruneDominatedResults(map, /*isMax=*/true);
  EXPECT_EQ(maxMap.getNumResults(), 2u); // d0 + 3 and 2 * d0
  AffineMap minMap = pruneDominatedResults(map, /*isMax=*/false);
  EXPECT_EQ(minMap.getNumResults(), 2u); // d0 and 2 * d0
}

} // namespace
