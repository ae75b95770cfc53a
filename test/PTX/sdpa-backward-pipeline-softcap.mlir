// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_bwd_1.manifest
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_1.ptx -o %t/d128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

/// The backward with a logit softcap (docs/Semantics.md §7): P from the
/// capped scores and dS times 1 - tanh^2, at d = 64 (deterministic) and
/// d = 128 (atomic dQ) with the default tiles; every kernel assembles for
/// sm_80 without spills or local memory.

// MANIFEST: softcap 50
// MANIFEST-NEXT: deterministic 0

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
func.func @d64(%q: tensor<2x16x?x64xf16>, %lse: tensor<2x16x?xf32>) -> tensor<2x16x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, softcap = 30.0 : f32, deterministic}
      : tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>
  return %dq : tensor<2x16x?x64xf16>
}

func.func @d128(%q: tensor<1x8x?x128xbf16>, %lse: tensor<1x8x?xf32>) -> tensor<1x8x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?xf32>
      -> tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>
  return %dq : tensor<1x8x?x128xbf16>
}
