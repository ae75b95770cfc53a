//===- DefaultTiles.h - The default tile rule applied to an op --*- C++ -*-===//
//
// Resolves tile options left 0 (unset) by the rule of
// Analysis/KernelDefaults.h, read off an attention op.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_DEFAULTTILES_H
#define SDPADIALECT_DEFAULTTILES_H

#include "SdpaDialect/SdpaOps.h"
#include "SdpaSchema/Schema.h"

#include <optional>

namespace mlir::sdpa {

/// The tiles of `op` for tile options `options`: each option that is 0
/// (unset) takes the default rule's value (Analysis/KernelDefaults.h) for the
/// op's direction, head dim, band width and, for a backward, the dQ mode
/// `dqMode` (none: the default rule's, resolveDqMode).
TileShape resolveTiles(AttentionOpInterface op, TileShape options,
                       std::optional<sdpa_schema::DqMode> dqMode = std::nullopt);

/// The dQ mode of `op`: `option` where given, else the default rule's
/// (getDefaultDqMode) for its head dim, band width, softcap and determinism.
sdpa_schema::DqMode resolveDqMode(AttentionGradOp op,
                                  std::optional<sdpa_schema::DqMode> option);

/// The forward's warps for `op` at `tileQ` query rows: `warps` unless it is
/// 0 (unset), then the default rule's (getDefaultForwardWarps).
int64_t resolveForwardWarps(AttentionOp op, int64_t tileQ, int64_t warps);

} // namespace mlir::sdpa

#endif // SDPADIALECT_DEFAULTTILES_H
