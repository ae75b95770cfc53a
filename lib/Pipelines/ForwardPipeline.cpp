//===- ForwardPipeline.cpp - sdpa-forward-pipeline ------------------------===//
//
// sdpa.attention to PTX: derive the tile schedule, lower to the SM80 kernel,
// drop the host side, run the upstream GPU to NVVM pipeline (bare pointers,
// PTX out), and optionally write the artifact. Also registers what the
// lowering needs beyond the dialects: the to-LLVM interfaces, the LLVM IR
// translations and the NVVM target.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelPipelineOptions.h"
#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/SdpaPasses.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct ForwardPipelineOptions
    : public KernelPipelineOptions<ForwardPipelineOptions> {
  ForwardPipelineOptions()
      : KernelPipelineOptions(/*defaultTileQ=*/64, "Keys per tile") {}

  Option<int64_t> warps{*this, "warps", llvm::cl::desc("Warps per block"),
                        llvm::cl::init(4)};
  Option<int64_t> stages{*this, "stages",
                         llvm::cl::desc("Shared-memory stages of K/V"),
                         llvm::cl::init(2)};
};

void buildForwardPipeline(OpPassManager &pm,
                          const ForwardPipelineOptions &options) {
  buildLoweringPipeline(pm, options.tileQ, options.tileKv,
                        createForwardLowering(options.tileQ, options.tileKv,
                                              options.warps, options.stages),
                        options.getTargetOptions());
}
} // namespace

std::unique_ptr<Pass> mlir::sdpa::createForwardLowering(int64_t tileQ,
                                                        int64_t tileKv,
                                                        int64_t warps,
                                                        int64_t stages) {
  ConvertSdpaToGPUOptions lowering;
  lowering.tileQ = tileQ;
  lowering.tileKv = tileKv;
  lowering.warps = warps;
  lowering.stages = stages;
  return createConvertSdpaToGPU(lowering);
}

void mlir::sdpa::registerSdpaPipelines() {
  PassPipelineRegistration<ForwardPipelineOptions>(
      "sdpa-forward-pipeline",
      "Lower sdpa.attention to SM80 PTX (derive bounds, convert-sdpa-to-gpu, "
      "GPU to NVVM with bare pointers) and optionally write the artifact",
      buildForwardPipeline);
}

void mlir::sdpa::registerSdpaLoweringDependencies(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, NVVM::NVVMDialect,
                  nvgpu::NVGPUDialect, scf::SCFDialect,
                  vector::VectorDialect>();
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}
