//===- MainKernel.h - Builder of the backward kv-tile kernel ----*- C++ -*-===//
//
// The main backward kernel: one program per (key tile u = blockIdx.x, kv
// head, batch). Defined in MainKernel.cpp (setup, loops, P and dS, dK/dV)
// and Relay.cpp (the dQ partial and its adds, atomic or relayed).
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_LIB_CONVERSION_SDPAGRADTOGPU_MAINKERNEL_H
#define SDPA_LIB_CONVERSION_SDPAGRADTOGPU_MAINKERNEL_H

#include "BackwardKernel.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"

namespace mlir::sdpa::detail {

/// The register accumulators of one thread: dK and dV of its warp's keys,
/// one fragment per key row tile r and 8 columns dn each (at r *
/// groupBlocks + dn), over its group's columns (BackwardKernelSpec::
/// groupBlocks; every column up to mma width 128).
struct GradAccumulators {
  SmallVector<Value> dK, dV;

  SmallVector<Value> flatten() const;
  static GradAccumulators unflatten(ValueRange values);
};

/// Per query head: the element offsets of its slices.
struct QueryHeadBases {
  Value head;     // the query head index
  Value q, dO;    // of the (batch, head) slices of Q and dO
  Value lse;      // of LSE's (batch, head) row
  Value rowStats; // of delta's (batch, head) row (rowStatsBase)
  Value dqAccum;  // of dq_accum's (batch, head) slice
  Value counters; // of the relay counters' (batch, head) row
};

/// One visit of the walk: query tile `t` (first row q0) of a query head.
struct QueryVisit {
  QueryHeadBases bases;
  Value t, q0;
};

/// LSE * log2(e) and Delta of the query rows this thread fetches (one per
/// round of the block's threads over the tile's rows), on their way from
/// global to shared memory.
struct PendingRowStats {
  SmallVector<Value> lse2, delta;
};

class MainKernelBuilder : public KernelBuilderBase {
public:
  using KernelBuilderBase::KernelBuilderBase;

  void build(gpu::GPUFuncOp func);

private:
  //===--- MainKernel.cpp -------------------------------------------------===//
  void emitSetup();
  /// Everything after the setup: K and V, the loops, the dK and dV stores.
  void emitProgram();
  QueryHeadBases emitQueryHeadBases(Value head);
  /// The visit of step `n` of the walk over (query head, query tile), the
  /// heads of the group outer, each head's `count` tiles descending.
  QueryVisit emitVisit(Value n, Value count, const BackwardBounds &bounds);
  /// Issues the copies of `visit`'s Q and dO into `stage` and loads its row
  /// stats into registers (all zero-filled or unused unless `enabled`).
  PendingRowStats emitFetch(const QueryVisit &visit, Value stage,
                            Value enabled);
  /// Stores fetched row stats into `stage` of the LSE and Delta buffers.
  void storeRowStats(const PendingRowStats &stats, Value stage);
  /// The walk over every visit (emitStreamedWalk, its tiles in
  /// queryStages stages).
  void emitWalk(Value count, const BackwardBounds &bounds,
                GradAccumulators &acc);
  /// One visit, its Q, dO and row stats in `stage`: its query slices
  /// (emitQuerySliceStep), then the dQ partial (accumulating dQ modes).
  void emitQueryTileStep(const QueryVisit &visit, Value stage, Value edge,
                         GradAccumulators &acc);
  /// The warp's queries of one slice of a visit (from partQuery0):
  /// recomputes P (masked if `edge`, an i1); forms dS; accumulates the
  /// group's columns of dK, dV.
  void emitQuerySliceStep(const QueryVisit &visit, Value stage, Value edge,
                          GradAccumulators &acc);
  /// The tile-local first query of 8-query block `j` of this warp's part.
  Value queryLocal(int64_t j);
  /// The first head_dim column of 8-column block `dn` of this warp's
  /// columns (past groupColumn0 in a split visit).
  Value columnBlock0(int64_t dn);
  /// 8-query blocks of this warp's slice of the query tile.
  int64_t queryBlocks() const;
  /// The tile-local first key of the warp's key row tile `r` (warpKeys()
  /// keyBlock + 16 r), and of this thread's fragment rows in it (plus
  /// lane / 4).
  Value warpKeyRow0(int64_t r = 0);
  Value threadKeyRow0(int64_t r = 0);
  /// Stores the f32 fragments `frags` (16 keys x 8 queries each, this
  /// warp's) into the [Tk][Tq] shared tile `smem` as element pairs.
  void storeTransposed(ArrayRef<Value> frags, Value smem);
  /// The second phase of a split visit: dV += P^T dO and dK += dS^T Q over
  /// the group's columns, P^T and dS^T read back from shared memory.
  void emitGroupGradients(Value stage, GradAccumulators &acc);
  /// P^T (one fragment per 8 queries) with the cells outside the band zeroed
  /// when `edge` holds; an interior visit branches around the mask.
  SmallVector<Value> emitBandMask(ArrayRef<Value> p, Value q0, Value edge);
  /// The query tile of step `i` (0, 1, ...) of a walk down from `end`:
  /// end - 1 - i.
  Value descending(Value i, Value end);
  /// Row stats of the two query columns of this thread in 8-query block `j`
  /// of `stage` (an 8-byte load of LSE or Delta from shared memory).
  Value statsPair(Value smem, Value stage, int64_t j);
  /// P^T from the scores (S^T in `p` on entry) and, with a cap, in place
  /// of dP^T, (dP^T - Delta) times the cap's derivative.
  void recomputeProbabilities(SmallVectorImpl<Value> &p,
                              SmallVectorImpl<Value> &dP, Value stage);
  /// K^T-side products: per key row tile r and 8-query block j (at
  /// r * queryBlocks() + j), S^T (or dP^T) of the row tile's 16 keys
  /// against the 8 queries of `rows` (Q or dO in shared memory, at
  /// `stage`); each B fragment serves every row tile.
  SmallVector<Value> keyRowProducts(Value keyRows, Value rows, Value stage);
  /// dV += P^T dO and dK += dS^T Q over the 16 queries from `query0` and
  /// the group's columns, from the A fragments `aP` (P^T) and `aS` (dS^T),
  /// one per key row tile; each B fragment serves every row tile.
  void accumulateGradients(ArrayRef<Value> aP, ArrayRef<Value> aS,
                           Value query0, Value stage, GradAccumulators &acc);
  /// Stores the group's columns of dK * scale and dV.
  void emitStoreGradients(const GradAccumulators &acc);

  //===--- Relay.cpp ------------------------------------------------------===//
  /// dQ partial of query tile `t` from dS in shared memory and K, then its
  /// adds into dq_accum: plain atomics, or, in deterministic mode, in the
  /// relay turn of this key tile.
  void emitDqUpdate(Value t, Value q0, const QueryHeadBases &bases);
  /// Spins (thread 0) until the counter at `counter` equals `turn`.
  void emitRelayAcquire(Value counter, Value turn);
  /// Makes this program's adds visible and passes the turn on.
  void emitRelayRelease(Value counter, Value turn);

  // Sizes and program coordinates (index). seqQ, seqKv: the lengths of this
  // program's sequence; seqQMax: the seq_q parameter (packed: the longest).
  Value seqQ, seqKv, seqQMax, headsQ, headsKv, group, delta;
  Value kvTile, kvHead, batch, k0;
  // Packed sequences: the first query and key token of the sequence.
  Value qFirst, kvFirst;
  Value warp, fragRow, fragCol;
  // The warp's key block, and its column group (also its part of the query
  // tile in the first phase of a split visit); the first query of the part
  // (or of the query slice the visit forms, BackwardKernelSpec::
  // querySlices) and the first column of the group (null unless the visit
  // is split or sliced; groupColumn0 unless split).
  Value keyBlock, columnGroup, partQuery0, groupColumn0;
  // Shared buffers.
  Value kSmem, vSmem, qSmem, doSmem, dsSmem, lseSmem, deltaSmem;
  Value pTSmem, dsTSmem; // split visits: P^T, dS^T [Tk][Tq]
  // Strides (index).
  Value qStrideS, doStrideS;
  // The first copy group (K): every wait names it.
  Value copyGroup;
};

} // namespace mlir::sdpa::detail

#endif // SDPA_LIB_CONVERSION_SDPAGRADTOGPU_MAINKERNEL_H
