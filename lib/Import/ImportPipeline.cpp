//===- ImportPipeline.cpp - StableHLO in, kernels and a module out --------===//
//
// `sdpa-stablehlo-pipeline`: sdpa-import-stablehlo, canonicalize (dead ops,
// band normal form), the convert passes of sdpa-pipeline (every forward and
// backward the import produced, each with its own tiles), then
// sdpa-export-ffi-calls: each site becomes an XLA FFI call to its kernels
// and the kernel modules move into a nested module, which the kernel tail of
// the lowering (GPU to NVVM, artifacts) compiles before sdpa-drop-kernels
// removes it. What remains is the input module with its attention sites as
// FFI calls (docs/Export.md); a JAX training step on the cuDNN or XLA path
// becomes two artifacts and two calls. Options of `lowering` that
// sdpa-pipeline refuses fail the whole pipeline; without an
// `index-bitwidth` there, the kernels take a 32-bit index, which the static
// shapes are checked against.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Export/ExportPasses.h"
#include "SdpaDialect/Import/ImportPasses.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct StablehloPipelineOptions
    : public PassPipelineOptions<StablehloPipelineOptions> {
  Option<std::string> lowering{
      *this, "lowering",
      llvm::cl::desc("Options of sdpa-pipeline, e.g. "
                     "\"backward-tile-q=32 artifact-dir=out\""),
      llvm::cl::init("")};
};

LogicalResult buildStablehloPipeline(OpPassManager &pm,
                                     const StablehloPipelineOptions &options,
                                     PipelineErrorFn error) {
  std::string loweringText = options.lowering;
  std::unique_ptr<AttentionPipelineOptions> lowering =
      AttentionPipelineOptions::createFromString(loweringText);
  if (!lowering)
    return error("sdpa-stablehlo-pipeline: invalid 'lowering' options '" +
                 options.lowering + "' (the options of sdpa-pipeline)");
  // JAX prints static shapes, so a 32-bit index is checked at compile time:
  // the default here, unless `lowering` names a width.
  if (!lowering->indexBitwidth.hasValue()) {
    loweringText += " index-bitwidth=32";
    lowering = AttentionPipelineOptions::createFromString(loweringText);
  }
  // Sites the lowerings refuse (with these options, a 32-bit index
  // included) stay StableHLO, so the module compiles whole.
  SdpaImportStablehloOptions importOptions;
  importOptions.checkLowering = true;
  importOptions.lowering = loweringText;
  pm.addPass(createSdpaImportStablehlo(importOptions));
  // Drops what the import left unused (the bias placeholders of the cuDNN
  // calls) and puts bands into their canonical form.
  pm.addPass(createCanonicalizerPass());
  if (failed(buildAttentionConversions(pm, *lowering, error,
                                       HostSide::TaggedOps)))
    return failure();
  KernelTargetOptions target = lowering->getTargetOptions();
  SdpaExportFfiCallsOptions exported;
  exported.artifactDir = target.artifactDir;
  exported.artifactName = target.artifactName;
  pm.addPass(createSdpaExportFfiCalls(exported));
  // The kernels alone, set apart in @sdpa_kernels, through the shared tail.
  buildKernelsToArtifactPipeline(pm.nest<ModuleOp>(), target);
  pm.addPass(createSdpaDropKernels());
  return success();
}
} // namespace

void mlir::sdpa::registerSdpaImportPipelines() {
  registerCheckedPipeline<StablehloPipelineOptions>(
      "sdpa-stablehlo-pipeline",
      "Import attention from StableHLO, compile every forward and backward "
      "to artifacts and write the module with each site an XLA FFI call to "
      "its kernels",
      buildStablehloPipeline);
}
