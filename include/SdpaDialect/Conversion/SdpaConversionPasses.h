//===- SdpaConversionPasses.h - sdpa lowering passes ------------*- C++ -*-===//
//
// Declares the passes that lower sdpa ops to GPU kernels and write the
// kernel artifact, and the registered forward pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_SDPACONVERSIONPASSES_H
#define SDPADIALECT_CONVERSION_SDPACONVERSIONPASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdpa {

#define GEN_PASS_DECL
#include "SdpaDialect/Conversion/SdpaConversionPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "SdpaDialect/Conversion/SdpaConversionPasses.h.inc"

/// Registers `sdpa-forward-pipeline`.
void registerSdpaPipelines();

/// Where the lowered kernels go: the target and the optional artifact.
struct KernelTargetOptions {
  std::string chip, features;
  int optLevel = 3;
  /// Write <artifactDir>/<artifactName>.{ptx,manifest}; empty: do not.
  std::string artifactDir, artifactName;
};

/// The tail both lowering pipelines share, after their convert pass: drop
/// the host side, run the upstream GPU to NVVM pipeline (PTX, bare
/// pointers), and write the artifact if asked.
void buildKernelsToArtifactPipeline(OpPassManager &pm,
                                    const KernelTargetOptions &target);

/// Registers the dialects the lowering emits and what it needs besides: the
/// to-LLVM conversion interfaces, the builtin/llvm/gpu/nvvm LLVM IR
/// translations and the NVVM target attribute's serialization.
void registerSdpaLoweringDependencies(DialectRegistry &registry);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_SDPACONVERSIONPASSES_H
