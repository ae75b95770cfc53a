//===- DqKernel.cpp - bwd_dq: dQ per query tile, P and dS recomputed ------===//
//
// The dQ kernel of dq-mode=recompute: one program per (query tile t =
// blockIdx.x, query head h = blockIdx.y, batch b = blockIdx.z), one warp per
// dqRowTiles m16 row tiles (16 or 32 query rows): each K, V fragment a warp
// loads feeds every row tile of it. Q and dO of the tile stay in shared
// memory, the LSE and Delta of the rows a thread's fragments hold stay in
// registers, and the
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
/// and Delta of the two rows (fragRow, fragRow + 8) of a thread in one m16
/// row tile.
struct RowStats {
  Value lse2[2], delta[2];
};

/// Fragments of a warp's row tiles: [rowTile][8-column block].
using RowTileFragments = SmallVector<SmallVector<Value>>;

/// The fragments of every row tile in one list, row tile by row tile.
SmallVector<Value> flatten(const RowTileFragments &tiles) {
  SmallVector<Value> flat;
  for (const SmallVector<Value> &rowTile : tiles)
    llvm::append_range(flat, rowTile);
  return flat;
}

/// `flat` (flatten's order) split into `rowTiles` row tiles.
RowTileFragments unflatten(ValueRange flat, int64_t rowTiles) {
  int64_t blocks = flat.size() / rowTiles;
  RowTileFragments tiles;
  for (int64_t mt = 0; mt < rowTiles; ++mt)
    tiles.emplace_back(flat.begin() + mt * blocks,
                       flat.begin() + (mt + 1) * blocks);
  return tiles;
}

class DqKernelBuilder : public QueryTileKernelBuilder {
public:
  /// Keys of one chunk of a key tile (BackwardKernelSpec::dqChunkKeys).
  int64_t chunkKeys() const { return spec.dqChunkKeys(); }

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
    warpRow0 = mul(warp, idx(sm80::kMmaM * spec.dqRowTiles));

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

  /// The query row of this thread's fragment row `i` (0: fragRow, 1: + 8)
  /// in the warp's row tile `mt`.
  Value threadRow(const QueryTile &tile, int64_t mt, int64_t i) {
    return add(tile.q0,
               add(warpRow0, add(fragRow, idx(sm80::kMmaM * mt + 8 * i))));
  }

  /// The row stats of each of the warp's row tiles.
  SmallVector<RowStats> loadRowStats(const QueryTile &tile) {
    Value lseBase = lseRowBase(tile.batch, tile.first, tile.head);
    Value rows0 = rowStatsBase(tile.batch, tile.first, tile.head, tile.headsQ,
                               tile.seqQ);
    SmallVector<RowStats> stats(spec.dqRowTiles);
    for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt) {
      for (int64_t i = 0; i < 2; ++i) {
        Value row = threadRow(tile, mt, i);
        Value inBounds = cmp(arith::CmpIPredicate::ult, row, tile.seqQ);
        std::tie(stats[mt].lse2[i], stats[mt].delta[i]) =
            loadRowStat(lseBase, rows0, row, inBounds);
      }
    }
    return stats;
  }

  /// Per row tile mt and 8-key block j of keys [key0, key0 + keys) of the
  /// tile: the warp's rows of `rows` (Q or dO in shared memory) against
  /// those keys of `keyRows` (K or V). A B fragment serves every row tile.
  /// Each is one ldmatrix x2: read in pairs (forEachB), the window-32
  /// kernel of the flax model spilled 20 bytes at 255 registers. Where the
  /// warp holds wide rows (BackwardKernelSpec::dqHoldsWideRows) they are
  /// read in pairs, which that layout needs to compile spill-free.
  RowTileFragments rowKeyProducts(Value rows, Value keyRows, Value stage,
                                  int64_t key0, int64_t keys) {
    RowTileFragments products(
        spec.dqRowTiles,
        SmallVector<Value>(keys / sm80::kMmaN, zeroAccumulator()));
    for (int64_t kk = 0; kk < spec.mmaHeadDim / sm80::kMmaK; ++kk) {
      Value col0 = idx(kk * sm80::kMmaK);
      SmallVector<Value> a;
      for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
        a.push_back(
            loadA(rows, add(warpRow0, idx(sm80::kMmaM * mt)), col0));
      auto use = [&](int64_t j, Value bFrag) {
        for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
          products[mt][j] = mma(a[mt], bFrag, products[mt][j]);
      };
      auto keyRow = [&](int64_t j) { return idx(key0 + j * sm80::kMmaN); };
      if (spec.dqHoldsWideRows()) {
        forEachB(keyRows, keyRow, col0, stage, keys / sm80::kMmaN, use);
      } else {
        for (int64_t j = 0; j < keys / sm80::kMmaN; ++j)
          use(j, loadB(keyRows, keyRow(j), col0, stage));
      }
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

  /// P of every row tile with the cells outside the band zeroed when `edge`
  /// holds; an interior visit branches around the mask (one branch for all
  /// row tiles).
  RowTileFragments emitBandMask(const RowTileFragments &p,
                                const QueryTile &tile, Value k0, Value edge) {
    // Cell (query, key) of this thread: query = q0 + warpRow0 + 16 mt +
    // lane / 4 + 8 i, key = k0 + 2 (lane % 4) + 8 j + e.
    auto makeTest = [&] {
      return BandCellTest(*this, spec.band, threadRow(tile, 0, 0),
                          add(k0, fragCol), delta, seqKv, /*narrow=*/true);
    };
    int64_t blocks = p.front().size();
    SmallVector<Value> masked = QueryTileKernelBuilder::emitBandMask(
        flatten(p), edge, makeTest, [&](int64_t f, int64_t i, int64_t e) {
          int64_t mt = f / blocks, j = f % blocks;
          return std::pair<int64_t, int64_t>(sm80::kMmaM * mt + 8 * i,
                                             j * sm80::kMmaN + e);
        });
    return unflatten(masked, p.size());
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

  /// S, P, dP, dS of key tile u (in `stage`) and dQ += dS K, for every row
  /// tile of the warp (dQ[mt][dn]).
  void emitKeyTileProducts(Value u, Value stage, Value edge,
                           const QueryTile &tile, ArrayRef<RowStats> stats,
                           RowTileFragments &dQ) {
    Value k0 = mul(u, idx(spec.tiles.kv));

    // The key tile in chunks of chunkKeys() keys, so that S and dP of a
    // chunk (32 registers each) sit beside dQ at any tile_kv.
    for (int64_t key0 = 0; key0 < spec.tiles.kv; key0 += chunkKeys()) {
      int64_t keys = std::min(chunkKeys(), spec.tiles.kv - key0);
      if (!spec.dqChunkSchedule) {
        emitChunkProducts(k0, key0, keys, stage, edge, tile, stats, dQ);
        continue;
      }
      // This warp's chunk c of key tile u is chunk u * (Tk / chunk) + c of
      // its own schedule: computed only if its rows see a key of it, masked
      // only if they do not all see it whole (docs/Semantics.md §3.8).
      // (One op per statement: the IR's order must not depend on the
      // compiler's order of evaluating arguments.)
      Value firstChunk = mul(u, idx(spec.tiles.kv / chunkKeys()));
      Value chunk = add(firstChunk, idx(key0 / chunkKeys()));
      std::pair<Value, Value> tests =
          emitVisitTests(b, b.getLoc(), chunkBounds, chunk);
      Value sees = tests.first, partly = tests.second;
      SmallVector<Value> unchanged = flatten(dQ);
      scf::IfOp ifOp = ifElse(sees, unchanged, [&] {
        emitChunkProducts(k0, key0, keys, stage, partly, tile, stats, dQ);
        return flatten(dQ);
      });
      dQ = unflatten(ifOp.getResults(), spec.dqRowTiles);
    }
  }

  /// S, P, dP, dS of keys [key0, key0 + keys) of the key tile at k0 (in
  /// `stage`), masked where `edge` holds, and dQ += dS K: S of the whole
  /// chunk, then dP, dS and dQ's products dqGradientKeys() keys at a time.
  void emitChunkProducts(Value k0, int64_t key0, int64_t keys, Value stage,
                         Value edge, const QueryTile &tile,
                         ArrayRef<RowStats> stats, RowTileFragments &dQ) {
    int64_t subKeys = std::min(spec.dqGradientKeys(), keys);
    RowTileFragments s = rowKeyProducts(qSmem, kSmem, stage, key0, keys);
    for (int64_t sub = 0; sub < keys; sub += subKeys) {
      RowTileFragments dS =
          rowKeyProducts(doSmem, vSmem, stage, key0 + sub, subKeys);
      RowTileFragments p;
      for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
        p.emplace_back(s[mt].begin() + sub / sm80::kMmaN,
                       s[mt].begin() + (sub + subKeys) / sm80::kMmaN);
      for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
        formProbabilitiesAndGradients(p[mt], dS[mt], stats[mt]);
      p = emitBandMask(p, tile, add(k0, idx(key0 + sub)), edge);
      for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
        for (int64_t j = 0; j < int64_t(p[mt].size()); ++j)
          for (int64_t i = 0; i < 2; ++i)
            for (int64_t e = 0; e < 2; ++e)
              dS[mt][j] = insert(
                  fmul(extract(p[mt][j], i, e), extract(dS[mt][j], i, e)),
                  dS[mt][j], i, e);

      // dQ += dS K: the keys are the reduction (K's rows, read transposed);
      // a K^T fragment serves every row tile. Two per ldmatrix where a warp
      // holds two row tiles: with one, ptxas 13.0 holds this kernel at 168
      // registers and the pair's second fragment spilled (d 80, 20 bytes).
      for (int64_t kq = 0; kq < subKeys / sm80::kMmaK; ++kq) {
        SmallVector<Value> a;
        for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
          a.push_back(accumulatorsToA(dS[mt][2 * kq], dS[mt][2 * kq + 1]));
        Value row0 = idx(key0 + sub + kq * sm80::kMmaK);
        forEachBTransposed(
            kSmem, row0, [&](int64_t dn) { return idx(dn * sm80::kMmaN); },
            stage, dQ.front().size(),
            [&](int64_t dn, Value bFrag) {
              for (int64_t mt = 0; mt < spec.dqRowTiles; ++mt)
                dQ[mt][dn] = mma(a[mt], bFrag, dQ[mt][dn]);
            },
            /*paired=*/spec.dqRowTiles > 1);
      }
    }
  }

  void emitStoreDq(const QueryTile &tile, const RowTileFragments &dQTiles) {
    Value dqBase = sliceBase("dq", tile.batch, tile.first, tile.head);
    Value dqStrideS = argIndex("dq_stride_s");
    auto pairType = VectorType::get({2}, spec.elementType);
    auto pairF32 = VectorType::get({2}, b.getF32Type());
    Value scale = vector::BroadcastOp::create(b, pairF32, f32(spec.scale));
    for (int64_t row2 = 0; row2 < 2 * spec.dqRowTiles; ++row2) {
      int64_t mt = row2 / 2, i = row2 % 2;
      ArrayRef<Value> dQ = dQTiles[mt];
      Value row = threadRow(tile, mt, i);
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
    SmallVector<RowStats> stats = loadRowStats(tile);
    kBase = sliceBase("k", tile.batch, kvFirst, kvHead);
    vBase = sliceBase("v", tile.batch, kvFirst, kvHead);
    kStrideS = argIndex("k_stride_s");
    vStrideS = argIndex("v_stride_s");

    // This warp's chunks (warp w of query tile t is tile t * warps + w of
    // dqChunkSchedule), with the forward kernel's clamps.
    if (spec.dqChunkSchedule) {
      Value warpTile = add(mul(tile.qTile, idx(spec.dqWarps())), warp);
      chunkBounds = emitForwardBounds(b, b.getLoc(), spec.dqChunkSchedule,
                                      BoundsPolicy::ForwardKernel, warpTile,
                                      tile.seqQ, seqKv);
    }
    // The key tiles of query tile t: exactly [kv_begin(t), kv_end(t)), the
    // unmasked interior inside (the forward's bounds and clamps).
    ForwardBounds bounds =
        emitForwardBounds(b, b.getLoc(), spec.schedule,
                          BoundsPolicy::ForwardKernel, tile.qTile, tile.seqQ,
                          seqKv);
    // dQ of the head dim's columns (its keys are the reduction: no padding),
    // per row tile, flattened [rowTile][8-column block] through the loop.
    int64_t dqBlocks = spec.headDim / sm80::kMmaN;
    SmallVector<Value> dQ(spec.dqRowTiles * dqBlocks, zeroAccumulator());
    auto fetch = [&](Value u, Value stage, Value enabled) -> FetchFinish {
      emitFetch(u, stage, enabled);
      return {};
    };
    auto compute = [&](Value u, Value stage,
                       ValueRange iterArgs) -> SmallVector<Value> {
      RowTileFragments acc = unflatten(iterArgs, spec.dqRowTiles);
      // An edge visit: u outside [interior_begin, interior_end).
      Value edge = emitOutsideInterior(b, b.getLoc(), bounds.interiorBegin,
                                       bounds.interiorEnd, u);
      emitKeyTileProducts(u, stage, edge, tile, stats, acc);
      return flatten(acc);
    };
    // (With an empty key range the walk's last wait lands Q and dO.)
    scf::ForOp loop = emitStreamedWalk(bounds.kvBegin, bounds.kvEnd,
                                       spec.keyStages, copyGroup, dQ, fetch,
                                       compute);
    loop->setAttr("sdpa.kv_loop", b.getUnitAttr());
    emitStoreDq(tile, unflatten(loop.getResults(), spec.dqRowTiles));
  }

  Value seqKv, kvFirst, kvHead, delta;
  Value warp, warpRow0, fragRow, fragCol;
  Value qSmem, doSmem, kSmem, vSmem;
  // The first copy group (Q): every wait names it.
  Value copyGroup;
  Value kBase, vBase, kStrideS, vStrideS;
  // With spec.dqChunkSchedule: this warp's chunks of its own schedule.
  ForwardBounds chunkBounds;
};

} // namespace

void mlir::sdpa::detail::buildDqKernel(ImplicitLocOpBuilder &b,
                                       const BackwardKernelSpec &spec,
                                       gpu::GPUFuncOp func) {
  DqKernelBuilder(b, spec).build(func);
}
