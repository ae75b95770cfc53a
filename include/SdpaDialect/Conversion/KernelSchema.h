//===- KernelSchema.h - The artifact schema for the lowering ---*- C++ -*-===//
//
// The lowering's view of the schema it shares with the runtime (lib/Schema):
// parameter lists as KernelParam, the element type a pointer parameter
// points to, and the schema's name of an MLIR element type.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELSCHEMA_H
#define SDPADIALECT_CONVERSION_KERNELSCHEMA_H

#include "SdpaDialect/Conversion/KernelParam.h"
#include "SdpaSchema/Manifest.h"

namespace mlir::sdpa {

/// The artifact schema, shared with the runtime (docs/Artifact.md).
namespace schema = ::sdpa_schema;

/// The parameters of the kernel of `role`, in the schema's order.
SmallVector<KernelParam>
getSchemaKernelParams(schema::KernelRole role, bool varlen, bool deterministic,
                      bool sinks,
                      schema::DqMode dq = schema::DqMode::Accumulate);

/// The schema's record of `params` (for manifests).
std::vector<schema::Param> toSchemaParams(ArrayRef<KernelParam> params);

/// The element type pointer parameter `name` points to: f32 or i32 where
/// the schema says so, else `element` (f16 or bf16).
Type getKernelParamPointee(StringRef name, Type element);

/// The schema's name of an element type (f16, bf16, f32 or i32).
schema::ElementType getSchemaElementType(Type type);

/// Checks `headDim` (dynamic: ShapedType::kDynamic) against the schema's
/// table of `direction`, the one the runtime reads artifacts against. On
/// failure returns false and sets `why` to the message: "expected a static
/// head_dim, a multiple of 16 from 16 to 256, got 40" and the reason for a
/// multiple of 8 (the kernels do not zero-pad it to 16), one past 256, or a
/// multiple of 16 the direction leaves out (its kernel would spill).
bool checkKernelHeadDim(schema::Direction direction, int64_t headDim,
                        std::string &why);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELSCHEMA_H
