// RUN: %sdpa_opt %s --split-input-file --sdpa-derive-bounds="tile-q=64 tile-kv=32" --convert-sdpa-to-gpu="host-program=false" --canonicalize | FileCheck %s

/// The warp windows (ForwardKernelSpec::warpWindows, docs/Semantics.md
/// §3.9) of gpt-oss's band at 64 x 32, 4 warps of 16 rows, by hand:
/// rho = (0 - 127) mod 16 = 1, start_0 = q0 - 127 - 1 = q0 - 128,
/// windows = ceil((16 + 127 + 1) / 32) = 5, interior
/// [ceil((15 + 1) / 32), floor((127 + 1 + 1) / 32)) = [1, 4); the last
/// warp's windows end at q0 - 128 + 48 + 5 * 32 = q0 + 80. A step reads 3
/// key tiles (a window starts 0 or 16 keys into a tile, the warps' windows
/// 16 keys apart: 16 + 48 + 32 keys), so K and V have 4 stages.
// CHECK-LABEL: gpu.func @sdpa_fwd_0
// CHECK: %[[Q0:.+]] = arith.muli %block_id_x, %c64 : index
// CHECK: memref<4x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref<4x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[START0:.+]] = arith.subi %[[Q0]], %c128 : index
// CHECK-NEXT: %[[END:.+]] = arith.addi %[[Q0]], %c80 : index
// CHECK-NEXT: %[[BEFORE:.+]] = arith.cmpi slt, %[[START0]], %c0 : index
// CHECK-NEXT: %[[PAST:.+]] = arith.cmpi sgt, %[[END]], %{{.+}} : index
// CHECK-NEXT: %[[CLIPPED:.+]] = arith.ori %[[BEFORE]], %[[PAST]] : i1
/// A clipped program: its 5 windows, each tested against the band and Skv.
// CHECK: scf.if %[[CLIPPED]]
// CHECK: scf.for %{{.+}} = %c0 to %c5 step %c1
// CHECK: } {sdpa.key_tail, sdpa.masked}
/// The others: window 0 masked and from the initial state (one step of its
/// own, without the rescale of O and l and its vote), windows 1-3 unmasked,
/// window 4 masked. The steps read tiles 0 .. 6; window j copies tile j + 3
/// (K and V, 2 16-byte chunks each a thread), so window 4 copies nothing.
// CHECK: } else {
// CHECK-NOT: nvvm.vote.sync
// CHECK-NOT: scf.for
// CHECK: scf.for %{{.+}} = %c1 to %c4 step %c1
// CHECK-COUNT-4: nvgpu.device_async_copy
// CHECK: } {sdpa.interior}
// CHECK-NOT: scf.for
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: gpu.return
func.func @gpt_oss(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}

// -----

/// Bottom-right (rho at run time) keeps the program's key tiles in 2
/// stages: the windows took this kernel with sinks to 134 registers for
/// sm_90 (bench/RESULTS.md, 2026-12-06).
// CHECK-LABEL: gpu.func @sdpa_fwd_0
// CHECK: memref<2x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<4x32x72xbf16
// CHECK: gpu.return
func.func @bottom_right(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}

// -----

/// A window of 32 keys (fewer than 4 key tiles) keeps them too: the walk
/// spilled 24 bytes there for sm_80.
// CHECK-LABEL: gpu.func @sdpa_fwd_0
// CHECK: memref<2x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<4x32x72xbf16
// CHECK: gpu.return
func.func @window_32(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 31, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}
