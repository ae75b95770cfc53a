// The same attention printed by JAX through cuDNN (a custom call whose
// backend_config states the mask) and through XLA (a graph whose mask is
// built from iota compares) imports to the same sdpa op: the band read from
// the config equals the band recovered from the graph, and the graph's mask
// was evaluated on all 2 x 16 x 256 x 256 cells of the fixture's shape and
// found equal to it (the remark).

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_causal_swa_fwd.mlir | FileCheck %s --check-prefix=SWA
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_causal_swa_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=SWA,SWA-CELLS
// SWA-CELLS: remark: imported decomposed attention: left = 127, right = 0, align = top_left, {{.*}}; mask verified on 2097152 cells
// SWA: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16> -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_causal_fwd.mlir | FileCheck %s --check-prefix=CAUSAL
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_causal_fwd.mlir 2>&1 | FileCheck %s --check-prefixes=CAUSAL,CAUSAL-CELLS
// CAUSAL-CELLS: remark: imported decomposed attention: left = inf, right = 0, align = top_left, {{.*}}; mask verified on 2097152 cells
// CAUSAL: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16> -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_cudnn_full_fwd.mlir | FileCheck %s --check-prefix=FULL
// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/jax_xla_full_fwd.mlir | FileCheck %s --check-prefix=FULL
// FULL: sdpa.attention %arg0, %arg1, %arg2 {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = inf, right = inf, align = top_left>, scale = 1.250000e-01 : f64} : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16> -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>
