//===- QueryTileKernel.cpp - Kernels with one program per query tile ------===//
//
// Binds a per-query-tile kernel's arguments and finds its program's tile,
// head, sequence and rows.
//
//===----------------------------------------------------------------------===//

#include "QueryTileKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

QueryTile QueryTileKernelBuilder::bindQueryTile(gpu::GPUFuncOp func,
                                                BackwardRole role) {
  bindArguments(func, role);
  QueryTile tile;
  tile.seqQMax = argIndex("seq_q");
  tile.headsQ = argIndex("heads_q");
  tile.qTile = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  tile.head = gpu::BlockIdOp::create(b, gpu::Dimension::y);
  tile.batch = gpu::BlockIdOp::create(b, gpu::Dimension::z);
  tile.seqQ = tile.seqQMax;
  if (spec.packed)
    std::tie(tile.first, tile.seqQ) = loadSegment("cu_seqlens_q", tile.batch);
  tile.q0 = mul(tile.qTile, idx(spec.tiles.q));
  return tile;
}

Value QueryTileKernelBuilder::rowsInTile(const QueryTile &tile) {
  Value past = arith::MaxUIOp::create(b, tile.seqQ, tile.q0);
  Value left = sub(past, tile.q0);
  Value rows = idx(spec.tiles.q);
  return arith::MinUIOp::create(b, rows, left);
}
