// The stablehlo ops with regions in StableHLO's printed form (the spec's
// examples, restated): printed, parsed and printed again identically, the
// first print held to the form, and the generic form parses back.
// RUN: %sdpa_opt %s > %t.1.mlir
// RUN: %sdpa_opt %t.1.mlir | diff %t.1.mlir -
// RUN: FileCheck --strict-whitespace %s < %t.1.mlir
// RUN: %sdpa_opt --mlir-print-op-generic %s | %sdpa_opt | diff %t.1.mlir -

// CHECK-LABEL: func.func @loop
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c10 = stablehlo.constant dense<10> : tensor<i64>
  // CHECK: %[[W:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}) : tensor<i64>, tensor<4xf32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %[[LT:.*]] = stablehlo.compare LT, %[[I]], %{{.*}}, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // CHECK-NEXT: stablehlo.return %[[LT]] : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %[[N:.*]] = stablehlo.add %[[I]], %{{.*}} : tensor<i64>
  // CHECK-NEXT: %[[Y:.*]] = stablehlo.add %[[X]], %[[X]] : tensor<4xf32>
  // CHECK-NEXT: stablehlo.return %[[N]], %[[Y]] : tensor<i64>, tensor<4xf32>
  // CHECK-NEXT: }
  %0:2 = stablehlo.while(%i = %c0, %y = %x) : tensor<i64>, tensor<4xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %c10, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i64>
    %z = stablehlo.add %y, %y : tensor<4xf32>
    stablehlo.return %n, %z : tensor<i64>, tensor<4xf32>
  }
  return %0#1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @branches
func.func @branches(%p: tensor<i1>, %k: tensor<i32>, %a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK: "stablehlo.if"(%{{.*}}) ({
  // CHECK-NEXT: stablehlo.return %{{.*}} : tensor<2xf32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: stablehlo.return %{{.*}} : tensor<2xf32>
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<2xf32>
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  // CHECK: "stablehlo.case"(%{{.*}}) ({
  // CHECK: }, {
  // CHECK: }, {
  // CHECK: }) : (tensor<i32>) -> tensor<2xf32>
  %1 = "stablehlo.case"(%k) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf32>
  }, {
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<4x6xf32>, %c: tensor<f32>, %i: tensor<4xi32>, %idx: tensor<3x1xi32>, %u: tensor<3x6xf32>, %src: tensor<4x3xf32>) {
  // CHECK: "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{padding = dense<{{\[\[}}0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: stablehlo.maximum %[[A]], %[[B]] : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x3xf32>
  // CHECK: "stablehlo.sort"(%{{.*}}, %{{.*}}) <{dimension = 0 : i64, is_stable = true}> ({
  %1:2 = "stablehlo.sort"(%i, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %p: tensor<i32>, %q: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  // CHECK: "stablehlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  %2 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<3x1xi32>, tensor<3x6xf32>) -> tensor<4x6xf32>
  // CHECK: "stablehlo.map"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0, 1>}> ({
  %3 = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  // CHECK: "stablehlo.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  // CHECK: }, {
  %4 = "stablehlo.select_and_scatter"(%x, %src, %c) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return
}
