//===- IRFuzzer.cpp - Fuzz textual IR through the sdpa passes -------------===//
//
// Feeds arbitrary text through what sdpa-opt does with it: parse (sdpa, func,
// arith, tensor and affine registered) -> verify -> print and re-parse (the
// printed form of valid IR must parse and verify again) -> canonicalize ->
// sdpa-derive-bounds -> sdpa-materialize-bounds -> canonicalize (folding the
// bound functions), verifying after each pass -> sdpa-print-schedule. Bad input may only
// produce diagnostics; a crash, a sanitizer report or a round-trip failure is
// a bug.
//
// The tile sizes come from a hash of the input so the corpus covers several.
// sdpa-print-schedule prints one line per tile, so it only runs when the
// lengths it would enumerate are small (the fuzzer looks for crashes, not for
// long outputs); its lines go to /dev/null. The lowering to PTX is
// sdpa-lowering-fuzzer's (LoweringFuzzer.cpp).
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/SdpaPasses.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// Upper bound on the rows and keys sdpa-print-schedule may enumerate.
constexpr int64_t kMaxPrintedLength = 1 << 14;

/// A context with the dialects sdpa-opt registers. Types and attributes are
/// uniqued forever, so a fresh context every few hundred inputs keeps memory
/// flat.
MLIRContext &context() {
  return sdpa_fuzz::recycledContext(
      [](DialectRegistry &registry) {
        registry.insert<SdpaDialect, affine::AffineDialect,
                        arith::ArithDialect, func::FuncDialect,
                        tensor::TensorDialect>();
      },
      [](Diagnostic &) {});
}

[[noreturn]] void fail(const char *what, StringRef detail) {
  llvm::errs() << "invariant violated: " << what << "\n" << detail << "\n";
  llvm::errs().flush();
  std::abort();
}

/// The sum of the magnitudes of a constant seqlens operand, or 0.
int64_t constantMagnitude(Value value) {
  DenseIntElementsAttr elements;
  if (!matchPattern(value, m_Constant(&elements)))
    return 0;
  int64_t sum = 0;
  for (const APInt &v : elements.getValues<APInt>()) {
    int64_t x = v.getSExtValue();
    // |x| of an i32, summed over at most the input's size: no overflow.
    sum += x < 0 ? -x : x;
  }
  return sum;
}

/// Whether sdpa-print-schedule would enumerate few enough tiles: a bound on
/// the rows and keys of every sequence it would print, `optionLengths` being
/// the lengths its options give an op whose IR does not fix them.
bool scheduleIsSmall(ModuleOp module, int64_t optionLengths) {
  int64_t total = 0;
  module.walk([&](AttentionOpInterface op) {
    total += optionLengths;
    AttentionShape shape = op.getAttentionShape();
    for (int64_t length : {shape.seqQ, shape.seqKv})
      if (!ShapedType::isDynamic(length))
        total += std::min<int64_t>(length, kMaxPrintedLength + 1);
    for (Value seqlens : op.getSeqlens())
      total += std::min<int64_t>(2 * constantMagnitude(seqlens),
                                 kMaxPrintedLength + 1);
    if (total > kMaxPrintedLength)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return total <= kMaxPrintedLength;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // sdpa-print-schedule writes to stdout; libFuzzer reports on stderr.
  int devNull = open("/dev/null", O_WRONLY);
  if (devNull >= 0) {
    dup2(devNull, STDOUT_FILENO);
    close(devNull);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  std::string text;
  OwningOpRef<ModuleOp> module =
      sdpa_fuzz::parseVerifiedInput(ctx, data, size, text);
  if (!module)
    return 0;
  StringRef source(text);
  ParserConfig config(&ctx);

  // Valid IR prints to text that parses and verifies again.
  std::string printed;
  {
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }
  OwningOpRef<ModuleOp> reparsed =
      parseSourceString<ModuleOp>(printed, config);
  if (!reparsed || failed(verify(*reparsed)))
    fail("printed IR does not parse or verify again", printed);

  // 0: the default tile rule of each op.
  static const int64_t tileChoices[] = {0, 1, 2, 3, 7, 16, 64, 128};
  size_t hash = llvm::hash_value(source);
  int64_t tileQ = tileChoices[hash % 8], tileKv = tileChoices[(hash >> 3) % 8];

  auto pm = PassManager::on<ModuleOp>(&ctx);
  pm.enableVerifier(true);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSdpaDeriveBounds(SdpaDeriveBoundsOptions{tileQ, tileKv}));
  pm.addPass(createSdpaMaterializeBounds());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    return 0;

  // Print the schedule of the derived (attached) maps and of maps derived by
  // the printer itself from the original IR; a dynamic length gets 33.
  SdpaPrintScheduleOptions printOptions;
  printOptions.tileQ = tileKv;
  printOptions.tileKv = tileQ;
  printOptions.seqLensQ = {33};
  printOptions.seqLensKv = {17};
  for (ModuleOp target : {*module, *reparsed}) {
    if (!scheduleIsSmall(target, 33 + 17))
      continue;
    auto printer = PassManager::on<ModuleOp>(&ctx);
    printer.addPass(createSdpaPrintSchedule(printOptions));
    (void)printer.run(target);
  }
  return 0;
}
