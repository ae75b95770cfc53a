// Inputs of test/Regression/limits.mlir: a small static op.
func.func @small(%q: tensor<1x1x8x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 5, right = 3, align = top_left>}
      : tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16> -> tensor<1x1x8x64xf16>, tensor<1x1x8xf32>
  return
}
