//===- KernelsToArtifact.cpp - The lowering pipelines' shared tail --------===//
//
// After a convert pass has produced gpu.modules: strip the host side, give
// the exponentials one instruction each (sdpa-lower-exp2), lower with the
// upstream GPU to NVVM pipeline to PTX (bare-pointer kernels; at a
// 32-bit index its passes with that width, after sdpa-narrow-kernel-index), and
// write the artifact (docs/Artifact.md). Also the whole pipeline around it:
// derive the tile schedule, run the convert pass, then the tail.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaDialect/SdpaPasses.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sdpa;

/// The upstream GPU to NVVM pipeline's passes for kernel-only modules, each
/// conversion at a 32-bit index, after sdpa-narrow-kernel-index converted
/// the NVGPU ops (the one conversion without an index width option).
static void buildLowerToNVVMAt32Bits(OpPassManager &pm,
                                     const KernelTargetOptions &target) {
  pm.addPass(createSdpaNarrowKernelIndex());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions attach;
  attach.chip = target.chip;
  attach.features = target.features;
  attach.optLevel = target.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(attach));
  pm.addPass(createLowerAffinePass());
  ArithToLLVMConversionPassOptions arith;
  arith.indexBitwidth = 32;
  pm.addPass(createArithToLLVMConversionPass(arith));
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 32;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions gpu;
  gpu.indexBitwidth = 32;
  gpu.useBarePtrCallConv = true;
  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(gpu));
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::sdpa::buildKernelsToArtifactPipeline(
    OpPassManager &pm, const KernelTargetOptions &target) {
  pm.addPass(createSdpaStripHost());
  pm.addNestedPass<gpu::GPUModuleOp>(createSdpaLowerExp2());

  if (target.indexBitwidth == 32) {
    buildLowerToNVVMAt32Bits(pm, target);
  } else {
    gpu::GPUToNVVMPipelineOptions nvvm;
    nvvm.cubinChip = target.chip;
    nvvm.cubinFeatures = target.features;
    nvvm.cubinFormat = "isa";
    nvvm.optLevel = target.optLevel;
    nvvm.kernelUseBarePtrCallConv = true;
    gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
  }

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
  if (target.indexBitwidth == 32)
    pm.addPass(createSdpaCheckIndexRange());
  SdpaDeriveBoundsOptions bounds;
  bounds.tileQ = tileQ;
  bounds.tileKv = tileKv;
  bounds.dqMode = dqMode;
  pm.addPass(createSdpaDeriveBounds(bounds));
  pm.addPass(std::move(lowering));
  pm.addPass(createCheckLoweredPass());
  buildKernelsToArtifactPipeline(pm, target);
}
