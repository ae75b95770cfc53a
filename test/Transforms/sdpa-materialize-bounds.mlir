// RUN: sdpa-opt %s -split-input-file -sdpa-derive-bounds="tile-q=128 tile-kv=64" -sdpa-materialize-bounds -verify-diagnostics | FileCheck %s
// RUN: sdpa-opt %s -split-input-file -sdpa-derive-bounds="tile-q=128 tile-kv=64" -sdpa-materialize-bounds -canonicalize | FileCheck %s --check-prefix=CANON

/// The gpt-oss window (L = 127, Tq = 128, Tk = 64), dynamic S: the kernels'
/// loop bounds as affine ops. The interior's begin merges its own max-map
/// with kv_begin's (d0 * 2 - 2 is dominated by d0 * 2 and dropped), then is
/// clamped to kv_end; the interior's end is clamped up to its begin.
// CHECK-DAG: #[[KVB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0 * 2 - 2, d0 * 128 - s1 + (s1 - 1) floordiv 64 - 126)>
// CHECK-DAG: #[[KVE:.*]] = affine_map<(d0)[s0, s1] -> (s1 ceildiv 64, d0 * 2 + 2, (s0 - 1) floordiv 64 + 1)>
// CHECK-DAG: #[[PAIR:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[IB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0 * 2, d0 * 128 - s1 + (s1 - 1) floordiv 64 - 126)>
// CHECK-DAG: #[[IE:.*]] = affine_map<(d0)[s0, s1] -> (s1 floordiv 64, d0 * 2, s1 ceildiv 64, (s0 - 1) floordiv 64 + 1)>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - d1 * 2 + 2)>

// CHECK-LABEL: func.func @gpt_oss_sdpa0_forward_bounds
// CHECK-SAME: (%[[T:.*]]: index, %[[SQ:.*]]: index, %[[SKV:.*]]: index) -> (index, index, index, index)
// CHECK: %[[B:.*]] = affine.max #[[KVB]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[E0:.*]] = affine.min #[[KVE]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[E:.*]] = affine.max #[[PAIR]](%[[E0]], %[[B]])
// CHECK: %[[IB0:.*]] = affine.max #[[IB]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[IBC:.*]] = affine.min #[[PAIR]](%[[IB0]], %[[E]])
// CHECK: %[[IE0:.*]] = affine.min #[[IE]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[IEC:.*]] = affine.max #[[PAIR]](%[[IE0]], %[[IBC]])
// CHECK: return %[[B]], %[[E]], %[[IBC]], %[[IEC]]

// CHECK-LABEL: func.func @gpt_oss_sdpa0_backward_bounds
// CHECK: %[[QB:.*]] = affine.max
// CHECK: %[[QE0:.*]] = affine.min
// CHECK: %[[QE:.*]] = affine.max #[[PAIR]](%[[QE0]], %[[QB]])
/// The backward interior, clamped like the forward's, and empty (at q_end)
/// unless the key tile is full (u < Skv floordiv 64).
// CHECK: %[[QIB0:.*]] = affine.min #[[PAIR]](%{{.*}}, %[[QE]])
// CHECK: %[[QIE0:.*]] = affine.max #[[PAIR]](%{{.*}}, %[[QIB0]])
// CHECK: %[[FULL:.*]] = arith.cmpi ult
// CHECK: %[[QIB:.*]] = arith.select %[[FULL]], %[[QIB0]], %[[QE]]
// CHECK: %[[QIE:.*]] = arith.select %[[FULL]], %[[QIE0]], %[[QE]]
// CHECK: return %[[QB]], %[[QE]], %[[QIB]], %[[QIE]]

// CHECK-LABEL: func.func @gpt_oss_sdpa0_relay_turn
// CHECK-SAME: (%[[U:.*]]: index, %[[TT:.*]]: index, %[[SQ2:.*]]: index, %[[SKV2:.*]]: index)
// CHECK: affine.min #[[TURN]](%[[U]], %[[TT]])[%[[SQ2]], %[[SKV2]]]
func.func @gpt_oss(%q: tensor<2x16x?x64xbf16>) -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16> -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}

// -----

/// Causal without a window: the relay turn is the key tile itself, and the
/// first key tile of every query tile is 0.
// CHECK-LABEL: func.func @causal_sdpa0_relay_turn
// CHECK: affine.apply #{{.*}}(%{{.*}}, %{{.*}})[%{{.*}}, %{{.*}}]
// CHECK-LABEL: func.func @causal_sdpa1_forward_bounds
// CANON-LABEL: func.func @causal_sdpa0_relay_turn
// CANON-SAME: (%[[U:[a-z0-9]+]]: index,
// CANON-NEXT: return %[[U]] : index
// CANON-LABEL: func.func @causal_sdpa1_forward_bounds
// CANON: %[[ZERO:.*]] = arith.constant 0 : index
// CANON: return %[[ZERO]],
func.func @causal(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, deterministic}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  %o, %l = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
  return %dq : tensor<1x1x?x64xf16>
}
