//===- ShapeOps.cpp - Constants and data-movement stablehlo ops -----------===//
//
// The custom assembly of constant, the shape verifiers of iota, broadcast,
// transpose, reshape, slices, pad, concatenate, reverse, gather and tuples,
// the transpose folder, and the generated definitions.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isPermutation(ArrayRef<int64_t> perm, int64_t rank) {
  if (static_cast<int64_t>(perm.size()) != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return false;
    seen[p] = true;
  }
  return true;
}

/// Whether `dims` are distinct and in `[0, rank)`.
static bool areDistinctDims(ArrayRef<int64_t> dims, int64_t rank) {
  SmallVector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

/// The type `value` must have: the result type, with a quantized element
/// type's storage type in its place (the stored integers).
static Type constantValueType(Type resultType) {
  auto tensor = cast<RankedTensorType>(resultType);
  if (auto quantized = dyn_cast<quant::QuantizedType>(tensor.getElementType()))
    return tensor.clone(quantized.getStorageType());
  return tensor;
}

/// `dense<..> : tensor<..>` when the value has the result type, as StableHLO
/// prints it; otherwise (a quantized result) StableHLO's generic-looking
/// `() <{value = dense<..> : tensor<..xi8>}> : () -> tensor<..x!quant..>`.
ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLParen())) {
    DictionaryAttr properties;
    FunctionType type;
    if (parser.parseRParen() || parser.parseLess() ||
        parser.parseAttribute(properties) || parser.parseGreater() ||
        parser.parseOptionalAttrDict(result.attributes) ||
        parser.parseColonType(type))
      return failure();
    auto value = dyn_cast_or_null<ElementsAttr>(properties.get("value"));
    if (!value || properties.size() != 1)
      return parser.emitError(loc, "expected the properties to be "
                                   "<{value = <tensor constant>}>");
    if (type.getNumInputs() != 0 || type.getNumResults() != 1)
      return parser.emitError(loc, "expected the type () -> result type");
    result.addAttribute("value", value);
    result.addTypes(type.getResults());
    return success();
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Attribute value;
  loc = parser.getCurrentLocation();
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc, "expected a tensor constant value");
  result.addAttribute("value", elements);
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  if (getValue().getType() != getType()) {
    p << "() <{value = ";
    p.printAttribute(getValue());
    p << "}>";
    p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
    p << " : ";
    p.printFunctionalType(*this);
    return;
  }
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
}

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  // StableHLO's names: `%c` for integer (and i1) elements, `%cst` for any
  // other (float, complex, quantized).
  bool isInteger = isa<IntegerType>(getType().getElementType());
  setNameFn(getResult(), isInteger ? "c" : "cst");
}

LogicalResult ConstantOp::verify() {
  Type expected = constantValueType(getType());
  if (getValue().getType() != expected)
    return emitOpError("expected value of type ")
           << expected << ", got " << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// IotaOp
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  if (static_cast<int64_t>(getIotaDimension()) >= type.getRank())
    return emitOpError("expected iota dimension ")
           << getIotaDimension() << " to be less than the rank "
           << type.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastInDimOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (static_cast<int64_t>(dims.size()) != operandType.getRank())
    return emitOpError("expected dims to have one entry per operand "
                       "dimension (")
           << operandType.getRank() << "), got " << dims.size();
  for (auto [j, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= resultType.getRank())
      return emitOpError("expected dims entry ")
             << d << " to be less than the result rank "
             << resultType.getRank();
    int64_t from = operandType.getDimSize(j), to = resultType.getDimSize(d);
    if (from != 1 && from != to)
      return emitOpError("expected operand dimension ")
             << j << " of size " << from << " to be 1 or the size " << to
             << " of result dimension " << d;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> perm = getPermutation();
  if (!isPermutation(perm, operandType.getRank()))
    return emitOpError("expected dims to be a permutation of the operand "
                       "dimensions");
  if (resultType.getRank() != operandType.getRank())
    return emitOpError("expected the result to have the operand's rank");
  for (auto [i, p] : llvm::enumerate(perm))
    if (resultType.getDimSize(i) != operandType.getDimSize(p))
      return emitOpError("expected result dimension ")
             << i << " to have the size of operand dimension " << p;
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  auto isIdentity = [](ArrayRef<int64_t> p) {
    return llvm::equal(p, llvm::seq<int64_t>(0, p.size()));
  };
  if (isIdentity(perm))
    return getOperand();
  auto inner = getOperand().getDefiningOp<TransposeOp>();
  if (!inner)
    return {};
  // result[i] = operand[perm[i]] = inner.operand[innerPerm[perm[i]]].
  SmallVector<int64_t> composed;
  for (int64_t p : perm)
    composed.push_back(inner.getPermutation()[p]);
  if (isIdentity(composed))
    return inner.getOperand();
  return {};
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (operandType.hasStaticShape() && resultType.hasStaticShape() &&
      operandType.getNumElements() != resultType.getNumElements())
    return emitOpError("expected the operand and the result to have the same "
                       "number of elements");
  return success();
}

//===----------------------------------------------------------------------===//
// SliceOp, PadOp, ConcatenateOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> start = getStartIndices(), limit = getLimitIndices(),
                    strides = getStrides();
  int64_t rank = operandType.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitOpError("expected start_indices, limit_indices and strides "
                       "to have one entry per operand dimension (")
           << rank << ")";
  if (resultType.getRank() != rank)
    return emitOpError("expected the result to have the operand's rank");
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = operandType.getDimSize(d);
    if (strides[d] <= 0)
      return emitOpError("expected strides[") << d << "] to be positive";
    if (start[d] < 0 || start[d] > limit[d] ||
        (!ShapedType::isDynamic(size) && limit[d] > size))
      return emitOpError("expected 0 <= start_indices[")
             << d << "] <= limit_indices[" << d << "] <= operand dimension "
             << d;
    int64_t expected = llvm::divideCeil(limit[d] - start[d], strides[d]);
    if (!resultType.isDynamicDim(d) && resultType.getDimSize(d) != expected)
      return emitOpError("expected result dimension ")
             << d << " to be " << expected;
  }
  return success();
}

LogicalResult PadOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> low = getEdgePaddingLow(), high = getEdgePaddingHigh(),
                    interior = getInteriorPadding();
  int64_t rank = operandType.getRank();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return emitOpError("expected low, high and interior to have one entry "
                       "per operand dimension (")
           << rank << ")";
  if (resultType.getRank() != rank)
    return emitOpError("expected the result to have the operand's rank");
  for (int64_t d = 0; d < rank; ++d) {
    if (interior[d] < 0)
      return emitOpError("expected interior[") << d << "] to be non-negative";
    int64_t size = operandType.getDimSize(d);
    if (ShapedType::isDynamic(size) || resultType.isDynamicDim(d))
      continue;
    int64_t expected =
        low[d] + high[d] + size + std::max<int64_t>(size - 1, 0) * interior[d];
    if (resultType.getDimSize(d) != expected)
      return emitOpError("expected result dimension ")
             << d << " to be " << expected;
  }
  return success();
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty())
    return emitOpError("expected at least one input");
  auto resultType = cast<RankedTensorType>(getType());
  int64_t rank = resultType.getRank(), dim = getDimension();
  if (dim >= rank)
    return emitOpError("expected dimension ")
           << dim << " to be less than the rank " << rank;
  int64_t sum = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getRank() != rank)
      return emitOpError("expected input ") << i << " to have rank " << rank;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.getDimSize(d);
      if (d == dim) {
        sum = ShapedType::isDynamic(size) || ShapedType::isDynamic(sum)
                  ? ShapedType::kDynamic
                  : sum + size;
        continue;
      }
      if (!ShapedType::isDynamic(size) && !resultType.isDynamicDim(d) &&
          size != resultType.getDimSize(d))
        return emitOpError("expected input ")
               << i << " dimension " << d << " to be "
               << resultType.getDimSize(d);
    }
  }
  if (!ShapedType::isDynamic(sum) && !resultType.isDynamicDim(dim) &&
      resultType.getDimSize(dim) != sum)
    return emitOpError("expected result dimension ")
           << dim << " to be the sum " << sum << " of the inputs'";
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReverseOp::verify() {
  if (!areDistinctDims(getDimensions(),
                       cast<RankedTensorType>(getType()).getRank()))
    return emitOpError("expected dims to be distinct and less than the rank");
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  auto type = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (static_cast<int64_t>(getStartIndices().size()) != type.getRank() ||
      static_cast<int64_t>(sizes.size()) != type.getRank())
    return emitOpError("expected one start index and one size per operand "
                       "dimension (")
           << type.getRank() << ")";
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (size < 0 ||
        (!type.isDynamicDim(d) && size > type.getDimSize(d)))
      return emitOpError("expected sizes[")
             << d << "] to be between 0 and operand dimension " << d;
    if (!resultType.isDynamicDim(d) && resultType.getDimSize(d) != size)
      return emitOpError("expected result dimension ")
             << d << " to be sizes[" << d << "] = " << size;
  }
  return success();
}

LogicalResult GatherOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  GatherDimensionNumbersAttr dims = getDimensionNumbers();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != operand.getRank())
    return emitOpError("expected slice_sizes to have one entry per operand "
                       "dimension (")
           << operand.getRank() << ")";
  for (int64_t d : dims.getCollapsedSliceDims())
    if (d < 0 || d >= operand.getRank() || sizes[d] > 1)
      return emitOpError("expected collapsed_slice_dims to name operand "
                         "dimensions of slice size 0 or 1");
  auto indices = cast<RankedTensorType>(getStartIndices().getType());
  int64_t ivd = dims.getIndexVectorDim();
  if (ivd < 0 || ivd > indices.getRank())
    return emitOpError("expected index_vector_dim to be at most the rank of "
                       "start_indices");
  return success();
}

LogicalResult TupleOp::verify() {
  auto tuple = cast<TupleType>(getType());
  if (TypeRange(tuple.getTypes()) != getVal().getTypes())
    return emitOpError("expected the tuple type to hold the operand types");
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tuple = cast<TupleType>(getOperand().getType());
  if (getIndex() >= tuple.size())
    return emitOpError("expected index ")
           << getIndex() << " to be less than the tuple size " << tuple.size();
  if (tuple.getType(getIndex()) != getType())
    return emitOpError("expected the result type to be tuple element ")
           << getIndex();
  return success();
}

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloShapeOps.cpp.inc"
