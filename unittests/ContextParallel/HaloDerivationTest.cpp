//===- HaloDerivationTest.cpp - The halo is the schedule at tile = chunk ---===//
//
// The context-parallel halo (docs/ContextParallel.md) comes from the
// runtime's IR-free keysSeenBy/rowsSeeing. This test shows that it is the
// same derivation as the kernels' tile bounds and that it is exact:
//  * against the analysis's schedule maps (lib/Analysis) evaluated with the
//    query tile equal to the chunk and key tiles of one key (the halo), key
//    tiles equal to the key chunk (the owners), and the transposed pair (the
//    backward's return);
//  * against Band::isVisible, cell by cell, for uneven chunkings: the keys
//    each rank's rows see, the rows each rank's keys are seen by, the halo
//    sizes, and the transposition of the two.
// Random bands cover both alignments, unbounded edges, Sq != Skv and empty
// chunks.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaRuntime/Halo.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

using namespace mlir;
using namespace mlir::sdpa;
namespace rt = ::sdpa::runtime;
using rt::BandEdges;
using rt::IndexRange;

namespace {

struct Case {
  Band band;
  int64_t seqQ = 0, seqKv = 0;

  BandEdges edges() const {
    return {band.left.value_or(-1), band.right.value_or(-1),
            band.align == Alignment::BottomRight};
  }
  std::string str() const {
    std::ostringstream os;
    os << "Sq=" << seqQ << " Skv=" << seqKv
       << " L=" << (band.left ? std::to_string(*band.left) : "inf")
       << " R=" << (band.right ? std::to_string(*band.right) : "inf")
       << (band.align == Alignment::TopLeft ? " top_left" : " bottom_right");
    return os.str();
  }
};

Case randomCase(std::mt19937_64 &rng, int64_t maxLength) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c;
  c.seqQ = pick(0, maxLength);
  // Equal lengths often: the common case of self-attention.
  c.seqKv = pick(0, 2) == 0 ? c.seqQ : pick(0, maxLength);
  if (pick(0, 4) != 0)
    c.band.left = pick(0, 2) == 0 ? pick(0, 3) : pick(0, maxLength);
  if (pick(0, 4) != 0)
    c.band.right = pick(0, 2) == 0 ? pick(0, 3) : pick(0, maxLength);
  c.band.align = pick(0, 1) ? Alignment::BottomRight : Alignment::TopLeft;
  return c;
}

/// Cut points 0 = c0 <= c1 <= ... <= cn = length of n random (uneven, maybe
/// empty) chunks.
std::vector<int64_t> randomChunks(std::mt19937_64 &rng, int64_t length,
                                  int64_t n) {
  std::vector<int64_t> cuts = {0, length};
  std::uniform_int_distribution<int64_t> point(0, length);
  for (int64_t i = 1; i < n; ++i)
    cuts.push_back(point(rng));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

/// Cut points of chunks of `size` (the last one partial).
std::vector<int64_t> uniformChunks(int64_t length, int64_t size) {
  std::vector<int64_t> cuts;
  for (int64_t c = 0; c < length; c += size)
    cuts.push_back(c);
  cuts.push_back(length);
  return cuts;
}

/// The range of the first and last index satisfying `pred` over [0, n), and
/// whether every index in between does (the set is one interval).
template <typename Pred>
IndexRange bruteInterval(int64_t n, Pred pred, bool &contiguous) {
  int64_t first = -1, last = -1, count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!pred(i))
      continue;
    if (first < 0)
      first = i;
    last = i;
    ++count;
  }
  contiguous = count == 0 || count == last - first + 1;
  return count == 0 ? IndexRange{} : IndexRange{first, last + 1};
}

/// The keys some row of `rows` sees, by the mask alone.
IndexRange bruteKeys(const Case &c, IndexRange rows, bool &contiguous) {
  return bruteInterval(
      c.seqKv,
      [&](int64_t k) {
        for (int64_t q = rows.begin; q < rows.end; ++q)
          if (c.band.isVisible(q, k, c.seqQ, c.seqKv))
            return true;
        return false;
      },
      contiguous);
}

/// The rows that see some key of `keys`, by the mask alone.
IndexRange bruteRows(const Case &c, IndexRange keys, bool &contiguous) {
  return bruteInterval(
      c.seqQ,
      [&](int64_t q) {
        for (int64_t k = keys.begin; k < keys.end; ++k)
          if (c.band.isVisible(q, k, c.seqQ, c.seqKv))
            return true;
        return false;
      },
      contiguous);
}

bool intersects(IndexRange a, IndexRange b) {
  return !a.empty() && !b.empty() && a.begin < b.end && b.begin < a.end;
}

std::string str(IndexRange r) {
  return "[" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")";
}

/// Tile range `r` of a schedule table as an IndexRange ([0, 0) when empty,
/// as the halo functions give it).
IndexRange fromTiles(TileRange r) {
  return r.empty() ? IndexRange{} : IndexRange{r.begin, r.end};
}

TEST(HaloDerivation, MatchesScheduleAtChunkTiles) {
  std::mt19937_64 rng(17);
  MLIRContext context;
  for (int iter = 0; iter < 400; ++iter) {
    Case c = randomCase(rng, 96);
    if (c.seqQ == 0 || c.seqKv == 0)
      continue;
    std::uniform_int_distribution<int64_t> sizeQ(1, c.seqQ), sizeKv(1, c.seqKv);
    int64_t chunkQ = sizeQ(rng), chunkKv = sizeKv(rng);
    std::vector<int64_t> qCuts = uniformChunks(c.seqQ, chunkQ);
    std::vector<int64_t> kvCuts = uniformChunks(c.seqKv, chunkKv);
    std::string where = c.str() + " Cq=" + std::to_string(chunkQ) +
                        " Ckv=" + std::to_string(chunkKv);

    // The halo: query tile = chunk, key tile = one key.
    ScheduleTable halo = evaluateSchedule(
        deriveScheduleMaps(c.band, {chunkQ, 1}, &context), {chunkQ, 1},
        c.seqQ, c.seqKv);
    // The owners: query tile = query chunk, key tile = key chunk.
    ScheduleTable owners = evaluateSchedule(
        deriveScheduleMaps(c.band, {chunkQ, chunkKv}, &context),
        {chunkQ, chunkKv}, c.seqQ, c.seqKv);
    // The return: key tile = key chunk, query tile = one row.
    ScheduleTable back = evaluateSchedule(
        deriveScheduleMaps(c.band, {1, chunkKv}, &context), {1, chunkKv},
        c.seqQ, c.seqKv);
    ASSERT_EQ(halo.forward.size() + 1, qCuts.size()) << where;
    ASSERT_EQ(back.backward.size() + 1, kvCuts.size()) << where;

    for (size_t r = 0; r + 1 < qCuts.size(); ++r) {
      IndexRange keys = rt::keysSeenBy(c.edges(), c.seqQ, c.seqKv,
                                                  {qCuts[r], qCuts[r + 1]});
      ASSERT_EQ(keys, fromTiles(halo.forward[r].kv))
          << where << " rank " << r << ": halo " << str(keys);
      IndexRange wantOwners =
          keys.empty() ? IndexRange{}
                       : IndexRange{keys.begin / chunkKv,
                                    (keys.end - 1) / chunkKv + 1};
      ASSERT_EQ(wantOwners, fromTiles(owners.forward[r].kv))
          << where << " rank " << r << ": owners " << str(wantOwners);
    }
    for (size_t j = 0; j + 1 < kvCuts.size(); ++j) {
      IndexRange rows = rt::rowsSeeing(c.edges(), c.seqQ, c.seqKv,
                                                  {kvCuts[j], kvCuts[j + 1]});
      ASSERT_EQ(rows, fromTiles(back.backward[j].q))
          << where << " key chunk " << j << ": rows " << str(rows);
    }
  }
}

TEST(HaloDerivation, ExactAgainstTheMaskOnUnevenChunks) {
  std::mt19937_64 rng(1717);
  for (int iter = 0; iter < 4000; ++iter) {
    Case c = randomCase(rng, 64);
    int64_t ranks = std::uniform_int_distribution<int64_t>(1, 6)(rng);
    std::vector<int64_t> qCuts = randomChunks(rng, c.seqQ, ranks);
    std::vector<int64_t> kvCuts = randomChunks(rng, c.seqKv, ranks);
    std::string where = c.str() + " ranks=" + std::to_string(ranks);
    auto visible = [&](int64_t q, int64_t k) {
      return c.band.isVisible(q, k, c.seqQ, c.seqKv);
    };

    for (int64_t r = 0; r < ranks; ++r) {
      IndexRange rows{qCuts[r], qCuts[r + 1]};
      IndexRange own{kvCuts[r], kvCuts[r + 1]};
      bool contiguous = false;
      IndexRange want = bruteKeys(c, rows, contiguous);
      ASSERT_TRUE(contiguous) << where << " rank " << r;
      IndexRange keys =
          rt::keysSeenBy(c.edges(), c.seqQ, c.seqKv, rows);
      ASSERT_EQ(keys, want) << where << " rank " << r << ": derived "
                            << str(keys) << ", the mask " << str(want);

      // The halo: keys seen but owned elsewhere, counted key by key.
      int64_t haloKeys = 0;
      for (int64_t k = want.begin; k < want.end; ++k)
        haloKeys += k < own.begin || k >= own.end;
      int64_t derivedHalo = keys.end - keys.begin;
      if (intersects(keys, own))
        derivedHalo -= std::min(keys.end, own.end) -
                       std::max(keys.begin, own.begin);
      ASSERT_EQ(derivedHalo, haloKeys) << where << " rank " << r;

      // The inverse, from the key side.
      IndexRange seenBy = bruteRows(c, own, contiguous);
      ASSERT_TRUE(contiguous) << where << " key chunk " << r;
      IndexRange derivedRows =
          rt::rowsSeeing(c.edges(), c.seqQ, c.seqKv, own);
      ASSERT_EQ(derivedRows, seenBy)
          << where << " key chunk " << r << ": derived " << str(derivedRows)
          << ", the mask " << str(seenBy);
    }

    // Transposition: rank r needs keys of rank j exactly when j's keys are
    // seen by r's rows, exactly when the block holds a visible cell.
    for (int64_t r = 0; r < ranks; ++r) {
      IndexRange rows{qCuts[r], qCuts[r + 1]};
      IndexRange keys =
          rt::keysSeenBy(c.edges(), c.seqQ, c.seqKv, rows);
      for (int64_t j = 0; j < ranks; ++j) {
        IndexRange owned{kvCuts[j], kvCuts[j + 1]};
        bool any = false;
        for (int64_t q = rows.begin; q < rows.end && !any; ++q)
          for (int64_t k = owned.begin; k < owned.end && !any; ++k)
            any = visible(q, k);
        ASSERT_EQ(intersects(keys, owned), any) << where << " " << r << "<-" << j;
        ASSERT_EQ(intersects(rt::rowsSeeing(c.edges(), c.seqQ,
                                                       c.seqKv, owned),
                             rows),
                  any)
            << where << " " << j << "->" << r;
      }
    }
  }
}

/// Negative controls: plausible slips in the derivation (the alignment
/// ignored, the band's edges swapped, the halo taken as one whole chunk
/// before) are caught by the comparison with the mask on these cases.
TEST(HaloDerivation, NegativeControlsAreCaught) {
  using Derive = IndexRange (*)(const Case &, IndexRange);
  Derive slips[] = {
      [](const Case &c, IndexRange rows) {
        BandEdges e = c.edges();
        e.bottomRight = false;
        return rt::keysSeenBy(e, c.seqQ, c.seqKv, rows);
      },
      [](const Case &c, IndexRange rows) {
        BandEdges e = c.edges();
        std::swap(e.left, e.right);
        return rt::keysSeenBy(e, c.seqQ, c.seqKv, rows);
      },
      [](const Case &c, IndexRange rows) {
        IndexRange keys =
            rt::keysSeenBy(c.edges(), c.seqQ, c.seqKv, rows);
        int64_t size = rows.end - rows.begin;
        if (!keys.empty())
          keys.begin = std::max<int64_t>(0, rows.begin - size);
        return keys;
      },
  };
  for (Derive slip : slips) {
    std::mt19937_64 rng(99);
    int mismatches = 0;
    for (int iter = 0; iter < 500; ++iter) {
      Case c = randomCase(rng, 48);
      std::vector<int64_t> cuts = randomChunks(rng, c.seqQ, 3);
      for (int r = 0; r < 3; ++r) {
        IndexRange rows{cuts[r], cuts[r + 1]};
        bool contiguous = false;
        IndexRange want = bruteKeys(c, rows, contiguous);
        mismatches += !(slip(c, rows) == want);
      }
    }
    EXPECT_GT(mismatches, 0);
  }
}

} // namespace
