// The elementwise stablehlo ops in StableHLO's printed form (the spec's
// examples, restated): printed, parsed and printed again identically, the
// first print held to the form, and the generic form parses back.
// RUN: %sdpa_opt %s > %t.1.mlir
// RUN: %sdpa_opt %t.1.mlir | diff %t.1.mlir -
// RUN: FileCheck --strict-whitespace %s < %t.1.mlir
// RUN: %sdpa_opt --mlir-print-op-generic %s | %sdpa_opt | diff %t.1.mlir -

// CHECK-LABEL: func.func @unary
func.func @unary(%f: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<2xcomplex<f32>>) {
  // CHECK: stablehlo.abs %{{.*}} : tensor<4xf32>
  %0 = stablehlo.abs %f : tensor<4xf32>
  /// abs of complex values is real: the types differ, so both print.
  // CHECK: stablehlo.abs %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %1 = stablehlo.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: stablehlo.cbrt %{{.*}} : tensor<4xf32>
  %2 = stablehlo.cbrt %f : tensor<4xf32>
  // CHECK: stablehlo.ceil %{{.*}} : tensor<4xf32>
  %3 = stablehlo.ceil %f : tensor<4xf32>
  // CHECK: stablehlo.count_leading_zeros %{{.*}} : tensor<4xi32>
  %4 = stablehlo.count_leading_zeros %i : tensor<4xi32>
  // CHECK: stablehlo.exponential_minus_one %{{.*}} : tensor<4xf32>
  %5 = stablehlo.exponential_minus_one %f : tensor<4xf32>
  // CHECK: stablehlo.floor %{{.*}} : tensor<4xf32>
  %6 = stablehlo.floor %f : tensor<4xf32>
  // CHECK: stablehlo.imag %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %7 = stablehlo.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: stablehlo.real %{{.*}} : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %8 = stablehlo.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: stablehlo.is_finite %{{.*}} : (tensor<4xf32>) -> tensor<4xi1>
  %9 = stablehlo.is_finite %f : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.log_plus_one %{{.*}} : tensor<4xf32>
  %10 = stablehlo.log_plus_one %f : tensor<4xf32>
  // CHECK: stablehlo.logistic %{{.*}} : tensor<4xf32>
  %11 = stablehlo.logistic %f : tensor<4xf32>
  // CHECK: stablehlo.popcnt %{{.*}} : tensor<4xi32>
  %12 = stablehlo.popcnt %i : tensor<4xi32>
  // CHECK: stablehlo.round_nearest_afz %{{.*}} : tensor<4xf32>
  %13 = stablehlo.round_nearest_afz %f : tensor<4xf32>
  // CHECK: stablehlo.round_nearest_even %{{.*}} : tensor<4xf32>
  %14 = stablehlo.round_nearest_even %f : tensor<4xf32>
  // CHECK: stablehlo.sign %{{.*}} : tensor<4xf32>
  %15 = stablehlo.sign %f : tensor<4xf32>
  // CHECK: stablehlo.sqrt %{{.*}} : tensor<4xf32>
  %16 = stablehlo.sqrt %f : tensor<4xf32>
  // CHECK: stablehlo.tan %{{.*}} : tensor<4xf32>
  %17 = stablehlo.tan %f : tensor<4xf32>
  /// A transcendental op with a requested accuracy.
  // CHECK: stablehlo.exponential %{{.*}} {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  %18 = stablehlo.exponential %f {result_accuracy = #stablehlo.result_accuracy<ulps = 2, atol = 1.0e-05, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %19 = stablehlo.bitcast_convert %f : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: stablehlo.reduce_precision %{{.*}}, format = e5m10 : tensor<4xf32>
  %20 = stablehlo.reduce_precision %f, format = e5m10 : tensor<4xf32>
  /// convert to the same type prints one type.
  // CHECK: stablehlo.convert %{{.*}} : tensor<4xf32>
  %21 = stablehlo.convert %f : tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%f: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>, %s: tensor<f32>) {
  // CHECK: stablehlo.atan2 %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.atan2 %f, %f : tensor<4xf32>
  // CHECK: stablehlo.remainder %{{.*}}, %{{.*}} : tensor<4xi32>
  %1 = stablehlo.remainder %i, %i : tensor<4xi32>
  // CHECK: stablehlo.shift_left %{{.*}}, %{{.*}} : tensor<4xi32>
  %2 = stablehlo.shift_left %i, %i : tensor<4xi32>
  // CHECK: stablehlo.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<4xi32>
  %3 = stablehlo.shift_right_arithmetic %i, %i : tensor<4xi32>
  // CHECK: stablehlo.shift_right_logical %{{.*}}, %{{.*}} : tensor<4xi32>
  %4 = stablehlo.shift_right_logical %i, %i : tensor<4xi32>
  // CHECK: stablehlo.xor %{{.*}}, %{{.*}} : tensor<4xi1>
  %5 = stablehlo.xor %p, %p : tensor<4xi1>
  /// complex prints only the result type when the operands are its parts.
  // CHECK: stablehlo.complex %{{.*}}, %{{.*}} : tensor<4xcomplex<f32>>
  %6 = stablehlo.complex %f, %f : tensor<4xcomplex<f32>>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %7 = stablehlo.clamp %s, %f, %s : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>
  %8 = stablehlo.clamp %f, %f, %f : tensor<4xf32>
  // CHECK: stablehlo.compare EQ, %{{.*}}, %{{.*}}, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %9 = stablehlo.compare EQ, %f, %f, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  /// select with a 0-d predicate.
  %t = stablehlo.constant dense<true> : tensor<i1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<4xf32>
  %10 = stablehlo.select %t, %f, %f : tensor<i1>, tensor<4xf32>
  return
}

/// Quantization to and from a per-tensor uniform type (scale 0.5, zero
/// point -1), and a requantization to another scale.
// CHECK-LABEL: func.func @quantization
func.func @quantization(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Q:.*]] = stablehlo.uniform_quantize %{{.*}} : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  // CHECK: %[[R:.*]] = stablehlo.uniform_quantize %[[Q]] : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>
  // CHECK: stablehlo.uniform_dequantize %[[R]] : (tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<4xf32>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

/// A quantized constant holds its storage integers; StableHLO prints it
/// with the value as a property and names it `%cst`, as it names every
/// constant whose elements are not integers (complex too).
// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: %cst = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  %0 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  // CHECK: %cst_0 = stablehlo.constant() <{value = dense<3> : tensor<1xi8>}> {note = 1 : i32} : () -> tensor<1x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  %1 = stablehlo.constant() <{value = dense<3> : tensor<1xi8>}> {note = 1 : i32} : () -> tensor<1x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  // CHECK: %cst_1 = stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>
  %2 = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f32>>
  // CHECK: %c = stablehlo.constant dense<true> : tensor<i1>
  %3 = stablehlo.constant dense<true> : tensor<i1>
  // CHECK: %c_2 = stablehlo.constant {note = 2 : i32} dense<[-2, 4]> : tensor<2xi64>
  %4 = stablehlo.constant {note = 2 : i32} dense<[-2, 4]> : tensor<2xi64>
  return
}
