// Forward ops for forward-ptxas-head-dims.mlir at tile-kv 16 (d >= 192).

func.func @d192_bf16(%q: tensor<1x2x?x192xbf16>) -> tensor<1x2x?x192xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x192xbf16>, tensor<1x2x?x192xbf16>, tensor<1x2x?x192xbf16> -> tensor<1x2x?x192xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x192xbf16>
}

func.func @d256_f16(%q: tensor<1x2x?x256xf16>) -> tensor<1x2x?x256xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x256xf16>, tensor<1x2x?x256xf16>, tensor<1x2x?x256xf16> -> tensor<1x2x?x256xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x256xf16>
}
