// Printed forms of the stablehlo ops that the fixtures do not show, printed,
// parsed and printed again: the second print equals the first (diff), and
// FileCheck holds the first to StableHLO's form.
// RUN: %sdpa_opt %s > %t.1.mlir
// RUN: %sdpa_opt %t.1.mlir | diff %t.1.mlir -
// RUN: FileCheck %s < %t.1.mlir
// And the generic form parses back to the same ops.
// RUN: %sdpa_opt --mlir-print-op-generic %s | %sdpa_opt | diff %t.1.mlir -

// CHECK-LABEL: func.func @forms
func.func @forms(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4x2xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>) {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: stablehlo.minimum
  %2 = stablehlo.minimum %i, %i : tensor<4xi32>
  // CHECK: stablehlo.or
  %3 = stablehlo.or %1, %p : tensor<4xi1>
  // CHECK: stablehlo.not
  %4 = stablehlo.not %3 : tensor<4xi1>
  // CHECK: stablehlo.log
  %5 = stablehlo.log %0 : tensor<4x2xf32>
  return %5, %1, %2, %4 : tensor<4x2xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>
}

// CHECK-LABEL: func.func @reduce_region
func.func @reduce_region(%x: tensor<4x6xf32>, %i: tensor<4x6xi32>, %c: tensor<f32>, %d: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<6xf32>) {
  /// Two inputs: an argmax-like body, printed after `reducer`.
  // CHECK: %[[R:.*]]:2 = stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  // CHECK-NEXT: reducer(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) (%[[P:.*]]: tensor<i32>, %[[Q:.*]]: tensor<i32>)  {
  // CHECK-NEXT: %[[GE:.*]] = stablehlo.compare GE, %[[A]], %[[B]], FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  // CHECK-NEXT: %[[M:.*]] = stablehlo.select %[[GE]], %[[A]], %[[B]] : tensor<i1>, tensor<f32>
  // CHECK-NEXT: %[[N:.*]] = stablehlo.select %[[GE]], %[[P]], %[[Q]] : tensor<i1>, tensor<i32>
  // CHECK-NEXT: stablehlo.return %[[M]], %[[N]] : tensor<f32>, tensor<i32>
  // CHECK-NEXT: }
  %0:2 = stablehlo.reduce(%x init: %c), (%i init: %d) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%p: tensor<i32>, %q: tensor<i32>)  {
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %ge, %a, %b : tensor<i1>, tensor<f32>
    %n = stablehlo.select %ge, %p, %q : tensor<i1>, tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }
  /// A one-op body written out is printed compact.
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.reduce(%x init: %c) across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  /// A non-commutative body (subtract) stays in the region form.
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  // CHECK-NEXT: reducer(%[[U:.*]]: tensor<f32>, %[[V:.*]]: tensor<f32>)  {
  // CHECK-NEXT: stablehlo.subtract %[[U]], %[[V]] : tensor<f32>
  %2 = stablehlo.reduce(%x init: %c) across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  return %0#0, %0#1, %2 : tensor<4xf32>, tensor<4xi32>, tensor<6xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<4x6xf32>, %c: tensor<f32>) -> (tensor<2x2xf32>, tensor<11x7xf32>, tensor<8x6xf32>) {
  /// A stride other than 1 is printed.
  // CHECK: stablehlo.slice %{{.*}} [0:4:2, 1:5:2] : (tensor<4x6xf32>) -> tensor<2x2xf32>
  %0 = stablehlo.slice %x [0:4:2, 1:5:2] : (tensor<4x6xf32>) -> tensor<2x2xf32>
  /// 1 + 3 + 4 + 3 * 1 = 11 and -1 + 2 + 6 + 0 = 7.
  // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [1, -1], high = [3, 2], interior = [1, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<11x7xf32>
  %1 = stablehlo.pad %x, %c, low = [1, -1], high = [3, 2], interior = [1, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<11x7xf32>
  // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %2 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<11x7xf32>, tensor<8x6xf32>
}
