//===- TileBoundsMapsTest.cpp - Shape of the derived maps -----------------===//
//
// What the maps look like, beyond their values: unbounded edges are absent,
// static lengths remove the symbols, dominated results are dropped.
//
//===----------------------------------------------------------------------===//

#include "BruteForceMask.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <string>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

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

std::string text(AffineMap map) {
  std::string out;
  llvm::raw_string_ostream os(out);
  map.print(os);
  return out;
}

/// pruneDominatedResults' specification, spelled out: result i goes if some
/// other result j beats it by a constant (simplify(r_i - r_j) is one), ties
/// going to the first.
AffineMap prunePairwise(AffineMap map, bool isMax) {
  unsigned numDims = map.getNumDims(), numSymbols = map.getNumSymbols();
  SmallVector<AffineExpr> results;
  for (AffineExpr result : map.getResults())
    results.push_back(simplifyAffineExpr(result, numDims, numSymbols));
  SmallVector<AffineExpr> kept;
  for (size_t i = 0; i < results.size(); ++i) {
    bool beaten = false;
    for (size_t j = 0; j < results.size() && !beaten; ++j) {
      auto c = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(results[i] - results[j], numDims, numSymbols));
      if (i == j || !c)
        continue;
      int64_t value = c.getValue();
      beaten = (isMax ? value < 0 : value > 0) || (value == 0 && j < i);
    }
    if (!beaten)
      kept.push_back(results[i]);
  }
  return AffineMap::get(numDims, numSymbols, kept, map.getContext());
}

/// The pruning agrees with the pairwise specification on maps with
/// dominated, tied and incomparable results: the derived maps' results, each
/// also shifted by a small constant, shuffled, with the lengths symbolic and
/// known.
TEST(TileBoundsMaps, PruneAgreesWithPairwiseSimplification) {
  MLIRContext context;
  CaseGenerator gen(/*seed=*/20261204);
  for (int i = 0; i < 3000; ++i) {
    Band band = gen.band(64);
    ScheduleMaps maps =
        deriveScheduleMaps(band, {gen.tile(), gen.tile()}, &context);
    for (AffineMap map : {maps.kvBegin, maps.kvEnd, maps.interiorBegin,
                          maps.qEnd, maps.kvFirst, maps.relayTurn}) {
      SmallVector<AffineExpr> results(map.getResults());
      for (AffineExpr r : map.getResults())
        results.push_back(r + gen.uniform(-2, 2));
      std::shuffle(results.begin(), results.end(), gen.rng);
      AffineMap grown = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                                       results, &context);
      SmallVector<AffineExpr> dims, lengths;
      for (unsigned d = 0; d < map.getNumDims(); ++d)
        dims.push_back(getAffineDimExpr(d, &context));
      lengths.push_back(getAffineConstantExpr(gen.length(), &context));
      lengths.push_back(getAffineConstantExpr(gen.length(), &context));
      AffineMap known = grown.replaceDimsAndSymbols(
          dims, lengths, map.getNumDims(), map.getNumSymbols());
      for (AffineMap m : {grown, known})
        for (bool isMax : {true, false})
          ASSERT_EQ(text(pruneDominatedResults(m, isMax)),
                    text(prunePairwise(m, isMax)))
              << "map " << text(m) << (isMax ? " (max)" : " (min)");
    }
  }
}

} // namespace
