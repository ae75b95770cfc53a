func.func @huge_key_length(%q: tensor<1x1x1x64xf16>, %k: tensor<1x1x9223372036854775806x64xf16>) {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 5, right = 3, align = bottom_right>}
      : tensor<1x1x1x64xf16>, tensor<1x1x9223372036854775806x64xf16>, tensor<1x1x9223372036854775806x64xf16> -> tensor<1x1x1x64xf16>, tensor<1x1x1xf32>
  return
}
