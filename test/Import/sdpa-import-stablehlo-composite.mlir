// The stablehlo.composite "sdpa.attention" convention (docs/Import.md).
// RUN: %sdpa_opt %s -sdpa-import-stablehlo -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[Q:.*]]: tensor<2x64x8x32xf16>, %[[K:.*]]: tensor<2x64x2x32xf16>, %[[V:.*]]: tensor<2x64x2x32xf16>)
// CHECK: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 15, right = 0, align = bottom_right>, scale = 5.000000e-01 : f64} : tensor<2x64x8x32xf16>, tensor<2x64x2x32xf16>, tensor<2x64x2x32xf16> -> tensor<2x64x8x32xf16>, tensor<2x8x64xf32>
// CHECK: return %[[O]], %[[LSE]]
func.func @forward(%q: tensor<2x64x8x32xf16>, %k: tensor<2x64x2x32xf16>, %v: tensor<2x64x2x32xf16>) -> (tensor<2x64x8x32xf16>, tensor<2x8x64xf32>) {
  %0:2 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = 15 : i64, right = 0 : i64, align = "bottom_right", scale = 5.000000e-01 : f64, layout = "bshd"}, decomposition = @attention_impl, version = 1 : i32} : (tensor<2x64x8x32xf16>, tensor<2x64x2x32xf16>, tensor<2x64x2x32xf16>) -> (tensor<2x64x8x32xf16>, tensor<2x8x64xf32>)
  return %0#0, %0#1 : tensor<2x64x8x32xf16>, tensor<2x8x64xf32>
}
func.func private @attention_impl(%q: tensor<2x64x8x32xf16>, %k: tensor<2x64x2x32xf16>, %v: tensor<2x64x2x32xf16>) -> (tensor<2x64x8x32xf16>, tensor<2x8x64xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<2x8x64xf32>
  return %q, %c : tensor<2x64x8x32xf16>, tensor<2x8x64xf32>
}

// -----

/// Defaults: absent edges are unbounded, alignment top-left, layout bhsd,
/// scale the op's default (no attribute); the output alone is fine.
// CHECK-LABEL: func.func @defaults
// CHECK: %[[O:.*]], %{{.*}} = sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} seqlens(%{{.*}}, %{{.*}} : tensor<2xi32>, tensor<2xi32>) {mask = #sdpa.band<left = inf, right = inf, align = top_left>} : tensor<2x4x64x32xbf16>
// CHECK: return %[[O]]
func.func @defaults(%q: tensor<2x4x64x32xbf16>, %k: tensor<2x4x64x32xbf16>, %v: tensor<2x4x64x32xbf16>, %lq: tensor<2xi32>, %lk: tensor<2xi32>) -> tensor<2x4x64x32xbf16> {
  %0 = stablehlo.composite "sdpa.attention" %q, %k, %v, %lq, %lk {decomposition = @impl} : (tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x4x64x32xbf16>
  return %0 : tensor<2x4x64x32xbf16>
}
func.func private @impl(%q: tensor<2x4x64x32xbf16>, %k: tensor<2x4x64x32xbf16>, %v: tensor<2x4x64x32xbf16>, %lq: tensor<2xi32>, %lk: tensor<2xi32>) -> tensor<2x4x64x32xbf16> {
  return %q : tensor<2x4x64x32xbf16>
}

// -----

// CHECK-LABEL: func.func @backward
// CHECK-SAME: (%[[Q:[^:]*]]: {{.*}}, %[[K:[^:]*]]: {{.*}}, %[[V:[^:]*]]: {{.*}}, %[[O:[^:]*]]: {{.*}}, %[[DO:[^:]*]]: {{.*}}, %[[LSE:[^:]*]]: {{.*}})
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %[[DO]], %[[LSE]] {deterministic, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// CHECK: return %[[DQ]], %[[DK]], %[[DV]]
func.func @backward(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>, %o: tensor<1x2x16x8xbf16>, %do: tensor<1x2x16x8xbf16>, %lse: tensor<1x2x16xf32>) -> (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) {
  %0:3 = stablehlo.composite "sdpa.attention_grad" %q, %k, %v, %o, %do, %lse {composite_attributes = {left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f64, deterministic = true}, decomposition = @grad_impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16xf32>) -> (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>)
  return %0#0, %0#1, %0#2 : tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>
}
func.func private @grad_impl(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>, %o: tensor<1x2x16x8xbf16>, %do: tensor<1x2x16x8xbf16>, %lse: tensor<1x2x16xf32>) -> (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) {
  return %q, %k, %v : tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>
}

// -----

/// Declined composites stay, with their decomposition.
// CHECK-LABEL: func.func @declined
// CHECK-COUNT-6: stablehlo.composite "sdpa.attention"
// CHECK: stablehlo.composite "other.op"
// CHECK-NOT: = sdpa.attention
func.func @declined(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>, %k3: tensor<1x3x16x8xbf16>) {
  // expected-remark @+1 {{composite "sdpa.attention" kept: unknown attribute 'window'}}
  %0 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {window = 4 : i64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'left' must be an integer in [0, 2147483647] (absent = unbounded), got -1}}
  %1 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {left = -1 : i64}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'align' must be "top_left" or "bottom_right"}}
  %2 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {align = "center"}, decomposition = @impl} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  // expected-remark @+1 {{composite "sdpa.attention" kept: query heads (2) must be a multiple of key/value heads (3)}}
  %3 = stablehlo.composite "sdpa.attention" %q, %k3, %k3 {decomposition = @impl3} : (tensor<1x2x16x8xbf16>, tensor<1x3x16x8xbf16>, tensor<1x3x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  // expected-remark @+1 {{composite "sdpa.attention" kept: unsupported version 2}}
  %4 = stablehlo.composite "sdpa.attention" %q, %k, %v {decomposition = @impl, version = 2 : i32} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  /// The sdpa verifier's own message: a wrong lse type.
  // expected-remark @+1 {{composite "sdpa.attention" kept: result types do not match the sdpa op's}}
  %5:2 = stablehlo.composite "sdpa.attention" %q, %k, %v {decomposition = @impl2} : (tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>, tensor<1x2x16x8xbf16>) -> (tensor<1x2x16x8xbf16>, tensor<1x16x2xf32>)
  /// Not ours: no remark.
  %6 = stablehlo.composite "other.op" %q {decomposition = @other} : (tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16>
  return
}
func.func private @impl(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  return %q : tensor<1x2x16x8xbf16>
}
func.func private @impl2(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x2x16x8xbf16>, %v: tensor<1x2x16x8xbf16>) -> (tensor<1x2x16x8xbf16>, tensor<1x16x2xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<1x16x2xf32>
  return %q, %c : tensor<1x2x16x8xbf16>, tensor<1x16x2xf32>
}
func.func private @impl3(%q: tensor<1x2x16x8xbf16>, %k: tensor<1x3x16x8xbf16>, %v: tensor<1x3x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  return %q : tensor<1x2x16x8xbf16>
}
func.func private @other(%q: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  return %q : tensor<1x2x16x8xbf16>
}

// -----

/// A composite whose operands the sdpa verifier rejects: the remark carries
/// its message (here: the lengths must have one entry per batch entry).
// CHECK-LABEL: func.func @verifier
// CHECK: stablehlo.composite "sdpa.attention"
// CHECK-NOT: = sdpa.attention
func.func @verifier(%q: tensor<2x2x16x8xbf16>, %k: tensor<2x2x16x8xbf16>, %v: tensor<2x2x16x8xbf16>, %l: tensor<3xi32>) -> tensor<2x2x16x8xbf16> {
  // expected-remark @+1 {{composite "sdpa.attention" kept: 'sdpa.attention' op expected per-batch lengths with one entry per batch entry (2), got 3}}
  %0 = stablehlo.composite "sdpa.attention" %q, %k, %v, %l, %l {decomposition = @impl} : (tensor<2x2x16x8xbf16>, tensor<2x2x16x8xbf16>, tensor<2x2x16x8xbf16>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x2x16x8xbf16>
  return %0 : tensor<2x2x16x8xbf16>
}
func.func private @impl(%q: tensor<2x2x16x8xbf16>, %k: tensor<2x2x16x8xbf16>, %v: tensor<2x2x16x8xbf16>, %l: tensor<3xi32>, %l2: tensor<3xi32>) -> tensor<2x2x16x8xbf16> {
  return %q : tensor<2x2x16x8xbf16>
}
