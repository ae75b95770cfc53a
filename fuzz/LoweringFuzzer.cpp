//===- LoweringFuzzer.cpp - Fuzz textual IR through the lowering to PTX ---===//
//
// Feeds arbitrary text through what sdpa-forward-pipeline and
// sdpa-backward-pipeline do with it: parse -> verify -> (per direction, on a
// clone) sdpa-derive-bounds -> convert-sdpa-to-gpu or
// convert-sdpa-grad-to-gpu -> the pipelines' shared tail (strip host, the
// upstream GPU to NVVM pipeline, PTX through the NVPTX backend). The
// invariant, checked after every pass including the nested upstream ones:
// a pass either succeeds and leaves IR that verifies, or fails having
// emitted an error (and still leaves IR that verifies); nothing crashes,
// asserts or trips a sanitizer. A lowering that succeeds ends with one
// gpu.binary holding PTX per kernel module and a manifest for each.
//
// Speed: the PTX tail costs seconds per kernel under ASan, so it only runs on
// inputs whose sdpa ops pass the verifier and lower, on their first
// kMaxKernelModules kernel modules, and only for kernels this process has
// not compiled before (a mutation that renames a value or a function
// yields the same kernels). Replaying one input in a fresh process always
// runs it. The artifact is never written (empty artifact-dir). The pass
// options come from a hash of the input: mostly the pipelines' defaults and
// other valid tilings, sometimes ones the lowering must refuse.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/SdpaOps.h"
#include "SdpaDialect/SdpaPasses.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace mlir;
using namespace mlir::sdpa;

namespace {

/// Kernel modules of one input that go on to PTX, the rest are dropped (each
/// costs a few seconds under ASan; libFuzzer's per-input timeout is 25 s).
constexpr unsigned kMaxKernelModules = 2;

/// Errors emitted since the process started.
unsigned errorCount = 0;

/// How far the inputs got, printed at exit (docs/Robustness.md quotes it).
struct Stats {
  unsigned withOps = 0, converted = 0, refused = 0, compiled = 0,
           tailRefused = 0;
  // stdio: llvm::errs() may be destroyed by then.
  ~Stats() {
    std::fprintf(stderr,
                 "lowering: %u inputs with verified sdpa ops; per direction, "
                 "%u converted, %u refused with an error, %u new kernel sets "
                 "compiled to PTX, %u refused by the PTX tail\n",
                 withOps, converted, refused, compiled, tailRefused);
  }
} stats;

/// A context with what sdpa-opt registers for the lowering. Types and
/// attributes are uniqued forever, so a fresh context every few hundred
/// inputs keeps memory flat.
MLIRContext &context() {
  return sdpa_fuzz::recycledContext(
      [](DialectRegistry &registry) {
        registry.insert<SdpaDialect, affine::AffineDialect,
                        arith::ArithDialect, func::FuncDialect,
                        tensor::TensorDialect>();
        registerSdpaLoweringDependencies(registry);
      },
      // Count the errors: a failed pass must have emitted one.
      [](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          ++errorCount;
      });
}

[[noreturn]] void fail(const char *what, StringRef pass, Operation *op) {
  llvm::errs() << "invariant violated: " << what << " (pass " << pass
               << ")\n";
  if (op)
    op->print(llvm::errs(), OpPrintingFlags().assumeVerified());
  llvm::errs() << "\n";
  llvm::errs().flush();
  std::abort();
}

/// After every pass, nested ones included: the IR verifies, and a failed
/// pass has emitted an error.
struct InvariantChecker : public PassInstrumentation {
  /// The error count before each pass that is running (adaptors nest).
  SmallVector<unsigned> errorsBefore;

  void runBeforePass(Pass *, Operation *) override {
    errorsBefore.push_back(errorCount);
  }
  void runAfterPass(Pass *pass, Operation *op) override {
    errorsBefore.pop_back();
    if (failed(verify(op)))
      fail("a pass left IR that does not verify", pass->getArgument(), op);
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    unsigned before = errorsBefore.pop_back_val();
    if (errorCount == before)
      fail("a pass failed without emitting an error", pass->getArgument(),
           op);
    if (failed(verify(op)))
      fail("a failed pass left IR that does not verify",
           pass->getArgument(), op);
  }
};

/// Runs `pm` on `module` under the invariant checker; the verifier between
/// passes is the checker's, so a pass that breaks the IR is named.
LogicalResult runChecked(PassManager &pm, ModuleOp module) {
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<InvariantChecker>());
  return pm.run(module);
}

/// Pass options of one input, read off its hash.
struct LoweringOptions {
  int64_t tileQ, tileKv, warps, stages;
  int optLevel;
};

/// A convert pass's options with the tiles of `o`.
template <typename PassOptions>
PassOptions tiled(const LoweringOptions &o) {
  PassOptions options;
  options.tileQ = o.tileQ;
  options.tileKv = o.tileKv;
  return options;
}

LoweringOptions forwardOptions(size_t hash) {
  // {tile-q, tile-kv, warps, stages}: the default (0: the default tile
  // rule), the other valid tilings, and three the lowering refuses (rows per
  // warp not a multiple of 16, tile-kv not a multiple of 16, negative warps).
  static const int64_t choices[][4] = {
      {0, 0, 0, 2},    {0, 0, 0, 2},   {64, 64, 4, 2}, {128, 64, 8, 2},
      {64, 32, 4, 1},  {32, 128, 2, 2}, {16, 16, 1, 1}, {128, 128, 4, 2},
      {64, 64, 4, 1},  {32, 64, 1, 2}, {64, 24, 4, 2}, {48, 64, 4, 2},
      {64, 64, -1, 2}, {64, 64, 4, 3}, {128, 32, 8, 1}, {16, 64, 1, 2}};
  const int64_t *c = choices[hash % 16];
  return {c[0], c[1], c[2], c[3], (hash >> 4) % 4 == 0 ? 0 : 3};
}

LoweringOptions backwardOptions(size_t hash) {
  // {tile-q, tile-kv}: the default (0: the default tile rule), other
  // tilings, and refused ones.
  static const int64_t choices[][2] = {
      {0, 0},   {0, 0},   {32, 64}, {64, 64}, {16, 128}, {16, 16},
      {32, 32}, {64, 128}, {128, 64}, {16, 24}, {128, 128}, {8, 64},
      {32, 64}, {64, 32}, {16, 64}, {32, 128}};
  const int64_t *c = choices[(hash >> 8) % 16];
  return {c[0], c[1], 0, 0, (hash >> 12) % 4 == 0 ? 0 : 3};
}

/// Kernel modules already compiled to PTX by this process (hashes of their
/// printed form, their manifests and the options of the tail).
llvm::DenseSet<llvm::hash_code> &compiledKernels() {
  static llvm::DenseSet<llvm::hash_code> seen;
  return seen;
}

/// Lowers a clone of `module` in one direction: derive bounds and convert
/// with `convert`, then, for new kernels, the PTX tail.
template <typename CreateConvert>
void lower(ModuleOp module, int64_t tileQ, int64_t tileKv, int optLevel,
           CreateConvert createConvert) {
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(module->clone()));
  {
    auto pm = PassManager::on<ModuleOp>(module.getContext());
    pm.addPass(createSdpaDeriveBounds(SdpaDeriveBoundsOptions{tileQ, tileKv}));
    pm.addPass(createConvert());
    if (failed(runChecked(pm, *clone))) {
      ++stats.refused;
      return;
    }
    ++stats.converted;
  }

  // Only the first kMaxKernelModules kernel modules go on to PTX.
  std::string key;
  unsigned kernels = 0;
  {
    llvm::raw_string_ostream os(key);
    os << optLevel << "\n";
    for (auto kernel : llvm::make_early_inc_range(
             clone->getOps<gpu::GPUModuleOp>())) {
      if (kernels == kMaxKernelModules) {
        kernel.erase();
        continue;
      }
      kernel.print(os);
      ++kernels;
    }
    if (Attribute manifests = (*clone)->getAttr(getArtifactsAttrName()))
      os << manifests;
  }
  if (kernels == 0 || !compiledKernels().insert(llvm::hash_value(key)).second)
    return;

  auto pm = PassManager::on<ModuleOp>(module.getContext());
  buildKernelsToArtifactPipeline(pm, {"sm_80", "+ptx80", optLevel, "", ""});
  if (failed(runChecked(pm, *clone))) {
    ++stats.tailRefused;
    return;
  }
  ++stats.compiled;

  // What sdpa-write-artifact would write: PTX and a manifest per binary.
  auto manifests = (*clone)->getAttrOfType<DictionaryAttr>(
      getArtifactsAttrName());
  unsigned binaries = 0;
  for (Operation &op : clone->getBody()->getOperations()) {
    auto binary = dyn_cast<gpu::BinaryOp>(op);
    if (!binary)
      fail("the lowered module holds more than gpu.binary ops", "tail", &op);
    ++binaries;
    bool hasPtx = false;
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        hasPtx |= object.getFormat() == gpu::CompilationTarget::Assembly &&
                  !object.getObject().getValue().empty();
    if (!hasPtx)
      fail("a gpu.binary without PTX", "tail", binary);
    if (!manifests || !isa_and_nonnull<StringAttr>(
                          manifests.get(binary.getName())))
      fail("a gpu.binary without a manifest", "tail", binary);
  }
  if (binaries != kernels)
    fail("not one gpu.binary per kernel module", "tail", *clone);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  std::string text;
  OwningOpRef<ModuleOp> module =
      sdpa_fuzz::parseVerifiedInput(ctx, data, size, text);
  if (!module)
    return 0;
  StringRef source(text);

  // Modules without sdpa ops are sdpa-ir-fuzzer's.
  bool hasForward = false, hasBackward = false;
  module->walk([&](Operation *op) {
    hasForward |= isa<AttentionOp>(op);
    hasBackward |= isa<AttentionGradOp>(op);
  });

  stats.withOps += hasForward || hasBackward;
  size_t hash = llvm::hash_value(source);
  if (hasForward) {
    LoweringOptions o = forwardOptions(hash);
    lower(*module, o.tileQ, o.tileKv, o.optLevel, [&] {
      auto lowering = tiled<ConvertSdpaToGPUOptions>(o);
      lowering.warps = o.warps;
      lowering.stages = o.stages;
      return createConvertSdpaToGPU(lowering);
    });
  }
  if (hasBackward) {
    LoweringOptions o = backwardOptions(hash);
    lower(*module, o.tileQ, o.tileKv, o.optLevel, [&] {
      return createConvertSdpaGradToGPU(
          tiled<ConvertSdpaGradToGPUOptions>(o));
    });
  }
  return 0;
}
