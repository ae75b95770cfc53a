//===- StablehloDialect.h - The StableHLO opset -----------------*- C++ -*-===//
//
// Declares the project's `stablehlo` dialect (the StableHLO opset), its
// enums, attributes, types and ops.
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
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "SdpaDialect/StableHLO/StablehloDialect.h.inc"
#include "SdpaDialect/StableHLO/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "SdpaDialect/StableHLO/StablehloAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "SdpaDialect/StableHLO/StablehloTypes.h.inc"

// The ops, one generated file per family (include/SdpaDialect/StableHLO/).
#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloElementwiseOps.h.inc"
#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloShapeOps.h.inc"
#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloRegionOps.h.inc"
#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloMiscOps.h.inc"
#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloCommOps.h.inc"

#endif // SDPADIALECT_STABLEHLO_STABLEHLODIALECT_H
