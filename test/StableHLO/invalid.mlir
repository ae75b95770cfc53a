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

// -----

func.func @abs_complex(%c: tensor<2xcomplex<f32>>) -> tensor<2xf64> {
  // expected-error @+1 {{expected the result element type to be the operand's (its real part for complex)}}
  %0 = stablehlo.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @complex(%a: tensor<2xf32>) -> tensor<2xcomplex<f64>> {
  // expected-error @+1 {{expected the result element type to be complex of the operands' element type}}
  %0 = stablehlo.complex %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// -----

func.func @select_pred(%p: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected pred to be 0-d or of the shape of on_true}}
  %0 = stablehlo.select %p, %a, %a : tensor<3xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp(%m: tensor<2xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected min to be 0-d or of the operand's shape}}
  %0 = stablehlo.clamp %m, %a, %m : (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reverse(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected dims to be distinct and less than the rank}}
  %0 = stablehlo.reverse %a, dims = [1] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic_slice(%a: tensor<4xf32>, %i: tensor<i64>) -> tensor<5xf32> {
  // expected-error @+1 {{expected sizes[0] to be between 0 and operand dimension 0}}
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [5] : (tensor<4xf32>, tensor<i64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @gather(%x: tensor<8x4xf32>, %idx: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{expected slice_sizes to have one entry per operand dimension (2)}}
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_field(%x: tensor<8x4xf32>, %idx: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{unknown field 'offset_dim'}}
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dim = [1]>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @tuple(%a: tuple<tensor<2xf32>>) -> tensor<2xf32> {
  // expected-error @+1 {{expected index 1 to be less than the tuple size 1}}
  %0 = stablehlo.get_tuple_element %a[1] : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @while_cond(%x: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{expected the cond region to return ('tensor<i1>')}}
  %0 = stablehlo.while(%i = %x) : tensor<i64>
  cond {
    stablehlo.return %i : tensor<i64>
  } do {
    stablehlo.return %i : tensor<i64>
  }
  return %0 : tensor<i64>
}

// -----

func.func @if_types(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected the branch region to return ('tensor<2xf32>')}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @sort(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected the comparator region to take 2 arguments of types ('tensor<f32>', 'tensor<f32>')}}
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @conv(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected the input feature dimension (3) to be the kernel input features times feature_group_count (2 * 1)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x2x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_layout(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{duplicate 'b'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, b, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @custom_call_version(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected api_version between 0 and 4, got 7}}
  %0 = stablehlo.custom_call @t(%x) {api_version = 7 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @custom_call_config(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected backend_config to be a dictionary with api_version 4}}
  %0 = stablehlo.custom_call @t(%x) {api_version = 4 : i32, backend_config = "x"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @infeed(%t: !stablehlo.token) -> tensor<2xf32> {
  // expected-error @+1 {{expected the last result to be a !stablehlo.token}}
  %0 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_precision(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a format eXmY, got 'e5x10'}}
  %0 = stablehlo.reduce_precision %x, format = e5x10 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bounds(%a: tensor<4xf32, #stablehlo.bounds<8>>) {
  // expected-error @-1 {{expected bound 0 to be '?' for a static dimension}}
  return
}

// -----

func.func @outside_spec(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.einsum' is unknown}}
  %0 = stablehlo.einsum %a, %a, config = "i,i->i" : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// async_start runs exactly one collective or slice.
func.func @async_two_ops(%x: tensor<2xf32>) {
  // expected-error @+1 {{expected the body to hold one op and a stablehlo.return}}
  %0 = "stablehlo.async_start"(%x) ({
    %1 = stablehlo.abs %x : tensor<2xf32>
    %2 = stablehlo.abs %1 : tensor<2xf32>
    stablehlo.return %2 : tensor<2xf32>
  }) : (tensor<2xf32>) -> !stablehlo.future<tensor<2xf32>>
  return
}

// -----

func.func @async_op(%x: tensor<2xf32>) {
  // expected-error @+1 {{expected the body's op to be a collective or a slice, got 'stablehlo.abs'}}
  %0 = "stablehlo.async_start"(%x) ({
    %1 = stablehlo.abs %x : tensor<2xf32>
    stablehlo.return %1 : tensor<2xf32>
  }) : (tensor<2xf32>) -> !stablehlo.future<tensor<2xf32>>
  return
}

// -----

func.func @async_operands(%x: tensor<2xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{expected the body's op to take the operands of stablehlo.async_start}}
  %0 = "stablehlo.async_start"(%x) ({
    %1 = "stablehlo.collective_permute"(%y) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.return %1 : tensor<2xf32>
  }) : (tensor<2xf32>) -> !stablehlo.future<tensor<2xf32>>
  return
}

// -----

func.func @async_return(%x: tensor<2xf32>) {
  // expected-error @+1 {{expected the body to return the results of its op}}
  %0 = "stablehlo.async_start"(%x) ({
    %1 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<2xf32>) -> !stablehlo.future<tensor<2xf32>>
  return
}

// -----

func.func @async_future(%x: tensor<2xf32>) {
  // expected-error @+1 {{expected the result to be a future of the body op's result types}}
  %0 = "stablehlo.async_start"(%x) ({
    %1 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.return %1 : tensor<2xf32>
  }) : (tensor<2xf32>) -> !stablehlo.future<tensor<4xf32>>
  return
}

// -----

func.func @async_done(%f: !stablehlo.future<tensor<2xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{expected the results to have the types of the operand future}}
  %0 = "stablehlo.async_done"(%f) : (!stablehlo.future<tensor<2xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @real_type(%c: tensor<2xcomplex<f32>>) -> tensor<2xf64> {
  // expected-error @+1 {{expected the result element type to be the real part of the operand's}}
  %0 = stablehlo.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @complex_operands(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{expected lhs and rhs of one type}}
  %0 = stablehlo.complex %a, %b : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

/// The short form of complex names a complex result type.
func.func @complex_short(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected a tensor of complex elements}}
  %0 = stablehlo.complex %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @select_types(%p: tensor<2xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected 'pred type, result type' or (pred, on_true, on_false) -> result type}}
  %0 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tuple_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected a tuple type}}
  %0 = stablehlo.tuple %a : tensor<2xf32>
  return
}

// -----

func.func @tuple_operands(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected the tuple type to hold the operand types}}
  %0 = "stablehlo.tuple"(%a) : (tensor<2xf32>) -> tuple<tensor<2xf64>>
  return
}

// -----

func.func @get_tuple_element_type(%t: tuple<tensor<2xf32>>) -> tensor<2xf64> {
  // expected-error @+1 {{expected the result type to be tuple element 0}}
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @dynamic_slice_count(%a: tensor<4x4xf32>, %i: tensor<i64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{expected one start index and one size per operand dimension (2)}}
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @gather_collapsed(%x: tensor<8x4xf32>, %idx: tensor<3x1xi32>) -> tensor<3x2x4xf32> {
  // expected-error @+1 {{expected collapsed_slice_dims to name operand dimensions of slice size 0 or 1}}
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @gather_index_vector_dim(%x: tensor<8x4xf32>, %idx: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{expected index_vector_dim to be at most the rank of start_indices}}
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_field(%x: tensor<8x4xf32>, %idx: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{duplicate field 'offset_dims'}}
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], offset_dims = [1]>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @reduce_window_dims(%x: tensor<4x6xf32>, %c: tensor<f32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{expected window_dimensions, window_strides, base_dilations and window_dilations to have one entry per input dimension (2)}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @reduce_window_padding(%x: tensor<4x6xf32>, %c: tensor<f32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{expected padding of shape [2, 2]}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<0> : tensor<2x1xi64>, window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @scatter_result(%x: tensor<4x6xf32>, %idx: tensor<3x1xi32>, %u: tensor<3x6xf32>) -> tensor<4x6xf64> {
  // expected-error @+1 {{expected result 0 to have the type of input 0}}
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<3x1xi32>, tensor<3x6xf32>) -> tensor<4x6xf64>
  return %0 : tensor<4x6xf64>
}

// -----

func.func @scatter_body(%x: tensor<4x6xf32>, %idx: tensor<3x1xi32>, %u: tensor<3x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{expected the update_computation region to return ('tensor<f32>')}}
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return
  }) : (tensor<4x6xf32>, tensor<3x1xi32>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @case_branches(%k: tensor<i32>) {
  // expected-error @+1 {{expected at least one branch}}
  "stablehlo.case"(%k) : (tensor<i32>) -> ()
  return
}

// -----

func.func @while_types(%x: tensor<i64>) {
  // expected-error @+1 {{expected one type per loop value (1), got 2}}
  %0 = stablehlo.while(%i = %x) : tensor<i64>, tensor<i64>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i64>
  }
  return
}

// -----

func.func @conv_rank(%x: tensor<1x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected lhs, rhs and result to have rank 4 (2 + the spatial dimensions of dim_numbers)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_stride(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected stride, lhs_dilate and rhs_dilate to have one entry per spatial dimension (2)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_pad(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected pad to have one [low, high] pair per spatial dimension (2)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_pad_pair(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected [low, high] pairs in pad}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_reverse(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected true or false}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [yes, no]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_window_key(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected one of stride, pad, lhs_dilate, rhs_dilate, reverse (each once), got 'stride'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

/// A huge spatial dimension number is refused before it sizes anything.
func.func @conv_spatial_number(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected a spatial dimension number in [0, 64)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1000000000000, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_spatial_dup(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{duplicate spatial dimension 0}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_spatial_gap(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected spatial dimensions 0 to 2 each once}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_missing(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected both 'i' and 'o'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv_spatial_count(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{expected the input, kernel and output to have the same number of spatial dimensions}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @dot_precision_key(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{expected 'precision' or 'algorithm' (each once), got 'accuracy'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], accuracy = [DEFAULT] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @dot_precision_count(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{expected at most 2 precision entries}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT, HIGH] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @custom_call_string_config(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected backend_config to be a string below api_version 4}}
  %0 = stablehlo.custom_call @t(%x) {api_version = 2 : i32, backend_config = {a = 1 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @custom_call_layout_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected operand_layouts to have one layout per value (1)}}
  %0 = stablehlo.custom_call @t(%x) {operand_layouts = [], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @custom_call_layout_rank(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected each of result_layouts to be a dense index list of the value's rank}}
  %0 = stablehlo.custom_call @t(%x) {operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @custom_call_alias(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected output_operand_aliases to name an operand index below 1}}
  %0 = stablehlo.custom_call @t(%x) {output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @recv_tokens(%t: !stablehlo.token) {
  // expected-error @+1 {{expected only the last result to be a token}}
  %0:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>}> : (!stablehlo.token) -> (!stablehlo.token, !stablehlo.token)
  return
}

// -----

func.func @constant_value() {
  // expected-error @+1 {{expected a tensor constant value}}
  %0 = stablehlo.constant 1 : i32
  return
}

// -----

func.func @broadcast_dims_count(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{expected dims to have one entry per operand dimension (1), got 2}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dims_entry(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{expected dims entry 2 to be less than the result rank 2}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{expected the operand and the result to have the same number of elements}}
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @slice_stride(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected strides[0] to be positive}}
  %0 = stablehlo.slice %a [0:4:0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_interior(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected interior[0] to be non-negative}}
  %0 = stablehlo.pad %a, %c, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate_rank(%a: tensor<4xf32>, %b: tensor<4x1xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected input 1 to have rank 1}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4xf32>, tensor<4x1xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @reduce_init_rank(%a: tensor<4xf32>, %init: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{expected init value 0 to be 0-d}}
  %0 = stablehlo.reduce(%a init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<f32>
   reducer(%x: tensor<1xf32>, %y: tensor<1xf32>)  {
    stablehlo.return %x : tensor<1xf32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @reduce_body_args(%a: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expected the body to take 2 arguments, got 1}}
  %0 = "stablehlo.reduce"(%a, %init) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @unknown_attribute(%a: tensor<4xf32, #stablehlo.shape<4>>) {
  // expected-error @-1 {{unknown stablehlo attribute 'shape'}}
  return
}

// -----

func.func @bounds_count(%a: tensor<?x4xf32, #stablehlo.bounds<8>>) {
  // expected-error @-1 {{expected one bound per dimension (2), got 1}}
  return
}

// -----

func.func @result_accuracy_mode(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected mode to be a #stablehlo.result_accuracy_mode}}
  %0 = stablehlo.exponential %x {result_accuracy = #stablehlo.result_accuracy<mode = 1 : i32>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{expected value of type 'tensor<2xi8>', got 'tensor<2xi32>'}}
  %0 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  return
}

// -----

func.func @constant_properties() {
  // expected-error @+1 {{expected the properties to be <{value = <tensor constant>}>}}
  %0 = stablehlo.constant() <{val = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  return
}

// -----

func.func @constant_signature(%a: tensor<2xi8>) {
  // expected-error @+1 {{expected the type () -> result type}}
  %0 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  return
}
