//===- CheckLowered.cpp - Refuse sdpa ops a pipeline did not lower --------===//
//
// Runs after a pipeline's convert passes, before sdpa-strip-host erases the
// host side: an sdpa op that carries no `sdpa.kernel` tag was lowered by
// none of them (sdpa.attention_grad in sdpa-forward-pipeline, or
// sdpa.attention in sdpa-backward-pipeline) and would vanish with the host
// functions, leaving an artifact without its kernel. Each such op gets an
// error and the pipeline fails.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "SdpaDialect/Pipelines/Pipelines.h"
#include "SdpaDialect/SdpaOps.h"

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct CheckLoweredPass
    : public PassWrapper<CheckLoweredPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckLoweredPass)

  StringRef getArgument() const override { return "sdpa-check-lowered"; }
  StringRef getDescription() const override {
    return "Refuse the sdpa ops that no convert pass of the pipeline lowered";
  }

  void runOnOperation() override {
    bool unlowered = false;
    getOperation()->walk([&](AttentionOpInterface op) {
      if (op->hasAttr(getKernelAttrName()))
        return;
      op->emitOpError("is not lowered by this pipeline (sdpa-forward-pipeline "
                      "lowers sdpa.attention, sdpa-backward-pipeline "
                      "sdpa.attention_grad, sdpa-pipeline both)");
      unlowered = true;
    });
    if (unlowered)
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::sdpa::createCheckLoweredPass() {
  return std::make_unique<CheckLoweredPass>();
}
