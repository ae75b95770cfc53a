// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sdpa_opt %s --sdpa-backward-pipeline="artifact-dir=%t" -o /dev/null
// RUN: for f in %t/sdpa_bwd_0 %t/sdpa_bwd_1 %t/sdpa_bwd_2 %t/sdpa_bwd_3 %t/sdpa_bwd_4 %t/sdpa_bwd_5 %t/sdpa_bwd_6 %t/sdpa_bwd_7; do grep -h '^head_dim' $f.manifest; %ptxas -arch=sm_80 -v $f.ptx -o /dev/null 2>&1; done > %t/ptxas.txt
// RUN: FileCheck %s < %t/ptxas.txt
// RUN: not grep -E '[1-9][0-9]* bytes (stack frame|spill)|lmem' %t/ptxas.txt
// RUN: FileCheck %s --check-prefix=IEEE --implicit-check-not=ex2.approx.ftz < %t/sdpa_bwd_1.ptx
// RUN: FileCheck %s --check-prefix=FLUSH --implicit-check-not=ex2.approx.f32 < %t/sdpa_bwd_2.ptx

/// The backward kernels at the head dims models use most, f16 and bf16 in
/// turn, deterministic, default tiles (the default tile rule for this
/// 128-key band: Tq = 64, Tk = 64 up to d = 80, Tq = 32, Tk = 64 above; at
/// 64 x 64 d = 96 spills 28 bytes, which is why the rule stops at 80): every kernel
/// assembles for sm_80 with no spills or local memory, one ptxas run per
/// head dim. Up to d = 128 the main kernel holds dK and dV of every column;
/// d = 160, 192 and 256 split each visit between two warps per 16 keys
/// (BackwardKernelSpec::columnGroups; backward-split-visits-ptxas.mlir).

/// On this narrow band the probabilities' exponentials keep libdevice's
/// ex2.approx.f32 up to mma width 64 (d 64) and flush subnormal results
/// above (d 80: one ex2.approx.ftz.f32 each; flushesExponentials).
// IEEE: ex2.approx.f32
// FLUSH: ex2.approx.ftz.f32

// CHECK: head_dim 32
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 64
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 80
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 96
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 128
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 160
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 192
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 256
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @d32_f16(%q: tensor<1x2x?x32xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x32xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>, tensor<1x2x?x32xf16>
  return %dq : tensor<1x2x?x32xf16>
}

func.func @d64_bf16(%q: tensor<1x2x?x64xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
  return %dq : tensor<1x2x?x64xbf16>
}

func.func @d80_f16(%q: tensor<1x2x?x80xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x80xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>, tensor<1x2x?x80xf16>
  return %dq : tensor<1x2x?x80xf16>
}

func.func @d96_bf16(%q: tensor<1x2x?x96xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x96xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>, tensor<1x2x?x96xbf16>
  return %dq : tensor<1x2x?x96xbf16>
}

func.func @d128_f16(%q: tensor<1x2x?x128xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x128xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>
  return %dq : tensor<1x2x?x128xf16>
}

func.func @d160_bf16(%q: tensor<1x2x?x160xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x160xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>
  return %dq : tensor<1x2x?x160xbf16>
}

func.func @d192_f16(%q: tensor<1x2x?x192xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x192xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
  return %dq : tensor<1x2x?x192xf16>
}

func.func @d256_bf16(%q: tensor<1x2x?x256xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x256xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>
  return %dq : tensor<1x2x?x256xbf16>
}
