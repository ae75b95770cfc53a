// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t dq-mode=accumulate" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_bwd_0.manifest
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_1.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_1.ptx -o %t/d128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

/// Packed sequences (thd), bottom-right causal window of 128 keys, GQA 4/2,
/// deterministic, default tiles (Tq = 32, Tk = 64): bf16 at head_dim 64 and
/// f16 at head_dim 128. The main kernel reads the cumulative offsets and
/// every kernel assembles for sm_80 without spills or local memory
/// (measured, ptxas 13.0: main kernel 244 registers at d = 64, 254 at
/// d = 128).

// PTX: .target sm_80
// PTX-LABEL: .visible .entry sdpa_bwd_main(
// PTX: .shared .align 16 .b8 __dynamic_shmem__0
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32
// PTX-DAG: ld.acquire.gpu{{.*}}.b32
// PTX-DAG: st.release.gpu{{.*}}.b32
// PTX-NOT: .local

// MANIFEST: dtype bf16
// MANIFEST: varlen 1
// MANIFEST: deterministic 1
// MANIFEST: kernel sdpa_bwd_preprocess bwd_preprocess
// MANIFEST: grid q_tiles heads_q batch
// MANIFEST: param cu_seqlens_q ptr
// MANIFEST: kernel sdpa_bwd_main bwd_main
// MANIFEST: grid kv_tiles heads_kv batch
// MANIFEST: param cu_seqlens_q ptr
// MANIFEST-NEXT: param cu_seqlens_kv ptr
// MANIFEST: param batch i32
// MANIFEST: kernel sdpa_bwd_dq_convert bwd_dq_convert
// MANIFEST: param cu_seqlens_q ptr

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
func.func @d64(%q: tensor<?x4x64xbf16>, %k: tensor<?x2x64xbf16>, %lse: tensor<4x?xf32>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x4x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>, deterministic}
      : tensor<?x4x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16>, tensor<4x?xf32>
      -> tensor<?x4x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>
  return %dq : tensor<?x4x64xbf16>
}

func.func @d128(%q: tensor<?x4x128xf16>, %k: tensor<?x2x128xf16>, %lse: tensor<4x?xf32>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x4x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>, deterministic}
      : tensor<?x4x128xf16>, tensor<?x2x128xf16>, tensor<?x2x128xf16>, tensor<?x4x128xf16>, tensor<?x4x128xf16>, tensor<4x?xf32>
      -> tensor<?x4x128xf16>, tensor<?x2x128xf16>, tensor<?x2x128xf16>
  return %dq : tensor<?x4x128xf16>
}
