// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 dq-mode=accumulate" | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 dq-mode=accumulate" | FileCheck %s --check-prefix=MMA

/// bf16 and f16 side by side (Tq = Tk = 64, head_dim 64: 160 products per
/// visit of a query tile: S^T and dP^T 2 x 8 x 4, dV and dK 2 x 4 x 8, dQ
/// 4 x 8). Every element-type-specific op follows the element type: bf16
/// products are nvvm.mma.sync with bf16 multiplicands (nvgpu.mma.sync cannot
/// type bf16 operands in MLIR 22), f16 products stay nvgpu.mma.sync.

// CHECK: sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype bf16\0Ahead_dim 64
// CHECK-SAME: sdpa_bwd_1 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64

/// Delta reads O and dO as bf16 and sums in f32.
// CHECK-LABEL: gpu.module @sdpa_bwd_0
// CHECK-LABEL: gpu.func @sdpa_bwd_preprocess
// CHECK: %[[O:.*]] = vector.load %{{.*}} : memref<{{[0-9]+}}xbf16>, vector<8xbf16>
// CHECK: %[[DO:.*]] = vector.load %{{.*}} : memref<{{[0-9]+}}xbf16>, vector<8xbf16>
// CHECK-DAG: arith.extf %[[O]] : vector<8xbf16> to vector<8xf32>
// CHECK-DAG: arith.extf %[[DO]] : vector<8xbf16> to vector<8xf32>
// CHECK: vector.reduction <add>

/// Main kernel: bf16 shared tiles and ldmatrix fragments (K, V [64][72];
/// Q, dO in two stages, [2][64][72]: the next visit's are copied while this
/// one computes); dS * scale goes to shared memory as bf16 (the dQ
/// product's A operand); P and dS become the A fragments of dV and dK
/// through f32 -> bf16 truncation; dK and dV are stored as bf16 pairs.
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-SAME: memref<{{[0-9]+}}xbf16>
// CHECK: nvgpu.device_async_copy {{.*}} {bypassL1} : memref<{{[0-9]+}}xbf16> to memref<2x64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy {{.*}} : memref<{{[0-9]+}}xbf16> to memref<2x64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.ldmatrix {{.*}} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix {{.*}} : memref<2x64x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: %[[DS:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT: memref.store %[[DS]], %{{.*}} : memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[PLO:.*]] = arith.truncf %{{.*}} : vector<2x2xf32> to vector<2x2xbf16>
// CHECK-NEXT: %[[PHI:.*]] = arith.truncf %{{.*}} : vector<2x2xf32> to vector<2x2xbf16>
// CHECK-NEXT: vector.shuffle %[[PLO]], %[[PHI]] [0, 1, 2, 3] : vector<2x2xbf16>, vector<2x2xbf16>
// CHECK: } {sdpa.q_loop}
// CHECK: %[[DK:.*]] = arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: vector.store %[[DK]], %{{.*}} : memref<{{[0-9]+}}xbf16>, vector<2xbf16>
// CHECK: %[[DV:.*]] = arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: vector.store %[[DV]], %{{.*}} : memref<{{[0-9]+}}xbf16>, vector<2xbf16>

/// dQ = bf16(dq_accum).
// CHECK-LABEL: gpu.func @sdpa_bwd_dq_convert
// CHECK: %[[DQ:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %[[DQ]], %{{.*}} : memref<{{[0-9]+}}xbf16>

/// The f16 module keeps f16 everywhere.
// CHECK-LABEL: gpu.module @sdpa_bwd_1
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: arith.truncf %{{.*}} : vector<2x2xf32> to vector<2x2xf16>
// CHECK-LABEL: gpu.func @sdpa_bwd_dq_convert
// CHECK: arith.truncf %{{.*}} : f32 to f16

/// Every product of the bf16 main kernel is one nvvm.mma.sync m16n8k16 with
/// bf16 A and B (4 and 2 i32 registers) and f32 accumulators; none of the
/// f16 kernel's is.
// MMA-LABEL: gpu.func @sdpa_bwd_main
// MMA-NOT: nvgpu.mma.sync
// MMA-COUNT-160: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}]  B[{{.*}}, {{.*}}]  C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// MMA-NOT: nvgpu.mma.sync
// MMA-NOT: nvvm.mma.sync
// MMA-LABEL: gpu.module @sdpa_bwd_1
// MMA-LABEL: gpu.func @sdpa_bwd_main
// MMA-NOT: nvvm.mma.sync
// MMA-COUNT-160: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-NOT: nvvm.mma.sync
// MMA-NOT: nvgpu.mma.sync
func.func @bf16(%q: tensor<1x2x?x64xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
  return %dq : tensor<1x2x?x64xbf16>
}

func.func @f16(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}
