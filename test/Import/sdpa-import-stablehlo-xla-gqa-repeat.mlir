// GQA written as jnp.repeat in a training step: K and V with 4 (or 1) kv
// heads repeated over the 16 query heads before JAX's XLA attention, whose
// backward then sums the repeated gradients over each group (the transpose
// of the repeat's broadcast). The fixtures are jax_xla_causal_swa_bwd.mlir
// rewritten so by Inputs/repeat_kv.py. Both directions import with K and V
// themselves (4 query heads per kv head; 16 with one kv head), the group
// sums leave the module, and the rewritten module computes the original's
// function (bench/eval_stablehlo.py, float64).

// RUN: %python %S/Inputs/repeat_kv.py %S/Inputs/jax_xla_causal_swa_bwd.mlir 4 > %t.hkv4.mlir
// RUN: %sdpa_opt -sdpa-import-stablehlo %t.hkv4.mlir 2>&1 | FileCheck %s --check-prefixes=HKV4,GONE
// HKV4: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 4 query head(s) per kv head; mask verified on 2097152 cells; only its backward reads it
// HKV4: remark: imported decomposed attention backward: dV = P^T dO, dP = dO V^T, dS = P * (dP - rowsum(P * dP)), dQ = scale dS K, dK = scale dS^T Q verified
// HKV4-LABEL: func.func public @main
// HKV4-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x4x64xbf16>, %[[V:.*]]: tensor<2x256x4x64xbf16>)
// HKV4: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x4x64xbf16>, tensor<2x256x4x64xbf16>
// HKV4-NEXT: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[LSE]] {{.*}} -> tensor<2x256x16x64xbf16>, tensor<2x256x4x64xbf16>, tensor<2x256x4x64xbf16>
// HKV4-NEXT: return %[[DQ]], %[[DK]], %[[DV]]

// RUN: %python %S/Inputs/repeat_kv.py %S/Inputs/jax_xla_causal_swa_bwd.mlir 1 > %t.hkv1.mlir
// RUN: %sdpa_opt -sdpa-import-stablehlo %t.hkv1.mlir 2>&1 | FileCheck %s --check-prefixes=HKV1,GONE
// HKV1: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 16 query head(s) per kv head
// HKV1: remark: imported decomposed attention backward
// HKV1-LABEL: func.func public @main
// HKV1-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x1x64xbf16>, %[[V:.*]]: tensor<2x256x1x64xbf16>)
// HKV1: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q]], %[[K]], %[[V]]
// HKV1-NEXT: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[LSE]] {{.*}} -> tensor<2x256x16x64xbf16>, tensor<2x256x1x64xbf16>, tensor<2x256x1x64xbf16>
// HKV1-NEXT: return %[[DQ]], %[[DK]], %[[DV]]

/// Neither the O(S^2) graph nor the repetition and its group sums remain.
// GONE-NOT: stablehlo.dot_general
// GONE-NOT: stablehlo.exponential
// GONE-NOT: stablehlo.reduce
// GONE-NOT: stablehlo.broadcast_in_dim %arg

/// The rewritten modules (FFI calls to the kernels) are exact in float64.
// RUN: %sdpa_opt '-sdpa-stablehlo-pipeline=lowering=artifact-dir=%t.art4' %t.hkv4.mlir -o %t.hkv4.rw.mlir 2>/dev/null
// RUN: %python %sdpa_src_root/bench/eval_stablehlo.py compare %t.hkv4.mlir %t.hkv4.rw.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %sdpa_opt '-sdpa-stablehlo-pipeline=lowering=artifact-dir=%t.art1' %t.hkv1.mlir -o %t.hkv1.rw.mlir 2>/dev/null
// RUN: %python %sdpa_src_root/bench/eval_stablehlo.py compare %t.hkv1.mlir %t.hkv1.rw.mlir | FileCheck %s --check-prefix=EXACT
// EXACT: result[1] | {{.*}} | {{[0-9.]+e-1[0-9]}} |
// EXACT: result[2] | {{.*}} | {{[0-9.]+e-1[0-9]}} |
// EXACT: rewritten module exact in f64

/// dV summed over the kv heads instead of the groups (the same type, another
/// function): the backward declines, and with it the forward, which only
/// the backward reads; the module stays as it was.
// RUN: sed 's/%dv_m init: %cst_rep) applies stablehlo.add across dimensions = \[3\]/%dv_m init: %cst_rep) applies stablehlo.add across dimensions = [2]/' %t.hkv4.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=KVSUM
// KVSUM: remark: decomposed attention backward not imported: dV = P^T dO is not summed over the groups of the repeated value back to the value's layout
// KVSUM-NOT: sdpa.attention

/// A group sum that does not start from 0: declined.
// RUN: sed 's/%cst_rep = stablehlo.constant dense<0.000000e+00>/%cst_rep = stablehlo.constant dense<1.000000e+00>/' %t.hkv4.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: remark: decomposed attention backward not imported: dV = P^T dO is not summed over the groups
