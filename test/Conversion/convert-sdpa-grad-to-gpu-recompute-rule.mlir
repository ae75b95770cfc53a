// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=recompute" -split-input-file | FileCheck %s --check-prefix=FORCED
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=accumulate" -split-input-file | FileCheck %s --check-prefix=ACC

/// The default rule (getDefaultDqMode) recomputes dQ up to head_dim 128 on
/// any band, here 4096 keys at d 128, as dq-mode=recompute does (bwd_dq
/// walks its tile_kv 128 in two chunks of 64 keys).
///
/// bwd_dq double-buffers K and V only up to mma width 96: at 128 it keeps
/// one key stage and fetches each key tile after a barrier, waiting for it
/// before a second one. By hand (default tiles Tq = 64, Tk = 128; rows of
/// 128 + 8 halves): Q, dO 64 * 136 * 2 = 17408 bytes each at 0 and 17408;
/// K, V [1][128][136], 128 * 136 * 2 = 34816 bytes each, at 34816 and 69632;
/// 104448 bytes in all; 4 warps (one m16 row tile each above mma width 64).
/// (bwd_main, mma width 128, 8 warps, keeps 2 query stages and no dS tile,
/// which only an accumulated dQ reads: 2 * 34816 + 2 * 2 * 17408 +
/// 2 * 2 * 64 * 4 = 140288.)
// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 256 1 1\0Ashared_bytes 140288\0A
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 128 1 1\0Ashared_bytes 104448\0A
// CHECK-LABEL: func.func @wide
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
// CHECK-NOT: sdpa_bwd_dq_convert
// CHECK: return
// FORCED: kernel sdpa_bwd_main bwd_main\0Ablock 256 1 1\0Ashared_bytes 140288\0A
// FORCED-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 128 1 1\0Ashared_bytes 104448\0A
// FORCED-LABEL: func.func @wide
// FORCED: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
// FORCED-LABEL: gpu.func @sdpa_bwd_dq(
// FORCED: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x136xf16, #gpu.address_space<workgroup>>
// FORCED: memref.view %{{.*}}[%c17408{{(_[0-9]+)?}}][] : {{.*}} to memref<64x136xf16, #gpu.address_space<workgroup>>
// FORCED: %[[KS:.*]] = memref.view %{{.*}}[%c34816{{(_[0-9]+)?}}][] : {{.*}} to memref<1x128x136xf16, #gpu.address_space<workgroup>>
// FORCED: %[[VS:.*]] = memref.view %{{.*}}[%c69632{{(_[0-9]+)?}}][] : {{.*}} to memref<1x128x136xf16, #gpu.address_space<workgroup>>
// FORCED: %[[QGROUP:.*]] = nvgpu.device_async_create_group
// FORCED-NOT: nvgpu.device_async_copy %arg1
// FORCED: scf.for %[[U:.*]] = %{{.*}} to %{{.*}} step
/// One stage: stage u mod 1 = 0, and the tile's own copies after the
/// barrier that ends the previous tile, waited for before the next barrier.
// FORCED-NEXT: %[[STAGE:.*]] = arith.remui %[[U]], %c1{{(_[0-9]+)?}} : index
// FORCED-NEXT: gpu.barrier
// FORCED-NOT: nvgpu.mma.sync
// FORCED: nvgpu.device_async_copy %arg1[%{{.*}}], %[[KS]][%[[STAGE]], %{{.*}}, %{{.*}}]
// FORCED-NOT: nvgpu.mma.sync
// FORCED: nvgpu.device_async_copy %arg2[%{{.*}}], %[[VS]][%[[STAGE]], %{{.*}}, %{{.*}}]
// FORCED-NOT: nvgpu.mma.sync
// FORCED: nvgpu.device_async_wait %[[QGROUP]] {numGroups = 0 : i32}
// FORCED-NEXT: gpu.barrier
/// Then the tile's edge test and products.
// FORCED-NEXT: arith.cmpi ult, %[[U]]
// FORCED-NEXT: arith.cmpi uge, %[[U]]
// FORCED-NEXT: arith.ori
// FORCED-NOT: nvgpu.device_async_copy
// FORCED: } {sdpa.kv_loop}
func.func @wide(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}

// -----

/// Above head_dim 128 the default rule recomputes dQ too (Gemma 2's d 256,
/// window 4096, softcap 50 at 8k on an H100: 0.56x the relay's time
/// deterministic, 0.83x the atomics'), and the tile rule takes bwd_dq's
/// widest key tile there, 32 x 32 (larger key tiles spill; the lowering
/// refuses them, convert-sdpa-grad-to-gpu-invalid-recompute-tile.mlir).
/// bwd_dq: 2 warps of 16 rows; by hand, rows of 192 + 8 halves, Q and dO
/// [32][200] (12800 bytes each), K and V one stage of [32][200] (above mma
/// width 96): 51200 bytes. bwd_main: two warps per 16 keys (split visits),
/// 4 warps. With dq-mode=accumulate the tiles are that mode's (32 x 64),
/// and dQ goes through dq_accum and bwd_dq_convert.
// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0A
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 51200\0A
// CHECK-LABEL: func.func @d192
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
// CHECK-NOT: sdpa_bwd_dq_convert
// CHECK: return
// FORCED: kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 51200\0A
// FORCED-LABEL: func.func @d192
// FORCED: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
// ACC: head_dim 192\0Atile_q 32\0Atile_kv 64\0A
// ACC-LABEL: func.func @d192
// ACC: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
func.func @d192(%q: tensor<1x2x?x192xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x192xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
  return %dq : tensor<1x2x?x192xf16>
}

// -----

/// A capped, non-deterministic backward on a band wider than 512 keys
/// accumulates dQ by default: recomputed, bwd_dq evaluates the cap's tanh on
/// every cell again (1.5x slower at d 128, window 4096, softcap 50).
// CHECK-LABEL: func.func @capped_wide
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
// FORCED-LABEL: func.func @capped_wide
// FORCED: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
func.func @capped_wide(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse
      {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}

// -----

/// Deterministic, the same capped backward recomputes dQ by default: bwd_dq
/// is deterministic without the relay (0.69x the relay's time at d 120,
/// causal, softcap 2).
// CHECK-LABEL: func.func @capped_wide_deterministic
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
// CHECK-NOT: sdpa_bwd_dq_convert
// CHECK: return
func.func @capped_wide_deterministic(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse
      {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32, deterministic}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}

// -----

/// Above head_dim 128 even the capped non-deterministic wide backward
/// recomputes dQ by default (Gemma 2's d 256: 0.83x the atomics' time).
// CHECK-LABEL: func.func @capped_wide_d256
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks
// CHECK-NOT: sdpa_bwd_dq_convert
// CHECK: return
func.func @capped_wide_d256(%q: tensor<1x2x?x256xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x256xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse
      {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>
  return %dq : tensor<1x2x?x256xbf16>
}
