// REQUIRES: ptxas
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-forward-pipeline="tile-kv=32 artifact-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_2.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/sdpa_fwd_3.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/sdpa_fwd_0.ptx
// RUN: %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t/rule" -o /dev/null
// RUN: %ptxas -arch=sm_80 -v %t/rule/sdpa_fwd_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_80 -v %t/rule/sdpa_fwd_3.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=RULE < %t/rule/sdpa_fwd_3.manifest
// RUN: FileCheck %s --check-prefix=FLUSH --implicit-check-not=ex2.approx.f32 < %t/rule/sdpa_fwd_3.ptx
// RUN: FileCheck %s --check-prefix=FLUSH --implicit-check-not=ex2.approx.f32 < %t/rule/sdpa_fwd_2.ptx

/// head_dim 128 with key tiles of 32 (64x64 tiles spill a few bytes in
/// bf16); the query tile is the default tile rule's: 64 rows for the 128-key
/// windows (cfg0, cfg2), 128 rows and 4 warps (two m16 row tiles each, Q
/// fragments loaded per key tile) for full attention (cfg1, cfg3). Under
/// the rule alone (%t/rule) full attention at d 128 is 128x32 with 4 warps
/// (128 threads); the windows are 64x32 as above.
// RULE: tile_q 128
// RULE-NEXT: tile_kv 32
// RULE: block 128 1 1
/// At d 128 the exponentials flush subnormal results, one MUFU.EX2 each
/// (ForwardKernelSpec::flushExponentials), at two row tiles a warp and at
/// one: no libdevice ex2.approx.f32 is left.
// FLUSH: ex2.approx.ftz.f32
/// Every configuration's PTX assembles for sm_80 with no spills and no local
/// memory (a stack frame would be local memory).
// CHECK: Compiling entry function 'sdpa_fwd_{{[0-9]}}' for 'sm_80'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: lmem
// CHECK: Used {{[0-9]+}} registers

/// The shared buffers are 16-byte aligned and filled with cp.async; fragments
/// come from ldmatrix (transposed for V) and feed m16n8k16 mma.sync.
// PTX: .shared .align 16
// PTX-DAG: cp.async.ca.shared.global
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: ex2.approx
// PTX-DAG: shfl.sync.bfly

/// f16, head_dim 128, causal window of 128 keys.
func.func @cfg0(%q: tensor<1x1x?x128xf16>) -> tensor<1x1x?x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16> -> tensor<1x1x?x128xf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x128xf16>
}

/// f16, head_dim 128, full.
func.func @cfg1(%q: tensor<1x1x?x128xf16>) -> tensor<1x1x?x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16>, tensor<1x1x?x128xf16> -> tensor<1x1x?x128xf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x128xf16>
}

/// bf16, head_dim 128, causal window of 128 keys.
func.func @cfg2(%q: tensor<1x1x?x128xbf16>) -> tensor<1x1x?x128xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x1x?x128xbf16>, tensor<1x1x?x128xbf16>, tensor<1x1x?x128xbf16> -> tensor<1x1x?x128xbf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x128xbf16>
}

/// bf16, head_dim 128, full.
func.func @cfg3(%q: tensor<1x1x?x128xbf16>) -> tensor<1x1x?x128xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = inf, align = top_left>}
      : tensor<1x1x?x128xbf16>, tensor<1x1x?x128xbf16>, tensor<1x1x?x128xbf16> -> tensor<1x1x?x128xbf16>, tensor<1x1x?xf32>
  return %o : tensor<1x1x?x128xbf16>
}
