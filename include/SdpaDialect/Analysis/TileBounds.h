//===- TileBounds.h - Exact symbolic tile bounds of a band ------*- C++ -*-===//
//
// Derives, once and symbolically, the tile schedule of a band mask
// (docs/Semantics.md §3-4) as affine maps over a tile index and the symbols
// [Sq, Skv]:
//
//   forward   query tile t visits key tiles   [kvBegin(t), kvEnd(t))
//             of which [interiorBegin(t), interiorEnd(t)) need no cell mask
//   backward  key tile u visits query tiles   [qBegin(u), qEnd(u))
//             of which [qInteriorBegin(u), qInteriorEnd(u)) need no cell
//             mask if u is a full key tile (a partial one has no interior)
//   relay     kvFirst(t), and the turn of key tile u at query tile t,
//             turn(u, t) = u - kvFirst(t)
//
// A "begin" map stands for the max of its results, an "end" map for the min
// of its results, so they lower directly to affine.max / affine.min. Every
// consumer (the schedule attribute, the schedule printer, the kernels' loop
// bounds, the relay turn, the runtime's grid) uses these maps, so forward,
// backward and relay cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_ANALYSIS_TILEBOUNDS_H
#define SDPADIALECT_ANALYSIS_TILEBOUNDS_H

#include "SdpaDialect/Analysis/Band.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace mlir::sdpa {

/// The largest size, length or offset the project handles: kernels index in
/// 32-bit signed arithmetic, and so does every bound derived here. Lengths up
/// to this, band widths up to this and tiles up to kMaxTileSize keep every
/// intermediate of the schedule maps far inside int64_t.
constexpr int64_t kMaxExtent = (int64_t(1) << 31) - 1;
/// The largest tile size accepted (pass options, #sdpa.schedule, manifest).
constexpr int64_t kMaxTileSize = int64_t(1) << 16;

/// Rows per query tile and keys per key tile (both >= 1).
struct TileShape {
  int64_t q = 1;
  int64_t kv = 1;
};

/// The position of the two sequence-length symbols in every schedule map.
enum ScheduleSymbol : unsigned { kSeqQSymbol = 0, kSeqKvSymbol = 1 };

/// The schedule of a band, symbolic in [Sq, Skv]. Maps over one dimension
/// take the tile index; `relayTurn` takes (u, t). Begin maps are max-maps,
/// end maps and `relayTurn` are min-maps, `kvFirst` is a max-map.
struct ScheduleMaps {
  AffineMap kvBegin, kvEnd;
  AffineMap interiorBegin, interiorEnd;
  AffineMap qBegin, qEnd;
  AffineMap qInteriorBegin, qInteriorEnd;
  AffineMap kvFirst;
  AffineMap relayTurn;
};

/// Derives the exact schedule maps of `band` for `tiles`
/// (docs/Semantics.md §3-4).
/// The maps are valid for tile indices inside the tile grid.
ScheduleMaps deriveScheduleMaps(const Band &band, TileShape tiles,
                                MLIRContext *context);

/// Replaces the symbols whose lengths are known by constants, simplifies, and
/// drops results that another result of the same map dominates by a constant.
/// With both lengths known, the maps no longer depend on any symbol.
ScheduleMaps specializeScheduleMaps(const ScheduleMaps &maps,
                                    std::optional<int64_t> seqQ,
                                    std::optional<int64_t> seqKv);

/// Simplifies a max-map (`isMax`) or min-map: drops results dominated by
/// another result by a constant and duplicates. Exposed for testing.
AffineMap pruneDominatedResults(AffineMap map, bool isMax);

/// Evaluates an affine expression over integers (floor semantics for
/// floordiv/mod, also for negative operands).
int64_t evaluateAffineExpr(AffineExpr expr, llvm::ArrayRef<int64_t> dims,
                           llvm::ArrayRef<int64_t> symbols);
/// The max of a max-map's results at the given point.
int64_t evaluateMaxMap(AffineMap map, llvm::ArrayRef<int64_t> dims,
                       llvm::ArrayRef<int64_t> symbols);
/// The min of a min-map's results at the given point.
int64_t evaluateMinMap(AffineMap map, llvm::ArrayRef<int64_t> dims,
                       llvm::ArrayRef<int64_t> symbols);

/// A half-open range of tile indices; empty iff begin == end.
struct TileRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
  bool empty() const { return end == begin; }
  bool contains(int64_t i) const { return begin <= i && i < end; }
  bool operator==(const TileRange &o) const {
    return begin == o.begin && end == o.end;
  }
};

/// Normalizes a raw [begin, end) from the maps into [lo, hi]: the result has
/// lo <= begin <= end <= hi, and an empty raw range becomes [x, x).
TileRange clampRange(int64_t begin, int64_t end, int64_t lo, int64_t hi);

/// Number of tiles of size `tile` covering `length` elements.
inline int64_t tileCount(int64_t length, int64_t tile) {
  return (length + tile - 1) / tile;
}

/// Whether key tile `u` holds Tk keys (u < Skv floordiv Tk). Only a full key
/// tile has a backward interior: keys past Skv need the cell mask.
inline bool isFullKeyTile(int64_t u, TileShape tiles, int64_t seqKv) {
  return u < seqKv / tiles.kv;
}

/// The concrete schedule of one sequence, evaluated from the maps.
struct ScheduleTable {
  struct Forward {
    int64_t qTile;
    TileRange kv;
    TileRange interior;
  };
  struct Backward {
    int64_t kvTile;
    TileRange q;
    TileRange interior; // within q; empty for a partial key tile
  };
  struct Relay {
    int64_t qTile;
    int64_t kvFirst;
    int64_t visitors;
  };
  std::vector<Forward> forward;   // one per query tile, ascending
  std::vector<Backward> backward; // one per key tile, ascending
  std::vector<Relay> relay;       // one per query tile, ascending
};

/// Evaluates `maps` (derived or specialized for these lengths) for a sequence
/// of `seqQ` queries and `seqKv` keys.
ScheduleTable evaluateSchedule(const ScheduleMaps &maps, TileShape tiles,
                               int64_t seqQ, int64_t seqKv);

/// The relay turn of key tile u at query tile t, from the maps.
int64_t evaluateRelayTurn(const ScheduleMaps &maps, int64_t kvTile,
                          int64_t qTile, int64_t seqQ, int64_t seqKv);

} // namespace mlir::sdpa

#endif // SDPADIALECT_ANALYSIS_TILEBOUNDS_H
