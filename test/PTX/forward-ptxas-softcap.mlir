// REQUIRES: ptxas
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="tile-kv=32 artifact-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_fwd_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sdpa_fwd_1.manifest

/// The logit softcap (docs/Semantics.md §7) at d = 64 and d = 128 (64x32
/// tiles): both kernels assemble for sm_80 with no spills and no local
/// memory; libdevice's tanhf is inlined (no call, no stack frame).
// CHECK: Compiling entry function 'sdpa_fwd_{{[0-9]}}' for 'sm_80'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: lmem
// CHECK: Used {{[0-9]+}} registers

// PTX: .visible .entry sdpa_fwd_0(
// PTX-NOT: call
// PTX: ex2.approx
// PTX-NOT: .local

// MANIFEST: softcap 50
// MANIFEST-NEXT: kernel sdpa_fwd_1 forward

/// f16, d 64, causal, cap 30.
func.func @cfg0(%q: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 30.0 : f32}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x64xf16>
}

/// bf16, d 128, Gemma 2: window of 4096 keys, cap 50.
func.func @cfg1(%q: tensor<1x1x?x128xbf16>) -> tensor<1x1x?x128xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x1x?x128xbf16>, tensor<1x1x?x128xbf16>, tensor<1x1x?x128xbf16> -> tensor<1x1x?x128xbf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x128xbf16>
}
