// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64" | FileCheck %s

/// At 64 x 64 (mma width 128, a wide band, key tiles of at most 64) each
/// bwd_dq warp holds two m16 row tiles (BackwardKernelSpec::dqHoldsWideRows):
/// 2 warps. By hand (rows of 128 + 8 halves): Q, dO [64][136] (17408 bytes
/// each) at 0 and 17408; K, V one stage of [64][136] at 34816 and 52224;
/// 69632 bytes. (bwd_main, 4 warps of 16 keys, 2 query stages:
/// 2 * 17408 + 2 * 2 * 17408 + 2 * 2 * 64 * 4 = 105472.)
// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 105472\0A
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 69632\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_dq(
// CHECK: %[[QS:.*]] = memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x136xf16, #gpu.address_space<workgroup>>
// CHECK: %[[DOS:.*]] = memref.view %{{.*}}[%c17408{{(_[0-9]+)?}}][] : {{.*}} to memref<64x136xf16, #gpu.address_space<workgroup>>
// CHECK: %[[KS:.*]] = memref.view %{{.*}}[%c34816{{(_[0-9]+)?}}][] : {{.*}} to memref<1x64x136xf16, #gpu.address_space<workgroup>>
// CHECK: %[[VS:.*]] = memref.view %{{.*}}[%c52224{{(_[0-9]+)?}}][] : {{.*}} to memref<1x64x136xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: gpu.barrier
/// The key tile in 2 chunks of 32 keys. A chunk's S whole: per k16 block of
/// head_dim, the A fragments of both row tiles (Q) and K's B fragments two
/// 8-key blocks per ldmatrix x4; 2 row tiles x 4 key blocks x 8 k16 blocks
/// = 64 products.
// CHECK: nvgpu.ldmatrix %[[QS]]
// CHECK: nvgpu.ldmatrix %[[KS]][%{{.*}}, %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-64: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
/// dP of the chunk's first 16 keys only: 2 x 2 x 8 = 32 products.
// CHECK: nvgpu.ldmatrix %[[DOS]]
// CHECK: nvgpu.ldmatrix %[[VS]][%{{.*}}, %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-32: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
/// P and dS of those 16 keys, then dQ += dS K over them: K^T fragments two
/// 8-column blocks per transposed ldmatrix x4, 2 row tiles x 16 column
/// blocks = 32 products.
// CHECK: math.exp2
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvgpu.ldmatrix %[[KS]][%{{.*}}, %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-32: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
/// Then dP of the next 16 keys.
// CHECK: nvgpu.ldmatrix %[[DOS]]
// CHECK: } {sdpa.kv_loop}
func.func @wide(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}
