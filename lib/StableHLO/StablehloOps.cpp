//===- StablehloOps.cpp - Printed forms and verifiers of stablehlo ops ----===//
//
// The custom assembly of constant, reduce, dot_general and custom_call (as
// StableHLO prints them), the shape verifiers of our subset, and the
// transpose folder.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Parses `[i, j, ...]` (possibly empty) into `values`.
static ParseResult parseIntList(OpAsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      });
}

static void printIntList(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

/// Parses `[a] x [b]` into two dense arrays.
static ParseResult parseDimsPair(OpAsmParser &parser, DenseI64ArrayAttr &lhs,
                                 DenseI64ArrayAttr &rhs) {
  SmallVector<int64_t> l, r;
  if (parseIntList(parser, l) || parser.parseKeyword("x") ||
      parseIntList(parser, r))
    return failure();
  lhs = parser.getBuilder().getDenseI64ArrayAttr(l);
  rhs = parser.getBuilder().getDenseI64ArrayAttr(r);
  return success();
}

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

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  Attribute value;
  SMLoc loc = parser.getCurrentLocation();
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
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
}

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  bool isFloat = isa<FloatType>(getValue().getElementType());
  setNameFn(getResult(), isFloat ? "cst" : "c");
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("expected value of type ")
           << getType() << ", got " << getValue().getType();
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
// ReduceOp
//===----------------------------------------------------------------------===//

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input, init;
  std::string applies;
  SmallVector<int64_t> dims;
  FunctionType type;
  SMLoc typeLoc;
  if (parser.parseLParen() || parser.parseOperand(input) ||
      parser.parseKeyword("init") || parser.parseColon() ||
      parser.parseOperand(init) || parser.parseRParen() ||
      parser.parseKeyword("applies") || parser.parseKeywordOrString(&applies) ||
      parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  typeLoc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (type.getNumInputs() != 2 || type.getNumResults() != 1)
    return parser.emitError(typeLoc, "expected (input, init) -> result type");
  Builder &b = parser.getBuilder();
  result.addAttribute("applies", b.getStringAttr(applies));
  result.addAttribute("dimensions", b.getDenseI64ArrayAttr(dims));
  if (parser.resolveOperands({input, init}, type.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

void ReduceOp::print(OpAsmPrinter &p) {
  p << '(' << getInput() << " init: " << getInitValue() << ") applies "
    << getApplies() << " across dimensions = ";
  printIntList(p, getDimensions());
  p.printOptionalAttrDict((*this)->getAttrs(), {"applies", "dimensions"});
  p << " : ";
  p.printFunctionalType(*this);
}

LogicalResult ReduceOp::verify() {
  static constexpr StringLiteral kBodies[] = {
      "stablehlo.add", "stablehlo.maximum", "stablehlo.minimum",
      "stablehlo.multiply", "stablehlo.and", "stablehlo.or"};
  if (!llvm::is_contained(kBodies, getApplies()))
    return emitOpError("unsupported reduction body '") << getApplies() << "'";
  auto inputType = cast<RankedTensorType>(getInput().getType());
  auto initType = cast<RankedTensorType>(getInitValue().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (initType.getRank() != 0)
    return emitOpError("expected a 0-d init value");
  SmallVector<bool> reduced(inputType.getRank(), false);
  for (int64_t d : getDimensions()) {
    if (d < 0 || d >= inputType.getRank() || reduced[d])
      return emitOpError("expected distinct dimensions less than the input "
                         "rank");
    reduced[d] = true;
  }
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < inputType.getRank(); ++i)
    if (!reduced[i])
      expected.push_back(inputType.getDimSize(i));
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("expected the result shape to be the input shape "
                       "without the reduced dimensions");
  return success();
}

//===----------------------------------------------------------------------===//
// DotGeneralOp
//===----------------------------------------------------------------------===//

ParseResult DotGeneralOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand lhs, rhs;
  Builder &b = parser.getBuilder();
  DenseI64ArrayAttr lhsBatch = b.getDenseI64ArrayAttr({});
  DenseI64ArrayAttr rhsBatch = b.getDenseI64ArrayAttr({});
  DenseI64ArrayAttr lhsContract, rhsContract;
  if (parser.parseOperand(lhs) || parser.parseComma() ||
      parser.parseOperand(rhs) || parser.parseComma())
    return failure();
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parser.parseEqual() || parseDimsPair(parser, lhsBatch, rhsBatch) ||
        parser.parseComma())
      return failure();
  }
  if (parser.parseKeyword("contracting_dims") || parser.parseEqual() ||
      parseDimsPair(parser, lhsContract, rhsContract))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("precision"))) {
      SmallVector<Attribute> precisions;
      if (parser.parseEqual() ||
          parser.parseCommaSeparatedList(
              OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                StringRef keyword;
                SMLoc loc = parser.getCurrentLocation();
                if (parser.parseKeyword(&keyword))
                  return failure();
                std::optional<Precision> precision =
                    symbolizePrecision(keyword);
                if (!precision)
                  return parser.emitError(loc, "unknown precision '")
                         << keyword << "'";
                precisions.push_back(
                    PrecisionAttr::get(b.getContext(), *precision));
                return success();
              }))
        return failure();
      result.addAttribute("precision_config", b.getArrayAttr(precisions));
      continue;
    }
    if (parser.parseKeyword("algorithm") || parser.parseEqual())
      return failure();
    Attribute algorithm = DotAlgorithmAttr::parse(parser, Type());
    if (!algorithm)
      return failure();
    result.addAttribute("algorithm", algorithm);
  }
  result.addAttribute("lhs_batching_dimensions", lhsBatch);
  result.addAttribute("rhs_batching_dimensions", rhsBatch);
  result.addAttribute("lhs_contracting_dimensions", lhsContract);
  result.addAttribute("rhs_contracting_dimensions", rhsContract);
  FunctionType type;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (type.getNumInputs() != 2 || type.getNumResults() != 1)
    return parser.emitError(typeLoc, "expected (lhs, rhs) -> result type");
  if (parser.resolveOperands({lhs, rhs}, type.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

void DotGeneralOp::print(OpAsmPrinter &p) {
  p << ' ' << getLhs() << ", " << getRhs() << ", ";
  if (!getLhsBatchingDimensions().empty()) {
    p << "batching_dims = ";
    printIntList(p, getLhsBatchingDimensions());
    p << " x ";
    printIntList(p, getRhsBatchingDimensions());
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, getLhsContractingDimensions());
  p << " x ";
  printIntList(p, getRhsContractingDimensions());
  if (ArrayAttr precisions = getPrecisionConfigAttr()) {
    p << ", precision = [";
    llvm::interleaveComma(precisions, p, [&](Attribute attr) {
      p << stringifyPrecision(cast<PrecisionAttr>(attr).getValue());
    });
    p << ']';
  }
  if (DotAlgorithmAttr algorithm = getAlgorithmAttr()) {
    p << ", algorithm = ";
    algorithm.print(p);
  }
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {"lhs_batching_dimensions", "rhs_batching_dimensions",
       "lhs_contracting_dimensions", "rhs_contracting_dimensions",
       "precision_config", "algorithm"});
  p << " : ";
  p.printFunctionalType(*this);
}

LogicalResult DotGeneralOp::verify() {
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(),
                    rb = getRhsBatchingDimensions(),
                    lc = getLhsContractingDimensions(),
                    rc = getRhsContractingDimensions();
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return emitOpError("expected as many lhs as rhs batching and contracting "
                       "dimensions");
  SmallVector<bool> lhsUsed(lhsType.getRank(), false),
      rhsUsed(rhsType.getRank(), false);
  auto claim = [](SmallVectorImpl<bool> &used, int64_t d) {
    if (d < 0 || d >= static_cast<int64_t>(used.size()) || used[d])
      return false;
    used[d] = true;
    return true;
  };
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  for (auto [l, r] : llvm::zip_equal(lb, rb))
    pairs.push_back({l, r});
  for (auto [l, r] : llvm::zip_equal(lc, rc))
    pairs.push_back({l, r});
  for (auto [l, r] : pairs) {
    if (!claim(lhsUsed, l) || !claim(rhsUsed, r))
      return emitOpError("expected distinct in-range batching and "
                         "contracting dimensions");
    if (lhsType.getDimSize(l) != rhsType.getDimSize(r))
      return emitOpError("expected paired dimensions lhs ")
             << l << " and rhs " << r << " to have the same size";
  }
  SmallVector<int64_t> expected;
  for (int64_t l : lb)
    expected.push_back(lhsType.getDimSize(l));
  for (int64_t i = 0; i < lhsType.getRank(); ++i)
    if (!lhsUsed[i])
      expected.push_back(lhsType.getDimSize(i));
  for (int64_t i = 0; i < rhsType.getRank(); ++i)
    if (!rhsUsed[i])
      expected.push_back(rhsType.getDimSize(i));
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("expected the result shape to be the batch, lhs free "
                       "and rhs free dimensions");
  if (ArrayAttr precisions = getPrecisionConfigAttr())
    if (precisions.size() > 2)
      return emitOpError("expected at most 2 precision entries");
  return success();
}

//===----------------------------------------------------------------------===//
// CustomCallOp
//===----------------------------------------------------------------------===//

/// `@target`: the call target is printed as a symbol name.
static ParseResult parseCallTarget(OpAsmParser &parser, StringAttr &target) {
  return parser.parseSymbolName(target);
}

static void printCallTarget(OpAsmPrinter &p, Operation *, StringAttr target) {
  p.printSymbolName(target.getValue());
}

#define GET_OP_CLASSES
#include "SdpaDialect/StableHLO/StablehloOps.cpp.inc"
