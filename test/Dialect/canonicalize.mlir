// RUN: sdpa-opt %s -canonicalize -split-input-file | FileCheck %s
// RUN: sdpa-opt %s -split-input-file -sdpa-derive-bounds="tile-q=64 tile-kv=64" -canonicalize | FileCheck %s --check-prefix=SCHED

/// A causal window of 4096 keys over 4096 rows never bites: it is causal.
// CHECK-LABEL: func @window_wider_than_sequence
// CHECK: mask = #sdpa.band<left = inf, right = 0, align = top_left>
func.func @window_wider_than_sequence(%q: tensor<1x2x4096x64xbf16>) -> tensor<1x2x4096x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 4095, right = 0, align = top_left>}
      : tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16> -> tensor<1x2x4096x64xbf16>, tensor<1x2x4096xf32>
  return %o : tensor<1x2x4096x64xbf16>
}

// -----

/// One key narrower and the window bites (row 4095 loses key 0).
// CHECK-LABEL: func @window_that_bites
// CHECK: mask = #sdpa.band<left = 4094, right = 0, align = top_left>
func.func @window_that_bites(%q: tensor<1x2x4096x64xbf16>) -> tensor<1x2x4096x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 4094, right = 0, align = top_left>}
      : tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16>, tensor<1x2x4096x64xbf16> -> tensor<1x2x4096x64xbf16>, tensor<1x2x4096xf32>
  return %o : tensor<1x2x4096x64xbf16>
}

// -----

/// With Sq == Skv the alignments coincide: one form, top-left.
// CHECK-LABEL: func @equal_lengths_bottom_right
// CHECK: mask = #sdpa.band<left = 127, right = 0, align = top_left>
func.func @equal_lengths_bottom_right(%q: tensor<1x2x512x64xf16>) -> tensor<1x2x512x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>}
      : tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16>, tensor<1x2x512x64xf16> -> tensor<1x2x512x64xf16>, tensor<1x2x512xf32>
  return %o : tensor<1x2x512x64xf16>
}

// -----

/// Bottom-right causal with Sq = 100 < Skv = 300 (delta = 200) is the
/// top-left band with R = 200: the same cells, one form.
// CHECK-LABEL: func @bottom_right_causal_shorter_queries
// CHECK: mask = #sdpa.band<left = inf, right = 200, align = top_left>
func.func @bottom_right_causal_shorter_queries(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x300x64xf16>) -> tensor<1x2x100x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x2x100x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
  return %o : tensor<1x2x100x64xf16>
}

// -----

/// Sq = 300 > Skv = 100 (delta = -200): the top-left form would need
/// R = -200, so bottom-right stays.
// CHECK-LABEL: func @bottom_right_causal_longer_queries
// CHECK: mask = #sdpa.band<left = inf, right = 0, align = bottom_right>
func.func @bottom_right_causal_longer_queries(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x100x64xf16>) -> tensor<1x2x300x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x2x300x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x300x64xf16>, tensor<1x2x300xf32>
  return %o : tensor<1x2x300x64xf16>
}

// -----

/// A right edge past the last key never bites; with no edge left the band
/// is full attention.
// CHECK-LABEL: func @right_edge_past_keys
// CHECK: mask = #sdpa.band<left = inf, right = inf, align = top_left>
func.func @right_edge_past_keys(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x300x64xf16>) -> tensor<1x2x64x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 299, align = top_left>}
      : tensor<1x2x64x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16> -> tensor<1x2x64x64xf16>, tensor<1x2x64xf32>
  return %o : tensor<1x2x64x64xf16>
}

// -----

/// Dynamic lengths: only the shape-free rule applies (no edge, no alignment).
// CHECK-LABEL: func @dynamic
// CHECK: mask = #sdpa.band<left = inf, right = inf, align = top_left>
// CHECK: mask = #sdpa.band<left = 4096, right = 0, align = bottom_right>
func.func @dynamic(%q: tensor<1x2x?x64xf16>) -> (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = bottom_right>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
  %o2, %lse2 = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 4096, right = 0, align = bottom_right>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
  return %o, %o2 : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
}

// -----

/// THD lengths are per sequence: the packed token counts say nothing.
// CHECK-LABEL: func @thd_keeps_window
// CHECK: mask = #sdpa.band<left = 5000, right = 0, align = bottom_right>
func.func @thd_keeps_window(%q: tensor<100x8x64xf16>, %cu: tensor<3xi32>) -> tensor<100x8x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>)
      {mask = #sdpa.band<left = 5000, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<100x8x64xf16>, tensor<100x8x64xf16>, tensor<100x8x64xf16> -> tensor<100x8x64xf16>, tensor<8x100xf32>
  return %o : tensor<100x8x64xf16>
}

// -----

/// The gradient op takes the same form, and an attached schedule follows
/// its band: derived for left = 300 (a turn with a window term), it is
/// re-derived for the canonical causal band, whose turn folds to the key
/// tile (the verifier would reject a stale schedule).
// CHECK-LABEL: func @grad_with_schedule
// CHECK: mask = #sdpa.band<left = inf, right = 0, align = top_left>
// SCHED-LABEL: func @grad_with_schedule
// SCHED: sdpa.attention_grad
// SCHED-SAME: mask = #sdpa.band<left = inf, right = 0, align = top_left>
// SCHED-SAME: schedule = #sdpa.schedule<tile_q = 64, tile_kv = 64, kv_begin = (d0)[s0, s1] -> (0)
// SCHED-SAME: relay_turn = (d0, d1)[s0, s1] -> (d0)>
func.func @grad_with_schedule(%q: tensor<1x2x256x64xf16>, %lse: tensor<1x2x256xf32>) -> tensor<1x2x256x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 300, right = 0, align = bottom_right>}
      : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256xf32>
      -> tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>
  return %dq : tensor<1x2x256x64xf16>
}

// -----

/// c * tanh(s / c) -> s as c -> inf: an infinite cap is no cap, and the
/// canonical form has none. A finite cap stays.
// CHECK-LABEL: func @infinite_softcap
// CHECK: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} {mask = #sdpa.band<left = 3, right = 0, align = top_left>} :
// CHECK: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} {mask = #sdpa.band<left = 3, right = 0, align = top_left>, softcap = 5.000000e+01 : f32} :
func.func @infinite_softcap(%q: tensor<1x2x64x64xf16>) -> (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 3, right = 0, align = top_left>, softcap = 0x7F800000 : f32}
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf16>, tensor<1x2x64xf32>
  %o2, %lse2 = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 3, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf16>, tensor<1x2x64xf32>
  return %o, %o2 : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>
}

// -----

/// The gradient op drops an infinite cap too, together with its band's
/// canonical form, and keeps its sinks.
// CHECK-LABEL: func @grad_infinite_softcap
// CHECK-SAME: %[[SINK:[^:]*]]: tensor<2xf32>
// CHECK: sdpa.attention_grad {{.*}} sinks(%[[SINK]] : tensor<2xf32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
// CHECK-SAME: -> tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<2xf32>
func.func @grad_infinite_softcap(%q: tensor<1x2x64x64xf16>, %lse: tensor<1x2x64xf32>, %sink: tensor<2xf32>) -> tensor<2xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%sink : tensor<2xf32>)
      {mask = #sdpa.band<left = 63, right = 0, align = top_left>, softcap = 0x7F800000 : f32}
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64xf32>
      -> tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<2xf32>
  return %ds : tensor<2xf32>
}
