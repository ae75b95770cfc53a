//===- ForwardKernel.cpp - The forward kernel: setup and tile loops -------===//
//
// Builds the gpu.module and gpu.func of the forward kernel: reads the
// parameters, forms the (batch or packed sequence, head) base offsets,
// carves the 16-byte aligned shared buffers out of dynamic shared memory,
// emits the schedule's bounds (SdpaDialect/Utils/ScheduleBounds.h), and runs the
// key tiles in four loops: masked edge, unmasked interior, masked edge, and
// the tile holding Skv (masked, with the key-length test); or, with
// ForwardKernelSpec::warpWindows, each warp's own windows (WarpWindows.cpp).
//
//===----------------------------------------------------------------------===//

#include "ForwardKernel.h"
#include "SdpaDialect/Conversion/KernelSchema.h"
#include "SdpaDialect/Conversion/SharedTiles.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::detail;

SmallVector<Value> SoftmaxState::flatten() const {
  SmallVector<Value> values(rowMax);
  llvm::append_range(values, rowSum);
  llvm::append_range(values, acc);
  return values;
}

SoftmaxState SoftmaxState::unflatten(ValueRange values, int64_t rows,
                                     int64_t accs) {
  SoftmaxState state;
  state.rowMax.assign(values.begin(), values.begin() + rows);
  state.rowSum.assign(values.begin() + rows, values.begin() + 2 * rows);
  state.acc.assign(values.begin() + 2 * rows,
                   values.begin() + 2 * rows + accs);
  return state;
}

SmallVector<KernelParam>
mlir::sdpa::getForwardKernelParams(const ForwardKernelSpec &spec) {
  return getSchemaKernelParams(schema::KernelRole::Forward,
                               spec.packedSequences, /*deterministic=*/false,
                               spec.sinks);
}

/// The gpu.func argument type of each parameter.
static SmallVector<Type> getParamTypes(MLIRContext *ctx,
                                       const ForwardKernelSpec &spec) {
  return getKernelParamTypes(
      ctx, getForwardKernelParams(spec), [&](StringRef name) {
        return getKernelParamPointee(name, spec.elementType);
      });
}

void ForwardKernelBuilder::emitSetup(gpu::GPUFuncOp func) {
  SmallVector<KernelParam> params = getForwardKernelParams(spec);
  llvm::StringMap<Value> arg;
  for (auto [param, value] : llvm::zip(params, func.getArguments()))
    arg[param.name] = value;
  auto toIndex = [&](StringRef name) -> Value {
    return arith::IndexCastOp::create(b, b.getIndexType(), arg[name]);
  };
  q = arg["q"];
  k = arg["k"];
  v = arg["v"];
  o = arg["o"];
  lse = arg["lse"];
  // Packed sequences take their lengths from the offsets (below); the
  // seq_q and seq_kv parameters are then only the grid's maxima.
  if (!spec.packedSequences) {
    seqQ = toIndex("seq_q");
    seqKv = toIndex("seq_kv");
  }
  Value headsQ = toIndex("heads_q");
  Value headsKv = toIndex("heads_kv");

  Value batch = gpu::BlockIdOp::create(b, gpu::Dimension::z);
  Value head = gpu::BlockIdOp::create(b, gpu::Dimension::y);
  Value qTile = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  if (spec.packedSequences)
    loadSequenceExtents(arg["cu_seqlens_q"], arg["cu_seqlens_kv"], batch);
  // GQA: query head h reads key/value head h / (Hq / Hkv).
  Value group = arith::DivUIOp::create(b, headsQ, headsKv);
  Value headKv = arith::DivUIOp::create(b, head, group);
  // The sink of this query head, in the exp2 domain of the scores.
  if (spec.sinks) {
    sinkLogit = memref::LoadOp::create(b, arg["sinks"], ValueRange{head});
    sinkLog2 = arith::MulFOp::create(b, sinkLogit, f32(sm80::kLog2e));
  }
  // Dense: batch b's slice starts at b * stride_b. Packed: sequence i's
  // slice starts at its first token, off[i] * stride_s (stride_b is 0).
  // The head term is emitted first, as the dense kernel always had it.
  auto base = [&](StringRef t, Value h, Value firstToken) {
    Value headStart = mul(h, toIndex((t + "_stride_h").str()));
    Value start =
        spec.packedSequences
            ? mul(firstToken, toIndex((t + "_stride_s").str()))
            : mul(batch, toIndex((t + "_stride_b").str()));
    return add(start, headStart);
  };
  qBase = base("q", head, qFirstToken);
  kBase = base("k", headKv, kvFirstToken);
  vBase = base("v", headKv, kvFirstToken);
  oBase = base("o", head, qFirstToken);
  // lse is [heads_q, tokens_q] for packed sequences: its token stride is 1.
  lseBase = spec.packedSequences
                ? add(qFirstToken, mul(head, toIndex("lse_stride_h")))
                : base("lse", head, Value());
  qStrideS = toIndex("q_stride_s");
  kStrideS = toIndex("k_stride_s");
  vStrideS = toIndex("v_stride_s");
  oStrideS = toIndex("o_stride_s");
  delta = spec.band.align == Alignment::BottomRight
              ? Value(arith::SubIOp::create(b, seqKv, seqQ))
              : idx(0);

  tid = gpu::ThreadIdOp::create(b, gpu::Dimension::x);
  lane = arith::RemUIOp::create(b, tid, idx(sm80::kWarpSize));
  Value warp = arith::DivUIOp::create(b, tid, idx(sm80::kWarpSize));
  warpRow0 = mul(warp, idx(spec.rowsPerWarp()));
  q0 = mul(qTile, idx(spec.tiles.q));
  fragRow = arith::DivUIOp::create(b, lane, idx(sm80::kQuadSize));
  Value two = idx(2);
  Value quadLane = arith::RemUIOp::create(b, lane, idx(sm80::kQuadSize));
  fragCol = mul(quadLane, two);

  // Shared buffers: views of dynamic shared memory (aligned to 16 bytes by
  // the lowering) at offsets that are multiples of 16 bytes.
  Value dynShared = createDynamicSharedMemory(*this);
  auto view = [&](int64_t offset, ArrayRef<int64_t> shape) -> Value {
    return createSharedView(*this, dynShared, offset, shape,
                            spec.elementType);
  };
  qSmem = view(spec.qSmemOffset(), {spec.tiles.q, spec.smemRowElems()});
  kSmem = view(spec.kSmemOffset(),
               {spec.stages, spec.tiles.kv, spec.smemRowElems()});
  vSmem = view(spec.vSmemOffset(),
               {spec.stages, spec.tiles.kv, spec.smemRowElems()});

  // A packed sequence shorter than the longest one leaves this program's
  // query tile past its end: it exits before it copies or stores anything.
  if (spec.packedSequences)
    openSequenceGuard();
  emitScheduleBounds();
  (void)qTile;
}

/// The forward kernel's clamps (BoundsPolicy::ForwardKernel): its three
/// loops need the interior clamped into the visit range, nothing more.
void ForwardKernelBuilder::emitScheduleBounds() {
  Value qTile = gpu::BlockIdOp::create(b, gpu::Dimension::x);
  ForwardBounds bounds =
      emitForwardBounds(b, b.getLoc(), spec.schedule,
                        BoundsPolicy::ForwardKernel, qTile, seqQ, seqKv);
  kvBegin = bounds.kvBegin;
  kvEnd = bounds.kvEnd;
  interiorBegin = bounds.interiorBegin;
  interiorEnd = bounds.interiorEnd;
}

SoftmaxState ForwardKernelBuilder::initialState() {
  SoftmaxState state;
  int64_t rows = spec.rowTilesPerWarp() * 2;
  Value negInf = f32(-std::numeric_limits<double>::infinity());
  Value zero = f32(0.0);
  // Sinks: the running max starts at the sink's logit, the sink column's
  // share of the sum is added once in the epilogue (Epilogue.cpp).
  state.rowMax.assign(rows, spec.sinks ? sinkLog2 : negInf);
  state.rowSum.assign(rows, zero);
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  Value accZero = arith::ConstantOp::create(
      b, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  state.acc.assign(spec.rowTilesPerWarp() * (spec.mmaHeadDim / sm80::kMmaN),
                   accZero);
  return state;
}

int64_t ForwardKernelBuilder::pendingKvGroups() const {
  return 2 * spec.stages - 3;
}

void ForwardKernelBuilder::emitKvStep(Value u, TileMask mask,
                                      SoftmaxState &state, bool copiesNext) {
  if (spec.warpWindows) {
    emitWindowStep(u, mask, state, /*firstStep=*/false, copiesNext);
    return;
  }
  Value stages = idx(spec.stages);
  Value stage = arith::RemUIOp::create(b, u, stages);
  Value next = add(u, idx(spec.stages - 1));
  Value nextStage = arith::RemUIOp::create(b, next, stages);

  // K(u) has landed (V(u) and the tiles up to u + stages - 2 may still be
  // in flight); every warp is past the previous step, so its stage,
  // (u + stages - 1) mod stages, is free for K(u + stages - 1).
  waitGroups(pendingKvGroups());
  gpu::BarrierOp::create(b);
  copyKvTileAsync(k, kBase, kStrideS, next, kSmem, nextStage);
  KeyBlocks keys = tileBlocks(stage);
  Scores scores = computeScores(keys);
  capAndMask(scores, mul(u, idx(spec.tiles.kv)), mask);
  SmallVector<Value> pFrags =
      updateSoftmax(scores, state, /*everyRowSeesAKey=*/mask == TileMask::None);

  // V(u) has landed; every warp is past P V of the previous step.
  waitGroups(pendingKvGroups());
  gpu::BarrierOp::create(b);
  copyKvTileAsync(v, vBase, vStrideS, next, vSmem, nextStage);
  accumulateValues(pFrags, keys, state);
}

Value ForwardKernelBuilder::emitTileLoop(Value lo, Value hi, TileMask mask,
                                         SoftmaxState &state,
                                         bool copiesNext) {
  int64_t rows = state.rowMax.size();
  int64_t accs = state.acc.size();
  auto loop = scf::ForOp::create(
      b, lo, hi, idx(1), state.flatten(),
      [&](OpBuilder &nested, Location loc, Value u, ValueRange iterArgs) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        SoftmaxState inner = SoftmaxState::unflatten(iterArgs, rows, accs);
        emitKvStep(u, mask, inner, copiesNext);
        scf::YieldOp::create(b, inner.flatten());
      });
  loop->setAttr(mask == TileMask::None ? "sdpa.interior" : "sdpa.masked",
                b.getUnitAttr());
  if (mask == TileMask::BandAndKeys)
    loop->setAttr("sdpa.key_tail", b.getUnitAttr());
  state = SoftmaxState::unflatten(loop.getResults(), rows, accs);
  return loop.getInductionVar();
}

SoftmaxState ForwardKernelBuilder::emitTileWalk() {
  // Prologue: Q and K(kv_begin) in one group, V(kv_begin) in the next,
  // then K and V of the next stages - 2 tiles, a group each.
  Value stage = arith::RemUIOp::create(b, kvBegin, idx(spec.stages));
  copyTileAsync(q, qBase, qStrideS, q0, seqQ, /*enabled=*/Value(), qSmem, {},
                spec.tiles.q);
  copyKeyValueTileAsync(kvBegin, stage);
  for (int64_t ahead = 1; ahead + 1 < spec.stages; ++ahead) {
    Value tile = add(kvBegin, idx(ahead));
    Value tileStage = arith::RemUIOp::create(b, tile, idx(spec.stages));
    copyKeyValueTileAsync(tile, tileStage);
  }
  waitGroups(pendingKvGroups());
  gpu::BarrierOp::create(b);
  if (spec.queryFragmentsResident)
    qFrags = loadQueryFragments();

  SoftmaxState state = initialState();
  // Only the tile holding Skv (u >= kvFull = Skv / tile_kv) has keys past
  // the sequence: the edge loops stop before it (the interior never reaches
  // it) and one last loop tests the key length too. The tiles stay
  // consecutive: the prefetch of u + 1 is unchanged.
  Value kvFull = arith::DivUIOp::create(b, seqKv, idx(spec.tiles.kv));
  emitTileLoop(kvBegin, arith::MinSIOp::create(b, interiorBegin, kvFull),
               TileMask::Band, state);
  emitTileLoop(interiorBegin, interiorEnd, TileMask::None, state);
  emitTileLoop(interiorEnd, arith::MinSIOp::create(b, kvEnd, kvFull),
               TileMask::Band, state);
  emitTileLoop(arith::MaxSIOp::create(b, kvBegin, kvFull), kvEnd,
               TileMask::BandAndKeys, state);
  return state;
}

void ForwardKernelBuilder::build(gpu::GPUFuncOp func) {
  emitSetup(func);
  SoftmaxState state = spec.warpWindows ? emitWindowWalk() : emitTileWalk();
  waitGroups(0);
  emitEpilogue(state);
  if (sequenceGuard)
    b.setInsertionPointAfter(sequenceGuard);
  gpu::ReturnOp::create(b);
}

gpu::GPUModuleOp mlir::sdpa::buildForwardKernelModule(
    OpBuilder &builder, Location loc, StringRef moduleName,
    StringRef kernelName, const ForwardKernelSpec &spec) {
  MLIRContext *ctx = builder.getContext();
  auto module = gpu::GPUModuleOp::create(builder, loc, moduleName);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto type = FunctionType::get(ctx, getParamTypes(ctx, spec), {});
  auto func = gpu::GPUFuncOp::create(builder, loc, kernelName, type);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
      {int32_t(spec.threads()), 1, 1}));
  if (spec.minBlocksPerSm)
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  builder.getI32IntegerAttr(int32_t(*spec.minBlocksPerSm)));

  ImplicitLocOpBuilder b(loc, builder);
  b.setInsertionPointToStart(&func.getBody().front());
  ForwardKernelBuilder(b, spec).build(func);
  return module;
}
