// RUN: %sdpa_opt %s --convert-sdpa-to-gpu="host-program=false" | FileCheck %s

/// The logit softcap (docs/Semantics.md §7) in the forward kernel: the
/// manifest records it; every score s becomes c log2(e) tanh(scale s / c)
/// before the mask (here c = 50, scale = 1/8: 72.13475 * tanh(0.0025 s)). A
/// cap of +inf is no cap: that op's kernel scales by scale log2(e) alone.
// CHECK: sdpa_fwd_0 = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband inf 0 top_left\0Ascale 0.125\0Avarlen 0\0Asoftcap 50\0Akernel sdpa_fwd_0 forward\0A
// CHECK-SAME: sdpa_fwd_1 = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband inf 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel sdpa_fwd_1 forward\0A

// CHECK-LABEL: func.func @softcap
// CHECK: sdpa.attention {{.*}}sdpa.kernel = @sdpa_fwd_0::@sdpa_fwd_0
// CHECK: sdpa.attention {{.*}}sdpa.kernel = @sdpa_fwd_1::@sdpa_fwd_1
func.func @softcap(%q: tensor<1x8x?x64xf16>) -> (tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>) {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 50.0 : f32}
      : tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>
      -> tensor<1x8x?x64xf16>, tensor<1x8x?xf32>
  %o2, %lse2 = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 0x7F800000 : f32}
      : tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>
      -> tensor<1x8x?x64xf16>, tensor<1x8x?xf32>
  return %o, %o2 : tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>
}

// CHECK: gpu.func @sdpa_fwd_0(
// CHECK-DAG: %[[INNER:.+]] = arith.constant 2.500000e-03 : f32
// CHECK-DAG: %[[OUTER:.+]] = arith.constant 72.13475{{[0-9]*}} : f32
// CHECK: %[[X:.+]] = arith.mulf %{{.+}}, %[[INNER]] : f32
// CHECK: %[[T:.+]] = math.tanh %[[X]] : f32
// CHECK: arith.mulf %[[T]], %[[OUTER]] : f32
// CHECK-NOT: math.fma
// CHECK: gpu.return

/// 0.125 * log2(e) = 0.180336878. Without a cap the scores stay raw: the
/// tile maximum is scaled once per row, and P's exponent is one fma of the
/// raw score, the factor and -base. On this wide band the exponential is
/// marked afn (ForwardKernelSpec::flushExponentials: sdpa-lower-exp2 makes
/// it ex2.approx.ftz).
// CHECK: gpu.func @sdpa_fwd_1(
// CHECK-NOT: math.tanh
// CHECK: %[[F:.+]] = arith.constant 0.18033{{[0-9]*}} : f32
// CHECK-NOT: math.tanh
// CHECK: %[[M:.+]] = arith.mulf %{{.+}}, %[[F]] : f32
// CHECK: %[[LIM:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: arith.cmpf ogt, %[[M]], %[[LIM]] : f32
// CHECK: %[[NB:.+]] = arith.negf
// CHECK: %[[X:.+]] = math.fma %{{.+}}, %[[F]], %[[NB]] : f32
// CHECK-NEXT: math.exp2 %[[X]] fastmath<afn> : f32
// CHECK-NOT: math.tanh
// CHECK: gpu.return
