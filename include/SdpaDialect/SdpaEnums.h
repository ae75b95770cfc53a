//===- SdpaEnums.h - sdpa enums ---------------------------------*- C++ -*-===//
//
// Declares the generated sdpa enums (Layout) once.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_SDPAENUMS_H
#define SDPADIALECT_SDPAENUMS_H

#include "mlir/IR/Attributes.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

#include "SdpaDialect/SdpaEnums.h.inc"

#endif // SDPADIALECT_SDPAENUMS_H
