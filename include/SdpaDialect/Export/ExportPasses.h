//===- ExportPasses.h - Export to XLA FFI calls -----------------*- C++ -*-===//
//
// Declares the passes that turn a lowered module back into StableHLO whose
// attention sites call our kernels through XLA's FFI, and their
// registration.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_EXPORT_EXPORTPASSES_H
#define SDPADIALECT_EXPORT_EXPORTPASSES_H

#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdpa {

#define GEN_PASS_DECL
#include "SdpaDialect/Export/ExportPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "SdpaDialect/Export/ExportPasses.h.inc"

} // namespace mlir::sdpa

#endif // SDPADIALECT_EXPORT_EXPORTPASSES_H
