// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sdpa_opt %s --sdpa-pipeline="artifact-dir=%t" -o /dev/null
// RUN: for f in %t/sdpa_fwd_0 %t/sdpa_fwd_1 %t/sdpa_fwd_2 %t/sdpa_fwd_3 %t/sdpa_fwd_4 %t/sdpa_fwd_5 %t/sdpa_fwd_6 %t/sdpa_fwd_7 %t/sdpa_fwd_8 %t/sdpa_bwd_0 %t/sdpa_bwd_1 %t/sdpa_bwd_2 %t/sdpa_bwd_3 %t/sdpa_bwd_4 %t/sdpa_bwd_5 %t/sdpa_bwd_6 %t/sdpa_bwd_7 %t/sdpa_bwd_8; do grep -h '^direction\|^head_dim' $f.manifest; %ptxas -arch=sm_80 -v $f.ptx -o /dev/null 2>&1; done > %t/ptxas.txt
// RUN: FileCheck %s < %t/ptxas.txt
// RUN: not grep -E '[1-9][0-9]* bytes (stack frame|spill)|lmem' %t/ptxas.txt

/// Head dims that are no multiple of 16 (8, 40, 72, 120, 152, 216, 248),
/// computed at their mma width (rounded up to 16), and 224 and 240, which
/// the backward (240 also the forward) computes at 256: both directions,
/// f16 and bf16 in turn, the default tiles (the forward's 64 x 16 above
/// d = 176), the backward deterministic. Every kernel assembles for sm_80
/// with no spills or local memory (ptxas 13.0). Padded at the rows' own
/// chunk pitch (20 at d = 152) the backward's main kernel spilled 48 bytes;
/// hence the power-of-two segments of SharedTiles.cpp.

// CHECK: direction forward
// CHECK-NEXT: head_dim 8
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 40
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 72
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 120
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 152
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 216
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 224
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 240
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction forward
// CHECK-NEXT: head_dim 248
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 8
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 40
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 72
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 120
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 152
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 216
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 224
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 240
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: direction backward
// CHECK-NEXT: head_dim 248
// CHECK: Function properties for sdpa_bwd_main
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @fwd_d8_f16(%q: tensor<1x2x?x8xf16>) -> tensor<1x2x?x8xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16> -> tensor<1x2x?x8xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x8xf16>
}
func.func @fwd_d40_bf16(%q: tensor<1x2x?x40xbf16>) -> tensor<1x2x?x40xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16> -> tensor<1x2x?x40xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x40xbf16>
}
func.func @fwd_d72_f16(%q: tensor<1x2x?x72xf16>) -> tensor<1x2x?x72xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16> -> tensor<1x2x?x72xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x72xf16>
}
func.func @fwd_d120_bf16(%q: tensor<1x2x?x120xbf16>) -> tensor<1x2x?x120xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16> -> tensor<1x2x?x120xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x120xbf16>
}
func.func @fwd_d152_f16(%q: tensor<1x2x?x152xf16>) -> tensor<1x2x?x152xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16> -> tensor<1x2x?x152xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x152xf16>
}
func.func @fwd_d216_bf16(%q: tensor<1x2x?x216xbf16>) -> tensor<1x2x?x216xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16> -> tensor<1x2x?x216xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x216xbf16>
}
func.func @fwd_d224_f16(%q: tensor<1x2x?x224xf16>) -> tensor<1x2x?x224xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16> -> tensor<1x2x?x224xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x224xf16>
}
func.func @fwd_d240_bf16(%q: tensor<1x2x?x240xbf16>) -> tensor<1x2x?x240xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16> -> tensor<1x2x?x240xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x240xbf16>
}
func.func @fwd_d248_f16(%q: tensor<1x2x?x248xf16>) -> tensor<1x2x?x248xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16> -> tensor<1x2x?x248xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x248xf16>
}
func.func @bwd_d8_f16(%q: tensor<1x2x?x8xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x8xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>
  return %dq : tensor<1x2x?x8xf16>
}
func.func @bwd_d40_bf16(%q: tensor<1x2x?x40xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x40xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>, tensor<1x2x?x40xbf16>
  return %dq : tensor<1x2x?x40xbf16>
}
func.func @bwd_d72_f16(%q: tensor<1x2x?x72xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x72xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>, tensor<1x2x?x72xf16>
  return %dq : tensor<1x2x?x72xf16>
}
func.func @bwd_d120_bf16(%q: tensor<1x2x?x120xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x120xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>, tensor<1x2x?x120xbf16>
  return %dq : tensor<1x2x?x120xbf16>
}
func.func @bwd_d152_f16(%q: tensor<1x2x?x152xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x152xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>, tensor<1x2x?x152xf16>
  return %dq : tensor<1x2x?x152xf16>
}
func.func @bwd_d216_bf16(%q: tensor<1x2x?x216xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x216xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>, tensor<1x2x?x216xbf16>
  return %dq : tensor<1x2x?x216xbf16>
}
func.func @bwd_d224_f16(%q: tensor<1x2x?x224xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x224xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>, tensor<1x2x?x224xf16>
  return %dq : tensor<1x2x?x224xf16>
}
func.func @bwd_d240_bf16(%q: tensor<1x2x?x240xbf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x240xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>, tensor<1x2x?x240xbf16>
  return %dq : tensor<1x2x?x240xbf16>
}
func.func @bwd_d248_f16(%q: tensor<1x2x?x248xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x248xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>, tensor<1x2x?x248xf16>
  return %dq : tensor<1x2x?x248xf16>
}
