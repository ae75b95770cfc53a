//===- StablehloElementwiseOps.td - Elementwise stablehlo ops -*- tablegen -*-===//
//
// The elementwise ops of the StableHLO specification, as ODS families: unary
// and binary math, bitwise and logical ops, conversions, compare, select,
// clamp, complex/real/imag, is_finite, reduce_precision, quantization.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_ELEMENTWISEOPS_TD
#define SDPA_STABLEHLO_ELEMENTWISEOPS_TD

include "SdpaDialect/StableHLO/StablehloBase.td"

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

/// `result[i] = f(operand[i])`. The type is printed once when operand and
/// result types are equal, as a functional type otherwise.
class Stablehlo_UnaryOp<string mnemonic, string formula,
                        list<Trait> traits = [SameOperandsAndResultType]>
    : Stablehlo_Op<mnemonic, traits # [Pure, Elementwise,
                                        SameOperandsAndResultShape]> {
  let summary = "Elementwise " # mnemonic;
  let description = [{
    `result[i] = }] # formula # [{` for every index `i`:

        %1 = stablehlo.}] # mnemonic # [{ %0 : tensor<4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

/// A transcendental op: the same, with an optional `result_accuracy`
/// (`#stablehlo.result_accuracy<...>`, DEFAULT when absent).
class Stablehlo_AccurateUnaryOp<string mnemonic, string formula>
    : Stablehlo_UnaryOp<mnemonic, formula> {
  let arguments = (ins Stablehlo_Tensor:$operand,
                       OptionalAttr<Stablehlo_ResultAccuracyAttr>:$result_accuracy);
}

def Stablehlo_AbsOp : Stablehlo_UnaryOp<"abs", "|operand[i]|", []> {
  let hasVerifier = 1;
}
def Stablehlo_CbrtOp : Stablehlo_AccurateUnaryOp<"cbrt", "operand[i]^(1/3)">;
def Stablehlo_CeilOp : Stablehlo_UnaryOp<"ceil", "ceil(operand[i])">;
def Stablehlo_CountLeadingZerosOp
    : Stablehlo_UnaryOp<"count_leading_zeros", "clz(operand[i])">;
def Stablehlo_CosineOp : Stablehlo_AccurateUnaryOp<"cosine", "cos(operand[i])">;
def Stablehlo_ExpOp : Stablehlo_AccurateUnaryOp<"exponential", "e^operand[i]">;
def Stablehlo_Expm1Op
    : Stablehlo_AccurateUnaryOp<"exponential_minus_one", "e^operand[i] - 1">;
def Stablehlo_FloorOp : Stablehlo_UnaryOp<"floor", "floor(operand[i])">;
def Stablehlo_LogOp : Stablehlo_AccurateUnaryOp<"log", "ln(operand[i])">;
def Stablehlo_Log1pOp
    : Stablehlo_AccurateUnaryOp<"log_plus_one", "ln(1 + operand[i])">;
def Stablehlo_LogisticOp
    : Stablehlo_AccurateUnaryOp<"logistic", "1 / (1 + e^-operand[i])">;
def Stablehlo_NotOp : Stablehlo_UnaryOp<"not", "~operand[i] (logical for i1)">;
def Stablehlo_NegOp : Stablehlo_UnaryOp<"negate", "-operand[i]">;
def Stablehlo_PopulationCountOp
    : Stablehlo_UnaryOp<"popcnt", "number of set bits of operand[i]">;
def Stablehlo_RoundOp : Stablehlo_UnaryOp<"round_nearest_afz",
    "operand[i] rounded to nearest, ties away from zero">;
def Stablehlo_RoundNearestEvenOp : Stablehlo_UnaryOp<"round_nearest_even",
    "operand[i] rounded to nearest, ties to even">;
def Stablehlo_RsqrtOp
    : Stablehlo_AccurateUnaryOp<"rsqrt", "1 / sqrt(operand[i])">;
def Stablehlo_SignOp : Stablehlo_UnaryOp<"sign",
    "-1, 0 or 1 by the sign of operand[i] (NaN stays NaN)">;
def Stablehlo_SineOp : Stablehlo_AccurateUnaryOp<"sine", "sin(operand[i])">;
def Stablehlo_SqrtOp : Stablehlo_AccurateUnaryOp<"sqrt", "sqrt(operand[i])">;
def Stablehlo_TanOp : Stablehlo_AccurateUnaryOp<"tan", "tan(operand[i])">;
def Stablehlo_TanhOp : Stablehlo_AccurateUnaryOp<"tanh", "tanh(operand[i])">;

/// Real and imaginary parts: complex<T> -> T (or T -> T).
class Stablehlo_ComplexPartOp<string mnemonic, string formula>
    : Stablehlo_UnaryOp<mnemonic, formula, []> {
  let hasVerifier = 1;
}
def Stablehlo_RealOp : Stablehlo_ComplexPartOp<"real", "re(operand[i])">;
def Stablehlo_ImagOp : Stablehlo_ComplexPartOp<"imag", "im(operand[i])">;

def Stablehlo_ConvertOp : Stablehlo_UnaryOp<"convert",
    "operand[i] converted to the result element type", []> {
  let description = [{
    `result[i] = operand[i]` converted to the result's element type
    (float rounding to nearest even, float to integer truncating toward
    zero, integer to integer wrapping, nonzero to i1 true):

        %4 = stablehlo.convert %3 : (tensor<2x256x16x64xf32>) -> tensor<2x256x16x64xbf16>
  }];
}

def Stablehlo_IsFiniteOp : Stablehlo_Op<"is_finite", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Elementwise test for a finite value";
  let description = [{
    `y[i] = x[i] is neither infinite nor NaN`:

        %1 = stablehlo.is_finite %0 : (tensor<4xf32>) -> tensor<4xi1>
  }];
  let arguments = (ins Stablehlo_Tensor:$x);
  let results = (outs Stablehlo_PredTensor:$y);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Stablehlo_BitcastConvertOp : Stablehlo_Op<"bitcast_convert", [Pure]> {
  let summary = "Reinterpret the bits of a tensor";
  let description = [{
    The bits of `operand` read as the result element type; a narrower
    result type adds a minor dimension of `width(operand) / width(result)`
    elements, a wider one removes it:

        %1 = stablehlo.bitcast_convert %0 : (tensor<4xf32>) -> tensor<4xi32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Stablehlo_ReducePrecisionOp : Stablehlo_Op<"reduce_precision", [Pure,
    Elementwise, SameOperandsAndResultType]> {
  let summary = "Round to a narrower float format";
  let description = [{
    `output[i] = operand[i]` rounded to a float of `exponent_bits` and
    `mantissa_bits` (printed `e5m10`), in the operand's type:

        %1 = stablehlo.reduce_precision %0, format = e5m10 : tensor<4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       ConfinedAttr<I32Attr, [IntPositive]>:$exponent_bits,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$mantissa_bits);
  let results = (outs Stablehlo_Tensor:$output);
  let assemblyFormat = [{
    $operand `,` `format` `=`
    custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($output))
  }];
}

def Stablehlo_UniformQuantizeOp : Stablehlo_UnaryOp<"uniform_quantize",
    "round(operand[i] / scale + zero_point), clamped to the storage type",
    []> {
  let description = [{
    Quantizes floats (or requantizes) to the result's
    `!quant.uniform<storage:expressed, scale:zero_point>` element type:

        %1 = stablehlo.uniform_quantize %0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  }];
}

def Stablehlo_UniformDequantizeOp : Stablehlo_UnaryOp<"uniform_dequantize",
    "(operand[i] - zero_point) * scale", []> {
  let description = [{
    The expressed value of each quantized element:

        %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<4xf32>
  }];
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

/// `result[i] = lhs[i] (op) rhs[i]` on tensors of one type.
class Stablehlo_BinaryOp<string mnemonic, string formula,
                         list<Trait> traits = []>
    : Stablehlo_Op<mnemonic, traits # [Pure, Elementwise,
                                        SameOperandsAndResultShape]> {
  let summary = "Elementwise " # mnemonic;
  let description = [{
    `result[i] = }] # formula # [{` for every index `i`, on two tensors of
    one type (printed once):

        %3 = stablehlo.}] # mnemonic # [{ %1, %2 : tensor<2x16x256xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

class Stablehlo_SameTypeBinaryOp<string mnemonic, string formula,
                                 list<Trait> traits = []>
    : Stablehlo_BinaryOp<mnemonic, formula,
                         traits # [SameOperandsAndResultType]>;

def Stablehlo_AddOp
    : Stablehlo_SameTypeBinaryOp<"add", "lhs[i] + rhs[i]", [Commutative]>;
def Stablehlo_Atan2Op
    : Stablehlo_SameTypeBinaryOp<"atan2", "atan2(lhs[i], rhs[i])">;
def Stablehlo_DivideOp
    : Stablehlo_SameTypeBinaryOp<"divide", "lhs[i] / rhs[i]">;
def Stablehlo_MaximumOp : Stablehlo_SameTypeBinaryOp<"maximum",
    "max(lhs[i], rhs[i])", [Commutative]>;
def Stablehlo_MinimumOp : Stablehlo_SameTypeBinaryOp<"minimum",
    "min(lhs[i], rhs[i])", [Commutative]>;
def Stablehlo_MultiplyOp
    : Stablehlo_SameTypeBinaryOp<"multiply", "lhs[i] * rhs[i]", [Commutative]>;
def Stablehlo_PowerOp
    : Stablehlo_SameTypeBinaryOp<"power", "lhs[i] ^ rhs[i]">;
def Stablehlo_RemainderOp : Stablehlo_SameTypeBinaryOp<"remainder",
    "lhs[i] - rhs[i] * trunc(lhs[i] / rhs[i])">;
def Stablehlo_ShiftLeftOp
    : Stablehlo_SameTypeBinaryOp<"shift_left", "lhs[i] << rhs[i]">;
def Stablehlo_ShiftRightArithmeticOp
    : Stablehlo_SameTypeBinaryOp<"shift_right_arithmetic",
                                 "lhs[i] >> rhs[i] (sign-filling)">;
def Stablehlo_ShiftRightLogicalOp
    : Stablehlo_SameTypeBinaryOp<"shift_right_logical",
                                 "lhs[i] >> rhs[i] (zero-filling)">;
def Stablehlo_SubtractOp
    : Stablehlo_SameTypeBinaryOp<"subtract", "lhs[i] - rhs[i]">;
def Stablehlo_AndOp
    : Stablehlo_SameTypeBinaryOp<"and", "lhs[i] & rhs[i]", [Commutative]>;
def Stablehlo_OrOp
    : Stablehlo_SameTypeBinaryOp<"or", "lhs[i] | rhs[i]", [Commutative]>;
def Stablehlo_XorOp
    : Stablehlo_SameTypeBinaryOp<"xor", "lhs[i] ^ rhs[i]", [Commutative]>;

def Stablehlo_ComplexOp : Stablehlo_BinaryOp<"complex",
    "complex(lhs[i], rhs[i])"> {
  let description = [{
    `result[i] = lhs[i] + rhs[i] * 1i`; the result type alone is printed
    when the operands are its real counterpart:

        %2 = stablehlo.complex %0, %1 : tensor<2xcomplex<f32>>
  }];
  let assemblyFormat = [{
    operands attr-dict `:`
    custom<ComplexOpType>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_CompareOp : Stablehlo_Op<"compare", [Pure, Elementwise,
    SameOperandsAndResultShape, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Elementwise comparison";
  let description = [{
    `result[i] = lhs[i] <direction> rhs[i]`, the elements read as
    `compare_type` says (SIGNED, UNSIGNED, FLOAT, TOTALORDER):

        %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xi1>
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       Stablehlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Stablehlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Stablehlo_PredTensor:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($comparison_direction) `,` $lhs `,` $rhs ``
    custom<OptionalEnumKeyword>($compare_type) attr-dict
    `:` functional-type(operands, results)
  }];
}

def Stablehlo_SelectOp : Stablehlo_Op<"select", [Pure,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "Elementwise choice";
  let description = [{
    `result[i] = pred[i] ? on_true[i] : on_false[i]`, or the whole of
    `on_true`/`on_false` for a 0-d `pred`:

        %6 = stablehlo.select %4, %arg0, %5 : tensor<256x256xi1>, tensor<256x256xf32>
  }];
  let arguments = (ins Stablehlo_PredTensor:$pred, Stablehlo_Tensor:$on_true,
                       Stablehlo_Tensor:$on_false);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:`
    custom<SelectOpType>(type($pred), type($on_true), type($on_false),
                         type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_ClampOp : Stablehlo_Op<"clamp", [Pure,
    AllTypesMatch<["operand", "result"]>,
    AllElementTypesMatch<["min", "operand", "max"]>]> {
  let summary = "Elementwise clamp";
  let description = [{
    `result[i] = min(max(operand[i], min[i]), max[i])`; `min` and `max` may
    be 0-d:

        %3 = stablehlo.clamp %min, %x, %max : tensor<4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$min, Stablehlo_Tensor:$operand,
                       Stablehlo_Tensor:$max);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:`
    custom<SameOperandsAndResultType>(type($min), type($operand), type($max),
                                      type($result))
  }];
  let hasVerifier = 1;
}

#endif // SDPA_STABLEHLO_ELEMENTWISEOPS_TD
