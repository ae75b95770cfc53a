// RUN: %sdpa_opt %s -split-input-file --sdpa-check-index-range -verify-diagnostics
// RUN: %sdpa_opt %s -split-input-file --sdpa-forward-pipeline="index-bitwidth=32" -verify-diagnostics -o /dev/null
// At 64 bits the same ops lower.
// RUN: %sdpa_opt %s -split-input-file --sdpa-forward-pipeline -o /dev/null

/// At a 32-bit index the kernels address 2^31 elements of each tensor: q of
/// 2^31 + 64 elements is refused, naming it, before any lowering.
func.func @past(%q: tensor<1x1x33554433x64xbf16>) -> tensor<1x1x33554433x64xbf16> {
  // expected-error @below {{'sdpa.attention' op operand #0 (tensor<1x1x33554433x64xbf16>) holds 2147483712 elements, more than a 32-bit index addresses (2^31; index-bitwidth=64 lowers it)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x33554433x64xbf16>, tensor<1x1x33554433x64xbf16>, tensor<1x1x33554433x64xbf16>
      -> tensor<1x1x33554433x64xbf16>, tensor<1x1x33554433xf32>
  return %o : tensor<1x1x33554433x64xbf16>
}

// -----

/// Exactly 2^31 elements: the last offset is 2^31 - 1, addressable.
func.func @fits(%q: tensor<1x1x33554432x64xbf16>) -> tensor<1x1x33554432x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x33554432x64xbf16>, tensor<1x1x33554432x64xbf16>, tensor<1x1x33554432x64xbf16>
      -> tensor<1x1x33554432x64xbf16>, tensor<1x1x33554432xf32>
  return %o : tensor<1x1x33554432x64xbf16>
}

// -----

/// K and V past it with a short query: the key side is named.
func.func @keys(%q: tensor<1x1x128x64xbf16>, %k: tensor<1x1x33554433x64xbf16>) -> tensor<1x1x128x64xbf16> {
  // expected-error @below {{'sdpa.attention' op operand #1 (tensor<1x1x33554433x64xbf16>) holds 2147483712 elements}}
  %o, %lse = sdpa.attention %q, %k, %k {mask = #sdpa.band<left = inf, right = inf, align = bottom_right>}
      : tensor<1x1x128x64xbf16>, tensor<1x1x33554433x64xbf16>, tensor<1x1x33554433x64xbf16>
      -> tensor<1x1x128x64xbf16>, tensor<1x1x128xf32>
  return %o : tensor<1x1x128x64xbf16>
}
