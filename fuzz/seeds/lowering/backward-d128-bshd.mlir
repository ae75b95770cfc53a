// Lowering seed: the backward at head dim 128, bshd, 2:1 GQA, causal from
// the bottom right, deterministic, dynamic lengths.
func.func @g(%q: tensor<2x?x4x128xf16>, %k: tensor<2x?x2x128xf16>, %v: tensor<2x?x2x128xf16>, %o: tensor<2x?x4x128xf16>, %do: tensor<2x?x4x128xf16>, %lse: tensor<2x4x?xf32>) -> tensor<2x?x4x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %v, %o, %do, %lse {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>, layout = #sdpa.layout<bshd>, deterministic}
      : tensor<2x?x4x128xf16>, tensor<2x?x2x128xf16>, tensor<2x?x2x128xf16>, tensor<2x?x4x128xf16>, tensor<2x?x4x128xf16>, tensor<2x4x?xf32> -> tensor<2x?x4x128xf16>, tensor<2x?x2x128xf16>, tensor<2x?x2x128xf16>
  return %dq : tensor<2x?x4x128xf16>
}
