//===- RelaySimulationTest.cpp - The deterministic dQ relay, simulated ----===//
//
// Simulates the backward's relay as the shipped kernel runs it
// (lib/Conversion/SdpaGradToGPU/MainKernel.cpp, Relay.cpp;
// docs/Semantics.md §4):
//
// * one program per (key tile u = blockIdx.x, kv head = blockIdx.y, batch
//   entry or packed segment = blockIdx.z); the grid spans the longest
//   segment and a program whose key tile starts at or past its segment's Skv
//   returns at once;
// * each program loops over the query heads h = kvHead * G + j, j ascending,
//   and for each walks step i of [q_begin(u), q_end(u)) (the BackwardKernel
//   clamps) at query tile t = q_begin + q_end - 1 - i, descending;
// * a visit of t waits until counter[b, h, t] equals relay_turn(u, t)
//   (the schedule map, evaluated with the segment's lengths), adds, and
//   stores turn + 1;
// * programs are dispatched with a bounded number resident at once, key
//   tiles ascending within each (batch entry, kv head): the hardware's linear
//   block order, or any interleaving of the (batch entry, kv head) streams.
//
// test/Conversion/convert-sdpa-grad-to-gpu.mlir pins that structure in the
// kernel's IR (the head loop around the q loop, the descending map, the turn
// map ahead of the wait).
//
// Every case of a brute-force sweep must finish (no deadlock) and add the
// partials of every (b, h, t) exactly from the key tiles of kv head h / G
// whose tile pair with t holds a visible cell (BruteForceMask), ascending.
// Negative controls (a naive turn, counters shared by the heads of a group,
// turns from the longest segment's lengths, a walk off by one, dispatch in
// descending key-tile order) must each be caught.
//
//===----------------------------------------------------------------------===//

#include "BruteForceMask.h"
#include "SdpaDialect/Analysis/BoundsPolicy.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::testing;

namespace {

/// One relay problem: a band, tiles, the heads, and each segment's lengths
/// (dense batches are segments of equal lengths).
struct RelayCase {
  Band band;
  TileShape tiles;
  int64_t headsKv = 1, group = 1;
  std::vector<std::pair<int64_t, int64_t>> lengths; // (Sq_b, Skv_b)

  int64_t maxSeqQ() const {
    int64_t m = 0;
    for (auto [sq, skv] : lengths)
      m = std::max(m, sq);
    return m;
  }
  int64_t maxSeqKv() const {
    int64_t m = 0;
    for (auto [sq, skv] : lengths)
      m = std::max(m, skv);
    return m;
  }
};

/// What the simulation may get wrong on purpose (the negative controls).
enum class Fault {
  None,
  NaiveTurn,         // turn = u
  SharedCounters,    // one counter per (b, t), shared by the group's heads
  LongestLengths,    // bounds and turns from the grid's lengths, not b's
  WalkOffByOne,      // t = q_begin + q_end - i: skips q_begin, visits q_end
  DescendingDispatch // key tiles dispatched from the highest down
};

/// A program's identity and its visits, (query head, query tile), in the
/// kernel's order.
struct Program {
  int64_t batch, kvHead, kvTile;
  std::vector<std::pair<int64_t, int64_t>> visits;
  size_t next = 0;
};

/// Counters and add orders are indexed by (batch, query head, query tile),
/// flattened; a query tile one past the longest segment's is kept for the
/// off-by-one control.
struct CellIndex {
  int64_t heads, qTiles;
  CellIndex(const RelayCase &c)
      : heads(c.headsKv * c.group),
        qTiles(tileCount(c.maxSeqQ(), c.tiles.q) + 1) {}
  size_t size(const RelayCase &c) const {
    return c.lengths.size() * heads * qTiles;
  }
  size_t operator()(int64_t b, int64_t h, int64_t t) const {
    return (b * heads + h) * qTiles + t;
  }
};

/// Per (b, h, t): the (kv head, key tile) of each add, in order.
using AddOrder = std::vector<std::vector<std::pair<int64_t, int64_t>>>;

struct RelayOutcome {
  bool deadlocked = false;
  /// Steps of the run: rounds in which every resident program that can
  /// progress takes one visit.
  int64_t steps = 0;
  AddOrder addOrder;
};

/// The programs of the grid in linear block order (x fastest), each with its
/// visits as MainKernel.cpp emits them (`descending` false: the ascending
/// walk, for the speed comparison only).
std::vector<Program> buildPrograms(const RelayCase &c, const ScheduleMaps &maps,
                                   Fault fault, bool descending = true) {
  int64_t gridX = tileCount(c.maxSeqKv(), c.tiles.kv);
  std::vector<Program> programs;
  for (int64_t b = 0; b < int64_t(c.lengths.size()); ++b) {
    auto [seqQ, seqKv] = c.lengths[b];
    if (fault == Fault::LongestLengths)
      std::tie(seqQ, seqKv) = std::make_pair(c.maxSeqQ(), c.maxSeqKv());
    for (int64_t y = 0; y < c.headsKv; ++y) {
      for (int64_t u = 0; u < gridX; ++u) {
        Program p{b, y, u, {}};
        // Packed: a key tile past the segment's keys returns at once.
        if (u * c.tiles.kv >= c.lengths[b].second) {
          programs.push_back(p);
          continue;
        }
        ClampedBounds<int64_t> w = evaluateBackwardBounds(
            maps, c.tiles, BoundsPolicy::BackwardKernel, u, seqQ, seqKv);
        for (int64_t j = 0; j < c.group; ++j) {
          int64_t h = y * c.group + j;
          for (int64_t i = w.begin; i < w.end; ++i) {
            int64_t t = descending ? w.begin + w.end - 1 - i : i;
            if (fault == Fault::WalkOffByOne)
              t = w.begin + w.end - i;
            p.visits.push_back({h, t});
          }
        }
        programs.push_back(p);
      }
    }
  }
  return programs;
}

/// How programs are dispatched and scheduled.
enum class Dispatch {
  Linear,      // block order, x fastest (the hardware's)
  Interleaved, // a random interleaving of the (b, kv head) streams
  LockStep     // everything resident at once, lockstep steps
};

RelayOutcome simulateRelay(const RelayCase &c, const ScheduleMaps &maps,
                           Fault fault, Dispatch dispatch, int64_t resident,
                           std::mt19937_64 &rng, bool descending = true) {
  std::vector<Program> programs = buildPrograms(c, maps, fault, descending);
  // The dispatch order: indices into `programs`.
  std::vector<size_t> order;
  if (dispatch == Dispatch::Interleaved) {
    // Each (b, kv head) stream keeps ascending key tiles; the streams are
    // merged in a random order.
    std::vector<std::vector<size_t>> streams;
    for (size_t i = 0; i < programs.size(); ++i) {
      if (i == 0 || programs[i].kvTile == 0)
        streams.emplace_back();
      streams.back().push_back(i);
    }
    std::vector<size_t> heads(streams.size(), 0);
    size_t left = programs.size();
    while (left--) {
      size_t s;
      do {
        s = std::uniform_int_distribution<size_t>(0, streams.size() - 1)(rng);
      } while (heads[s] == streams[s].size());
      order.push_back(streams[s][heads[s]++]);
    }
  } else {
    for (size_t i = 0; i < programs.size(); ++i)
      order.push_back(i);
  }
  if (fault == Fault::DescendingDispatch) {
    // Within each (b, kv head), the highest key tile first.
    size_t gridX = tileCount(c.maxSeqKv(), c.tiles.kv);
    for (size_t s = 0; gridX && s < order.size(); s += gridX)
      std::reverse(order.begin() + s, order.begin() + s + gridX);
  }
  if (dispatch == Dispatch::LockStep)
    resident = int64_t(programs.size());

  CellIndex cell(c);
  RelayOutcome outcome;
  outcome.addOrder.resize(cell.size(c));
  std::vector<int64_t> counter(cell.size(c), 0), before;
  auto turnOf = [&](const Program &p, int64_t t) {
    if (fault == Fault::NaiveTurn)
      return p.kvTile;
    auto [seqQ, seqKv] = c.lengths[p.batch];
    if (fault == Fault::LongestLengths)
      std::tie(seqQ, seqKv) = std::make_pair(c.maxSeqQ(), c.maxSeqKv());
    return evaluateRelayTurn(maps, p.kvTile, t, seqQ, seqKv);
  };
  std::vector<size_t> running;
  size_t launched = 0, finished = 0;
  while (finished < programs.size()) {
    while (int64_t(running.size()) < resident && launched < order.size())
      running.push_back(order[launched++]);
    // The resident programs that can progress take one visit each, in a
    // random order (lockstep: the order within a step is irrelevant, each
    // sees the counters as the step began); none progressing is a deadlock.
    std::vector<size_t> turnOrder(running);
    std::shuffle(turnOrder.begin(), turnOrder.end(), rng);
    if (dispatch == Dispatch::LockStep)
      before = counter;
    bool progressed = false;
    for (size_t id : turnOrder) {
      Program &p = programs[id];
      if (p.next < p.visits.size()) {
        auto [h, t] = p.visits[p.next];
        size_t key = cell(p.batch, fault == Fault::SharedCounters ? 0 : h, t);
        int64_t value =
            dispatch == Dispatch::LockStep ? before[key] : counter[key];
        if (value != turnOf(p, t))
          continue;
        outcome.addOrder[cell(p.batch, h, t)].push_back({p.kvHead, p.kvTile});
        counter[key] = value + 1;
        ++p.next;
        progressed = true;
      }
      if (p.next == p.visits.size()) {
        running.erase(std::find(running.begin(), running.end(), id));
        ++finished;
        progressed = true;
      }
    }
    ++outcome.steps;
    if (!progressed) {
      outcome.deadlocked = true;
      return outcome;
    }
  }
  return outcome;
}

/// The adds every (b, h, t) must receive, from the brute-force mask alone:
/// the key tiles of kv head h / G with a visible cell in (t, u), ascending.
AddOrder expectedAdds(const RelayCase &c) {
  CellIndex cell(c);
  AddOrder expected(cell.size(c));
  for (int64_t b = 0; b < int64_t(c.lengths.size()); ++b) {
    auto [seqQ, seqKv] = c.lengths[b];
    BruteForceMask mask(c.band, c.tiles, seqQ, seqKv);
    for (int64_t h = 0; h < c.headsKv * c.group; ++h)
      for (int64_t t = 0; t < mask.numQTiles; ++t)
        for (int64_t u = 0; u < mask.numKvTiles; ++u)
          if (mask.anyVisible(t, u))
            expected[cell(b, h, t)].push_back({h / c.group, u});
  }
  return expected;
}

/// Whether `outcome` is the correct relay for `c`.
bool isCorrect(const RelayCase &c, const RelayOutcome &outcome) {
  return !outcome.deadlocked && outcome.addOrder == expectedAdds(c);
}
bool isCorrect(const AddOrder &expected, const RelayOutcome &outcome) {
  return !outcome.deadlocked && outcome.addOrder == expected;
}

RelayCase drawCase(CaseGenerator &gen) {
  RelayCase c;
  c.tiles = {gen.tile(), gen.tile()};
  c.headsKv = gen.uniform(1, 2);
  c.group = gen.uniform(1, 3);
  int64_t segments = gen.uniform(1, 3);
  bool packed = gen.chance(0.5);
  int64_t seqQ = gen.length(), seqKv = gen.length();
  int64_t scale = std::max(seqQ, seqKv);
  for (int64_t s = 0; s < segments; ++s) {
    if (packed && s > 0) {
      seqQ = gen.uniform(0, seqQ + 8);
      seqKv = gen.uniform(0, seqKv + 8);
    }
    c.lengths.push_back({seqQ, seqKv});
  }
  c.band = gen.band(scale);
  return c;
}

TEST(RelaySimulation, ShippedWalkNeverDeadlocksAndAddsInOrder) {
  MLIRContext context;
  CaseGenerator gen(/*seed=*/99);
  std::mt19937_64 rng(5);
  std::map<Fault, int> caught;
  const Fault faults[] = {Fault::NaiveTurn, Fault::SharedCounters,
                          Fault::LongestLengths, Fault::WalkOffByOne,
                          Fault::DescendingDispatch};
  int withVisits = 0;
  for (int i = 0; i < 1000; ++i) {
    RelayCase c = drawCase(gen);
    ScheduleMaps maps = deriveScheduleMaps(c.band, c.tiles, &context);
    int64_t resident = gen.uniform(1, 4);
    AddOrder expected = expectedAdds(c);
    for (Dispatch d :
         {Dispatch::Linear, Dispatch::Interleaved, Dispatch::LockStep}) {
      RelayOutcome outcome =
          simulateRelay(c, maps, Fault::None, d, resident, rng);
      ASSERT_FALSE(outcome.deadlocked) << "case " << i;
      ASSERT_TRUE(outcome.addOrder == expected) << "case " << i;
    }
    withVisits += std::any_of(expected.begin(), expected.end(),
                              [](const auto &adds) { return !adds.empty(); });
    for (Fault f : faults)
      caught[f] += !isCorrect(
          expected, simulateRelay(c, maps, f, Dispatch::Linear, resident, rng));
  }
  // The sweep reaches the relay, and each fault is caught in many cases.
  EXPECT_GT(withVisits, 900);
  for (Fault f : faults)
    EXPECT_GT(caught[f], 120) << "fault " << int(f);
}

/// gpt-oss's window (128 keys, causal) at 64 x 64 tiles.
RelayCase windowCase(int64_t headsKv, int64_t group,
                     std::vector<std::pair<int64_t, int64_t>> lengths) {
  RelayCase c;
  c.band = Band{127, 0, Alignment::TopLeft};
  c.tiles = {64, 64};
  c.headsKv = headsKv;
  c.group = group;
  c.lengths = std::move(lengths);
  return c;
}

/// A window under residency 1 must still finish: the lowest unfinished
/// program never waits (docs/Semantics.md §4.4); reversed dispatch, the
/// first program resident waits for a tile it can never get.
TEST(RelaySimulation, LowestUnfinishedProgramNeverWaits) {
  MLIRContext context;
  RelayCase c =
      windowCase(/*headsKv=*/2, /*group=*/4, {{512, 512}, {512, 512}});
  ScheduleMaps maps = deriveScheduleMaps(c.band, c.tiles, &context);
  std::mt19937_64 rng(1);
  RelayOutcome outcome =
      simulateRelay(c, maps, Fault::None, Dispatch::Linear, 1, rng);
  EXPECT_TRUE(isCorrect(c, outcome));
  EXPECT_TRUE(simulateRelay(c, maps, Fault::DescendingDispatch,
                            Dispatch::Linear, 1, rng)
                  .deadlocked);
}

/// Why the kernel walks down (MainKernel.cpp, docs/Semantics.md §4.3): with
/// every program resident and stepping in lockstep, the descending walk of a
/// window never waits (it finishes in as many steps as the longest program
/// has visits), while the ascending one is a wavefront over the sequence.
TEST(RelaySimulation, DescendingWalkRunsInStepAscendingIsAWavefront) {
  MLIRContext context;
  RelayCase c = windowCase(/*headsKv=*/1, /*group=*/2, {{4096, 4096}});
  ScheduleMaps maps = deriveScheduleMaps(c.band, c.tiles, &context);
  std::mt19937_64 rng(1);
  int64_t longest = 0;
  for (const Program &p : buildPrograms(c, maps, Fault::None))
    longest = std::max<int64_t>(longest, p.visits.size());
  RelayOutcome down =
      simulateRelay(c, maps, Fault::None, Dispatch::LockStep, 0, rng);
  RelayOutcome up = simulateRelay(c, maps, Fault::None, Dispatch::LockStep, 0,
                                  rng, /*descending=*/false);
  ASSERT_TRUE(isCorrect(c, down));
  ASSERT_TRUE(isCorrect(c, up));
  EXPECT_EQ(down.steps, longest);
  // Ascending, program u starts its walk when u - 1 is some visits ahead:
  // the last program starts after a wave over all 64 key tiles.
  EXPECT_GE(up.steps, tileCount(4096, 64));
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
