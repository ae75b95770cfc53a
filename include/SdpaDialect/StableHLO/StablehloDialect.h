//===- StablehloDialect.h - Our subset of StableHLO -------------*- C++ -*-===//
//
// Declares the project's `stablehlo` dialect (the subset attention graphs
// use), its enums, attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_STABLEHLO_STABLEHLODIALECT_H
#define SDPADIALECT_STABLEHLO_STABLEHLODIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SdpaDialect/StableHLO/StablehloDialect.h.inc"
#include "SdpaDialect/StableHLO/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "SdpaDialect/StableHLO/StablehloAttrs.h.inc"

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloOps.h.inc"

#endif // SDPADIALECT_STABLEHLO_STABLEHLODIALECT_H
