// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=recompute" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=FORCED

/// The default rule keeps accumulate for wide bands (here 4096 keys at
/// d 128); dq-mode=recompute forces bwd_dq there (its tile_kv 128 is walked
/// in two chunks of 64 keys).
// CHECK-LABEL: func.func @wide
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
// FORCED-LABEL: func.func @wide
// FORCED: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
func.func @wide(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}

// -----

/// bwd_dq holds a warp's 16 rows of dQ in registers: recompute stops at
/// head_dim 128, with the reason; the default rule never picks it there.
// CHECK-LABEL: func.func @d192
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
func.func @d192(%q: tensor<1x2x?x192xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x192xf16> {
  // expected-error @+1 {{expected head_dim at most 128 for dq-mode=recompute, got 192 (bwd_dq holds a warp's 16 rows of dQ in registers; use dq-mode=accumulate)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
  return %dq : tensor<1x2x?x192xf16>
}
