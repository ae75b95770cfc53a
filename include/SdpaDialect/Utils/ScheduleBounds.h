//===- ScheduleBounds.h - The schedule's bounds as IR -----------*- C++ -*-===//
//
// Emits the bounds of a #sdpa.schedule as affine.max / affine.min and arith
// ops, clamped by the policy of the consumer (BoundsPolicy.h states the
// rules): the forward kernel, the backward kernel (its q-loop, its interior,
// the relay turn) and the host functions of sdpa-materialize-bounds all
// take their bounds from here, and the unit tests and the bounds fuzzer fold
// every policy against the brute-force mask.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_UTILS_SCHEDULEBOUNDS_H
#define SDPADIALECT_UTILS_SCHEDULEBOUNDS_H

#include "SdpaDialect/Analysis/BoundsPolicy.h"
#include "SdpaDialect/SdpaOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::sdpa {

/// The key tiles query tile t visits, [kvBegin, kvEnd), and its unmasked
/// interior [interiorBegin, interiorEnd) (all `index`; BoundsPolicy.h says
/// how each policy orders them).
struct ForwardBounds {
  Value kvBegin, kvEnd, interiorBegin, interiorEnd;
};

/// The query tiles key tile u visits, [qBegin, qEnd), and its unmasked
/// interior [interiorBegin, interiorEnd) (all `index`); the interior is
/// empty (at qEnd) for a partial key tile.
struct BackwardBounds {
  Value qBegin, qEnd, interiorBegin, interiorEnd;
};

/// Emits the forward bounds of query tile `qTile` for lengths `seqQ`, `seqKv`
/// (all `index` values) with the clamps of `policy`.
ForwardBounds emitForwardBounds(OpBuilder &builder, Location loc,
                                ScheduleAttr schedule, BoundsPolicy policy,
                                Value qTile, Value seqQ, Value seqKv);

/// Whether tile `x` of a walk needs the cell mask (an i1): x outside the
/// interior [interiorBegin, interiorEnd). The backward kernels' edge test,
/// of a program's tile or of a warp's chunk (the forward splits its loops
/// at the interior instead). The compares are unsigned: x and
/// the clamped interior of every policy lie at or above the walk's begin,
/// which is at least 0 (docs/Semantics.md §3.2, §3.3); signed ones cost
/// the backward's main kernel 2-50 registers (ptxas 13.0, sm_80).
Value emitOutsideInterior(OpBuilder &builder, Location loc,
                          Value interiorBegin, Value interiorEnd, Value x);

/// Of tile `x` of a walk with bounds `bounds` (i1s): whether it is visited
/// (in [kvBegin, kvEnd), signed compares) and whether it needs the cell mask
/// (emitOutsideInterior).
std::pair<Value, Value> emitVisitTests(OpBuilder &builder, Location loc,
                                       const ForwardBounds &bounds, Value x);

/// Emits the backward bounds of key tile `kvTile` with the clamps of
/// `policy`.
BackwardBounds emitBackwardBounds(OpBuilder &builder, Location loc,
                                  ScheduleAttr schedule, BoundsPolicy policy,
                                  Value kvTile, Value seqQ, Value seqKv);

/// Emits the relay turn of key tile `kvTile` at query tile `qTile`:
/// u - kv_first(t).
Value emitRelayTurn(OpBuilder &builder, Location loc, ScheduleAttr schedule,
                    Value kvTile, Value qTile, Value seqQ, Value seqKv);

/// The schedule a kernel for `op` is built from: the op's #sdpa.schedule
/// (sdpa-derive-bounds attaches it; the verifier keeps it the one derived
/// from the band), or, without one, the schedule derived for `tiles`. A
/// kernel reads Sq and Skv at run time, so where the op's lengths are static
/// (and its schedule specialized to them) the kernel takes the same schedule
/// over symbolic lengths.
ScheduleAttr getKernelSchedule(AttentionOpInterface op, TileShape tiles);

/// The schedule derived from `band` for `tiles`, over symbolic lengths.
ScheduleAttr deriveSchedule(const Band &band, TileShape tiles,
                            MLIRContext *context);

/// The bounds of one tile, emitted with constant operands and folded: what
/// the IR of `policy` computes, for tests and fuzzers. `tile` is the query
/// tile (forward) or the key tile (backward). With `turns`, also folds the
/// relay turn of each key tile of `turnKvTiles` at query tile `tile`. Fails
/// if an emitted value does not fold to a constant.
FailureOr<ClampedBounds<int64_t>>
foldEmittedBounds(ScheduleAttr schedule, BoundsPolicy policy, bool forward,
                  int64_t tile, int64_t seqQ, int64_t seqKv,
                  ArrayRef<int64_t> turnKvTiles = {},
                  SmallVectorImpl<int64_t> *turns = nullptr);

} // namespace mlir::sdpa

#endif // SDPADIALECT_UTILS_SCHEDULEBOUNDS_H
