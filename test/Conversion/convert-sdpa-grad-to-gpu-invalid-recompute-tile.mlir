// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=recompute tile-q=32 tile-kv=64" -verify-diagnostics

/// Above head_dim 128 bwd_dq recomputes dQ only with key tiles of at most
/// 32: its dQ takes head_dim / 2 registers a thread, and at tile_kv 64
/// ptxas 13.0 spilled 4-856 bytes (d 136..256). The diagnostic names the
/// tile and the reason.
func.func @d192(%q: tensor<1x2x?x192xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x192xf16> {
  // expected-error @+1 {{expected tile_kv at most 32 for dq-mode=recompute above head_dim 128, got 64 at head_dim 192 (bwd_dq's dQ takes head_dim / 2 registers a thread; larger key tiles spill)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
  return %dq : tensor<1x2x?x192xf16>
}
