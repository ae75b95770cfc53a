//===- SinkGradient.cpp - dsink, summed in a fixed order ------------------===//
//
// The gradient of the attention sinks (docs/Semantics.md §7),
//
//   dsink[h] = -sum_{b, q} exp(sink[h] - LSE[b, h, q]) * Delta[b, h, q],
//
// in two steps of a fixed order, so that it is bitwise repeatable in every
// dQ mode. bwd_preprocess (program (t, h, b)) writes the partial of its
// query tile,
//
//   dsink_partials[(b * Hq + h) * T + t] = sum_{q in tile t} exp2(sink[h]
//       log2(e) - LSE[q] log2(e)) * Delta[q]              (0 past Sq)
//
// with T = gridDim.x; bwd_dq_convert's program (0, h, 0) sums the B * T
// partials of head h and stores dsink[h]. Both sums run in the same order on
// every launch: each thread adds its rows (entries) in increasing order, a
// warp adds its lanes by an xor butterfly, and thread 0 adds the warps in
// order. A row whose LSE is -inf (a sink of -inf and no visible key)
// contributes 0; a row without a key but a finite sink has O = 0, so
// Delta = 0 there.
//
//===----------------------------------------------------------------------===//

#include "QueryTileKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

Value QueryTileKernelBuilder::blockSumInOrder(gpu::GPUFuncOp func,
                                              Value value) {
  value = laneGroupSum(value, sm80::kWarpSize);
  int64_t warps = blockThreads / sm80::kWarpSize;
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto smemType =
      MemRefType::get({warps}, b.getF32Type(), MemRefLayoutAttrInterface(),
                      workgroup);
  Value smem = func.addWorkgroupAttribution(smemType, b.getLoc());
  Value warp = divu(tid, idx(sm80::kWarpSize));
  Value leader = cmp(arith::CmpIPredicate::eq, lane(), idx(0));
  scf::IfOp::create(b, leader, [&](OpBuilder &, Location) {
    memref::StoreOp::create(b, value, smem, ValueRange{warp});
    scf::YieldOp::create(b);
  });
  gpu::BarrierOp::create(b);
  Value total = memref::LoadOp::create(b, smem, ValueRange{idx(0)});
  for (int64_t w = 1; w < warps; ++w)
    total = fadd(total, memref::LoadOp::create(b, smem, ValueRange{idx(w)}));
  return total;
}

void QueryTileKernelBuilder::emitSinkPartial(gpu::GPUFuncOp func,
                                             const QueryTile &tile,
                                             Value rows0) {
  double inf = std::numeric_limits<double>::infinity();
  Value log2e = f32(sm80::kLog2e);
  Value sink2 = fmul(
      memref::LoadOp::create(b, args["sinks"], ValueRange{tile.head}), log2e);
  Value lseBase = lseRowBase(tile.batch, tile.first, tile.head);
  Value local = f32(0.0);
  for (int64_t r0 = 0; r0 < spec.tiles.q; r0 += blockThreads) {
    Value r = add(tid, idx(r0));
    Value row = add(tile.q0, r);
    Value inSequence = cmp(arith::CmpIPredicate::ult, row, tile.seqQ);
    Value inTile = cmp(arith::CmpIPredicate::ult, r, idx(spec.tiles.q));
    Value live = arith::AndIOp::create(b, inTile, inSequence);
    auto ifOp = scf::IfOp::create(b, TypeRange{b.getF32Type()}, live,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      // The row's Delta, which its lanes stored before the block's barrier.
      Value rowDelta = memref::LoadOp::create(b, args["delta"],
                                              ValueRange{add(rows0, row)});
      Value lse = memref::LoadOp::create(b, args["lse"],
                                         ValueRange{add(lseBase, row)});
      // Once a row, not a hot path: libdevice's exponential, never flushed.
      Value share = exp2(fsub(sink2, fmul(lse, log2e)), /*flush=*/false);
      Value finite =
          arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, lse, f32(-inf));
      scf::YieldOp::create(b, select(finite, fmul(share, rowDelta), f32(0.0)));
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, f32(0.0));
    }
    local = fadd(local, ifOp.getResult(0));
  }
  Value total = blockSumInOrder(func, local);
  Value qTiles = gpu::GridDimOp::create(b, gpu::Dimension::x);
  Value entry = add(mul(add(mul(tile.batch, tile.headsQ), tile.head), qTiles),
                    tile.qTile);
  Value first = cmp(arith::CmpIPredicate::eq, tid, idx(0));
  scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
    memref::StoreOp::create(b, total, args["dsink_partials"],
                            ValueRange{entry});
    scf::YieldOp::create(b);
  });
}

void QueryTileKernelBuilder::emitSinkGradient(gpu::GPUFuncOp func,
                                              const QueryTile &tile) {
  // Program (0, h, 0) of each head: a block-uniform branch (its barrier is
  // reached by the whole block or by none of it).
  Value zero = idx(0);
  Value owner = arith::AndIOp::create(
      b, cmp(arith::CmpIPredicate::eq, tile.qTile, zero),
      cmp(arith::CmpIPredicate::eq, tile.batch, zero));
  scf::IfOp::create(b, owner, [&](OpBuilder &, Location) {
    Value qTiles = gpu::GridDimOp::create(b, gpu::Dimension::x);
    Value batch = gpu::GridDimOp::create(b, gpu::Dimension::z);
    Value count = mul(batch, qTiles);
    auto loop = scf::ForOp::create(
        b, tid, count, idx(blockThreads), ValueRange{f32(0.0)},
        [&](OpBuilder &, Location, Value i, ValueRange sum) {
          Value entryBatch = divu(i, qTiles);
          Value entryTile = remu(i, qTiles);
          Value entry = add(
              mul(add(mul(entryBatch, tile.headsQ), tile.head), qTiles),
              entryTile);
          Value partial = memref::LoadOp::create(b, args["dsink_partials"],
                                                 ValueRange{entry});
          scf::YieldOp::create(b, fadd(sum[0], partial));
        });
    Value total = blockSumInOrder(func, loop.getResult(0));
    Value first = cmp(arith::CmpIPredicate::eq, tid, idx(0));
    scf::IfOp::create(b, first, [&](OpBuilder &, Location) {
      memref::StoreOp::create(b, arith::NegFOp::create(b, total),
                              args["grad_sinks"], ValueRange{tile.head});
      scf::YieldOp::create(b);
    });
    scf::YieldOp::create(b);
  });
}
