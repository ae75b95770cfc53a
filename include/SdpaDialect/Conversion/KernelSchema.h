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
/// head_dim, a multiple of 8 from 8 to 256, got 40" and the reason.
bool checkKernelHeadDim(schema::Direction direction, int64_t headDim,
                        std::string &why);

/// The width the kernels of `direction` compute a supported `headDim` at:
/// the width of the Q, K, V and dO rows in shared memory, of the mma.sync
/// reductions over the head dim (steps of sm80::kMmaK = 16) and of the
/// register tiles. It is `headDim` rounded up to 16, and the forward's 240
/// widens to 256: there it spills at every tile shape (ptxas 13.0: 8 bytes
/// at 240 x tile-kv 16), at 256 it does not. The columns past `headDim` are
/// zero-filled when the rows are copied in and never stored, so every
/// product is the head dim's own. The backward, whose visits are split
/// above 128 (two warps per 16 keys, each holding half of the dK/dV
/// columns), assembles without spills at every width with dQ accumulated;
/// with dQ recomputed (`recomputesDq`) bwd_dq, which holds all of dQ,
/// spills on banded windows at 208, 224 and 240, which widen to 256 too.
int64_t getMmaHeadDim(schema::Direction direction, int64_t headDim,
                      bool recomputesDq = false);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELSCHEMA_H
