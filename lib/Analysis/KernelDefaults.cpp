//===- KernelDefaults.cpp - Default tiles of the attention kernels --------===//
//
// The rule of KernelDefaults.h (bench/RESULTS.md, the configuration sweep).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/KernelDefaults.h"

using namespace mlir::sdpa;

std::optional<int64_t>
mlir::sdpa::getBandWidth(const Band &band, std::optional<int64_t> seqKv) {
  // Past any int64 a band is wide; this also keeps the sum from overflowing.
  if (band.left && band.right && *band.left <= kNarrowBandKeys &&
      *band.right <= kNarrowBandKeys)
    return *band.left + *band.right + 1;
  if (band.left && band.right)
    return std::nullopt;
  return seqKv;
}

ForwardDefaults
mlir::sdpa::getDefaultForwardTiles(int64_t headDim,
                                   std::optional<int64_t> bandWidth) {
  if (headDim > 176)
    return {{64, 16}, 4};
  if (headDim > 128)
    return {{64, 32}, 4};
  bool narrow = isNarrowBand(bandWidth);
  if (narrow && headDim > 32)
    return {{64, 32}, 4};
  if (!narrow && headDim > 96)
    return {{128, 32}, 4};
  return {{64, 64}, 4};
}

sdpa_schema::DqMode
mlir::sdpa::getDefaultDqMode(int64_t headDim,
                             std::optional<int64_t> bandWidth, bool capped,
                             bool deterministic) {
  if (capped && !deterministic && !isNarrowBand(bandWidth) &&
      headDim <= kMaxFullTileRecomputeHeadDim)
    return sdpa_schema::DqMode::Accumulate;
  return sdpa_schema::DqMode::Recompute;
}

TileShape mlir::sdpa::getDefaultBackwardTiles(int64_t headDim,
                                              std::optional<int64_t> bandWidth,
                                              sdpa_schema::DqMode dqMode,
                                              bool deterministic,
                                              bool cappedOrPacked) {
  // A wide band neither capped nor packed takes 64 x 128 from d 97, and
  // from mma width 96 with dQ recomputed. Below, with dQ recomputed, 64 x 64
  // on narrow bands up to d 96 and on wide ones neither capped nor packed
  // up to d 80; with dQ accumulated, 64 x 64 on narrow bands up to d 80 (the
  // relay spills above).
  constexpr int64_t kMaxSquareTileHeadDim = 96;
  constexpr int64_t kMaxWideSquareTileHeadDim = 80;
  constexpr int64_t kMaxRelaySquareTileHeadDim = 80;
  bool recompute = dqMode == sdpa_schema::DqMode::Recompute;
  bool narrow = isNarrowBand(bandWidth);
  bool wideUpTo128 = !narrow && headDim <= kMaxFullTileRecomputeHeadDim;
  bool wide128 = wideUpTo128 && headDim > kMaxSquareTileHeadDim;
  bool wideTall =
      wideUpTo128 && !cappedOrPacked &&
      (wide128 || (recompute && headDim > kMaxWideSquareTileHeadDim));
  if (wideTall)
    return {64, 128};
  bool square = headDim <= kMaxSquareTileHeadDim && recompute &&
                (narrow || !cappedOrPacked);
  if (square || (narrow && headDim <= kMaxRelaySquareTileHeadDim))
    return {64, 64};
  if (headDim > kMaxFullTileRecomputeHeadDim && recompute)
    return {32, kMaxWideRecomputeKeyTile};
  if (wide128 && !deterministic)
    return {32, 128};
  return {32, 64};
}
