//===- StablehloDialect.cpp - The StableHLO opset -------------------------===//
//
// Registers the project's `stablehlo` dialect: its enums, attributes, the
// token type and the ops.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

#include "SdpaDialect/StableHLO/StablehloDialect.cpp.inc"
#include "SdpaDialect/StableHLO/StablehloEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "SdpaDialect/StableHLO/StablehloTypes.cpp.inc"

void StablehloDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "SdpaDialect/StableHLO/StablehloTypes.cpp.inc"
      >();
}

void StablehloDialect::initialize() {
  registerAttributes();
  registerTypes();
  // One list per op family (include/SdpaDialect/StableHLO/*Ops.td).
  addOperations<
#define GET_OP_LIST
#include "SdpaDialect/StableHLO/StablehloElementwiseOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "SdpaDialect/StableHLO/StablehloShapeOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "SdpaDialect/StableHLO/StablehloRegionOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "SdpaDialect/StableHLO/StablehloMiscOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "SdpaDialect/StableHLO/StablehloCommOps.cpp.inc"
      >();
}
