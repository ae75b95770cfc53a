// Lowering seed: bshd, 4:1 GQA, a bottom-right window, dynamic batch and
// lengths, bf16 at a small head dim (head dims of 160 and more cost about
// ten seconds of PTX codegen under ASan: too slow for the seed corpus).
func.func @f(%q: tensor<?x?x8x32xbf16>, %k: tensor<?x?x2x32xbf16>, %v: tensor<?x?x2x32xbf16>) -> tensor<?x?x8x32xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 255, right = 0, align = bottom_right>, layout = #sdpa.layout<bshd>}
      : tensor<?x?x8x32xbf16>, tensor<?x?x2x32xbf16>, tensor<?x?x2x32xbf16> -> tensor<?x?x8x32xbf16>, tensor<?x8x?xf32>
  return %o : tensor<?x?x8x32xbf16>
}
