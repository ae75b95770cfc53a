//===- TileBoundsBruteForceTest.cpp - Derived bounds vs. the mask ---------===//
//
// Checks the derived schedule maps against a cell-by-cell evaluation of the
// band over many random (Sq, Skv, L, R, align, Tq, Tk) cases, dense and THD:
// exactness of the forward and backward ranges (hence their transposition),
// the interior split of both, and the relay's first visitor and turns.
//
//===----------------------------------------------------------------------===//

#include "BruteForceMask.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <sstream>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

namespace {

std::string describe(const Band &band, TileShape tiles, int64_t seqQ,
                     int64_t seqKv) {
  std::ostringstream os;
  os << "Sq=" << seqQ << " Skv=" << seqKv << " L="
     << (band.left ? std::to_string(*band.left) : "inf")
     << " R=" << (band.right ? std::to_string(*band.right) : "inf")
     << (band.align == Alignment::TopLeft ? " top_left" : " bottom_right")
     << " Tq=" << tiles.q << " Tk=" << tiles.kv;
  return os.str();
}

/// Checks one sequence's schedule, evaluated from `maps`, against the mask.
/// Returns false (after recording a failure) at the first mismatch.
bool checkSequence(const ScheduleMaps &maps, const Band &band, TileShape tiles,
                   int64_t seqQ, int64_t seqKv) {
  BruteForceMask mask(band, tiles, seqQ, seqKv);
  ScheduleTable table = evaluateSchedule(maps, tiles, seqQ, seqKv);
  std::string where = describe(band, tiles, seqQ, seqKv);
  EXPECT_EQ(int64_t(table.forward.size()), mask.numQTiles) << where;
  EXPECT_EQ(int64_t(table.backward.size()), mask.numKvTiles) << where;
  if (::testing::Test::HasFailure())
    return false;

  for (int64_t t = 0; t < mask.numQTiles; ++t) {
    const ScheduleTable::Forward &fwd = table.forward[t];
    for (int64_t u = 0; u < mask.numKvTiles; ++u) {
      bool visible = mask.anyVisible(t, u);
      // Forward exactness: visited iff the pair holds a visible cell.
      if (fwd.kv.contains(u) != visible) {
        ADD_FAILURE() << where << ": forward q_tile=" << t << " kv=["
                      << fwd.kv.begin << "," << fwd.kv.end << ") but pair ("
                      << t << "," << u << ") visible=" << visible;
        return false;
      }
      // Backward exactness, hence transposition of the forward relation.
      if (table.backward[u].q.contains(t) != visible) {
        ADD_FAILURE() << where << ": backward kv_tile=" << u << " q=["
                      << table.backward[u].q.begin << ","
                      << table.backward[u].q.end << ") but pair (" << t << ","
                      << u << ") visible=" << visible;
        return false;
      }
      // The backward interior is the same relation, read from key tile u.
      const ScheduleTable::Backward &bwd = table.backward[u];
      if (bwd.interior.contains(t) != mask.interior(t, u) ||
          bwd.interior.begin < bwd.q.begin || bwd.interior.end > bwd.q.end) {
        ADD_FAILURE() << where << ": backward interior of kv_tile=" << u
                      << " is [" << bwd.interior.begin << ","
                      << bwd.interior.end << ") in q=[" << bwd.q.begin << ","
                      << bwd.q.end << ") but pair (" << t << "," << u
                      << ") interior=" << mask.interior(t, u);
        return false;
      }
      if (fwd.interior.contains(u) != mask.interior(t, u)) {
        ADD_FAILURE() << where << ": interior of q_tile=" << t << " is ["
                      << fwd.interior.begin << "," << fwd.interior.end
                      << ") but pair (" << t << "," << u
                      << ") interior=" << mask.interior(t, u);
        return false;
      }
    }
    // Relay: the first visitor and the number of visitors.
    const ScheduleTable::Relay &relay = table.relay[t];
    if (relay.visitors != fwd.kv.size() ||
        (relay.visitors > 0 && relay.kvFirst != fwd.kv.begin)) {
      ADD_FAILURE() << where << ": relay q_tile=" << t
                    << " first=" << relay.kvFirst
                    << " visitors=" << relay.visitors;
      return false;
    }
  }

  // The turns of each query tile's visitors, seen from the backward side
  // (the programs that do the adds), are exactly 0 .. n-1.
  std::vector<std::vector<int64_t>> turns(mask.numQTiles);
  for (int64_t u = 0; u < mask.numKvTiles; ++u)
    for (int64_t t = table.backward[u].q.begin; t < table.backward[u].q.end;
         ++t)
      turns[t].push_back(evaluateRelayTurn(maps, u, t, seqQ, seqKv));
  for (int64_t t = 0; t < mask.numQTiles; ++t) {
    for (int64_t i = 0; i < int64_t(turns[t].size()); ++i) {
      if (turns[t][i] != i) {
        ADD_FAILURE() << where << ": visitor " << i << " of q_tile=" << t
                      << " has turn " << turns[t][i];
        return false;
      }
    }
  }
  return true;
}

TEST(TileBoundsBruteForce, DenseRandomCases) {
  MLIRContext context;
  CaseGenerator gen(/*seed=*/20261201);
  constexpr int kCases = 100000;
  for (int i = 0; i < kCases; ++i) {
    int64_t seqQ = gen.length(), seqKv = gen.length();
    Band band = gen.band(std::max(seqQ, seqKv));
    TileShape tiles{gen.tile(), gen.tile()};
    ScheduleMaps symbolic = deriveScheduleMaps(band, tiles, &context);
    ASSERT_TRUE(checkSequence(symbolic, band, tiles, seqQ, seqKv));
    // The maps specialized to these lengths give the same schedule.
    if (i % 10 == 0) {
      ScheduleMaps fixed = specializeScheduleMaps(symbolic, seqQ, seqKv);
      ASSERT_TRUE(checkSequence(fixed, band, tiles, seqQ, seqKv));
    }
  }
}

/// THD: one symbolic schedule serves every packed segment, including empty
/// ones and ones shorter and longer than the window.
TEST(TileBoundsBruteForce, PackedSegments) {
  MLIRContext context;
  CaseGenerator gen(/*seed=*/7);
  for (int batch = 0; batch < 2000; ++batch) {
    Band band = gen.band(64);
    TileShape tiles{gen.tile(), gen.tile()};
    ScheduleMaps symbolic = deriveScheduleMaps(band, tiles, &context);
    int64_t segments = gen.uniform(1, 6);
    for (int64_t s = 0; s < segments; ++s) {
      int64_t seqQ = gen.chance(0.15) ? 0 : gen.length();
      int64_t seqKv = band.align == Alignment::TopLeft && gen.chance(0.5)
                          ? seqQ
                          : gen.length();
      ASSERT_TRUE(checkSequence(symbolic, band, tiles, seqQ, seqKv));
    }
  }
}

/// The named cases of the issue, beyond random sampling.
TEST(TileBoundsBruteForce, NamedCases) {
  MLIRContext context;
  const std::optional<int64_t> inf;
  struct Case {
    std::optional<int64_t> left, right;
    Alignment align;
  };
  const Case cases[] = {
      {inf, inf, Alignment::TopLeft},      {inf, 0, Alignment::TopLeft},
      {inf, 0, Alignment::BottomRight},    {0, 0, Alignment::TopLeft},
      {127, 0, Alignment::TopLeft},        {127, 0, Alignment::BottomRight},
      {1000, 0, Alignment::TopLeft},       {5, inf, Alignment::TopLeft},
      {8, 8, Alignment::TopLeft},          {8, 8, Alignment::BottomRight},
      {0, inf, Alignment::BottomRight},    {3, 40, Alignment::TopLeft},
  };
  const std::pair<int64_t, int64_t> lengths[] = {
      {1, 1},   {17, 17},  {128, 128}, {100, 300}, {300, 100},
      {1, 517}, {517, 1},  {256, 256}, {0, 64},    {64, 0}};
  for (const Case &c : cases)
    for (auto [seqQ, seqKv] : lengths)
      for (TileShape tiles : {TileShape{128, 64}, TileShape{64, 128},
                              TileShape{16, 16}, TileShape{5, 3}}) {
        Band band{c.left, c.right, c.align};
        ScheduleMaps maps = deriveScheduleMaps(band, tiles, &context);
        ASSERT_TRUE(checkSequence(maps, band, tiles, seqQ, seqKv));
        ASSERT_TRUE(checkSequence(specializeScheduleMaps(maps, seqQ, seqKv),
                                  band, tiles, seqQ, seqKv));
      }
}

} // namespace
