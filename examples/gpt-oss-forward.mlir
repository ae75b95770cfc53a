// The gpt-oss forward as one kernel for every sequence length: b = 2,
// h = 16, d = 64, bf16, causal sliding window of 128 keys (L = 127, R = 0).
// sdpa-opt --sdpa-forward-pipeline lowers it to sm_80 PTX and a manifest.

func.func @gpt_oss_forward(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>,
                           %v: tensor<2x16x?x64xbf16>)
    -> (tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>) {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o, %lse : tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
}
