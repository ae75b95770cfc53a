//===- ImportPasses.h - StableHLO import passes -----------------*- C++ -*-===//
//
// Declares the StableHLO import pass and its registration.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_IMPORT_IMPORTPASSES_H
#define SDPADIALECT_IMPORT_IMPORTPASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::sdpa {

#define GEN_PASS_DECL
#include "SdpaDialect/Import/ImportPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "SdpaDialect/Import/ImportPasses.h.inc"

/// Registers `sdpa-stablehlo-pipeline` (import, then sdpa-pipeline's
/// builder).
void registerSdpaImportPipelines();

} // namespace mlir::sdpa

#endif // SDPADIALECT_IMPORT_IMPORTPASSES_H
