// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t" -o /dev/null
// RUN: for f in %t/sdpa_fwd_0 %t/sdpa_fwd_1 %t/sdpa_fwd_2 %t/sdpa_fwd_3; do grep -h '^head_dim' $f.manifest; grep -h 'minnctapersm' $f.ptx || echo "no minnctapersm"; %ptxas -arch=sm_80 -v $f.ptx -o /dev/null 2>&1; done > %t/ptxas.txt
// RUN: FileCheck %s < %t/ptxas.txt
// RUN: not grep -E '[1-9][0-9]* bytes (stack frame|spill)|lmem' %t/ptxas.txt

/// Wide-band forward kernels of mma width <= 64 (default key tiles of 64)
/// ask for 3 blocks per SM (65536 registers / (128 threads x 168)): given
/// only their block size, ptxas capped them at 96 to 128 registers and
/// spilled (dense causal d 8: 16 bytes, d 56: 4; THD causal d 40: 4). The
/// narrow-band gpt-oss kernel (d 64, window 128, key tiles of 32) keeps
/// ptxas's own choice (128 registers, no spill).

// CHECK: head_dim 8
// CHECK-NEXT: .minnctapersm 3
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 56
// CHECK-NEXT: .minnctapersm 3
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 40
// CHECK-NEXT: .minnctapersm 3
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 64
// CHECK-NEXT: no minnctapersm
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @causal_d8(%q: tensor<1x2x?x8xf16>) -> tensor<1x2x?x8xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16>, tensor<1x2x?x8xf16> -> tensor<1x2x?x8xf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x8xf16>
}

func.func @causal_d56(%q: tensor<1x2x?x56xbf16>) -> tensor<1x2x?x56xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x2x?x56xbf16>, tensor<1x2x?x56xbf16>, tensor<1x2x?x56xbf16> -> tensor<1x2x?x56xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x56xbf16>
}

func.func @thd_causal_br_d40(%q: tensor<?x4x40xf16>, %cu: tensor<?xi32>) -> tensor<?x4x40xf16> {
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x4x40xf16>, tensor<?x4x40xf16>, tensor<?x4x40xf16> -> tensor<?x4x40xf16>, tensor<4x?xf32>
  return %o : tensor<?x4x40xf16>
}

func.func @window_d64(%q: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}
