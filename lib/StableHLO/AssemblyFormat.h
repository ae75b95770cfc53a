//===- AssemblyFormat.h - Custom directives of stablehlo's printed form ---===//
//
// The `custom<...>` directives the ops' declarative formats use, written to
// print exactly what StableHLO prints: one type for ops whose operand and
// result types agree, `start:limit:stride` slice ranges, operand lists that
// end in a comma before an attribute, dot and convolution dimension numbers,
// windows, precision configs.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_LIB_STABLEHLO_ASSEMBLYFORMAT_H
#define SDPA_LIB_STABLEHLO_ASSEMBLYFORMAT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir::sdpa::shlo {

class ConvDimensionNumbersAttr;
class DotAlgorithmAttr;
class DotDimensionNumbersAttr;

//===----------------------------------------------------------------------===//
// custom<SameOperandsAndResultType>: `type` when every operand type equals the
// result type, `(operand types) -> result type` otherwise.
//===----------------------------------------------------------------------===//

void printSameOperandsAndResultTypeImpl(OpAsmPrinter &p, Operation *op,
                                        TypeRange operands, Type result);
ParseResult parseSameOperandsAndResultTypeImpl(OpAsmParser &parser,
                                               ArrayRef<Type *> operands,
                                               Type &result);

template <typename... Types>
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op,
                                    Types... types) {
  SmallVector<Type> all{types...};
  printSameOperandsAndResultTypeImpl(p, op, ArrayRef<Type>(all).drop_back(),
                                     all.back());
}

template <typename... Types>
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser,
                                           Types &...types) {
  SmallVector<Type *> all{&types...};
  return parseSameOperandsAndResultTypeImpl(
      parser, ArrayRef<Type *>(all).drop_back(), *all.back());
}

/// The same for a variadic operand list (`after_all`).
void printVariadicSameOperandsAndResultType(OpAsmPrinter &p, Operation *op,
                                            OperandRange operands,
                                            TypeRange operandTypes,
                                            Type result);
ParseResult parseVariadicSameOperandsAndResultType(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &operandTypes, Type &result);

//===----------------------------------------------------------------------===//
// custom<EnumKeyword>: an enum attribute as its bare keyword (`GE`, `FFT`),
// as StableHLO prints it inside an op; its generic form stays
// `#stablehlo<comparison_direction GE>`. custom<OptionalEnumKeyword>: `, KEY`
// when the attribute is present.
//===----------------------------------------------------------------------===//

template <typename AttrT>
void printEnumKeyword(OpAsmPrinter &p, Operation *, AttrT attr) {
  p << stringifyEnum(attr.getValue());
}

template <typename AttrT>
ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  attr = llvm::dyn_cast_or_null<AttrT>(AttrT::parse(parser, Type()));
  return success(static_cast<bool>(attr));
}

template <typename AttrT>
void printOptionalEnumKeyword(OpAsmPrinter &p, Operation *op, AttrT attr) {
  if (!attr)
    return;
  p << ", ";
  printEnumKeyword(p, op, attr);
}

template <typename AttrT>
ParseResult parseOptionalEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  if (failed(parser.parseOptionalComma()))
    return success();
  return parseEnumKeyword(parser, attr);
}

//===----------------------------------------------------------------------===//
// custom<SliceRanges>: `[start:limit, start:limit:stride, ...]`.
//===----------------------------------------------------------------------===//

void printSliceRanges(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides);
ParseResult parseSliceRanges(OpAsmParser &parser, DenseI64ArrayAttr &start,
                             DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides);

//===----------------------------------------------------------------------===//
// custom<VariadicOperandWithAttribute>: `%a, %b,` (each operand followed by a
// comma) before a keyword attribute.
//===----------------------------------------------------------------------===//

void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *op,
                                       OperandRange operands);
ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands);

//===----------------------------------------------------------------------===//
// Integer lists.
//===----------------------------------------------------------------------===//

/// Parses `[i, j, ...]` (possibly empty) into `values`.
ParseResult parseIntList(AsmParser &parser, SmallVectorImpl<int64_t> &values);
/// Prints `[i, j, ...]`.
void printIntList(AsmPrinter &p, ArrayRef<int64_t> values);

/// Parses `[1, ?, 3]` (`?` for a dynamic size).
FailureOr<SmallVector<int64_t>> parseDimList(AsmParser &parser);
void printDimList(AsmPrinter &printer, ArrayRef<int64_t> dims);

//===----------------------------------------------------------------------===//
// Op-specific type lists.
//===----------------------------------------------------------------------===//

/// `complex`: the result type alone when the operands are its real parts.
void printComplexOpType(OpAsmPrinter &p, Operation *op, Type lhs, Type rhs,
                        Type result);
ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs, Type &rhs,
                               Type &result);

/// `select`: `pred type, value type` when both values have the result type.
void printSelectOpType(OpAsmPrinter &p, Operation *op, Type pred, Type onTrue,
                       Type onFalse, Type result);
ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred, Type &onTrue,
                              Type &onFalse, Type &result);

/// `tuple`: the tuple type alone.
void printTupleOpType(OpAsmPrinter &p, Operation *op, TypeRange operands,
                      Type result);
ParseResult parseTupleOpType(OpAsmParser &parser,
                             SmallVectorImpl<Type> &operands, Type &result);

/// `optimization_barrier`: the operand types, which are the result types.
void printPairwiseOpType(OpAsmPrinter &p, Operation *op, TypeRange operands,
                         TypeRange results);
ParseResult parsePairwiseOpType(OpAsmParser &parser,
                                SmallVectorImpl<Type> &operands,
                                SmallVectorImpl<Type> &results);

//===----------------------------------------------------------------------===//
// Attributes in op formats.
//===----------------------------------------------------------------------===//

/// `@target` of custom_call.
void printCallTarget(OpAsmPrinter &p, Operation *op, StringAttr target);
ParseResult parseCallTarget(OpAsmParser &parser, StringAttr &target);

/// `e5m10` of reduce_precision.
void printExponentMantissa(OpAsmPrinter &p, Operation *op,
                           IntegerAttr exponent, IntegerAttr mantissa);
ParseResult parseExponentMantissa(OpAsmParser &parser, IntegerAttr &exponent,
                                  IntegerAttr &mantissa);

/// `batching_dims = [0] x [0], contracting_dims = [2] x [1]` of dot_general.
void printDotDimensionNumbers(OpAsmPrinter &p, Operation *op,
                              DotDimensionNumbersAttr dims);
ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims);

/// `, precision = [DEFAULT, HIGH], algorithm = <...>` (each optional).
void printPrecisionConfigAndAlgorithm(OpAsmPrinter &p, Operation *op,
                                      ArrayAttr precisions,
                                      DotAlgorithmAttr algorithm);
ParseResult parsePrecisionConfigAndAlgorithm(OpAsmParser &parser,
                                             ArrayAttr &precisions,
                                             DotAlgorithmAttr &algorithm);

/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` of convolution.
void printConvolutionDimensions(AsmPrinter &p, Operation *op,
                                ConvDimensionNumbersAttr dims);
ParseResult parseConvolutionDimensions(AsmParser &parser,
                                       ConvDimensionNumbersAttr &dims);

/// `stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate =
/// [..], reverse = [..]` of convolution, each optional.
void printWindowAttributes(OpAsmPrinter &p, Operation *op,
                           DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr reversal);
ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &reversal);

} // namespace mlir::sdpa::shlo

#endif // SDPA_LIB_STABLEHLO_ASSEMBLYFORMAT_H
