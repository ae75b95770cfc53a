//===- SdpaGradPasses.h - sdpa backward lowering passes ---------*- C++ -*-===//
//
// Declares convert-sdpa-grad-to-gpu, the pass that lowers sdpa.attention_grad
// to GPU kernels (the pipelines around it: SdpaDialect/Pipelines/Pipelines.h).
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_SDPAGRADPASSES_H
#define SDPADIALECT_CONVERSION_SDPAGRADPASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "SdpaDialect/Conversion/KernelOptions.h"

namespace mlir::sdpa {

#define GEN_PASS_DECL
#include "SdpaDialect/Conversion/SdpaGradPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "SdpaDialect/Conversion/SdpaGradPasses.h.inc"

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_SDPAGRADPASSES_H
