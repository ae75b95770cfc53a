//===- ConvertSdpaGradToGPU.cpp - convert-sdpa-grad-to-gpu ----------------===//
//
// Emits one gpu.module with the three SM80 backward kernels per
// sdpa.attention_grad, replaces the op by its host program (buffers,
// gradients, the workspaces the runtime allocates, the three launches) and
// records the artifact manifest on the top-level module.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/HostProgram.h"
#include "SdpaDialect/Conversion/KernelModuleDriver.h"
#include "SdpaDialect/Conversion/KernelOptions.h"
#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/Conversion/SdpaGradToGPU.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_CONVERTSDPAGRADTOGPU
#include "SdpaDialect/Conversion/SdpaGradPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

/// The artifact manifest of the backward kernels of `spec`
/// (docs/Artifact.md), in launch order.
static schema::Manifest getBackwardManifest(const BackwardKernelSpec &spec) {
  schema::Manifest manifest = getManifestHeader(
      schema::Direction::Backward, spec.elementType, spec.headDim, spec.tiles,
      spec.band, spec.scale, spec.softcap, spec.sinks, spec.packed,
      spec.deterministic);
  for (BackwardRole role : getBackwardRoles(spec)) {
    schema::Kernel &kernel = manifest.kernels.emplace_back();
    kernel.name = getBackwardKernelName(role).str();
    kernel.role = getBackwardSchemaRole(role);
    BackwardKernelShape shape = getBackwardKernelShape(spec, role);
    kernel.block = {unsigned(shape.threads), 1, 1};
    kernel.sharedBytes = unsigned(shape.sharedBytes);
    kernel.grid = schema::getKernelGrid(kernel.role);
    kernel.params = toSchemaParams(getBackwardKernelParams(spec, role));
  }
  return manifest;
}

std::string mlir::sdpa::buildBackwardManifest(const BackwardKernelSpec &spec) {
  return schema::printManifest(getBackwardManifest(spec));
}

/// Replaces `op` by the host program that launches the kernels of
/// `manifest` in `module` in order: dQ, dK, dV are fresh device buffers
/// returned as tensors; dq_accum ([Hq, query tokens, D]) and delta ([Hq,
/// query tokens]) are device workspaces (dq_accum only where dQ is
/// accumulated), and so are the relay counters ([B, Hq, q_tiles], zeroed)
/// of a relayed backward, freed after the
/// last launch (docs/Runtime.md, "Backward").
static void replaceByHostProgram(AttentionGradOp op, gpu::GPUModuleOp module,
                                 const BackwardKernelSpec &spec,
                                 const schema::Manifest &manifest) {
  OpBuilder b(op);
  HostProgramBuilder host(b, op.getLoc(), op.getLayout(), spec.tiles);
  auto [query, key] =
      host.addQueryKeyValue(op.getQuery(), op.getKey(), op.getValue());
  host.addInput("o", op.getOutput());
  host.addInput("do", op.getGradOutput());
  host.addLseInput(op.getLse());
  auto queryType = cast<RankedTensorType>(op.getGradQuery().getType());
  auto keyType = cast<RankedTensorType>(op.getGradKey().getType());
  auto valueType = cast<RankedTensorType>(op.getGradValue().getType());
  Value dq = host.addOutput("dq", queryType, query);
  Value dk = host.addOutput("dk", keyType, key);
  Value dv = host.addOutput("dv", valueType, key);
  Value queryOffsets;
  if (spec.packed) {
    queryOffsets = host.addOffsets("cu_seqlens_q", op.getSeqlens()[0]);
    host.addOffsets("cu_seqlens_kv", op.getSeqlens()[1]);
  }
  host.addSizes(query, key, queryOffsets);
  Type f32 = b.getF32Type();
  Value headDim = arith::ConstantIndexOp::create(b, op.getLoc(), spec.headDim);
  if (!spec.recomputesDq())
    host.addWorkspace("dq_accum", f32,
                      {host.headsQ(), host.queryTokens(), headDim},
                      /*zero=*/false);
  host.addWorkspace("delta", f32, {host.headsQ(), host.queryTokens()},
                    /*zero=*/false);
  if (spec.usesRelay())
    host.addWorkspace("relay_counters", b.getI32Type(),
                      {host.batch(), host.headsQ(), host.queryTiles()},
                      /*zero=*/true);
  Value gradSinks;
  auto sinksType =
      spec.sinks ? cast<RankedTensorType>(op.getGradSinks().getType())
                 : RankedTensorType();
  if (spec.sinks) {
    Value sinks = host.addPerHeadInput("sinks", op.getSinks());
    gradSinks = host.addPerHeadOutput("grad_sinks", sinksType, sinks);
    host.addWorkspace("dsink_partials", f32,
                      {host.batch(), host.headsQ(), host.queryTiles()},
                      /*zero=*/false);
  }
  host.launchKernels(module, manifest);
  host.freeWorkspaces();
  SmallVector<Value> results = {host.toTensor(dq, queryType),
                                host.toTensor(dk, keyType),
                                host.toTensor(dv, valueType)};
  if (spec.sinks)
    results.push_back(host.toTensor(gradSinks, sinksType));
  op.replaceAllUsesWith(results);
  op.erase();
}

namespace {
struct ConvertSdpaGradToGPUPass
    : public sdpa::impl::ConvertSdpaGradToGPUBase<ConvertSdpaGradToGPUPass> {
  using Base::Base;

  /// The host program's buffers (beside the .td's dialects).
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<bufferization::BufferizationDialect>();
  }

  void runOnOperation() override {
    std::string error = checkTileOptions(tileQ, tileKv);
    if (!error.empty()) {
      emitError(getOperation().getLoc()) << getArgument() << ": " << error;
      return signalPassFailure();
    }
    BackwardKernelOptions options;
    options.tiles = {tileQ, tileKv};
    options.dqMode = toDqMode(dqMode);
    auto build = [&](OpBuilder &builder, AttentionGradOp op,
                     StringRef name) -> FailureOr<LoweredKernelModule> {
      FailureOr<BackwardKernelSpec> spec = getBackwardKernelSpec(op, options);
      if (failed(spec) || failed(checkKernelScale(op, spec->scale)))
        return failure();
      gpu::GPUModuleOp module =
          buildBackwardKernelModule(builder, op.getLoc(), name, *spec);
      schema::Manifest manifest = getBackwardManifest(*spec);
      if (hostProgram)
        replaceByHostProgram(op, module, *spec, manifest);
      else
        op->setAttr(getKernelAttrName(),
                    FlatSymbolRefAttr::get(op.getContext(), name));
      return LoweredKernelModule{module, std::move(manifest)};
    };
    if (failed(buildKernelModules<AttentionGradOp>(getOperation(), "sdpa_bwd_",
                                                   build)))
      signalPassFailure();
  }
};
} // namespace
