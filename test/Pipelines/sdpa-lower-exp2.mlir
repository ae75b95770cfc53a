// RUN: %sdpa_opt %s --pass-pipeline="builtin.module(gpu.module(sdpa-lower-exp2))" | FileCheck %s

/// Scalar f32 exponentials marked afn become the ftz intrinsic (one
/// MUFU.EX2 in SASS); every other exponential keeps math.exp2 for the
/// upstream lowering (libdevice's subnormal-preserving ex2.approx.f32).
// CHECK-LABEL: gpu.func @exponentials
// CHECK-SAME: (%[[X:.*]]: f32, %[[H:.*]]: f16, %[[D:.*]]: f64, %[[V:.*]]: vector<2xf32>)
// CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X]]) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[P]]) : (f32) -> f32
// CHECK: math.exp2 %[[X]] : f32
// CHECK: math.exp2 %[[X]] fastmath<nnan> : f32
// CHECK: math.exp2 %[[H]] fastmath<afn> : f16
// CHECK: math.exp2 %[[D]] fastmath<afn> : f64
// CHECK: math.exp2 %[[V]] fastmath<afn> : vector<2xf32>
// CHECK-NOT: llvm.call_intrinsic
gpu.module @kernels {
  gpu.func @exponentials(%x: f32, %h: f16, %d: f64, %v: vector<2xf32>) kernel {
    %p = math.exp2 %x fastmath<afn> : f32
    %pp = math.exp2 %p fastmath<fast> : f32
    %plain = math.exp2 %x : f32
    %other = math.exp2 %x fastmath<nnan> : f32
    %ph = math.exp2 %h fastmath<afn> : f16
    %pd = math.exp2 %d fastmath<afn> : f64
    %pv = math.exp2 %v fastmath<afn> : vector<2xf32>
    gpu.return
  }
}

/// Outside a gpu.module nothing changes (the pass is anchored on kernels).
// CHECK-LABEL: func.func @host
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f32
func.func @host(%x: f32) -> f32 {
  %p = math.exp2 %x fastmath<afn> : f32
  return %p : f32
}
