// Variants of cuDNN attention we do not implement, and malformed calls, are
// errors naming the problem; the module is left unchanged.
// RUN: %sdpa_opt %s -sdpa-import-stablehlo -split-input-file -verify-diagnostics -allow-unregistered-dialect

/// Dropout is not implemented.
func.func @dropout(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported dropout (dropout_rate = 1.000000e-01)}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.1, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Neither is JAX's dropout target.
func.func @dropout_target(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported cuDNN attention with dropout @__cudnn$fmhaSoftmaxDropout}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmaxDropout(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.1, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A bias is not a band.
func.func @bias(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>, %b: tensor<1x2x8x8xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported cuDNN attention with a bias @__cudnn$fmhaScaleBiasSoftmax}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaScaleBiasSoftmax(%q, %k, %v, %b) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x2x8x8xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// fp8 attention is not implemented.
func.func @fp8(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported fp8 cuDNN attention @__cudnn$fmhaSoftmaxF8}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmaxF8(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A cuDNN attention target we do not know.
func.func @unknown_cudnn(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported cuDNN custom call target @__cudnn$fmhaSomethingNew}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSomethingNew(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Paged attention reads K/V through page tables.
func.func @paged(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported paged attention}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22is_paged_attention\22: true}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Several segments per batch entry.
func.func @segments(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported packed segments (max_seg_per_batch = 2)}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22max_seg_per_batch\22: 2}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// ALiBi is a bias, not a band.
func.func @alibi(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported mask_type ALIBI}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22ALIBI\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Malformed JSON.
func.func @not_json(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 2: expected a string as object key}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{not json"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// JSON without the fMHA config.
func.func @no_config(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: missing key 'cudnn_fmha_backend_config'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The scale is required.
func.func @no_scale(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: missing key 'cudnn_fmha_backend_config.fmha_scale'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A negative window.
func.func @bad_window(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'cudnn_fmha_backend_config.sliding_window_length' to be an integer in [0, 2147483647], got -3}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: -3, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// api_version 4 dictionaries are not what JAX's cuDNN path prints.
func.func @dict_config(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{expected backend_config to be a JSON string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 4 : i32, backend_config = {mask = 1 : i32}} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Dot dimension numbers of neither layout.
func.func @bad_dims(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported bmm1_dot_dimension_numbers (not a BTNH or BNTH attention layout)}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\222\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Padding masks carry the lengths as operands.
func.func @padding_operands(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{expected 5 operands for mask_type PADDING, got 3}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22PADDING\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The workspace has no meaning outside the call.
func.func @workspace(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{unsupported use of the workspace result}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  "test.use"(%r#1) : (tensor<0xui8>) -> ()
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The output is [B, H, S, D] whatever the layout.
func.func @result_type(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x8x2x16xbf16> {
  // expected-error @+1 {{expected output result of type 'tensor<1x2x8x16xbf16>', got 'tensor<1x8x2x16xbf16>'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22sliding_window_length\22: 4, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x8x2x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x8x2x16xbf16>
}

// -----

/// Any other custom call is not attention and stays, with a remark.
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{custom call @foo is not attention; left unchanged}}
  %0 = stablehlo.custom_call @foo(%x) {backend_config = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
