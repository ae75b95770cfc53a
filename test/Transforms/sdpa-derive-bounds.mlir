// RUN: sdpa-opt %s -sdpa-derive-bounds="tile-q=128 tile-kv=64" -split-input-file | FileCheck %s
// RUN: sdpa-opt %s -sdpa-derive-bounds="tile-q=64 tile-kv=32" -split-input-file | FileCheck %s --check-prefix=SMALL

// Schedules are derived with the tiles Tq = 128, Tk = 64 (pinned by the RUN
// line; the default tiles are the rule of sdpa-derive-bounds-defaults.mlir). Begin maps
// are max-maps, end maps min-maps; symbols are [Sq, Skv] (s0, s1).
/// Full attention: every map has only its clamp; the turn is the key tile.
// CHECK-LABEL: func @no_mask
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128)
// CHECK-SAME: q_interior_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: q_interior_end = (d0)[s0, s1] -> (s0 ceildiv 128)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0)>
func.func @no_mask(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// Backward interior: rows [128t, 128t + 128) see all of key tile u iff 64u + 63 <= 128t, so q_interior_begin = (64u + 63) ceildiv 128; no left edge, no end term.
/// Causal: kv_end = (t*128 + 127) floordiv 64 + 1 = 2t + 2 key tiles; no window, so kv_first = 0 and the turn folds to u.
// CHECK-LABEL: func @causal_top_left
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64, d0 * 2 + 2, (s0 - 1) floordiv 64 + 1)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, d0 floordiv 2, d0 * 64 - s0 + (s0 - 1) floordiv 128 + 1)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128)
// CHECK-SAME: q_interior_begin = (d0)[s0, s1] -> (0, (d0 * 64 + 63) ceildiv 128)
// CHECK-SAME: q_interior_end = (d0)[s0, s1] -> (s0 ceildiv 128)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0)>
func.func @causal_top_left(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// Sq = 100 < Skv = 300, delta = 200: the one query tile sees keys up to 99 + 200 = 299, all 5 key tiles; key tile u is seen by rows >= 64u - 200.
// CHECK-LABEL: func @causal_bottom_right_shorter_queries
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (5, d0 * 2 + 6)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (4, d0 * 2 + 3)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, (d0 * 8 - 25) floordiv 16)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0)>
func.func @causal_bottom_right_shorter_queries(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x300x64xf16>) -> tensor<1x2x100x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x2x100x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
  return %o : tensor<1x2x100x64xf16>
}

// -----

/// Sq = 300 > Skv = 100, delta = -200: rows below 200 see no key; kv_end(0) = (127 - 200) floordiv 64 + 1 = -1, an empty range.
// CHECK-LABEL: func @causal_bottom_right_longer_queries
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (2, d0 * 2 - 1)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (1, d0 * 2 - 4)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, (d0 * 8 + 25) floordiv 16)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (3)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0)>
func.func @causal_bottom_right_longer_queries(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x100x64xf16>) -> tensor<1x2x300x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x2x300x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x300x64xf16>, tensor<1x2x300xf32>
  return %o : tensor<1x2x300x64xf16>
}

// -----

/// Dynamic lengths: delta = s1 - s0 stays symbolic.
// CHECK-LABEL: func @causal_bottom_right_dynamic
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64, (d0 * 128 - s0 + s1 + 127) floordiv 64 + 1)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64, (d0 * 128 - s0 + s1 + 1) floordiv 64)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, (d0 * 64 + s0 - s1) floordiv 128)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0)>
func.func @causal_bottom_right_dynamic(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// Backward: (64u + 63) ceildiv 128 and (64u + 0 + 1) floordiv 128 meet or cross, so no interior either.
/// L = 0: tile t sees exactly the key tiles of its own rows, [2t, 2t + 2); no interior (a diagonal tile is never full).
// CHECK-LABEL: func @diagonal_only
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2, d0 * 128 - s1 + (s1 - 1) floordiv 64 + 1)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64, d0 * 2 + 2, (s0 - 1) floordiv 64 + 1)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, (d0 * 128 + 127) ceildiv 64)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, d0 floordiv 2, d0 * 64 - s0 + (s0 - 1) floordiv 128 + 1)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128, (d0 * 64 + 63) floordiv 128 + 1, (s1 - 1) floordiv 128 + 1)
// CHECK-SAME: q_interior_begin = (d0)[s0, s1] -> (0, (d0 * 64 + 63) ceildiv 128)
// CHECK-SAME: q_interior_end = (d0)[s0, s1] -> (s0 ceildiv 128, (d0 * 64 + 1) floordiv 128)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2)>
func.func @diagonal_only(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 0, right = 0, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// Backward interior: 64u + 63 <= 128t and 128t + 127 - 127 <= 64u, i.e. t in [(64u + 63) ceildiv 128, (64u + 128) floordiv 128 = u floordiv 2 + 1).
/// The gpt-oss window, dynamic S: kv_begin = (128t - 127) floordiv 64 = 2t - 2; the turn is u - (2t - 2) once t >= 1.
// CHECK-LABEL: func @gpt_oss_window
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 2, d0 * 128 - s1 + (s1 - 1) floordiv 64 - 126)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64, d0 * 2 + 2, (s0 - 1) floordiv 64 + 1)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, d0 * 2)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, d0 floordiv 2, d0 * 64 - s0 + (s0 - 1) floordiv 128 + 1)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128, (d0 * 32 + 95) floordiv 64 + 1, (s1 + 126) floordiv 128 + 1)
// CHECK-SAME: q_interior_begin = (d0)[s0, s1] -> (0, (d0 * 64 + 63) ceildiv 128)
// CHECK-SAME: q_interior_end = (d0)[s0, s1] -> (s0 ceildiv 128, d0 floordiv 2 + 1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 2)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 2)>
func.func @gpt_oss_window(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// Static S = 8192: the symbols fold to constants (128 key tiles).
// CHECK-LABEL: func @gpt_oss_window_static
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 2, d0 * 128 - 8191)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (128, d0 * 2 + 2)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, d0 * 2)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (128, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, d0 floordiv 2, d0 * 64 - 8128)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (64, (d0 * 32 + 95) floordiv 64 + 1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 2)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 2)>
func.func @gpt_oss_window_static(%q: tensor<1x2x8192x64xbf16>, %k: tensor<1x2x8192x64xbf16>) -> tensor<1x2x8192x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16> -> tensor<1x2x8192x64xbf16>, tensor<1x2x8192xf32>
  return %o : tensor<1x2x8192x64xbf16>
}

// -----

/// L >= S never bites (canonicalization would make it inf): the begin terms are <= 0 on the whole grid.
// CHECK-LABEL: func @window_wider_than_sequence
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 141, d0 * 128 - 17064)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (128, d0 * 2 + 2)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, (d0 * 128 - 8873) ceildiv 64)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (128, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, d0 floordiv 2, d0 * 64 - 8128)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (64, (d0 * 64 + 9063) floordiv 128 + 1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 141)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 141)>
func.func @window_wider_than_sequence(%q: tensor<1x2x8192x64xbf16>, %k: tensor<1x2x8192x64xbf16>) -> tensor<1x2x8192x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 9000, right = 0, align = top_left>}
      : tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16> -> tensor<1x2x8192x64xbf16>, tensor<1x2x8192xf32>
  return %o : tensor<1x2x8192x64xbf16>
}

// -----

/// A window with the future unbounded: kv_end is the last key tile.
// CHECK-LABEL: func @window_no_causal
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 1, d0 * 128 - s1 + (s1 - 1) floordiv 64 - 30)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, (d0 * 4 + 3) ceildiv 2)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128, (d0 * 32 + 47) floordiv 64 + 1, (s1 + 30) floordiv 128 + 1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 1)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 1)>
func.func @window_no_causal(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 31, right = inf, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// Symmetric local window, abs(q - k) <= 16.
// CHECK-LABEL: func @symmetric_window
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 1, d0 * 128 - s1 + (s1 - 1) floordiv 64 - 15)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 64, d0 * 2 + 3, (s0 + 15) floordiv 64 + 1)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, (d0 * 128 + 111) ceildiv 64)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 64, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, (d0 * 4 - 1) floordiv 8, d0 * 64 - s0 + (s0 - 1) floordiv 128 - 15)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 128, (d0 * 64 + 79) floordiv 128 + 1, (s1 + 15) floordiv 128 + 1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 1)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 1)>
func.func @symmetric_window(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 16, right = 16, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

/// S = 1000 is not a multiple of 128 or 64: the last key tile (15, keys 960..999) is partial, so interior_end stops at 1000 floordiv 64 = 15.
// CHECK-LABEL: func @lengths_not_divisible
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 2, d0 * 128 - 1111)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (16, d0 * 2 + 2)
// CHECK-SAME: interior_begin = (d0)[s0, s1] -> (0, d0 * 2)
// CHECK-SAME: interior_end = (d0)[s0, s1] -> (15, d0 * 2)
// CHECK-SAME: q_begin = (d0)[s0, s1] -> (0, d0 floordiv 2, d0 * 64 - 992)
// CHECK-SAME: q_end = (d0)[s0, s1] -> (8, (d0 * 32 + 95) floordiv 64 + 1)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 2)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 2)>
func.func @lengths_not_divisible(%q: tensor<1x2x1000x64xbf16>, %k: tensor<1x2x1000x64xbf16>) -> tensor<1x2x1000x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x1000x64xbf16>, tensor<1x2x1000x64xbf16>, tensor<1x2x1000x64xbf16> -> tensor<1x2x1000x64xbf16>, tensor<1x2x1000xf32>
  return %o : tensor<1x2x1000x64xbf16>
}

// -----

/// THD: the lengths are per packed sequence, so the maps stay symbolic in
/// [Sq, Skv] whatever the packed token counts; one schedule serves every
/// sequence. Here with Tq = 64, Tk = 32 and a bottom-right window of 32 keys:
/// kv_begin = (64t + Skv - Sq - 31) floordiv 32, kv_end adds Tq - 1 + R = 63.
// CHECK-LABEL: func @thd
// SMALL-LABEL: func @thd
// SMALL: schedule = #sdpa.schedule<tile_q = 64, tile_kv = 32
// SMALL-SAME: kv_begin = (d0)[s0, s1] -> (0, (d0 * 64 - s0 + s1 - 31) floordiv 32)
// SMALL-SAME: kv_end = (d0)[s0, s1] -> (s1 ceildiv 32, (d0 * 64 - s0 + s1 + 63) floordiv 32 + 1)
// SMALL-SAME: interior_begin = (d0)[s0, s1] -> (0, (d0 * 64 - s0 + s1 + 32) ceildiv 32)
// SMALL-SAME: interior_end = (d0)[s0, s1] -> (s1 floordiv 32, (d0 * 64 - s0 + s1 + 1) floordiv 32)
// SMALL-SAME: q_begin = (d0)[s0, s1] -> (0, (d0 * 32 + s0 - s1) floordiv 64)
// SMALL-SAME: q_end = (d0)[s0, s1] -> (s0 ceildiv 64, (d0 * 32 + s0 - s1 + 62) floordiv 64 + 1)
// SMALL-SAME: kv_first = (d0)[s0, s1] -> (0, (d0 * 64 - s0 + s1 - 31) floordiv 32)
// SMALL-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - (d1 * 64 - s0 + s1 - 31) floordiv 32)>
func.func @thd(%q: tensor<1000x8x64xf16>, %k: tensor<1200x2x64xf16>, %cu_q: tensor<4xi32>, %cu_kv: tensor<4xi32>) -> tensor<1000x8x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k seqlens(%cu_q, %cu_kv : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = 31, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<1000x8x64xf16>, tensor<1200x2x64xf16>, tensor<1200x2x64xf16> -> tensor<1000x8x64xf16>, tensor<8x1000xf32>
  return %o : tensor<1000x8x64xf16>
}

// -----

/// The gradient op gets the same schedule (its backward and relay maps).
// CHECK-LABEL: func @grad
// CHECK: sdpa.attention_grad
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 2)>
func.func @grad(%q: tensor<1x2x?x64xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
  return %dq : tensor<1x2x?x64xbf16>
}


// -----

/// Sinks and a softcap change no band: the schedule is gpt_oss_window_static's,
/// and both modifiers stay on the op.
// CHECK-LABEL: func @gpt_oss_window_sinks_softcap
// CHECK-SAME: %[[SINK:[^:]*]]: tensor<2xf32>
// CHECK: sdpa.attention_grad {{.*}} sinks(%[[SINK]] : tensor<2xf32>)
// CHECK-SAME: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 64
// CHECK-SAME: kv_begin = (d0)[s0, s1] -> (0, d0 * 2 - 2, d0 * 128 - 8191)
// CHECK-SAME: kv_end = (d0)[s0, s1] -> (128, d0 * 2 + 2)
// CHECK-SAME: kv_first = (d0)[s0, s1] -> (0, d0 * 2 - 2)
// CHECK-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 2)>
// CHECK-SAME: softcap = 5.000000e+01 : f32
func.func @gpt_oss_window_sinks_softcap(%q: tensor<1x2x8192x64xbf16>, %lse: tensor<1x2x8192xf32>, %sink: tensor<2xf32>) -> tensor<2xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%sink : tensor<2xf32>)
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>,
        tensor<1x2x8192x64xbf16>, tensor<1x2x8192xf32>
      -> tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>, tensor<1x2x8192x64xbf16>, tensor<2xf32>
  return %ds : tensor<2xf32>
}
