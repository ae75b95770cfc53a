// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t dq-mode=accumulate" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_bwd_0.manifest
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_1.ptx -o %t/d128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_2.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_2.ptx -o %t/gqa.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

/// The gpt-oss backward in bf16 (causal window of 128 keys, deterministic)
/// at head_dim 64 and 128 with the default tiles (Tq = 32, Tk = 64): the
/// products are bf16 mma.sync, f32 -> bf16 conversions round to nearest, and
/// every kernel assembles for sm_80 without spills or local memory
/// (measured, ptxas 13.0: main kernel 241 registers at d = 64, 252 at
/// d = 128; the d = 128 dK, dV accumulators alone take 128 registers).
///
/// The third, GQA 4/2 with a bottom-right window at d = 128, used to spill
/// (32 bytes) while only Tq/16 of the warps formed the dQ partial; with
/// every warp sharing its fragments it assembles without spills too.

// PTX: .target sm_80
// PTX-LABEL: .visible .entry sdpa_bwd_main(
// PTX: .shared .align 16 .b8 __dynamic_shmem__0
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-DAG: cvt.rn.bf16x2.f32
// PTX-DAG: cvt.rn.bf16.f32
// PTX-DAG: ld.acquire.gpu{{.*}}.b32
// PTX-DAG: st.release.gpu{{.*}}.b32
// PTX-NOT: .f16.f16
// PTX-NOT: .local

// MANIFEST: dtype bf16
// MANIFEST: head_dim 64
// MANIFEST: deterministic 1

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
func.func @d64(%q: tensor<2x16x?x64xbf16>, %lse: tensor<2x16x?xf32>) -> tensor<2x16x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
  return %dq : tensor<2x16x?x64xbf16>
}

func.func @d128(%q: tensor<1x8x?x128xbf16>, %lse: tensor<1x8x?xf32>) -> tensor<1x8x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?xf32>
      -> tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>
  return %dq : tensor<1x8x?x128xbf16>
}

func.func @gqa_bottom_right_d128(%q: tensor<2x4x?x128xbf16>, %k: tensor<2x2x?x128xbf16>, %lse: tensor<2x4x?xf32>) -> tensor<2x4x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, deterministic}
      : tensor<2x4x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x4x?x128xbf16>, tensor<2x4x?x128xbf16>, tensor<2x4x?xf32>
      -> tensor<2x4x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>
  return %dq : tensor<2x4x?x128xbf16>
}
