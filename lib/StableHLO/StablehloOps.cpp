//===- StablehloOps.cpp - Printed forms and verifiers of stablehlo ops ----===//
//
// The custom assembly of constant, reduce, dot_general and custom_call (as
// StableHLO prints them), the shape verifiers of our subset, and the
// transpose folder.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/StableHLO/StablehloDialect.h"
#include "AssemblyFormat.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

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
// ReduceOp
//===----------------------------------------------------------------------===//

/// Whether `name` is a commutative binary op of this dialect without regions:
/// what the compact `applies` form may name.
static bool isCompactBodyOp(OperationName name, Dialect *dialect) {
  return name.getDialect() == dialect &&
         name.hasTrait<OpTrait::NOperands<2>::Impl>() &&
         name.hasTrait<OpTrait::OneResult>() &&
         name.hasTrait<OpTrait::IsCommutative>() &&
         name.hasTrait<OpTrait::ZeroRegions>();
}

StringRef ReduceOp::getApplies() {
  if (getInputs().empty() || getBody().empty())
    return {};
  Block &block = getBody().front();
  if (block.getOperations().size() != 2)
    return {};
  Operation &inner = block.front();
  if (!isCompactBodyOp(inner.getName(), (*this)->getDialect()))
    return {};
  auto scalar = RankedTensorType::get(
      {}, cast<ShapedType>(getInputs().front().getType()).getElementType());
  if (!llvm::all_of(inner.getOperandTypes(),
                    [&](Type t) { return t == scalar; }) ||
      inner.getResult(0).getType() != scalar)
    return {};
  if (!llvm::equal(block.getArguments(), inner.getOperands()))
    return {};
  Operation *terminator = &block.back();
  if (!isa<ReturnOp>(terminator) ||
      !llvm::equal(inner.getResults(), terminator->getOperands()))
    return {};
  return inner.getName().getStringRef();
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        if (parser.parseLParen() || parser.parseOperand(inputs.emplace_back()) ||
            parser.parseKeyword("init") || parser.parseColon() ||
            parser.parseOperand(inits.emplace_back()) || parser.parseRParen())
          return failure();
        return success();
      }))
    return failure();
  std::optional<OperationName> applies;
  SMLoc appliesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    appliesLoc = parser.getCurrentLocation();
    FailureOr<OperationName> name = parser.parseCustomOperationName();
    if (failed(name))
      return failure();
    if (!isCompactBodyOp(*name, result.name.getDialect()))
      return parser.emitError(appliesLoc, "expected 'applies' to name a "
                                          "commutative binary op of the "
                                          "stablehlo dialect, got '")
             << name->getStringRef() << "'";
    applies = *name;
  }
  SmallVector<int64_t> dims;
  FunctionType type;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (type.getNumInputs() != inputs.size() + inits.size())
    return parser.emitError(typeLoc, "expected ")
           << inputs.size() + inits.size() << " operand types, got "
           << type.getNumInputs();
  SmallVector<OpAsmParser::UnresolvedOperand> operands(inputs);
  operands.append(inits);
  if (parser.resolveOperands(operands, type.getInputs(), loc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute("dimensions",
                      parser.getBuilder().getDenseI64ArrayAttr(dims));
  Region *body = result.addRegion();
  if (applies) {
    // The compact form: one block of two 0-d arguments of the first input's
    // element type, the named op on them, returned.
    Type scalar = RankedTensorType::get(
        {}, getElementTypeOrSelf(type.getInputs().front()));
    Location bodyLoc = parser.getEncodedSourceLoc(appliesLoc);
    Block &block = body->emplaceBlock();
    Value lhs = block.addArgument(scalar, bodyLoc);
    Value rhs = block.addArgument(scalar, bodyLoc);
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToStart(&block);
    OperationState state(bodyLoc, *applies);
    state.addOperands({lhs, rhs});
    state.addTypes(scalar);
    Operation *inner = builder.create(state);
    ReturnOp::create(builder, bodyLoc, inner->getResults());
    return success();
  }
  // The region form: `reducer` and one `(%x: type, %y: type)` pair per input;
  // pair k names block arguments k and N + k.
  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> firsts, seconds;
  while (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseArgument(firsts.emplace_back(), /*allowType=*/true) ||
        parser.parseComma() ||
        parser.parseArgument(seconds.emplace_back(), /*allowType=*/true) ||
        parser.parseRParen())
      return failure();
  }
  SmallVector<OpAsmParser::Argument> args(firsts);
  args.append(seconds);
  return parser.parseRegion(*body, args);
}

void ReduceOp::print(OpAsmPrinter &p) {
  size_t n = getInputs().size();
  for (size_t i = 0; i < n; ++i) {
    if (i)
      p << ", ";
    p << '(' << getInputs()[i] << " init: " << getInitValues()[i] << ')';
  }
  StringRef applies = getApplies();
  if (!applies.empty()) {
    p << " applies ";
    p.printKeywordOrString(applies);
  }
  p << " across dimensions = ";
  printIntList(p, getDimensions());
  p.printOptionalAttrDict((*this)->getAttrs(), {"dimensions"});
  p << " : ";
  p.printFunctionalType(*this);
  if (!applies.empty())
    return;
  p.printNewline();
  p << " reducer";
  Block &block = getBody().front();
  for (size_t i = 0; i < n && 2 * n <= block.getNumArguments(); ++i) {
    p << '(';
    p.printRegionArgument(block.getArgument(i));
    p << ", ";
    p.printRegionArgument(block.getArgument(n + i));
    p << ") ";
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ReduceOp::verify() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError("expected at least one input");
  if (getInitValues().size() != n || getNumResults() != n)
    return emitOpError("expected as many init values and results as inputs");
  auto inputType = cast<RankedTensorType>(getInputs().front().getType());
  int64_t rank = inputType.getRank();
  SmallVector<bool> reduced(rank, false);
  for (int64_t d : getDimensions()) {
    if (d < 0 || d >= rank || reduced[d])
      return emitOpError("expected distinct dimensions less than the input "
                         "rank");
    reduced[d] = true;
  }
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i)
    if (!reduced[i])
      expected.push_back(inputType.getDimSize(i));
  for (size_t k = 0; k < n; ++k) {
    auto input = cast<RankedTensorType>(getInputs()[k].getType());
    auto init = cast<RankedTensorType>(getInitValues()[k].getType());
    auto res = cast<RankedTensorType>(getResult(k).getType());
    if (input.getShape() != inputType.getShape())
      return emitOpError("expected input ")
             << k << " to have the shape of input 0";
    if (init.getRank() != 0)
      return emitOpError("expected init value ") << k << " to be 0-d";
    if (res.getShape() != ArrayRef<int64_t>(expected))
      return emitOpError("expected result ")
             << k
             << " to have the input shape without the reduced dimensions";
    if (res.getElementType() != init.getElementType())
      return emitOpError("expected result ")
             << k << " to have the element type of init value " << k;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  size_t n = getInputs().size();
  Block &block = getBody().front();
  if (block.getNumArguments() != 2 * n)
    return emitOpError("expected the body to take ")
           << 2 * n << " arguments, got " << block.getNumArguments();
  for (size_t k = 0; k < n; ++k) {
    Type init = getInitValues()[k].getType();
    if (block.getArgument(k).getType() != init ||
        block.getArgument(n + k).getType() != init)
      return emitOpError("expected body arguments ")
             << k << " and " << n + k << " to have the type " << init
             << " of init value " << k;
  }
  if (block.empty() || !isa<ReturnOp>(block.back()))
    return emitOpError("expected the body to end in stablehlo.return");
  Operation *terminator = &block.back();
  if (TypeRange(terminator->getOperandTypes()) !=
      TypeRange(getInitValues().getTypes()))
    return emitOpError("expected the body to return the init values' types");
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
