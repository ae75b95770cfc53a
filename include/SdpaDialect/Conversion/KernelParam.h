//===- KernelParam.h - Kernel parameters of the artifacts -------*- C++ -*-===//
//
// A kernel parameter as the manifest names it (docs/Artifact.md), its
// manifest type, and the gpu.func argument types of a parameter list:
// shared by the forward and backward lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELPARAM_H
#define SDPADIALECT_CONVERSION_KERNELPARAM_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::sdpa {

/// Static extent of the flat global memrefs the kernels take: they index
/// them with runtime offsets; the bare-pointer convention needs a static
/// shape.
constexpr int64_t kFlatExtent = int64_t(1) << 40;
/// The same at a 32-bit index (sdpa-narrow-kernel-index): the largest extent
/// an i32 index holds.
constexpr int64_t kFlatExtent32 = (int64_t(1) << 31) - 1;

/// One kernel parameter, in order (docs/Artifact.md names and types).
struct KernelParam {
  enum class Kind { Ptr, I32, I64 };
  std::string name;
  Kind kind;
};

/// The manifest's type of a parameter: `ptr`, `i32` or `i64`.
StringRef getKernelParamTypeName(KernelParam::Kind kind);

/// The gpu.func argument types of `params`: a flat memref of kFlatExtent
/// elements of `pointee(name)` per pointer, i32 and i64 scalars.
SmallVector<Type>
getKernelParamTypes(MLIRContext *ctx, ArrayRef<KernelParam> params,
                    function_ref<Type(StringRef name)> pointee);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELPARAM_H
