// RUN: %sdpa_opt %s --convert-sdpa-to-gpu="host-program=false" | FileCheck %s
// RUN: %sdpa_opt %s --convert-sdpa-to-gpu | FileCheck %s --check-prefix=HOST

/// Attention sinks (docs/Semantics.md §7) in the forward kernel: the
/// manifest records them (`sinks 1`, the kernel's `sinks` pointer after lse);
/// the kernel loads sinks[h] (h = blockIdx.y), starts every row's running max
/// at sinks[h] * log2(e) and adds the sink column's share exp2(s' - m) to the
/// quad-reduced sum before O = acc / l and LSE = sink + (m - s' + log2 l) ln 2
/// (exactly the sink for a row without a visible key). GQA (8
/// query heads over 2) and THD take the same path. Tiles are the default
/// tile rule's: 64 x 32 for the 128-key window at d 64, 128 x 32 for the
/// unbounded THD band at d 128.
// CHECK: sdpa_fwd_0 = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 32\0Aband 127 0 top_left\0Ascale 0.125\0Avarlen 0\0Asinks 1\0Akernel sdpa_fwd_0 forward\0A{{.*}}param lse ptr\0Aparam sinks ptr\0Aparam seq_q i32
// CHECK-SAME: sdpa_fwd_1 = "sdpa-artifact 1\0Adirection forward\0Adtype bf16\0Ahead_dim 128\0Atile_q 128\0Atile_kv 32\0Aband inf inf bottom_right\0Ascale 0.088388347648318433\0Avarlen 1\0Asinks 1\0Akernel sdpa_fwd_1 forward\0A{{.*}}param lse ptr\0Aparam sinks ptr\0Aparam cu_seqlens_q ptr\0Aparam cu_seqlens_kv ptr\0Aparam seq_q i32

// CHECK-LABEL: func.func @gqa
func.func @gqa(%q: tensor<1x8x?x64xf16>, %k: tensor<1x2x?x64xf16>, %s: tensor<8xf32>) -> tensor<1x8x?x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k sinks(%s : tensor<8xf32>) {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x8x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
      -> tensor<1x8x?x64xf16>, tensor<1x8x?xf32>
  return %o : tensor<1x8x?x64xf16>
}

// CHECK-LABEL: func.func @thd
func.func @thd(%q: tensor<?x4x128xbf16>, %k: tensor<?x4x128xbf16>, %cu: tensor<3xi32>, %s: tensor<4xf32>) -> tensor<?x4x128xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>) sinks(%s : tensor<4xf32>)
      {layout = #sdpa.layout<thd>, mask = #sdpa.band<left = inf, right = inf, align = bottom_right>}
      : tensor<?x4x128xbf16>, tensor<?x4x128xbf16>, tensor<?x4x128xbf16>
      -> tensor<?x4x128xbf16>, tensor<4x?xf32>
  return %o : tensor<?x4x128xbf16>
}

// CHECK: gpu.func @sdpa_fwd_0(%{{.+}}: memref<{{[0-9]+}}xf16>, %{{.+}}: memref<{{[0-9]+}}xf16>, %{{.+}}: memref<{{[0-9]+}}xf16>, %{{.+}}: memref<{{[0-9]+}}xf16>, %{{.+}}: memref<{{[0-9]+}}xf32>, %[[SINKS:.+]]: memref<{{[0-9]+}}xf32>, %{{.+}}: i32,
// CHECK: %[[HEAD:.+]] = gpu.block_id y
// CHECK-DAG: %[[SINK:.+]] = memref.load %[[SINKS]][%[[HEAD]]]
// CHECK-DAG: %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK: %[[SINK2:.+]] = arith.mulf %[[SINK]], %[[LOG2E]] : f32
/// (gpt-oss's band: the warp windows, docs/Semantics.md §3.9; a clipped
/// program walks its windows with the key test, the others in three loops.)
// CHECK: %[[LOOP:.+]]:12 = scf.if
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[SINK2]], %{{.+}} = %[[SINK2]], %{{.+}} = %[[ZERO:[^,]+]], %{{.+}} = %[[ZERO]],
// CHECK: } {sdpa.key_tail, sdpa.masked}
/// The others walk window 0 (masked, from the initial state) on its own,
/// then the interior and the last window.
// CHECK: } else {
// CHECK: scf.for
// CHECK: } {sdpa.interior}
// CHECK: } {sdpa.masked}
// CHECK: gpu.shuffle {{ *}}xor %[[LOOP]]#2,
// CHECK: gpu.shuffle {{ *}}xor
// CHECK-NEXT: %[[PARTIAL:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: %[[NOMAX:.+]] = arith.cmpf oeq, %[[LOOP]]#0, %[[NEGINF:.+]] : f32
// CHECK: %[[GAP:.+]] = arith.subf %[[SINK2]], %[[LOOP]]#0 : f32
// CHECK: %[[SHARE:.+]] = math.exp2 %[[GAP]] : f32
// CHECK: %[[KEPT:.+]] = arith.select %[[NOMAX]], %{{.+}}, %[[SHARE]] : f32
// CHECK: %[[SUM:.+]] = arith.addf %[[PARTIAL]], %[[KEPT]] : f32
// CHECK: arith.divf %{{.+}}, %[[SUM]] : f32
/// log2 l by the hardware's approximation (docs/Semantics.md §2.5).
// CHECK: %[[LOG:.+]] = math.log2 %[[SUM]] fastmath<afn> : f32
// CHECK: %[[GAP2:.+]] = arith.subf %[[LOOP]]#0, %[[SINK2]] : f32
// CHECK: %[[E2:.+]] = arith.addf %[[GAP2]], %[[LOG]] : f32
// CHECK: %[[E:.+]] = arith.mulf %[[E2]], %{{.+}} : f32
// CHECK: arith.addf %[[SINK]], %[[E]] : f32
// CHECK: gpu.return

// CHECK: gpu.func @sdpa_fwd_1(
// CHECK: memref.load %{{.+}}[%{{.+}}] : memref<{{[0-9]+}}xf32>
// CHECK: math.exp2
// CHECK: gpu.return

/// The host program passes the sinks' buffer as the kernel's sinks operand.
// HOST-LABEL: func.func @gqa
// HOST: %[[SBUF:.+]] = bufferization.to_buffer %arg2
// HOST: %[[SFLAT:.+]] = memref.reinterpret_cast %[[SBUF]]
// HOST: gpu.launch_func @sdpa_fwd_0::@sdpa_fwd_0 {{.+}} args(%{{[^ ]+}} : memref<{{[0-9]+}}xf16>, %{{[^ ]+}} : memref<{{[0-9]+}}xf16>, %{{[^ ]+}} : memref<{{[0-9]+}}xf16>, %{{[^ ]+}} : memref<{{[0-9]+}}xf16>, %{{[^ ]+}} : memref<{{[0-9]+}}xf32>, %[[SFLAT]] : memref<{{[0-9]+}}xf32>,
