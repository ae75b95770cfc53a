//===- PreprocessKernel.cpp - Delta = rowsum(dO * O), zeroed workspaces ---===//
//
// One program per (query tile t = blockIdx.x, query head h, batch b):
//
//   delta[b, h, q]       = sum_d dO[b, h, q, d] * O[b, h, q, d]   (f32)
//   dq_accum[b, h, q, :] = 0                    for q in the tile, q < Sq
//                                               (dQ accumulated)
//   relay_counters[b, h, t] = 0                 (dQ relayed)
//
// so the runtime needs no memset: the three kernels run in stream order.
// delta and dq_accum are contiguous [B, Hq, Sq] and [B, Hq, Sq, D] f32,
// relay_counters contiguous [B, Hq, ceil(Sq / Tq)] i32.
//
// Packed sequences (thd): b is sequence i, whose rows are the tokens
// [cu_seqlens_q[i], cu_seqlens_q[i + 1]) and Sq its length; the grid spans
// the longest (seq_q), so tiles past a shorter sequence only zero their
// relay counter. delta and dq_accum are [Hq, T] and [Hq, T, D] (T =
// cu_seqlens_q[N], one entry per LSE entry), relay_counters
// [N, Hq, ceil(seq_q / Tq)].
//
// With sinks the program also writes its tile's partial of dsink to
// dsink_partials[b, h, t] (SinkGradient.cpp).
//
//===----------------------------------------------------------------------===//

#include "QueryTileKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

namespace {
class PreprocessKernelBuilder : public QueryTileKernelBuilder {
public:
  using QueryTileKernelBuilder::QueryTileKernelBuilder;

  void build(gpu::GPUFuncOp func) {
    QueryTile tile = bindQueryTile(func, BackwardRole::Preprocess);
    Value seqQ = tile.seqQ, q0 = tile.q0;
    Value bh = add(mul(tile.batch, tile.headsQ), tile.head);
    Value rows0 =
        rowStatsBase(tile.batch, tile.first, tile.head, tile.headsQ, seqQ);
    Value oBase = sliceBase("o", tile.batch, tile.first, tile.head);
    Value doBase = sliceBase("do", tile.batch, tile.first, tile.head);
    Value oStrideS = argIndex("o_stride_s"), doStrideS = argIndex("do_stride_s");

    // Delta: one thread per row of the tile.
    int64_t vec = sm80::kAsyncCopyElems;
    auto halfVec = VectorType::get({vec}, spec.elementType);
    auto floatVec = VectorType::get({vec}, b.getF32Type());
    for (int64_t r0 = 0; r0 < spec.tiles.q; r0 += spec.rowThreads()) {
      Value r = add(tid, idx(r0));
      Value row = add(q0, r);
      Value inSequence = cmp(arith::CmpIPredicate::ult, row, seqQ);
      Value inTile = cmp(arith::CmpIPredicate::ult, r, idx(spec.tiles.q));
      Value live = arith::AndIOp::create(b, inTile, inSequence);
      scf::IfOp::create(b, live, [&](OpBuilder &, Location) {
        Value zero = arith::ConstantOp::create(
            b, floatVec, DenseElementsAttr::get(floatVec, b.getF32FloatAttr(0)));
        Value oRow = add(oBase, mul(row, oStrideS));
        Value doRow = add(doBase, mul(row, doStrideS));
        Value acc = zero;
        // 16-byte loads: the runtime admits only 16-byte aligned data
        // pointers and row strides of o and do (docs/Runtime.md). Without
        // the alignment LLVM split each into 8 scalar loads, and the kernel
        // took a third of the gpt-oss backward (354 us of 1.14 ms at 16k,
        // H200, ncu).
        for (int64_t d = 0; d < spec.headDim; d += vec) {
          Value o = vector::LoadOp::create(
              b, halfVec, args["o"], ValueRange{add(oRow, idx(d))},
              /*nontemporal=*/false, llvm::MaybeAlign(sm80::kAsyncCopyBytes));
          Value dO = vector::LoadOp::create(
              b, halfVec, args["do"], ValueRange{add(doRow, idx(d))},
              /*nontemporal=*/false, llvm::MaybeAlign(sm80::kAsyncCopyBytes));
          Value dOWide = arith::ExtFOp::create(b, floatVec, dO);
          Value oWide = arith::ExtFOp::create(b, floatVec, o);
          Value prod = arith::MulFOp::create(b, oWide, dOWide);
          acc = arith::AddFOp::create(b, acc, prod);
        }
        Value sum = vector::ReductionOp::create(b, vector::CombiningKind::ADD,
                                                acc);
        memref::StoreOp::create(b, sum, args["delta"],
                                ValueRange{add(rows0, row)});
        scf::YieldOp::create(b);
      });
    }

    // dq_accum rows of the tile := 0 (where dQ is accumulated).
    if (!spec.recomputesDq()) {
      Value headDim = idx(spec.headDim);
      Value accBase = mul(add(rows0, q0), headDim);
      Value rowElems = idx(spec.headDim);
      Value limit = mul(rowsInTile(tile), rowElems);
      scf::ForOp::create(
          b, tid, limit, idx(spec.rowThreads()), ValueRange{},
          [&](OpBuilder &, Location, Value e, ValueRange) {
            Value at = add(accBase, e);
            memref::StoreOp::create(b, f32(0.0), args["dq_accum"],
                                    ValueRange{at});
            scf::YieldOp::create(b);
          });
    }

    // Sinks: this tile's partial of dsink (SinkGradient.cpp).
    if (spec.sinks)
      emitSinkPartial(func, tile, rows0);

    if (spec.usesRelay()) {
      // seq_q: the (longest) sequence length, of the counters' row.
      Value qTiles =
          arith::CeilDivUIOp::create(b, tile.seqQMax, idx(spec.tiles.q));
      Value first = cmp(arith::CmpIPredicate::eq, tid, idx(0));
      scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
        Value zero = arith::ConstantOp::create(b, b.getI32IntegerAttr(0));
        memref::StoreOp::create(b, zero, args["relay_counters"],
                                ValueRange{add(mul(bh, qTiles), tile.qTile)});
        scf::YieldOp::create(b);
      });
    }
    gpu::ReturnOp::create(b);
  }
};
} // namespace

void mlir::sdpa::detail::buildPreprocessKernel(ImplicitLocOpBuilder &b,
                                               const BackwardKernelSpec &spec,
                                               gpu::GPUFuncOp func) {
  PreprocessKernelBuilder(b, spec).build(func);
}
