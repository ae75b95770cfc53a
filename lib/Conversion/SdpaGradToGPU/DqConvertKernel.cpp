//===- DqConvertKernel.cpp - dQ from its f32 accumulator ------------------===//
//
// One program per (query tile t = blockIdx.x, query head h, batch b):
//
//   dQ[b, h, q, d] = element_type(dq_accum[b, h, q, d])   for q < Sq
//
// The scale is already folded into the accumulated dS, so this is a plain
// conversion. Packed sequences (thd): b is sequence i, rows are its tokens
// (PreprocessKernel.cpp), dq_accum is [Hq, T, D]. With sinks, program
// (0, h, 0) also stores dsink[h] from the partials of bwd_preprocess
// (SinkGradient.cpp).
//
//===----------------------------------------------------------------------===//

#include "QueryTileKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

namespace {
class DqConvertKernelBuilder : public QueryTileKernelBuilder {
public:
  using QueryTileKernelBuilder::QueryTileKernelBuilder;

  void build(gpu::GPUFuncOp func) {
    QueryTile tile = bindQueryTile(func, BackwardRole::DqConvert);
    Value rows0 =
        rowStatsBase(tile.batch, tile.first, tile.head, tile.headsQ, tile.seqQ);
    Value headDim = idx(spec.headDim);
    Value accBase = mul(add(rows0, tile.q0), headDim);
    Value dqBase = sliceBase("dq", tile.batch, tile.first, tile.head);
    Value dqStrideS = argIndex("dq_stride_s");
    dqBase = add(dqBase, mul(tile.q0, dqStrideS));
    Value rows = rowsInTile(tile);
    Value limit = mul(rows, idx(spec.headDim));
    scf::ForOp::create(
        b, tid, limit, idx(spec.rowThreads()), ValueRange{},
        [&](OpBuilder &, Location, Value e, ValueRange) {
          Value acc = memref::LoadOp::create(b, args["dq_accum"],
                                             ValueRange{add(accBase, e)});
          Value row = divu(e, idx(spec.headDim));
          Value col = remu(e, idx(spec.headDim));
          Value value = arith::TruncFOp::create(b, spec.elementType, acc);
          memref::StoreOp::create(
              b, value, args["dq"],
              ValueRange{add(dqBase, add(mul(row, dqStrideS), col))});
          scf::YieldOp::create(b);
        });
    // Sinks: program (0, h, 0) sums head h's partials (SinkGradient.cpp).
    if (spec.sinks)
      emitSinkGradient(func, tile);
    gpu::ReturnOp::create(b);
  }
};
} // namespace

void mlir::sdpa::detail::buildDqConvertKernel(ImplicitLocOpBuilder &b,
                                              const BackwardKernelSpec &spec,
                                              gpu::GPUFuncOp func) {
  DqConvertKernelBuilder(b, spec).build(func);
}
