// RUN: sdpa-opt %s -split-input-file -sdpa-print-schedule="tile-q=4 tile-kv=2" -verify-diagnostics -o /dev/null | FileCheck %s
// RUN: %python %S/Inputs/check_schedule.py sdpa-opt --cases 240 --seed 7 | FileCheck %s --check-prefix=BRUTE

/// Random static shapes, both ops, many tile sizes: every printed line equals
/// the schedule computed cell by cell from the mask.
// BRUTE: checked 240 cases, {{[0-9]+}} schedule lines: all match the brute-force mask

/// Sq = Skv = 8, causal window L = 2, Tq = 4, Tk = 2; row q sees keys
/// [max(0, q - 2), q]. Query tile 0 (rows 0-3) sees keys 0-3 = key tiles
/// [0,2); row 0 misses key 1, so no pair is interior. Tile 1 (rows 4-7) sees
/// keys 2-7 = tiles [1,4); row 4 misses key 5 and row 7 misses key 4.
// CHECK: sdpa.schedule fwd q_tile=0 kv=[0,2) interior=[1,1)
// CHECK-NEXT: sdpa.schedule fwd q_tile=1 kv=[1,4) interior=[3,3)
func.func @window(%q: tensor<1x1x8x16xf16>) -> tensor<1x1x8x16xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 2, right = 0, align = top_left>}
      : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16> -> tensor<1x1x8x16xf16>, tensor<1x1x8xf32>
  return %o : tensor<1x1x8x16xf16>
}

// -----

/// The same band, backward: keys 0-1 are seen by rows 0-3, keys 2-3 by rows
/// 2-5, keys 4-5 by rows 4-7, keys 6-7 by rows 6-7. Query tile 1's visitors
/// are key tiles 1, 2, 3: first = 1, turns 0, 1, 2.
/// No pair is interior (see the forward), so every backward interior is empty.
// CHECK: sdpa.schedule bwd kv_tile=0 q=[0,1) interior=[[[A:[0-9]+]],[[A]])
// CHECK-NEXT: sdpa.schedule bwd kv_tile=1 q=[0,2) interior=[[[B:[0-9]+]],[[B]])
// CHECK-NEXT: sdpa.schedule bwd kv_tile=2 q=[1,2) interior=[[[C:[0-9]+]],[[C]])
// CHECK-NEXT: sdpa.schedule bwd kv_tile=3 q=[1,2) interior=[[[D:[0-9]+]],[[D]])
// CHECK-NEXT: sdpa.schedule relay q_tile=0 first=0 visitors=2
// CHECK-NEXT: sdpa.schedule relay q_tile=1 first=1 visitors=3
func.func @window_grad(%q: tensor<1x1x8x16xf16>, %lse: tensor<1x1x8xf32>) -> tensor<1x1x8x16xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 2, right = 0, align = top_left>}
      : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8xf32>
      -> tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>
  return %dq : tensor<1x1x8x16xf16>
}

// -----

/// Bottom-right causal, Sq = 8 > Skv = 2 (delta = -6): rows 0-5 see no key,
/// so query tile 0 (rows 0-3) has no visitors and prints an empty range.
// CHECK: sdpa.schedule fwd q_tile=0 kv=[0,0) interior=[0,0)
// CHECK-NEXT: sdpa.schedule fwd q_tile=1 kv=[0,1) interior=[0,0)
func.func @leading_rows_see_nothing(%q: tensor<1x1x8x16xf16>, %k: tensor<1x1x2x16xf16>) -> tensor<1x1x8x16xf16> {
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x1x8x16xf16>, tensor<1x1x2x16xf16>, tensor<1x1x2x16xf16> -> tensor<1x1x8x16xf16>, tensor<1x1x8xf32>
  return %o : tensor<1x1x8x16xf16>
}

// -----

/// THD with constant offsets [0, 3, 3, 8]: sequences of 3, 0 and 5 tokens,
/// causal. Sequence 0: row 0 misses key 1 and key tile 1 (key 2) is partial,
/// so nothing is interior; sequence 1 has no tile; in sequence 2, the nominal
/// rows 4-7 of query tile 1 see keys 0-3, so key tiles 0 and 1 are interior
/// and the partial key tile 2 (key 4) is not.
// CHECK: sdpa.schedule fwd seq=0 q_tile=0 kv=[0,2) interior=[0,0)
// CHECK-NEXT: sdpa.schedule fwd seq=2 q_tile=0 kv=[0,2) interior=[0,0)
// CHECK-NEXT: sdpa.schedule fwd seq=2 q_tile=1 kv=[0,3) interior=[0,2)
func.func @thd(%q: tensor<8x1x16xf16>) -> tensor<8x1x16xf16> {
  %cu = arith.constant dense<[0, 3, 3, 8]> : tensor<4xi32>
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<8x1x16xf16>, tensor<8x1x16xf16>, tensor<8x1x16xf16> -> tensor<8x1x16xf16>, tensor<1x8xf32>
  return %o : tensor<8x1x16xf16>
}

// -----

/// Unknown lengths print nothing and say why.
func.func @dynamic(%q: tensor<1x1x?x16xf16>) -> tensor<1x1x?x16xf16> {
  // expected-remark @below {{schedule not printed: sequence lengths are dynamic (give one value each in seq-lens-q and seq-lens-kv)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x16xf16>, tensor<1x1x?x16xf16>, tensor<1x1x?x16xf16> -> tensor<1x1x?x16xf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x16xf16>
}

// -----

func.func @bad_offsets(%q: tensor<8x1x16xf16>) -> tensor<8x1x16xf16> {
  %cu = arith.constant dense<[0, 5, 3]> : tensor<3xi32>
  // expected-error @below {{expected non-decreasing cumulative sequence offsets, got 5 then 3}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<8x1x16xf16>, tensor<8x1x16xf16>, tensor<8x1x16xf16> -> tensor<8x1x16xf16>, tensor<1x8xf32>
  return %o : tensor<8x1x16xf16>
}

// -----

/// Causal, Sq = Skv = 8, Tq = 4, Tk = 2: key tile u (keys 2u, 2u + 1) is
/// seen by rows q >= 2u, so it visits query tiles [2u floordiv 4, 2); the
/// pair is interior iff the tile's first row 4t sees its last key 2u + 1,
/// t >= (2u + 1) ceildiv 4: [1,2) for u = 0, 1, none for u = 2, 3.
// CHECK: sdpa.schedule bwd kv_tile=0 q=[0,2) interior=[1,2)
// CHECK-NEXT: sdpa.schedule bwd kv_tile=1 q=[0,2) interior=[1,2)
// CHECK-NEXT: sdpa.schedule bwd kv_tile=2 q=[1,2) interior=[[[E:[0-9]+]],[[E]])
// CHECK-NEXT: sdpa.schedule bwd kv_tile=3 q=[1,2) interior=[[[F:[0-9]+]],[[F]])
func.func @causal_grad(%q: tensor<1x1x8x16xf16>, %lse: tensor<1x1x8xf32>) -> tensor<1x1x8x16xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8xf32>
      -> tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>, tensor<1x1x8x16xf16>
  return %dq : tensor<1x1x8x16xf16>
}
