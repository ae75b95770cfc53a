//===- FuzzInput.h - What the textual-IR fuzzers share ----------*- C++ -*-===//
//
// The context every textual-IR fuzzer runs in and the parse of libFuzzer's
// bytes into a verified module. Header-only: each fuzzer is one executable.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_FUZZ_FUZZINPUT_H
#define SDPA_FUZZ_FUZZINPUT_H

#include "SdpaDialect/Utils/InputLimits.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <cstdint>
#include <memory>
#include <string>

namespace sdpa_fuzz {

/// The fuzzer's context, made afresh every 256 inputs so that uniqued
/// attributes and types do not pile up. `setup` fills its dialect registry;
/// every diagnostic goes to `handler` (bad input is expected to make them).
template <typename Handler>
mlir::MLIRContext &
recycledContext(llvm::function_ref<void(mlir::DialectRegistry &)> setup,
                Handler handler) {
  static std::unique_ptr<mlir::MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 256 == 0) {
    mlir::DialectRegistry registry;
    setup(registry);
    ctx = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    ctx->getDiagEngine().registerHandler(handler);
  }
  return *ctx;
}

/// Parses libFuzzer's `size` bytes at `data` as a module of `ctx` and
/// verifies it; null when either fails, or when the text exceeds the limits
/// sdpa-opt checks before parsing (SdpaDialect/Utils/InputLimits.h: past
/// them MLIR's own recursive parser overflows the stack). `text` receives
/// the NUL-terminated copy the lexer needs (libFuzzer's buffer has none) and
/// must outlive the module.
inline mlir::OwningOpRef<mlir::ModuleOp>
parseVerifiedInput(mlir::MLIRContext &ctx, const uint8_t *data, size_t size,
                   std::string &text) {
  text.assign(reinterpret_cast<const char *>(data), size);
  if (mlir::sdpa::findInputLimitViolation(text))
    return nullptr;
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (!module || mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

} // namespace sdpa_fuzz

#endif // SDPA_FUZZ_FUZZINPUT_H
