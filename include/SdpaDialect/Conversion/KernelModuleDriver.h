//===- KernelModuleDriver.h - One gpu.module per lowered op -----*- C++ -*-===//
//
// The driver both convert passes share: for each op to lower, pick a
// gpu.module name that clashes with no symbol, let the pass build the module,
// tag the op with the kernel it lowered to and record the module's manifest
// (printed and checked by the schema the runtime reads with) in the
// `sdpa.artifacts` attribute of the top-level module.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELMODULEDRIVER_H
#define SDPADIALECT_CONVERSION_KERNELMODULEDRIVER_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/Conversion/KernelSchema.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::sdpa {

/// What a pass built for one op: the gpu.module and its artifact manifest
/// (no `ptx` key: the artifact writer adds it). The pass has replaced the
/// op by the host program that launches the module's kernels, or tagged it
/// with the module (`sdpa.kernel`).
struct LoweredKernelModule {
  gpu::GPUModuleOp module;
  schema::Manifest manifest;
};

/// The header keys of an artifact manifest (docs/Artifact.md) for kernels of
/// `direction` over `element` (f16, bf16); the pass adds the kernel records.
/// `softcap` and `sinks` are written only where set.
schema::Manifest getManifestHeader(schema::Direction direction, Type element,
                                   int64_t headDim, TileShape tiles,
                                   const Band &band, double scale,
                                   std::optional<double> softcap, bool sinks,
                                   bool varlen, bool deterministic);

/// Refuses, with an error on `op` naming the attribute, a softmax scale the
/// kernels cannot hold: one that is not a positive normal f32 once rounded
/// (1e-50 would be baked in as 0, 1e300 as +inf). The runtime refuses such a
/// manifest too.
LogicalResult checkKernelScale(Operation *op, double scale);

/// Builds the gpu.module named `name` for `op` at the builder's insertion
/// point (the end of the top-level module) and replaces `op` by its host
/// program (or tags it); failure when the op cannot be lowered (the callback
/// has reported why, and left the op in place).
using KernelModuleBuilderFn = function_ref<FailureOr<LoweredKernelModule>(
    OpBuilder &builder, Operation *op, StringRef name)>;

/// Lowers each of `ops` to a gpu.module named `<namePrefix><n>` (the first
/// free n, counting up), records the manifests in the
/// `sdpa.artifacts` dictionary (beside those of gpu.modules lowered before)
/// and marks `module` a GPU container module. Fails, naming the entry, on an
/// `sdpa.artifacts` entry of the input that names no gpu.module (a stale
/// record would be written in place of what was compiled), and, as an
/// internal error, on a manifest the schema's parser (the runtime's) would
/// refuse. Does nothing when `ops` is empty.
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
