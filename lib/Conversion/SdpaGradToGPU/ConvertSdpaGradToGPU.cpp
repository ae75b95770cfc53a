//===- ConvertSdpaGradToGPU.cpp - convert-sdpa-grad-to-gpu ----------------===//
//
// Emits one gpu.module with the three SM80 backward kernels per
// sdpa.attention_grad, tags the op with the module it lowered to, and
// records the artifact manifest on the top-level module.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaGradPasses.h"
#include "SdpaDialect/Conversion/SdpaGradToGPU.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_CONVERTSDPAGRADTOGPU
#include "SdpaDialect/Conversion/SdpaGradPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct ConvertSdpaGradToGPUPass
    : public sdpa::impl::ConvertSdpaGradToGPUBase<ConvertSdpaGradToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    BackwardKernelOptions options;
    options.tiles = {tileQ, tileKv};

    SmallVector<AttentionGradOp> ops;
    module.walk([&](AttentionGradOp op) { ops.push_back(op); });
    if (ops.empty())
      return;

    SmallVector<NamedAttribute> manifests;
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName()))
      llvm::append_range(manifests, existing.getValue());
    SymbolTable symbols(module);
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    unsigned index = 0;
    for (AttentionGradOp op : ops) {
      FailureOr<BackwardKernelSpec> spec = getBackwardKernelSpec(op, options);
      if (failed(spec))
        return signalPassFailure();
      std::string name;
      do {
        name = "sdpa_bwd_" + std::to_string(index++);
      } while (symbols.lookup(name));
      auto gpuModule = buildBackwardKernelModule(builder, op.getLoc(), name,
                                                 *spec);
      symbols.insert(gpuModule);
      op->setAttr(getKernelAttrName(), FlatSymbolRefAttr::get(ctx, name));
      manifests.emplace_back(
          StringAttr::get(ctx, name),
          StringAttr::get(ctx, buildBackwardManifest(*spec)));
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    module->setAttr(getArtifactsAttrName(),
                    DictionaryAttr::get(ctx, manifests));
  }
};
} // namespace
