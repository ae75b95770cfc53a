// RUN: sdpa-opt %s | FileCheck %s
// RUN: sdpa-opt %s | sdpa-opt | FileCheck %s
// RUN: sdpa-opt %s --mlir-print-op-generic | sdpa-opt | FileCheck %s

// CHECK-LABEL: func @gpt_oss_window
func.func @gpt_oss_window(%q: tensor<2x16x8192x64xbf16>, %k: tensor<2x16x8192x64xbf16>,
                          %v: tensor<2x16x8192x64xbf16>) -> (tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>) {
  // CHECK: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
  // CHECK-SAME: -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>, tensor<2x16x8192x64xbf16>
      -> tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
  return %o, %lse : tensor<2x16x8192x64xbf16>, tensor<2x16x8192xf32>
}

/// JAX's layout, GQA (16 query heads over 4 key/value heads), s_q != s_kv,
/// bottom-right alignment, an explicit scale, unbounded edges.
// CHECK-LABEL: func @bshd_gqa_bottom_right
func.func @bshd_gqa_bottom_right(%q: tensor<1x100x16x128xf16>, %k: tensor<1x300x4x128xf16>,
                                 %v: tensor<1x300x4x128xf16>) -> tensor<1x100x16x128xf16> {
  // CHECK: sdpa.attention
  // CHECK-SAME: layout = #sdpa.layout<bshd>
  // CHECK-SAME: mask = #sdpa.band<left = inf, right = 0, align = bottom_right>
  // CHECK-SAME: scale = 1.250000e-01
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>,
                                         scale = 0.125 : f64, layout = #sdpa.layout<bshd>}
      : tensor<1x100x16x128xf16>, tensor<1x300x4x128xf16>, tensor<1x300x4x128xf16>
      -> tensor<1x100x16x128xf16>, tensor<1x16x100xf32>
  return %o : tensor<1x100x16x128xf16>
}

/// Dynamic lengths: one op (and one kernel) for every S.
// CHECK-LABEL: func @dynamic_lengths
func.func @dynamic_lengths(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>,
                           %v: tensor<2x16x?x64xbf16>) -> tensor<2x16x?x64xbf16> {
  // CHECK: sdpa.attention {{.*}} : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16> -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}

/// Packed variable-length sequences with cumulative offsets.
// CHECK-LABEL: func @thd
func.func @thd(%q: tensor<1000x8x64xf16>, %k: tensor<1200x8x64xf16>, %v: tensor<1200x8x64xf16>,
               %cu_q: tensor<4xi32>, %cu_kv: tensor<4xi32>) -> tensor<1000x8x64xf16> {
  // CHECK: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} seqlens(%{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32>)
  // CHECK-SAME: layout = #sdpa.layout<thd>
  // CHECK-SAME: -> tensor<1000x8x64xf16>, tensor<8x1000xf32>
  %o, %lse = sdpa.attention %q, %k, %v seqlens(%cu_q, %cu_kv : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = 31, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<1000x8x64xf16>, tensor<1200x8x64xf16>, tensor<1200x8x64xf16>
      -> tensor<1000x8x64xf16>, tensor<8x1000xf32>
  return %o : tensor<1000x8x64xf16>
}

/// Padded batch: per-batch valid lengths on the dense layout.
// CHECK-LABEL: func @padded_batch
func.func @padded_batch(%q: tensor<2x256x16x64xbf16>, %lens: tensor<2xi32>) -> tensor<2x256x16x64xbf16> {
  // CHECK: sdpa.attention %{{.*}} seqlens(%{{.*}}, %{{.*}} : tensor<2xi32>, tensor<2xi32>)
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%lens, %lens : tensor<2xi32>, tensor<2xi32>)
      {mask = #sdpa.band<left = inf, right = 0, align = top_left>, layout = #sdpa.layout<bshd>}
      : tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>, tensor<2x256x16x64xbf16>
      -> tensor<2x256x16x64xbf16>, tensor<2x16x256xf32>
  return %o : tensor<2x256x16x64xbf16>
}

// CHECK-LABEL: func @grad
func.func @grad(%q: tensor<2x16x512x64xbf16>, %o: tensor<2x16x512x64xbf16>, %lse: tensor<2x16x512xf32>)
    -> tensor<2x16x512x64xbf16> {
  // CHECK: sdpa.attention_grad {{.*}} {deterministic, mask = #sdpa.band<left = 127, right = 0, align = top_left>}
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %o, %o, %lse
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>,
        tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512xf32>
      -> tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>
  return %dq : tensor<2x16x512x64xbf16>
}

/// The generic form parses for the dense layout (layout defaults to bhsd);
/// the operand segments are query, key, value, seqlens and sinks.
// CHECK-LABEL: func @generic_form
func.func @generic_form(%q: tensor<1x2x8x64xf16>) -> tensor<1x2x8x64xf16> {
  // CHECK: sdpa.attention %{{.*}} {mask = #sdpa.band<left = 3, right = inf, align = top_left>}
  %o, %lse = "sdpa.attention"(%q, %q, %q) <{mask = #sdpa.band<left = 3, right = inf, align = top_left>,
                                            operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}>
      : (tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>, tensor<1x2x8x64xf16>) -> (tensor<1x2x8x64xf16>, tensor<1x2x8xf32>)
  return %o : tensor<1x2x8x64xf16>
}

/// gpt-oss: one sink logit per query head (64 query heads over 8 kv heads).
// CHECK-LABEL: func @sinks
// CHECK-SAME: %[[Q:[^:]*]]: tensor<1x64x256x64xbf16>, %[[K:[^:]*]]: tensor<1x8x256x64xbf16>, %[[SINK:[^:]*]]: tensor<64xf32>
func.func @sinks(%q: tensor<1x64x256x64xbf16>, %k: tensor<1x8x256x64xbf16>, %sink: tensor<64xf32>)
    -> tensor<1x64x256x64xbf16> {
  // CHECK: sdpa.attention %[[Q]], %[[K]], %[[K]] sinks(%[[SINK]] : tensor<64xf32>) {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
  // CHECK-SAME: -> tensor<1x64x256x64xbf16>, tensor<1x64x256xf32>
  %o, %lse = sdpa.attention %q, %k, %k sinks(%sink : tensor<64xf32>)
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x64x256x64xbf16>, tensor<1x8x256x64xbf16>, tensor<1x8x256x64xbf16>
      -> tensor<1x64x256x64xbf16>, tensor<1x64x256xf32>
  return %o : tensor<1x64x256x64xbf16>
}

/// Sinks next to THD offsets, with a dynamic number of entries.
// CHECK-LABEL: func @thd_sinks
// CHECK-SAME: %[[CU:[^:]*]]: tensor<3xi32>, %[[SINK:[^:]*]]: tensor<?xf32>
func.func @thd_sinks(%q: tensor<100x8x64xf16>, %cu: tensor<3xi32>, %sink: tensor<?xf32>) -> tensor<100x8x64xf16> {
  // CHECK: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} seqlens(%[[CU]], %[[CU]] : tensor<3xi32>, tensor<3xi32>) sinks(%[[SINK]] : tensor<?xf32>)
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>) sinks(%sink : tensor<?xf32>)
      {mask = #sdpa.band<left = 31, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<100x8x64xf16>, tensor<100x8x64xf16>, tensor<100x8x64xf16>
      -> tensor<100x8x64xf16>, tensor<8x100xf32>
  return %o : tensor<100x8x64xf16>
}

/// Gemma 2: logits capped at 50.
// CHECK-LABEL: func @softcap
func.func @softcap(%q: tensor<1x8x512x256xbf16>) -> tensor<1x8x512x256xbf16> {
  // CHECK: sdpa.attention
  // CHECK-SAME: softcap = 5.000000e+01 : f32
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 4095, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x8x512x256xbf16>, tensor<1x8x512x256xbf16>, tensor<1x8x512x256xbf16>
      -> tensor<1x8x512x256xbf16>, tensor<1x8x512xf32>
  return %o : tensor<1x8x512x256xbf16>
}

/// The gradient with sinks returns their gradient as a fourth result.
// CHECK-LABEL: func @grad_sinks
// CHECK-SAME: %[[SINK:[^:]*]]: tensor<16xf32>
func.func @grad_sinks(%q: tensor<2x16x512x64xbf16>, %lse: tensor<2x16x512xf32>, %sink: tensor<16xf32>)
    -> (tensor<2x16x512x64xbf16>, tensor<16xf32>) {
  // CHECK: %[[DQ:[^,]*]], %{{[^,]*}}, %{{[^,]*}}, %[[DSINK:[^ ]*]] = sdpa.attention_grad
  // CHECK-SAME: sinks(%[[SINK]] : tensor<16xf32>) {deterministic, mask = #sdpa.band<left = 127, right = 0, align = top_left>, softcap = 3.000000e+01 : f32}
  // CHECK-SAME: -> tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<16xf32>
  // CHECK: return %[[DQ]], %[[DSINK]]
  %dq, %dk, %dv, %dsink = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%sink : tensor<16xf32>)
      {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic, softcap = 30.0 : f32}
      : tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>,
        tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512xf32>
      -> tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<2x16x512x64xbf16>, tensor<16xf32>
  return %dq, %dsink : tensor<2x16x512x64xbf16>, tensor<16xf32>
}
