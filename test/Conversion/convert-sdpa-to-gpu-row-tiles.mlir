// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=128 tile-kv=32" --convert-sdpa-to-gpu="warps=8 host-program=false" | FileCheck %s --check-prefix=RESIDENT
// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=128 tile-kv=32" --convert-sdpa-to-gpu="warps=4 host-program=false" | FileCheck %s --check-prefix=RELOAD

/// Where the forward's Q A-fragments live (ForwardKernelSpec::
/// queryFragmentsResident). head_dim 64 is 4 k16 blocks; a Q tile of 128
/// rows is 8 m16 row tiles.
///
/// 8 warps: one row tile per warp, its 4 fragments loaded once before the
/// key loops and held in registers; no Q load inside a loop.
// RESIDENT: gpu.func @sdpa_fwd_0
// RESIDENT-SAME: known_block_size = array<i32: 256, 1, 1>
// RESIDENT-COUNT-4: nvgpu.ldmatrix %{{.+}} : memref<128x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// RESIDENT: scf.for
// RESIDENT-NOT: memref<128x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// RESIDENT: gpu.return
///
/// 4 warps: two row tiles per warp; nothing loaded from Q before the first
/// key loop, and each key step loads 2 x 4 = 8 Q fragments (k16 block by
/// k16 block, before the K fragments of that block) ahead of P V (the
/// transposed V loads).
// RELOAD: gpu.func @sdpa_fwd_0
// RELOAD-SAME: known_block_size = array<i32: 128, 1, 1>
// RELOAD-NOT: memref<128x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// RELOAD: scf.for
// RELOAD-COUNT-8: nvgpu.ldmatrix %{{.+}} : memref<128x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// RELOAD-NOT: memref<128x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// RELOAD: transpose = true
// RELOAD-NOT: memref<128x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// RELOAD: scf.yield
func.func @window(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 1023, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}
