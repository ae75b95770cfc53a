//===- KernelModuleDriver.h - One gpu.module per lowered op -----*- C++ -*-===//
//
// The driver both convert passes share: for each op to lower, pick a
// gpu.module name that clashes with no symbol, let the pass build the module,
// tag the op with the kernel it lowered to and record the module's manifest
// in the `sdpa.artifacts` attribute of the top-level module.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELMODULEDRIVER_H
#define SDPADIALECT_CONVERSION_KERNELMODULEDRIVER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::sdpa {

/// What a pass built for one op: the gpu.module, the symbol the op is tagged
/// with (`sdpa.kernel`) and the module's artifact manifest.
struct LoweredKernelModule {
  gpu::GPUModuleOp module;
  SymbolRefAttr kernel;
  std::string manifest;
};

/// Builds the gpu.module named `name` for `op` at the builder's insertion
/// point (the end of the top-level module); failure when the op cannot be
/// lowered (the callback has reported why).
using KernelModuleBuilderFn = function_ref<FailureOr<LoweredKernelModule>(
    OpBuilder &builder, Operation *op, StringRef name)>;

/// Lowers each of `ops` to a gpu.module named `<namePrefix><n>` (the first
/// free n, counting up), tags the op, records the manifests in the
/// `sdpa.artifacts` dictionary (after those already there) and marks
/// `module` a GPU container module. Does nothing when `ops` is empty.
LogicalResult buildKernelModules(ModuleOp module, ArrayRef<Operation *> ops,
                                 StringRef namePrefix,
                                 KernelModuleBuilderFn build);

/// As above, for every `OpTy` in `module`, in walk order.
template <typename OpTy>
LogicalResult buildKernelModules(
    ModuleOp module, StringRef namePrefix,
    function_ref<FailureOr<LoweredKernelModule>(OpBuilder &, OpTy, StringRef)>
        build) {
  SmallVector<Operation *> ops;
  module.walk([&](OpTy op) { ops.push_back(op); });
  return buildKernelModules(
      module, ops, namePrefix,
      [&](OpBuilder &builder, Operation *op, StringRef name) {
        return build(builder, cast<OpTy>(op), name);
      });
}

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELMODULEDRIVER_H
