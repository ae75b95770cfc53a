// End to end: StableHLO that JAX printed in, the kernels (artifacts) and the
// module with each attention site an XLA FFI call to them out
// (docs/Export.md). Nothing of the lowering stays in the module.
//
// A forward (cuDNN call, causal window of 128 keys): one kernel module, one
// call.
// RUN: rm -rf %t && %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t/fwd" %S/Inputs/jax_cudnn_causal_swa_fwd.mlir | FileCheck %s --check-prefix=FWD
// RUN: FileCheck %s --check-prefix=PTX < %t/fwd/sdpa_fwd_0.ptx
// The decomposed XLA graph of the same attention: the same call.
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t/xla" %S/Inputs/jax_xla_causal_swa_fwd.mlir 2>/dev/null | FileCheck %s --check-prefix=FWD
//
// A training step (value_and_grad on the cuDNN path: forward and backward
// calls): two kernel modules, each direction with its own tiles, two calls;
// the backward reads the forward call's O and LSE.
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t/step" %S/Inputs/jax_cudnn_causal_swa_bwd.mlir | FileCheck %s --check-prefix=STEP
// RUN: FileCheck %s --check-prefix=BWD < %t/step/sdpa_bwd_0.manifest
//
// The same training step on JAX's XLA path (decomposed forward and its
// autodiff): the same two artifacts, byte for byte, and the same two calls.
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t/xlastep" %S/Inputs/jax_xla_causal_swa_bwd.mlir 2>/dev/null | FileCheck %s --check-prefix=STEP
// RUN: diff -r %t/step %t/xlastep

// FWD-LABEL: func.func public @main
// FWD: %[[F:.*]]:2 = stablehlo.custom_call @sdpa_forward(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) {api_version = 4 : i32, backend_config = {artifact = "{{.*}}/sdpa_fwd_0", bottom_right = false, kernel = "sdpa_fwd_0", layout = "bshd", left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
// FWD-SAME: -> (tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>)
// FWD: return
// FWD-NOT: sdpa.
// FWD-NOT: gpu.
// FWD-NOT: sdpa_kernels

// PTX: .entry sdpa_fwd_0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// STEP-LABEL: func.func public @main
// STEP: %[[F:.*]]:2 = stablehlo.custom_call @sdpa_forward(%[[Q:[^,]+]], %[[K:[^,]+]], %[[V:[^)]+]])
// STEP-SAME: artifact = "{{.*}}step/sdpa_fwd_0"
// STEP: %[[B:.*]]:6 = stablehlo.custom_call @sdpa_backward(%[[Q]], %[[K]], %[[V]], %[[F]]#0, %{{.*}}, %[[F]]#1)
// STEP-SAME: artifact = "{{.*}}step/sdpa_bwd_0", bottom_right = false, deterministic = false, kernel = "sdpa_bwd_main"
/// Workspaces: dQ_accum of no element (a band of 128 keys at d 64 takes
/// the default dq-mode rule's recompute: bwd_dq forms dQ), Delta
/// [B, Hq, Sq], relay counters [B, Hq, 256 / 64] (tile-q 64: the default
/// tile rule for that band; unused unless relayed, there for one signature).
// STEP-SAME: -> (tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<0xf32>, tensor<2x16x256xf32>, tensor<2x16x4xi32>)
// STEP: return
// STEP-NOT: gpu.

/// cuDNN's sliding_window_length = 128 is L = 127; JAX's layout is bshd.
// BWD: direction backward
// BWD: tile_q 64
// BWD-NEXT: tile_kv 64
// BWD: band 127 0 top_left
// BWD: kernel sdpa_bwd_main bwd_main
// BWD: param q_stride_b i64
// BWD: kernel sdpa_bwd_dq bwd_dq
