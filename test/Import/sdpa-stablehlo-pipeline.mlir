// REQUIRES: ptxas
// End to end: the StableHLO JAX printed for a training step's attention
// (value_and_grad over the cuDNN path: a causal window of 128 keys, forward
// and backward custom calls) to two artifacts in one pipeline, and both
// assemble for sm_80 without spills.
// RUN: rm -rf %t && %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t" %S/Inputs/jax_cudnn_causal_swa_bwd.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=BWD < %t/sdpa_bwd_0.manifest
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o %t/fwd.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/bwd.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// CHECK-NOT: stablehlo.
// CHECK-DAG: gpu.binary @sdpa_fwd_0
// CHECK-DAG: gpu.binary @sdpa_bwd_0
// CHECK-NOT: stablehlo.

/// cuDNN's sliding_window_length = 128 is L = 127; JAX's layout is bshd.
// BWD: direction backward
// BWD: band 127 0 top_left
// BWD: param q_stride_b i64

// PTXAS: Compiling entry function
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
