// Lowering seed: packed sequences (thd) with cumulative offsets, a small
// head dim and a symmetric window.
func.func @f(%q: tensor<?x4x32xf16>, %k: tensor<?x4x32xf16>, %v: tensor<?x4x32xf16>, %cq: tensor<3xi32>, %ck: tensor<3xi32>) -> tensor<?x4x32xf16> {
  %o, %lse = sdpa.attention %q, %k, %v seqlens(%cq, %ck : tensor<3xi32>, tensor<3xi32>) {mask = #sdpa.band<left = 16, right = 16, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<?x4x32xf16>, tensor<?x4x32xf16>, tensor<?x4x32xf16> -> tensor<?x4x32xf16>, tensor<4x?xf32>
  return %o : tensor<?x4x32xf16>
}
