//===- RelaySimulationTest.cpp - The deterministic dQ relay, simulated ----===//
//
// Simulates the backward's relay under in-order dispatch: key-tile programs
// start in ascending order with a bounded number resident at once, each walks
// its query tiles ascending and, at query tile t, waits until t's counter
// equals its turn, adds, and bumps the counter. With the derived turns the
// relay never deadlocks and adds in ascending key-tile order; the naive turn
// (the key-tile index) deadlocks once a window bounds the q-loop.
//
//===----------------------------------------------------------------------===//

#include "BruteForceMask.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <deque>
#include <functional>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

namespace {

using TurnFn = std::function<int64_t(int64_t u, int64_t t)>;

struct RelayOutcome {
  bool deadlocked = false;
  /// The key tiles that added into each query tile, in order.
  std::vector<std::vector<int64_t>> addOrder;
};

RelayOutcome simulateRelay(const ScheduleTable &table, const TurnFn &turn,
                           int64_t resident, std::mt19937_64 &rng) {
  int64_t numQTiles = table.forward.size();
  int64_t numKvTiles = table.backward.size();
  RelayOutcome outcome;
  outcome.addOrder.resize(numQTiles);
  std::vector<int64_t> counter(numQTiles, 0);
  // Program u's position: the next query tile it visits.
  std::vector<int64_t> next(numKvTiles);
  for (int64_t u = 0; u < numKvTiles; ++u)
    next[u] = table.backward[u].q.begin;
  std::deque<int64_t> running;
  int64_t launched = 0, finished = 0;
  while (finished < numKvTiles) {
    while (int64_t(running.size()) < resident && launched < numKvTiles)
      running.push_back(launched++);
    // Let the resident programs that can progress take one step each, in a
    // random order; none progressing means deadlock.
    std::vector<int64_t> order(running.begin(), running.end());
    std::shuffle(order.begin(), order.end(), rng);
    bool progressed = false;
    for (int64_t u : order) {
      int64_t t = next[u];
      if (t < table.backward[u].q.end) {
        if (counter[t] != turn(u, t))
          continue;
        outcome.addOrder[t].push_back(u);
        ++counter[t];
        ++next[u];
        progressed = true;
      }
      if (next[u] >= table.backward[u].q.end) {
        running.erase(std::find(running.begin(), running.end(), u));
        ++finished;
        progressed = true;
      }
    }
    if (!progressed) {
      outcome.deadlocked = true;
      return outcome;
    }
  }
  return outcome;
}

TEST(RelaySimulation, DerivedTurnsNeverDeadlockAndAddInOrder) {
  MLIRContext context;
  CaseGenerator gen(/*seed=*/99);
  std::mt19937_64 rng(5);
  int naiveDeadlocks = 0;
  for (int i = 0; i < 3000; ++i) {
    int64_t seqQ = gen.length(), seqKv = gen.length();
    Band band = gen.band(std::max(seqQ, seqKv));
    TileShape tiles{gen.tile(), gen.tile()};
    ScheduleMaps maps = deriveScheduleMaps(band, tiles, &context);
    ScheduleTable table = evaluateSchedule(maps, tiles, seqQ, seqKv);
    int64_t resident = gen.uniform(1, 4);
    RelayOutcome outcome = simulateRelay(
        table,
        [&](int64_t u, int64_t t) {
          return evaluateRelayTurn(maps, u, t, seqQ, seqKv);
        },
        resident, rng);
    ASSERT_FALSE(outcome.deadlocked) << "case " << i;
    for (int64_t t = 0; t < int64_t(table.forward.size()); ++t) {
      std::vector<int64_t> expected;
      for (int64_t u = table.forward[t].kv.begin; u < table.forward[t].kv.end;
           ++u)
        expected.push_back(u);
      ASSERT_EQ(outcome.addOrder[t], expected) << "case " << i << " t=" << t;
    }
    // The naive turn u is a negative control: the simulator must catch it.
    RelayOutcome naive = simulateRelay(
        table, [](int64_t u, int64_t) { return u; }, resident, rng);
    naiveDeadlocks += naive.deadlocked;
  }
  EXPECT_GT(naiveDeadlocks, 100);
}

/// Without a window the turn folds to the key-tile index.
TEST(RelaySimulation, TurnFoldsToKeyTileWithoutWindow) {
  MLIRContext context;
  Band causal{std::nullopt, 0, Alignment::TopLeft};
  ScheduleMaps maps = deriveScheduleMaps(causal, {64, 64}, &context);
  ASSERT_EQ(maps.relayTurn.getNumResults(), 1u);
  EXPECT_EQ(maps.relayTurn.getResult(0), getAffineDimExpr(0, &context));
}

} // namespace
