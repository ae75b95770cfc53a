// The StableHLO subset prints every fixture back exactly as JAX printed it.
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_causal_bwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_causal_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_causal_fwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_causal_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_causal_swa_bwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_causal_swa_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_causal_swa_fwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_causal_swa_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_full_bwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_full_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_full_fwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_full_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_gqa_causal_swa_fwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_gqa_causal_swa_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_cudnn_seqlens_causal_fwd.mlir | diff -I '^$' %S/Inputs/jax_cudnn_seqlens_causal_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_causal_bwd.mlir | diff -I '^$' %S/Inputs/jax_xla_causal_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_causal_fwd.mlir | diff -I '^$' %S/Inputs/jax_xla_causal_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_causal_swa_bwd.mlir | diff -I '^$' %S/Inputs/jax_xla_causal_swa_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_causal_swa_fwd.mlir | diff -I '^$' %S/Inputs/jax_xla_causal_swa_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_full_bwd.mlir | diff -I '^$' %S/Inputs/jax_xla_full_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_full_fwd.mlir | diff -I '^$' %S/Inputs/jax_xla_full_fwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_swa_sym_bwd.mlir | diff -I '^$' %S/Inputs/jax_xla_swa_sym_bwd.mlir -
// RUN: %sdpa_opt %S/Inputs/jax_xla_swa_sym_fwd.mlir | diff -I '^$' %S/Inputs/jax_xla_swa_sym_fwd.mlir -
// And in generic form, which exercises the ops' attribute storage.
// RUN: %sdpa_opt --mlir-print-op-generic %S/Inputs/jax_xla_causal_swa_fwd.mlir | %sdpa_opt | diff -I '^$' %S/Inputs/jax_xla_causal_swa_fwd.mlir -
// RUN: %sdpa_opt --mlir-print-op-generic %S/Inputs/jax_cudnn_causal_swa_bwd.mlir | %sdpa_opt | diff -I '^$' %S/Inputs/jax_cudnn_causal_swa_bwd.mlir -

// Forms the fixtures do not show: dot_general without batching dims or
// precision, compare without a type, the other elementwise ops.
// RUN: %sdpa_opt %s | %sdpa_opt | FileCheck %s

// CHECK-LABEL: func.func @forms
func.func @forms(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4x2xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>) {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  // CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: stablehlo.minimum
  %2 = stablehlo.minimum %i, %i : tensor<4xi32>
  // CHECK: stablehlo.or
  %3 = stablehlo.or %1, %p : tensor<4xi1>
  // CHECK: stablehlo.not
  %4 = stablehlo.not %3 : tensor<4xi1>
  // CHECK: stablehlo.log
  %5 = stablehlo.log %0 : tensor<4x2xf32>
  return %5, %1, %2, %4 : tensor<4x2xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>
}
