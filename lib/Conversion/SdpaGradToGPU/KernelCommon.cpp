//===- KernelCommon.cpp - Helpers shared by the backward kernels ----------===//
//
// Parameter binding, constants and integer/float arithmetic, views of the
// dynamic shared memory, cp.async tile copies with zero fill, ldmatrix
// fragment loads (the lane maps of Conversion/LdMatrix.h) and the m16n8k16
// mma.sync of the backward kernels (the forward's createMmaSyncM16N8K16).
//
//===----------------------------------------------------------------------===//

#include "BackwardKernel.h"
#include "SdpaDialect/Conversion/LdMatrix.h"
#include "SdpaDialect/Conversion/MmaSync.h"
#include "SdpaDialect/Conversion/SharedTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

void KernelBuilderBase::bindArguments(gpu::GPUFuncOp func, BackwardRole role) {
  SmallVector<KernelParam> params = getBackwardKernelParams(spec, role);
  for (auto [param, value] : llvm::zip(params, func.getArguments()))
    args[param.name] = value;
  tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
}

Value KernelBuilderBase::argIndex(StringRef name) {
  assert(args.count(name) && "unknown kernel parameter");
  return arith::IndexCastOp::create(b, b.getIndexType(), args[name]);
}

Value KernelBuilderBase::lane() {
  return remu(tid, idx(sm80::kWarpSize));
}

Value KernelBuilderBase::sharedView(int64_t offset, ArrayRef<int64_t> shape,
                                    Type elem) {
  // One base per view, as the kernels were checked with (CSE merges them).
  Value dynShared = createDynamicSharedMemory(*this);
  return createSharedView(*this, dynShared, offset, shape, elem);
}

Value KernelBuilderBase::loadOffset(StringRef offsets, Value i) {
  assert(args.count(offsets) && "unknown kernel parameter");
  Value offset = memref::LoadOp::create(b, args[offsets], ValueRange{i});
  return arith::IndexCastOp::create(b, b.getIndexType(), offset);
}

std::pair<Value, Value> KernelBuilderBase::loadSegment(StringRef offsets,
                                                      Value seq) {
  Value first = loadOffset(offsets, seq);
  Value end = loadOffset(offsets, add(seq, idx(1)));
  return {first, sub(end, first)};
}

Value KernelBuilderBase::sliceBase(StringRef t, Value seq, Value first,
                                   Value head) {
  Value outer = spec.packed ? mul(first, argIndex((t + "_stride_s").str()))
                            : mul(seq, argIndex((t + "_stride_b").str()));
  return add(outer, mul(head, argIndex((t + "_stride_h").str())));
}

Value KernelBuilderBase::rowStatsBase(Value seq, Value first, Value head,
                                      Value headsQ, Value seqQ) {
  if (!spec.packed)
    return mul(add(mul(seq, headsQ), head), seqQ);
  Value tokens = loadOffset("cu_seqlens_q", argIndex("batch"));
  return add(mul(head, tokens), first);
}

/// The leading indices of a staged shared buffer (none when unstaged).
static SmallVector<Value> stageIndices(Value stage) {
  if (!stage)
    return {};
  return {stage};
}

Value KernelBuilderBase::copyTileAsync(Value global, Value base, Value strideS,
                                       Value row0, Value limit, Value smem,
                                       int64_t tileRows, Value stage,
                                       Value enabled) {
  // An enabled copy comes from a non-empty slice (a program of an empty key
  // range returns first, an empty query sequence has no query tiles); a
  // disabled prefetch may name an empty packed sequence's slice, which can
  // start at the end of the tensor.
  TileCopy copy{global, base, strideS, row0, limit, enabled, smem,
                stageIndices(stage), tileRows, spec.mmaHeadDim, spec.headDim,
                blockThreads, tid,
                CopyCache::L2Only,
                /*guardEmptySlice=*/spec.packed && bool(enabled)};
  return sdpa::copyTileAsync(*this, copy);
}

void KernelBuilderBase::waitAll(Value group) {
  waitAsyncGroups(*this, group, 0);
}

scf::ForOp KernelBuilderBase::emitStreamedWalk(Value begin, Value end,
                                               int64_t stages, Value group,
                                               ValueRange init, StepFetch fetch,
                                               StepCompute compute) {
  assert((stages == 1 || stages == 2) && "one or two shared stages");
  Value one = idx(1);
  Value stageCount = idx(stages);
  auto finish = [](const FetchFinish &done) {
    if (done)
      done();
  };
  if (stages != 1) {
    Value anySteps = cmp(arith::CmpIPredicate::ult, begin, end);
    scf::IfOp::create(b, anySteps, [&](OpBuilder &, Location) {
      finish(fetch(begin, remu(begin, stageCount), Value()));
      scf::YieldOp::create(b);
    });
  }
  auto loop = scf::ForOp::create(
      b, begin, end, one, init,
      [&](OpBuilder &nested, Location, Value i, ValueRange iterArgs) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value stage = remu(i, stageCount);
        SmallVector<Value> results;
        if (stages == 1) {
          gpu::BarrierOp::create(b);
          finish(fetch(i, stage, Value()));
          waitAll(group);
          gpu::BarrierOp::create(b);
          results = compute(i, stage, iterArgs);
        } else {
          waitAll(group);
          gpu::BarrierOp::create(b);
          // (One op per statement: the IR's order must not depend on the
          // compiler's argument order.)
          Value next = add(i, one);
          Value hasNext = cmp(arith::CmpIPredicate::ult, next, end);
          Value nextStage = remu(next, stageCount);
          Value fetched = select(hasNext, next, i);
          FetchFinish done = fetch(fetched, nextStage, hasNext);
          results = compute(i, stage, iterArgs);
          finish(done);
        }
        scf::YieldOp::create(b, results);
      });
  waitAll(group);
  return loop;
}

Value KernelBuilderBase::loadA(Value smem, Value row0, Value col0,
                               Value stage) {
  return createLdMatrix(b, LdMatrixShape::a(), smem, stageIndices(stage), row0,
                        col0, lane());
}

Value KernelBuilderBase::loadB(Value smem, Value row0, Value col0,
                               Value stage) {
  return createLdMatrix(b, LdMatrixShape::b(), smem, stageIndices(stage), row0,
                        col0, lane());
}

Value KernelBuilderBase::loadBTransposed(Value smem, Value row0, Value col0,
                                         Value stage) {
  return createLdMatrix(b, LdMatrixShape::bTransposed(), smem,
                        stageIndices(stage), row0, col0, lane());
}

/// Hands `use` the fragments of blocks j = 0 .. count - 1: blocks j and
/// j + 1 from one `loadPair(j)` while two remain (and `paired`), else block
/// j from `loadOne(j)`.
static void walkFragmentPairs(
    int64_t count, bool paired, function_ref<Value(int64_t)> loadOne,
    function_ref<std::pair<Value, Value>(int64_t)> loadPair,
    function_ref<void(int64_t, Value)> use) {
  for (int64_t j = 0; j < count;) {
    if (!paired || j + 1 == count) {
      use(j, loadOne(j));
      j += 1;
      continue;
    }
    auto [first, second] = loadPair(j);
    use(j, first);
    use(j + 1, second);
    j += 2;
  }
}

void KernelBuilderBase::forEachB(Value smem, function_ref<Value(int64_t)> row0,
                                 Value col0, Value stage, int64_t count,
                                 function_ref<void(int64_t, Value)> use) {
  LdMatrixShape pair = LdMatrixShape::bPairAlongN();
  walkFragmentPairs(
      count, /*paired=*/true,
      [&](int64_t j) { return loadB(smem, row0(j), col0, stage); },
      [&](int64_t j) {
        return splitLdMatrixPair(b, pair,
                                 createLdMatrix(b, pair, smem,
                                                stageIndices(stage), row0(j),
                                                col0, lane()));
      },
      use);
}

void KernelBuilderBase::forEachBTransposed(
    Value smem, Value row0, function_ref<Value(int64_t)> col0, Value stage,
    int64_t count, function_ref<void(int64_t, Value)> use, bool paired) {
  LdMatrixShape pair = LdMatrixShape::bTransposedPair();
  walkFragmentPairs(
      count, paired,
      [&](int64_t j) { return loadBTransposed(smem, row0, col0(j), stage); },
      [&](int64_t j) {
        return splitLdMatrixPair(b, pair,
                                 createLdMatrix(b, pair, smem,
                                                stageIndices(stage), row0,
                                                col0(j), lane()));
      },
      use);
}

Value KernelBuilderBase::mma(Value a, Value bFrag, Value c) {
  return createMmaSyncM16N8K16(b, a, bFrag, c, spec.elementType.isBF16());
}

Value KernelBuilderBase::accumulatorsToA(Value lo, Value hi) {
  auto half2 = VectorType::get({2, 2}, spec.elementType);
  Value loH = arith::TruncFOp::create(b, half2, lo);
  Value hiH = arith::TruncFOp::create(b, half2, hi);
  // A = [lo rows r, r+8 | hi rows r, r+8]: the m16n8k16 A register order.
  return vector::ShuffleOp::create(b, loH, hiH,
                                   ArrayRef<int64_t>{0, 1, 2, 3});
}

Value KernelBuilderBase::zeroAccumulator() {
  auto type = VectorType::get({2, 2}, b.getF32Type());
  return arith::ConstantOp::create(
      b, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0.0)));
}

Value KernelBuilderBase::extract(Value frag, int64_t i, int64_t j) {
  return vector::ExtractOp::create(b, frag, ArrayRef<int64_t>{i, j});
}

Value KernelBuilderBase::insert(Value value, Value frag, int64_t i,
                                int64_t j) {
  return vector::InsertOp::create(b, value, frag, ArrayRef<int64_t>{i, j});
}

SmallVector<Value> KernelBuilderBase::emitBandMask(
    ArrayRef<Value> frags, Value edge, function_ref<BandCellTest()> makeTest,
    function_ref<std::pair<int64_t, int64_t>(int64_t, int64_t, int64_t)>
        offsets) {
  scf::IfOp ifOp = ifElse(edge, frags, [&] {
    BandCellTest band = makeTest();
    SmallVector<Value> masked(frags);
    for (int64_t j = 0; j < int64_t(frags.size()); ++j) {
      for (int64_t e = 0; e < 2; ++e) {
        for (int64_t i = 0; i < 2; ++i) {
          auto [queryOff, keyOff] = offsets(j, i, e);
          Value visible = band.visible(queryOff, keyOff);
          Value zero = f32(0.0);
          Value prob = select(visible, extract(masked[j], i, e), zero);
          masked[j] = insert(prob, masked[j], i, e);
        }
      }
    }
    return masked;
  });
  ifOp->setAttr("sdpa.band_mask", b.getUnitAttr());
  return SmallVector<Value>(ifOp.getResults());
}

Value KernelBuilderBase::lseRowBase(Value seq, Value first, Value head) {
  Value lseHead = mul(head, argIndex("lse_stride_h"));
  return spec.packed ? add(lseHead, first)
                     : add(mul(seq, argIndex("lse_stride_b")), lseHead);
}

std::pair<Value, Value> KernelBuilderBase::loadRowStat(Value lseBase,
                                                       Value rowsBase,
                                                       Value row,
                                                       Value inBounds) {
  double inf = std::numeric_limits<double>::infinity();
  Value safeRow = select(inBounds, row, idx(0));
  Value lse =
      memref::LoadOp::create(b, args["lse"], ValueRange{add(lseBase, safeRow)});
  Value rowDelta = memref::LoadOp::create(b, args["delta"],
                                          ValueRange{add(rowsBase, safeRow)});
  // exp2(s - +inf) = 0, never exp2(s + inf).
  Value seesKeys =
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, lse, f32(-inf));
  Value valid = arith::AndIOp::create(b, inBounds, seesKeys);
  Value posInf = f32(inf);
  Value lse2 = select(valid, fmul(lse, f32(sm80::kLog2e)), posInf);
  return {lse2, select(inBounds, rowDelta, f32(0.0))};
}

KernelBuilderBase::ProbabilityConstants
KernelBuilderBase::getProbabilityConstants() {
  ProbabilityConstants constants;
  if (!spec.softcap) {
    constants.scaleLog2 = f32(spec.scale * sm80::kLog2e);
    return constants;
  }
  constants.inner = f32(spec.scale / *spec.softcap);
  constants.outer = f32(*spec.softcap * sm80::kLog2e);
  constants.one = f32(1.0);
  return constants;
}

Value KernelBuilderBase::recomputeProbability(
    const ProbabilityConstants &constants, Value s, Value negLse2,
    Value *slope) {
  bool flush = spec.flushExponentials;
  if (!spec.softcap)
    return exp2(math::FmaOp::create(b, s, constants.scaleLog2, negLse2), flush);
  Value capped = math::TanhOp::create(b, fmul(s, constants.inner));
  Value prob =
      exp2(math::FmaOp::create(b, capped, constants.outer, negLse2), flush);
  *slope = fsub(constants.one, fmul(capped, capped));
  return prob;
}
