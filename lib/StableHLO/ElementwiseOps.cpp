//===- ElementwiseOps.cpp - The elementwise stablehlo ops -----------------===//
//
// Verifiers of the elementwise ops (element types of abs, real, imag and
// complex, the shapes of select and clamp) and their generated definitions.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

/// `complex<T>` -> `T`; any other type is its own real type.
static Type realElementType(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto complex = dyn_cast<ComplexType>(element))
    return complex.getElementType();
  return element;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult AbsOp::verify() {
  if (getElementTypeOrSelf(getResult()) != realElementType(getOperand().getType()))
    return emitOpError("expected the result element type to be the operand's "
                       "(its real part for complex)");
  return success();
}

static LogicalResult verifyComplexPart(Operation *op) {
  Type operand = getElementTypeOrSelf(op->getOperand(0));
  if (getElementTypeOrSelf(op->getResult(0)) != realElementType(operand))
    return op->emitOpError("expected the result element type to be the real "
                           "part of the operand's");
  return success();
}

LogicalResult RealOp::verify() { return verifyComplexPart(*this); }
LogicalResult ImagOp::verify() { return verifyComplexPart(*this); }

LogicalResult ComplexOp::verify() {
  if (getLhs().getType() != getRhs().getType())
    return emitOpError("expected lhs and rhs of one type");
  auto complex = dyn_cast<ComplexType>(getElementTypeOrSelf(getResult()));
  if (!complex || complex.getElementType() != getElementTypeOrSelf(getLhs()))
    return emitOpError("expected the result element type to be complex of "
                       "the operands' element type");
  return success();
}

LogicalResult SelectOp::verify() {
  auto pred = cast<RankedTensorType>(getPred().getType());
  auto value = cast<RankedTensorType>(getType());
  if (pred.getRank() != 0 && pred.getShape() != value.getShape())
    return emitOpError("expected pred to be 0-d or of the shape of on_true");
  return success();
}

LogicalResult ClampOp::verify() {
  auto shape = cast<RankedTensorType>(getOperand().getType()).getShape();
  for (auto [name, bound] : {std::pair<StringRef, Value>{"min", getMin()},
                             std::pair<StringRef, Value>{"max", getMax()}}) {
    auto type = cast<RankedTensorType>(bound.getType());
    if (type.getRank() != 0 && type.getShape() != shape)
      return emitOpError("expected ")
             << name << " to be 0-d or of the operand's shape";
  }
  return success();
}

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloElementwiseOps.cpp.inc"
