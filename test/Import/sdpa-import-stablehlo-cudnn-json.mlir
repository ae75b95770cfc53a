// The backend_config JSON is parsed strictly (RFC 8259): malformed text is
// declined with its line and column in the JSON, never a crash. Nesting is
// limited (a 50,000-deep array in an ignored key used to overflow the stack)
// and duplicate keys are errors (the last one used to win).
// RUN: %sdpa_opt %s -sdpa-import-stablehlo -split-input-file -verify-diagnostics
// RUN: %python -c "import sys; sys.stdout.write(sys.stdin.read().replace('[[0]]', '[' * 50000 + ']' * 50000))" < %s | not %sdpa_opt -sdpa-import-stablehlo -split-input-file 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: line 1, column 87: arrays and objects nested deeper than 64 levels

/// No trailing commas.
func.func @trailing_comma(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 51: expected a string as object key}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25,}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// No leading zeros.
func.func @leading_zero(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 32: leading zeros are not allowed in a number}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: 01}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A minus sign needs digits.
func.func @lone_minus(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 32: expected a digit}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: -}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// So does a decimal point,
func.func @bare_point(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 33: expected a digit after the decimal point}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: 1.}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// and an exponent.
func.func @bare_exponent(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 34: expected a digit in the exponent}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: 1e+}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Strings end.
func.func @unterminated(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 28: unterminated string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Only JSON's escapes.
func.func @bad_escape(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 4: invalid escape in a string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\5Cq\22: 1}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A \\u escape has four hex digits.
func.func @short_unicode(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 6: expected four hex digits after \u}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\5Cu12\22: 1}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A high surrogate needs its low half.
func.func @lone_surrogate(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 4: unpaired high surrogate in a string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\5Cud800\22: 1}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A low surrogate alone is not a character.
func.func @lone_low_surrogate(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 4: unpaired low surrogate in a string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\5Cudc00\22: 1}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Control characters are escaped in JSON strings.
func.func @control_character(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 4: unescaped control character in a string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\09b\22: 1}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Strings are UTF-8.
func.func @invalid_utf8(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 4: invalid UTF-8 in a string}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\FFb\22: 1}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// NaN is not JSON.
func.func @nan(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 31: expected a JSON value}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: NaN}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// One value, nothing after it.
func.func @trailing_text(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 35: unexpected text after the JSON value}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {}} {}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Nor nothing at all.
func.func @empty(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 1: expected a JSON value, got the end of the text}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = ""} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Positions count lines.
func.func @second_line(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 2, column 31: expected ':' after an object key}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\0A  \22cudnn_fmha_backend_config\22 {}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Arrays separate with commas.
func.func @array_separator(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 10: expected ',' or ']' in an array}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\22: [1 2]}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// So do objects.
func.func @object_separator(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 9: expected ',' or '}' in an object}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22a\22: 1 \22b\22: 2}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// A key given twice is an error, not the last value.
func.func @duplicate_key(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 480: duplicate key 'sliding_window_length'}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22cudnn_fmha_backend_config\22: {\22fmha_scale\22: 0.25, \22dropout_rate\22: 0.0, \22mask_type\22: \22CAUSAL\22, \22bmm1_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\223\22], \22lhs_batch_dimensions\22: [\220\22, \222\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22bmm2_dot_dimension_numbers\22: {\22lhs_contracting_dimensions\22: [\223\22], \22rhs_contracting_dimensions\22: [\221\22], \22lhs_batch_dimensions\22: [\220\22, \221\22], \22rhs_batch_dimensions\22: [\220\22, \222\22]}, \22sliding_window_length\22: 4, \22sliding_window_length\22: 0}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// Nesting up to the limit parses (and the schema then declines the array).
func.func @depth_limit(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'operation_queue_id' to be an integer in [0, 9223372036854775807], got an array}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22operation_queue_id\22: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// One level more does not.
func.func @past_depth_limit(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: line 1, column 87: arrays and objects nested deeper than 64 levels}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22operation_queue_id\22: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}

// -----

/// The second RUN line makes this array 50,000 deep.
func.func @deep_template(%q: tensor<1x8x2x16xbf16>, %k: tensor<1x8x2x16xbf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xbf16> {
  // expected-error @+1 {{malformed backend_config: expected 'operation_queue_id' to be an integer in [0, 9223372036854775807], got an array}}
  %r:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{\22operation_queue_id\22: [[0]], \22cudnn_fmha_backend_config\22: {}}"} : (tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>, tensor<1x8x2x16xbf16>) -> (tensor<1x2x8x16xbf16>, tensor<0xui8>)
  return %r#0 : tensor<1x2x8x16xbf16>
}
