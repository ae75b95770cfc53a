//===- ImportFuzzer.cpp - Fuzz the StableHLO importer ---------------------===//
//
// Feeds arbitrary text through sdpa-import-stablehlo: parse (the StableHLO
// subset, func, arith, tensor and sdpa registered) -> verify ->
// sdpa-import-stablehlo -> verify -> canonicalize -> sdpa-derive-bounds ->
// verify. The seed corpus is test/Import (JAX's cuDNN custom calls with
// their backend_config JSON, composites, XLA-decomposed graphs). Invariants:
//
//  * no crash and no sanitizer report, whatever the JSON or the graph;
//  * the importer imports exactly or not at all: when it fails, the module
//    prints exactly as before;
//  * what it produces verifies and survives the sdpa passes.
//
//===----------------------------------------------------------------------===//

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

/// A context with the dialects sdpa-opt registers for import; fresh every
/// few hundred inputs so that uniqued types and attributes do not pile up.
MLIRContext &context() {
  static std::unique_ptr<MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 256 == 0) {
    DialectRegistry registry;
    registry.insert<SdpaDialect, shlo::StablehloDialect,
                    affine::AffineDialect, arith::ArithDialect,
                    func::FuncDialect, tensor::TensorDialect>();
    ctx = std::make_unique<MLIRContext>(registry,
                                        MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    ctx->getDiagEngine().registerHandler([](Diagnostic &) {});
  }
  return *ctx;
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
  // The lexer reads up to a terminating NUL; libFuzzer's buffer has none.
  std::string text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&ctx);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module || failed(verify(*module)))
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
