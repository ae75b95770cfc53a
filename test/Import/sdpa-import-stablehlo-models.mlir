// Whole models (test/Import/Inputs/models/, README.txt there says what each
// is): every attention site is imported with its own band, or declined
// with a remark naming why; the rest of the model stays. Expected bands
// from the README (SEMANTICS.md §1: a causal window of N keys is L = N - 1,
// R = 0; causal alone L = inf).

/// Flax NNX MultiHeadAttention, 4 heads, mask = causal window of 32 keys
/// built with iota compares: L = 31, R = 0.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/flax_nnx_mha_window32_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=FLAX,NOSOFTMAX
// FLAX: remark: imported decomposed attention: left = 31, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; mask verified on 262144 cells
// FLAX-LABEL: func.func public @main
// FLAX: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 31, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<1x256x4x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x256x4x64xbf16>
/// The projections around it stay.
// FLAX: stablehlo.dot_general

/// Its value_and_grad: the forward and JAX's autodiff of it.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/flax_nnx_mha_window32_vg.mlir 2>&1 | FileCheck %s --check-prefixes=FLAXVG,NOSOFTMAX
// FLAXVG: remark: imported decomposed attention: left = 31, right = 0, align = top_left
// FLAXVG: remark: imported decomposed attention backward
// FLAXVG-LABEL: func.func public @main
// FLAXVG: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q:.*]], %[[K:.*]], %[[V:[^ ]*]] {{.*}}mask = #sdpa.band<left = 31, right = 0, align = top_left>
// FLAXVG: sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[LSE]] {{.*}}mask = #sdpa.band<left = 31, right = 0, align = top_left>

/// No softmax is left where every site was imported.
// NOSOFTMAX-NOT: stablehlo.exponential
