// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=16 tile-kv=24" -verify-diagnostics

/// One warp per 16 keys: tile-kv must be a multiple of 16, at most 128.
func.func @tile_kv(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  // expected-error @+1 {{expected schedule tile_kv to be 16, 32, 48, ... or 128 (one warp per 16 keys)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  return %dq : tensor<1x1x?x64xf16>
}
