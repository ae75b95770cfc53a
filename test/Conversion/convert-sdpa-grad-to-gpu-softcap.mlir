// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=32 tile-kv=64" | FileCheck %s

/// Gemma 2's cap (c = 30 here, scale 1/8) in the backward (docs/Semantics.md
/// §7): P is recomputed from the capped scores, and dS carries the cap's
/// derivative. Per cell, with s the raw score and LSE, Delta of its row:
///
///   t  = tanh(s * 0.125 / 30)              (0.125 / 30 = 0.00416666688 in f32)
///   P  = exp2(t * 30 * log2(e) - LSE * log2(e))   (30 log2(e) = 43.2808495)
///   dS = P * (dP - Delta) * (1 - t^2)
///
/// The manifest records the cap. LSE and Delta of the visit come from its
/// stage of the [2][32] f32 buffers (bwd_main streams Q, dO and the row
/// stats in 2 stages). By hand, with 32 * 72 * 2 = 4608 bytes a 32-row tile
/// and 9216 a 64-row one: bwd_main has K, V at 0, 9216, Q [2] at 18432, dO
/// [2] at 27648, no dS tile (only an accumulated dQ reads it), LSE [2][32]
/// at 36864, Delta at 36864 + 256 = 37120, 37376 bytes in all; bwd_dq (dQ
/// recomputed, the default for this
/// narrow band at d 64; 2 warps of 16 query rows) has Q, dO and K, V in 2
/// stages: 2 * 4608 + 2 * 2 * 9216 = 46080 bytes. bwd_main takes two key
/// row tiles a warp (tile_q 32, d 64, dQ recomputed): 2 warps, 64 threads.
// CHECK: sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64\0Atile_q 32\0Atile_kv 64\0Aband 127 0 top_left\0Ascale 0.125\0Avarlen 0\0Asoftcap 30\0Adeterministic 0\0A
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 64 1 1\0Ashared_bytes 37376\0A
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 46080\0A

// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[LSES:.+]] = memref.view %{{.+}}[%c36864{{(_[0-9]+)?}}][] : {{.+}} to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[DELTAS:.+]] = memref.view %{{.+}}[%c37120{{(_[0-9]+)?}}][] : {{.+}} to memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[STAGE:.+]] = arith.remui %[[N]], %c2{{(_[0-9]+)?}} : index
// CHECK-DAG: %[[INNER:.+]] = arith.constant 0.0041666{{[0-9]*}} : f32
// CHECK-DAG: %[[OUTER:.+]] = arith.constant 43.2808{{[0-9]*}} : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[LSE2:.+]] = vector.load %[[LSES]][%[[STAGE]], %{{.+}}] : memref<2x32xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: %[[DELTA2:.+]] = vector.load %[[DELTAS]][%[[STAGE]], %{{.+}}] : memref<2x32xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: %[[L:.+]] = vector.extract %[[LSE2]][0] : f32 from vector<2xf32>
// CHECK: %[[NEGL:.+]] = arith.negf %[[L]] : f32
// CHECK: %[[D:.+]] = vector.extract %[[DELTA2]][0] : f32 from vector<2xf32>
// CHECK: %[[S:.+]] = vector.extract %{{.+}}[0, 0] : f32 from vector<2x2xf32>
// CHECK: %[[X:.+]] = arith.mulf %[[S]], %[[INNER]] : f32
// CHECK: %[[T:.+]] = math.tanh %[[X]] : f32
// CHECK: %[[E:.+]] = math.fma %[[T]], %[[OUTER]], %[[NEGL]] : f32
// CHECK: %[[P:.+]] = math.exp2 %[[E]] : f32
// CHECK: %[[T2:.+]] = arith.mulf %[[T]], %[[T]] : f32
// CHECK: %[[SLOPE:.+]] = arith.subf %[[ONE]], %[[T2]] : f32
// CHECK: %[[DP:.+]] = vector.extract %{{.+}}[0, 0] : f32 from vector<2x2xf32>
// CHECK: %[[DPD:.+]] = arith.subf %[[DP]], %[[D]] : f32
// CHECK: arith.mulf %[[DPD]], %[[SLOPE]] : f32
// CHECK: gpu.return
func.func @softcap(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>, softcap = 30.0 : f32}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}
