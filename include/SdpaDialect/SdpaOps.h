//===- SdpaOps.h - sdpa operations ------------------------------*- C++ -*-===//
//
// Declares sdpa.attention, sdpa.attention_grad and their shared interface.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_SDPAOPS_H
#define SDPADIALECT_SDPAOPS_H

#include "SdpaDialect/AttentionShape.h"
#include "SdpaDialect/SdpaAttrs.h"
#include "SdpaDialect/SdpaDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

#include "SdpaDialect/SdpaInterfaces.h.inc"

#define GET_OP_CLASSES
#include "SdpaDialect/SdpaOps.h.inc"

#endif // SDPADIALECT_SDPAOPS_H

namespace mlir::sdpa {

/// The schedule of `op`'s band for `tiles`: derived symbolically, then
/// specialized to whichever sequence lengths the types make static (none for
/// THD or per-batch lengths, whose lengths are per sequence).
ScheduleAttr deriveSchedule(AttentionOpInterface op, TileShape tiles);

/// The sequence lengths the schedule may be specialized to: the static ones
/// read off the types, or none where lengths are given per sequence.
std::pair<std::optional<int64_t>, std::optional<int64_t>>
getUniformSeqLengths(AttentionOpInterface op);

} // namespace mlir::sdpa
