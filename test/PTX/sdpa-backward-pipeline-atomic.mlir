// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t artifact-name=bwd dq-mode=accumulate" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/bwd.ptx
// RUN: %ptxas -arch=sm_80 -v %t/bwd.ptx -o %t/bwd.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

/// Full-mask backward at head_dim 128, non-deterministic: dQ partials are
/// relaxed atomic adds; no acquire/release; no spills or local memory.

// PTX-LABEL: .visible .entry sdpa_bwd_main(
// PTX-NOT: ld.acquire
// PTX: atom.global.add.f32
// PTX-NOT: st.release
// PTX-NOT: .local

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
func.func @grad(%q: tensor<1x4x?x128xf16>, %k: tensor<1x2x?x128xf16>, %lse: tensor<1x4x?xf32>) -> tensor<1x4x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x4x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x4x?x128xf16>, tensor<1x4x?x128xf16>, tensor<1x4x?xf32>
      -> tensor<1x4x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x4x?x128xf16>
}
