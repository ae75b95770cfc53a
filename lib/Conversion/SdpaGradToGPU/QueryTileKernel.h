//===- QueryTileKernel.h - Kernels with one program per query tile -*- C++ -*-//
//
// The setup the preprocessing and dQ conversion kernels share: one program
// per (query tile t = blockIdx.x, query head h, batch b), each thread owning
// rows (or elements) of the tile.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_LIB_CONVERSION_SDPAGRADTOGPU_QUERYTILEKERNEL_H
#define SDPA_LIB_CONVERSION_SDPAGRADTOGPU_QUERYTILEKERNEL_H

#include "BackwardKernel.h"

namespace mlir::sdpa::detail {

/// Where a program of a per-query-tile kernel is.
struct QueryTile {
  /// The seq_q argument: the longest sequence when packed.
  Value seqQMax;
  /// The length of this program's sequence and (packed only, else null) its
  /// first token.
  Value seqQ, first;
  Value headsQ;
  /// blockIdx.x, .y, .z.
  Value qTile, head, batch;
  /// The tile's first query row of the sequence: t * Tq.
  Value q0;
};

/// Builder base of the kernels with one program per query tile.
class QueryTileKernelBuilder : public KernelBuilderBase {
public:
  /// A kernel of `threads` threads per block (the row kernels' 128 unless
  /// given).
  QueryTileKernelBuilder(ImplicitLocOpBuilder &b,
                         const BackwardKernelSpec &spec, int64_t threads = 0)
      : KernelBuilderBase(b, spec) {
    blockThreads = threads ? threads : spec.rowThreads();
  }

protected:
  /// Binds the arguments of `role` and reads where this program is.
  QueryTile bindQueryTile(gpu::GPUFuncOp func, BackwardRole role);
  /// The rows of the tile inside its sequence: min(Tq, max(Sq, q0) - q0).
  Value rowsInTile(const QueryTile &tile);

  //===--- SinkGradient.cpp: dsink in a fixed order ------------------------===//
  /// The sum of `value` over the block's threads, valid in every thread,
  /// added in a fixed order (a workgroup buffer of one f32 per warp is
  /// attributed to `func`). Every thread of the block must reach it.
  Value blockSumInOrder(gpu::GPUFuncOp func, Value value);
  /// bwd_preprocess: this tile's partial of dsink (its rows' exp(sink - LSE)
  /// Delta, after Delta is stored; `rows0` is rowStatsBase's row 0).
  void emitSinkPartial(gpu::GPUFuncOp func, const QueryTile &tile,
                       Value rows0);
  /// bwd_dq_convert: program (0, h, 0) stores dsink[h] = -(the sum of head
  /// h's partials).
  void emitSinkGradient(gpu::GPUFuncOp func, const QueryTile &tile);
};

} // namespace mlir::sdpa::detail

#endif // SDPA_LIB_CONVERSION_SDPAGRADTOGPU_QUERYTILEKERNEL_H
