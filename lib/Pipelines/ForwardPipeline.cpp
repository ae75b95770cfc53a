//===- ForwardPipeline.cpp - sdpa-forward-pipeline ------------------------===//
//
// sdpa.attention to PTX: derive the tile schedule, lower to the SM80 kernel,
// drop the host side, run the upstream GPU to NVVM pipeline (bare pointers,
// PTX out), and optionally write the artifact.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

using namespace mlir;
using namespace mlir::sdpa;

LogicalResult mlir::sdpa::buildForwardPipeline(
    OpPassManager &pm, const ForwardPipelineOptions &options,
    PipelineErrorFn error) {
  StringRef name = "sdpa-forward-pipeline";
  if (failed(checkKernelPipelineOptions(name, options, error)) ||
      failed(checkPipelineOption(
          name, checkForwardOptions(options.warps, options.stages), error)))
    return failure();
  buildLoweringPipeline(pm, options.tileQ, options.tileKv,
                        createForwardLowering(options.tileQ, options.tileKv,
                                              options.warps, options.stages),
                        options.getTargetOptions());
  return success();
}

std::unique_ptr<Pass> mlir::sdpa::createForwardLowering(int64_t tileQ,
                                                        int64_t tileKv,
                                                        int64_t warps,
                                                        int64_t stages,
                                                        HostSide host) {
  ConvertSdpaToGPUOptions lowering;
  lowering.tileQ = tileQ;
  lowering.tileKv = tileKv;
  lowering.warps = warps;
  lowering.stages = stages;
  lowering.hostProgram = host == HostSide::Program;
  return createConvertSdpaToGPU(lowering);
}
