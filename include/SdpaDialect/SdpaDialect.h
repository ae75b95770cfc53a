//===- SdpaDialect.h - The sdpa dialect -------------------------*- C++ -*-===//
//
// Declares the sdpa dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_SDPADIALECT_H
#define SDPADIALECT_SDPADIALECT_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Dialect.h"

#include "SdpaDialect/SdpaDialect.h.inc"

#endif // SDPADIALECT_SDPADIALECT_H
