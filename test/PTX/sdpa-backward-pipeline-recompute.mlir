// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t dq-mode=recompute" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_bwd_2.manifest
// RUN: cat %t/sdpa_bwd_*.ptx | FileCheck %s --check-prefix=NOATOM
// RUN: FileCheck %s --check-prefix=PRE < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=SHFL < %t/sdpa_bwd_0.ptx
// RUN: FileCheck %s --check-prefix=STORE < %t/sdpa_bwd_0.ptx
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_0.ptx -o %t/0.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_1.ptx -o %t/1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_2.ptx -o %t/2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_3.ptx -o %t/3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_bwd_4.ptx -o %t/4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

/// dq-mode=recompute (bwd_dq) at the default tiles: gpt-oss's backward (bf16,
/// d 64, window 128, GQA 4/2), bottom-right with sinks and deterministic
/// (f16), packed sequences (bf16), and d 128 on a narrow (32 x 64) and a
/// wide band (64 x 128: bwd_dq walks the key tile in two chunks of 64). Every
/// kernel assembles for sm_80 without spills or local memory (measured,
/// ptxas 13.0: bwd_dq 239-241 registers at d 64, two m16 row tiles per
/// warp, whose K^T fragments come two per ldmatrix .trans; 171 and 181 at
/// d 128, one row tile, one fragment per ldmatrix).
/// No kernel has an atomic: nothing adds into dq_accum, and the sinks'
/// gradient is summed in a fixed order.

// PTX: .target sm_80
// PTX: .shared .align 16 .b8 __dynamic_shmem__0
// PTX-LABEL: .visible .entry sdpa_bwd_dq(
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-NOT: .local

/// bwd_preprocess reads each row of O and dO (d 64: 8 chunks each) in
/// 16-byte loads, one chunk of each a lane, 8 lanes a row: 16 rows of the 64
/// per round of the 128 threads, 2 loads a round, 8 in all. Without the
/// alignment LLVM split them into two-byte loads, and the kernel took a third
/// of the backward (H200, ncu: 354 us). Each round's row sums meet in a
/// butterfly over the row's 8 lanes: 3 shuffles a round, 12 in all.
// PRE-LABEL: .visible .entry sdpa_bwd_preprocess(
// PRE-COUNT-8: ld.global.v4.b32
// PRE-NOT: ld.global
// PRE: .entry
// SHFL-LABEL: .visible .entry sdpa_bwd_preprocess(
// SHFL-COUNT-12: shfl.sync.bfly.b32
// SHFL-NOT: shfl.sync
// SHFL: .entry

/// dK, dV (bwd_main) and dQ (bwd_dq) are stored as pairs of elements at even
/// columns: 4-byte stores (d 64: 8 blocks x 2 rows, for dK and dV 32, for dQ
/// of two row tiles per warp 32), none split into 2-byte stores.
// STORE-LABEL: .visible .entry sdpa_bwd_main(
// STORE-NOT: st.global.b16
// STORE-COUNT-32: st.global.b32
// STORE-NOT: st.global
// STORE-LABEL: .visible .entry sdpa_bwd_dq(
// STORE-NOT: st.global.b16
// STORE-COUNT-32: st.global.b32
// STORE-NOT: st.global

// NOATOM: .target sm_80
// NOATOM-NOT: {{^[[:space:]]*(red|atom)\.}}

// MANIFEST: dtype bf16
// MANIFEST: varlen 1
// MANIFEST: kernel sdpa_bwd_preprocess bwd_preprocess
// MANIFEST-NOT: dq_accum
// MANIFEST: kernel sdpa_bwd_main bwd_main
// MANIFEST-NOT: dq_accum
// MANIFEST: kernel sdpa_bwd_dq bwd_dq
// MANIFEST: grid q_tiles heads_q batch
// MANIFEST: param cu_seqlens_q ptr
// MANIFEST-NEXT: param cu_seqlens_kv ptr
// MANIFEST-NOT: dq_accum

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
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
