// XLA-decomposed forward graphs of every XLA fixture. Expected bands from
// the JAX calls that printed them (docs/Semantics.md §1.1: local_window_size
// (l, r) and is_causal, top-left): causal (inf, 0); causal with a window of
// 128 keys (127, 0); symmetric window (127, 127); none (inf, inf). The
// remark reports the band recovered from the compares and the number of
// mask cells (2 x 16 x 256 x 256 = 2097152) checked against it.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_causal_fwd.mlir 2>&1 | FileCheck %s --check-prefix=CAUSAL
// CAUSAL: remark: imported decomposed attention: left = inf, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; mask verified on 2097152 cells
// CAUSAL-LABEL: func.func public @main
// CAUSAL-SAME: (%[[Q:.*]]: tensor<2x256x16x64xbf16>, %[[K:.*]]: tensor<2x256x16x64xbf16>, %[[V:.*]]: tensor<2x256x16x64xbf16>)
// CAUSAL-NEXT: %[[O:.*]], %{{.*}} = sdpa.attention %[[Q]], %[[K]], %[[V]] {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16> -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>
// CAUSAL-NEXT: return %[[O]] : tensor<2x256x16x64xbf16>
/// The outlined helpers were only used by the graph and are gone.
// CAUSAL-NOT: func.func private

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_causal_swa_fwd.mlir 2>&1 | FileCheck %s --check-prefix=SWA
// SWA: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; mask verified on 2097152 cells
// SWA-LABEL: func.func public @main
// SWA-NEXT: %[[O:.*]], %{{.*}} = sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64}
// SWA-NEXT: return %[[O]]
// SWA-NOT: stablehlo.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_swa_sym_fwd.mlir 2>&1 | FileCheck %s --check-prefix=SYM
// SYM: remark: imported decomposed attention: left = 127, right = 127, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; mask verified on 2097152 cells
// SYM-LABEL: func.func public @main
// SYM-NEXT: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 127, align = top_left>, scale = 1.250000e-01 : f64}
// SYM-NOT: stablehlo.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_full_fwd.mlir 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: remark: imported decomposed attention: left = inf, right = inf, align = top_left, scale 1.250000e-01, layout bshd, 1 query head(s) per kv head; no mask
// FULL-LABEL: func.func public @main
// FULL-NEXT: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = inf, align = top_left>, scale = 1.250000e-01 : f64}
// FULL-NOT: stablehlo.

/// The backward fixtures (forward and JAX's autodiff of it) are in
/// sdpa-import-stablehlo-xla-backward.mlir.
