// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=128 tile-kv=128 host-program=false dq-mode=accumulate" | FileCheck %s

/// bwd_main streams Q, dO and their row stats in two shared stages where
/// they fit, else in one: with one stage there is no prefetch, and each visit
/// fetches its own tiles after every warp is done with the previous one.
///
/// d = 96 (mma width 96: rows of 96 + 8 = 104 halves), Tq = Tk = 128 (8
/// warps, 256 threads). A 128-row tile is 128 * 104 * 2 = 26624 bytes, the
/// dS tile 128 * (128 + 8) * 2 = 34816, the row stats 128 * 4 = 512 a stage:
///   2 stages: 2 * 26624 + 2 * 2 * 26624 + 34816 + 2 * 2 * 512 = 196608
///             > 166912 (163 KiB), so
///   1 stage:  2 * 26624 + 2 * 26624 + 34816 + 2 * 512 = 142336,
/// laid out as K at 0, V at 26624, Q [1][128][104] at 53248, dO [1] at
/// 79872, dS [128][136] at 106496, LSE [1][128] f32 at 141312, Delta at
/// 141824.
// CHECK: dtype f16\0Ahead_dim 96\0Atile_q 128\0Atile_kv 128
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 256 1 1\0Ashared_bytes 142336\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<128x104xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c26624{{(_[0-9]+)?}}][] : {{.*}} to memref<128x104xf16, #gpu.address_space<workgroup>>
// CHECK: %[[QS:.*]] = memref.view %{{.*}}[%c53248{{(_[0-9]+)?}}][] : {{.*}} to memref<1x128x104xf16, #gpu.address_space<workgroup>>
// CHECK: %[[DOS:.*]] = memref.view %{{.*}}[%c79872{{(_[0-9]+)?}}][] : {{.*}} to memref<1x128x104xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c106496{{(_[0-9]+)?}}][] : {{.*}} to memref<128x136xf16, #gpu.address_space<workgroup>>
// CHECK: %[[LSES:.*]] = memref.view %{{.*}}[%c141312{{(_[0-9]+)?}}][] : {{.*}} to memref<1x128xf32, #gpu.address_space<workgroup>>
// CHECK: %[[DELTAS:.*]] = memref.view %{{.*}}[%c141824{{(_[0-9]+)?}}][] : {{.*}} to memref<1x128xf32, #gpu.address_space<workgroup>>
/// K and V (128 rows * 12 chunks of 16 bytes / 256 threads = 6 copies a
/// thread each); nothing of Q or dO before the walk.
// CHECK: %[[KGROUP:.*]] = nvgpu.device_async_create_group %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}{{$}}
// CHECK: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %[[N]], %c1{{(_[0-9]+)?}} : index
/// Every warp is done with the previous visit; this visit's own Q and dO
/// come in (always enabled: no select on a next step), its row stats go
/// straight to shared memory; then the wait and a second barrier.
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvgpu.mma.sync
// CHECK-COUNT-6: nvgpu.device_async_copy %arg0[%{{.*}}], %[[QS]][%[[STAGE]], %{{.*}}, %{{.*}}]
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.mma.sync
// CHECK-COUNT-6: nvgpu.device_async_copy %arg3[%{{.*}}], %[[DOS]][%[[STAGE]], %{{.*}}, %{{.*}}]
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK: %[[STATS:.*]]:2 = scf.if %{{.*}} -> (f32, f32) {
// CHECK: memref.store %[[STATS]]#0, %[[LSES]][%[[STAGE]], %{{.*}}] : memref<1x128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.store %[[STATS]]#1, %[[DELTAS]][%[[STAGE]], %{{.*}}] : memref<1x128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.device_async_wait %[[KGROUP]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
/// Then the visit's edge test and its products.
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: arith.cmpi ult
// CHECK-NEXT: arith.cmpi uge
// CHECK-NEXT: arith.ori
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: } {sdpa.q_loop}
// CHECK-NEXT: nvgpu.device_async_wait %[[KGROUP]] {numGroups = 0 : i32}
func.func @one_stage(%q: tensor<1x2x?x96xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x96xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x96xf16>, tensor<1x2x?x96xf16>, tensor<1x2x?x96xf16>, tensor<1x2x?x96xf16>, tensor<1x2x?x96xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x96xf16>, tensor<1x2x?x96xf16>, tensor<1x2x?x96xf16>
  return %dq : tensor<1x2x?x96xf16>
}
