//===- ImportFuzzer.cpp - Fuzz the StableHLO importer ---------------------===//
//
// Feeds arbitrary text through sdpa-import-stablehlo: parse (the StableHLO
// subset, func, arith, tensor and sdpa registered) -> verify ->
// sdpa-import-stablehlo -> verify -> canonicalize -> sdpa-derive-bounds ->
// verify. The seed corpus is test/Import (JAX's cuDNN custom calls with
// their backend_config JSON, composites, XLA-decomposed graphs forward and
// backward, and the whole models of test/Import/Inputs/models: several
// sites per module, declines next to imports); half of the mutations edit a
// backend_config as JSON (BackendConfigMutator.cpp). Invariants:
//
//  * no crash and no sanitizer report, whatever the JSON or the graph;
//  * the importer imports exactly or not at all: when it fails, the module
//    prints exactly as before;
//  * what it produces verifies and survives the sdpa passes.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "SdpaDialect/Import/ImportPasses.h"
#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/SdpaPasses.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>
#include <string>

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// A context with the dialects sdpa-opt registers for import.
MLIRContext &context() {
  return sdpa_fuzz::recycledContext(
      [](DialectRegistry &registry) {
        registry.insert<SdpaDialect, shlo::StablehloDialect,
                        affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect, tensor::TensorDialect>();
      },
      [](Diagnostic &) {});
}

std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

[[noreturn]] void fail(const char *what, StringRef before, StringRef after) {
  llvm::errs() << "invariant violated: " << what << "\n--- before\n"
               << before << "\n--- after\n"
               << after << "\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  std::string text;
  OwningOpRef<ModuleOp> module =
      sdpa_fuzz::parseVerifiedInput(ctx, data, size, text);
  if (!module)
    return 0;

  std::string before = print(*module);
  auto import = PassManager::on<ModuleOp>(&ctx);
  import.enableVerifier(true);
  import.addPass(createSdpaImportStablehlo());
  if (failed(import.run(*module))) {
    std::string after = print(*module);
    if (after != before)
      fail("sdpa-import-stablehlo failed (or left IR that does not verify) "
         "and changed the module",
         before, after);
    return 0;
  }

  auto lower = PassManager::on<ModuleOp>(&ctx);
  lower.enableVerifier(true);
  lower.addPass(createCanonicalizerPass());
  lower.addPass(createSdpaDeriveBounds());
  (void)lower.run(*module);
  return 0;
}
