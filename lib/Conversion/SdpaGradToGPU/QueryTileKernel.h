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
  using KernelBuilderBase::KernelBuilderBase;

protected:
  /// Binds the arguments of `role` and reads where this program is.
  QueryTile bindQueryTile(gpu::GPUFuncOp func, BackwardRole role);
  /// The rows of the tile inside its sequence: min(Tq, max(Sq, q0) - q0).
  Value rowsInTile(const QueryTile &tile);
};

} // namespace mlir::sdpa::detail

#endif // SDPA_LIB_CONVERSION_SDPAGRADTOGPU_QUERYTILEKERNEL_H
