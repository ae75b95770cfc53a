//===- BoundsFuzzer.cpp - Fuzz the band and tile-bound math ---------------===//
//
// Drives canonicalizeBand and the derived schedule maps (lib/Analysis) with
// arbitrary sizes up to the 32-bit limits: Sq, Skv, L, R in [0, 2^31 - 1]
// (or unbounded) and tiles in [1, 1024]. UBSan catches signed overflow in the
// evaluation; the checks below catch wrong answers without enumerating the
// grid (which has up to 2^62 cells):
//
//  * every range lies inside the tile grid, and the forward, backward and
//    (both) interior ranges of sampled tiles equal the closed forms of
//    docs/Semantics.md §3, computed here independently in plain integers;
//  * forward and backward are transposes on sampled pairs, chosen around the
//    edges of the ranges: u in fwd(t) iff t in bwd(u);
//  * the relay: kv_first(t) is the first visitor and the turns of sampled
//    visitors are u - kv_first(t), inside [0, visitors);
//  * the symbolic maps and the maps specialized to the lengths agree;
//  * the canonical band is idempotent and masks the same cells (sampled at
//    the band edges) and yields the same schedule;
//  * when Sq, Skv <= 64, the whole schedule equals a cell-by-cell evaluation
//    of Band::isVisible;
//  * the IR every clamp policy emits (SdpaDialect/Utils/ScheduleBounds.h),
//    folded at the sampled tiles, equals the rules over integers
//    (BoundsPolicy.h) and, run as its consumer runs it (visits [begin, end),
//    edges and interior partitioning them), the checked ranges above.
//
// A failed check prints the case and aborts, which libFuzzer reports.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Analysis/BoundsPolicy.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"
#include "mlir/IR/MLIRContext.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// The largest length and band width the project supports (32-bit indices).
constexpr int64_t kMaxSize = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxTile = 1024;
/// Sizes up to which the whole schedule is checked cell by cell.
constexpr int64_t kBruteForceSize = 64;

/// One fuzz case.
struct Case {
  int64_t seqQ, seqKv;
  Band band;
  TileShape tiles;

  std::string describe() const {
    auto edge = [](std::optional<int64_t> e) {
      return e ? std::to_string(*e) : std::string("inf");
    };
    return "Sq=" + std::to_string(seqQ) + " Skv=" + std::to_string(seqKv) +
           " L=" + edge(band.left) + " R=" + edge(band.right) +
           (band.align == Alignment::TopLeft ? " top_left" : " bottom_right") +
           " Tq=" + std::to_string(tiles.q) + " Tk=" + std::to_string(tiles.kv);
  }
};

const Case *currentCase = nullptr;

/// Reports a violated invariant and aborts.
[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "invariant violated: %s\n  case: %s\n", what.c_str(),
               currentCase ? currentCase->describe().c_str() : "?");
  std::fflush(stderr);
  std::abort();
}

void check(bool condition, const std::string &what) {
  if (!condition)
    fail(what);
}

std::string rangeStr(TileRange r) {
  return "[" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")";
}

/// Draws a size in [0, kMaxSize], biased towards the interesting places:
/// small, near the 32-bit limit, near powers of two, anywhere.
int64_t drawSize(FuzzedDataProvider &fdp) {
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
  case 0:
    return fdp.ConsumeIntegralInRange<int64_t>(0, kBruteForceSize);
  case 1:
    return kMaxSize - fdp.ConsumeIntegralInRange<int64_t>(0, 4096);
  case 2: {
    int64_t power = int64_t(1) << fdp.ConsumeIntegralInRange<int>(0, 30);
    return std::clamp<int64_t>(
        power + fdp.ConsumeIntegralInRange<int64_t>(-64, 64), 0, kMaxSize);
  }
  default:
    return fdp.ConsumeIntegralInRange<int64_t>(0, kMaxSize);
  }
}

/// Draws a band edge: unbounded, or a width like a size.
std::optional<int64_t> drawEdge(FuzzedDataProvider &fdp) {
  if (fdp.ConsumeIntegralInRange<int>(0, 4) == 0)
    return std::nullopt;
  return drawSize(fdp);
}

int64_t drawTile(FuzzedDataProvider &fdp) {
  if (fdp.ConsumeBool())
    return int64_t(1) << fdp.ConsumeIntegralInRange<int>(0, 10);
  return fdp.ConsumeIntegralInRange<int64_t>(1, kMaxTile);
}

/// docs/Semantics.md §3, written directly: the key tiles visited by query
/// tile t.
TileRange referenceForward(const Case &c, int64_t t) {
  int64_t delta = c.band.diagonalOffset(c.seqQ, c.seqKv);
  int64_t q0 = t * c.tiles.q, q1 = std::min(c.seqQ, q0 + c.tiles.q);
  int64_t klo = c.band.left ? std::max<int64_t>(0, q0 + delta - *c.band.left)
                            : 0;
  int64_t khi = c.band.right
                    ? std::min(c.seqKv - 1, q1 - 1 + delta + *c.band.right)
                    : c.seqKv - 1;
  if (klo > khi)
    return {};
  return {klo / c.tiles.kv, khi / c.tiles.kv + 1};
}

/// The query tiles visited by key tile u.
TileRange referenceBackward(const Case &c, int64_t u) {
  int64_t delta = c.band.diagonalOffset(c.seqQ, c.seqKv);
  int64_t k0 = u * c.tiles.kv, k1 = std::min(c.seqKv, k0 + c.tiles.kv);
  int64_t qlo = c.band.right
                    ? std::max<int64_t>(0, k0 - delta - *c.band.right)
                    : 0;
  int64_t qhi = c.band.left
                    ? std::min(c.seqQ - 1, k1 - 1 - delta + *c.band.left)
                    : c.seqQ - 1;
  if (qlo > qhi)
    return {};
  return {qlo / c.tiles.q, qhi / c.tiles.q + 1};
}

/// Whether pair (t, u) needs no cell mask: the key tile is full and every
/// nominal row q0 .. q0 + Tq - 1 sees every one of its keys.
bool referenceInterior(const Case &c, int64_t t, int64_t u) {
  int64_t delta = c.band.diagonalOffset(c.seqQ, c.seqKv);
  int64_t q0 = t * c.tiles.q, k0 = u * c.tiles.kv;
  if (k0 + c.tiles.kv > c.seqKv)
    return false;
  if (c.band.left && k0 < q0 + c.tiles.q - 1 + delta - *c.band.left)
    return false;
  if (c.band.right && k0 + c.tiles.kv - 1 > q0 + delta + *c.band.right)
    return false;
  return true;
}

bool sameRange(TileRange a, TileRange b) {
  return (a.empty() && b.empty()) || a == b;
}

/// Evaluates one case's maps at a tile index with the host functions' clamps
/// (BoundsPolicy.h), each range then clamped into the tile grid.
struct Evaluator {
  const Case &c;
  const ScheduleMaps &maps;
  int64_t numQTiles = tileCount(c.seqQ, c.tiles.q);
  int64_t numKvTiles = tileCount(c.seqKv, c.tiles.kv);
  static constexpr BoundsPolicy kPolicy = BoundsPolicy::HostFunctions;

  TileRange forward(int64_t t) const {
    ClampedBounds<int64_t> f =
        evaluateForwardBounds(maps, kPolicy, t, c.seqQ, c.seqKv);
    return clampRange(f.begin, f.end, 0, numKvTiles);
  }
  TileRange interior(int64_t t) const {
    ClampedBounds<int64_t> f =
        evaluateForwardBounds(maps, kPolicy, t, c.seqQ, c.seqKv);
    TileRange kv = forward(t);
    return clampRange(f.interiorBegin, f.interiorEnd, kv.begin, kv.end);
  }
  TileRange backward(int64_t u) const {
    ClampedBounds<int64_t> b =
        evaluateBackwardBounds(maps, c.tiles, kPolicy, u, c.seqQ, c.seqKv);
    return clampRange(b.begin, b.end, 0, numQTiles);
  }
  TileRange backwardInterior(int64_t u) const {
    ClampedBounds<int64_t> b =
        evaluateBackwardBounds(maps, c.tiles, kPolicy, u, c.seqQ, c.seqKv);
    TileRange q = backward(u);
    return clampRange(b.interiorBegin, b.interiorEnd, q.begin, q.end);
  }
  int64_t kvFirst(int64_t t) const {
    int64_t s[] = {c.seqQ, c.seqKv};
    return evaluateMaxMap(maps.kvFirst, t, s);
  }
  int64_t turn(int64_t u, int64_t t) const {
    return evaluateRelayTurn(maps, u, t, c.seqQ, c.seqKv);
  }
};

/// The tiles a loop over [lo, hi) visits.
TileRange loopRange(int64_t lo, int64_t hi) {
  return hi > lo ? TileRange{lo, hi} : TileRange{};
}

bool disjoint(TileRange a, TileRange b) {
  return a.empty() || b.empty() || a.end <= b.begin || b.end <= a.begin;
}

bool within(TileRange inner, TileRange outer) {
  return inner.empty() || (outer.begin <= inner.begin && inner.end <= outer.end);
}

/// Checks the IR of every clamp policy at tile `x` (a query tile when
/// `forward`, else a key tile), folded, against the rules over integers and,
/// run as its consumer runs it, against `visits` and `interior`.
void checkEmittedPolicies(const Case &c, ScheduleAttr schedule, bool forward,
                          int64_t x, TileRange visits, TileRange interior) {
  std::string at = (forward ? " at q_tile=" : " at kv_tile=") +
                   std::to_string(x);
  for (BoundsPolicy policy :
       {BoundsPolicy::ForwardKernel, BoundsPolicy::BackwardKernel,
        BoundsPolicy::HostFunctions}) {
    std::string of = " of policy " + std::to_string(int(policy)) + at;
    FailureOr<ClampedBounds<int64_t>> folded =
        foldEmittedBounds(schedule, policy, forward, x, c.seqQ, c.seqKv);
    check(succeeded(folded), "emitted bounds do not fold" + of);
    ClampedBounds<int64_t> r = *folded;
    ScheduleMaps maps = schedule.getMaps();
    ClampedBounds<int64_t> rules =
        forward ? evaluateForwardBounds(maps, policy, x, c.seqQ, c.seqKv)
                : evaluateBackwardBounds(maps, c.tiles, policy, x, c.seqQ,
                                         c.seqKv);
    check(r.begin == rules.begin && r.end == rules.end &&
              r.interiorBegin == rules.interiorBegin &&
              r.interiorEnd == rules.interiorEnd,
          "folded IR differs from the rules over integers" + of);
    TileRange loop = loopRange(r.begin, r.end);
    TileRange lowEdge = loopRange(r.begin, r.interiorBegin);
    TileRange inner = loopRange(r.interiorBegin, r.interiorEnd);
    TileRange highEdge = loopRange(r.interiorEnd, r.end);
    check(sameRange(loop, visits) && sameRange(inner, interior),
          "emitted range " + rangeStr(loop) + " / interior " +
              rangeStr(inner) + " != " + rangeStr(visits) + " / " +
              rangeStr(interior) + of);
    check(within(lowEdge, loop) && within(inner, loop) &&
              within(highEdge, loop) && disjoint(lowEdge, inner) &&
              disjoint(inner, highEdge) && disjoint(lowEdge, highEdge) &&
              lowEdge.size() + inner.size() + highEdge.size() == loop.size(),
          "edges and interior do not partition the visits" + of);
  }
}

/// Adds `i` to `out` if it is a valid index below `n`.
void addIndex(std::vector<int64_t> &out, int64_t i, int64_t n) {
  if (i >= 0 && i < n)
    out.push_back(i);
}

/// Tile indices worth checking: both ends of the grid, the neighbourhood of
/// the diagonal's crossing and a few drawn ones.
std::vector<int64_t> sampleTiles(FuzzedDataProvider &fdp, int64_t n,
                                 int64_t diagonal) {
  std::vector<int64_t> out;
  for (int64_t i : {int64_t(0), int64_t(1), n - 2, n - 1, diagonal - 1,
                    diagonal, diagonal + 1})
    addIndex(out, i, n);
  for (int i = 0; i < 4 && n > 0; ++i)
    out.push_back(fdp.ConsumeIntegralInRange<int64_t>(0, n - 1));
  return out;
}

/// Checks one query tile t of the forward and relay, and the transposition
/// at the edges of its range.
void checkQueryTile(const Case &c, const Evaluator &eval, int64_t t) {
  std::string at = " at q_tile=" + std::to_string(t);
  TileRange kv = eval.forward(t);
  check(0 <= kv.begin && kv.begin <= kv.end && kv.end <= eval.numKvTiles,
        "forward range " + rangeStr(kv) + " outside the grid" + at);
  TileRange expected = referenceForward(c, t);
  check(sameRange(kv, expected), "forward range " + rangeStr(kv) +
                                     " != reference " + rangeStr(expected) +
                                     at);

  TileRange interior = eval.interior(t);
  check(kv.begin <= interior.begin && interior.begin <= interior.end &&
            interior.end <= kv.end,
        "interior " + rangeStr(interior) + " outside " + rangeStr(kv) + at);
  // The interior is contiguous; check its edges and their neighbours.
  for (int64_t u : {interior.begin - 1, interior.begin, interior.end - 1,
                    interior.end, kv.begin, kv.end - 1}) {
    if (u < kv.begin || u >= kv.end)
      continue;
    check(interior.contains(u) == referenceInterior(c, t, u),
          "interior " + rangeStr(interior) + " wrong at kv_tile=" +
              std::to_string(u) + at);
  }

  // Transposition around the edges of the forward range.
  for (int64_t u : {kv.begin - 1, kv.begin, kv.begin + 1, kv.end - 2,
                    kv.end - 1, kv.end}) {
    if (u < 0 || u >= eval.numKvTiles)
      continue;
    check(kv.contains(u) == eval.backward(u).contains(t),
          "forward and backward disagree on pair (" + std::to_string(t) +
              "," + std::to_string(u) + ")");
  }

  // Relay: the first visitor has turn 0, the last turn visitors - 1.
  if (kv.empty())
    return;
  int64_t first = eval.kvFirst(t);
  check(first == kv.begin, "kv_first " + std::to_string(first) +
                               " != first visitor of " + rangeStr(kv) + at);
  for (int64_t u : {kv.begin, kv.begin + 1, (kv.begin + kv.end) / 2,
                    kv.end - 1}) {
    if (u >= kv.end)
      continue;
    int64_t turn = eval.turn(u, t);
    check(turn == u - first && 0 <= turn && turn < kv.size(),
          "relay turn " + std::to_string(turn) + " of kv_tile=" +
              std::to_string(u) + " with " + std::to_string(kv.size()) +
              " visitors" + at);
  }
}

/// Checks one key tile u of the backward, and the transposition at the edges
/// of its range.
void checkKeyTile(const Case &c, const Evaluator &eval, int64_t u) {
  std::string at = " at kv_tile=" + std::to_string(u);
  TileRange q = eval.backward(u);
  check(0 <= q.begin && q.begin <= q.end && q.end <= eval.numQTiles,
        "backward range " + rangeStr(q) + " outside the grid" + at);
  TileRange expected = referenceBackward(c, u);
  check(sameRange(q, expected), "backward range " + rangeStr(q) +
                                    " != reference " + rangeStr(expected) +
                                    at);
  TileRange interior = eval.backwardInterior(u);
  check(q.begin <= interior.begin && interior.begin <= interior.end &&
            interior.end <= q.end,
        "backward interior " + rangeStr(interior) + " outside " +
            rangeStr(q) + at);
  // The backward interior is the forward interior transposed; check its
  // edges and their neighbours against the reference.
  for (int64_t t : {interior.begin - 1, interior.begin, interior.end - 1,
                    interior.end, q.begin, q.end - 1}) {
    if (t < q.begin || t >= q.end)
      continue;
    check(interior.contains(t) == referenceInterior(c, t, u) &&
              interior.contains(t) == eval.interior(t).contains(u),
          "backward interior " + rangeStr(interior) + " wrong at q_tile=" +
              std::to_string(t) + at);
  }
  for (int64_t t :
       {q.begin - 1, q.begin, q.begin + 1, q.end - 2, q.end - 1, q.end}) {
    if (t < 0 || t >= eval.numQTiles)
      continue;
    check(q.contains(t) == eval.forward(t).contains(u),
          "backward and forward disagree on pair (" + std::to_string(t) +
              "," + std::to_string(u) + ")");
    // A visitor's turn is in [0, visitors) of the query tile it visits.
    if (q.contains(t)) {
      int64_t turn = eval.turn(u, t);
      check(0 <= turn && turn < eval.forward(t).size(),
            "relay turn " + std::to_string(turn) + " out of range" + at);
    }
  }
}

/// The whole schedule against Band::isVisible, cell by cell (small sizes).
void checkBruteForce(const Case &c, const ScheduleMaps &maps) {
  ScheduleTable table = evaluateSchedule(maps, c.tiles, c.seqQ, c.seqKv);
  int64_t numQTiles = tileCount(c.seqQ, c.tiles.q);
  int64_t numKvTiles = tileCount(c.seqKv, c.tiles.kv);
  check(int64_t(table.forward.size()) == numQTiles &&
            int64_t(table.backward.size()) == numKvTiles,
        "schedule table has the wrong number of tiles");
  std::vector<char> visible(numQTiles * numKvTiles, 0);
  for (int64_t q = 0; q < c.seqQ; ++q)
    for (int64_t k = 0; k < c.seqKv; ++k)
      if (c.band.isVisible(q, k, c.seqQ, c.seqKv))
        visible[(q / c.tiles.q) * numKvTiles + k / c.tiles.kv] = 1;
  for (int64_t t = 0; t < numQTiles; ++t) {
    for (int64_t u = 0; u < numKvTiles; ++u) {
      bool v = visible[t * numKvTiles + u];
      check(table.forward[t].kv.contains(u) == v,
            "brute force: forward wrong at pair (" + std::to_string(t) + "," +
                std::to_string(u) + ")");
      check(table.backward[u].q.contains(t) == v,
            "brute force: backward wrong at pair (" + std::to_string(t) +
                "," + std::to_string(u) + ")");
      bool interior = referenceInterior(c, t, u);
      check(table.forward[t].interior.contains(u) == interior &&
                table.backward[u].interior.contains(t) == interior,
            "brute force: interior wrong at pair (" + std::to_string(t) +
                "," + std::to_string(u) + ")");
    }
    check(table.relay[t].visitors == table.forward[t].kv.size(),
          "brute force: visitors != forward range size");
  }
}

/// Cells where a band edge can make a difference, for comparing two bands.
void checkSameMask(const Case &c, const Band &other, int64_t q) {
  int64_t anchor = q + c.band.diagonalOffset(c.seqQ, c.seqKv);
  std::vector<int64_t> keys = {0, 1, c.seqKv - 1, c.seqKv, anchor};
  for (std::optional<int64_t> edge : {c.band.left, other.left})
    if (edge)
      for (int64_t d : {-1, 0, 1})
        keys.push_back(anchor - *edge + d);
  for (std::optional<int64_t> edge : {c.band.right, other.right})
    if (edge)
      for (int64_t d : {-1, 0, 1})
        keys.push_back(anchor + *edge + d);
  for (int64_t k : keys)
    check(c.band.isVisible(q, k, c.seqQ, c.seqKv) ==
              other.isVisible(q, k, c.seqQ, c.seqKv),
          "canonical band masks a different cell (" + std::to_string(q) +
              "," + std::to_string(k) + ")");
}

/// The context uniques every affine constant it sees; a fresh one every few
/// hundred runs keeps memory flat.
MLIRContext &context() {
  static std::unique_ptr<MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 512 == 0) {
    ctx = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
    ctx->loadDialect<SdpaDialect>();
  }
  return *ctx;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider fdp(data, size);
  Case c;
  c.seqQ = drawSize(fdp);
  c.seqKv = drawSize(fdp);
  c.band.left = drawEdge(fdp);
  c.band.right = drawEdge(fdp);
  c.band.align = fdp.ConsumeBool() ? Alignment::BottomRight : Alignment::TopLeft;
  c.tiles = {drawTile(fdp), drawTile(fdp)};
  currentCase = &c;

  MLIRContext &ctx = context();
  ScheduleMaps symbolic = deriveScheduleMaps(c.band, c.tiles, &ctx);
  auto schedule = ScheduleAttr::get(&ctx, c.tiles, symbolic);
  ScheduleMaps fixed = specializeScheduleMaps(symbolic, c.seqQ, c.seqKv);
  Evaluator eval{c, symbolic}, evalFixed{c, fixed};

  // Where the diagonal crosses the grid: the tiles of rows near Skv - Sq.
  int64_t delta = c.band.diagonalOffset(c.seqQ, c.seqKv);
  std::vector<int64_t> qTiles =
      sampleTiles(fdp, eval.numQTiles, std::max<int64_t>(0, -delta) / c.tiles.q);
  std::vector<int64_t> kvTiles = sampleTiles(
      fdp, eval.numKvTiles, std::max<int64_t>(0, delta) / c.tiles.kv);

  for (int64_t t : qTiles) {
    checkQueryTile(c, eval, t);
    checkEmittedPolicies(c, schedule, /*forward=*/true, t, eval.forward(t),
                         eval.interior(t));
    check(eval.forward(t) == evalFixed.forward(t) &&
              eval.interior(t) == evalFixed.interior(t),
          "specialized maps disagree at q_tile=" + std::to_string(t));
  }
  for (int64_t u : kvTiles) {
    checkKeyTile(c, eval, u);
    checkEmittedPolicies(c, schedule, /*forward=*/false, u, eval.backward(u),
                         eval.backwardInterior(u));
    check(eval.backward(u) == evalFixed.backward(u) &&
              eval.backwardInterior(u) == evalFixed.backwardInterior(u),
          "specialized maps disagree at kv_tile=" + std::to_string(u));
  }

  // The canonical band: a fixed point that masks the same cells and so gets
  // the same (exact) schedule.
  Band canonical = canonicalizeBand(c.band, c.seqQ, c.seqKv);
  check(canonicalizeBand(canonical, c.seqQ, c.seqKv) == canonical,
        "canonicalizeBand is not idempotent");
  for (std::optional<int64_t> edge : {canonical.left, canonical.right})
    check(!edge || (*edge >= 0 && *edge <= kMaxSize),
          "canonical band width outside [0, 2^31 - 1]");
  for (int64_t q : {int64_t(0), c.seqQ - 1, c.seqQ / 2,
                    fdp.ConsumeIntegralInRange<int64_t>(0, kMaxSize)})
    checkSameMask(c, canonical, q);
  Case canonicalCase = c;
  canonicalCase.band = canonical;
  ScheduleMaps canonicalMaps =
      deriveScheduleMaps(canonical, c.tiles, &ctx);
  Evaluator evalCanonical{canonicalCase, canonicalMaps};
  for (int64_t t : qTiles) {
    // Interiors are judged on nominal rows; past Sq (a partial last tile) a
    // dropped edge may bite on rows that do not exist, so compare full tiles.
    bool fullTile = (t + 1) * c.tiles.q <= c.seqQ;
    check(sameRange(eval.forward(t), evalCanonical.forward(t)) &&
              (!fullTile ||
               sameRange(eval.interior(t), evalCanonical.interior(t))),
          "canonical band has another schedule at q_tile=" +
              std::to_string(t));
  }
  // The backward interiors compared on full query tiles, for the same reason.
  int64_t fullQTiles = c.seqQ / c.tiles.q;
  auto onFullTiles = [&](TileRange r) {
    return clampRange(r.begin, std::min(r.end, fullQTiles), 0, fullQTiles);
  };
  for (int64_t u : kvTiles)
    check(sameRange(eval.backward(u), evalCanonical.backward(u)) &&
              sameRange(onFullTiles(eval.backwardInterior(u)),
                        onFullTiles(evalCanonical.backwardInterior(u))),
          "canonical band has another schedule at kv_tile=" +
              std::to_string(u));

  if (c.seqQ <= kBruteForceSize && c.seqKv <= kBruteForceSize) {
    checkBruteForce(c, symbolic);
    checkBruteForce(c, fixed);
  }
  currentCase = nullptr;
  return 0;
}
