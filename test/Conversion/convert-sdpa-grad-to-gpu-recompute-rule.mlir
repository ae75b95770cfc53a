// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=recompute" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=FORCED

/// The default rule keeps accumulate for wide bands (here 4096 keys at
/// d 128); dq-mode=recompute forces bwd_dq there (its tile_kv 128 is walked
/// in two chunks of 64 keys).
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
// CHECK-LABEL: func.func @wide
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
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

/// bwd_dq holds a warp's 16 rows of dQ in registers: recompute stops at
/// head_dim 128, with the reason; the default rule never picks it there.
// CHECK-LABEL: func.func @d192
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
func.func @d192(%q: tensor<1x2x?x192xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x192xf16> {
  // expected-error @+1 {{expected head_dim at most 128 for dq-mode=recompute, got 192 (bwd_dq holds a warp's 16 rows of dQ in registers; use dq-mode=accumulate)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
  return %dq : tensor<1x2x?x192xf16>
}
