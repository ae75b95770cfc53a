// RUN: %sdpa_opt %s -split-input-file -verify-diagnostics --convert-sdpa-to-gpu

/// What the runtime would refuse in an artifact, the lowering refuses first
/// (the manifest's facts, docs/Robustness.md).

/// Issue 13: a scale below the smallest normal f32 was baked in as 0.
func.func @tiny_scale(%q: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  // expected-error @+1 {{expected scale to be a positive normal f32, 1.17549435e-38 to 3.40282347e+38 (the kernels compute in f32), got 1.000000e-50}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.0e-50 : f64}
      : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>
      -> tensor<1x2x128x64xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x64xf16>
}

// -----

/// Issue 13: a scale past the largest f32 was baked in as +inf.
func.func @huge_scale(%q: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  // expected-error @+1 {{expected scale to be a positive normal f32, 1.17549435e-38 to 3.40282347e+38 (the kernels compute in f32), got 1.000000e+300}}
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, scale = 1.0e300 : f64}
      : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>
      -> tensor<1x2x128x64xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x64xf16>
}

// -----

/// Issue 13: a stale `sdpa.artifacts` record in the input won over the
/// generated manifest (it said band 127, the PTX was the band-31 kernel).
/// A record that names no gpu.module did not come from a compilation.
// expected-error @+1 {{expected every 'sdpa.artifacts' entry to name a gpu.module this lowering built, but 'sdpa_fwd_0' names none (the artifacts are written from what is compiled, never from an input record)}}
module attributes {sdpa.artifacts = {sdpa_fwd_0 = "sdpa-artifact 1\0Aband 127 0 top_left\0A"}} {
  func.func @stale(%q: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 31, right = 0, align = top_left>}
        : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>
        -> tensor<1x2x128x64xf16>, tensor<1x2x128xf32>
    return %o : tensor<1x2x128x64xf16>
  }
}
