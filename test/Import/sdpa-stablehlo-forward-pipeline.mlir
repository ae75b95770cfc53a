// End to end: JAX's printed cuDNN forward (causal window of 128 keys) to PTX
// in one pipeline. The import leaves no StableHLO behind and the lowering
// emits one kernel.
// RUN: %sdpa_opt -sdpa-stablehlo-forward-pipeline %S/Inputs/jax_cudnn_causal_swa_fwd.mlir | FileCheck %s
// And the decomposed XLA graph of the same attention.
// RUN: %sdpa_opt -sdpa-stablehlo-forward-pipeline %S/Inputs/jax_xla_causal_swa_fwd.mlir 2>/dev/null | FileCheck %s

// CHECK-NOT: stablehlo.
// CHECK: gpu.binary @sdpa_fwd_0
// CHECK-SAME: .entry sdpa_fwd_0(
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: stablehlo.
