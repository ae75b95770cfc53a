// RUN: rm -rf %t && %sdpa_opt %s --sdpa-pipeline="artifact-dir=%t" | FileCheck %s
// RUN: FileCheck %s --check-prefix=FWD < %t/sdpa_fwd_0.manifest
// RUN: FileCheck %s --check-prefix=BWD < %t/sdpa_bwd_0.manifest
// RUN: %sdpa_opt %s --sdpa-pipeline="tile-q=128 backward-tile-q=64 backward-tile-kv=128" | FileCheck %s --check-prefix=TILES
// RUN: not %sdpa_opt %s --sdpa-pipeline="backward-tile-q=24" 2>&1 | FileCheck %s --check-prefix=ERR

/// A training step's attention in one module: the forward and its gradient.
/// Each direction is lowered with its own tiles (by default the default tile
/// rule's for a band of 128 keys at d 64: forward 64 x 32, backward 64 x 64),
/// the host side is stripped, and both kernel modules are written as
/// artifacts. Under TILES the unset forward tile-kv still follows the rule.
// CHECK: module attributes {gpu.container_module
// CHECK-DAG: gpu.binary @sdpa_fwd_0
// CHECK-DAG: gpu.binary @sdpa_bwd_0
// CHECK-NOT: func.func

// FWD: direction forward
// FWD: tile_q 64
// FWD-NEXT: tile_kv 32
// FWD: band 127 0 top_left
// BWD: direction backward
// BWD: tile_q 64
// BWD-NEXT: tile_kv 64
// BWD: band 127 0 top_left
// BWD: deterministic 1

// TILES-DAG: sdpa_fwd_0 = "sdpa-artifact 1\0Adirection forward\0Adtype bf16\0Ahead_dim 64\0Atile_q 128\0Atile_kv 32
// TILES-DAG: sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype bf16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 128

/// The backward's tile checks still apply.
// ERR: expected schedule tile_q to be a multiple of 16 and at most tile_kv
func.func @step(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>,
                %do: tensor<2x16x?x64xbf16>)
    -> (tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>) {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %v, %o, %do, %lse
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>,
        tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
  return %dq, %dk, %dv : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
}
