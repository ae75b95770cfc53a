//===- TileOptions.h - Checks of the tile-q / tile-kv pass options -*- C++ -*-===//
//
// The tile sizes passes take as options, checked in one place.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_TRANSFORMS_TILEOPTIONS_H
#define SDPADIALECT_TRANSFORMS_TILEOPTIONS_H

#include "SdpaDialect/Analysis/TileBounds.h"
#include "mlir/IR/Operation.h"

namespace mlir::sdpa {

/// Emits an error on `op` unless 0 <= tileQ, tileKv <= kMaxTileSize (larger
/// tiles overflow int64_t while the maps are derived and evaluated; found by
/// fuzzing, docs/Robustness.md). 0 is unset: each op takes the default tile
/// rule (Analysis/KernelDefaults.h, resolveTiles).
inline LogicalResult checkTileOptions(Operation *op, int64_t tileQ,
                                      int64_t tileKv) {
  if (tileQ < 0 || tileKv < 0)
    return op->emitError("expected tile-q and tile-kv to be non-negative "
                         "(0: the default tile rule)");
  if (tileQ > kMaxTileSize || tileKv > kMaxTileSize)
    return op->emitError("expected tile-q and tile-kv to be at most ")
           << kMaxTileSize;
  return success();
}

} // namespace mlir::sdpa

#endif // SDPADIALECT_TRANSFORMS_TILEOPTIONS_H
