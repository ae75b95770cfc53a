//===- BruteForceMask.h - The band mask evaluated cell by cell --*- C++ -*-===//
//
// The reference the derived bounds are checked against: a visibility bitmap
// of one sequence, built from Band::isVisible alone, with per-tile-pair
// counts of visible cells. Nothing here uses the bound formulas.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_UNITTESTS_BRUTEFORCEMASK_H
#define SDPA_UNITTESTS_BRUTEFORCEMASK_H

#include "SdpaDialect/Analysis/TileBounds.h"

#include <random>
#include <vector>

namespace mlir::sdpa::testing {

/// Visible-cell counts per tile pair of one sequence.
class BruteForceMask {
public:
  BruteForceMask(const Band &band, TileShape tiles, int64_t seqQ,
                 int64_t seqKv)
      : band(band), tiles(tiles), seqQ(seqQ), seqKv(seqKv),
        numQTiles(tileCount(seqQ, tiles.q)),
        numKvTiles(tileCount(seqKv, tiles.kv)),
        counts(numQTiles * numKvTiles, 0),
        nominalFull(numQTiles * numKvTiles, true) {
    int64_t delta = band.diagonalOffset(seqQ, seqKv);
    for (int64_t t = 0; t < numQTiles; ++t) {
      // Nominal rows: the whole tile, also rows past Sq of a partial tile.
      for (int64_t q = t * tiles.q; q < (t + 1) * tiles.q; ++q) {
        for (int64_t k = 0; k < numKvTiles * tiles.kv; ++k) {
          int64_t pair = t * numKvTiles + k / tiles.kv;
          if (band.isVisible(q, k, seqQ, seqKv))
            ++counts[pair];
          // Visible as a cell of the band, ignoring only the q < Sq bound.
          bool nominal = k < seqKv &&
                         (!band.left || k >= q + delta - *band.left) &&
                         (!band.right || k <= q + delta + *band.right);
          if (!nominal)
            nominalFull[pair] = false;
        }
      }
    }
  }

  /// Whether tile pair (t, u) holds a visible cell.
  bool anyVisible(int64_t t, int64_t u) const {
    return counts[t * numKvTiles + u] > 0;
  }
  /// Whether (t, u) needs no cell mask: every nominal row of tile t sees
  /// every key of a full key tile u.
  bool interior(int64_t t, int64_t u) const {
    return nominalFull[t * numKvTiles + u];
  }

  const Band band;
  const TileShape tiles;
  const int64_t seqQ, seqKv, numQTiles, numKvTiles;

private:
  std::vector<int64_t> counts;
  std::vector<bool> nominalFull;
};

/// Draws bands, lengths and tiles that stress the edges: lengths that the
/// tiles don't divide, windows around the lengths, both alignments.
struct CaseGenerator {
  std::mt19937_64 rng;
  explicit CaseGenerator(uint64_t seed) : rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }

  int64_t length() { return chance(0.1) ? uniform(0, 260) : uniform(0, 72); }
  int64_t tile() {
    static const int64_t common[] = {1, 2, 3, 4, 7, 8, 16, 17, 32, 64};
    return chance(0.7) ? common[uniform(0, 9)] : uniform(1, 80);
  }
  std::optional<int64_t> edge(int64_t scale, double unbounded) {
    if (chance(unbounded))
      return std::nullopt;
    if (chance(0.2))
      return 0;
    return uniform(0, 2 * scale + 2);
  }
  Band band(int64_t scale) {
    Band band;
    band.left = edge(scale, 0.25);
    band.right = edge(scale, 0.35);
    band.align = chance(0.5) ? Alignment::TopLeft : Alignment::BottomRight;
    return band;
  }
};

} // namespace mlir::sdpa::testing

#endif // SDPA_UNITTESTS_BRUTEFORCEMASK_H
