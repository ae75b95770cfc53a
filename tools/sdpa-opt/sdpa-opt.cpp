//===- sdpa-opt.cpp - The sdpa optimizer driver ---------------------------===//
//
// Registers exactly the dialects, passes and translations the sdpa pipelines
// need, then runs mlir-opt's main loop.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/Export/ExportPasses.h"
#include "SdpaDialect/Import/ImportPasses.h"
#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/SdpaPasses.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::sdpa::SdpaDialect, mlir::affine::AffineDialect,
                  mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::tensor::TensorDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::sdpa::registerSdpaPasses();
  // StableHLO's quantized element types are the quant dialect's
  // (`!quant.uniform<i8:f32, 0.5:-1>`).
  registry.insert<mlir::sdpa::shlo::StablehloDialect,
                  mlir::quant::QuantDialect>();
  mlir::sdpa::registerSdpaImportPasses();
  mlir::sdpa::registerSdpaImportPipelines();
  mlir::sdpa::registerSdpaExportPasses();
  mlir::sdpa::registerSdpaLoweringDependencies(registry);
  mlir::sdpa::registerSdpaConversionPasses();
  mlir::sdpa::registerSdpaGradPasses();
  mlir::sdpa::registerSdpaPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "sdpa optimizer driver\n", registry));
}
