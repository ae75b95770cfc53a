//===- KernelsToArtifact.cpp - The lowering pipelines' shared tail --------===//
//
// After a convert pass has produced gpu.modules: strip the host side, lower
// with the upstream GPU to NVVM pipeline to PTX (bare-pointer kernels), and
// write the artifact (docs/Artifact.md). Also the whole pipeline around it:
// derive the tile schedule, run the convert pass, then the tail.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaDialect/SdpaPasses.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::sdpa;

void mlir::sdpa::buildKernelsToArtifactPipeline(
    OpPassManager &pm, const KernelTargetOptions &target) {
  pm.addPass(createSdpaStripHost());

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = target.chip;
  nvvm.cubinFeatures = target.features;
  nvvm.cubinFormat = "isa";
  nvvm.optLevel = target.optLevel;
  nvvm.kernelUseBarePtrCallConv = true;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);

  if (!target.artifactDir.empty()) {
    SdpaWriteArtifactOptions artifact;
    artifact.dir = target.artifactDir;
    artifact.name = target.artifactName;
    pm.addPass(createSdpaWriteArtifact(artifact));
  }
}

void mlir::sdpa::buildLoweringPipeline(OpPassManager &pm, int64_t tileQ,
                                       int64_t tileKv,
                                       std::unique_ptr<Pass> lowering,
                                       const KernelTargetOptions &target,
                                       DqModeOption dqMode) {
  SdpaDeriveBoundsOptions bounds;
  bounds.tileQ = tileQ;
  bounds.tileKv = tileKv;
  bounds.dqMode = dqMode;
  pm.addPass(createSdpaDeriveBounds(bounds));
  pm.addPass(std::move(lowering));
  pm.addPass(createCheckLoweredPass());
  buildKernelsToArtifactPipeline(pm, target);
}
