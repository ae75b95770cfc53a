//===- MainKernel.cpp - The backward kv-tile program ----------------------===//
//
// One program per (key tile u = blockIdx.x, kv head = blockIdx.y, batch =
// blockIdx.z), one warp per 16 keys of the tile (two above mma width 128,
// one per half of the dK and dV columns, whose visits are split in two
// phases: BackwardKernelSpec::columnGroups), or per 32 keys (two m16 key
// row tiles, BackwardKernelSpec::keyRowTiles: each Q and dO fragment read
// from shared memory feeds both). K and V stay in shared
// memory; for each query head of the kv head's group (in ascending order,
// so dK and dV are deterministic) the program walks exactly its query tiles
// [q_begin(u), q_end(u)) (emitBackwardBounds) in descending order, and per
// tile t:
//
//   S^T  = K Q^T,  P^T = exp2(S^T * scale * log2(e) - LSE * log2(e))
//          (0 outside the band; LSE = -inf gives 0)
//   dP^T = V dO^T, dS^T = P^T * (dP^T - Delta)
//   dV  += P^T dO,  dK += dS^T Q          (registers, f32)
//   dQ  += scale * dS K                   (Relay.cpp)
//
// and stores dK * scale and dV once (zero when the range is empty).
//
// The walk is one loop over the visits n = 0, 1, ... of every query head
// (head n / count, tile q_end - 1 - n mod count, count = q_end - q_begin).
// With two query stages (BackwardKernelSpec::queryStages) the next visit's
// Q and dO copies and row-stat loads are issued right after the barrier
// that ends the previous visit, and land while this one computes.
//
// Interior split: the visits of [q_interior_begin(u), q_interior_end(u))
// need no mask (every row sees every key of the full key tile; rows past Sq
// get P = 0 from their row stats), so the per-cell mask sits in a branch that
// only edge visits take. The branch is uniform over the block and the loop
// stays one loop: three loops (edge, interior, edge) were measured to raise
// the kernel from 168 to 241 registers at d = 64 (ptxas 13.0), which would
// cost a third of its occupancy.
//
// Packed sequences (thd): blockIdx.z is sequence i; its first tokens and
// lengths Sq_i, Skv_i come from cu_seqlens_q/kv, and the bounds, the band
// (delta = Skv_i - Sq_i for bottom-right) and the relay turn use Sq_i, Skv_i.
// The grid spans the longest sequence: a program whose key tile starts at or
// past Skv_i returns before any write (no key of it exists); one whose tile
// is in range but whose query range is empty still stores zero dK, dV.
//
// Why descending: the relay adds the partials of query tile t in ascending
// key-tile order, so program u's visit of t waits for program u-1's. In
// descending order u-1 reaches t q_end(u) - q_end(u-1) visits *before* u
// does (Tk/Tq visits for a window), so neighbours run in step and nobody
// waits; ascending, u reaches t that many visits before u-1, and every
// program trails its predecessor by Tk/Tq + 1 visits: a wavefront that
// serialises the whole sequence (4-5x slower, bench/RESULTS.md). Deadlock
// freedom is unchanged: the lowest unfinished program never waits.
//
//===----------------------------------------------------------------------===//

#include "MainKernel.h"

#include "SdpaDialect/Conversion/BandCellTest.h"

#include "SdpaDialect/Utils/ScheduleBounds.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"


using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

SmallVector<Value> GradAccumulators::flatten() const {
  SmallVector<Value> values(dK);
  llvm::append_range(values, dV);
  return values;
}

GradAccumulators GradAccumulators::unflatten(ValueRange values) {
  GradAccumulators acc;
  size_t half = values.size() / 2;
  acc.dK.assign(values.begin(), values.begin() + half);
  acc.dV.assign(values.begin() + half, values.end());
  return acc;
}

void MainKernelBuilder::emitSetup() {
  seqQMax = seqQ = argIndex("seq_q");
  seqKv = argIndex("seq_kv");
  headsQ = argIndex("heads_q");
  headsKv = argIndex("heads_kv");
  group = divu(headsQ, headsKv);
  kvTile = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  kvHead = gpu::BlockIdOp::create(b, gpu::Dimension::y);
  batch = gpu::BlockIdOp::create(b, gpu::Dimension::z);
  if (spec.packed) {
    std::tie(qFirst, seqQ) = loadSegment("cu_seqlens_q", batch);
    std::tie(kvFirst, seqKv) = loadSegment("cu_seqlens_kv", batch);
  }
  k0 = mul(kvTile, idx(spec.tiles.kv));
  warp = divu(tid, idx(sm80::kWarpSize));
  Value l = lane();
  fragRow = divu(l, idx(sm80::kQuadSize));
  Value two = idx(2);
  Value quadLane = remu(l, idx(sm80::kQuadSize));
  fragCol = mul(quadLane, two);
  if (spec.splitsVisit()) {
    Value blocks = idx(spec.keyBlocks());
    keyBlock = remu(warp, blocks);
    columnGroup = divu(warp, blocks);
    partQuery0 = mul(columnGroup, idx(spec.partQueries()));
    groupColumn0 = mul(columnGroup, idx(spec.groupBlocks() * sm80::kMmaN));
  } else {
    keyBlock = warp;
  }
  delta = spec.band.align == Alignment::BottomRight ? sub(seqKv, seqQ)
                                                    : idx(0);
  qStrideS = argIndex("q_stride_s");
  doStrideS = argIndex("do_stride_s");

  Type elem = spec.elementType, f32Type = b.getF32Type();
  int64_t rowElems = spec.rowElems();
  kSmem = sharedView(spec.kOffset(), {spec.tiles.kv, rowElems}, elem);
  vSmem = sharedView(spec.vOffset(), {spec.tiles.kv, rowElems}, elem);
  int64_t stages = spec.queryStages;
  qSmem = sharedView(spec.qOffset(), {stages, spec.tiles.q, rowElems}, elem);
  doSmem = sharedView(spec.doOffset(), {stages, spec.tiles.q, rowElems}, elem);
  if (!spec.recomputesDq())
    dsSmem = sharedView(spec.dsOffset(), {spec.tiles.q, spec.dsRowElems()},
                        elem);
  lseSmem = sharedView(spec.lseOffset(), {stages, spec.tiles.q}, f32Type);
  deltaSmem = sharedView(spec.deltaOffset(), {stages, spec.tiles.q}, f32Type);
  if (spec.splitsVisit()) {
    int64_t rows = spec.tiles.kv, cols = spec.transposedRowElems();
    pTSmem = sharedView(spec.pTransposedOffset(), {rows, cols}, elem);
    dsTSmem = sharedView(spec.dsTransposedOffset(), {rows, cols}, elem);
  }
}

QueryHeadBases MainKernelBuilder::emitQueryHeadBases(Value head) {
  QueryHeadBases bases;
  bases.head = head;
  bases.q = sliceBase("q", batch, qFirst, head);
  bases.dO = sliceBase("do", batch, qFirst, head);
  bases.lse = lseRowBase(batch, qFirst, head);
  bases.rowStats = rowStatsBase(batch, qFirst, head, headsQ, seqQ);
  bases.dqAccum = mul(bases.rowStats, idx(spec.headDim));
  // One counter per (sequence, query head, query tile of the longest).
  Value bh = add(mul(batch, headsQ), head);
  if (spec.usesRelay())
    bases.counters =
        mul(bh, arith::CeilDivUIOp::create(b, seqQMax, idx(spec.tiles.q)));
  return bases;
}

QueryVisit MainKernelBuilder::emitVisit(Value n, Value count,
                                        const BackwardBounds &bounds) {
  QueryVisit visit;
  Value headInGroup = divu(n, count);
  Value i = remu(n, count);
  visit.bases = emitQueryHeadBases(add(mul(kvHead, group), headInGroup));
  visit.t = descending(i, bounds.qEnd);
  visit.q0 = mul(visit.t, idx(spec.tiles.q));
  return visit;
}

PendingRowStats MainKernelBuilder::emitFetch(const QueryVisit &visit,
                                             Value stage, Value enabled) {
  copyTileAsync(args["q"], visit.bases.q, qStrideS, visit.q0, seqQ, qSmem,
                spec.tiles.q, stage, enabled);
  copyTileAsync(args["do"], visit.bases.dO, doStrideS, visit.q0, seqQ, doSmem,
                spec.tiles.q, stage, enabled);
  // Thread r of a round fetches row r of it; the loads stay in flight until
  // storeRowStats (a disabled fetch names a valid row and is never read).
  PendingRowStats stats;
  Type f32Type = b.getF32Type();
  for (int64_t r0 = 0; r0 < spec.tiles.q; r0 += spec.threads()) {
    Value r = add(tid, idx(r0));
    Value live = cmp(arith::CmpIPredicate::ult, r, idx(spec.tiles.q));
    auto ifOp = scf::IfOp::create(
        b, TypeRange{f32Type, f32Type}, live, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value row = add(visit.q0, r);
      Value inBounds = cmp(arith::CmpIPredicate::ult, row, seqQ);
      auto [lse2, rowDelta] =
          loadRowStat(visit.bases.lse, visit.bases.rowStats, row, inBounds);
      scf::YieldOp::create(b, ValueRange{lse2, rowDelta});
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value zero = f32(0.0);
      scf::YieldOp::create(b, ValueRange{zero, zero});
    }
    stats.lse2.push_back(ifOp.getResult(0));
    stats.delta.push_back(ifOp.getResult(1));
  }
  return stats;
}

void MainKernelBuilder::storeRowStats(const PendingRowStats &stats,
                                      Value stage) {
  for (size_t round = 0; round < stats.lse2.size(); ++round) {
    Value lse2 = stats.lse2[round];
    Value r = add(tid, idx(int64_t(round) * spec.threads()));
    Value live = cmp(arith::CmpIPredicate::ult, r, idx(spec.tiles.q));
    scf::IfOp::create(b, live, [&](OpBuilder &, Location) {
      memref::StoreOp::create(b, lse2, lseSmem, ValueRange{stage, r});
      memref::StoreOp::create(b, stats.delta[round], deltaSmem,
                              ValueRange{stage, r});
      scf::YieldOp::create(b);
    });
  }
}

SmallVector<Value> MainKernelBuilder::keyRowProducts(Value keyRows,
                                                     Value rows,
                                                     Value stage) {
  // The reduction over head_dim is the outer loop, beside the part's
  // queries / 8 independent accumulator chains: one A fragment of the
  // warp's keys is live at a time (not head_dim / 4 registers: 64 x 128
  // tiles fit at d 128).
  int64_t kBlocks = spec.mmaHeadDim / sm80::kMmaK;
  int64_t blocks = queryBlocks();
  SmallVector<Value> products(spec.keyRowTiles * blocks, zeroAccumulator());
  for (int64_t kk = 0; kk < kBlocks; ++kk) {
    Value col0 = idx(kk * sm80::kMmaK);
    SmallVector<Value> a;
    for (int64_t r = 0; r < spec.keyRowTiles; ++r)
      a.push_back(loadA(keyRows, warpKeyRow0(r), col0));
    forEachB(
        rows, [&](int64_t j) { return queryLocal(j); }, col0, stage, blocks,
        [&](int64_t j, Value bFrag) {
          for (int64_t r = 0; r < spec.keyRowTiles; ++r)
            products[r * blocks + j] =
                mma(a[r], bFrag, products[r * blocks + j]);
        });
  }
  return products;
}

SmallVector<Value> MainKernelBuilder::emitBandMask(ArrayRef<Value> p,
                                                   Value q0, Value edge) {
  // Cell (query, key) of this thread in fragment (r, j): query = q0 +
  // q_part + 2 (lane % 4) + 8 j + e, key = k0 + warpKeyRow0(0) + 16 r +
  // lane / 4 + 8 i (q_part = 0 unless the visit is split).
  //
  // Keys past Skv need no test where bwd_dq forms dQ: K and V are zero
  // there, and such a key's P and dS reach only its own rows of dV and dK
  // (the products' rows are keys), which are never stored. Where this
  // kernel adds dS K into dQ they must be zero: P = exp2(-LSE log2(e)) of a
  // zero score overflows for a row whose LSE is below about -88, and
  // inf * 0 is NaN.
  Value keyLimit = spec.recomputesDq() ? Value() : seqKv;
  auto makeTest = [&] {
    Value keyLocal0 = threadKeyRow0();
    Value threadKey = add(k0, keyLocal0);
    Value threadQuery =
        add(partQuery0 ? add(q0, partQuery0) : q0, fragCol);
    return BandCellTest(*this, spec.band, threadQuery, threadKey, delta,
                        keyLimit, /*narrow=*/true);
  };
  int64_t blocks = queryBlocks();
  return KernelBuilderBase::emitBandMask(
      p, edge, makeTest, [&](int64_t rj, int64_t i, int64_t e) {
        int64_t r = rj / blocks, j = rj % blocks;
        return std::pair<int64_t, int64_t>(j * sm80::kMmaN + e,
                                           sm80::kMmaM * r + 8 * i);
      });
}

Value MainKernelBuilder::statsPair(Value smem, Value stage, int64_t j) {
  auto pairF32 = VectorType::get({2}, b.getF32Type());
  Value qPair = add(queryLocal(j), fragCol);
  return vector::LoadOp::create(b, pairF32, smem, ValueRange{stage, qPair});
}

/// P^T = exp2(S^T * scale * log2(e) - LSE * log2(e)), one fma per cell,
/// with the row stats of this thread's two query columns (8-byte loads).
/// With a cap c the forward's scores were S' = c tanh(scale S / c), so
///
///   P^T = exp2(tanh(S^T scale / c) * c log2(e) - LSE log2(e))
///
/// and the chain rule through the cap scales dS by dS'/dS = 1 - tanh^2
/// (docs/Semantics.md §7): dP^T is replaced by (dP^T - Delta)(1 - tanh^2)
/// here, while tanh is at hand, so that dS^T = P^T * dP^T below.
void MainKernelBuilder::recomputeProbabilities(SmallVectorImpl<Value> &p,
                                               SmallVectorImpl<Value> &dP,
                                               Value stage) {
  ProbabilityConstants constants = getProbabilityConstants();
  bool capped = spec.softcap.has_value();
  int64_t blocks = queryBlocks();
  for (int64_t j = 0; j < blocks; ++j) {
    Value lsePair = statsPair(lseSmem, stage, j);
    Value deltaPair = capped ? statsPair(deltaSmem, stage, j) : Value();
    for (int64_t e = 0; e < 2; ++e) {
      Value negLse2 = arith::NegFOp::create(
          b, vector::ExtractOp::create(b, lsePair, ArrayRef<int64_t>{e}));
      Value rowDelta =
          capped ? vector::ExtractOp::create(b, deltaPair, ArrayRef<int64_t>{e})
                 : Value();
      for (int64_t r = 0; r < spec.keyRowTiles; ++r) {
        int64_t rj = r * blocks + j;
        for (int64_t i = 0; i < 2; ++i) {
          Value slope;
          Value prob = recomputeProbability(constants, extract(p[rj], i, e),
                                            negLse2, capped ? &slope : nullptr);
          p[rj] = insert(prob, p[rj], i, e);
          if (!capped)
            continue;
          Value dPMinusDelta = fsub(extract(dP[rj], i, e), rowDelta);
          dP[rj] = insert(fmul(dPMinusDelta, slope), dP[rj], i, e);
        }
      }
    }
  }
}

Value MainKernelBuilder::queryLocal(int64_t j) {
  Value offset = idx(j * sm80::kMmaN);
  return partQuery0 ? add(partQuery0, offset) : offset;
}

Value MainKernelBuilder::columnBlock0(int64_t dn) {
  Value offset = idx(dn * sm80::kMmaN);
  return groupColumn0 ? add(groupColumn0, offset) : offset;
}

int64_t MainKernelBuilder::queryBlocks() const {
  return spec.sliceQueries() / sm80::kMmaN;
}

Value MainKernelBuilder::warpKeyRow0(int64_t r) {
  Value row0 = mul(keyBlock, idx(spec.warpKeys()));
  return r == 0 ? row0 : add(row0, idx(sm80::kMmaM * r));
}

Value MainKernelBuilder::threadKeyRow0(int64_t r) {
  return add(warpKeyRow0(r), fragRow);
}

void MainKernelBuilder::storeTransposed(ArrayRef<Value> frags, Value smem) {
  // Element (i, e) of fragment j: key 16 keyBlock + lane / 4 + 8 i, query
  // q_part + 8 j + 2 (lane % 4) + e; e = 0, 1 are adjacent in a row.
  auto pairType = VectorType::get({2}, spec.elementType);
  Value keyLocal0 = threadKeyRow0();
  for (auto [j, frag] : llvm::enumerate(frags)) {
    Value query = add(queryLocal(j), fragCol);
    for (int64_t i = 0; i < 2; ++i) {
      Value key = add(keyLocal0, idx(8 * i));
      Value row = vector::ExtractOp::create(b, frag, ArrayRef<int64_t>{i});
      Value pair = arith::TruncFOp::create(b, pairType, row);
      vector::StoreOp::create(b, pair, smem, ValueRange{key, query},
                              /*nontemporal=*/false, llvm::MaybeAlign(4));
    }
  }
}

void MainKernelBuilder::emitGroupGradients(Value stage,
                                           GradAccumulators &acc) {
  // dV += P^T dO, dK += dS^T Q over every query of the tile (the
  // reduction) and the group's columns; one A fragment of P^T and of dS^T
  // serves the group's column blocks.
  Value keyRow0 = warpKeyRow0();
  for (int64_t kq = 0; kq < spec.tiles.q / sm80::kMmaK; ++kq) {
    Value query0 = idx(kq * sm80::kMmaK);
    Value aP = loadA(pTSmem, keyRow0, query0);
    Value aS = loadA(dsTSmem, keyRow0, query0);
    accumulateGradients({aP}, {aS}, query0, stage, acc);
  }
}

void MainKernelBuilder::accumulateGradients(ArrayRef<Value> aP,
                                            ArrayRef<Value> aS, Value query0,
                                            Value stage,
                                            GradAccumulators &acc) {
  auto col0 = [&](int64_t dn) { return columnBlock0(dn); };
  int64_t blocks = spec.groupBlocks();
  auto accumulate = [&](Value smem, ArrayRef<Value> a,
                        SmallVectorImpl<Value> &sums) {
    forEachBTransposed(smem, query0, col0, stage, blocks,
                       [&](int64_t dn, Value bFrag) {
                         for (auto [r, aFrag] : llvm::enumerate(a))
                           sums[r * blocks + dn] =
                               mma(aFrag, bFrag, sums[r * blocks + dn]);
                       });
  };
  accumulate(doSmem, aP, acc.dV);
  accumulate(qSmem, aS, acc.dK);
}

void MainKernelBuilder::emitQueryTileStep(const QueryVisit &visit,
                                          Value stage, Value edge,
                                          GradAccumulators &acc) {
  // Two key row tiles form the tile's products a slice of queries at a
  // time (BackwardKernelSpec::querySlices), in a loop (unrolled, ptxas 13.0
  // spilled: each slice's shared addresses stayed live): partQuery0 names
  // the slice.
  if (spec.querySlices() == 1) {
    emitQuerySliceStep(visit, stage, edge, acc);
  } else {
    auto loop = scf::ForOp::create(
        b, idx(0), idx(spec.partQueries()), idx(spec.sliceQueries()),
        acc.flatten(),
        [&](OpBuilder &nested, Location, Value slice0, ValueRange iterArgs) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          partQuery0 = slice0;
          GradAccumulators sliceAcc = GradAccumulators::unflatten(iterArgs);
          emitQuerySliceStep(visit, stage, edge, sliceAcc);
          scf::YieldOp::create(b, sliceAcc.flatten());
        });
    loop->setAttr("sdpa.query_slice_loop", b.getUnitAttr());
    partQuery0 = Value();
    acc = GradAccumulators::unflatten(loop.getResults());
  }

  // The dQ partial (every column) from the whole dS tile in shared memory
  // (complete after a split visit's barrier); bwd_dq recomputes dQ instead.
  if (spec.recomputesDq())
    return;
  if (!spec.splitsVisit())
    gpu::BarrierOp::create(b);
  emitDqUpdate(visit.t, visit.q0, visit.bases);
}

void MainKernelBuilder::emitQuerySliceStep(const QueryVisit &visit,
                                           Value stage, Value edge,
                                           GradAccumulators &acc) {
  Value q0 = visit.q0;
  int64_t blocks = queryBlocks();
  SmallVector<Value> s = keyRowProducts(kSmem, qSmem, stage);
  SmallVector<Value> dP = keyRowProducts(vSmem, doSmem, stage);

  SmallVector<Value> p(s);
  recomputeProbabilities(p, dP, stage);
  // Zero outside the band, on edge visits only.
  p = emitBandMask(p, q0, edge);

  // dS^T = P^T * (dP^T - Delta) in place of dP^T; dS * scale to shared
  // memory for the dQ product.
  Value scale = f32(spec.scale);
  SmallVector<Value> dS(dP);
  for (int64_t j = 0; j < blocks; ++j) {
    Value deltaPair = statsPair(deltaSmem, stage, j);
    for (int64_t e = 0; e < 2; ++e) {
      Value qInBlock = add(fragCol, idx(e));
      Value qLocal = add(queryLocal(j), qInBlock);
      Value rowDelta =
          vector::ExtractOp::create(b, deltaPair, ArrayRef<int64_t>{e});
      for (int64_t r = 0; r < spec.keyRowTiles; ++r) {
        int64_t rj = r * blocks + j;
        for (int64_t i = 0; i < 2; ++i) {
          // With a softcap dP already holds (dP - Delta) (1 - tanh^2).
          Value dPMinusDelta = spec.softcap
                                   ? extract(dP[rj], i, e)
                                   : fsub(extract(dP[rj], i, e), rowDelta);
          Value grad = fmul(extract(p[rj], i, e), dPMinusDelta);
          dS[rj] = insert(grad, dS[rj], i, e);
          if (spec.recomputesDq())
            continue; // bwd_dq forms dQ: no dS tile in shared memory
          Value keyLocal = add(threadKeyRow0(r), idx(8 * i));
          Value scaled =
              arith::TruncFOp::create(b, spec.elementType, fmul(grad, scale));
          memref::StoreOp::create(b, scaled, dsSmem,
                                  ValueRange{qLocal, keyLocal});
        }
      }
    }
  }

  if (spec.splitsVisit()) {
    // P^T and dS^T of the key block's queries come from its warps.
    storeTransposed(p, pTSmem);
    storeTransposed(dS, dsTSmem);
    gpu::BarrierOp::create(b);
    emitGroupGradients(stage, acc);
  } else {
    // dV += P^T dO, dK += dS^T Q (the slice's queries are the reduction),
    // over every column, P^T and dS^T from this warp's registers.
    for (int64_t kq = 0; kq < blocks / 2; ++kq) {
      SmallVector<Value> aP, aS;
      for (int64_t r = 0; r < spec.keyRowTiles; ++r) {
        int64_t rj = r * blocks + 2 * kq;
        aP.push_back(accumulatorsToA(p[rj], p[rj + 1]));
        aS.push_back(accumulatorsToA(dS[rj], dS[rj + 1]));
      }
      accumulateGradients(aP, aS, queryLocal(2 * kq), stage, acc);
    }
  }
}

void MainKernelBuilder::emitStoreGradients(const GradAccumulators &acc) {
  int64_t blocks = spec.groupBlocks();
  Value dkBase = sliceBase("dk", batch, kvFirst, kvHead);
  Value dvBase = sliceBase("dv", batch, kvFirst, kvHead);
  Value dkStrideS = argIndex("dk_stride_s"), dvStrideS = argIndex("dv_stride_s");
  auto pairType = VectorType::get({2}, spec.elementType);
  auto pairF32 = VectorType::get({2}, b.getF32Type());
  Value scale = vector::BroadcastOp::create(b, pairF32, f32(spec.scale));
  for (int64_t ri = 0; ri < 2 * spec.keyRowTiles; ++ri) {
    int64_t r = ri / 2, i = ri % 2;
    Value key = add(k0, add(threadKeyRow0(r), idx(8 * i)));
    Value live = cmp(arith::CmpIPredicate::ult, key, seqKv);
    scf::IfOp::create(b, live, [&](OpBuilder &, Location) {
      // The columns past the head dim (zero) are not stored: a group's
      // column block is tested when the mma width pads the head dim.
      int64_t storedEnd = blocks;
      if (!spec.splitsVisit())
        storedEnd = std::min(blocks, spec.headDim / sm80::kMmaN);
      bool testColumns = spec.splitsVisit() && spec.mmaHeadDim != spec.headDim;
      for (int64_t dn = 0; dn < storedEnd; ++dn) {
        Value block0 = columnBlock0(dn);
        auto storeBlock = [&] {
          Value col = add(block0, fragCol);
          Value dk = vector::ExtractOp::create(b, acc.dK[r * blocks + dn],
                                               ArrayRef<int64_t>{i});
          dk = arith::MulFOp::create(b, dk, scale);
          Value dv = vector::ExtractOp::create(b, acc.dV[r * blocks + dn],
                                               ArrayRef<int64_t>{i});
          // One statement per op: the IR's order must not depend on the
          // compiler's order of evaluating arguments.
          Value dkAt = add(dkBase, add(mul(key, dkStrideS), col));
          Value dkPair = arith::TruncFOp::create(b, pairType, dk);
          // A pair at an even column of a 16-byte aligned row: one 4-byte
          // store (unaligned, LLVM split it into two 2-byte stores).
          vector::StoreOp::create(b, dkPair, args["dk"], ValueRange{dkAt},
                                  /*nontemporal=*/false, llvm::MaybeAlign(4));
          Value dvAt = add(dvBase, add(mul(key, dvStrideS), col));
          Value dvPair = arith::TruncFOp::create(b, pairType, dv);
          vector::StoreOp::create(b, dvPair, args["dv"], ValueRange{dvAt},
                                  /*nontemporal=*/false, llvm::MaybeAlign(4));
        };
        if (!testColumns) {
          storeBlock();
          continue;
        }
        Value stored = cmp(arith::CmpIPredicate::ult, block0, idx(spec.headDim));
        scf::IfOp::create(b, stored, [&](OpBuilder &, Location) {
          storeBlock();
          scf::YieldOp::create(b);
        });
      }
      scf::YieldOp::create(b);
    });
  }
}

/// The query tile of step `i` (0, 1, ...) of a walk down from `end`:
/// end - 1 - i.
Value MainKernelBuilder::descending(Value i, Value end) {
  MLIRContext *ctx = b.getContext();
  AffineExpr step = getAffineDimExpr(0, ctx);
  AffineExpr top = getAffineSymbolExpr(0, ctx);
  auto map = AffineMap::get(1, 1, top - step - 1);
  return affine::AffineApplyOp::create(b, map, ValueRange{i, end});
}

void MainKernelBuilder::build(gpu::GPUFuncOp func) {
  bindArguments(func, BackwardRole::Main);
  emitSetup();
  if (!spec.packed) {
    emitProgram();
  } else {
    // The key tile holds keys of this sequence (u * Tk < Skv_i), else the
    // program has nothing to do and nothing to write.
    Value inRange = cmp(arith::CmpIPredicate::ult, k0, seqKv);
    auto ifOp = scf::IfOp::create(b, inRange, [&](OpBuilder &, Location) {
      emitProgram();
      scf::YieldOp::create(b);
    });
    ifOp->setAttr("sdpa.key_tile_in_sequence", b.getUnitAttr());
  }
  gpu::ReturnOp::create(b);
}

void MainKernelBuilder::emitWalk(Value count, const BackwardBounds &bounds,
                                 GradAccumulators &acc) {
  // The visits of every query head of the group, in one walk: the fetch of
  // a head's first tile overlaps its predecessor's last.
  Value steps = mul(group, count);
  auto fetch = [&](Value n, Value stage, Value enabled) -> FetchFinish {
    PendingRowStats stats =
        emitFetch(emitVisit(n, count, bounds), stage, enabled);
    return [this, stats, stage] { storeRowStats(stats, stage); };
  };
  auto compute = [&](Value n, Value stage,
                     ValueRange iterArgs) -> SmallVector<Value> {
    QueryVisit visit = emitVisit(n, count, bounds);
    // An edge visit: t outside [interior_begin, interior_end).
    Value edge = emitOutsideInterior(b, b.getLoc(), bounds.interiorBegin,
                                     bounds.interiorEnd, visit.t);
    GradAccumulators stepAcc = GradAccumulators::unflatten(iterArgs);
    emitQueryTileStep(visit, stage, edge, stepAcc);
    return stepAcc.flatten();
  };
  scf::ForOp loop =
      emitStreamedWalk(idx(0), steps, spec.queryStages, copyGroup,
                       acc.flatten(), fetch, compute);
  loop->setAttr("sdpa.q_loop", b.getUnitAttr());
  acc = GradAccumulators::unflatten(loop.getResults());
}

void MainKernelBuilder::emitProgram() {
  // K and V of the tile, once (zero past Skv).
  Value kBase = sliceBase("k", batch, kvFirst, kvHead);
  Value kStrideS = argIndex("k_stride_s");
  // (A wait counts groups: any token names them.)
  copyGroup =
      copyTileAsync(args["k"], kBase, kStrideS, k0, seqKv, kSmem, spec.tiles.kv);
  Value vBase = sliceBase("v", batch, kvFirst, kvHead);
  Value vStrideS = argIndex("v_stride_s");
  copyTileAsync(args["v"], vBase, vStrideS, k0, seqKv, vSmem, spec.tiles.kv);

  // The query tiles of key tile u: exactly [q_begin(u), q_end(u)), with the
  // unmasked interior [q_interior_begin(u), q_interior_end(u)) inside.
  BackwardBounds bounds =
      emitBackwardBounds(b, b.getLoc(), spec.schedule,
                         BoundsPolicy::BackwardKernel, kvTile, seqQ, seqKv);
  Value count = sub(bounds.qEnd, bounds.qBegin);
  // One walk of the query tiles, accumulating the warp's (group's) columns.
  GradAccumulators acc;
  acc.dK.assign(spec.keyRowTiles * spec.groupBlocks(), zeroAccumulator());
  acc.dV = acc.dK;
  emitWalk(count, bounds, acc);
  emitStoreGradients(acc);
}

void mlir::sdpa::detail::buildMainKernel(ImplicitLocOpBuilder &b,
                                         const BackwardKernelSpec &spec,
                                         gpu::GPUFuncOp func) {
  MainKernelBuilder(b, spec).build(func);
}
