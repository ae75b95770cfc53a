// A hand-written backward (flash attention's) computes Delta from the
// forward's output, Delta = rowsum(dO * O) over the head dimension, and
// dS = P * (dP - Delta); JAX's autodiff computes rowsum(P * dP) instead. The
// two are equal (dO . sum_k P_k V_k = sum_k P_k (dO . V_k)), and the import
// reads both as sdpa.attention_grad. The fixture is the Flax NNX training
// step with its dS so rewritten (Inputs/delta_from_output.py).

// RUN: %python %S/Inputs/delta_from_output.py %S/Inputs/models/flax_nnx_mha_window32_vg.mlir > %t.mlir
// RUN: %sdpa_opt -sdpa-import-stablehlo %t.mlir 2>&1 | FileCheck %s
// CHECK: remark: imported decomposed attention: left = 31, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head
// CHECK: remark: imported decomposed attention backward: dV = P^T dO, dP = dO V^T, dS = P * (dP - rowsum(P * dP)), dQ = scale dS K, dK = scale dS^T Q verified
// CHECK-LABEL: func.func public @main
// CHECK: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q:.*]], %[[K:.*]], %[[V:.*]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 31, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[LSE]]
// CHECK-NOT: stablehlo.exponential
// CHECK-NOT: stablehlo.reduce({{.*}}applies stablehlo.maximum

/// The rewritten module computes the original's function (float64).
// RUN: %sdpa_opt '-sdpa-stablehlo-pipeline=lowering=artifact-dir=%t.art' %t.mlir -o %t.rw.mlir 2>/dev/null
// RUN: %python %sdpa_src_root/bench/eval_stablehlo.py compare %t.mlir %t.rw.mlir | FileCheck %s --check-prefix=EXACT
// EXACT: rewritten module exact in f64

/// Delta from another tensor than O (the value V): the backward declines,
/// naming it; the forward is still imported.
// RUN: %python %S/Inputs/delta_from_output.py %S/Inputs/models/flax_nnx_mha_window32_vg.mlir --output %%25 | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: remark: decomposed attention backward not imported: dK = scale dS^T Q: rowsum(dO * x) with x not the forward's output
// OTHER: remark: imported decomposed attention: left = 31
// OTHER-NOT: sdpa.attention_grad
