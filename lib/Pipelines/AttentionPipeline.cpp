//===- AttentionPipeline.cpp - sdpa-pipeline: forward and backward --------===//
//
// One pipeline for a module that holds both directions, as a training step
// does: every sdpa.attention through convert-sdpa-to-gpu, every
// sdpa.attention_grad through convert-sdpa-grad-to-gpu, each with its own
// tiles, then the shared tail (buildKernelsToArtifactPipeline: strip host,
// GPU to NVVM, artifacts). sdpa-derive-bounds is not run: it would give both
// directions one tile shape, and each convert pass derives the schedule of
// its tiles itself (an op that already carries a schedule keeps its tiles).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::sdpa;

LogicalResult mlir::sdpa::buildAttentionConversions(
    OpPassManager &pm, const AttentionPipelineOptions &options,
    PipelineErrorFn error, HostSide host) {
  StringRef name = "sdpa-pipeline";
  if (failed(checkKernelPipelineOptions(name, options, error)) ||
      failed(checkPipelineOption(
          name, checkForwardOptions(options.warps, options.stages), error)) ||
      failed(checkPipelineOption(
          name, checkTileOption("backward-tile-q", options.backwardTileQ),
          error)) ||
      failed(checkPipelineOption(
          name, checkTileOption("backward-tile-kv", options.backwardTileKv),
          error)))
    return failure();
  if (options.indexBitwidth == 32)
    pm.addPass(createSdpaCheckIndexRange());
  pm.addPass(createForwardLowering(options.tileQ, options.tileKv,
                                   options.warps, options.stages, host));
  ConvertSdpaGradToGPUOptions backward;
  backward.tileQ = options.backwardTileQ;
  backward.tileKv = options.backwardTileKv;
  backward.dqMode = options.backwardDqMode;
  backward.hostProgram = host == HostSide::Program;
  pm.addPass(createConvertSdpaGradToGPU(backward));
  pm.addPass(createCheckLoweredPass());
  return success();
}

LogicalResult mlir::sdpa::buildAttentionPipeline(
    OpPassManager &pm, const AttentionPipelineOptions &options,
    PipelineErrorFn error) {
  if (failed(buildAttentionConversions(pm, options, error)))
    return failure();
  buildKernelsToArtifactPipeline(pm, options.getTargetOptions());
  return success();
}
