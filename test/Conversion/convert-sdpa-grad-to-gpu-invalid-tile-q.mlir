// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=128 tile-kv=64" -verify-diagnostics

/// Every warp owns at most one 16-row tile of dQ: tile-q <= tile-kv.
func.func @tile_q(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  // expected-error @+1 {{expected schedule tile_q to be a multiple of 16 and at most tile_kv}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  return %dq : tensor<1x1x?x64xf16>
}
