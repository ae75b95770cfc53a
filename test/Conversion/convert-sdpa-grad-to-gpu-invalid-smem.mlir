// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=128 tile-kv=128 dq-mode=accumulate" -verify-diagnostics

/// K, V, Q, dO tiles of 128 padded rows at head_dim 128, the dS tile and the
/// row statistics need 175104 bytes, more than an SM80 block may use.
func.func @smem(%q: tensor<1x1x?x128xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x128xf16> {
  // expected-error @+1 {{expected the backward kernel's shared memory (175104 bytes) to fit in 166912 bytes}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>
  return %dq : tensor<1x1x?x128xf16>
}
