// Composite attributes are range-checked (type, range, uniqueness): a band
// width is an integer of any width and signedness in [0, 2^31 - 1], a scale
// a positive float that f32 holds; anything else keeps the composite, with
// a remark, and never truncates.
// RUN: %sdpa_opt %s -sdpa-import-stablehlo -split-input-file -verify-diagnostics | FileCheck %s

/// Any integer type holds a width, and the widest one accepted imports.
// CHECK-LABEL: func.func @accepted
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = 2147483647, right = 5, align = top_left>
// CHECK: sdpa.attention {{.*}}mask = #sdpa.band<left = 127, right = 0, align = bottom_right>
// CHECK-NOT: stablehlo.composite
func.func @accepted(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) -> (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) {
  %0 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 2147483647 : i64, right = 5 : i128}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  %1 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 127 : ui8, right = 0 : si16, align = "bottom_right"}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  return %0, %1 : tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>
}
func.func private @impl(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  return %q : tensor<1x2x16x8xbf16>
}

// -----

/// Declined: the composites stay, with their decomposition.
// CHECK-LABEL: func.func @declined
// CHECK-COUNT-12: stablehlo.composite "sdpa.attention"
// CHECK-NOT: = sdpa.attention
func.func @declined(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) {
  /// Wider than 64 bits: 2^64 + 5 used to be read as 5.
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'left' must be an integer in [0, 2147483647] (absent = unbounded), got 18446744073709551621}}
  %0 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 18446744073709551621 : i128}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// Past the band attribute's range (it used to hit an assertion).
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'left' must be an integer in [0, 2147483647] (absent = unbounded), got 2147483648}}
  %1 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 2147483648 : i64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// Unsigned types are read unsigned.
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'right' must be an integer in [0, 2147483647] (absent = unbounded), got 4294967295}}
  %2 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {right = 4294967295 : ui32}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// Signed types signed.
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'left' must be an integer in [0, 2147483647] (absent = unbounded), got -1}}
  %3 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = -1 : si8}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// A bool is not a width (true used to read as -1).
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'left' must be an integer}}
  %4 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = true}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// Nor is an index,
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'right' must be an integer}}
  %5 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {right = 3 : index}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// or a float.
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'left' must be an integer}}
  %6 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 1.0 : f32}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// A scale the kernels' f32 cannot hold:
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'scale' must be a positive float that f32 holds, got 1.000000e+300}}
  %7 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {scale = 1.0e300 : f64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// one it rounds to zero,
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'scale' must be a positive float that f32 holds, got 1.000000e-50}}
  %8 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {scale = 1.0e-50 : f64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// a negative one,
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'scale' must be a positive float that f32 holds, got -5.000000e-01}}
  %9 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {scale = -5.000000e-01 : f64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// and an integer are declined.
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'scale' must be a positive float that f32 holds}}
  %10 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {scale = 2 : i64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// deterministic belongs to the backward.
  // expected-remark @+1 {{composite "sdpa.attention" kept: unknown attribute 'deterministic'}}
  %11 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {deterministic = true}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  return
}
func.func private @impl(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  return %q : tensor<1x2x16x8xbf16>
}

// -----

/// deterministic is a bool.
func.func @grad(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>, %o: tensor<1x2x16x8xbf16>, %do: tensor<1x2x16x8xbf16>, %lse: tensor<1x2x16xf32>) {
  // expected-remark @+1 {{composite "sdpa.attention_grad" kept: 'deterministic' must be a bool}}
  %0:3 = stablehlo.composite "sdpa.attention_grad" %q, %k, %v, %o, %do, %lse {composite_attributes = {deterministic = 1 : i64}, decomposition = @grad_impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16xf32>) -> (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>)
  return
}
func.func private @grad_impl(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>, %o: tensor<1x2x16x8xbf16>, %do: tensor<1x2x16x8xbf16>, %lse: tensor<1x2x16xf32>) -> (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) {
  return %q, %k, %v : tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>
}

// -----

/// A key given twice is a parse error of the attribute dictionary itself.
func.func @duplicate(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  // expected-error @+1 {{duplicate key 'left' in dictionary attribute}}
  %0 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 1 : i64, left = 2 : i64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  return %0 : tensor<1x2x16x8xbf16>
}
