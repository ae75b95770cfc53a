// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=16 tile-kv=128" -verify-diagnostics

/// The Q and dO tile copies give every thread of the 8 warps the same number
/// of 16-byte chunks: 16 rows x 64 / 8 = 128 chunks for 256 threads do not.
func.func @copy(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  // expected-error @+1 {{expected schedule tile_q * head_dim / 8 to be a multiple of the block's 256 threads}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  return %dq : tensor<1x1x?x64xf16>
}
