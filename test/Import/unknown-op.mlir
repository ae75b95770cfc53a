// An op outside the StableHLO subset is an error that names it.
// RUN: %sdpa_opt %s -split-input-file -verify-diagnostics

func.func @pretty(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.sine' is unknown}}
  %0 = stablehlo.sine %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @generic(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unregistered operation 'stablehlo.sine' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = "stablehlo.sine"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// The long form of reduce (with a region) is not part of the subset.
func.func @reduce_region(%arg0: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected 'applies'}}
  %0 = stablehlo.reduce(%arg0 init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_body(%arg0: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{unsupported reduction body 'stablehlo.divide'}}
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.divide across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
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
