// RUN: sdpa-opt %s -split-input-file -verify-diagnostics
// RUN: not sdpa-opt %S/Inputs/small.mlir -sdpa-derive-bounds="tile-q=9223372036854775807" 2>&1 | FileCheck %s --check-prefix=TILES
// RUN: not sdpa-opt %S/Inputs/small.mlir -sdpa-print-schedule="tile-kv=65537" 2>&1 | FileCheck %s --check-prefix=TILES
// RUN: sdpa-opt %S/Inputs/small.mlir -sdpa-print-schedule="tile-q=65536 tile-kv=65536" -o /dev/null | FileCheck %s --check-prefix=MAXTILE
// RUN: not sdpa-opt %S/Inputs/dynamic.mlir -sdpa-print-schedule="seq-lens-q=9223372036854775807 seq-lens-kv=8" 2>&1 | FileCheck %s --check-prefix=LENS

/// Inputs that overflowed int64_t in the schedule arithmetic, found while
/// hardening (docs/Robustness.md): every size must fit 32-bit indexing and
/// tiles are at most 65536; each now gets a diagnostic.

// TILES: error: expected tile-q and tile-kv to be at most 65536
/// The largest tiles work: one partial tile each way, so nothing is interior.
// MAXTILE: sdpa.schedule fwd q_tile=0 kv=[0,1) interior=[1,1)
// LENS: error: expected sequence lengths of at most 2147483647

/// A key length near 2^63: sdpa-print-schedule overflowed in tileCount.
func.func @huge_key_length(%q: tensor<1x1x1x64xf16>, %k: tensor<1x1x9223372036854775806x64xf16>) {
  // expected-error @+1 {{expected key dimension 2 to be at most 2147483647 (32-bit index arithmetic), got 9223372036854775806}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = 5, right = 3, align = bottom_right>}
      : tensor<1x1x1x64xf16>, tensor<1x1x9223372036854775806x64xf16>, tensor<1x1x9223372036854775806x64xf16> -> tensor<1x1x1x64xf16>, tensor<1x1x1xf32>
  return
}

// -----

/// The limit itself is accepted.
func.func @max_query_length(%q: tensor<1x1x2147483647x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x2147483647x64xf16>, tensor<1x1x2147483647x64xf16>, tensor<1x1x2147483647x64xf16> -> tensor<1x1x2147483647x64xf16>, tensor<1x1x2147483647xf32>
  return
}

// -----

func.func @huge_heads(%q: tensor<1x2147483648x8x64xbf16>) {
  // expected-error @+1 {{expected query dimension 1 to be at most 2147483647 (32-bit index arithmetic), got 2147483648}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x2147483648x8x64xbf16>, tensor<1x2147483648x8x64xbf16>, tensor<1x2147483648x8x64xbf16> -> tensor<1x2147483648x8x64xbf16>, tensor<1x2147483648x8xf32>
  return
}

// -----

/// A schedule whose tile size wraps the affine maps' arithmetic.
func.func @huge_schedule_tile(%q: tensor<1x1x8x64xf16>) {
  // expected-error @+1 {{expected schedule tile sizes to be at most 65536}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 5, right = 3, align = top_left>,
      schedule = #sdpa.schedule<tile_q = 9223372036854775807, tile_kv = 64,
        kv_begin = (d0)[s0, s1] -> (0), kv_end = (d0)[s0, s1] -> (1),
        interior_begin = (d0)[s0, s1] -> (0), interior_end = (d0)[s0, s1] -> (0),
        q_begin = (d0)[s0, s1] -> (0), q_end = (d0)[s0, s1] -> (1), q_interior_begin = (d0)[s0, s1] -> (0),
        q_interior_end = (d0)[s0, s1] -> (1), kv_first = (d0)[s0, s1] -> (0), relay_turn = (d0, d1)[s0, s1] -> (d0)>}
      : tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16> -> tensor<1x1x8x64xf16>, tensor<1x1x8xf32>
  return
}
