//===- BackwardPipeline.cpp - sdpa-backward-pipeline ----------------------===//
//
// sdpa.attention_grad to PTX: derive the tile schedule, lower to the three
// SM80 backward kernels, drop the host side, run the upstream GPU to NVVM
// pipeline (bare pointers, PTX out), and optionally write the artifact. The
// model is sdpa-forward-pipeline, whose tail (buildLoweringPipeline) it
// shares.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

using namespace mlir;
using namespace mlir::sdpa;

LogicalResult mlir::sdpa::buildBackwardPipeline(
    OpPassManager &pm, const BackwardPipelineOptions &options,
    PipelineErrorFn error) {
  if (failed(checkKernelPipelineOptions("sdpa-backward-pipeline", options,
                                        error)))
    return failure();
  ConvertSdpaGradToGPUOptions lowering;
  lowering.tileQ = options.tileQ;
  lowering.tileKv = options.tileKv;
  lowering.dqMode = options.dqMode;
  buildLoweringPipeline(pm, options.tileQ, options.tileKv,
                        createConvertSdpaGradToGPU(lowering),
                        options.getTargetOptions(), options.dqMode);
  return success();
}
