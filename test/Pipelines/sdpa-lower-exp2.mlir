// RUN: %sdpa_opt %s --pass-pipeline="builtin.module(gpu.module(sdpa-lower-exp2))" | FileCheck %s

/// Scalar f32 exponentials become the ftz intrinsic (one MUFU.EX2 in SASS);
/// every other exponential keeps math.exp2 for the upstream lowering.
// CHECK-LABEL: gpu.func @exponentials
// CHECK-SAME: (%[[X:.*]]: f32, %[[H:.*]]: f16, %[[D:.*]]: f64, %[[V:.*]]: vector<2xf32>)
// CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[P]]) : (f32) -> f32
// CHECK: math.exp2 %[[H]] : f16
// CHECK: math.exp2 %[[D]] : f64
// CHECK: math.exp2 %[[V]] : vector<2xf32>
// CHECK-NOT: math.exp2
gpu.module @kernels {
  gpu.func @exponentials(%x: f32, %h: f16, %d: f64, %v: vector<2xf32>) kernel {
    %p = math.exp2 %x : f32
    %pp = math.exp2 %p fastmath<afn> : f32
    %ph = math.exp2 %h : f16
    %pd = math.exp2 %d : f64
    %pv = math.exp2 %v : vector<2xf32>
    gpu.return
  }
}

/// Outside a gpu.module nothing changes (the pass is anchored on kernels).
// CHECK-LABEL: func.func @host
// CHECK: math.exp2 %{{.*}} : f32
func.func @host(%x: f32) -> f32 {
  %p = math.exp2 %x : f32
  return %p : f32
}
