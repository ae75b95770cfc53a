//===- AssemblyFormat.h - Custom directives of stablehlo's printed form ---===//
//
// The `custom<...>` directives the ops' declarative formats use, written to
// print exactly what StableHLO prints: one type for ops whose operand and
// result types agree, `start:limit:stride` slice ranges, operand lists that
// end in a comma before an attribute.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_LIB_STABLEHLO_ASSEMBLYFORMAT_H
#define SDPA_LIB_STABLEHLO_ASSEMBLYFORMAT_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::sdpa::shlo {

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

} // namespace mlir::sdpa::shlo

#endif // SDPA_LIB_STABLEHLO_ASSEMBLYFORMAT_H
