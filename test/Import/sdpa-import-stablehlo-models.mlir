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
/// attention, K and V repeated over 2 query heads): softcap = 50, both ways
/// (sdpa-import-stablehlo-xla-softcap.mlir has its mutations).
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gemma2_like_softcap_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=SOFTCAP,NOSOFTMAX
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir 2>&1 | FileCheck %s --check-prefixes=SOFTCAP,SOFTCAPVG,NOSOFTMAX
// SOFTCAP: remark: imported decomposed attention: left = 63, right = 0, align = top_left, scale 6.250000e-02, layout bshd, 2 query head(s) per kv head; softcap 5.000000e+01; mask verified on 131072 cells
// SOFTCAPVG: remark: imported decomposed attention backward
// SOFTCAP-LABEL: func.func public @main
// SOFTCAP: sdpa.attention {{.*}}mask = #sdpa.band<left = 63, right = 0, align = top_left>, scale = 6.250000e-02 : f64, softcap = 5.000000e+01 : f32} : tensor<1x256x2x256xbf16>, tensor<1x256x1x256xbf16>, tensor<1x256x1x256xbf16>
// SOFTCAPVG: sdpa.attention_grad {{.*}}softcap = 5.000000e+01 : f32}

/// gpt-oss with sinks written out: a sink logit per head concatenated as a
/// 257th key column, sliced off the probabilities: sinks(%arg1), the
/// forward (sdpa-import-stablehlo-xla-sinks.mlir has its mutations).
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=SINKS,NOSOFTMAX
// SINKS: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 4 query head(s) per kv head; sinks; mask verified on 262144 cells
// SINKS-LABEL: func.func public @main
// SINKS: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%arg1 : tensor<4xf32>) {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}

// KEPT-NOT: sdpa.attention
// KEPT: stablehlo.exponential
// KEPT-NOT: sdpa.attention

/// A declined model still compiles: it is printed exactly as it came (the
/// sinks model with its sink column sliced off from the wrong end).
// RUN: sed -e 's/%127 = stablehlo.slice %123 \[0:1, 0:4, 0:256, 0:256\]/%127 = stablehlo.slice %123 [0:1, 0:4, 0:256, 1:257]/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir > %t.declined.mlir
// RUN: %sdpa_opt -sdpa-import-stablehlo %t.declined.mlir 2>/dev/null | diff -I '^$' %t.declined.mlir -

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

/// The Gemma-2-like training step through the whole pipeline: each site is
/// imported only where the gpu lowerings accept its op (check-lowering), so
/// the module compiles whole. At d 256 the default forward tiles are
/// 64 x 16 (above d 176 the rule's: 64 x 64 would not fit shared memory,
/// 64 x 32 spills), so both sites lower with the defaults.
// RUN: rm -rf %t.g2 %t.g2default
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t.g2default" %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir 2>&1 | FileCheck %s --check-prefix=G2DEFAULT
// RUN: FileCheck %s --check-prefix=G2DEFAULTTILES < %t.g2default/sdpa_fwd_0.manifest
// G2DEFAULT-NOT: not imported
// G2DEFAULT: remark: imported decomposed attention: {{.*}}softcap 5.000000e+01
// G2DEFAULT: remark: imported decomposed attention backward:
// G2DEFAULT-LABEL: func.func public @main
// G2DEFAULT: stablehlo.custom_call @sdpa_forward
// G2DEFAULT: stablehlo.custom_call @sdpa_backward
// G2DEFAULTTILES: head_dim 256
// G2DEFAULTTILES-NEXT: tile_q 64
// G2DEFAULTTILES-NEXT: tile_kv 16
/// With tile-kv 32 the forward lowers with its cap and becomes an FFI call
/// stating it; the backward at d 256 (split visits, two warps per 16 keys) lowers
/// too and becomes the backward FFI call with the same cap.
// RUN: %sdpa_opt '-sdpa-stablehlo-pipeline=lowering={tile-kv=32 artifact-dir=%t.g2}' %S/Inputs/models/gemma2_like_softcap_xla_vg.mlir 2>&1 | FileCheck %s --check-prefix=G2
// RUN: ls %t.g2 | FileCheck %s --check-prefix=G2FILES
// RUN: FileCheck %s --check-prefix=G2MANIFEST < %t.g2/sdpa_fwd_0.manifest
// G2-NOT: not imported
// G2: remark: imported decomposed attention: {{.*}}softcap 5.000000e+01
// G2-LABEL: func.func public @main
// G2: stablehlo.custom_call @sdpa_forward({{.*}}layout = "bshd", left = 63 : i64, right = 0 : i64, scale = 6.250000e-02 : f32, softcap = 5.000000e+01 : f32}
// G2: stablehlo.custom_call @sdpa_backward({{.*}}kernel = "sdpa_bwd_main", layout = "bshd", left = 63 : i64, right = 0 : i64, scale = 6.250000e-02 : f32, softcap = 5.000000e+01 : f32}
// G2-NOT: sdpa.
// G2FILES: sdpa_bwd_0.manifest
// G2FILES-NEXT: sdpa_bwd_0.ptx
// G2FILES-NEXT: sdpa_fwd_0.manifest
// G2FILES-NEXT: sdpa_fwd_0.ptx
// G2MANIFEST: head_dim 256
// G2MANIFEST: band 63 0 top_left
// G2MANIFEST: softcap 50
