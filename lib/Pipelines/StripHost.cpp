//===- StripHost.cpp - sdpa-strip-host ------------------------------------===//
//
// Keeps only the gpu.module kernels of a lowered module, so the GPU to NVVM
// pipeline never sees the tensor-level host functions.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Pipelines/Pipelines.h"

namespace mlir::sdpa {
#define GEN_PASS_DEF_SDPASTRIPHOST
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"
} // namespace mlir::sdpa

using namespace mlir;

namespace {
struct StripHostPass : public sdpa::impl::SdpaStripHostBase<StripHostPass> {
  void runOnOperation() override {
    for (Operation &op :
         llvm::make_early_inc_range(getOperation().getBody()->getOperations()))
      if (!isa<gpu::GPUModuleOp>(op))
        op.erase();
  }
};
} // namespace
