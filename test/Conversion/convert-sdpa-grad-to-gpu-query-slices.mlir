// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s

/// bwd_main's query slices (BackwardKernelSpec::querySlices): on a wide band
/// (causal, d 64, dQ recomputed) the tile rule takes 64 x 64
/// (Analysis/KernelDefaults.h) and bwd_main gives each warp two key row
/// tiles (32 keys): 64 / 32 = 2 warps, 64 threads. S^T and dP^T of 32 keys
/// x 64 queries would take 128 registers a thread, so a visit forms them 32
/// queries at a time: a loop over the slice's first query s = 0, 32 inside
/// the walk, carrying dK and dV (2 row tiles x 8 column blocks each = 32
/// accumulators). The Q B-fragments of slice s come from Q's rows s + lane %
/// 16 of the visit's stage, and each feeds the two row tiles' mma.sync.
// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 64 1 1\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_main(
// CHECK: scf.for
// CHECK: %{{.+}}:32 = scf.for %[[S:[a-z0-9_]+]] = %c0{{(_[0-9]+)?}} to %c64{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} iter_args(
// CHECK: %[[A0:.+]] = nvgpu.ldmatrix %{{.+}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[A1:.+]] = nvgpu.ldmatrix %{{.+}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[ROW0:.+]] = arith.addi %[[S]], %c0{{(_[0-9]+)?}} : index
// CHECK: %[[ROW:.+]] = arith.addi %[[ROW0]], %{{.+}} : index
// CHECK: nvgpu.ldmatrix %{{.+}}[%{{.+}}, %[[ROW]], %{{.+}}] {numTiles = 4 : i32, transpose = false} : memref<2x64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[B0:.+]] = vector.insert %{{.+}}, %{{.+}} [1] : vector<2xf16> into vector<2x2xf16>
// CHECK: %[[B1:.+]] = vector.insert %{{.+}}, %{{.+}} [1] : vector<2xf16> into vector<2x2xf16>
// CHECK-NEXT: nvgpu.mma.sync(%[[A0]], %[[B0]], %{{.+}})
// CHECK-NEXT: nvgpu.mma.sync(%[[A1]], %[[B0]], %{{.+}})
// CHECK: } {sdpa.query_slice_loop}
// CHECK: } {sdpa.q_loop}
func.func @causal(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// On a narrow band (window 128) the 64 x 64 tiles keep one key row tile a
/// warp (as fast, measured): 4 warps, no slices.
// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_main(
// CHECK-NOT: sdpa.query_slice_loop
// CHECK: } {sdpa.q_loop}
func.func @window(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// With a cap the wide band keeps the rule's 32 x 64 (64 x 64 spills): two
/// key row tiles, one slice, so no slice loop.
// CHECK: tile_q 32\0Atile_kv 64
// CHECK: kernel sdpa_bwd_main bwd_main\0Ablock 64 1 1\0A
// CHECK-LABEL: gpu.func @sdpa_bwd_main(
// CHECK-NOT: sdpa.query_slice_loop
// CHECK: } {sdpa.q_loop}
func.func @capped(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 2.0 : f32, deterministic}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}
