// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file -verify-diagnostics

/// Per-batch valid lengths of a dense op are not lowered (packed sequences
/// with cumulative offsets, layout thd, are).
func.func @padded(%q: tensor<2x1x16x64xf16>, %lse: tensor<2x1x16xf32>, %len: tensor<2xi32>) -> tensor<2x1x16x64xf16> {
  // expected-error @+1 {{expected no seqlens on a dense layout: the backward lowering does not support per-batch valid lengths (use layout thd with cumulative offsets)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse seqlens(%len, %len : tensor<2xi32>, tensor<2xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<2x1x16x64xf16>, tensor<2x1x16x64xf16>, tensor<2x1x16x64xf16>, tensor<2x1x16x64xf16>, tensor<2x1x16x64xf16>, tensor<2x1x16xf32>
      -> tensor<2x1x16x64xf16>, tensor<2x1x16x64xf16>, tensor<2x1x16x64xf16>
  return %dq : tensor<2x1x16x64xf16>
}

// -----

/// The schema's backward table, the forward's: multiples of 8 up to 256.
func.func @head_dim(%q: tensor<1x1x?x36xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x36xf16> {
  // expected-error @+1 {{expected a static head_dim, a multiple of 8 from 8 to 256, got 36 (rows are copied in 16-byte chunks of 8 elements)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x36xf16>, tensor<1x1x?x36xf16>, tensor<1x1x?x36xf16>, tensor<1x1x?x36xf16>, tensor<1x1x?x36xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x36xf16>, tensor<1x1x?x36xf16>, tensor<1x1x?x36xf16>
  return %dq : tensor<1x1x?x36xf16>
}
