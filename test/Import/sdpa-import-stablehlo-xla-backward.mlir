// JAX's autodiff of the XLA-decomposed attention (value_and_grad of a loss
// summing the output, so dO is a splat of ones): the backward imports to
// sdpa.attention_grad, reading the O and LSE of an sdpa.attention built for
// it (the fixtures return only dQ, dK, dV, so no forward output exists).
// The probabilities, their exp and row sums leave the module. Expected
// bands from the JAX calls that printed the fixtures (docs/Semantics.md §1.1):
// causal (inf, 0); causal, window of 128 keys (127, 0); symmetric window
// (127, 127); none (inf, inf).

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_causal_bwd.mlir 2>&1 | FileCheck %s --check-prefixes=CAUSAL,GONE
// CAUSAL: remark: imported decomposed attention: left = inf, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; mask verified on 2097152 cells; only its backward reads it
// CAUSAL: remark: imported decomposed attention backward: dV = P^T dO, dP = dO V^T, dS = P * (dP - rowsum(P * dP)), dQ = scale dS K, dK = scale dS^T Q verified
// CAUSAL-LABEL: func.func public @main
// CAUSAL-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x16x64xbf16>, %[[V:.*]]: tensor<2x256x16x64xbf16>)
/// dO: the cotangent of the summed loss, ones in Q's type and layout.
// CAUSAL: %[[DO:.*]] = stablehlo.convert %{{.*}} : (tensor<2x256x16x64xf32>) -> tensor<2x256x16x64xbf16>
// CAUSAL-NEXT: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// CAUSAL-NEXT: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %[[DO]], %[[LSE]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// CAUSAL-NEXT: return %[[DQ]], %[[DK]], %[[DV]]

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_causal_swa_bwd.mlir 2>&1 | FileCheck %s --check-prefixes=SWA,GONE
// SWA: remark: imported decomposed attention: left = 127, right = 0, align = top_left
// SWA: remark: imported decomposed attention backward
// SWA-LABEL: func.func public @main
// SWA: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// SWA-NEXT: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %arg0, %arg1, %arg2, %[[O]], %{{.*}}, %[[LSE]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
/// The fixture returns dQ, dK, dV in this order.
// SWA-NEXT: return %[[DQ]], %[[DK]], %[[DV]]

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_swa_sym_bwd.mlir 2>&1 | FileCheck %s --check-prefixes=SYM,GONE
// SYM: remark: imported decomposed attention: left = 127, right = 127, align = top_left
// SYM: remark: imported decomposed attention backward
// SYM-LABEL: func.func public @main
// SYM: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 127, align = top_left>, scale = 1.250000e-01 : f64}
// SYM-NEXT: sdpa.attention_grad %arg0, %arg1, %arg2, {{.*}} {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 127, align = top_left>, scale = 1.250000e-01 : f64}

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_full_bwd.mlir 2>&1 | FileCheck %s --check-prefixes=FULL,GONE
// FULL: remark: imported decomposed attention: left = inf, right = inf, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; no mask; only its backward reads it
// FULL: remark: imported decomposed attention backward
// FULL-LABEL: func.func public @main
// FULL: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = inf, align = top_left>, scale = 1.250000e-01 : f64}
// FULL-NEXT: sdpa.attention_grad %arg0, %arg1, %arg2, {{.*}} {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = inf, align = top_left>, scale = 1.250000e-01 : f64}

/// Nothing of the O(S^2) graph is left: no product, no exp, no helper.
// GONE-NOT: stablehlo.dot_general
// GONE-NOT: stablehlo.exponential
// GONE-NOT: func.func private

/// A window of 64 keys instead of 128 (the mask constant edited): both ops
/// take the edited band.
// RUN: sed 's/dense<127> : tensor<i32>/dense<63> : tensor<i32>/' %S/Inputs/jax_xla_causal_swa_bwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>/dev/null | FileCheck %s --check-prefix=W64
// W64: sdpa.attention %arg0, %arg1, %arg2 {{.*}}mask = #sdpa.band<left = 63, right = 0, align = top_left>
// W64-NEXT: sdpa.attention_grad {{.*}}mask = #sdpa.band<left = 63, right = 0, align = top_left>

/// Each piece of the gradient is checked; an edited piece declines and the
/// graph stays as it was. Delta added instead of subtracted:
// RUN: sed 's/%47 = stablehlo.add %43, %46/%47 = stablehlo.subtract %43, %46/' %S/Inputs/jax_xla_causal_bwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=DELTA,KEPT
// DELTA: remark: decomposed attention backward not imported: dS is not P * (dP - rowsum(P * dP))

/// The gradient scaled by 0.25 where the forward scaled by 0.125:
// RUN: sed 's/%cst_9 = stablehlo.constant dense<1.250000e-01>/%cst_9 = stablehlo.constant dense<2.500000e-01>/' %S/Inputs/jax_xla_causal_bwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=SCALE,KEPT
// SCALE: remark: decomposed attention backward not imported: dK is scaled by 0.250000, not the forward's scale 0.125000

/// dS not multiplied by E (P * (dP - Delta) without P):
// RUN: sed 's/%48 = stablehlo.multiply %47, %17/%48 = stablehlo.multiply %47, %47/' %S/Inputs/jax_xla_causal_bwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=NOEXP,KEPT
// NOEXP: remark: decomposed attention backward not imported: dK = scale dS^T Q: the masked gradient has a term without exp

/// dV from the unrounded f32 probabilities read through their row sum
/// squared instead of P: declined, P^T dO needs P.
// RUN: sed 's/%33 = stablehlo.dot_general %30, %25,/%33 = stablehlo.dot_general %30, %32,/' %S/Inputs/jax_xla_causal_bwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=NODV
// NODV-NOT: sdpa.attention_grad

// KEPT-NOT: sdpa.attention
// KEPT-LABEL: func.func public @main
// KEPT: stablehlo.exponential
// KEPT: stablehlo.dot_general
// KEPT-NOT: sdpa.attention
