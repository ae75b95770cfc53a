//===- BackwardPipeline.cpp - sdpa-backward-pipeline ----------------------===//
//
// sdpa.attention_grad to PTX: derive the tile schedule, lower to the three
// SM80 backward kernels, drop the host side, run the upstream GPU to NVVM
// pipeline (bare pointers, PTX out), and optionally write the artifact. The
// model is sdpa-forward-pipeline (lib/Pipelines), whose host-stripping and
// artifact passes it reuses.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelPipelineOptions.h"
#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/SdpaPasses.h"

#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct BackwardPipelineOptions
    : public KernelPipelineOptions<BackwardPipelineOptions> {
  BackwardPipelineOptions()
      : KernelPipelineOptions(/*defaultTileQ=*/32,
                              "Keys per tile (one warp per 16)") {}
};

void buildBackwardPipeline(OpPassManager &pm,
                           const BackwardPipelineOptions &options) {
  ConvertSdpaGradToGPUOptions lowering;
  lowering.tileQ = options.tileQ;
  lowering.tileKv = options.tileKv;
  buildLoweringPipeline(pm, options.tileQ, options.tileKv,
                        createConvertSdpaGradToGPU(lowering),
                        options.getTargetOptions());
}
} // namespace

void mlir::sdpa::registerSdpaBackwardPipeline() {
  PassPipelineRegistration<BackwardPipelineOptions>(
      "sdpa-backward-pipeline",
      "Lower sdpa.attention_grad to SM80 PTX (derive bounds, "
      "convert-sdpa-grad-to-gpu, GPU to NVVM with bare pointers) and "
      "optionally write the artifact",
      buildBackwardPipeline);
}
