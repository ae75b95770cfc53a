// The data-movement stablehlo ops in StableHLO's printed form (the spec's
// examples, restated): printed, parsed and printed again identically, the
// first print held to the form, and the generic form parses back.
// RUN: %sdpa_opt %s > %t.1.mlir
// RUN: %sdpa_opt %t.1.mlir | diff %t.1.mlir -
// RUN: FileCheck --strict-whitespace %s < %t.1.mlir
// RUN: %sdpa_opt --mlir-print-op-generic %s | %sdpa_opt | diff %t.1.mlir -

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<4x6xf32>, %i: tensor<i64>, %s: tensor<2xi64>, %d: tensor<?xf32>, %u: tensor<2x2xf32>) {
  // CHECK: stablehlo.dynamic_iota %{{.*}}, dim = 0 : (tensor<2xi64>) -> tensor<?x4xi32>
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<?x4xi32>
  // CHECK: stablehlo.dynamic_broadcast_in_dim %{{.*}}, %{{.*}}, dims = [0] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %1 = stablehlo.dynamic_broadcast_in_dim %d, %s, dims = [0] : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  // CHECK: stablehlo.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %2 = stablehlo.dynamic_reshape %d, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  // CHECK: stablehlo.reverse %{{.*}}, dims = [1] : tensor<4x6xf32>
  %3 = stablehlo.reverse %x, dims = [1] : tensor<4x6xf32>
  // CHECK: stablehlo.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [2, 2] : (tensor<4x6xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  %4 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 2] : (tensor<4x6xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  // CHECK: stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
  %5 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<4x6xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %l = stablehlo.constant dense<1> : tensor<1xi64>
  // CHECK: stablehlo.dynamic_pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  %6 = stablehlo.dynamic_pad %d, %c, %l, %l, %l : (tensor<?xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  // CHECK: stablehlo.get_dimension_size %{{.*}}, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %7 = stablehlo.get_dimension_size %d, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  // CHECK: %[[T:.*]] = stablehlo.tuple %{{.*}}, %{{.*}} : tuple<tensor<4x6xf32>, tensor<i64>>
  %8 = stablehlo.tuple %x, %i : tuple<tensor<4x6xf32>, tensor<i64>>
  // CHECK: stablehlo.get_tuple_element %[[T]][1] : (tuple<tensor<4x6xf32>, tensor<i64>>) -> tensor<i64>
  %9 = stablehlo.get_tuple_element %8[1] : (tuple<tensor<4x6xf32>, tensor<i64>>) -> tensor<i64>
  return
}

// CHECK-LABEL: func.func @gather
func.func @gather(%x: tensor<8x4xf32>, %idx: tensor<3x1xi32>, %sizes: tensor<2xi32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<index_vector_dim = 1, offset_dims = [1], start_index_map = [0], collapsed_slice_dims = [0]>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  // CHECK: "stablehlo.dynamic_gather"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x4xf32>
  %1 = "stablehlo.dynamic_gather"(%x, %idx, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}

/// The bounds of a dynamic dimension, in both spellings.
// CHECK-LABEL: func.func @bounds
// CHECK-SAME: tensor<?x4xf32, #stablehlo.bounds<16, ?>>
// CHECK-SAME: tensor<?xf32, #stablehlo.bounds<8>>
func.func @bounds(%a: tensor<?x4xf32, #stablehlo.bounds<16, ?>>, %b: tensor<?xf32, #stablehlo.type_extensions<bounds = [8]>>) {
  return
}
