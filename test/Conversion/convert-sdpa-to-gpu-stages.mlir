// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=64 tile-kv=32" --convert-sdpa-to-gpu="host-program=false stages=3" | FileCheck %s

/// Three shared stages of K and V: the views are 3 x 32 x 72, the prologue
/// issues Q with K(kv_begin), V(kv_begin), then K and V of kv_begin + 1 (a
/// group each, stage (kv_begin + 1) mod 3), and waits with 2 * 3 - 3 = 3
/// groups left in flight (V(kv_begin) and the next tile's two). Each step u
/// waits the same way, reads stage u mod 3 and copies K and V of u + 2 into
/// stage (u + 2) mod 3, which every warp left at the barrier before.
// CHECK: gpu.func @sdpa_fwd_0
// CHECK: memref.view %{{.+}} to memref<3x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.+}} to memref<3x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[FIRST:.+]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_create_group
// CHECK: %[[NEXT:.+]] = arith.addi %[[BEGIN:[^ ]+]], %c1 : index
// CHECK: %{{.+}} = arith.remui %[[NEXT]], %c3{{.*}} : index
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[FIRST]] {numGroups = 3 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for %[[U:.+]] = %[[BEGIN]] to
// CHECK-NEXT: %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[STAGE:.+]] = arith.remui %[[U]], %[[C3]] : index
// CHECK-NEXT: %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[AHEAD:.+]] = arith.addi %[[U]], %[[C2]] : index
// CHECK-NEXT: %[[AHEADSTAGE:.+]] = arith.remui %[[AHEAD]], %[[C3]] : index
// CHECK-NEXT: nvgpu.device_async_wait %[[FIRST]] {numGroups = 3 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %{{.+}}, %{{.+}}[%[[AHEADSTAGE]], %{{.+}}, %{{.+}}], 8
// CHECK: nvgpu.ldmatrix %{{.+}}[%[[STAGE]],
// CHECK: nvgpu.device_async_wait %[[FIRST]] {numGroups = 3 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy %{{.+}}, %{{.+}}[%[[AHEADSTAGE]], %{{.+}}, %{{.+}}], 8
// CHECK: } {sdpa.masked}
// CHECK: gpu.return
func.func @window(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}
