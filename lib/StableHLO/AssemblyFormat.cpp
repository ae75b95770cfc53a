//===- AssemblyFormat.cpp - Custom directives of stablehlo's printed form -===//
//
// Parsers and printers of the `custom<...>` directives in the op formats.
//
//===----------------------------------------------------------------------===//

#include "AssemblyFormat.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

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
