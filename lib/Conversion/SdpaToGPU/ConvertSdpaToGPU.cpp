//===- ConvertSdpaToGPU.cpp - convert-sdpa-to-gpu -------------------------===//
//
// Emits one gpu.module with the SM80 forward kernel per sdpa.attention,
// replaces the op by its host program (buffers, outputs, gpu.launch_func
// over the schedule's grid) and records the kernel's artifact manifest on
// the top-level module.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/HostProgram.h"
#include "SdpaDialect/Conversion/KernelModuleDriver.h"
#include "SdpaDialect/Conversion/KernelOptions.h"
#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_CONVERTSDPATOGPU
#include "SdpaDialect/Conversion/SdpaConversionPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

/// The artifact manifest of the forward kernel `kernelName` of `spec`
/// (docs/Artifact.md): one kernel of role forward.
static schema::Manifest getForwardManifest(const ForwardKernelSpec &spec,
                                           StringRef kernelName) {
  schema::Manifest manifest = getManifestHeader(
      schema::Direction::Forward, spec.elementType, spec.headDim, spec.tiles,
      spec.band, spec.scale, spec.softcap, spec.sinks, spec.packedSequences,
      /*deterministic=*/false);
  schema::Kernel &kernel = manifest.kernels.emplace_back();
  kernel.name = kernelName.str();
  kernel.role = schema::KernelRole::Forward;
  kernel.block = {unsigned(spec.threads()), 1, 1};
  kernel.sharedBytes = unsigned(spec.sharedBytes());
  kernel.grid = schema::getKernelGrid(kernel.role);
  kernel.params = toSchemaParams(getForwardKernelParams(spec));
  return manifest;
}

std::string mlir::sdpa::buildForwardManifest(const ForwardKernelSpec &spec,
                                             StringRef kernelName) {
  return schema::printManifest(getForwardManifest(spec, kernelName));
}

/// Replaces `op` by the host program that launches the kernel of `manifest`
/// in `module`: O and LSE are fresh device buffers, returned as tensors.
static void replaceByHostProgram(AttentionOp op, gpu::GPUModuleOp module,
                                 const ForwardKernelSpec &spec,
                                 const schema::Manifest &manifest) {
  OpBuilder b(op);
  HostProgramBuilder host(b, op.getLoc(), op.getLayout(), spec.tiles);
  auto [query, key] =
      host.addQueryKeyValue(op.getQuery(), op.getKey(), op.getValue());
  auto outputType = cast<RankedTensorType>(op.getOutput().getType());
  auto lseType = cast<RankedTensorType>(op.getLse().getType());
  Value output = host.addOutput("o", outputType, query);
  Value lse = host.addOutput("lse", lseType, query);
  host.addLse(lse);
  Value queryOffsets;
  if (spec.packedSequences) {
    queryOffsets = host.addOffsets("cu_seqlens_q", op.getSeqlens()[0]);
    host.addOffsets("cu_seqlens_kv", op.getSeqlens()[1]);
  }
  host.addSizes(query, key, queryOffsets);
  if (spec.sinks)
    host.addPerHeadInput("sinks", op.getSinks());
  host.launchKernels(module, manifest);
  Value outputTensor = host.toTensor(output, outputType);
  Value lseTensor = host.toTensor(lse, lseType);
  op.replaceAllUsesWith(ValueRange{outputTensor, lseTensor});
  op.erase();
}

namespace {
struct ConvertSdpaToGPUPass
    : public sdpa::impl::ConvertSdpaToGPUBase<ConvertSdpaToGPUPass> {
  using Base::Base;

  /// The host program's buffers (beside the .td's dialects).
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<bufferization::BufferizationDialect>();
  }

  void runOnOperation() override {
    std::string error = checkForwardPassOptions(tileQ, tileKv, warps, stages);
    if (!error.empty()) {
      emitError(getOperation().getLoc()) << getArgument() << ": " << error;
      return signalPassFailure();
    }
    ForwardKernelOptions options;
    options.tiles = {tileQ, tileKv};
    options.warps = warps;
    options.stages = stages;
    auto build = [&](OpBuilder &builder, AttentionOp op,
                     StringRef name) -> FailureOr<LoweredKernelModule> {
      FailureOr<ForwardKernelSpec> spec = getForwardKernelSpec(op, options);
      if (failed(spec) || failed(checkKernelScale(op, spec->scale)))
        return failure();
      gpu::GPUModuleOp module =
          buildForwardKernelModule(builder, op.getLoc(), name, name, *spec);
      schema::Manifest manifest = getForwardManifest(*spec, name);
      if (hostProgram) {
        replaceByHostProgram(op, module, *spec, manifest);
      } else {
        MLIRContext *ctx = op.getContext();
        op->setAttr(getKernelAttrName(),
                    SymbolRefAttr::get(ctx, name,
                                       {FlatSymbolRefAttr::get(ctx, name)}));
      }
      return LoweredKernelModule{module, std::move(manifest)};
    };
    if (failed(buildKernelModules<AttentionOp>(getOperation(), "sdpa_fwd_",
                                               build)))
      signalPassFailure();
  }
};
} // namespace
