// Variants of the causal XLA fixture's mask (edited with sed): what is not
// exactly a band is declined with a remark and left unchanged; what is a
// band, though not JAX's, is imported with that band.

/// q != k is not a half-plane.
// RUN: sed 's/compare GE, %%2, %%3/compare NE, %%2, %%3/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=NE,KEPT
// NE: remark: decomposed attention not imported: the mask is not a band: not-equal compare (not a half-plane)

/// 200 >= k: a padding-like mask on keys only, not parallel to the diagonal.
// RUN: sed 's/stablehlo.iota dim = 0 : tensor<256x256xi32>/stablehlo.constant dense<200> : tensor<256x256xi32>/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=PAD,KEPT
// PAD: remark: decomposed attention not imported: the mask is not a band: mask has a half-plane that is not parallel to the diagonal

/// q > k excludes the diagonal: right = -1 is no band.
// RUN: sed 's/compare GE, %%2, %%3/compare GT, %%2, %%3/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=STRICT,KEPT
// STRICT: remark: decomposed attention not imported: the mask is not a band: mask excludes the diagonal (a band edge would be negative)

/// With i8 indices the iota wraps at 128: the compares read as q >= k, but
/// the mask evaluated cell by cell differs from that band, so the
/// verification declines.
// RUN: sed -e 's/256x256xi32/256x256xi8/g' -e 's/dense<0> : tensor<i32>/dense<0> : tensor<i8>/' -e 's/(tensor<i32>)/(tensor<i8>)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=WRAP,KEPT
// WRAP: remark: decomposed attention not imported: the recovered band (left = inf, right = 0, align = top_left) does not match: mask differs from the band at query row 128, key 0

/// Masked cells filled with 0 still count in the softmax.
// RUN: sed 's/dense<-2.38197633E+38> : tensor<f32>/dense<0.000000e+00> : tensor<f32>/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=FILL,KEPT
// FILL: remark: decomposed attention not imported: the masked value 0.000000 is not a large negative number

/// q + 3 >= k is a band: three future keys visible.
// RUN: sed 's/dense<0> : tensor<i32>/dense<3> : tensor<i32>/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=AHEAD
// AHEAD: remark: imported decomposed attention: left = inf, right = 3, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; mask verified on 2097152 cells
// AHEAD: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 3, align = top_left>, scale = 1.250000e-01 : f64}

/// q - 3 >= k hides the diagonal and two more: declined.
// RUN: sed 's/dense<0> : tensor<i32>/dense<-3> : tensor<i32>/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=BEHIND,KEPT
// BEHIND: remark: decomposed attention not imported: the mask is not a band: mask excludes the diagonal (a band edge would be negative)

/// A declined graph is printed unchanged.
// KEPT-NOT: sdpa.attention
// KEPT-LABEL: func.func public @main
// KEPT: stablehlo.dot_general
// KEPT: call @_where
// KEPT-NOT: sdpa.attention
