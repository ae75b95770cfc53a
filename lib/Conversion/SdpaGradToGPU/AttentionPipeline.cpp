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

#include "SdpaDialect/Conversion/KernelPipelineOptions.h"
#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Conversion/SdpaGradPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {
/// `tile-q`, `tile-kv`, `warps`, `stages` are the forward's (as in
/// sdpa-forward-pipeline); `backward-tile-q`, `backward-tile-kv` the
/// backward's tiles (32 x 64, as in sdpa-backward-pipeline).
struct AttentionPipelineOptions
    : public KernelPipelineOptions<AttentionPipelineOptions> {
  AttentionPipelineOptions()
      : KernelPipelineOptions(/*defaultTileQ=*/64, "Keys per forward tile") {}

  Option<int64_t> warps{*this, "warps",
                        llvm::cl::desc("Warps per forward block"),
                        llvm::cl::init(4)};
  Option<int64_t> stages{*this, "stages",
                         llvm::cl::desc("Shared-memory stages of K/V (forward)"),
                         llvm::cl::init(2)};
  Option<int64_t> backwardTileQ{
      *this, "backward-tile-q",
      llvm::cl::desc("Query rows per backward tile"), llvm::cl::init(32)};
  Option<int64_t> backwardTileKv{
      *this, "backward-tile-kv",
      llvm::cl::desc("Keys per backward tile (one warp per 16)"),
      llvm::cl::init(64)};
};

void buildAttentionPipeline(OpPassManager &pm,
                            const AttentionPipelineOptions &options) {
  pm.addPass(createForwardLowering(options.tileQ, options.tileKv,
                                   options.warps, options.stages));
  ConvertSdpaGradToGPUOptions backward;
  backward.tileQ = options.backwardTileQ;
  backward.tileKv = options.backwardTileKv;
  pm.addPass(createConvertSdpaGradToGPU(backward));
  buildKernelsToArtifactPipeline(pm, options.getTargetOptions());
}
} // namespace

void mlir::sdpa::registerSdpaAttentionPipeline() {
  PassPipelineRegistration<AttentionPipelineOptions>(
      "sdpa-pipeline",
      "Lower every sdpa.attention and sdpa.attention_grad of a module to SM80 "
      "PTX (each direction with its own tiles) and optionally write the "
      "artifacts",
      buildAttentionPipeline);
}
