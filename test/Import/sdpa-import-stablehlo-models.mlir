// Whole models (test/Import/Inputs/models/, README.txt there says what each
// is): every attention site is imported with its own band, or declined
// with a remark naming why; the rest of the model stays. Expected bands
// from the README (docs/Semantics.md §1: a causal window of N keys is L = N - 1,
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

/// gpt-oss-like, 2 layers (window of 128 keys causal, then causal), Hq 4
/// over Hkv 1, d 64, bf16: two sites with their own bands, on the XLA path
/// (decomposed) and on the cuDNN path (custom calls) alike. The GQA of the
/// XLA graph is the query's heads split into (1, 4).
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_like_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=GPTXLA,GPT,NOSOFTMAX
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_like_cudnn_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=GPT,NOSOFTMAX
// GPTXLA: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 4 query head(s) per kv head; mask verified on 262144 cells
// GPTXLA: remark: imported decomposed attention: left = inf, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 4 query head(s) per kv head; mask verified on 262144 cells
// GPT-LABEL: func.func public @main
// GPT: sdpa.attention {{.*}}mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>
// GPT: sdpa.attention {{.*}}mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>
// GPT-NOT: sdpa.attention

/// Their value_and_grad: each layer's backward reads its own forward's O
/// and LSE (the backward runs the layers in reverse).
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_like_xla_vg.mlir 2>&1 | FileCheck %s --check-prefixes=GPTVG,NOSOFTMAX
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_like_cudnn_vg.mlir 2>&1 | FileCheck %s --check-prefixes=GPTVG,NOSOFTMAX
// GPTVG-LABEL: func.func public @main
// GPTVG: %[[O1:[^,]*]], %[[L1:[^ ]*]] = sdpa.attention %[[Q1:[^,]*]], %[[K1:[^,]*]], %[[V1:[^ ]*]] {{.*}}mask = #sdpa.band<left = 127, right = 0, align = top_left>
// GPTVG: %[[O2:[^,]*]], %[[L2:[^ ]*]] = sdpa.attention %[[Q2:[^,]*]], %[[K2:[^,]*]], %[[V2:[^ ]*]] {{.*}}mask = #sdpa.band<left = inf, right = 0, align = top_left>
// GPTVG: sdpa.attention_grad %[[Q2]], %[[K2]], %[[V2]], %[[O2]], %{{.*}}, %[[L2]] {{.*}}mask = #sdpa.band<left = inf, right = 0, align = top_left>
// GPTVG: sdpa.attention_grad %[[Q1]], %[[K1]], %[[V1]], %[[O1]], %{{.*}}, %[[L1]] {{.*}}mask = #sdpa.band<left = 127, right = 0, align = top_left>

/// Mistral-like on the cuDNN path: window of 64 keys causal, Hq 2 = Hkv 2,
/// d 128, f16, scale 1/sqrt(128).
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/mistral_like_cudnn_vg.mlir 2>&1 | FileCheck %s --check-prefix=MISTRAL
// MISTRAL-LABEL: func.func public @main
// MISTRAL: %[[O:[^,]*]], %[[L:[^ ]*]] = sdpa.attention %[[Q:[^,]*]], %[[K:[^,]*]], %[[V:[^ ]*]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 63, right = 0, align = top_left>, scale = 0.088388347648318433 : f64} : tensor<1x256x2x128xf16>, tensor<1x256x2x128xf16>, tensor<1x256x2x128xf16>
// MISTRAL: sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[L]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 63, right = 0, align = top_left>, scale = 0.088388347648318433 : f64}
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/mistral_like_cudnn_fwd.mlir 2>&1 | FileCheck %s --check-prefix=MISTRALFWD
// MISTRALFWD: sdpa.attention {{.*}}mask = #sdpa.band<left = 63, right = 0, align = top_left>
// MISTRALFWD-NOT: sdpa.attention_grad

/// Gemma-2-like: the logit softcap 50 * tanh(S / 50) (written-out
/// attention, K and V repeated over 2 query heads). The dialect has no
/// softcap: declined with its name, and the module keeps its StableHLO.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=SOFTCAP,KEPT
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir 2>&1 | FileCheck %s --check-prefixes=SOFTCAP,KEPT
// SOFTCAP: remark: decomposed attention not imported: logit softcap is not supported by sdpa.attention yet
// SOFTCAP-NOT: remark: imported

/// gpt-oss with sinks written out: a sink logit per head concatenated as a
/// 257th key column, sliced off the probabilities.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=SINKS,KEPT
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_vg.mlir 2>&1 | FileCheck %s --check-prefixes=SINKS,KEPT
// SINKS: remark: decomposed attention not imported: attention sinks are not supported by sdpa.attention yet
// SINKS-NOT: remark: imported

// KEPT-NOT: sdpa.attention
// KEPT: stablehlo.exponential
// KEPT-NOT: sdpa.attention

/// A declined model still compiles: it is printed exactly as it came.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_vg.mlir 2>/dev/null | diff -I '^$' %S/Inputs/models/gptoss_sinks_xla_vg.mlir -

/// The gpt-oss-like training step lowers to four artifacts (two forwards,
/// two backwards), byte for byte the same from either path.
// RUN: rm -rf %t.xla %t.cudnn
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t.xla" %S/Inputs/models/gptoss_like_xla_vg.mlir > /dev/null 2>&1
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t.cudnn" %S/Inputs/models/gptoss_like_cudnn_vg.mlir > /dev/null 2>&1
// RUN: ls %t.xla | FileCheck %s --check-prefix=ARTIFACTS
// RUN: diff -r %t.xla %t.cudnn
// ARTIFACTS: sdpa_bwd_0.manifest
// ARTIFACTS: sdpa_bwd_1.manifest
// ARTIFACTS: sdpa_fwd_0.manifest
// ARTIFACTS: sdpa_fwd_1.manifest
