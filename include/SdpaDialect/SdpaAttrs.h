//===- SdpaAttrs.h - sdpa attributes ----------------------------*- C++ -*-===//
//
// Declares #sdpa.band, #sdpa.layout and #sdpa.schedule.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_SDPAATTRS_H
#define SDPADIALECT_SDPAATTRS_H

#include "SdpaDialect/Analysis/Band.h"
#include "SdpaDialect/Analysis/TileBounds.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "SdpaDialect/SdpaEnums.h"

#define GET_ATTRDEF_CLASSES
#include "SdpaDialect/SdpaAttrs.h.inc"

#endif // SDPADIALECT_SDPAATTRS_H
