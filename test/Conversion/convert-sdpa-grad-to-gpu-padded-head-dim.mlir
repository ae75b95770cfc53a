// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-grad-to-gpu | FileCheck %s

/// d = 40 computes at its mma width 48. By hand, default tiles 64 x 64 and
/// dQ recomputed (a narrow band at d <= 64): the Q, dO, K and V rows in
/// shared memory are 48 + 8 = 56 elements wide in bwd_main and bwd_dq (dS,
/// 64 + 8 = 72); only the 5 blocks of 8 columns of the head dim are stored:
/// bwd_main's dK and dV, 5 blocks x 2 row halves each (20 stores), and
/// bwd_dq's dQ (10). The workspaces and the manifest keep d = 40.
// CHECK: head_dim 40\0Atile_q 64\0Atile_kv 64
// CHECK-LABEL: gpu.func @sdpa_bwd_preprocess
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-COUNT-4: memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-20: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-LABEL: gpu.func @sdpa_bwd_dq(
// CHECK-COUNT-4: memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-10: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK: gpu.return
func.func @d40_bwd(%q: tensor<1x2x?x40xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x40xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>
  return %dq : tensor<1x2x?x40xbf16>
}
