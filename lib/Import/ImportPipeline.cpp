//===- ImportPipeline.cpp - StableHLO to PTX in one pipeline --------------===//
//
// `sdpa-stablehlo-forward-pipeline`: sdpa-import-stablehlo, canonicalize (dead
// ops, band normal form), then the forward lowering pipeline
// (`sdpa-forward-pipeline`, looked up by name so the two stay decoupled).
// `sdpa-stablehlo-pipeline`: the same with `sdpa-pipeline`, which lowers the
// backward too (a JAX training step: cuDNN forward and backward calls).
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Import/ImportPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
struct StablehloForwardPipelineOptions
    : public PassPipelineOptions<StablehloForwardPipelineOptions> {
  Option<std::string> forward{
      *this, "forward",
      llvm::cl::desc("Options of sdpa-forward-pipeline, e.g. "
                     "\"tile-q=64 artifact-dir=out\""),
      llvm::cl::init("")};
};

struct StablehloPipelineOptions
    : public PassPipelineOptions<StablehloPipelineOptions> {
  Option<std::string> lowering{
      *this, "lowering",
      llvm::cl::desc("Options of sdpa-pipeline, e.g. "
                     "\"backward-tile-q=32 artifact-dir=out\""),
      llvm::cl::init("")};
};

/// sdpa-import-stablehlo, canonicalize, then the registered pipeline
/// `lowering` with `options` (by name, so the import does not link the
/// lowerings).
void buildImportThenLower(OpPassManager &pm, StringRef lowering,
                          StringRef options) {
  pm.addPass(sdpa::createSdpaImportStablehlo());
  // Drops what the import left unused (the bias placeholders of the cuDNN
  // calls) and puts bands into their canonical form.
  pm.addPass(createCanonicalizerPass());
  std::string text = lowering.str();
  if (!options.empty())
    text += "{" + options.str() + "}";
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::errs() << lowering << " is not registered\n";
}
} // namespace

void mlir::sdpa::registerSdpaImportPipelines() {
  PassPipelineRegistration<StablehloForwardPipelineOptions>(
      "sdpa-stablehlo-forward-pipeline",
      "Import attention from StableHLO (sdpa-import-stablehlo) and lower it "
      "with sdpa-forward-pipeline",
      [](OpPassManager &pm, const StablehloForwardPipelineOptions &options) {
        buildImportThenLower(pm, "sdpa-forward-pipeline", options.forward);
      });
  PassPipelineRegistration<StablehloPipelineOptions>(
      "sdpa-stablehlo-pipeline",
      "Import attention from StableHLO (sdpa-import-stablehlo) and lower "
      "forwards and backwards with sdpa-pipeline",
      [](OpPassManager &pm, const StablehloPipelineOptions &options) {
        buildImportThenLower(pm, "sdpa-pipeline", options.lowering);
      });
}
