//===- ImportPipeline.cpp - StableHLO to PTX in one pipeline --------------===//
//
// `sdpa-stablehlo-pipeline`: sdpa-import-stablehlo, canonicalize (dead ops,
// band normal form), then `sdpa-pipeline`, which lowers every forward and
// backward the import produced (looked up by name, so that the import does
// not link the lowerings). A JAX training step on the cuDNN path becomes
// two artifacts, a forward-only model one.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Import/ImportPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
struct StablehloPipelineOptions
    : public PassPipelineOptions<StablehloPipelineOptions> {
  Option<std::string> lowering{
      *this, "lowering",
      llvm::cl::desc("Options of sdpa-pipeline, e.g. "
                     "\"backward-tile-q=32 artifact-dir=out\""),
      llvm::cl::init("")};
};
} // namespace

void mlir::sdpa::registerSdpaImportPipelines() {
  PassPipelineRegistration<StablehloPipelineOptions>(
      "sdpa-stablehlo-pipeline",
      "Import attention from StableHLO (sdpa-import-stablehlo) and lower "
      "every forward and backward with sdpa-pipeline",
      [](OpPassManager &pm, const StablehloPipelineOptions &options) {
        pm.addPass(sdpa::createSdpaImportStablehlo());
        // Drops what the import left unused (the bias placeholders of the
        // cuDNN calls) and puts bands into their canonical form.
        pm.addPass(createCanonicalizerPass());
        std::string lowering = "sdpa-pipeline";
        if (!options.lowering.empty())
          lowering += "{" + options.lowering + "}";
        if (failed(parsePassPipeline(lowering, pm, llvm::errs())))
          llvm::errs() << "sdpa-stablehlo-pipeline: sdpa-pipeline is not "
                          "registered\n";
      });
}
