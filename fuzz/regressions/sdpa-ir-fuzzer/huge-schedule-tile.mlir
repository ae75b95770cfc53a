func.func @huge_schedule_tile(%q: tensor<1x1x8x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 5, right = 3, align = top_left>,
      schedule = #sdpa.schedule<tile_q = 9223372036854775807, tile_kv = 64,
        kv_begin = (d0)[s0, s1] -> (0), kv_end = (d0)[s0, s1] -> (1),
        interior_begin = (d0)[s0, s1] -> (0), interior_end = (d0)[s0, s1] -> (0),
        q_begin = (d0)[s0, s1] -> (0), q_end = (d0)[s0, s1] -> (1), q_interior_begin = (d0)[s0, s1] -> (0),
        q_interior_end = (d0)[s0, s1] -> (1), kv_first = (d0)[s0, s1] -> (0), relay_turn = (d0, d1)[s0, s1] -> (d0)>}
      : tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16> -> tensor<1x1x8x64xf16>, tensor<1x1x8xf32>
  return
}
