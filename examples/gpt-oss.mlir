// The gpt-oss attention layer: b = 2, h = 16, d = 64, bf16, causal sliding
// window of 128 keys (the diagonal included: L = 127, R = 0), S = 8192, and
// the same layer with a dynamic sequence length (one schedule, one kernel,
// every S). Forward and backward (deterministic dQ relay).

func.func @gpt_oss_attention(%q: tensor<2x16x8192x64xbf16>, %k: tensor<2x16x8192x64xbf16>,
                             %v: tensor<2x16x8192x64xbf16>, %do: tensor<2x16x8192x64xbf16>)
    -> (tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
        tensor<2x16x8192x64xbf16>) {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>
      -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %v, %o, %do, %lse
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
        tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
      -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>
  return %o, %dq, %dk, %dv : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>,
                             tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>
}

func.func @gpt_oss_attention_dynamic(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>,
                                     %v: tensor<2x16x?x64xbf16>)
    -> (tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>) {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o, %lse : tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
}
