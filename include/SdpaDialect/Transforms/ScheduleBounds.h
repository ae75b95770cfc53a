//===- ScheduleBounds.h - Schedule maps as affine.max/min ops ---*- C++ -*-===//
//
// Materializes the maps of a #sdpa.schedule as affine.max / affine.min ops
// with the clamps every consumer needs: the backward kernel (its q-loop, its
// interior, the relay turn) and the host functions of sdpa-materialize-bounds
// take their bounds from here. The forward kernel applies the same maps with
// lighter clamps of its own (ForwardKernel.cpp says why).
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_TRANSFORMS_SCHEDULEBOUNDS_H
#define SDPADIALECT_TRANSFORMS_SCHEDULEBOUNDS_H

#include "SdpaDialect/SdpaAttrs.h"
#include "mlir/IR/Builders.h"

namespace mlir::sdpa {

/// The key tiles query tile t visits, [kvBegin, kvEnd), and its unmasked
/// interior [interiorBegin, interiorEnd), with
/// kvBegin <= interiorBegin <= interiorEnd <= kvEnd (all `index`).
struct ForwardBounds {
  Value kvBegin, kvEnd, interiorBegin, interiorEnd;
};

/// The query tiles key tile u visits, [qBegin, qEnd), and its unmasked
/// interior [interiorBegin, interiorEnd), with
/// qBegin <= interiorBegin <= interiorEnd <= qEnd (all `index`); the interior
/// is empty (at qEnd) for a partial key tile.
struct BackwardBounds {
  Value qBegin, qEnd, interiorBegin, interiorEnd;
};

/// Emits the forward bounds of query tile `qTile` for lengths `seqQ`, `seqKv`
/// (all `index` values).
ForwardBounds buildForwardBounds(OpBuilder &builder, Location loc,
                                 ScheduleAttr schedule, Value qTile,
                                 Value seqQ, Value seqKv);

/// Emits the backward bounds of key tile `kvTile`.
BackwardBounds buildBackwardBounds(OpBuilder &builder, Location loc,
                                   ScheduleAttr schedule, Value kvTile,
                                   Value seqQ, Value seqKv);

/// Emits the relay turn of key tile `kvTile` at query tile `qTile`:
/// u - kv_first(t).
Value buildRelayTurn(OpBuilder &builder, Location loc, ScheduleAttr schedule,
                     Value kvTile, Value qTile, Value seqQ, Value seqKv);

} // namespace mlir::sdpa

#endif // SDPADIALECT_TRANSFORMS_SCHEDULEBOUNDS_H
