//===- ImportStablehlo.cpp - The sdpa-import-stablehlo pass ---------------===//
//
// Drives the three importers: cuDNN custom calls (all analyzed before any is
// rewritten, so an unsupported one leaves the module unchanged), composites,
// then decomposed graphs.
//
//===----------------------------------------------------------------------===//

#include "Import.h"
#include "SdpaDialect/Import/ImportPasses.h"
#include "SdpaDialect/Pipelines/KernelPipelineOptions.h"
#include "SdpaDialect/SdpaDialect.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPAIMPORTSTABLEHLO
#include "SdpaDialect/Import/ImportPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;
using namespace mlir::sdpa::import;

namespace {

struct ImportStablehloPass
    : public sdpa::impl::SdpaImportStablehloBase<ImportStablehloPass> {
  using SdpaImportStablehloBase::SdpaImportStablehloBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();

    // cuDNN custom calls: exactly or not at all, for the whole module.
    SmallVector<CudnnCall> calls;
    bool unsupported = false;
    module.walk([&](shlo::CustomCallOp op) {
      if (!isCudnnAttentionTarget(op.getCallTargetName())) {
        op.emitRemark("custom call @")
            << op.getCallTargetName() << " is not attention; left unchanged";
        return;
      }
      FailureOr<CudnnCall> call = analyzeCudnnCall(op);
      if (failed(call))
        unsupported = true;
      else
        calls.push_back(*call);
    });
    if (unsupported)
      return signalPassFailure();

    IRRewriter rewriter(module.getContext());
    // Walk order puts a forward before the backward that reads its results.
    for (const CudnnCall &call : calls)
      importCudnnCall(rewriter, call);

    SmallVector<shlo::CompositeOp> composites;
    module.walk([&](shlo::CompositeOp op) { composites.push_back(op); });
    for (shlo::CompositeOp op : composites)
      (void)importComposite(rewriter, op);

    if (!decomposed)
      return;
    // The lowerings' options, read as sdpa-pipeline reads them.
    std::optional<LoweringCheck> check;
    if (checkLowering) {
      std::unique_ptr<AttentionPipelineOptions> options =
          AttentionPipelineOptions::createFromString(lowering);
      if (!options) {
        module.emitError("sdpa-import-stablehlo: invalid 'lowering' options '")
            << lowering << "' (the options of sdpa-pipeline)";
        return signalPassFailure();
      }
      check.emplace();
      check->forward.tiles = {options->tileQ, options->tileKv};
      check->forward.warps = options->warps;
      check->forward.stages = options->stages;
      check->backward.tiles = {options->backwardTileQ,
                               options->backwardTileKv};
      check->backward.dqMode = toDqMode(options->backwardDqMode);
      check->indexBitwidth = options->indexBitwidth;
    }
    // An import may erase private helpers: look each function up by name
    // when its turn comes.
    SmallVector<StringAttr> names;
    for (auto func : module.getOps<func::FuncOp>())
      names.push_back(func.getSymNameAttr());
    for (StringAttr name : names)
      if (auto func = module.lookupSymbol<func::FuncOp>(name))
        importDecomposedAttention(rewriter, func, check ? &*check : nullptr);
  }
};

} // namespace
