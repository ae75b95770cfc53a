// JAX's cuDNN custom calls on every cuDNN fixture. Expected values derived
// from the fixtures' backend_config: fmha_scale 0.125; sliding_window_length
// 128 keys -> left = 127 (0 -> unbounded); CAUSAL / PADDING_CAUSAL ->
// right = 0, top-left (JAX's causal); NO_MASK -> right unbounded; bmm1 batch
// dims [0, 2] -> BTNH = bshd. The transposes JAX puts after the calls
// ([0, 2, 1, 3], BNTH -> BTNH) cancel against the bshd results.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_causal_fwd.mlir | FileCheck %s --check-prefix=CAUSAL
// CAUSAL-LABEL: func.func public @main
// CAUSAL-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x16x64xbf16>, %[[V:.*]]: tensor<2x256x16x64xbf16>)
// CAUSAL-NOT: stablehlo.custom_call
// CAUSAL: %[[O:.*]], %{{.*}} = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16> -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>
// CAUSAL-NOT: stablehlo.transpose
// CAUSAL: return %[[O]] : tensor<2x256x16x64xbf16>

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_causal_swa_fwd.mlir | FileCheck %s --check-prefix=SWA
// SWA-LABEL: func.func public @main
// SWA-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x16x64xbf16>, %[[V:.*]]: tensor<2x256x16x64xbf16>)
// SWA: %[[O:.*]], %{{.*}} = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// SWA-NOT: stablehlo.transpose
// SWA: return %[[O]]

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_full_fwd.mlir | FileCheck %s --check-prefix=FULL
// FULL-LABEL: func.func public @main
// FULL: %[[O:.*]], %{{.*}} = sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = inf, align = top_left>, scale = 1.250000e-01 : f64}
// FULL-NOT: stablehlo.transpose
// FULL: return %[[O]]

/// Grouped-query attention, 16 query heads over 4 key/value heads: the
/// shapes carry it.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_gqa_causal_swa_fwd.mlir | FileCheck %s --check-prefix=GQA
// GQA-LABEL: func.func public @main
// GQA-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x4x64xbf16>, %[[V:.*]]: tensor<2x256x4x64xbf16>)
// GQA: %[[O:.*]], %{{.*}} = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x4x64xbf16>, tensor<2x256x4x64xbf16> -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>
// GQA: return %[[O]]

/// PADDING_CAUSAL: the two per-batch length operands become seqlens.
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_seqlens_causal_fwd.mlir | FileCheck %s --check-prefix=LENS
// LENS-LABEL: func.func public @main
// LENS-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x16x64xbf16>, %[[V:.*]]: tensor<2x256x16x64xbf16>, %[[L:.*]]: tensor<2xi32>)
// LENS: %[[O:.*]], %{{.*}} = sdpa.attention %[[Q]], %[[K]], %[[V]] seqlens(%[[L]], %[[L]] : tensor<2xi32>, tensor<2xi32>) {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// LENS: return %[[O]]

/// Backward: the forward's output and softmax stats feed the gradient; the
/// call's operands are (q, k, v, stats, dO, O).
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_causal_swa_bwd.mlir | FileCheck %s --check-prefix=SWABWD
// SWABWD-LABEL: func.func public @main
// SWABWD-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x16x64xbf16>, %[[V:.*]]: tensor<2x256x16x64xbf16>)
// SWABWD: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// SWABWD: %[[DO:.*]] = stablehlo.convert
// SWABWD: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %[[DO]], %[[LSE]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x16x256xf32> -> tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>
// SWABWD-NOT: stablehlo.transpose
// SWABWD-NOT: stablehlo.custom_call
// SWABWD: return %[[DQ]], %[[DK]], %[[DV]]

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_causal_bwd.mlir | FileCheck %s --check-prefix=CBWD
// CBWD: %[[O:.*]], %[[LSE:.*]] = sdpa.attention {{.*}}mask = #sdpa.band<left = inf, right = 0, align = top_left>
// CBWD: sdpa.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}}, %[[LSE]] {{.*}}mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// CBWD-NOT: stablehlo.custom_call

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_full_bwd.mlir | FileCheck %s --check-prefix=FBWD
// FBWD: %[[O:.*]], %[[LSE:.*]] = sdpa.attention {{.*}}mask = #sdpa.band<left = inf, right = inf, align = top_left>
// FBWD: sdpa.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %{{.*}}, %[[LSE]] {{.*}}mask = #sdpa.band<left = inf, right = inf, align = top_left>
// FBWD-NOT: stablehlo.custom_call
