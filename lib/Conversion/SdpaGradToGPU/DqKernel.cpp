//===- DqKernel.cpp - bwd_dq: dQ per query tile, P and dS recomputed ------===//
//
// The dQ kernel of dq-mode=recompute: one program per (query tile t =
// blockIdx.x, query head h = blockIdx.y, batch b = blockIdx.z), one warp per
// 16 query rows. Q and dO of the tile stay in shared memory, the LSE and
// Delta of the two rows a thread's fragments hold stay in registers, and the
// program walks exactly the key tiles of the forward range
// [kv_begin(t), kv_end(t)) (emitForwardBounds) in ascending order. Per key
// tile u, with K and V of kv head h / (Hq / Hkv):
//
//   S  = Q K^T,  P = exp2(S * scale * log2(e) - LSE * log2(e))
//        (0 outside the band; LSE = -inf or a row past Sq gives 0)
//   dP = dO V^T, dS = P * (dP - Delta)    (with a cap c: S' = c tanh(scale
//        S / c) in P and dS times 1 - tanh^2, docs/Semantics.md §7)
//   dQ += dS K                            (registers, f32)
//
// and stores dQ * scale once. With two key stages (keyStages) the next key
// tile's K and V are fetched while the current one computes
// (emitStreamedWalk). There are no atomics and no workspace, and the sum
// over key tiles runs in one order: dQ is bitwise repeatable. The
// interior split is bwd_main's: visits of [kv_interior_begin(t),
// kv_interior_end(t)) (every row of the tile sees every key of the tile)
// branch around the cell mask.
//
// Packed sequences (thd): blockIdx.z is sequence i; a query tile at or past
// Sq_i has no rows and writes nothing. With sinks, program (0, h, 0) also
// sums head h's dsink partials in a fixed order (SinkGradient.cpp):
// bwd_preprocess wrote them before this launch.
//
//===----------------------------------------------------------------------===//

#include "QueryTileKernel.h"

#include "SdpaDialect/Conversion/BandCellTest.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

namespace {

/// The LSE (times log2(e); +inf where the row sees nothing or is past Sq)
/// and Delta of the two rows (fragRow, fragRow + 8) of a thread.
struct RowStats {
  Value lse2[2], delta[2];
};

class DqKernelBuilder : public QueryTileKernelBuilder {
public:
  /// Keys of one chunk of a key tile (tile_kv is a multiple of 16, so a
  /// chunk is too).
  static constexpr int64_t kChunkKeys = 64;

  DqKernelBuilder(ImplicitLocOpBuilder &b, const BackwardKernelSpec &spec)
      : QueryTileKernelBuilder(b, spec, spec.dqThreads()) {}

  void build(gpu::GPUFuncOp func) {
    QueryTile tile = bindQueryTile(func, BackwardRole::Dq);
    emitSetup(tile);
    if (!spec.packed) {
      emitProgram(tile);
    } else {
      // A tile at or past the sequence's end has no rows (block-uniform).
      Value inRange = cmp(arith::CmpIPredicate::ult, tile.q0, tile.seqQ);
      auto ifOp = scf::IfOp::create(b, inRange, [&](OpBuilder &, Location) {
        emitProgram(tile);
        scf::YieldOp::create(b);
      });
      ifOp->setAttr("sdpa.query_tile_in_sequence", b.getUnitAttr());
    }
    if (spec.sinks)
      emitSinkGradient(func, tile);
    gpu::ReturnOp::create(b);
  }

private:
  void emitSetup(const QueryTile &tile) {
    seqKv = argIndex("seq_kv");
    if (spec.packed)
      std::tie(kvFirst, seqKv) = loadSegment("cu_seqlens_kv", tile.batch);
    Value group = divu(tile.headsQ, argIndex("heads_kv"));
    kvHead = divu(tile.head, group);
    delta = spec.band.align == Alignment::BottomRight ? sub(seqKv, tile.seqQ)
                                                      : idx(0);
    warp = divu(tid, idx(sm80::kWarpSize));
    Value l = lane();
    fragRow = divu(l, idx(sm80::kQuadSize));
    fragCol = mul(remu(l, idx(sm80::kQuadSize)), idx(2));
    warpRow0 = mul(warp, idx(sm80::kMmaM));

    Type elem = spec.elementType;
    int64_t rowElems = spec.rowElems();
    qSmem = sharedView(spec.dqQOffset(), {spec.tiles.q, rowElems}, elem);
    doSmem = sharedView(spec.dqDoOffset(), {spec.tiles.q, rowElems}, elem);
    int64_t stages = spec.keyStages;
    kSmem =
        sharedView(spec.dqKOffset(), {stages, spec.tiles.kv, rowElems}, elem);
    vSmem =
        sharedView(spec.dqVOffset(), {stages, spec.tiles.kv, rowElems}, elem);
  }

  /// The query row of this thread's fragment row `i` (0: fragRow, 1: + 8).
  Value threadRow(const QueryTile &tile, int64_t i) {
    return add(tile.q0, add(warpRow0, add(fragRow, idx(8 * i))));
  }

  RowStats loadRowStats(const QueryTile &tile) {
    Value lseBase = lseRowBase(tile.batch, tile.first, tile.head);
    Value rows0 = rowStatsBase(tile.batch, tile.first, tile.head, tile.headsQ,
                               tile.seqQ);
    RowStats stats;
    for (int64_t i = 0; i < 2; ++i) {
      Value row = threadRow(tile, i);
      Value inBounds = cmp(arith::CmpIPredicate::ult, row, tile.seqQ);
      std::tie(stats.lse2[i], stats.delta[i]) =
          loadRowStat(lseBase, rows0, row, inBounds);
    }
    return stats;
  }

  /// Per 8-key block j of keys [key0, key0 + keys) of the tile: the warp's
  /// 16 rows of `rows` (Q or dO in shared memory) against those keys of
  /// `keyRows` (K or V).
  SmallVector<Value> rowKeyProducts(Value rows, Value keyRows, Value stage,
                                    int64_t key0, int64_t keys) {
    SmallVector<Value> products(keys / sm80::kMmaN, zeroAccumulator());
    for (int64_t kk = 0; kk < spec.mmaHeadDim / sm80::kMmaK; ++kk) {
      Value col0 = idx(kk * sm80::kMmaK);
      Value a = loadA(rows, warpRow0, col0);
      for (int64_t j = 0; j < int64_t(products.size()); ++j)
        products[j] =
            mma(a, loadB(keyRows, idx(key0 + j * sm80::kMmaN), col0, stage),
                products[j]);
    }
    return products;
  }

  /// P from the scores in `p` (in place) and dS from dP in `dP` (in place):
  /// dS = P (dP - Delta), with a cap times 1 - tanh^2.
  void formProbabilitiesAndGradients(SmallVectorImpl<Value> &p,
                                     SmallVectorImpl<Value> &dP,
                                     const RowStats &stats) {
    ProbabilityConstants constants = getProbabilityConstants();
    for (int64_t j = 0; j < int64_t(p.size()); ++j) {
      for (int64_t i = 0; i < 2; ++i) {
        Value negLse2 = arith::NegFOp::create(b, stats.lse2[i]);
        for (int64_t e = 0; e < 2; ++e) {
          Value s = extract(p[j], i, e);
          Value dPMinusDelta = fsub(extract(dP[j], i, e), stats.delta[i]);
          Value slope;
          Value prob = recomputeProbability(constants, s, negLse2, &slope);
          if (spec.softcap)
            dPMinusDelta = fmul(dPMinusDelta, slope);
          p[j] = insert(prob, p[j], i, e);
          dP[j] = insert(dPMinusDelta, dP[j], i, e);
        }
      }
    }
  }

  /// P with the cells outside the band zeroed when `edge` holds; an interior
  /// visit branches around the mask.
  SmallVector<Value> emitBandMask(ArrayRef<Value> p, const QueryTile &tile,
                                  Value k0, Value edge) {
    // Cell (query, key) of this thread: query = q0 + 16 warp + lane / 4 +
    // 8 i, key = k0 + 2 (lane % 4) + 8 j + e.
    auto makeTest = [&] {
      return BandCellTest(*this, spec.band, threadRow(tile, 0),
                          add(k0, fragCol), delta, seqKv, /*narrow=*/true);
    };
    return QueryTileKernelBuilder::emitBandMask(
        p, edge, makeTest, [](int64_t j, int64_t i, int64_t e) {
          return std::pair<int64_t, int64_t>(8 * i, j * sm80::kMmaN + e);
        });
  }

  /// Issues the copies of key tile `u`'s K and V into `stage` (zero-filled
  /// unless `enabled`).
  void emitFetch(Value u, Value stage, Value enabled) {
    Value k0 = mul(u, idx(spec.tiles.kv));
    copyTileAsync(args["k"], kBase, kStrideS, k0, seqKv, kSmem, spec.tiles.kv,
                  stage, enabled);
    copyTileAsync(args["v"], vBase, vStrideS, k0, seqKv, vSmem, spec.tiles.kv,
                  stage, enabled);
  }

  /// S, P, dP, dS of key tile u (in `stage`) and dQ += dS K.
  void emitKeyTileProducts(Value u, Value stage, Value edge,
                           const QueryTile &tile, const RowStats &stats,
                           SmallVectorImpl<Value> &dQ) {
    Value k0 = mul(u, idx(spec.tiles.kv));

    // The key tile in chunks of kChunkKeys keys, so that S and dP of a
    // chunk (kChunkKeys / 2 registers each) sit beside dQ at any tile_kv.
    for (int64_t key0 = 0; key0 < spec.tiles.kv; key0 += kChunkKeys) {
      int64_t keys = std::min(kChunkKeys, spec.tiles.kv - key0);
      SmallVector<Value> p = rowKeyProducts(qSmem, kSmem, stage, key0, keys);
      SmallVector<Value> dS = rowKeyProducts(doSmem, vSmem, stage, key0, keys);
      formProbabilitiesAndGradients(p, dS, stats);
      p = emitBandMask(p, tile, add(k0, idx(key0)), edge);
      for (int64_t j = 0; j < int64_t(p.size()); ++j)
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t e = 0; e < 2; ++e)
            dS[j] = insert(fmul(extract(p[j], i, e), extract(dS[j], i, e)),
                           dS[j], i, e);

      // dQ += dS K: the keys are the reduction (K's rows, read transposed).
      for (int64_t kq = 0; kq < keys / sm80::kMmaK; ++kq) {
        Value a = accumulatorsToA(dS[2 * kq], dS[2 * kq + 1]);
        Value row0 = idx(key0 + kq * sm80::kMmaK);
        for (int64_t dn = 0; dn < int64_t(dQ.size()); ++dn)
          dQ[dn] = mma(
              a, loadBTransposed(kSmem, row0, idx(dn * sm80::kMmaN), stage),
              dQ[dn]);
      }
    }
  }

  void emitStoreDq(const QueryTile &tile, ArrayRef<Value> dQ) {
    Value dqBase = sliceBase("dq", tile.batch, tile.first, tile.head);
    Value dqStrideS = argIndex("dq_stride_s");
    auto pairType = VectorType::get({2}, spec.elementType);
    auto pairF32 = VectorType::get({2}, b.getF32Type());
    Value scale = vector::BroadcastOp::create(b, pairF32, f32(spec.scale));
    for (int64_t i = 0; i < 2; ++i) {
      Value row = threadRow(tile, i);
      Value live = cmp(arith::CmpIPredicate::ult, row, tile.seqQ);
      scf::IfOp::create(b, live, [&](OpBuilder &, Location) {
        Value rowBase = add(dqBase, mul(row, dqStrideS));
        for (int64_t dn = 0; dn < int64_t(dQ.size()); ++dn) {
          Value col = add(idx(dn * sm80::kMmaN), fragCol);
          Value pair =
              vector::ExtractOp::create(b, dQ[dn], ArrayRef<int64_t>{i});
          pair = arith::MulFOp::create(b, pair, scale);
          Value narrow = arith::TruncFOp::create(b, pairType, pair);
          // A pair at an even column of a 16-byte aligned row: 4 bytes.
          vector::StoreOp::create(b, narrow, args["dq"],
                                  ValueRange{add(rowBase, col)},
                                  /*nontemporal=*/false, llvm::MaybeAlign(4));
        }
        scf::YieldOp::create(b);
      });
    }
  }

  void emitProgram(const QueryTile &tile) {
    // Q and dO of the tile, once (zero past Sq); the row statistics.
    Value qBase = sliceBase("q", tile.batch, tile.first, tile.head);
    // (A wait counts groups: any token names them.)
    copyGroup = copyTileAsync(args["q"], qBase, argIndex("q_stride_s"),
                              tile.q0, tile.seqQ, qSmem, spec.tiles.q);
    Value doBase = sliceBase("do", tile.batch, tile.first, tile.head);
    copyTileAsync(args["do"], doBase, argIndex("do_stride_s"), tile.q0,
                  tile.seqQ, doSmem, spec.tiles.q);
    RowStats stats = loadRowStats(tile);
    kBase = sliceBase("k", tile.batch, kvFirst, kvHead);
    vBase = sliceBase("v", tile.batch, kvFirst, kvHead);
    kStrideS = argIndex("k_stride_s");
    vStrideS = argIndex("v_stride_s");

    // The key tiles of query tile t: exactly [kv_begin(t), kv_end(t)), the
    // unmasked interior inside (the forward's bounds and clamps).
    ForwardBounds bounds =
        emitForwardBounds(b, b.getLoc(), spec.schedule,
                          BoundsPolicy::ForwardKernel, tile.qTile, tile.seqQ,
                          seqKv);
    // dQ of the head dim's columns (its keys are the reduction: no padding).
    SmallVector<Value> dQ(spec.headDim / sm80::kMmaN, zeroAccumulator());
    auto fetch = [&](Value u, Value stage, Value enabled) -> FetchFinish {
      emitFetch(u, stage, enabled);
      return {};
    };
    auto compute = [&](Value u, Value stage,
                       ValueRange iterArgs) -> SmallVector<Value> {
      SmallVector<Value> acc(iterArgs);
      // An edge visit: u outside [interior_begin, interior_end). (One op per
      // statement: the IR's order must not depend on the compiler's
      // argument order.)
      Value below = cmp(arith::CmpIPredicate::ult, u, bounds.interiorBegin);
      Value above = cmp(arith::CmpIPredicate::uge, u, bounds.interiorEnd);
      Value edge = arith::OrIOp::create(b, below, above);
      emitKeyTileProducts(u, stage, edge, tile, stats, acc);
      return acc;
    };
    // (With an empty key range the walk's last wait lands Q and dO.)
    scf::ForOp loop = emitStreamedWalk(bounds.kvBegin, bounds.kvEnd,
                                       spec.keyStages, copyGroup, dQ, fetch,
                                       compute);
    loop->setAttr("sdpa.kv_loop", b.getUnitAttr());
    emitStoreDq(tile, SmallVector<Value>(loop.getResults()));
  }

  Value seqKv, kvFirst, kvHead, delta;
  Value warp, warpRow0, fragRow, fragCol;
  Value qSmem, doSmem, kSmem, vSmem;
  // The first copy group (Q): every wait names it.
  Value copyGroup;
  Value kBase, vBase, kStrideS, vStrideS;
};

} // namespace

void mlir::sdpa::detail::buildDqKernel(ImplicitLocOpBuilder &b,
                                       const BackwardKernelSpec &spec,
                                       gpu::GPUFuncOp func) {
  DqKernelBuilder(b, spec).build(func);
}
