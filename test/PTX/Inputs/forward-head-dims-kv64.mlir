// Forward ops for forward-ptxas-head-dims.mlir at tile-kv 64 (d <= 96).

func.func @d32_f16(%q: tensor<1x2x?x32xf16>) -> tensor<1x2x?x32xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16> -> tensor<1x2x?x32xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x32xf16>
}

func.func @d64_bf16(%q: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

func.func @d80_f16(%q: tensor<1x2x?x80xf16>) -> tensor<1x2x?x80xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16> -> tensor<1x2x?x80xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x80xf16>
}

func.func @d96_bf16(%q: tensor<1x2x?x96xbf16>) -> tensor<1x2x?x96xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16> -> tensor<1x2x?x96xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x96xbf16>
}
