//===- ConvertSdpaToGPU.cpp - convert-sdpa-to-gpu -------------------------===//
//
// Emits one gpu.module with the SM80 forward kernel per sdpa.attention,
// tags the op with the kernel it lowered to, and records the kernel's
// artifact manifest on the top-level module.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/SdpaConversionPasses.h"
#include "SdpaDialect/Conversion/SdpaToGPU.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_CONVERTSDPATOGPU
#include "SdpaDialect/Conversion/SdpaConversionPasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;
using namespace mlir::sdpa;

namespace {
struct ConvertSdpaToGPUPass
    : public sdpa::impl::ConvertSdpaToGPUBase<ConvertSdpaToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    ForwardKernelOptions options;
    options.tiles = {tileQ, tileKv};
    options.warps = warps;
    options.stages = stages;

    SmallVector<AttentionOp> ops;
    module.walk([&](AttentionOp op) { ops.push_back(op); });
    if (ops.empty())
      return;

    SmallVector<NamedAttribute> manifests;
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>(getArtifactsAttrName()))
      llvm::append_range(manifests, existing.getValue());
    SymbolTable symbols(module);
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    unsigned index = 0;
    for (AttentionOp op : ops) {
      FailureOr<ForwardKernelSpec> spec = getForwardKernelSpec(op, options);
      if (failed(spec))
        return signalPassFailure();
      std::string name;
      do {
        name = "sdpa_fwd_" + std::to_string(index++);
      } while (symbols.lookup(name));
      auto gpuModule =
          buildForwardKernelModule(builder, op.getLoc(), name, name, *spec);
      symbols.insert(gpuModule);
      op->setAttr(getKernelAttrName(),
                  SymbolRefAttr::get(ctx, name,
                                     {FlatSymbolRefAttr::get(ctx, name)}));
      manifests.emplace_back(
          StringAttr::get(ctx, name),
          StringAttr::get(ctx, buildForwardManifest(*spec, name)));
    }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    module->setAttr(getArtifactsAttrName(),
                    DictionaryAttr::get(ctx, manifests));
  }
};
} // namespace
