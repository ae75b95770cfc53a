// RUN: sdpa-opt %s --split-input-file --convert-sdpa-grad-to-gpu="host-program=false" --canonicalize | FileCheck %s
// RUN: sdpa-opt %s --split-input-file --convert-sdpa-grad-to-gpu="host-program=false dq-mode=accumulate" | FileCheck %s --check-prefix=ACC

/// Not for an accumulated dQ, whose partials are added by query tile.
// ACC-NOT: memref<4x32x72xbf16

/// bwd_main's query windows (BackwardKernelSpec::queryWindows,
/// docs/Semantics.md §3.9) of gpt-oss's band at 64 x 64, 4 warps of 16
/// keys, by hand. Under the transposed band (L' = 0, R' = 127) rho = 0,
/// start_0 = k0, a warp's first window starts at its first key
/// k0 + 16 w, windows = ceil((16 + 127) / 32) = 5, interior
/// [ceil(15 / 32), floor(128 / 32)) = [1, 4). A step reads 3 tiles of 32
/// queries (16 + 48 + 32 keys, rounded up), so Q, dO, LSE and Delta have 4
/// stages, and a head walks 5 + 3 slots: 3 that only fetch, then one
/// window each. A head's windows read tiles tile0 .. tile0 + 6; no tile
/// from the program's q_end (tiles of 64) is read.
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: memref<4x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref<4x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref<4x32xf32, #gpu.address_space<workgroup>>
// CHECK: memref<4x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[QEND:.+]] = affine.max
// CHECK: %[[TILE0:.+]] = arith.divui %[[K0:.+]], %c32 : index
// CHECK: %[[LAST:.+]] = arith.addi %[[TILE0]], %c7 : index
// CHECK-NEXT: %[[READEND:.+]] = arith.muli %[[LAST]], %c32 : index
// CHECK-NEXT: %[[QUERYEND:.+]] = arith.muli %[[QEND]], %c64 : index
// CHECK-NEXT: %[[FETCHEND:.+]] = arith.minui %[[QUERYEND]], %[[READEND]] : index
// CHECK-NEXT: %[[SLOTS:.+]] = arith.muli %{{.+}}, %c8 : index
// CHECK-NEXT: scf.for %[[N:.+]] = %c0 to %[[SLOTS]] step %c1
// CHECK-NEXT: %[[H:.+]] = arith.divui %[[N]], %c8 : index
// CHECK-NEXT: %[[SLOT:.+]] = arith.remui %[[N]], %c8 : index
// CHECK: %[[COMPUTES:.+]] = arith.cmpi uge, %[[SLOT]], %c3 : index
// CHECK-NEXT: %[[HEADSTART:.+]] = arith.cmpi eq, %[[SLOT]], %c0 : index
// CHECK-NEXT: %[[WAITS:.+]] = arith.ori %[[COMPUTES]], %[[HEADSTART]] : i1
// CHECK-NEXT: scf.if %[[WAITS]] {
// CHECK-NEXT: nvgpu.device_async_wait
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[TILE:.+]] = arith.addi %[[TILE0]], %[[SLOT]] : index
// CHECK-NEXT: %[[ROW0:.+]] = arith.muli %[[TILE]], %c32 : index
// CHECK-NEXT: %[[ENABLED:.+]] = arith.cmpi ult, %[[ROW0]], %[[FETCHEND]] : index
// CHECK-NEXT: %[[STAGE:.+]] = arith.remui %[[SLOT]], %c4 : index
/// Window j = slot - 3, masked outside [1, 4).
// CHECK: scf.if %[[COMPUTES]] -> (vector<2x2xf32>
// CHECK-NEXT: %[[J:.+]] = arith.subi %[[SLOT]], %c3 : index
// CHECK: %[[BELOW:.+]] = arith.cmpi ult, %[[J]], %c1 : index
// CHECK-NEXT: %[[ABOVE:.+]] = arith.cmpi uge, %[[J]], %c4 : index
// CHECK-NEXT: %[[EDGE:.+]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
// CHECK: scf.if %[[EDGE]]
// CHECK: } {sdpa.band_mask}
// CHECK: } {sdpa.q_loop}
func.func @gpt_oss_grad(%q: tensor<2x16x?x64xbf16>, %lse: tensor<2x16x?xf32>) -> tensor<2x16x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
  return %dk : tensor<2x16x?x64xbf16>
}

// -----

/// Not for a bottom-right band (its diagonal offset is known at run time
/// only): the query tiles of 64 in two stages.
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: memref<2x64x72xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<4x32x72xbf16
// CHECK: gpu.return
func.func @bottom_right(%q: tensor<2x16x?x64xbf16>, %lse: tensor<2x16x?xf32>) -> tensor<2x16x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
  return %dk : tensor<2x16x?x64xbf16>
}

