// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-to-gpu | FileCheck %s

/// d = 40, an odd multiple of 8, computes at its mma width 48 (40 rounded up
/// to the mma.sync k-step 16). By hand, default tiles 64 x 32 (narrow band):
/// every shared row holds 48 + 8 (bank padding) = 56 elements; a row is 6
/// chunks of 8, walked at a pitch of 8 chunks (the power of two at or above
/// 6), so a thread whose chunk is 6 or 7 issues no copy, and chunk 5
/// (columns 40..47) is zero-filled through its source size (the head dim is
/// 5 chunks); of the 6 accumulator blocks of 8 columns per row only 5 are
/// stored (one row tile a warp, two row halves: 10 stores, not 12).
// CHECK: head_dim 40\0Atile_q 64\0Atile_kv 32
// CHECK-LABEL: gpu.func @sdpa_fwd_0
// CHECK: memref<64x56xf16, #gpu.address_space<workgroup>>
// CHECK: memref<2x32x56xf16, #gpu.address_space<workgroup>>
// CHECK: memref<2x32x56xf16, #gpu.address_space<workgroup>>
/// The Q tile: 64 rows x 8 chunks over 128 threads, 4 rounds.
// CHECK-COUNT-4: arith.cmpi ult, %[[COL:.*]], %c6{{.*}} : index
// CHECK-NEXT: scf.if
// CHECK: arith.cmpi ult, %[[COL]], %c5 : index
// CHECK: nvgpu.device_async_copy %arg0
// CHECK-SAME: to memref<64x56xf16
// CHECK-COUNT-10: vector.store {{.*}} : memref<1099511627776xf16>, vector<2xf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xf16>, vector<2xf16>
// CHECK: gpu.return
func.func @d40(%q: tensor<1x2x?x40xf16>) -> tensor<1x2x?x40xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x40xf16>, tensor<1x2x?x40xf16>, tensor<1x2x?x40xf16> -> tensor<1x2x?x40xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x40xf16>
}
