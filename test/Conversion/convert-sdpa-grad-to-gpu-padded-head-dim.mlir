// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-grad-to-gpu | FileCheck %s

/// d = 40 computes at its mma width 48. By hand, default tiles 64 x 64 and
/// dQ recomputed (a narrow band at d <= 64): the Q, dO, K and V rows in
/// shared memory are 48 + 8 = 56 elements wide in bwd_main and bwd_dq (dS,
/// 64 + 8 = 72); only the 5 blocks of 8 columns of the head dim are stored:
/// bwd_main's dK and dV, 5 blocks x 2 row halves each (20 stores), and
/// bwd_dq's dQ, 5 blocks x 2 row halves x 2 row tiles (20: two m16 row
/// tiles per warp at mma width <= 64, 2 warps). The workspaces and the
/// manifest keep d = 40. Without sinks there is no bwd_preprocess: bwd_dq,
/// the first kernel, forms Delta = rowsum(dO * O) itself, over the 5 chunks
/// of 8 columns a row only (below), and bwd_main follows.
///
/// Shared memory: a 64-row tile is 64 * 56 * 2 = 7168 bytes. bwd_main
/// streams Q, dO and the row stats in 2 stages, bwd_dq K and V (mma width
/// 48 <= 96), both within 166912 bytes:
///   bwd_main: K at 0, V at 7168, Q [2] at 14336, dO [2] at 14336 + 14336 =
///     28672, dS (64 * 72 * 2 = 9216) at 43008, LSE [2][64] f32 at 52224,
///     Delta at 52224 + 512 = 52736; end 53248.
///   bwd_dq: Q at 0, dO at 7168, K [2] at 14336, V [2] at 28672; end 43008.
// CHECK: head_dim 40\0Atile_q 64\0Atile_kv 64
// CHECK-SAME: \0Adeterministic 0\0Akernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 43008\0A
// CHECK-NOT: \0Akernel
// CHECK-SAME: \0Akernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 53248\0A
// CHECK-NOT: \0Akernel
// CHECK-SAME: \0Aparam lse_stride_h i64\0A"}
// CHECK-NOT: sdpa_bwd_preprocess
// CHECK-LABEL: gpu.func @sdpa_bwd_dq(
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c7168{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c14336{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c28672{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
/// Delta (after the first key tile's fetch): a row's 5 chunks over 8 lanes
/// (the power of two above 5), chunk min(lane mod 8, 4), so that a 16-byte
/// load reads columns 32 to 39 at most, never the padding; lanes 5 to 7
/// load that chunk again and drop their products (lane mod 8 < 5).
// CHECK: %[[LIR:.+]] = arith.remui %{{.+}}, %c8{{(_[0-9]+)?}} : index
// CHECK: %[[HAS:.+]] = arith.cmpi ult, %[[LIR]], %c5{{(_[0-9]+)?}} : index
// CHECK: %[[CHUNK:.+]] = arith.minui %[[LIR]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT: %c8{{(_[0-9]+)?}} = arith.constant 8 : index
// CHECK-NEXT: %[[COL:.+]] = arith.muli %[[CHUNK]], %c8{{(_[0-9]+)?}} : index
// CHECK: %[[OAT:.+]] = arith.addi %{{.+}}, %[[COL]] : index
// CHECK-NEXT: vector.load %arg3[%[[OAT]]] {alignment = 16 : i64} : memref<1099511627776xbf16>, vector<8xbf16>
// CHECK-NEXT: %[[DOAT:.+]] = arith.addi %{{.+}}, %[[COL]] : index
// CHECK-NEXT: vector.load %arg4[%[[DOAT]]] {alignment = 16 : i64} : memref<1099511627776xbf16>, vector<8xbf16>
// CHECK: %[[SUM:.+]] = vector.reduction <add>, %{{.+}} : vector<8xf32> into f32
// CHECK-NEXT: %[[PART:.+]] = arith.addf %{{.+}}, %[[SUM]] : f32
// CHECK-NEXT: %[[COUNTED:.+]] = arith.andi %{{.+}}, %[[HAS]] : i1
// CHECK-NEXT: arith.select %[[COUNTED]], %[[PART]], %{{.+}} : f32
// CHECK: memref.store %{{.+}}, %arg6[%{{.+}}] : memref<1099511627776xf32>
// CHECK: } {sdpa.kv_loop}
// CHECK-COUNT-20: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c7168{{(_[0-9]+)?}}][] : {{.*}} to memref<64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c14336{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c28672{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c43008{{(_[0-9]+)?}}][] : {{.*}} to memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c52224{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c52736{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}} to memref<2x64x56xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-20: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK-NOT: vector.store {{.*}} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK: gpu.return
// CHECK-NOT: gpu.func
func.func @d40_bwd(%q: tensor<1x2x?x40xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x40xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>
  return %dq : tensor<1x2x?x40xbf16>
}
