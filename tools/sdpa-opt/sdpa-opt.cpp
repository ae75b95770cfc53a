//===- sdpa-opt.cpp - The sdpa optimizer driver ---------------------------===//
//
// Registers exactly the dialects, passes and translations the sdpa pipelines
// need, then runs mlir-opt's main loop on the input, once the input has
// passed the limits of SdpaDialect/Utils/InputLimits.h (what would overflow
// MLIR's recursive parser gets a diagnostic at its position instead).
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
#include "SdpaDialect/Utils/InputLimits.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace {

/// Prints the first limit `buffer` exceeds as an error at its position;
/// false when there is none.
bool reportInputLimitViolation(const llvm::MemoryBuffer &buffer) {
  std::optional<mlir::sdpa::InputLimitViolation> violation =
      mlir::sdpa::findInputLimitViolation(buffer.getMemBufferRef());
  if (!violation)
    return false;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  sourceMgr.PrintMessage(
      llvm::SMLoc::getFromPointer(buffer.getBufferStart() + violation->offset),
      llvm::SourceMgr::DK_Error, violation->message);
  return true;
}

/// mlir-opt's main loop (MlirOptMain with file names), with the input
/// checked against the limits before it is parsed.
mlir::LogicalResult runOnInput(int argc, char **argv,
                               mlir::DialectRegistry &registry) {
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "sdpa optimizer driver\n", registry);
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input;
  // --show-dialects and --list-passes read no input.
  if (!config.shouldShowDialects() && !config.shouldListPasses()) {
    input = mlir::openInputFile(inputFilename, &errorMessage);
    if (!input) {
      llvm::errs() << errorMessage << "\n";
      return mlir::failure();
    }
    if (reportInputLimitViolation(*input))
      return mlir::failure();
  } else {
    input = llvm::MemoryBuffer::getMemBuffer("");
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
}

} // namespace

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
  return mlir::asMainReturnCode(runOnInput(argc, argv, registry));
}
