// The band keys of a cuDNN backend_config are honoured exactly
// (docs/Semantics.md §1.1): diagonal_band_left_bound = Lc is exclusive (L = Lc - 1, the same
// count as its alias sliding_window_length), diagonal_band_right_bound = Rc
// is inclusive (R = Rc), diagonal_alignment picks the diagonal; mask_type
// CAUSAL is right bound 0. Keys that disagree decline.
// RUN: %sdpa_opt %s -sdpa-import-stablehlo -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @bottom_right
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = 3, right = 0, align = bottom_right>, scale = 2.500000e-01 : f64
/// Bottom-right causal window of 4 keys over 8 queries and 16 keys.
func.func @bottom_right(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x16x2x16xbf16>, %v: tensor<1x16x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_window_length\22: 4, \22diagonal_alignment\22: \22BOTTOM_RIGHT\22}}"} : (tensor<1x8x2x16xbf16>, tensor<1x16x2x16xbf16>, tensor<1x16x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @right_bound
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = inf, right = 5, align = top_left>
/// Five future keys, no left edge.
func.func @right_bound(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22NO_MASK\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22diagonal_band_right_bound\22: 5}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @both_bounds
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = 3, right = 2, align = top_left>
/// Left bound 4 (exclusive) keeps 3 past keys; right bound 2 (inclusive).
func.func @both_bounds(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22NO_MASK\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22diagonal_band_left_bound\22: 4, \22diagonal_band_right_bound\22: 2}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @alias_agrees
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = 3, right = 0, align = top_left>
/// The alias may be given too when it agrees; integers may be strings (protobuf's int64 form).
func.func @alias_agrees(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_window_length\22: \224\22, \22diagonal_band_left_bound\22: 4, \22diagonal_band_right_bound\22: 0, \22diagonal_alignment\22: \22TOP_LEFT\22}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

// CHECK-LABEL: func.func @backward_bottom_right
// CHECK: sdpa.attention_grad {{.*}}mask = #sdpa.band<left = 3, right = 0, align = bottom_right>
/// The backward reads the same keys.
func.func @backward_bottom_right(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x16x2x16xbf16>, %v: tensor<1x16x2x16xbf16>, %lse: tensor<1x2x8xf32>, %do: tensor<1x8x2x16xbf16>, %o: tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<1x2x16x16xbf16>, tensor<1x2x16x16xbf16>) {
  %r:4 = stablehlo.custom_call @__cudnn$fmhaSoftmaxBackward(%q, %k, %v, %lse, %do, %o) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_grad_gemm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\222\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm1_grad_gemm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_grad_gemm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\222\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_grad_gemm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_window_length\22: 4, \22diagonal_alignment\22: \22BOTTOM_RIGHT\22}}"} : (tensor<1x8x2x16xbf16>, tensor<1x16x2x16xbf16>, tensor<1x16x2x16xbf16>, tensor<1x2x8xf32>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<1x2x16x16xbf16>, tensor<1x2x16x16xbf16>, tensor<0xui8>)
  return %r#0, %r#1, %r#2 : tensor<1x2x8x16xbf16>, tensor<1x2x16x16xbf16>, tensor<1x2x16x16xbf16>
}

// -----

// CHECK-LABEL: func.func @jax_full
// CHECK-NOT: stablehlo.custom_call
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = 3, right = 0, align = top_left>
/// Every key JAX prints, with intermediate_tensor_shape [B, Hq, Sq, Skv] of the operands.
func.func @jax_full(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x16x2x16xbf16>, %v: tensor<1x16x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22operation_queue_id\22: \220\22, \22wait_on_operation_queues\22: [], \22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \2216\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 4, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x16x2x16xbf16>, tensor<1x16x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The alias disagrees: declined.
func.func @conflicting_left(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: conflicting sliding_window_length (4) and diagonal_band_left_bound (5)}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_window_length\22: 4, \22diagonal_band_left_bound\22: 5}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Causal with five future keys: declined.
func.func @conflicting_right(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: conflicting mask_type CAUSAL and diagonal_band_right_bound (5)}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22diagonal_band_right_bound\22: 5}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A left bound of 0 would exclude the diagonal (L = -1): declined.
func.func @left_bound_zero(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.diagonal_band_left_bound' to be an integer in [1, 2147483647], got 0}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22NO_MASK\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22diagonal_band_left_bound\22: 0, \22diagonal_band_right_bound\22: 3}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Only the two alignments cuDNN has.
func.func @alignment_name(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.diagonal_alignment' to be one of TOP_LEFT, BOTTOM_RIGHT, got the string "BOTTOM_LEFT"}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22diagonal_alignment\22: \22BOTTOM_LEFT\22}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}
