// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="host-program=false dq-mode=accumulate" | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=accumulate" | FileCheck %s --check-prefix=HOST

/// Attention sinks in the backward (docs/Semantics.md §7): bwd_main is
/// unchanged (the forward's LSE holds the sink); bwd_preprocess writes
/// dsink_partials[(b Hq + h) T + t] = sum over its rows of
/// exp2(sink log2(e) - LSE log2(e)) Delta, summed by a fixed-order block
/// reduction (xor butterfly, then the warps in order through a workgroup
/// buffer); bwd_dq_convert's program (0, h, 0) sums head h's B T partials
/// the same way and stores grad_sinks[h] = -total. GQA (8 query heads over
/// 2), deterministic; the tiles are the default tile rule's for a 128-key
/// band at d 64, 64 x 64.
// CHECK: sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 127 0 bottom_right\0Ascale 0.125\0Avarlen 0\0Asinks 1\0Adeterministic 1\0Akernel sdpa_bwd_preprocess bwd_preprocess\0A{{.*}}param dq_accum ptr\0Aparam lse ptr\0Aparam sinks ptr\0Aparam dsink_partials ptr\0Aparam relay_counters ptr\0A{{.*}}param lse_stride_h i64\0Akernel sdpa_bwd_main
// CHECK-SAME: kernel sdpa_bwd_dq_convert bwd_dq_convert\0A{{.*}}param dq ptr\0Aparam dsink_partials ptr\0Aparam grad_sinks ptr\0A

// CHECK-LABEL: func.func @gqa
func.func @gqa(%q: tensor<1x8x?x64xf16>, %k: tensor<1x2x?x64xf16>, %lse: tensor<1x8x?xf32>, %s: tensor<8xf32>) -> tensor<8xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %k, %k, %q, %q, %lse sinks(%s : tensor<8xf32>) {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, deterministic}
      : tensor<1x8x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?xf32>
      -> tensor<1x8x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<8xf32>
  return %ds : tensor<8xf32>
}

// CHECK: gpu.func @sdpa_bwd_preprocess({{.+}}) workgroup(%[[WG:.+]] : memref<4xf32, #gpu.address_space<workgroup>>) kernel
// CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<{{[0-9]+}}xf32>
// CHECK: %[[SINK:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<{{[0-9]+}}xf32>
// CHECK: %[[SINK2:.+]] = arith.mulf %[[SINK]], %[[LOG2E:.+]] : f32
// CHECK: %[[TERM:.+]] = scf.if
// CHECK: %[[DELTA:.+]] = memref.load
// CHECK: %[[LSE:.+]] = memref.load
// CHECK: %[[LSE2:.+]] = arith.mulf %[[LSE]], %[[LOG2E]] : f32
// CHECK: %[[ARG:.+]] = arith.subf %[[SINK2]], %[[LSE2]] : f32
// CHECK: %[[SHARE:.+]] = math.exp2 %[[ARG]] : f32
// CHECK: %[[FINITE:.+]] = arith.cmpf ogt, %[[LSE]], %{{.+}} : f32
// CHECK: %[[PROD:.+]] = arith.mulf %[[SHARE]], %[[DELTA]] : f32
// CHECK: %[[KEPT:.+]] = arith.select %[[FINITE]], %[[PROD]], %{{.+}} : f32
// CHECK: scf.yield %[[KEPT]] : f32
// CHECK-COUNT-5: gpu.shuffle {{ *}}xor
// CHECK: memref.store %{{.+}}, %[[WG]][%{{.+}}] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %[[WG]]
// CHECK: gpu.grid_dim x
// CHECK: gpu.return

// CHECK: gpu.func @sdpa_bwd_main(
// CHECK-NOT: workgroup(
// CHECK: gpu.return

// CHECK: gpu.func @sdpa_bwd_dq_convert({{.+}}) workgroup(%[[WG2:.+]] : memref<4xf32, #gpu.address_space<workgroup>>) kernel
// CHECK: scf.if
// CHECK-DAG: gpu.grid_dim x
// CHECK-DAG: gpu.grid_dim z
// CHECK: scf.for
// CHECK: arith.addf
// CHECK-COUNT-5: gpu.shuffle {{ *}}xor
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %[[WG2]]
// CHECK: %[[NEG:.+]] = arith.negf %{{.+}} : f32
// CHECK: memref.store %[[NEG]], %{{.+}}[%{{.+}}] : memref<{{[0-9]+}}xf32>
// CHECK: gpu.return

/// The host program: grad_sinks is a fresh [8] buffer, dsink_partials a
/// [B Hq T] workspace; the op's fourth result is grad_sinks.
// HOST-LABEL: func.func @gqa
// HOST: %[[GS:.+]] = gpu.alloc () : memref<8xf32>
// HOST: %[[PART:.+]] = gpu.alloc
// HOST: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_preprocess
// HOST: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_main
// HOST: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
// HOST: gpu.dealloc %[[PART]]
// HOST: %[[T:.+]] = bufferization.to_tensor %[[GS]]
// HOST: return %[[T]] : tensor<8xf32>
