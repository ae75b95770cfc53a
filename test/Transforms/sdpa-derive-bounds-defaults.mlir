// RUN: sdpa-opt %s -sdpa-derive-bounds -split-input-file | FileCheck %s
// RUN: sdpa-opt %s -sdpa-derive-bounds="tile-kv=16" -split-input-file | FileCheck %s --check-prefix=KV16
// RUN: sdpa-opt %s -sdpa-derive-bounds="dq-mode=accumulate" -split-input-file | FileCheck %s --check-prefix=ACC
// RUN: sdpa-opt %s -sdpa-derive-bounds="dq-mode=recompute" -split-input-file | FileCheck %s --check-prefix=RC

// Tile options left 0 (unset) take the default tile rule
// (lib/Analysis/KernelDefaults.cpp, from the configuration sweep of
// bench/RESULTS.md): per op, from its direction, head dim, band width
// (left + right + 1, or the static key length; wide when unknown) and dQ
// mode. Under KV16 only tile-q is unset: it still follows the rule.
/// Forward, the gpt-oss window (d 64, 128 keys <= 512): narrow, 64 x 32.
// CHECK-LABEL: func @fwd_d64_window128
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 32,
// KV16-LABEL: func @fwd_d64_window128
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @fwd_d64_window128(%q: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xf16>
}

// -----

/// Forward causal with a dynamic key length: wide; d 64 is below 97: 64 x 64.
// CHECK-LABEL: func @fwd_d64_causal
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 64,
// KV16-LABEL: func @fwd_d64_causal
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @fwd_d64_causal(%q: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xf16>
}

// -----

/// Causal with a static key length of 256: the band is 256 keys wide, narrow.
// CHECK-LABEL: func @fwd_d64_causal_static
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 32,
// KV16-LABEL: func @fwd_d64_causal_static
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @fwd_d64_causal_static(%q: tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16> -> tensor<1x2x256x64xf16>, tensor<1x2x256xf32>
  return %o : tensor<1x2x256x64xf16>
}

// -----

/// Exactly 512 keys (511 + 0 + 1) at d 128: still narrow, 64 x 32.
// CHECK-LABEL: func @fwd_d128_band512
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 32,
// KV16-LABEL: func @fwd_d128_band512
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @fwd_d128_band512(%q: tensor<1x2x?x128xf16>) -> tensor<1x2x?x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 511, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16> -> tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x128xf16>
}

// -----

/// 513 keys at d 128: wide, 128 x 32 (the heavy case's rule).
// CHECK-LABEL: func @fwd_d128_band513
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 32,
// KV16-LABEL: func @fwd_d128_band513
// KV16: schedule = #sdpa.schedule<tile_q = 128
// KV16-SAME: tile_kv = 16,
func.func @fwd_d128_band513(%q: tensor<1x2x?x128xf16>) -> tensor<1x2x?x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 512, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16> -> tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x128xf16>
}

// -----

/// The heavy window (d 128, 4096 keys): 128 x 32.
// CHECK-LABEL: func @fwd_d128_window4096
// CHECK: schedule = #sdpa.schedule<tile_q = 128
// CHECK-SAME: tile_kv = 32,
// KV16-LABEL: func @fwd_d128_window4096
// KV16: schedule = #sdpa.schedule<tile_q = 128
// KV16-SAME: tile_kv = 16,
func.func @fwd_d128_window4096(%q: tensor<1x2x?x128xf16>) -> tensor<1x2x?x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 4095, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16> -> tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x128xf16>
}

// -----

/// d 192: the sweep did not measure it; 64 x 16 above d 176, narrow or not
/// (64 x 32 spills, 64 x 64 spills and barely fits shared memory).
// CHECK-LABEL: func @fwd_d192_window128
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 16,
// KV16-LABEL: func @fwd_d192_window128
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @fwd_d192_window128(%q: tensor<1x2x?x192xf16>) -> tensor<1x2x?x192xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16> -> tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x192xf16>
}

// -----

/// Backward, gpt-oss window (d 64, narrow), atomic dQ: 64 x 64.
// CHECK-LABEL: func @bwd_d64_window128
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 64,
// KV16-LABEL: func @bwd_d64_window128
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @bwd_d64_window128(%q: tensor<1x2x?x64xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
  return %dq : tensor<1x2x?x64xbf16>
}

// -----

/// The same deterministic: 64 x 64 too.
// CHECK-LABEL: func @bwd_d64_window128_det
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 64,
// KV16-LABEL: func @bwd_d64_window128_det
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @bwd_d64_window128_det(%q: tensor<1x2x?x64xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
  return %dq : tensor<1x2x?x64xbf16>
}

// -----

/// Backward, wide at d 128: 64 x 128, dQ recomputed or accumulated.
// CHECK-LABEL: func @bwd_d128_causal
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 128,
// ACC-LABEL: func @bwd_d128_causal
// ACC: schedule = #sdpa.schedule<tile_q = 64
// ACC-SAME: tile_kv = 128,
// KV16-LABEL: func @bwd_d128_causal
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @bwd_d128_causal(%q: tensor<1x2x?x128xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
  return %dq : tensor<1x2x?x128xbf16>
}

// -----

/// The same deterministic: 64 x 128 too.
// CHECK-LABEL: func @bwd_d128_causal_det
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 128,
// KV16-LABEL: func @bwd_d128_causal_det
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
func.func @bwd_d128_causal_det(%q: tensor<1x2x?x128xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
  return %dq : tensor<1x2x?x128xbf16>
}

// -----

/// Narrow at d 128: above d 96, so 32 x 64 as before.
// CHECK-LABEL: func @bwd_d128_window128
// CHECK: schedule = #sdpa.schedule<tile_q = 32
// CHECK-SAME: tile_kv = 64,
// KV16-LABEL: func @bwd_d128_window128
// KV16: schedule = #sdpa.schedule<tile_q = 32
// KV16-SAME: tile_kv = 16,
func.func @bwd_d128_window128(%q: tensor<1x2x?x128xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
  return %dq : tensor<1x2x?x128xbf16>
}

// -----

/// Wide at d 96 with dQ recomputed (the default): 64 x 128 (measured 0.95x
/// the time of 64 x 64, which was 0.80x that of 32 x 64, causal 8k);
/// accumulated: 32 x 64 (the relay's main kernel spills at 64 x 64).
// CHECK-LABEL: func @bwd_d96_causal
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 128,
// KV16-LABEL: func @bwd_d96_causal
// KV16: schedule = #sdpa.schedule<tile_q = 64
// KV16-SAME: tile_kv = 16,
// ACC-LABEL: func @bwd_d96_causal
// ACC: schedule = #sdpa.schedule<tile_q = 32
// ACC-SAME: tile_kv = 64,
func.func @bwd_d96_causal(%q: tensor<1x2x?x96xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x96xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>
  return %dq : tensor<1x2x?x96xbf16>
}

// -----

/// Wide at d 112 (mma width 112): 64 x 128 as well.
// CHECK-LABEL: func @bwd_d112_causal
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 128,
func.func @bwd_d112_causal(%q: tensor<1x2x?x112xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x112xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x112xbf16>, tensor<1x2x?x112xbf16>, tensor<1x2x?x112xbf16>, tensor<1x2x?x112xbf16>, tensor<1x2x?x112xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x112xbf16>, tensor<1x2x?x112xbf16>, tensor<1x2x?x112xbf16>
  return %dq : tensor<1x2x?x112xbf16>
}

// -----

/// Backward, narrow (window 128) at d 96, deterministic: the default dQ mode
/// recomputes, and recomputed d 81..96 takes 64 x 64 (0.82x the time of
/// 32 x 64); with dq-mode=accumulate the relay's main kernel spills at
/// 64 x 64, so that mode's tiles are 32 x 64.
// CHECK-LABEL: func @bwd_d96_window128_det
// CHECK: schedule = #sdpa.schedule<tile_q = 64
// CHECK-SAME: tile_kv = 64,
// RC-LABEL: func @bwd_d96_window128_det
// RC: schedule = #sdpa.schedule<tile_q = 64
// RC-SAME: tile_kv = 64,
// ACC-LABEL: func @bwd_d96_window128_det
// ACC: schedule = #sdpa.schedule<tile_q = 32
// ACC-SAME: tile_kv = 64,
func.func @bwd_d96_window128_det(%q: tensor<1x2x?x96xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x96xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>
  return %dq : tensor<1x2x?x96xbf16>
}

// -----

/// Backward above d 128 (Gemma 2's d 256, window 4096, cap 50): recomputed
/// by default at bwd_dq's widest key tile there, 32 x 32; accumulated at
/// 32 x 64.
// CHECK-LABEL: func @bwd_d256_capped
// CHECK: schedule = #sdpa.schedule<tile_q = 32
// CHECK-SAME: tile_kv = 32,
// RC-LABEL: func @bwd_d256_capped
// RC: schedule = #sdpa.schedule<tile_q = 32
// RC-SAME: tile_kv = 32,
// ACC-LABEL: func @bwd_d256_capped
// ACC: schedule = #sdpa.schedule<tile_q = 32
// ACC-SAME: tile_kv = 64,
func.func @bwd_d256_capped(%q: tensor<1x2x?x256xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x256xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>
  return %dq : tensor<1x2x?x256xbf16>
}
