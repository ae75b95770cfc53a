// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t artifact-name=gptoss" | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/gptoss.manifest
// RUN: FileCheck %s --check-prefix=PTX < %t/gptoss.ptx
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="warps=8" 2>&1 | FileCheck %s --check-prefix=ERR

/// The gpt-oss case with a dynamic length: the pipeline leaves only the
/// compiled kernel module (host side stripped) and writes the artifact.
// CHECK: module attributes {gpu.container_module
// CHECK: gpu.binary @sdpa_fwd_0  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "
// CHECK-NOT: func.func

/// The manifest follows docs/Artifact.md: the version line first, the ptx
/// file second, then the kernel and its 23 parameters in order. The tiles
/// are the default tile rule's for a band of 128 keys (<= 512) at d 64:
/// 64 x 32 with 4 warps (128 threads); shared memory holds Q (64 rows) and
/// four stages of K and V (32 rows each: the warp windows of this band
/// read 3 key tiles a step, docs/Semantics.md §3.9) of 64 + 8 padded bf16
/// columns: (64 + 2 * 4 * 32) * 72 * 2 = 46080 bytes.
// MANIFEST: sdpa-artifact 1
// MANIFEST-NEXT: ptx gptoss.ptx
// MANIFEST-NEXT: direction forward
// MANIFEST-NEXT: dtype bf16
// MANIFEST-NEXT: head_dim 64
// MANIFEST-NEXT: tile_q 64
// MANIFEST-NEXT: tile_kv 32
// MANIFEST-NEXT: band 127 0 top_left
// MANIFEST-NEXT: scale 0.125
// MANIFEST-NEXT: varlen 0
// MANIFEST-NEXT: kernel sdpa_fwd_0 forward
// MANIFEST-NEXT: block 128 1 1
// MANIFEST-NEXT: shared_bytes 46080
// MANIFEST-NEXT: grid q_tiles heads_q batch
// MANIFEST-NEXT: param q ptr
// MANIFEST-NEXT: param k ptr
// MANIFEST-NEXT: param v ptr
// MANIFEST-NEXT: param o ptr
// MANIFEST-NEXT: param lse ptr
// MANIFEST-NEXT: param seq_q i32
// MANIFEST-NEXT: param seq_kv i32
// MANIFEST-NEXT: param heads_q i32
// MANIFEST-NEXT: param heads_kv i32
// MANIFEST-NEXT: param q_stride_b i64
// MANIFEST:      param o_stride_s i64
// MANIFEST-NEXT: param lse_stride_b i64
// MANIFEST-NEXT: param lse_stride_h i64
// MANIFEST-NOT: param

/// Bare pointers: each memref parameter is one .u64.
// PTX: .target sm_80
// PTX: .visible .entry sdpa_fwd_0(
// PTX-NEXT: .param .u64 {{.*}}sdpa_fwd_0_param_0,
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

/// 8 warps of 16 rows do not divide the default rule's 64-row tiles.
// ERR: error: 'sdpa.attention' op expected schedule tile_q 64 to be a multiple of 16 * warps (128)

func.func @gptoss(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> (tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>) {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o, %lse : tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
}
