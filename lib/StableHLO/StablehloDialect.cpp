//===- StablehloDialect.cpp - Our subset of StableHLO ---------------------===//
//
// Registers the project's `stablehlo` dialect: its enums, attributes and ops.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

#include "SdpaDialect/StableHLO/StablehloDialect.cpp.inc"
#include "SdpaDialect/StableHLO/StablehloEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "SdpaDialect/StableHLO/StablehloAttrs.cpp.inc"

void StablehloDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "SdpaDialect/StableHLO/StablehloAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "SdpaDialect/StableHLO/StablehloOps.cpp.inc"
      >();
}
