//===- Registration.cpp - Registering the lowering pipelines --------------===//
//
// Registers sdpa-forward-pipeline, sdpa-backward-pipeline and sdpa-pipeline
// (whose builders refuse bad options with a diagnostic), the tail's passes,
// and what the lowering needs beyond the dialects: the to-LLVM interfaces,
// the LLVM IR translations and the NVVM target.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Pipelines/Pipelines.h"

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
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace mlir::sdpa;

void mlir::sdpa::registerSdpaPipelines() {
  registerSdpaPipelinePasses();
  registerCheckedPipeline<ForwardPipelineOptions>(
      "sdpa-forward-pipeline",
      "Lower sdpa.attention to SM80 PTX (derive bounds, convert-sdpa-to-gpu, "
      "GPU to NVVM with bare pointers) and optionally write the artifact",
      buildForwardPipeline);
  registerCheckedPipeline<BackwardPipelineOptions>(
      "sdpa-backward-pipeline",
      "Lower sdpa.attention_grad to SM80 PTX (derive bounds, "
      "convert-sdpa-grad-to-gpu, GPU to NVVM with bare pointers) and "
      "optionally write the artifact",
      buildBackwardPipeline);
  registerCheckedPipeline<AttentionPipelineOptions>(
      "sdpa-pipeline",
      "Lower every sdpa.attention and sdpa.attention_grad of a module to SM80 "
      "PTX (each direction with its own tiles) and optionally write the "
      "artifacts",
      buildAttentionPipeline);
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
