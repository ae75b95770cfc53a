func.func @huge_heads(%q: tensor<1x2147483648x8x64xbf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x2147483648x8x64xbf16>, tensor<1x2147483648x8x64xbf16>, tensor<1x2147483648x8x64xbf16> -> tensor<1x2147483648x8x64xbf16>, tensor<1x2147483648x8xf32>
  return
}
