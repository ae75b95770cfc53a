// Contractions, calls, FFT, random numbers, linear algebra, batch norm,
// tokens and collectives in StableHLO's printed form (the spec's examples,
// restated): printed, parsed and printed again identically, the first print
// held to the form, and the generic form parses back.
// RUN: %sdpa_opt %s > %t.1.mlir
// RUN: %sdpa_opt %t.1.mlir | diff %t.1.mlir -
// RUN: FileCheck --strict-whitespace %s < %t.1.mlir
// RUN: %sdpa_opt --mlir-print-op-generic %s | %sdpa_opt | diff %t.1.mlir -

// CHECK-LABEL: func.func @contractions
func.func @contractions(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) {
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  %0 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  /// A layout other than NHWC, a reversed window, no padding.
  // CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  %img2 = stablehlo.transpose %img, dims = [0, 3, 1, 2] : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  %k2 = stablehlo.transpose %k, dims = [3, 2, 0, 1] : (tensor<3x3x3x4xf32>) -> tensor<4x3x3x3xf32>
  %1 = stablehlo.convolution(%img2, %k2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  /// A dot algorithm, with and without a precision config.
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [HIGHEST, HIGH], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true> : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
  %3 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true> : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @calls
func.func @calls(%x: tensor<4xf32>) {
  /// Every attribute of custom_call, with the typed FFI's dictionary config.
  // CHECK: stablehlo.custom_call @my_target(%{{.*}}) {api_version = 4 : i32, backend_config = {scale = 5.000000e-01 : f32}, called_computations = [@helper], has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = stablehlo.custom_call @my_target(%x) {api_version = 4 : i32, backend_config = {scale = 5.000000e-01 : f32}, called_computations = [@helper], has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %{{.*}}:2 = stablehlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
  %1:2 = stablehlo.optimization_barrier %x, %0 : tensor<4xf32>, tensor<4xf32>
  // CHECK: stablehlo.optimization_barrier()
  stablehlo.optimization_barrier()
  return
}

func.func private @helper(tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @numerics
func.func @numerics(%c: tensor<4xcomplex<f32>>, %r: tensor<8xf32>, %a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %state: tensor<2xui64>) {
  // CHECK: stablehlo.fft %{{.*}}, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %0 = stablehlo.fft %c, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  // CHECK: stablehlo.fft %{{.*}}, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %1 = stablehlo.fft %r, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %shape = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  // CHECK: stablehlo.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %2 = stablehlo.rng %lo, %hi, %shape, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  // CHECK: stablehlo.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %3:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  // CHECK: stablehlo.cholesky %{{.*}}, lower = true : tensor<3x3xf32>
  %4 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  // CHECK: stablehlo.cholesky %{{.*}} : tensor<3x3xf32>
  %5 = stablehlo.cholesky %a : tensor<3x3xf32>
  // CHECK: "stablehlo.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %6 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<2x2x2xf32>, %s: tensor<2xf32>) {
  // CHECK: "stablehlo.batch_norm_training"(%{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e+00 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) <{epsilon = 1.0 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  // CHECK: "stablehlo.batch_norm_inference"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e+00 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  %1 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 1.0 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  // CHECK: "stablehlo.batch_norm_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e+00 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %2:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %x) <{epsilon = 1.0 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  return
}

// CHECK-LABEL: func.func @tokens
func.func @tokens(%t: !stablehlo.token, %x: tensor<2xf32>) -> !stablehlo.token {
  // CHECK: %[[A:.*]] = stablehlo.after_all %{{.*}}, %{{.*}} : !stablehlo.token
  %0 = stablehlo.after_all %t, %t : !stablehlo.token
  // CHECK: "stablehlo.infeed"(%[[A]]) <{infeed_config = "feed"}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %1:2 = "stablehlo.infeed"(%0) <{infeed_config = "feed"}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  // CHECK: "stablehlo.outfeed"(%{{.*}}, %{{.*}}) <{outfeed_config = ""}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %2 = "stablehlo.outfeed"(%1#0, %1#1) <{outfeed_config = ""}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.send"(%{{.*}}, %{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %3 = "stablehlo.send"(%x, %2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.recv"(%{{.*}}) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %4:2 = "stablehlo.recv"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  // CHECK: stablehlo.replica_id : tensor<ui32>
  %5 = stablehlo.replica_id : tensor<ui32>
  // CHECK: stablehlo.partition_id : tensor<ui32>
  %6 = stablehlo.partition_id : tensor<ui32>
  return %4#1 : !stablehlo.token
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%x: tensor<2x2xf32>) {
  // CHECK: "stablehlo.all_gather"(%{{.*}}) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
  // CHECK: "stablehlo.all_reduce"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
  %1 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: "stablehlo.reduce_scatter"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  %2 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x2xf32>) -> tensor<2x1xf32>
  // CHECK: "stablehlo.all_to_all"(%{{.*}}) <{concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x2xf32>) -> tensor<4x1xf32>
  %3 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x2xf32>) -> tensor<4x1xf32>
  // CHECK: "stablehlo.collective_broadcast"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %4 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: "stablehlo.collective_permute"(%{{.*}}) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %5 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: "stablehlo.collective_reduce"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
  %6 = "stablehlo.collective_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

/// One collective started asynchronously and waited for: the future carries
/// the all_gather's result type.
// CHECK-LABEL: func.func @async
func.func @async(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // CHECK: %[[F:.*]] = "stablehlo.async_start"(%[[X:.*]]) ({
  // CHECK-NEXT: %[[G:.*]] = "stablehlo.all_gather"(%[[X]]) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: stablehlo.return %[[G]] : tensor<2x4xf32>
  // CHECK-NEXT: }) : (tensor<2x2xf32>) -> !stablehlo.future<tensor<2x4xf32>>
  %0 = "stablehlo.async_start"(%x) ({
    %1 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
    stablehlo.return %1 : tensor<2x4xf32>
  }) : (tensor<2x2xf32>) -> !stablehlo.future<tensor<2x4xf32>>
  // CHECK: "stablehlo.async_done"(%[[F]]) : (!stablehlo.future<tensor<2x4xf32>>) -> tensor<2x4xf32>
  %2 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<2x4xf32>>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}

/// convolution with its padding as an operand (3x3 kernel, padding 1 on
/// each side keeps the 8x8 spatial size).
// CHECK-LABEL: func.func @dynamic_conv
func.func @dynamic_conv(%img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %pad: tensor<2x2xi64>) -> tensor<1x8x8x4xf32> {
  // CHECK: "stablehlo.dynamic_conv"(%{{.*}}, %{{.*}}, %{{.*}}) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<2x2xi64>) -> tensor<1x8x8x4xf32>
  %0 = "stablehlo.dynamic_conv"(%img, %k, %pad) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<2x2xi64>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

/// A composite and its decomposition; version and attributes are kept.
// CHECK-LABEL: func.func @composite
func.func @composite(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: stablehlo.composite "my.double" %{{.*}} {composite_attributes = {factor = 2 : i64}, decomposition = @my.double.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = stablehlo.composite "my.double" %x {composite_attributes = {factor = 2 : i64}, decomposition = @my.double.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @my.double.impl(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
