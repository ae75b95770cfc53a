//===- ImportPipeline.cpp - StableHLO to PTX in one pipeline --------------===//
//
// `sdpa-stablehlo-forward-pipeline`: sdpa-import-stablehlo, canonicalize (dead
// ops, band normal form), then the forward lowering pipeline
// (`sdpa-forward-pipeline`, looked up by name so the two stay decoupled).
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
} // namespace

void mlir::sdpa::registerSdpaImportPipelines() {
  PassPipelineRegistration<StablehloForwardPipelineOptions>(
      "sdpa-stablehlo-forward-pipeline",
      "Import attention from StableHLO (sdpa-import-stablehlo) and lower it "
      "with sdpa-forward-pipeline",
      [](OpPassManager &pm, const StablehloForwardPipelineOptions &options) {
        pm.addPass(createSdpaImportStablehlo());
        // Drops what the import left unused (the bias placeholders of the
        // cuDNN calls) and puts bands into their canonical form.
        pm.addPass(createCanonicalizerPass());
        std::string forward = "sdpa-forward-pipeline";
        if (!options.forward.empty())
          forward += "{" + options.forward + "}";
        if (failed(parsePassPipeline(forward, pm, llvm::errs())))
          llvm::errs() << "sdpa-stablehlo-forward-pipeline: "
                          "sdpa-forward-pipeline is not registered\n";
      });
}
