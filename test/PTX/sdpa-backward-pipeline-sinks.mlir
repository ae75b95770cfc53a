// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t dq-mode=accumulate" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_bwd_0.manifest
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_1.ptx -o %t/d128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_1.ptx

/// The backward with attention sinks (docs/Semantics.md §7): bwd_preprocess
/// writes each tile's partial of dsink, bwd_dq_convert sums them in a fixed
/// order, at d = 64 (GQA, deterministic) and d = 128 (THD, atomic dQ) with the
/// default tiles; every kernel assembles for sm_80 without spills or local
/// memory, and the two reductions use 16 bytes of static shared memory (one
/// f32 per warp).

// MANIFEST: sinks 1
// MANIFEST-NEXT: deterministic 1
// MANIFEST: kernel sdpa_bwd_preprocess bwd_preprocess
// MANIFEST: param lse ptr
// MANIFEST-NEXT: param sinks ptr
// MANIFEST-NEXT: param dsink_partials ptr
// MANIFEST-NEXT: param relay_counters ptr
// MANIFEST: param lse_stride_h i64
// MANIFEST-NEXT: kernel sdpa_bwd_main bwd_main
// MANIFEST-NOT: sinks
// MANIFEST: kernel sdpa_bwd_dq_convert bwd_dq_convert
// MANIFEST: param dq ptr
// MANIFEST-NEXT: param dsink_partials ptr
// MANIFEST-NEXT: param grad_sinks ptr

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores

// PTX: .visible .entry sdpa_bwd_preprocess(
// PTX: .shared .align 4 .b8 {{.+}}[16];
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx
// PTX: bar.sync
// PTX: .visible .entry sdpa_bwd_dq_convert(
// PTX-NOT: .local

func.func @d64(%q: tensor<2x16x?x64xf16>, %k: tensor<2x4x?x64xf16>, %lse: tensor<2x16x?xf32>, %s: tensor<16xf32>) -> tensor<16xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %k, %k, %q, %q, %lse sinks(%s : tensor<16xf32>) {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<2x16x?x64xf16>, tensor<2x4x?x64xf16>, tensor<2x4x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xf16>, tensor<2x4x?x64xf16>, tensor<2x4x?x64xf16>, tensor<16xf32>
  return %ds : tensor<16xf32>
}

func.func @d128(%q: tensor<?x8x128xbf16>, %lse: tensor<8x?xf32>, %cu: tensor<3xi32>, %s: tensor<8xf32>) -> tensor<8xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>) sinks(%s : tensor<8xf32>)
      {layout = #sdpa.layout<thd>, mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<8x?xf32>
      -> tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>, tensor<8xf32>
  return %ds : tensor<8xf32>
}
