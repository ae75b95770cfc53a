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

/// With i8 indices the iota wraps at 128 (as XLA wraps it): the affine
/// reading holds only where no value wraps, so it declines.
// RUN: sed -e 's/256x256xi32/256x256xi8/g' -e 's/dense<0> : tensor<i32>/dense<0> : tensor<i8>/' -e 's/(tensor<i32>)/(tensor<i8>)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=WRAP,KEPT
// WRAP: remark: decomposed attention not imported: the mask is not a band: the values of stablehlo.iota overflow i8

/// An i8 iota compared directly: XLA wraps rows 128..255 to -128..-1, so
/// the mask is not q >= k (evaluated unwrapped, it would have imported
/// causal).
// RUN: sed -e 's/compare GE, %%2, %%3/compare GE, %%0, %%3/' -e 's/256x256xi32/256x256xi8/g' -e 's/dense<0> : tensor<i32>/dense<0> : tensor<i8>/' -e 's/(tensor<i32>)/(tensor<i8>)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=WRAP,KEPT
/// i16 holds 0..255: the same graph imports.
// RUN: sed -e 's/compare GE, %%2, %%3/compare GE, %%0, %%3/' -e 's/256x256xi32/256x256xi16/g' -e 's/dense<0> : tensor<i32>/dense<0> : tensor<i16>/' -e 's/(tensor<i32>)/(tensor<i16>)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=I16
// I16: remark: imported decomposed attention: left = inf, right = 0, align = top_left

/// q + 2^40 >= k in i64 is a band the dialect cannot hold (edges are at
/// most 2^31 - 1): declined with the dialect's message, no assertion.
// RUN: sed -e 's/256x256xi32/256x256xi64/g' -e 's/dense<0> : tensor<i32>/dense<1099511627776> : tensor<i64>/' -e 's/(tensor<i32>)/(tensor<i64>)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=WIDE,KEPT
// WIDE: remark: decomposed attention not imported: the mask's band cannot be represented: expected right to be at most 2147483647 (use inf for an unbounded edge)

/// q + (2^63 - 1) overflows i64 (XLA wraps it): declined.
// RUN: sed -e 's/256x256xi32/256x256xi64/g' -e 's/dense<0> : tensor<i32>/dense<9223372036854775807> : tensor<i64>/' -e 's/(tensor<i32>)/(tensor<i64>)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=OVF,KEPT
// OVF: remark: decomposed attention not imported: the mask is not a band: the values of stablehlo.add overflow i64

/// A recursive helper in the mask: the calls are followed 64 deep, then
/// declined.
// RUN: sed 's/    return %%6 : tensor<256x256xi1>/    %%7 = call @tril(%%6) : (tensor<256x256xi1>) -> tensor<256x256xi1>\n    return %%7 : tensor<256x256xi1>/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=REC,KEPT
// REC: remark: decomposed attention not imported: the mask is not a band: calls nested deeper than 64 (a recursive helper)

/// 60 chained `and %x, %x`: read once each (memoized), so instant rather
/// than 2^60 steps; the band is unchanged.
// RUN: %python %S/Inputs/mask_chain.py %S/Inputs/jax_xla_causal_fwd.mlir 60 | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: remark: imported decomposed attention: left = inf, right = 0, align = top_left
/// 600 of them exceed the depth limit of the analyses.
// RUN: %python %S/Inputs/mask_chain.py %S/Inputs/jax_xla_causal_fwd.mlir 600 | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=DEEP,KEPT
// DEEP: remark: decomposed attention not imported: the mask is not a band: mask graph deeper than 512 ops

/// A NaN masked value: `fill > -1e30` is false for NaN, but NaN is no
/// masked value (the graph's rows would be NaN).
// RUN: sed 's/dense<-2.38197633E+38> : tensor<f32>/dense<0x7FC00000> : tensor<f32>/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=NAN,KEPT
// NAN: remark: decomposed attention not imported: the masked value nan is not a large negative number

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

/// The mask is a function argument: no band can be read from it.
// RUN: sed -e 's/%%arg2: tensor<2x256x16x64xbf16>) ->/%%arg2: tensor<2x256x16x64xbf16>, %%mask: tensor<2x16x256x256xi1>) ->/' -e 's/call @_where(%%9, %%3, %%cst_1)/call @_where(%%mask, %%3, %%cst_1)/' %S/Inputs/jax_xla_causal_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=ARG,KEPT
// ARG: remark: decomposed attention not imported: the mask is not a band: mask value defined by a function argument

/// A declined graph is printed unchanged.
// KEPT-NOT: sdpa.attention
// KEPT-LABEL: func.func public @main
// KEPT: stablehlo.dot_general
// KEPT: call @_where
// KEPT-NOT: sdpa.attention
