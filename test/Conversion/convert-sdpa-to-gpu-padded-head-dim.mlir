// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-to-gpu | FileCheck %s

/// d = 40, an odd multiple of 8, computes at its mma width 48 (40 rounded up
/// to the mma.sync k-step 16). By hand, default tiles 64 x 32 (narrow band):
/// every shared row holds 48 + 8 (bank padding) = 56 elements. A row's 6
/// chunks of 8 are copied as a segment of 4 (chunk tid % 4, rows tid / 4 and
/// 32 more: 2 copies a thread) and one of 2 (chunk 4 + tid % 2, rows tid / 2:
/// 1 copy), the second tested against the head dim's 5 chunks, so chunk 5
/// (columns 40..47) is zero-filled through its source size; of the 6
/// accumulator blocks of 8 columns per row only 5 are stored (one row tile a
/// warp, two row halves: 10 stores, not 12).
// CHECK: head_dim 40\0Atile_q 64\0Atile_kv 32
// CHECK-LABEL: gpu.func @sdpa_fwd_0
// CHECK: memref<64x56xf16, #gpu.address_space<workgroup>>
/// K and V in 4 stages: the warp windows of the band (docs/Semantics.md
/// §3.9) read 3 key tiles a step and copy a fourth.
// CHECK: memref<4x32x56xf16, #gpu.address_space<workgroup>>
// CHECK: memref<4x32x56xf16, #gpu.address_space<workgroup>>
/// The Q tile: the segment of 4, two copies, no padding test.
// CHECK: arith.remui %thread_id_x, %c4{{.*}} : index
// CHECK: arith.divui %thread_id_x, %c4{{.*}} : index
// CHECK-NOT: arith.cmpi ult
// CHECK: nvgpu.device_async_copy %arg0
// CHECK-NOT: arith.cmpi ult
// CHECK: nvgpu.device_async_copy %arg0
/// The segment of 2: one copy, tested against chunk 5.
// CHECK: %[[LOW:.*]] = arith.remui %thread_id_x, %c2{{.*}} : index
// CHECK: %[[COL:.*]] = arith.addi %c4{{.*}}, %[[LOW]] : index
// CHECK: arith.divui %thread_id_x, %c2{{.*}} : index
// CHECK: arith.cmpi ult, %[[COL]], %c5{{(_[0-9]+)?}} : index
// CHECK: nvgpu.device_async_copy %arg0
// CHECK-SAME: to memref<64x56xf16
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-COUNT-10: vector.store {{.*}} : memref<1099511627776xf16>, vector<2xf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xf16>, vector<2xf16>
// CHECK: gpu.return
func.func @d40(%q: tensor<1x2x?x40xf16>) -> tensor<1x2x?x40xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x40xf16>, tensor<1x2x?x40xf16>, tensor<1x2x?x40xf16> -> tensor<1x2x?x40xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x40xf16>
}
