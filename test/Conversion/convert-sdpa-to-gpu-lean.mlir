// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=64 tile-kv=32" --convert-sdpa-to-gpu="host-program=false" | FileCheck %s
// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=64 tile-kv=64" --convert-sdpa-to-gpu="host-program=false" | FileCheck %s --check-prefix=FULL

/// The lean key steps (ForwardKernelSpec::leanSteps, docs/Semantics.md §2.6):
/// gpt-oss's band at 64 x 32, one row tile a warp, d 64, no occupancy pin.
/// A K copy in the walk tests its row against the rows left, Skv - k0, and
/// forms its source from the unclamped row, base + (k0 + row) * stride +
/// column, replaced where the row is not copied (an affine source that LLVM
/// advances by an add a tile).
// CHECK: gpu.func @sdpa_fwd_0
// CHECK: scf.for
// CHECK: %[[LEFT:.+]] = arith.subi %{{.+}}, %[[K0:.+]] : index
// CHECK: %[[IN:.+]] = arith.cmpi slt, %[[ROW:.+]], %[[LEFT]] : index
// CHECK-NEXT: %[[VALID:.+]] = arith.andi %[[IN]], %{{.+}} : i1
// CHECK-NEXT: arith.select %[[VALID]], %{{.+}}, %{{.+}} : index
// CHECK-NEXT: %[[GROW:.+]] = arith.addi %[[K0]], %[[ROW]] : index
// CHECK-NEXT: %[[OFF:.+]] = arith.muli %[[GROW]], %{{.+}} : index
// CHECK-NEXT: %[[SRC0:.+]] = arith.addi %{{.+}}, %[[OFF]] : index
// CHECK-NEXT: %[[SRC:.+]] = arith.addi %[[SRC0]], %{{.+}} : index
// CHECK-NEXT: %[[AT:.+]] = arith.select %[[VALID]], %[[SRC]], %{{.+}} : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.+}}[%[[AT]]]
/// The band test of a masked tile: diff + L truncated to i32 (within a tile
/// of [0, L + R]), one unsigned i32 compare a cell.
// CHECK: %[[ROOM:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK: %[[W:.+]] = arith.constant 127 : i32
// CHECK-NEXT: arith.cmpi ule, %[[ROOM]], %[[W]] : i32
/// An unmasked tile: every row sees a key, so no -inf test of the max.
// CHECK: scf.for
// CHECK-NOT: arith.cmpf oeq
// CHECK-NOT: arith.index_cast %{{.+}} : index to i32
// CHECK: } {sdpa.interior}
// CHECK: } {sdpa.masked}
// CHECK: gpu.return
///
/// Key tiles of 64 are not lean (gpt-oss's band at 128 x 64 with 8 warps
/// spilled): the band test stays in index, the rows are clamped before the
/// multiply, and unmasked tiles keep the -inf test.
// FULL: gpu.func @sdpa_fwd_0
// FULL-NOT: arith.index_cast %{{.+}} : index to i32
// FULL: arith.cmpi ule, %{{.+}}, %{{.+}} : index
// FULL: } {sdpa.masked}
// FULL: arith.cmpf oeq
// FULL: } {sdpa.interior}
func.func @window(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}
