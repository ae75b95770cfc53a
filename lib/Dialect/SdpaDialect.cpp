//===- SdpaDialect.cpp - The sdpa dialect ---------------------------------===//
//
// Registers the sdpa dialect's operations and attributes.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/SdpaDialect.h"
#include "SdpaDialect/SdpaAttrs.h"
#include "SdpaDialect/SdpaOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdpa;

#include "SdpaDialect/SdpaDialect.cpp.inc"
#include "SdpaDialect/SdpaEnums.cpp.inc"
#include "SdpaDialect/SdpaInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "SdpaDialect/SdpaAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "SdpaDialect/SdpaOps.cpp.inc"

void SdpaDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "SdpaDialect/SdpaAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "SdpaDialect/SdpaOps.cpp.inc"
      >();
}
