// RUN: sdpa-opt %s -sdpa-materialize-bounds -verify-diagnostics

func.func @no_schedule(%q: tensor<1x1x8x64xf16>) -> tensor<1x1x8x64xf16> {
  // expected-error @below {{expected a schedule (run sdpa-derive-bounds first)}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16>, tensor<1x1x8x64xf16> -> tensor<1x1x8x64xf16>, tensor<1x1x8xf32>
  return %o : tensor<1x1x8x64xf16>
}
