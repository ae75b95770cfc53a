// Lowering seed: a head dim that is not a power of two, no mask, an explicit
// scale, static lengths that are not multiples of the tiles.
func.func @f(%q: tensor<1x3x100x96xf16>, %k: tensor<1x3x77x96xf16>, %v: tensor<1x3x77x96xf16>) -> tensor<1x3x100x96xf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = inf, right = inf, align = top_left>, scale = 0.1 : f64}
      : tensor<1x3x100x96xf16>, tensor<1x3x77x96xf16>, tensor<1x3x77x96xf16> -> tensor<1x3x100x96xf16>, tensor<1x3x100xf32>
  return %o : tensor<1x3x100x96xf16>
}
