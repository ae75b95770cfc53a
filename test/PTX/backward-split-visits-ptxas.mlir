// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/rc %t/acc
// RUN: %sdpa_opt %s --sdpa-backward-pipeline="artifact-dir=%t/rc" -o /dev/null
// RUN: %sdpa_opt %s --sdpa-backward-pipeline="artifact-dir=%t/acc dq-mode=accumulate" -o /dev/null
// RUN: for f in %t/rc/sdpa_bwd_0 %t/rc/sdpa_bwd_1 %t/rc/sdpa_bwd_2 %t/rc/sdpa_bwd_3 %t/rc/sdpa_bwd_4; do grep -h '^head_dim\|^block' $f.manifest; %ptxas -arch=sm_80 -v $f.ptx -o /dev/null 2>&1; done > %t/rc.txt
// RUN: for f in %t/acc/sdpa_bwd_0 %t/acc/sdpa_bwd_1 %t/acc/sdpa_bwd_2 %t/acc/sdpa_bwd_3 %t/acc/sdpa_bwd_4; do grep -h '^head_dim\|^block' $f.manifest; %ptxas -arch=sm_80 -v $f.ptx -o /dev/null 2>&1; done > %t/acc.txt
// RUN: FileCheck %s --check-prefixes=CHECK,RC < %t/rc.txt
// RUN: FileCheck %s --check-prefixes=CHECK,ACC < %t/acc.txt
// RUN: not grep -E '[1-9][0-9]* bytes (stack frame|spill)|lmem' %t/rc.txt %t/acc.txt

/// The backward with split visits (BackwardKernelSpec::columnGroups) at the
/// head dims above mma width 128 that models use, in both dQ modes: every
/// kernel assembles for sm_80 with no spills or local memory. The blocks:
/// bwd_preprocess, bwd_main, then bwd_dq (RC) or bwd_dq_convert (ACC).
/// * Default (RC): dQ recomputed at 32 x 32 (bwd_dq's widest key tile above
///   128), 4 warps of bwd_main (two per 16 keys); 224 and 240 compute at
///   256, where bwd_dq does not spill (at their own width it spilled 56-64
///   and 124-132 bytes on a banded window, ptxas 13.0).
/// * Accumulated (ACC, the pipeline's dq-mode, whose default tiles its
///   sdpa-derive-bounds takes) at 32 x 64 (8 warps; measured 230, 242
///   and 244 registers; Gemma 2's d 256 with its cap, deterministic, the
///   relay), 224 and 240 at their own width.

// CHECK: head_dim 160
// CHECK-NEXT: block 128 1 1
// RC-NEXT: block 128 1 1
// RC-NEXT: block 64 1 1
// ACC-NEXT: block 256 1 1
// ACC-NEXT: block 128 1 1
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 192
// CHECK-NEXT: block 128 1 1
// RC-NEXT: block 128 1 1
// RC-NEXT: block 64 1 1
// ACC-NEXT: block 256 1 1
// ACC-NEXT: block 128 1 1
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 256
// CHECK-NEXT: block 128 1 1
// RC-NEXT: block 128 1 1
// RC-NEXT: block 64 1 1
// ACC-NEXT: block 256 1 1
// ACC-NEXT: block 128 1 1
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 224
// CHECK-NEXT: block 128 1 1
// RC-NEXT: block 128 1 1
// RC-NEXT: block 64 1 1
// ACC-NEXT: block 256 1 1
// ACC-NEXT: block 128 1 1
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 240
// CHECK-NEXT: block 128 1 1
// RC-NEXT: block 128 1 1
// RC-NEXT: block 64 1 1
// ACC-NEXT: block 256 1 1
// ACC-NEXT: block 128 1 1
// CHECK: Compiling entry function 'sdpa_bwd_main' for 'sm_80'
// CHECK-NEXT: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @d160_bf16(%q: tensor<1x2x?x160xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x160xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, deterministic}
      : tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>, tensor<1x2x?x160xbf16>
  return %dq : tensor<1x2x?x160xbf16>
}

func.func @d192_f16(%q: tensor<1x2x?x192xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x192xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
  return %dq : tensor<1x2x?x192xf16>
}

func.func @d256_bf16_softcap(%q: tensor<1x2x?x256xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x256xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32, deterministic}
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>
  return %dq : tensor<1x2x?x256xbf16>
}

func.func @d224_bf16(%q: tensor<1x2x?x224xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x224xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x224xbf16>, tensor<1x2x?x224xbf16>, tensor<1x2x?x224xbf16>, tensor<1x2x?x224xbf16>, tensor<1x2x?x224xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x224xbf16>, tensor<1x2x?x224xbf16>, tensor<1x2x?x224xbf16>
  return %dq : tensor<1x2x?x224xbf16>
}

func.func @d240_f16(%q: tensor<1x2x?x240xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x240xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = inf, align = top_left>, deterministic}
      : tensor<1x2x?x240xf16>, tensor<1x2x?x240xf16>, tensor<1x2x?x240xf16>, tensor<1x2x?x240xf16>, tensor<1x2x?x240xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x240xf16>, tensor<1x2x?x240xf16>, tensor<1x2x?x240xf16>
  return %dq : tensor<1x2x?x240xf16>
}
