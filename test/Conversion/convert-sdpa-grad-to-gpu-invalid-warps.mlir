// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=32 tile-kv=128" -verify-diagnostics -split-input-file

/// Above mma width 128 bwd_main has two warps per 16 keys
/// (BackwardKernelSpec::columnGroups): 128 keys would take 16 warps, whose
/// registers no SM holds, so tile-kv is at most 64 there.
func.func @two_warps_a_key_block(%q: tensor<1x1x?x160xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x160xf16> {
  // expected-error @+1 {{expected tile_kv at most 64 at head_dim 160 (bwd_main has 2 warps per 16 keys, at most 8), got 128}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x160xf16>, tensor<1x1x?x160xf16>, tensor<1x1x?x160xf16>, tensor<1x1x?x160xf16>, tensor<1x1x?x160xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x160xf16>, tensor<1x1x?x160xf16>, tensor<1x1x?x160xf16>
  return %dq : tensor<1x1x?x160xf16>
}

// -----

/// At mma width 128 one warp per 16 keys: 128 keys are 8 warps.
func.func @one_warp_a_key_block(%q: tensor<1x1x?x128xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>
  return %dq : tensor<1x1x?x128xf16>
}
