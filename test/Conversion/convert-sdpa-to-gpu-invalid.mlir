// RUN: %sdpa_opt %s -split-input-file -verify-diagnostics --convert-sdpa-to-gpu="warps=8"

/// The schema's table of head dims decides (the runtime reads artifacts
/// against the same table): multiples of 8 up to 256 (40 lowers, zero-padded
/// to its mma width 48: convert-sdpa-to-gpu-padded-head-dim.mlir).
func.func @head_dim_past_max(%q: tensor<1x2x128x272xf16>) -> tensor<1x2x128x272xf16> {
  // expected-error @+1 {{expected a static head_dim, a multiple of 8 from 8 to 256, got 272 (no tile of it fits the registers and shared memory of one SM80 block)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x128x272xf16>, tensor<1x2x128x272xf16>, tensor<1x2x128x272xf16>
      -> tensor<1x2x128x272xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x272xf16>
}

// -----

func.func @head_dim_odd(%q: tensor<1x2x128x20xf16>) -> tensor<1x2x128x20xf16> {
  // expected-error @+1 {{expected a static head_dim, a multiple of 8 from 8 to 256, got 20 (rows are copied in 16-byte chunks of 8 elements)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x128x20xf16>, tensor<1x2x128x20xf16>, tensor<1x2x128x20xf16>
      -> tensor<1x2x128x20xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x20xf16>
}

// -----

/// Per-batch valid lengths on a dense layout: the kernel has no parameters
/// for them (the runtime passes per-sequence lengths only as thd offsets).
func.func @padded(%q: tensor<2x256x16x64xbf16>, %lens: tensor<2xi32>) -> tensor<2x256x16x64xbf16> {
  // expected-error @+1 {{expected no seqlens operands for layout bshd: the gpu lowering takes per-sequence lengths only as thd cumulative offsets}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%lens, %lens : tensor<2xi32>, tensor<2xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<bshd>}
      : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>
      -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>
  return %o : tensor<2x256x16x64xbf16>
}

// -----

/// 8 warps of 16 rows need query tiles of at least 128 rows.
func.func @tile_q(%q: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  // expected-error @+1 {{expected schedule tile_q 64 to be a multiple of 16 * warps (128)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>
      -> tensor<1x2x128x64xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x64xf16>
}

// -----

/// Packed sequences pass the layout check and get the same tile checks.
func.func @thd_tile_q(%q: tensor<1000x8x64xf16>, %cu: tensor<4xi32>) -> tensor<1000x8x64xf16> {
  // expected-error @+1 {{expected schedule tile_q 64 to be a multiple of 16 * warps (128)}}
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = 31, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<1000x8x64xf16>, tensor<1000x8x64xf16>, tensor<1000x8x64xf16>
      -> tensor<1000x8x64xf16>, tensor<8x1000xf32>
  return %o : tensor<1000x8x64xf16>
}
