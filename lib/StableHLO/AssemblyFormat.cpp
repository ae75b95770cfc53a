//===- AssemblyFormat.cpp - Custom directives of stablehlo's printed form -===//
//
// Parsers and printers of the `custom<...>` directives in the op formats.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "SdpaDialect/StableHLO/StablehloDialect.h"

using namespace mlir;
using namespace mlir::sdpa::shlo;

void mlir::sdpa::shlo::printSameOperandsAndResultTypeImpl(OpAsmPrinter &p,
                                                          Operation *op,
                                                          TypeRange operands,
                                                          Type result) {
  if (llvm::all_of(operands, [&](Type t) { return t == result; })) {
    p << result;
    return;
  }
  p.printFunctionalType(op);
}

ParseResult mlir::sdpa::shlo::parseSameOperandsAndResultTypeImpl(
    OpAsmParser &parser, ArrayRef<Type *> operands, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  auto fnType = dyn_cast<FunctionType>(type);
  if (!fnType) {
    for (Type *t : operands)
      *t = type;
    result = type;
    return success();
  }
  if (fnType.getNumInputs() != operands.size() || fnType.getNumResults() != 1)
    return parser.emitError(loc, "expected ")
           << operands.size() << " operand types and 1 result type, got "
           << fnType;
  for (auto [t, input] : llvm::zip_equal(operands, fnType.getInputs()))
    *t = input;
  result = fnType.getResult(0);
  return success();
}

void mlir::sdpa::shlo::printVariadicSameOperandsAndResultType(
    OpAsmPrinter &p, Operation *op, OperandRange, TypeRange operandTypes,
    Type result) {
  printSameOperandsAndResultTypeImpl(p, op, operandTypes, result);
}

ParseResult mlir::sdpa::shlo::parseVariadicSameOperandsAndResultType(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &operandTypes, Type &result) {
  operandTypes.resize(operands.size());
  SmallVector<Type *> pointers;
  for (Type &t : operandTypes)
    pointers.push_back(&t);
  return parseSameOperandsAndResultTypeImpl(parser, pointers, result);
}

void mlir::sdpa::shlo::printSliceRanges(OpAsmPrinter &p, Operation *,
                                        DenseI64ArrayAttr start,
                                        DenseI64ArrayAttr limit,
                                        DenseI64ArrayAttr strides) {
  ArrayRef<int64_t> s = start.asArrayRef(), l = limit.asArrayRef(),
                    k = strides.asArrayRef();
  if (s.size() != l.size() || s.size() != k.size()) {
    // Invalid IR (the verifier rejects it) is still printed, in a form that
    // does not parse back as a valid slice.
    p << "[start_indices: ";
    llvm::interleaveComma(s, p);
    p << ", limit_indices: ";
    llvm::interleaveComma(l, p);
    p << ", strides: ";
    llvm::interleaveComma(k, p);
    p << ']';
    return;
  }
  p << '[';
  for (size_t i = 0; i < s.size(); ++i) {
    if (i)
      p << ", ";
    p << s[i] << ':' << l[i];
    if (k[i] != 1)
      p << ':' << k[i];
  }
  p << ']';
}

ParseResult mlir::sdpa::shlo::parseSliceRanges(OpAsmParser &parser,
                                               DenseI64ArrayAttr &start,
                                               DenseI64ArrayAttr &limit,
                                               DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> s, l, k;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t first, second, stride = 1;
            if (parser.parseInteger(first) || parser.parseColon() ||
                parser.parseInteger(second))
              return failure();
            if (succeeded(parser.parseOptionalColon()) &&
                parser.parseInteger(stride))
              return failure();
            s.push_back(first);
            l.push_back(second);
            k.push_back(stride);
            return success();
          }))
    return failure();
  Builder &b = parser.getBuilder();
  start = b.getDenseI64ArrayAttr(s);
  limit = b.getDenseI64ArrayAttr(l);
  strides = b.getDenseI64ArrayAttr(k);
  return success();
}

void mlir::sdpa::shlo::printVariadicOperandWithAttribute(
    OpAsmPrinter &p, Operation *, OperandRange operands) {
  // ODS puts the space before the keyword that follows.
  llvm::interleaveComma(operands, p);
  p << ',';
}

ParseResult mlir::sdpa::shlo::parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult next = parser.parseOptionalOperand(operand);
  while (next.has_value()) {
    if (failed(*next) || parser.parseComma())
      return failure();
    operands.push_back(operand);
    next = parser.parseOptionalOperand(operand);
  }
  return success();
}

ParseResult mlir::sdpa::shlo::parseIntList(AsmParser &parser,
                                           SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      });
}

void mlir::sdpa::shlo::printIntList(AsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

//===----------------------------------------------------------------------===//
// Op-specific type lists
//===----------------------------------------------------------------------===//

/// `complex<T>` element type -> `T`, same shape.
static Type realTypeOf(Type complexTensor) {
  auto shaped = dyn_cast<RankedTensorType>(complexTensor);
  if (!shaped)
    return {};
  auto complex = dyn_cast<ComplexType>(shaped.getElementType());
  if (!complex)
    return {};
  return shaped.clone(complex.getElementType());
}

void mlir::sdpa::shlo::printComplexOpType(OpAsmPrinter &p, Operation *op,
                                          Type lhs, Type rhs, Type result) {
  Type real = realTypeOf(result);
  if (real && lhs == real && rhs == real) {
    p << result;
    return;
  }
  p.printFunctionalType(op);
}

ParseResult mlir::sdpa::shlo::parseComplexOpType(OpAsmParser &parser,
                                                 Type &lhs, Type &rhs,
                                                 Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto fnType = dyn_cast<FunctionType>(type)) {
    if (fnType.getNumInputs() != 2 || fnType.getNumResults() != 1)
      return parser.emitError(loc, "expected (lhs, rhs) -> result type");
    lhs = fnType.getInput(0);
    rhs = fnType.getInput(1);
    result = fnType.getResult(0);
    return success();
  }
  Type real = realTypeOf(type);
  if (!real)
    return parser.emitError(loc, "expected a tensor of complex elements");
  lhs = rhs = real;
  result = type;
  return success();
}

void mlir::sdpa::shlo::printSelectOpType(OpAsmPrinter &p, Operation *op,
                                         Type pred, Type onTrue, Type onFalse,
                                         Type result) {
  if (onTrue != result || onFalse != result) {
    p.printFunctionalType(op);
    return;
  }
  p << pred << ", " << result;
}

ParseResult mlir::sdpa::shlo::parseSelectOpType(OpAsmParser &parser,
                                                Type &pred, Type &onTrue,
                                                Type &onFalse, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() == 2) {
    pred = types[0];
    onTrue = onFalse = result = types[1];
    return success();
  }
  auto fnType =
      types.size() == 1 ? dyn_cast<FunctionType>(types[0]) : FunctionType();
  if (!fnType || fnType.getNumInputs() != 3 || fnType.getNumResults() != 1)
    return parser.emitError(loc, "expected 'pred type, result type' or "
                                 "(pred, on_true, on_false) -> result type");
  pred = fnType.getInput(0);
  onTrue = fnType.getInput(1);
  onFalse = fnType.getInput(2);
  result = fnType.getResult(0);
  return success();
}

void mlir::sdpa::shlo::printTupleOpType(OpAsmPrinter &p, Operation *,
                                        TypeRange, Type result) {
  p << result;
}

ParseResult mlir::sdpa::shlo::parseTupleOpType(OpAsmParser &parser,
                                               SmallVectorImpl<Type> &operands,
                                               Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(result))
    return failure();
  auto tuple = dyn_cast<TupleType>(result);
  if (!tuple)
    return parser.emitError(loc, "expected a tuple type");
  llvm::append_range(operands, tuple.getTypes());
  return success();
}

void mlir::sdpa::shlo::printPairwiseOpType(OpAsmPrinter &p, Operation *,
                                           TypeRange operands, TypeRange) {
  llvm::interleaveComma(operands, p);
}

ParseResult
mlir::sdpa::shlo::parsePairwiseOpType(OpAsmParser &parser,
                                      SmallVectorImpl<Type> &operands,
                                      SmallVectorImpl<Type> &results) {
  if (parser.parseTypeList(operands))
    return failure();
  results.assign(operands.begin(), operands.end());
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes in op formats
//===----------------------------------------------------------------------===//

void mlir::sdpa::shlo::printCallTarget(OpAsmPrinter &p, Operation *,
                                       StringAttr target) {
  p.printSymbolName(target.getValue());
}

ParseResult mlir::sdpa::shlo::parseCallTarget(OpAsmParser &parser,
                                              StringAttr &target) {
  return parser.parseSymbolName(target);
}

void mlir::sdpa::shlo::printExponentMantissa(OpAsmPrinter &p, Operation *,
                                             IntegerAttr exponent,
                                             IntegerAttr mantissa) {
  p << 'e' << exponent.getInt() << 'm' << mantissa.getInt();
}

ParseResult mlir::sdpa::shlo::parseExponentMantissa(OpAsmParser &parser,
                                                    IntegerAttr &exponent,
                                                    IntegerAttr &mantissa) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  // `e<digits>m<digits>`.
  StringRef rest = keyword;
  unsigned e, m;
  if (!rest.consume_front("e"))
    return parser.emitError(loc, "expected a format eXmY, got '")
           << keyword << "'";
  auto [expText, manText] = rest.split('m');
  if (expText.getAsInteger(10, e) || manText.getAsInteger(10, m) ||
      rest.count('m') != 1)
    return parser.emitError(loc, "expected a format eXmY, got '")
           << keyword << "'";
  Builder &b = parser.getBuilder();
  exponent = b.getI32IntegerAttr(e);
  mantissa = b.getI32IntegerAttr(m);
  return success();
}

void mlir::sdpa::shlo::printDotDimensionNumbers(OpAsmPrinter &p, Operation *,
                                                DotDimensionNumbersAttr dims) {
  if (!dims.getLhsBatchingDimensions().empty() ||
      !dims.getRhsBatchingDimensions().empty()) {
    p << "batching_dims = ";
    printIntList(p, dims.getLhsBatchingDimensions());
    p << " x ";
    printIntList(p, dims.getRhsBatchingDimensions());
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, dims.getLhsContractingDimensions());
  p << " x ";
  printIntList(p, dims.getRhsContractingDimensions());
}

/// Parses `[a] x [b]`.
static ParseResult parseDimsPair(OpAsmParser &parser,
                                 SmallVectorImpl<int64_t> &lhs,
                                 SmallVectorImpl<int64_t> &rhs) {
  return failure(parseIntList(parser, lhs) || parser.parseKeyword("x") ||
                 parseIntList(parser, rhs));
}

ParseResult
mlir::sdpa::shlo::parseDotDimensionNumbers(OpAsmParser &parser,
                                           DotDimensionNumbersAttr &dims) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parser.parseEqual() || parseDimsPair(parser, lb, rb) ||
        parser.parseComma())
      return failure();
  }
  if (parser.parseKeyword("contracting_dims") || parser.parseEqual() ||
      parseDimsPair(parser, lc, rc))
    return failure();
  dims = DotDimensionNumbersAttr::get(parser.getContext(), lb, rb, lc, rc);
  return success();
}

void mlir::sdpa::shlo::printPrecisionConfigAndAlgorithm(
    OpAsmPrinter &p, Operation *, ArrayAttr precisions,
    DotAlgorithmAttr algorithm) {
  if (precisions) {
    p << ", precision = [";
    llvm::interleaveComma(precisions, p, [&](Attribute attr) {
      if (auto precision = dyn_cast<PrecisionAttr>(attr))
        p << stringifyPrecision(precision.getValue());
      else
        p << attr;
    });
    p << ']';
  }
  if (algorithm) {
    p << ", algorithm = ";
    p.printStrippedAttrOrType(algorithm);
  }
}

ParseResult mlir::sdpa::shlo::parsePrecisionConfigAndAlgorithm(
    OpAsmParser &parser, ArrayAttr &precisions, DotAlgorithmAttr &algorithm) {
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "precision" && !precisions) {
      SmallVector<Attribute> values;
      if (parser.parseCommaSeparatedList(
              OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                Attribute value = PrecisionAttr::parse(parser, Type());
                if (!value)
                  return failure();
                values.push_back(value);
                return success();
              }))
        return failure();
      precisions = parser.getBuilder().getArrayAttr(values);
      continue;
    }
    if (key == "algorithm" && !algorithm) {
      algorithm = dyn_cast_or_null<DotAlgorithmAttr>(
          DotAlgorithmAttr::parse(parser, Type()));
      if (!algorithm)
        return failure();
      continue;
    }
    return parser.emitError(loc, "expected 'precision' or 'algorithm' (each "
                                 "once), got '")
           << key << "'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// custom<WindowAttributes>
//===----------------------------------------------------------------------===//

void mlir::sdpa::shlo::printWindowAttributes(OpAsmPrinter &p, Operation *,
                                             DenseI64ArrayAttr strides,
                                             DenseIntElementsAttr padding,
                                             DenseI64ArrayAttr lhsDilation,
                                             DenseI64ArrayAttr rhsDilation,
                                             DenseBoolArrayAttr reversal) {
  StringRef separator = "";
  auto list = [&](StringRef name, DenseI64ArrayAttr values) {
    if (!values)
      return;
    p << separator << name << " = ";
    printIntList(p, values.asArrayRef());
    separator = ", ";
  };
  list("stride", strides);
  if (padding) {
    p << separator << "pad = [";
    SmallVector<int64_t> values(padding.getValues<int64_t>());
    for (size_t i = 0; i + 1 < values.size(); i += 2) {
      if (i)
        p << ", ";
      p << '[' << values[i] << ", " << values[i + 1] << ']';
    }
    p << ']';
    separator = ", ";
  }
  list("lhs_dilate", lhsDilation);
  list("rhs_dilate", rhsDilation);
  if (reversal) {
    p << separator << "reverse = [";
    llvm::interleaveComma(reversal.asArrayRef(), p,
                          [&](bool v) { p << (v ? "true" : "false"); });
    p << ']';
  }
}

ParseResult mlir::sdpa::shlo::parseWindowAttributes(
    OpAsmParser &parser, DenseI64ArrayAttr &strides,
    DenseIntElementsAttr &padding, DenseI64ArrayAttr &lhsDilation,
    DenseI64ArrayAttr &rhsDilation, DenseBoolArrayAttr &reversal) {
  Builder &b = parser.getBuilder();
  StringRef key;
  SMLoc loc = parser.getCurrentLocation();
  while (succeeded(parser.parseOptionalKeyword(&key))) {
    if (parser.parseEqual())
      return failure();
    SmallVector<int64_t> values;
    if (key == "pad" && !padding) {
      int64_t rows = 0;
      if (parser.parseCommaSeparatedList(
              OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                SMLoc at = parser.getCurrentLocation();
                size_t before = values.size();
                if (parseIntList(parser, values))
                  return failure();
                if (values.size() - before != 2)
                  return parser.emitError(at, "expected [low, high] pairs "
                                              "in pad");
                ++rows;
                return success();
              }))
        return failure();
      padding = DenseIntElementsAttr::get(
          RankedTensorType::get({rows, 2}, b.getI64Type()), values);
    } else if (key == "reverse" && !reversal) {
      SmallVector<bool> flags;
      if (parser.parseCommaSeparatedList(
              OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                SMLoc at = parser.getCurrentLocation();
                StringRef flag;
                if (parser.parseKeyword(&flag))
                  return failure();
                if (flag != "true" && flag != "false")
                  return parser.emitError(at, "expected true or false");
                flags.push_back(flag == "true");
                return success();
              }))
        return failure();
      reversal = b.getDenseBoolArrayAttr(flags);
    } else if ((key == "stride" && !strides) ||
               (key == "lhs_dilate" && !lhsDilation) ||
               (key == "rhs_dilate" && !rhsDilation)) {
      if (parseIntList(parser, values))
        return failure();
      DenseI64ArrayAttr attr = b.getDenseI64ArrayAttr(values);
      (key == "stride" ? strides
                       : key == "lhs_dilate" ? lhsDilation : rhsDilation) = attr;
    } else {
      return parser.emitError(loc, "expected one of stride, pad, lhs_dilate, "
                                   "rhs_dilate, reverse (each once), got '")
             << key << "'";
    }
    if (failed(parser.parseOptionalComma()))
      break;
    loc = parser.getCurrentLocation();
  }
  return success();
}
