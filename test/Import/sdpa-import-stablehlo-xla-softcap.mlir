// The logit softcap c * tanh(S / c) (Gemma 2) written out, as JAX prints it
// for the Gemma-2-like fixture (test/Import/Inputs/models/README.txt: cap 50,
// window 64 keys causal, 2 query heads over 1 kv head, d 256):
//
//   %93 = S * 0.0625;  %95 = %93 / 50;  %96 = tanh(%95);  %98 = 50 * %96
//
// imports as softcap = 50 with the scale before the cap (docs/Semantics.md
// §7). Its value_and_grad: dS carries the chain rule's 50 * (1 + t)(1 - t)
// / 50 = 1 - t^2, read as a polynomial in t = %96, and imports as
// sdpa.attention_grad with the same cap.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefix=FWD
// FWD: remark: imported decomposed attention: left = 63, right = 0, align = top_left, scale 6.250000e-02, layout bshd, 2 query head(s) per kv head; softcap 5.000000e+01; mask verified on 131072 cells
// FWD-LABEL: func.func public @main
// FWD: sdpa.attention %{{.*}} {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 63, right = 0, align = top_left>, scale = 6.250000e-02 : f64, softcap = 5.000000e+01 : f32}
/// Nothing of the capped softmax stays.
// FWD-NOT: stablehlo.tanh {{.*}} : tensor<1x2x256x256xf32>
// FWD-NOT: stablehlo.exponential

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir 2>&1 | FileCheck %s --check-prefix=VG
// VG: remark: imported decomposed attention: {{.*}}; softcap 5.000000e+01; mask verified on 131072 cells
// VG: remark: imported decomposed attention backward: dV = P^T dO, dP = dO V^T, dS = P * (dP - rowsum(P * dP)) * (1 - tanh^2(S / c)), dQ = scale dS K, dK = scale dS^T Q verified
// VG-LABEL: func.func public @main
// VG: %[[O:[^,]*]], %[[L:[^ ]*]] = sdpa.attention %[[Q:[^,]*]], %[[K:[^,]*]], %[[V:[^ ]*]] {{.*}}scale = 6.250000e-02 : f64, softcap = 5.000000e+01 : f32}
// VG: sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[L]] {{.*}}scale = 6.250000e-02 : f64, softcap = 5.000000e+01 : f32}
// VG-NOT: stablehlo.tanh {{.*}} : tensor<1x2x256x256xf32>
// VG-NOT: stablehlo.exponential

/// Mutations: each is another function than a softcap of the dialect, and
/// declines with a remark (never a different cap); the module is kept.
/// The factor differs from the divisor: 40 * tanh(S / 50).
// RUN: sed -e 's/%cst_12 = stablehlo.constant dense<5.000000e+01>/%cst_12 = stablehlo.constant dense<4.000000e+01>/' %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=FACTOR,KEPT
// FACTOR: remark: decomposed attention not imported: c * tanh(S / d) with c = 40.000000 and d = 50.000000 is no logit softcap (c and d differ)
/// The divisor differs from the factor: 50 * tanh(S / 40).
// RUN: sed -e 's/%cst_11 = stablehlo.constant dense<5.000000e+01>/%cst_11 = stablehlo.constant dense<4.000000e+01>/' %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=DIVISOR,KEPT
// DIVISOR: remark: decomposed attention not imported: c * tanh(S / d) with c = 50.000000 and d = 40.000000 is no logit softcap (c and d differ)
/// Another function than tanh: 50 * logistic(S / 50).
// RUN: sed -e 's/stablehlo.tanh %95/stablehlo.logistic %95/' %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=LOGISTIC,KEPT
// LOGISTIC: remark: decomposed attention not imported: the scores go through stablehlo.logistic, which sdpa.attention has no modifier for
/// tanh of the scores themselves: 50 * tanh(S).
// RUN: sed -e 's/stablehlo.tanh %95/stablehlo.tanh %93/' %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=UNDIVIDED,KEPT
// UNDIVIDED: remark: decomposed attention not imported: a tanh of scores not divided by a constant is no logit softcap c * tanh(S / c)
/// The capped scores scaled again: 50 * (50 * tanh(S / 50)).
// RUN: sed -e '/%98 = stablehlo.multiply/a\' -e '    %again = stablehlo.multiply %98, %94 : tensor<1x2x256x256xf32>' -e 's/call @_where(%111, %98,/call @_where(%111, %again,/' %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=AGAIN,KEPT
// AGAIN: remark: decomposed attention not imported: the softcapped scores are scaled again
/// A negative cap (-50 * tanh(S / -50) = 50 * tanh(S / 50), but the dialect
/// states caps as c > 0): the verifier's message.
// RUN: sed -E -e 's/(%cst_1[12] = stablehlo.constant dense<)5.000000e\+01>/\1-5.000000e+01>/' %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=NEGATIVE,KEPT
// NEGATIVE: remark: decomposed attention not imported: 'sdpa.attention' op expected softcap to be positive (inf for no cap), got -5.000000e+01

// KEPT-NOT: remark: imported
// KEPT-NOT: sdpa.attention
// KEPT: stablehlo.exponential

/// The backward's mutations decline the backward alone.
/// (1 + t)(1 + t) for (1 + t)(1 - t):
// RUN: sed -e 's/%101 = stablehlo.multiply %98, %100/%101 = stablehlo.multiply %98, %98/' %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=TSQUARED,NOGRAD
// TSQUARED: remark: decomposed attention backward not imported: dS is not P * (dP - rowsum(P * dP)) * (1 - tanh^2(S / c))
/// The chain rule's 1 / 50 as 1 / 40: dS scaled by 50 / 40 * 0.0625.
// RUN: sed -e 's/%cst_47 = stablehlo.constant dense<5.000000e+01>/%cst_47 = stablehlo.constant dense<4.000000e+01>/' %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=RESCALED,NOGRAD
// RESCALED: remark: decomposed attention backward not imported: dK is scaled by 0.078125, not the forward's scale 0.062500
// NOGRAD: remark: imported decomposed attention: {{.*}}softcap 5.000000e+01
// NOGRAD-NOT: sdpa.attention_grad
