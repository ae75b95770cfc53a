// Every key of a cuDNN backend_config, at every level, is known, typed and
// in range (the schema of docs/Import.md §1), or the call is declined with
// the key's path; nothing unread passes. The module is left unchanged.
// RUN: %sdpa_opt %s -sdpa-import-stablehlo -split-input-file -verify-diagnostics

/// A misspelt key is not the window it meant (it used to import full causal).
func.func @misspelt_window(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: unknown key 'cudnn_fmha_backend_config.sliding_windw_length'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_windw_length\22: 4}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Unknown keys are declined at every level: the root,
func.func @unknown_root_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: unknown key 'operation_queue'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22operation_queue\22: \220\22, \22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// the algorithm,
func.func @unknown_algorithm_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: unknown key 'cudnn_fmha_backend_config.algorithm.algo'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22, \22algo\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// the intermediate tensor's layout,
func.func @unknown_layout_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: unknown key 'cudnn_fmha_backend_config.intermediate_tensor_shape.layout.memory_spaces'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22, \22memory_spaces\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// and the dimension numbers.
func.func @unknown_dot_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: unknown key 'cudnn_fmha_backend_config.bmm2_dot_dimension_numbers.lhs_ragged_dimensions'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22], \22lhs_ragged_dimensions\22: []}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// is_paged_attention is a bool: 1 is not false (it used to mean not paged).
func.func @paged_number(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.is_paged_attention' to be a bool, got the number 1}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22is_paged_attention\22: 1}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Nor is the string "true".
func.func @paged_string(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.is_paged_attention' to be a bool, got the string "true"}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22is_paged_attention\22: \22true\22}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A window of 2^40 keys is past cuDNN's int32 (it used to hit an assertion).
func.func @huge_window(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.sliding_window_length' to be an integer in [0, 2147483647], got 1099511627776}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_window_length\22: 1099511627776}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// So is a right bound of 2^31.
func.func @huge_right_bound(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.diagonal_band_right_bound' to be an integer in [0, 2147483647], got 2147483648}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22NO_MASK\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22diagonal_band_right_bound\22: 2147483648}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// int64 keys take integers only,
func.func @fractional_seed(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.seed' to be a 64-bit integer, got the number 1.5}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22seed\22: 1.5}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// of 64 bits at most.
func.func @wide_seed(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.seed' to be a 64-bit integer, got 99999999999999999999}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22seed\22: \2299999999999999999999\22}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Doubles are JSON numbers.
func.func @string_scale(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.fmha_scale' to be a number, got the string "0.25"}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: \220.25\22, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A scale that does not fit a double,
func.func @infinite_scale(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.fmha_scale' to be a finite number, got 1e400}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 1e400, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// or that the kernels' f32 cannot hold, is declined.
func.func @f32_scale(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.fmha_scale' to be positive and finite in f32, got 1.000000e+300}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 1e+300, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// mask_type names an enum value.
func.func @unknown_mask(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.mask_type' to be one of NO_MASK, PADDING, CAUSAL, PADDING_CAUSAL, ALIBI, got the string "SLIDING"}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22SLIDING\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// tuning_knobs is a map from integers to integers.
func.func @knob_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected the keys of 'cudnn_fmha_backend_config.algorithm.tuning_knobs' to be 64-bit integers, got 'x'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\22x\22: \221\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A layout sdpa does not model (another memory space, tiles) is declined.
func.func @memory_space(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.intermediate_tensor_shape.layout.memory_space' to be an integer in [0, 0], got 1}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \221\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Tiled layouts are not modelled either.
func.func @tiles(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.intermediate_tensor_shape.layout.tiles' to be an empty array}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [{\22dimensions\22: [\228\22]}], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// minor_to_major is a permutation.
func.func @minor_to_major(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.intermediate_tensor_shape.layout.minor_to_major' to be a permutation of the 4 dimensions}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \223\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The intermediate tensor is static,
func.func @dynamic(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported dynamic dimension in intermediate_tensor_shape}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, true, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// and S = Q K^T of the operands, [B, Hq, Sq, Skv],
func.func @intermediate_dims(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{expected intermediate_tensor_shape to be BF16 [1, 2, 8, 8] (S = Q K^T of the operands), got BF16 [1, 2, 8, 9]}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22BF16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \229\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// of the operands' element type.
func.func @intermediate_type(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{expected intermediate_tensor_shape to be BF16 [1, 2, 8, 8] (S = Q K^T of the operands), got F16 [1, 2, 8, 8]}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22algorithm\22: {\22algo_id\22: \220\22, \22math_type\22: \22TENSOR_OP_MATH\22, \22tuning_knobs\22: {\2217\22: \221\22, \2224\22: \220\22}, \22is_cudnn_frontend\22: true, \22workspace_size\22: \220\22}, \22fmha_scale\22: 0.25, \22intermediate_tensor_shape\22: {\22element_type\22: \22F16\22, \22dimensions\22: [\221\22, \222\22, \228\22, \228\22], \22tuple_shapes\22: [], \22layout\22: {\22dim_level_types\22: [], \22dim_unique\22: [], \22dim_ordered\22: [], \22minor_to_major\22: [\223\22, \222\22, \221\22, \220\22], \22tiles\22: [], \22element_size_in_bits\22: \220\22, \22memory_space\22: \220\22, \22index_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22pointer_primitive_type\22: \22PRIMITIVE_TYPE_INVALID\22, \22dynamic_shape_metadata_prefix_bytes\22: \220\22}, \22is_dynamic_dimension\22: [false, false, false, false]}, \22is_flash_attention\22: true, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22dropout_rate\22: 0.0, \22seed\22: 42, \22sliding_window_length\22: 0, \22max_seg_per_batch\22: 1, \22is_paged_attention\22: false}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A forward call has no gradient products,
func.func @grad_key_in_forward(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: unexpected key 'cudnn_fmha_backend_config.bmm1_grad_gemm1_dot_dimension_numbers' in a forward call}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm1_grad_gemm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\222\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// a backward call needs all four.
func.func @missing_grad_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>, %lse: tensor<1x2x8xf32>, %do: tensor<1x8x2x16xbf16>, %o: tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>) {
  // expected-error @+1 {{malformed backend_config: missing key 'cudnn_fmha_backend_config.bmm2_grad_gemm2_dot_dimension_numbers'}}
  %r:4 = stablehlo.custom_call @__cudnn$fmhaSoftmaxBackward(%q, %k, %v, %lse, %do, %o) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_grad_gemm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\222\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm1_grad_gemm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_grad_gemm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\222\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x2x8xf32>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0, %r#1, %r#2 : tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>, tensor<1x2x8x16xbf16>
}

// -----

/// Each product names all four dimension lists.
func.func @missing_dot_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: missing key 'cudnn_fmha_backend_config.bmm1_dot_dimension_numbers.rhs_batch_dimensions'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The document is an object.
func.func @not_an_object(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'backend_config' to be an object, got an array}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "[1]"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A dropout rate is a number, not a string.
func.func @dropout_string(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.dropout_rate' to be a number, got the string "0"}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: \220\22, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}
