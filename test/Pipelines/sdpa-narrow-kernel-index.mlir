// RUN: %sdpa_opt %s --sdpa-derive-bounds --convert-sdpa-to-gpu --sdpa-strip-host --sdpa-narrow-kernel-index | FileCheck %s
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t artifact-name=gptoss index-bitwidth=32" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/gptoss.manifest
// RUN: FileCheck %s --check-prefix=PTX < %t/gptoss.ptx
// RUN: %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t artifact-name=wide" -o /dev/null
// RUN: FileCheck %s --check-prefix=WIDE < %t/wide.ptx

/// The flat global memrefs shrink to the largest extent an i32 index holds,
/// the manifest record gains `index_bits 32`, and no NVGPU op is left: they
/// are NVVM ops now (the index arithmetic around them is still `index`, for
/// the pipeline's later conversions at 32 bits).
// CHECK: sdpa.artifacts = {sdpa_fwd_0 = "sdpa-artifact 1\0A{{.*}}varlen 0\0Aindex_bits 32\0Akernel sdpa_fwd_0 forward
// CHECK: gpu.func @sdpa_fwd_0(%{{.*}}: memref<2147483647xbf16>, %{{.*}}: memref<2147483647xbf16>, %{{.*}}: memref<2147483647xbf16>, %{{.*}}: memref<2147483647xbf16>, %{{.*}}: memref<2147483647xf32>, %{{.*}}: i32
// CHECK-NOT: nvgpu.
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.ldmatrix
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvgpu.

/// The pipeline at index-bitwidth=32: the manifest says so (after varlen,
/// docs/Artifact.md), and the band's bounds and the copies' row limits are
/// 32-bit compares; at 64 bits they are 64-bit ones.
// MANIFEST: varlen 0
// MANIFEST-NEXT: index_bits 32
// MANIFEST-NEXT: kernel sdpa_fwd_0 forward
// PTX: .visible .entry sdpa_fwd_0(
// PTX-NOT: setp.{{[a-z]+}}.{{[su]}}64
// PTX: setp.{{[a-z]+}}.s32
// PTX-NOT: setp.{{[a-z]+}}.{{[su]}}64
// WIDE: setp.{{[a-z]+}}.s64

func.func @gptoss(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> (tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>) {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o, %lse : tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
}
