// RUN: sdpa-opt %s -split-input-file --sdpa-forward-pipeline -verify-diagnostics
// RUN: not sdpa-opt %s -split-input-file --sdpa-backward-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=BWD

/// Each single-direction pipeline lowers its own op only. They used to
/// erase the other direction's op with the host side and exit 0, leaving no
/// kernel for it; now such an op is refused before the host side goes.

// BWD: error: 'sdpa.attention' op is not lowered by this pipeline (sdpa-forward-pipeline lowers sdpa.attention, sdpa-backward-pipeline sdpa.attention_grad, sdpa-pipeline both)
func.func @forward(%q: tensor<1x1x128x64xf16>) -> tensor<1x1x128x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16> -> tensor<1x1x128x64xf16>, tensor<1x1x128xf32>
  return %o : tensor<1x1x128x64xf16>
}

// -----

func.func @grad(%q: tensor<1x1x128x64xf16>, %lse: tensor<1x1x128xf32>) -> tensor<1x1x128x64xf16> {
  // expected-error @+1 {{'sdpa.attention_grad' op is not lowered by this pipeline (sdpa-forward-pipeline lowers sdpa.attention, sdpa-backward-pipeline sdpa.attention_grad, sdpa-pipeline both)}}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128xf32>
      -> tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>, tensor<1x1x128x64xf16>
  return %dq : tensor<1x1x128x64xf16>
}
