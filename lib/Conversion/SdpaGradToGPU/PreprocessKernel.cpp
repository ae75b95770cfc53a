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
#include "llvm/Support/MathExtras.h"

#include <algorithm>

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

    // Delta: a row's 16-byte chunks spread over `lanes` neighbouring lanes
    // (a power of two, at most a warp), chunk c in lane c mod lanes, so that
    // a warp's loads cover whole rows, consecutive in memory where the rows
    // are; the lanes' sums meet in a butterfly (laneGroupSum) and the row's
    // first lane stores. One thread per row, its 16-byte loads 128 bytes
    // apart at d 64, took 58 us of the gpt-oss backward's 514 at 16k (H100,
    // ncu), stalled on memory 45 cycles an instruction.
    int64_t vec = sm80::kAsyncCopyElems;
    int64_t chunks = spec.headDim / vec;
    int64_t lanes = std::min<int64_t>(llvm::PowerOf2Ceil(chunks),
                                      sm80::kWarpSize);
    int64_t rowsPerRound = spec.rowThreads() / lanes;
    Value laneInRow = remu(tid, idx(lanes));
    Value rowInRound = divu(tid, idx(lanes));
    auto halfVec = VectorType::get({vec}, spec.elementType);
    auto floatVec = VectorType::get({vec}, b.getF32Type());
    for (int64_t r0 = 0; r0 < spec.tiles.q; r0 += rowsPerRound) {
      Value r = add(rowInRound, idx(r0));
      Value row = add(q0, r);
      Value inSequence = cmp(arith::CmpIPredicate::ult, row, seqQ);
      Value live = inSequence;
      if (r0 + rowsPerRound > spec.tiles.q) {
        Value inTile = cmp(arith::CmpIPredicate::ult, r, idx(spec.tiles.q));
        live = arith::AndIOp::create(b, inTile, inSequence);
      }
      Value oRow = add(oBase, mul(row, oStrideS));
      Value doRow = add(doBase, mul(row, doStrideS));
      Value partial = f32(0.0);
      for (int64_t c0 = 0; c0 < chunks; c0 += lanes) {
        Value chunk = add(laneInRow, idx(c0));
        Value loads = live;
        if (c0 + lanes > chunks)
          loads = arith::AndIOp::create(
              b, live, cmp(arith::CmpIPredicate::ult, chunk, idx(chunks)));
        partial = ifElse(loads, partial, [&]() -> SmallVector<Value> {
          // 16-byte loads: the runtime admits only 16-byte aligned data
          // pointers and row strides of o and do (docs/Runtime.md); without
          // the alignment LLVM splits each into 8 scalar loads.
          Value col = mul(chunk, idx(vec));
          Value o = vector::LoadOp::create(
              b, halfVec, args["o"], ValueRange{add(oRow, col)},
              /*nontemporal=*/false, llvm::MaybeAlign(sm80::kAsyncCopyBytes));
          Value dO = vector::LoadOp::create(
              b, halfVec, args["do"], ValueRange{add(doRow, col)},
              /*nontemporal=*/false, llvm::MaybeAlign(sm80::kAsyncCopyBytes));
          Value dOWide = arith::ExtFOp::create(b, floatVec, dO);
          Value oWide = arith::ExtFOp::create(b, floatVec, o);
          Value prod = arith::MulFOp::create(b, oWide, dOWide);
          Value chunkSum = vector::ReductionOp::create(
              b, vector::CombiningKind::ADD, prod);
          return {fadd(partial, chunkSum)};
        }).getResult(0);
      }
      Value rowDelta = laneGroupSum(partial, lanes);
      Value first = cmp(arith::CmpIPredicate::eq, laneInRow, idx(0));
      Value stores = arith::AndIOp::create(b, live, first);
      scf::IfOp::create(b, stores, [&](OpBuilder &, Location) {
        memref::StoreOp::create(b, rowDelta, args["delta"],
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

    // Sinks: this tile's partial of dsink (SinkGradient.cpp), from the
    // Delta rows the block stored above (the barrier makes them visible).
    if (spec.sinks) {
      gpu::BarrierOp::create(b);
      emitSinkPartial(func, tile, rows0);
    }

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
