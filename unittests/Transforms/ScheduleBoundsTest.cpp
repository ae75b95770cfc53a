//===- ScheduleBoundsTest.cpp - Emitted bounds of every policy vs. the mask
//===//
//
// Emits the bounds of SdpaDialect/Utils/ScheduleBounds.h with constant
// operands for every clamp policy, lets MLIR fold them, and compares the
// constants with the brute-force mask and with the rules over integers
// (BoundsPolicy.h): the ops the kernels and host functions use compute
// exactly the schedule. A policy's bounds are read the way its consumer runs
// them: visits [begin, end), interior [interiorBegin, interiorEnd), edges
// [begin, interiorBegin) and [interiorEnd, end), each empty unless its end is
// above its begin.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Utils/ScheduleBounds.h"
#include "../Analysis/BruteForceMask.h"
#include "SdpaDialect/SdpaDialect.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

namespace {

constexpr BoundsPolicy kPolicies[] = {BoundsPolicy::ForwardKernel,
                                      BoundsPolicy::BackwardKernel,
                                      BoundsPolicy::HostFunctions};

bool inRange(int64_t lo, int64_t hi, int64_t x) { return lo <= x && x < hi; }

/// Whether bounds `r`, run as their consumer runs them, visit exactly the
/// tiles `visible(x)` of [0, n) and skip the mask on exactly `interior(x)`.
template <typename Visible, typename Interior>
::testing::AssertionResult matchesMask(const ClampedBounds<int64_t> &r,
                                       int64_t n, Visible visible,
                                       Interior interior) {
  for (int64_t x = -1; x <= n; ++x) {
    bool inLoop = inRange(r.begin, r.end, x);
    bool unmasked = inRange(r.interiorBegin, r.interiorEnd, x);
    bool edge = inRange(r.begin, r.interiorBegin, x) ||
                inRange(r.interiorEnd, r.end, x);
    bool want = x >= 0 && x < n && visible(x);
    bool wantInterior = want && interior(x);
    // The three loops of the forward and the one loop with an edge test of
    // the backward must agree: visited once, masked unless interior.
    if (inLoop != want || unmasked != wantInterior || (unmasked && edge) ||
        (inLoop && !unmasked && !edge))
      return ::testing::AssertionFailure()
             << "tile " << x << ": bounds [" << r.begin << "," << r.end
             << ") interior [" << r.interiorBegin << "," << r.interiorEnd
             << ")";
  }
  return ::testing::AssertionSuccess();
}

bool operator==(const ClampedBounds<int64_t> &a,
                const ClampedBounds<int64_t> &b) {
  return a.begin == b.begin && a.end == b.end &&
         a.interiorBegin == b.interiorBegin && a.interiorEnd == b.interiorEnd;
}

class ScheduleBoundsTest : public ::testing::Test {
protected:
  ScheduleBoundsTest() { context.loadDialect<SdpaDialect>(); }
  MLIRContext context;
};

TEST_F(ScheduleBoundsTest, EveryPolicyFoldsToTheMask) {
  CaseGenerator gen(/*seed=*/11);
  for (int i = 0; i < 300; ++i) {
    int64_t seqQ = gen.uniform(1, 70), seqKv = gen.uniform(1, 70);
    Band band = gen.band(std::max(seqQ, seqKv));
    TileShape tiles{gen.tile(), gen.tile()};
    ScheduleMaps maps = deriveScheduleMaps(band, tiles, &context);
    auto schedule = ScheduleAttr::get(&context, tiles, maps);
    BruteForceMask mask(band, tiles, seqQ, seqKv);
    SmallVector<int64_t> kvTiles;
    for (int64_t u = 0; u < mask.numKvTiles; ++u)
      kvTiles.push_back(u);
    for (BoundsPolicy policy : kPolicies) {
      for (int64_t t = 0; t < mask.numQTiles; ++t) {
        SmallVector<int64_t> turns;
        FailureOr<ClampedBounds<int64_t>> f =
            foldEmittedBounds(schedule, policy, /*forward=*/true, t, seqQ,
                              seqKv, kvTiles, &turns);
        ASSERT_TRUE(succeeded(f)) << "case " << i;
        ASSERT_TRUE(matchesMask(
            *f, mask.numKvTiles,
            [&](int64_t u) { return mask.anyVisible(t, u); },
            [&](int64_t u) { return mask.interior(t, u); }))
            << "case " << i << " q_tile " << t << " policy " << int(policy);
        ASSERT_TRUE(*f == evaluateForwardBounds(maps, policy, t, seqQ, seqKv))
            << "case " << i;
        for (int64_t u = f->begin; u < f->end; ++u)
          ASSERT_EQ(turns[u], u - f->begin) << "case " << i;
      }
      for (int64_t u = 0; u < mask.numKvTiles; ++u) {
        FailureOr<ClampedBounds<int64_t>> w = foldEmittedBounds(
            schedule, policy, /*forward=*/false, u, seqQ, seqKv);
        ASSERT_TRUE(succeeded(w)) << "case " << i;
        ASSERT_TRUE(matchesMask(
            *w, mask.numQTiles,
            [&](int64_t t) { return mask.anyVisible(t, u); },
            [&](int64_t t) { return mask.interior(t, u); }))
            << "case " << i << " kv_tile " << u << " policy " << int(policy);
        ASSERT_TRUE(*w ==
                    evaluateBackwardBounds(maps, tiles, policy, u, seqQ, seqKv))
            << "case " << i;
      }
    }
  }
}

/// Negative control: without the full-key-tile rule (the q-interior maps
/// alone, clamped into the range) a partial key tile would skip the mask of
/// keys past Skv, and the check above must see it.
TEST_F(ScheduleBoundsTest, CheckCatchesAMissingFullKeyTileRule) {
  Band band; // no mask: every partial key tile is an interior candidate
  TileShape tiles{16, 16};
  int64_t seqQ = 32, seqKv = 40; // key tile 2 holds 8 of 16 keys
  ScheduleMaps maps = deriveScheduleMaps(band, tiles, &context);
  BruteForceMask mask(band, tiles, seqQ, seqKv);
  int64_t u = 2;
  ClampedBounds<int64_t> good = evaluateBackwardBounds(
      maps, tiles, BoundsPolicy::HostFunctions, u, seqQ, seqKv);
  auto visible = [&](int64_t t) { return mask.anyVisible(t, u); };
  auto interior = [&](int64_t t) { return mask.interior(t, u); };
  EXPECT_TRUE(matchesMask(good, mask.numQTiles, visible, interior));
  ClampedBounds<int64_t> noRule = good;
  noRule.interiorBegin = good.begin;
  noRule.interiorEnd = good.end;
  EXPECT_FALSE(matchesMask(noRule, mask.numQTiles, visible, interior));
}

} // namespace
