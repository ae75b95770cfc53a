// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-grad-to-gpu | FileCheck %s

/// d = 40 computes at its mma width 48. By hand, default tiles 64 x 64 and
/// dQ recomputed (a narrow band at d <= 64): the Q, dO, K and V rows in
/// shared memory are 48 + 8 = 56 elements wide in bwd_main and bwd_dq (dS,
/// 64 + 8 = 72); only the 5 blocks of 8 columns of the head dim are stored:
/// bwd_main's dK and dV, 5 blocks x 2 row halves each (20 stores), and
/// bwd_dq's dQ, 5 blocks x 2 row halves x 2 row tiles (20: two m16 row
/// tiles per warp at mma width <= 64, 2 warps). The workspaces and the
/// manifest keep d = 40.
///
/// Shared memory: a 64-row tile is 64 * 56 * 2 = 7168 bytes. bwd_main
/// streams Q, dO and the row stats in 2 stages, bwd_dq K and V (mma width
/// 48 <= 96), both within 166912 bytes:
///   bwd_main: K at 0, V at 7168, Q [2] at 14336, dO [2] at 14336 + 14336 =
///     28672, no dS tile (dQ is recomputed), LSE [2][64] f32 at 43008,
///     Delta at 43008 + 512 = 43520; end 44032.
///   bwd_dq: Q at 0, dO at 7168, K [2] at 14336, V [2] at 28672; end 43008.
// CHECK: head_dim 40\0Atile_q 64\0Atile_kv 64
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 44032\0A
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 43008\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_preprocess
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c7168{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c14336{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c28672{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<64x72xbf16
// CHECK: memref.view %{{.*}}[%c43008{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c43520{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-20: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-LABEL: gpu.func @sdpa_bwd_dq(
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c7168{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c14336{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c28672{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-20: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK: gpu.return
func.func @d40_bwd(%q: tensor<1x2x?x40xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x40xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>
  return %dq : tensor<1x2x?x40xbf16>
}
