//===- BackwardSpec.cpp - What the backward kernels are built for ---------===//
//
// Reads the backward kernel spec off an sdpa.attention_grad (refusing what
// the lowering does not support) and lists the kernels' parameters (the
// schema's). It calls no kernel builder (BackwardModule.cpp does), so the
// builders may read the parameters without a call cycle.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Analysis/KernelDefaults.h"
#include "SdpaDialect/Conversion/KernelSchema.h"
#include "SdpaDialect/DefaultTiles.h"
#include "SdpaDialect/Conversion/SdpaGradToGPU.h"
#include "SdpaDialect/Utils/ScheduleBounds.h"

using namespace mlir;
using namespace mlir::sdpa;

FailureOr<BackwardKernelSpec>
mlir::sdpa::getBackwardKernelSpec(AttentionGradOp op,
                                  const BackwardKernelOptions &options) {
  BackwardKernelSpec spec;
  spec.packed = op.getLayout() == Layout::thd;
  if (!spec.packed && op.hasPerSequenceLengths())
    return op.emitOpError(
        "expected no seqlens on a dense layout: the backward lowering does "
        "not support per-batch valid lengths (use layout thd with cumulative "
        "offsets)");
  // f16 or bf16 (the verifier's element types): both lower.
  spec.elementType = cast<ShapedType>(op.getQuery().getType()).getElementType();
  AttentionShape shape = op.getAttentionShape();
  spec.headDim = shape.headDim;
  // The schema's table decides (the runtime checks artifacts against it).
  std::string headDimError;
  if (!checkKernelHeadDim(schema::Direction::Backward, spec.headDim,
                          headDimError))
    return op.emitOpError(headDimError);
  // (The width depends on the dQ mode.)
  spec.dqMode = resolveDqMode(op, options.dqMode);
  spec.mmaHeadDim = getMmaHeadDim(schema::Direction::Backward, spec.headDim,
                                  spec.recomputesDq());

  if (ScheduleAttr schedule = op.getScheduleAttr())
    spec.tiles = schedule.getTileShape();
  else
    spec.tiles = resolveTiles(op, options.tiles, options.dqMode);
  TileShape tiles = spec.tiles;
  if (tiles.kv % sm80::kMmaM != 0 || tiles.kv > 8 * sm80::kMmaM)
    return op.emitOpError("expected schedule tile_kv to be 16, 32, 48, ... "
                          "or 128 (one warp per 16 keys)");
  // Eight warps of up to 255 registers fill an SM's register file.
  if (spec.warps() > 8)
    return op.emitOpError("expected tile_kv at most ")
           << 8 / spec.columnGroups() * sm80::kMmaM << " at head_dim "
           << spec.headDim << " (bwd_main has " << spec.columnGroups()
           << " warps per 16 keys, at most 8), got " << tiles.kv;
  if (tiles.q % sm80::kMmaM != 0 || tiles.q > tiles.kv)
    return op.emitOpError(
        "expected schedule tile_q to be a multiple of 16 and at most tile_kv");
  // Each kernel double-buffers its streamed tiles where that was measured
  // to pay and they fit (BackwardKernelSpec::queryStages).
  if (spec.mmaHeadDim <= BackwardKernelSpec::kOneWarpHeadDim)
    spec.queryStages = BackwardKernelSpec::kMaxStages;
  if (spec.sharedBytes() > sm80::kMaxSharedBytes)
    spec.queryStages = 1;
  if (spec.sharedBytes() > sm80::kMaxSharedBytes)
    return op.emitOpError("expected the backward kernel's shared memory (")
           << spec.sharedBytes() << " bytes) to fit in "
           << sm80::kMaxSharedBytes << " bytes";
  std::optional<int64_t> width =
      getBandWidth(op.getMaskAttr().getBand(), /*seqKv=*/std::nullopt);
  bool narrow = isNarrowBand(width);
  spec.flushExponentials = flushesExponentials(spec.mmaHeadDim, width);
  int64_t slice = BackwardKernelSpec::kTwoKeyRowTilesSlice;
  if (spec.recomputesDq() && !spec.splitsVisit() &&
      spec.mmaHeadDim <= BackwardKernelSpec::kMaxTwoKeyRowTilesHeadDim &&
      (tiles.q <= slice || (tiles.q % slice == 0 && !narrow)) &&
      tiles.kv % (2 * sm80::kMmaM) == 0)
    spec.keyRowTiles = 2;
  if (spec.recomputesDq()) {
    if (spec.mmaHeadDim <= BackwardKernelSpec::kMaxPrefetchRecomputeHeadDim)
      spec.keyStages = BackwardKernelSpec::kMaxStages;
    // Two row tiles up to mma width 64, where they were measured to pay,
    // and at 128 only where they compile spill-free: a wide band and key
    // tiles of at most 64 (BackwardKernelSpec::dqRowTiles, dqHoldsWideRows).
    bool twoRowTilesWidth =
        spec.mmaHeadDim <=
            BackwardKernelSpec::kMaxTwoRowTilesRecomputeHeadDim ||
        (spec.mmaHeadDim == BackwardKernelSpec::kWideTwoRowTilesHeadDim &&
         !narrow && tiles.kv <= BackwardKernelSpec::kWideTwoRowTilesKeyTile);
    if (twoRowTilesWidth && tiles.q % (2 * sm80::kMmaM) == 0 &&
        tiles.q >= 4 * sm80::kMmaM)
      spec.dqRowTiles = 2;
    if (spec.dqSharedBytes() > sm80::kMaxSharedBytes)
      spec.keyStages = 1;
    if (spec.mmaHeadDim > BackwardKernelSpec::kMaxFullTileRecomputeHeadDim &&
        tiles.kv > BackwardKernelSpec::kMaxWideRecomputeKeyTile)
      return op.emitOpError("expected tile_kv at most ")
             << BackwardKernelSpec::kMaxWideRecomputeKeyTile
             << " for dq-mode=recompute above head_dim "
             << BackwardKernelSpec::kMaxFullTileRecomputeHeadDim << ", got "
             << tiles.kv << " at head_dim " << spec.headDim
             << " (bwd_dq's dQ takes head_dim / 2 registers a thread; larger "
                "key tiles spill)";
    if (spec.dqSharedBytes() > sm80::kMaxSharedBytes)
      return op.emitOpError("expected the dQ kernel's shared memory (")
             << spec.dqSharedBytes() << " bytes) to fit in "
             << sm80::kMaxSharedBytes << " bytes";
  }

  spec.band = op.getMaskAttr().getBand();
  spec.scale = op.getScaleOrDefault();
  spec.softcap = op.getFiniteSoftcap();
  spec.sinks = bool(op.getSinks());
  spec.deterministic = op.getDeterministic();
  spec.schedule = getKernelSchedule(op, tiles);
  if (spec.recomputesDq() && spec.dqRowTiles > 1 && spec.dqWarps() > 1 &&
      tiles.kv % spec.dqChunkKeys() == 0 && narrow) {
    spec.dqChunkSchedule = deriveSchedule(
        spec.band, {sm80::kMmaM * spec.dqRowTiles, spec.dqChunkKeys()},
        op->getContext());
  }
  return spec;
}

/// The schema's role of the kernel of `role`.
schema::KernelRole mlir::sdpa::getBackwardSchemaRole(BackwardRole role) {
  switch (role) {
  case BackwardRole::Preprocess:
    return schema::KernelRole::BwdPreprocess;
  case BackwardRole::Main:
    return schema::KernelRole::BwdMain;
  case BackwardRole::DqConvert:
    return schema::KernelRole::BwdDqConvert;
  case BackwardRole::Dq:
    return schema::KernelRole::BwdDq;
  }
  llvm_unreachable("unknown role");
}

SmallVector<BackwardRole>
mlir::sdpa::getBackwardRoles(const BackwardKernelSpec &spec) {
  SmallVector<BackwardRole> roles;
  for (schema::KernelRole role : schema::getBackwardRoles(spec.dqMode))
    for (BackwardRole candidate :
         {BackwardRole::Preprocess, BackwardRole::Main, BackwardRole::DqConvert,
          BackwardRole::Dq})
      if (getBackwardSchemaRole(candidate) == role)
        roles.push_back(candidate);
  return roles;
}

BackwardKernelShape
mlir::sdpa::getBackwardKernelShape(const BackwardKernelSpec &spec,
                                   BackwardRole role) {
  switch (role) {
  case BackwardRole::Main:
    return {spec.threads(), spec.sharedBytes()};
  case BackwardRole::Dq:
    return {spec.dqThreads(), spec.dqSharedBytes()};
  case BackwardRole::Preprocess:
  case BackwardRole::DqConvert:
    return {spec.rowThreads(), 0};
  }
  llvm_unreachable("unknown role");
}

StringRef mlir::sdpa::getBackwardRoleName(BackwardRole role) {
  return schema::toString(getBackwardSchemaRole(role));
}

StringRef mlir::sdpa::getBackwardKernelName(BackwardRole role) {
  switch (role) {
  case BackwardRole::Preprocess:
    return "sdpa_bwd_preprocess";
  case BackwardRole::Main:
    return "sdpa_bwd_main";
  case BackwardRole::DqConvert:
    return "sdpa_bwd_dq_convert";
  case BackwardRole::Dq:
    return "sdpa_bwd_dq";
  }
  llvm_unreachable("unknown role");
}

SmallVector<KernelParam>
mlir::sdpa::getBackwardKernelParams(const BackwardKernelSpec &spec,
                                    BackwardRole role) {
  return getSchemaKernelParams(getBackwardSchemaRole(role), spec.packed,
                               spec.deterministic, spec.sinks, spec.dqMode);
}
