//===- ConvertSdpaToGPU.cpp - convert-sdpa-to-gpu -------------------------===//
//
// Emits one gpu.module with the SM80 forward kernel per sdpa.attention,
// tags the op with the kernel it lowered to, and records the kernel's
// artifact manifest on the top-level module.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelModuleDriver.h"
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
    ForwardKernelOptions options;
    options.tiles = {tileQ, tileKv};
    options.warps = warps;
    options.stages = stages;
    auto build = [&](OpBuilder &builder, AttentionOp op,
                     StringRef name) -> FailureOr<LoweredKernelModule> {
      FailureOr<ForwardKernelSpec> spec = getForwardKernelSpec(op, options);
      if (failed(spec))
        return failure();
      MLIRContext *ctx = op.getContext();
      return LoweredKernelModule{
          buildForwardKernelModule(builder, op.getLoc(), name, name, *spec),
          SymbolRefAttr::get(ctx, name, {FlatSymbolRefAttr::get(ctx, name)}),
          buildForwardManifest(*spec, name)};
    };
    if (failed(buildKernelModules<AttentionOp>(getOperation(), "sdpa_fwd_",
                                               build)))
      signalPassFailure();
  }
};
} // namespace
