// Ops outside the StableHLO specification and malformed stablehlo ops are
// errors that name the op, operand or attribute.
// RUN: %sdpa_opt %s -split-input-file -verify-diagnostics

func.func @pretty(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.frobnicate' is unknown}}
  %0 = stablehlo.frobnicate %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unregistered operation 'stablehlo.frobnicate' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = "stablehlo.frobnicate"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// The compact form names a commutative binary op only.
func.func @reduce_body(%arg0: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected 'applies' to name a commutative binary op of the stablehlo dialect, got 'stablehlo.divide'}}
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.divide across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_dims(%arg0: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected distinct dimensions less than the input rank}}
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.add across dimensions = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_result(%arg0: tensor<4x2xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected result 0 to have the input shape without the reduced dimensions}}
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_block(%arg0: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected body arguments 0 and 1 to have the type 'tensor<f32>' of init value 0}}
  %0 = stablehlo.reduce(%arg0 init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f16>)  {
    stablehlo.return %a : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @reduce_return(%arg0: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected the body to return the init values' types}}
  %0 = stablehlo.reduce(%arg0 init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    stablehlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @slice(%arg0: tensor<4x6xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{expected result dimension 1 to be 2}}
  %0 = stablehlo.slice %arg0 [0:2, 0:4:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_limit(%arg0: tensor<4x6xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{expected 0 <= start_indices[1] <= limit_indices[1] <= operand dimension 1}}
  %0 = stablehlo.slice %arg0 [0:2, 6:7] : (tensor<4x6xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @slice_rank(%arg0: tensor<4x6xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected start_indices, limit_indices and strides to have one entry per operand dimension (2)}}
  %0 = stablehlo.slice %arg0 [0:2] : (tensor<4x6xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @pad(%arg0: tensor<4xf32>, %c: tensor<f32>) -> tensor<9xf32> {
  // 1 + 1 + 4 + 3 * 1 = 9 would hold with interior 1; with 2 it is 12.
  // expected-error @+1 {{expected result dimension 0 to be 12}}
  %0 = stablehlo.pad %arg0, %c, low = [1], high = [1], interior = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

func.func @pad_value(%arg0: tensor<4xf32>, %c: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 must be 0D tensor of any type values}}
  %0 = stablehlo.pad %arg0, %c, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate(%a: tensor<4x2xf32>, %b: tensor<3x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{expected result dimension 0 to be the sum 7 of the inputs'}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

func.func @concatenate_other(%a: tensor<4x2xf32>, %b: tensor<3x3xf32>) -> tensor<7x2xf32> {
  // expected-error @+1 {{expected input 1 dimension 1 to be 2}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x2xf32>, tensor<3x3xf32>) -> tensor<7x2xf32>
  return %0 : tensor<7x2xf32>
}

// -----

func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @transpose(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{expected dims to be a permutation of the operand dimensions}}
  %0 = stablehlo.transpose %arg0, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @broadcast(%arg0: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{expected operand dimension 0 of size 3 to be 1 or the size 4 of result dimension 1}}
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{expected paired dimensions lhs 1 and rhs 0 to have the same size}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<7x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @iota() -> tensor<4xi32> {
  // expected-error @+1 {{expected iota dimension 1 to be less than the rank 1}}
  %0 = stablehlo.iota dim = 1 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
