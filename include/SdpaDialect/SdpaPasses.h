//===- SdpaPasses.h - sdpa passes -------------------------------*- C++ -*-===//
//
// Declares the sdpa passes and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_SDPAPASSES_H
#define SDPADIALECT_SDPAPASSES_H

#include "SdpaDialect/DqModeOption.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdpa {

#define GEN_PASS_DECL
#include "SdpaDialect/SdpaPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "SdpaDialect/SdpaPasses.h.inc"

} // namespace mlir::sdpa

#endif // SDPADIALECT_SDPAPASSES_H
