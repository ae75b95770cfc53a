// End to end: StableHLO that JAX printed, to PTX in one pipeline. The import
// leaves no StableHLO behind.
//
// A forward (cuDNN call, causal window of 128 keys): one kernel module.
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline %S/Inputs/jax_cudnn_causal_swa_fwd.mlir | FileCheck %s --check-prefix=FWD
// The decomposed XLA graph of the same attention: the same.
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline %S/Inputs/jax_xla_causal_swa_fwd.mlir 2>/dev/null | FileCheck %s --check-prefix=FWD
//
// A training step (value_and_grad on the cuDNN path: forward and backward
// calls): two kernel modules, each direction with its own tiles.
// RUN: rm -rf %t && %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t" %S/Inputs/jax_cudnn_causal_swa_bwd.mlir | FileCheck %s --check-prefix=STEP
// RUN: FileCheck %s --check-prefix=BWD < %t/sdpa_bwd_0.manifest
//
// The same training step on JAX's XLA path (decomposed forward and its
// autodiff): the same two artifacts, byte for byte.
// RUN: rm -rf %t.xla && %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t.xla" %S/Inputs/jax_xla_causal_swa_bwd.mlir 2>/dev/null | FileCheck %s --check-prefix=STEP
// RUN: diff -r %t %t.xla

// FWD-NOT: stablehlo.
// FWD: gpu.binary @sdpa_fwd_0
// FWD-SAME: .entry sdpa_fwd_0(
// FWD-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// FWD-NOT: stablehlo.
// FWD-NOT: gpu.binary

// STEP-NOT: stablehlo.
// STEP-DAG: gpu.binary @sdpa_fwd_0
// STEP-DAG: gpu.binary @sdpa_bwd_0
// STEP-NOT: stablehlo.

/// cuDNN's sliding_window_length = 128 is L = 127; JAX's layout is bshd.
// BWD: direction backward
// BWD: tile_q 32
// BWD-NEXT: tile_kv 64
// BWD: band 127 0 top_left
// BWD: param q_stride_b i64
