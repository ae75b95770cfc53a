// REQUIRES: ptxas
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="tile-kv=32 artifact-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_2.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_3.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_fwd_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_fwd_0.manifest

/// THD packed sequences, head_dim 128 with 64x32 tiles, as for dense. The
/// per-sequence lengths (loaded offsets instead of parameters) and the early
/// exit must not cost spills or local memory (a stack frame would be local
/// memory).
// CHECK: Compiling entry function 'sdpa_fwd_{{[0-9]}}' for 'sm_80'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: lmem
// CHECK: Used {{[0-9]+}} registers

/// The offsets are 32-bit loads from global memory, off[i] and off[i+1].
// PTX: ld.global.s32 {{.*}}[[[CU:%rd[0-9]+]]];
// PTX-NEXT: ld.global.s32 {{.*}}[[[CU]]+4];
// PTX: cp.async.ca.shared.global
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// MANIFEST: varlen 1
// MANIFEST: grid q_tiles heads_q batch
// MANIFEST: param lse ptr
// MANIFEST-NEXT: param cu_seqlens_q ptr
// MANIFEST-NEXT: param cu_seqlens_kv ptr

/// f16, head_dim 128, sliding window of 128 keys, bottom-right (FlashAttention).
func.func @cfg0(%q: tensor<?x16x128xf16>, %k: tensor<?x4x128xf16>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x16x128xf16> {
  %o, %lse = sdpa.attention %q, %k, %k seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x16x128xf16>, tensor<?x4x128xf16>, tensor<?x4x128xf16> -> tensor<?x16x128xf16>, tensor<16x?xf32>
  return %o : tensor<?x16x128xf16>
}

/// f16, head_dim 128, causal bottom-right.
func.func @cfg1(%q: tensor<?x16x128xf16>, %k: tensor<?x4x128xf16>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x16x128xf16> {
  %o, %lse = sdpa.attention %q, %k, %k seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x16x128xf16>, tensor<?x4x128xf16>, tensor<?x4x128xf16> -> tensor<?x16x128xf16>, tensor<16x?xf32>
  return %o : tensor<?x16x128xf16>
}

/// bf16, head_dim 128, sliding window of 128 keys, bottom-right.
func.func @cfg2(%q: tensor<?x16x128xbf16>, %k: tensor<?x4x128xbf16>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x16x128xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x16x128xbf16>, tensor<?x4x128xbf16>, tensor<?x4x128xbf16> -> tensor<?x16x128xbf16>, tensor<16x?xf32>
  return %o : tensor<?x16x128xbf16>
}

/// bf16, head_dim 128, full.
func.func @cfg3(%q: tensor<?x16x128xbf16>, %k: tensor<?x4x128xbf16>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x16x128xbf16> {
  %o, %lse = sdpa.attention %q, %k, %k seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = inf, right = inf, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<?x16x128xbf16>, tensor<?x4x128xbf16>, tensor<?x4x128xbf16> -> tensor<?x16x128xbf16>, tensor<16x?xf32>
  return %o : tensor<?x16x128xbf16>
}
