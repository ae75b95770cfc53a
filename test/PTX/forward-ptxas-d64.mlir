// REQUIRES: ptxas
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_2.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_3.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_fwd_0.ptx
// RUN: FileCheck %s --check-prefix=EXP2 --implicit-check-not=ex2.approx.ftz < %t/sdpa_fwd_0.ptx

/// head_dim 64 with the default tile rule's tiles: 64x32 for the 128-key
/// windows (cfg0, cfg2), 64x64 for full attention (cfg1, cfg3).
/// Every configuration's PTX assembles for sm_80 with no spills and no local
/// memory (a stack frame would be local memory).
// CHECK: Compiling entry function 'sdpa_fwd_{{[0-9]}}' for 'sm_80'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: lmem
// CHECK: Used {{[0-9]+}} registers

/// The shared buffers are 16-byte aligned and filled with cp.async; fragments
/// come from ldmatrix (transposed for V) and feed m16n8k16 mma.sync; the
/// exponentials and LSE's log2 are the hardware's approximations; at one
/// row tile a warp and d 64 the exponentials keep subnormal results
/// (libdevice's ex2.approx.f32: flushing them was measured slower there).
// PTX: .shared .align 16
// PTX-DAG: cp.async.ca.shared.global
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: lg2.approx.f32
// PTX-DAG: shfl.sync.bfly
// EXP2: ex2.approx.f32

/// f16, head_dim 64, causal window of 128 keys.
func.func @cfg0(%q: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x64xf16>
}

/// f16, head_dim 64, full.
func.func @cfg1(%q: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x64xf16>
}

/// bf16, head_dim 64, causal window of 128 keys.
func.func @cfg2(%q: tensor<1x1x?x64xbf16>) -> tensor<1x1x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x?x64xbf16>, tensor<1x1x?x64xbf16>, tensor<1x1x?x64xbf16> -> tensor<1x1x?x64xbf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x64xbf16>
}

/// bf16, head_dim 64, full.
func.func @cfg3(%q: tensor<1x1x?x64xbf16>) -> tensor<1x1x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x1x?x64xbf16>, tensor<1x1x?x64xbf16>, tensor<1x1x?x64xbf16> -> tensor<1x1x?x64xbf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x64xbf16>
}
