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

/// The schema's backward table: multiples of 16 up to 256 but 224 and 240,
/// where the main kernel spills at every column-pass width.
func.func @head_dim(%q: tensor<1x1x?x40xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x40xf16> {
  // expected-error @+1 {{expected a static head_dim, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208 or 256, got 40 (the mma.sync reduction step is 16: a multiple of 8 would need its last 8 columns zero-padded in shared memory, which the kernels do not implement)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x40xf16>, tensor<1x1x?x40xf16>, tensor<1x1x?x40xf16>, tensor<1x1x?x40xf16>, tensor<1x1x?x40xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x40xf16>, tensor<1x1x?x40xf16>, tensor<1x1x?x40xf16>
  return %dq : tensor<1x1x?x40xf16>
}

// -----

func.func @head_dim_spills(%q: tensor<1x1x?x224xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x224xf16> {
  // expected-error @+1 {{expected a static head_dim, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208 or 256, got 224 (its kernel spills registers at every tile shape)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x224xf16>, tensor<1x1x?x224xf16>, tensor<1x1x?x224xf16>, tensor<1x1x?x224xf16>, tensor<1x1x?x224xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x224xf16>, tensor<1x1x?x224xf16>, tensor<1x1x?x224xf16>
  return %dq : tensor<1x1x?x224xf16>
}
