// Graphs the decomposed matcher must read without crashing: each is no
// attention and stays as it was.

// RUN: %sdpa_opt -sdpa-import-stablehlo -split-input-file %s 2>&1 | FileCheck %s

/// A product reading a sum over a splat: the sum has no dimension labels
/// (this aborted in the reduce's key lookup).
// CHECK-LABEL: func.func @reduce_of_splat
// CHECK: stablehlo.reduce
// CHECK: stablehlo.dot_general
// CHECK-NOT: sdpa.
func.func @reduce_of_splat(%arg0: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %c = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
  %r = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [2] : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %d = stablehlo.dot_general %r, %arg0, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}
