// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t dq-mode=recompute" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_bwd_2.manifest
// RUN: cat %t/sdpa_bwd_*.ptx | FileCheck %s --check-prefix=NOATOM
// RUN: FileCheck %s --check-prefix=DELTA < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=SHFL < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=STORE < %t/sdpa_bwd_0.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS2
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_1.ptx -o %t/1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS3
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_2.ptx -o %t/2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS2
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_3.ptx -o %t/3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS2
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_4.ptx -o %t/4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS2

/// dq-mode=recompute (bwd_dq) at the default tiles: gpt-oss's backward (bf16,
/// d 64, window 128, GQA 4/2), bottom-right with sinks and deterministic
/// (f16), packed sequences (bf16), and d 128 on a narrow (32 x 64) and a
/// wide band (64 x 128: bwd_dq walks the key tile in two chunks of 64).
/// Without sinks the backward is two kernels, bwd_dq (which forms Delta)
/// then bwd_main; with sinks three, bwd_preprocess, bwd_main, bwd_dq. Every
/// kernel assembles for sm_80 without spills or local memory (measured,
/// ptxas 13.0: bwd_dq 231-234 registers at d 64, two m16 row tiles per
/// warp, whose K^T fragments come two per ldmatrix .trans; 172 and 170 at
/// d 128, one row tile, one fragment per ldmatrix).
/// No kernel has an atomic: nothing adds into dq_accum, and the sinks'
/// gradient is summed in a fixed order.

/// gpt-oss (no sinks): bwd_dq is the module's first kernel.
// PTX: .target sm_80
// PTX: .shared .align 16 .b8 __dynamic_shmem__0
// PTX-NOT: .entry
// PTX-LABEL: .visible .entry sdpa_bwd_dq(
// PTX-DAG: cp.async.ca.shared.global
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-NOT: .local
// PTX-LABEL: .visible .entry sdpa_bwd_main(
// PTX-NOT: .entry

/// bwd_dq forms Delta (no bwd_preprocess without sinks): it reads each row
/// of O and dO (d 64: 8 chunks each) in 16-byte loads, one chunk of each a
/// lane, 8 lanes a row: 4 rows of the warp's 32 per round, 2 loads a round,
/// 16 in all. Without the alignment LLVM split them into two-byte loads,
/// and bwd_preprocess, which formed Delta so before, took a third of the
/// backward (H200, ncu: 354 us). Its only other loads from global memory are
/// the LSE of its 4 fragment rows (Q, dO, K and V come by cp.async): it
/// reads no Delta. Each round's row sums meet in a butterfly over the row's
/// 8 lanes: 3 shuffles a round (xor 4, 2, 1), 24 in all; then each thread
/// takes its 4 fragment rows' Delta from the rounds that hold them, 2 idx
/// shuffles a row, 8 in all.
// DELTA-LABEL: .visible .entry sdpa_bwd_dq(
// DELTA-COUNT-4: ld.global.b32
// DELTA-NOT: ld.global
// DELTA-COUNT-16: ld.global.v4.b32
// DELTA-NOT: ld.global
// DELTA: .entry sdpa_bwd_main(
// SHFL-LABEL: .visible .entry sdpa_bwd_dq(
// SHFL-NOT: shfl.sync
// SHFL: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 4, 31, -1;
// SHFL-NEXT: add{{(\.rn)?}}.f32
// SHFL-NEXT: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 31, -1;
// SHFL-NEXT: add{{(\.rn)?}}.f32
// SHFL-NEXT: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
// SHFL-COUNT-21: shfl.sync.bfly.b32
// SHFL-NOT: shfl.sync
// SHFL-COUNT-8: shfl.sync.idx.b32
// SHFL-NOT: shfl.sync
// SHFL: .entry sdpa_bwd_main(

/// dQ (bwd_dq) and dK, dV (bwd_main) are stored as pairs of elements at even
/// columns: 4-byte stores (d 64: 8 blocks x 2 rows, for dQ of two row tiles
/// per warp 32, for dK and dV 32), none split into 2-byte stores. Before
/// them bwd_dq stores Delta (f32) of its warp's 32 rows, one row a lane of
/// each of the 8 rounds, before the idx shuffles that hand it out.
// STORE-LABEL: .visible .entry sdpa_bwd_dq(
// STORE-NOT: st.global
// STORE-COUNT-8: st.global.b32
// STORE-NOT: st.global
// STORE: shfl.sync.idx.b32
// STORE-NOT: st.global.b16
// STORE-COUNT-32: st.global.b32
// STORE-NOT: st.global
// STORE-LABEL: .visible .entry sdpa_bwd_main(
// STORE-NOT: st.global.b16
// STORE-COUNT-32: st.global.b32
// STORE-NOT: st.global

// NOATOM: .target sm_80
// NOATOM-NOT: {{^[[:space:]]*(red|atom)\.}}

/// Packed sequences (no sinks): bwd_dq first, taking o after v (and its
/// strides after v's) and the sequence offsets, then bwd_main; no
/// bwd_preprocess, no dq_accum.
// MANIFEST: dtype bf16
// MANIFEST: varlen 1
// MANIFEST-NEXT: deterministic 0
// MANIFEST-NEXT: kernel sdpa_bwd_dq bwd_dq
// MANIFEST-NEXT: block 64 1 1
// MANIFEST-NEXT: shared_bytes 55296
// MANIFEST-NEXT: grid q_tiles heads_q batch
// MANIFEST-NEXT: param q ptr
// MANIFEST-NEXT: param k ptr
// MANIFEST-NEXT: param v ptr
// MANIFEST-NEXT: param o ptr
// MANIFEST-NEXT: param do ptr
// MANIFEST-NEXT: param lse ptr
// MANIFEST-NEXT: param delta ptr
// MANIFEST-NEXT: param dq ptr
// MANIFEST-NEXT: param cu_seqlens_q ptr
// MANIFEST-NEXT: param cu_seqlens_kv ptr
// MANIFEST: param v_stride_s i64
// MANIFEST-NEXT: param o_stride_b i64
// MANIFEST-NEXT: param o_stride_h i64
// MANIFEST-NEXT: param o_stride_s i64
// MANIFEST-NEXT: param do_stride_b i64
// MANIFEST-NOT: dq_accum
// MANIFEST-NOT: kernel
// MANIFEST: kernel sdpa_bwd_main bwd_main
// MANIFEST-NOT: dq_accum
// MANIFEST-NOT: kernel

// PTXAS2-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS2-NOT: bytes spill stores
// PTXAS3-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS3-NOT: bytes spill stores
func.func @gptoss(%q: tensor<1x4x?x64xbf16>, %k: tensor<1x2x?x64xbf16>, %lse: tensor<1x4x?xf32>) -> tensor<1x4x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x4x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x4x?x64xbf16>, tensor<1x4x?x64xbf16>, tensor<1x4x?xf32>
      -> tensor<1x4x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
  return %dq : tensor<1x4x?x64xbf16>
}

func.func @sinks(%q: tensor<1x4x?x64xf16>, %lse: tensor<1x4x?xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%s : tensor<4xf32>) {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, deterministic}
      : tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?xf32>
      -> tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<4xf32>
  return %ds : tensor<4xf32>
}

func.func @thd(%q: tensor<?x4x64xbf16>, %k: tensor<?x2x64xbf16>, %lse: tensor<4x?xf32>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x4x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x4x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16>, tensor<4x?xf32>
      -> tensor<?x4x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>
  return %dq : tensor<?x4x64xbf16>
}

func.func @d128_narrow(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}

func.func @d128_wide(%q: tensor<1x2x?x128xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>}
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
  return %dq : tensor<1x2x?x128xbf16>
}
