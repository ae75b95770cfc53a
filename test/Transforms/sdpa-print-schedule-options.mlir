// RUN: sdpa-opt %s -sdpa-print-schedule="tile-q=4 tile-kv=2 seq-lens-q=2,1 seq-lens-kv=2,0" -o /dev/null | FileCheck %s
// RUN: not sdpa-opt %s -sdpa-print-schedule="seq-lens-q=2,-1 seq-lens-kv=2,0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEG

/// THD lengths come from the options when the offsets are not constant:
/// sequence 0 has 2 queries and 2 keys (one full key tile, seen by every
/// row), sequence 1 has a query and no key.
// CHECK: sdpa.schedule fwd seq=0 q_tile=0 kv=[0,1) interior=[0,1)
// CHECK-NEXT: sdpa.schedule fwd seq=1 q_tile=0 kv=[0,0) interior=[0,0)
// NEG: error: expected non-negative sequence lengths
func.func @thd_lengths_from_options(%q: tensor<8x1x16xf16>, %cu: tensor<3xi32>) -> tensor<8x1x16xf16> {
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>)
      {mask = #sdpa.band<left = inf, right = inf, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<8x1x16xf16>, tensor<8x1x16xf16>, tensor<8x1x16xf16> -> tensor<8x1x16xf16>, tensor<1x8xf32>
  return %o : tensor<8x1x16xf16>
}
