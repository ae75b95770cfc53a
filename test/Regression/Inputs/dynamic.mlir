// Inputs of test/Regression/limits.mlir: an op with dynamic lengths.
func.func @dynamic(%q: tensor<1x1x?x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 5, right = 3, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
  return
}
