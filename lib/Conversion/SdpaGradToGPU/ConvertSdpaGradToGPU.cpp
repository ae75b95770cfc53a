//===- ConvertSdpaGradToGPU.cpp - convert-sdpa-grad-to-gpu ----------------===//
//
// Emits one gpu.module with the three SM80 backward kernels per
// sdpa.attention_grad, tags the op with the module it lowered to, and
// records the artifact manifest on the top-level module.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelModuleDriver.h"
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
    BackwardKernelOptions options;
    options.tiles = {tileQ, tileKv};
    auto build = [&](OpBuilder &builder, AttentionGradOp op,
                     StringRef name) -> FailureOr<LoweredKernelModule> {
      FailureOr<BackwardKernelSpec> spec = getBackwardKernelSpec(op, options);
      if (failed(spec))
        return failure();
      return LoweredKernelModule{
          buildBackwardKernelModule(builder, op.getLoc(), name, *spec),
          FlatSymbolRefAttr::get(op.getContext(), name),
          buildBackwardManifest(*spec)};
    };
    if (failed(buildKernelModules<AttentionGradOp>(getOperation(), "sdpa_bwd_",
                                                   build)))
      signalPassFailure();
  }
};
} // namespace
