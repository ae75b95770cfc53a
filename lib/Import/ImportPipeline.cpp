//===- ImportPipeline.cpp - StableHLO to PTX in one pipeline --------------===//
//
// `sdpa-stablehlo-pipeline`: sdpa-import-stablehlo, canonicalize (dead ops,
// band normal form), then sdpa-pipeline (buildAttentionPipeline, linked from
// lib/Pipelines), which lowers every forward and backward the import
// produced. A JAX training step on the cuDNN path becomes two artifacts, a
// forward-only model one. Options of `lowering` that sdpa-pipeline refuses
// fail the whole pipeline.
//
//===----------------------------------------------------------------------===//

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
  std::unique_ptr<AttentionPipelineOptions> lowering =
      AttentionPipelineOptions::createFromString(options.lowering);
  if (!lowering)
    return error("sdpa-stablehlo-pipeline: invalid 'lowering' options '" +
                 options.lowering + "' (the options of sdpa-pipeline)");
  pm.addPass(createSdpaImportStablehlo());
  // Drops what the import left unused (the bias placeholders of the cuDNN
  // calls) and puts bands into their canonical form.
  pm.addPass(createCanonicalizerPass());
  return buildAttentionPipeline(pm, *lowering, error);
}
} // namespace

void mlir::sdpa::registerSdpaImportPipelines() {
  registerCheckedPipeline<StablehloPipelineOptions>(
      "sdpa-stablehlo-pipeline",
      "Import attention from StableHLO (sdpa-import-stablehlo) and lower "
      "every forward and backward with sdpa-pipeline",
      buildStablehloPipeline);
}
