// Forward ops for forward-ptxas-head-dims.mlir at tile-kv 32 (112 <= d <= 176).

func.func @d128_bf16(%q: tensor<1x2x?x128xbf16>) -> tensor<1x2x?x128xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16> -> tensor<1x2x?x128xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x128xbf16>
}

func.func @d160_f16(%q: tensor<1x2x?x160xf16>) -> tensor<1x2x?x160xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x160xf16>, tensor<1x2x?x160xf16>, tensor<1x2x?x160xf16> -> tensor<1x2x?x160xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x160xf16>
}
