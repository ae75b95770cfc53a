// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=64 tile-kv=32" --convert-sdpa-to-gpu="host-program=false" | FileCheck %s
// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=128 tile-kv=32" --convert-sdpa-to-gpu="warps=4 host-program=false" | FileCheck %s --check-prefix=TWO

/// The forward's reference row max (docs/Semantics.md §2.6): per owned row,
/// m moves to the tile's scaled max t only when t > m + 8, and O and the
/// row sums l are multiplied by alpha in a branch that a warp takes when any
/// of its rows moves (nvvm.vote.sync any over the or of the thread's two
/// rows); alpha, exp2(m - base) where the row moves and exactly 1 where it
/// does not, is formed in the branch only. Outside it l only adds the tile's
/// sum, which starts at the row's first P. head_dim 64 at 4 warps: one row
/// tile a warp, 8 accumulator fragments a thread.
// CHECK: gpu.func @sdpa_fwd_0
// CHECK: scf.for {{.+}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}},
// CHECK: %[[EIGHT:.+]] = arith.constant 8.000000e+00 : f32
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[T0:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[LIM0:.+]] = arith.addf %[[M0]], %[[EIGHT]] : f32
// CHECK-NEXT: %[[G0:.+]] = arith.cmpf ogt, %[[T0]], %[[LIM0]] : f32
// CHECK-NEXT: %[[NEW0:.+]] = arith.select %[[G0]], %[[T0]], %[[M0]] : f32
// CHECK: %[[BASE0:.+]] = arith.select %{{.+}}, %{{.+}}, %[[NEW0]] : f32
// CHECK: %[[G1:.+]] = arith.cmpf ogt, %{{.+}}, %{{.+}} : f32
// CHECK: %[[ANY:.+]] = arith.ori %[[G0]], %[[G1]] : i1
// CHECK: %[[WARP:.+]] = nvvm.vote.sync  any %{{.+}}, %[[ANY]] -> i1
// CHECK-NEXT: %[[R:.+]]:10 = scf.if %[[WARP]] -> (vector<2x2xf32>
// CHECK-NEXT: %[[D0:.+]] = arith.subf %[[M0]], %[[BASE0]] : f32
// CHECK-NEXT: %[[E0:.+]] = math.exp2 %[[D0]] : f32
// CHECK-NEXT: %[[A0:.+]] = arith.select %[[G0]], %[[E0]], %[[ONE]] : f32
// CHECK: %[[A1:.+]] = arith.select %[[G1]], %{{.+}}, %[[ONE]] : f32
// CHECK-NEXT: %[[F:.+]] = vector.from_elements %[[A0]], %[[A0]], %[[A1]], %[[A1]] : vector<2x2xf32>
// CHECK-COUNT-8: arith.mulf %{{.+}}, %[[F]] : vector<2x2xf32>
// CHECK-NEXT: arith.mulf %[[L0]], %[[A0]] : f32
// CHECK-NEXT: arith.mulf %[[L1]], %[[A1]] : f32
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}}, %[[L0]], %[[L1]] : vector<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[NB0:.+]] = arith.negf %[[BASE0]] : f32
// CHECK-NEXT: %[[X0:.+]] = math.fma %{{.+}}, %{{.+}}, %[[NB0]] : f32
// CHECK-NEXT: %[[P0:.+]] = math.exp2 %[[X0]] : f32
// CHECK-NEXT: %[[X1:.+]] = math.fma %{{.+}}, %{{.+}}, %[[NB0]] : f32
// CHECK-NEXT: %[[P1:.+]] = math.exp2 %[[X1]] : f32
// CHECK-NEXT: arith.addf %[[P0]], %[[P1]] : f32
// CHECK: gpu.return
///
/// Two row tiles a warp (ForwardKernelSpec::lazyRescale is false): m is the
/// running max, alpha = exp2(m - base) unselected, and all 16 accumulator
/// fragments are multiplied every key tile, with no vote and no branch.
/// On this narrow d 64 band neither kernel's exponentials are marked afn
/// (ForwardKernelSpec::flushExponentials: flushing was measured slower
/// there).
// TWO: gpu.func @sdpa_fwd_0
// TWO-NOT: nvvm.vote.sync
// TWO-NOT: arith.constant 8.000000e+00 : f32
// TWO: scf.for {{.+}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}},
// TWO: %[[T0:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// TWO-NEXT: %[[NEW0:.+]] = arith.maxnumf %[[M0]], %[[T0]] : f32
// TWO-NEXT: %[[NOKEY0:.+]] = arith.cmpf oeq, %[[NEW0]], %{{.+}} : f32
// TWO-NEXT: %[[BASE0:.+]] = arith.select %[[NOKEY0]], %{{.+}}, %[[NEW0]] : f32
// TWO-NEXT: %[[D0:.+]] = arith.subf %[[M0]], %[[BASE0]] : f32
// TWO-NEXT: math.exp2 %[[D0]] : f32
// TWO-NEXT: arith.negf %[[BASE0]] : f32
// TWO: vector.from_elements {{.+}} : vector<2x2xf32>
// TWO-COUNT-8: arith.mulf %{{.+}}, %{{.+}} : vector<2x2xf32>
// TWO-NEXT: vector.from_elements {{.+}} : vector<2x2xf32>
// TWO-COUNT-8: arith.mulf %{{.+}}, %{{.+}} : vector<2x2xf32>
// TWO-NOT: scf.if
// TWO: scf.yield
// TWO-NOT: nvvm.vote.sync
// TWO: gpu.return
func.func @window(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}
