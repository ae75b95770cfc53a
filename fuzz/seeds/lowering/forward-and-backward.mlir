// Lowering seed: a forward and its backward in one module (the fuzzer lowers
// each direction on its own clone).
func.func @train(%q: tensor<1x2x512x64xbf16>, %do: tensor<1x2x512x64xbf16>) -> tensor<1x2x512x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16> -> tensor<1x2x512x64xbf16>, tensor<1x2x512xf32>
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %o, %do, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512xf32> -> tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>, tensor<1x2x512x64xbf16>
  return %dq : tensor<1x2x512x64xbf16>
}
