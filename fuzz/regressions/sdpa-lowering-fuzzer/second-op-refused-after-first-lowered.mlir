func.func @thd_window(%q: tensor<?x16x64xbf16>, %k: tensor<?x4x64xbf16>, %v: tensor<?x4x64xbf16>,
                      %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x16x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x16x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16>
      -> tensor<?x16x64xbf16>, tensor<16x?xf32>
  return %o : tensor<?x16x64xbf16>
}

func.func @thd_static(%q: tensor<1000x8x128xf16>, %cu: tensor<4xi32>) -> tensor<1000x8x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = 31, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<1000x8x128xf16>, tensor<1000x8x128xf16>, tensor<1000x8x128xf16>
      -> tensor<1000x8x128xf16>, tensor<8x1000xf32>
  return %o : tensor<1000x8x128xf16>
}
