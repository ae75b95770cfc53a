// REQUIRES: ptxas
// The two kernels of a JAX training step (test/Import/sdpa-stablehlo-pipeline.mlir)
// assemble for sm_80 without spills or local memory.
// RUN: rm -rf %t && %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t" %S/../Import/Inputs/jax_cudnn_causal_swa_bwd.mlir -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o %t/fwd.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/bwd.cubin 2>&1 | FileCheck %s
// RUN: not grep -l "\.local" %t/sdpa_fwd_0.ptx %t/sdpa_bwd_0.ptx

// CHECK: Compiling entry function
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
