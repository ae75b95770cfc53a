// REQUIRES: ptxas
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_fwd_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_fwd_1.manifest

/// Attention sinks (docs/Semantics.md §7) at d = 64 (GQA, gpt-oss's window)
/// and d = 128 (THD, causal, with a softcap): both kernels assemble for
/// sm_80 with no spills and no local memory.
// CHECK: Compiling entry function 'sdpa_fwd_{{[0-9]}}' for 'sm_80'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: lmem
// CHECK: Used {{[0-9]+}} registers

/// The sink is one f32 load per program (sinks is the sixth parameter).
// PTX: .visible .entry sdpa_fwd_1(
// PTX: ld.param.b64 %[[SP:rd[0-9]+]], [sdpa_fwd_1_param_5];
// PTX: cvta.to.global.u64 %[[SG:rd[0-9]+]], %[[SP]];
// PTX: ld.global.b32
// PTX-NOT: .local

// MANIFEST: sinks 1
// MANIFEST-NEXT: kernel sdpa_fwd_1 forward

/// f16, d 64, gpt-oss: 64 query heads over 8, a window of 128 keys.
func.func @cfg0(%q: tensor<1x64x?x64xf16>, %k: tensor<1x8x?x64xf16>, %s: tensor<64xf32>) -> tensor<1x64x?x64xf16> {
  %o, %lse = sdpa.attention %q, %k, %k sinks(%s : tensor<64xf32>) {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x64x?x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16> -> tensor<1x64x?x64xf16>, tensor<1x64x?xf32>
  return %o : tensor<1x64x?x64xf16>
}

/// bf16, d 128, THD, causal bottom-right, softcap 30.
func.func @cfg1(%q: tensor<?x4x128xbf16>, %cu: tensor<3xi32>, %s: tensor<4xf32>) -> tensor<?x4x128xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>) sinks(%s : tensor<4xf32>)
      {layout = #sdpa.layout<thd>, mask = #sdpa.band<left = inf, right = 0, align = bottom_right>, softcap = 30.0 : f32}
      : tensor<?x4x128xbf16>, tensor<?x4x128xbf16>, tensor<?x4x128xbf16> -> tensor<?x4x128xbf16>, tensor<4x?xf32>
  return %o : tensor<?x4x128xbf16>
}
