// RUN: %sdpa_opt -sdpa-export-ffi-calls="artifact-dir=out" -split-input-file -verify-diagnostics %s | FileCheck %s

/// A training step as the convert passes leave it: both sites tagged with
/// their kernel modules, the manifests recorded. Each site becomes an FFI
/// call; the other ops and the function signature stay; the kernel modules
/// and their records move into @sdpa_kernels.
/// Workspaces (B = 1, Hq = 4, Sq = 256, D = 64, tile_q 32): dQ_accum
/// 1x4x256x64 f32, Delta 1x4x256 f32, relay counters 1x4x(256/32 = 8) i32.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[Q:.*]]: tensor<1x256x4x64xbf16>, %[[K:.*]]: tensor<1x256x1x64xbf16>, %[[V:.*]]: tensor<1x256x1x64xbf16>, %[[DO:.*]]: tensor<1x256x4x64xbf16>)
// CHECK: %[[F:.*]]:2 = stablehlo.custom_call @sdpa_forward(%[[Q]], %[[K]], %[[V]])
// CHECK-SAME: api_version = 4 : i32
// CHECK-SAME: backend_config = {artifact = "out/sdpa_fwd_0", bottom_right = false, kernel = "sdpa_fwd_0", layout = "bshd", left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
// CHECK-SAME: operand_layouts = [dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>]
// CHECK-SAME: result_layouts = [dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[2, 1, 0]> : tensor<3xindex>]
// CHECK-SAME: : (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>) -> (tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>)
// CHECK: %[[B:.*]]:6 = stablehlo.custom_call @sdpa_backward(%[[Q]], %[[K]], %[[V]], %[[F]]#0, %[[DO]], %[[F]]#1)
// CHECK-SAME: backend_config = {artifact = "out/sdpa_bwd_0", bottom_right = false, deterministic = true, kernel = "sdpa_bwd_0_main", layout = "bshd", left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
// CHECK-SAME: -> (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x4x256x64xf32>, tensor<1x4x256xf32>, tensor<1x4x8xi32>)
// CHECK: %[[SUM:.*]] = stablehlo.add %[[B]]#0, %[[F]]#0
// CHECK: return %[[SUM]], %[[B]]#1, %[[B]]#2
// CHECK-NOT: sdpa.
// CHECK: module @sdpa_kernels attributes {gpu.container_module, sdpa.artifacts = {sdpa_bwd_0 = "{{.*}}", sdpa_fwd_0 = "{{.*}}"}}
// CHECK-NEXT: gpu.module @sdpa_fwd_0
// CHECK: gpu.module @sdpa_bwd_0
module attributes {gpu.container_module, sdpa.artifacts = {
    sdpa_fwd_0 = "sdpa-artifact 1\0Adirection forward\0Atile_q 64\0Akernel sdpa_fwd_0 forward\0A",
    sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Atile_q 32\0Atile_kv 64\0Akernel sdpa_bwd_0_pre bwd_preprocess\0Akernel sdpa_bwd_0_main bwd_main\0A"}} {
  func.func @step(%q: tensor<1x256x4x64xbf16>, %k: tensor<1x256x1x64xbf16>, %v: tensor<1x256x1x64xbf16>, %do: tensor<1x256x4x64xbf16>)
      -> (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>) {
    %o, %lse = sdpa.attention %q, %k, %v {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64, sdpa.kernel = @sdpa_fwd_0::@sdpa_fwd_0}
        : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16> -> tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>
    %dq, %dk, %dv = sdpa.attention_grad %q, %k, %v, %o, %do, %lse {deterministic, layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, scale = 1.250000e-01 : f64, sdpa.kernel = @sdpa_bwd_0}
        : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>
        -> tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>
    %sum = stablehlo.add %dq, %o : tensor<1x256x4x64xbf16>
    return %sum, %dk, %dv : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>
  }
  gpu.module @sdpa_fwd_0 {
  }
  gpu.module @sdpa_bwd_0 {
  }
}

// -----

/// Defaults travel explicitly: no scale attribute is 1/sqrt(64) = 0.125,
/// unbounded edges are -1, bottom-right alignment is bottom_right = true,
/// bhsd stays bhsd. Without `deterministic` the flag is false, and the relay
/// counters are still there (1x2x(100/64 rounded up = 2)).
// CHECK-LABEL: func.func @defaults
// CHECK: stablehlo.custom_call @sdpa_forward
// CHECK-SAME: backend_config = {artifact = "out/sdpa_fwd_3", bottom_right = true, kernel = "fwd3", layout = "bhsd", left = -1 : i64, right = 0 : i64, scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
// CHECK: stablehlo.custom_call @sdpa_backward
// CHECK-SAME: deterministic = false
// CHECK-SAME: left = -1 : i64, right = -1 : i64
// CHECK-SAME: -> (tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf32>, tensor<1x2x100xf32>, tensor<1x2x2xi32>)
module attributes {sdpa.artifacts = {
    sdpa_fwd_3 = "kernel fwd3 forward\0Atile_q 128\0A",
    sdpa_bwd_7 = "tile_q 64\0Akernel bwd7 bwd_main\0A"}} {
  func.func @defaults(%q: tensor<1x2x100x64xf16>, %do: tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16> {
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>, sdpa.kernel = @sdpa_fwd_3::@fwd3}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
    %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %o, %do, %lse {mask = #sdpa.band<left = inf, right = inf, align = top_left>, sdpa.kernel = @sdpa_bwd_7}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
        -> tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>
    return %dq : tensor<1x2x100x64xf16>
  }
}

// -----

/// A site the convert passes did not lower: nothing to call.
module {
  func.func @untagged(%q: tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16> {
    // expected-error @+1 {{expected the kernel tag 'sdpa.kernel' (run convert-sdpa-to-gpu / convert-sdpa-grad-to-gpu first)}}
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
    return %o : tensor<1x2x100x64xf16>
  }
}

// -----

/// The tag names a module with no recorded manifest.
module attributes {sdpa.artifacts = {sdpa_fwd_0 = "kernel k forward\0Atile_q 64\0A"}} {
  func.func @unrecorded(%q: tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16> {
    // expected-error @+1 {{no manifest for kernel module 'sdpa_fwd_1' in 'sdpa.artifacts'}}
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, sdpa.kernel = @sdpa_fwd_1::@k}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
    return %o : tensor<1x2x100x64xf16>
  }
}

// -----

/// A manifest without the kernel the call must name, or without tile_q.
module attributes {sdpa.artifacts = {sdpa_fwd_0 = "kernel k bwd_main\0Atile_q 64\0A",
                                     sdpa_bwd_0 = "kernel k bwd_main\0A"}} {
  func.func @incomplete(%q: tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16> {
    // expected-error @+1 {{kernel module 'sdpa_fwd_0': the manifest has no kernel of role forward}}
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, sdpa.kernel = @sdpa_fwd_0::@k}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
    // expected-error @+1 {{kernel module 'sdpa_bwd_0': the manifest has no positive tile_q}}
    %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %o, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, sdpa.kernel = @sdpa_bwd_0}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
        -> tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>
    return %dq : tensor<1x2x100x64xf16>
  }
}

// -----

/// Dynamic shapes, packed sequences and per-batch lengths have no FFI form.
module attributes {sdpa.artifacts = {sdpa_fwd_0 = "kernel k forward\0Atile_q 64\0A"}} {
  func.func @unexportable(%q: tensor<1x2x?x64xf16>, %t: tensor<300x2x64xf16>, %d: tensor<2x2x100x64xf16>,
                          %cu: tensor<3xi32>, %lens: tensor<2xi32>) -> (tensor<1x2x?x64xf16>, tensor<300x2x64xf16>, tensor<2x2x100x64xf16>) {
    // expected-error @+1 {{cannot export to an FFI call: expected static shapes, operand type is 'tensor<1x2x?x64xf16>'}}
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, sdpa.kernel = @sdpa_fwd_0::@k}
        : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
    // expected-error @+1 {{cannot export to an FFI call: layout thd is not exported (the call would need the maximum sequence lengths)}}
    %ot, %lset = sdpa.attention %t, %t, %t seqlens(%cu, %cu : tensor<3xi32>, tensor<3xi32>) {layout = #sdpa.layout<thd>, mask = #sdpa.band<left = inf, right = 0, align = top_left>, sdpa.kernel = @sdpa_fwd_0::@k}
        : tensor<300x2x64xf16>, tensor<300x2x64xf16>, tensor<300x2x64xf16> -> tensor<300x2x64xf16>, tensor<2x300xf32>
    // expected-error @+1 {{cannot export to an FFI call: per-batch lengths (seqlens) are not exported}}
    %od, %lsed = sdpa.attention %d, %d, %d seqlens(%lens, %lens : tensor<2xi32>, tensor<2xi32>) {mask = #sdpa.band<left = inf, right = 0, align = top_left>, sdpa.kernel = @sdpa_fwd_0::@k}
        : tensor<2x2x100x64xf16>, tensor<2x2x100x64xf16>, tensor<2x2x100x64xf16> -> tensor<2x2x100x64xf16>, tensor<2x2x100xf32>
    return %o, %ot, %od : tensor<1x2x?x64xf16>, tensor<300x2x64xf16>, tensor<2x2x100x64xf16>
  }
}

// -----

/// Sinks (gpt-oss: one f32 logit per query head, docs/Semantics.md §7): the
/// sinks are the last operand of both calls, to the `_sinks` targets; the
/// backward returns d sinks (f32 [Hq]) after dq, dk, dv, and its last
/// workspace is dsink_partials, one f32 per (batch, query head, query tile)
/// as sdpaBackwardWorkspace sizes it: 1x4x(256/32 = 8), like the relay
/// counters. The backend_config is the sink-less calls'.
// CHECK-LABEL: func.func @sinks
// CHECK-SAME: (%[[Q:.*]]: tensor<1x256x4x64xbf16>, %[[K:.*]]: tensor<1x256x1x64xbf16>, %[[DO:.*]]: tensor<1x256x4x64xbf16>, %[[S:.*]]: tensor<4xf32>)
// CHECK: %[[F:.*]]:2 = stablehlo.custom_call @sdpa_forward_sinks(%[[Q]], %[[K]], %[[K]], %[[S]])
// CHECK-SAME: backend_config = {artifact = "out/sdpa_fwd_0", bottom_right = false, kernel = "f", layout = "bshd", left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
// CHECK-SAME: operand_layouts = [dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<0> : tensor<1xindex>]
// CHECK-SAME: result_layouts = [dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[2, 1, 0]> : tensor<3xindex>]
// CHECK-SAME: : (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<4xf32>) -> (tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>)
// CHECK: %[[B:.*]]:8 = stablehlo.custom_call @sdpa_backward_sinks(%[[Q]], %[[K]], %[[K]], %[[F]]#0, %[[DO]], %[[F]]#1, %[[S]])
// CHECK-SAME: backend_config = {artifact = "out/sdpa_bwd_0", bottom_right = false, deterministic = true, kernel = "b", layout = "bshd", left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
// CHECK-SAME: result_layouts = [dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<0> : tensor<1xindex>, dense<[3, 2, 1, 0]> : tensor<4xindex>, dense<[2, 1, 0]> : tensor<3xindex>, dense<[2, 1, 0]> : tensor<3xindex>, dense<[2, 1, 0]> : tensor<3xindex>]
// CHECK-SAME: : (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>, tensor<4xf32>)
// CHECK-SAME: -> (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<4xf32>, tensor<1x4x256x64xf32>, tensor<1x4x256xf32>, tensor<1x4x8xi32>, tensor<1x4x8xf32>)
// CHECK: return %[[B]]#0, %[[B]]#1, %[[B]]#3
module attributes {sdpa.artifacts = {
    sdpa_fwd_0 = "kernel f forward\0Atile_q 64\0Asinks 1\0A",
    sdpa_bwd_0 = "tile_q 32\0Akernel b bwd_main\0Asinks 1\0A"}} {
  func.func @sinks(%q: tensor<1x256x4x64xbf16>, %k: tensor<1x256x1x64xbf16>, %do: tensor<1x256x4x64xbf16>, %s: tensor<4xf32>)
      -> (tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<4xf32>) {
    %o, %lse = sdpa.attention %q, %k, %k sinks(%s : tensor<4xf32>) {layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, sdpa.kernel = @sdpa_fwd_0::@f}
        : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16> -> tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>
    %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %k, %k, %o, %do, %lse sinks(%s : tensor<4xf32>) {deterministic, layout = #sdpa.layout<bshd>, mask = #sdpa.band<left = 127, right = 0, align = top_left>, sdpa.kernel = @sdpa_bwd_0}
        : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x256x4x64xbf16>, tensor<1x4x256xf32>
        -> tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<1x256x1x64xbf16>, tensor<4xf32>
    return %dq, %dk, %ds : tensor<1x256x4x64xbf16>, tensor<1x256x1x64xbf16>, tensor<4xf32>
  }
}

// -----

/// The softcap: the kernels bake the cap in, the call states it (the
/// handler checks it against the artifact's manifest, docs/Export.md), both
/// directions. A cap of +inf is no cap: 0, as the runtime reports none.
// CHECK-LABEL: func.func @softcap
// CHECK: stablehlo.custom_call @sdpa_forward
// CHECK-SAME: scale = 1.250000e-01 : f32, softcap = 5.000000e+01 : f32}
// CHECK: stablehlo.custom_call @sdpa_backward
// CHECK-SAME: scale = 1.250000e-01 : f32, softcap = 5.000000e+01 : f32}
// CHECK: stablehlo.custom_call @sdpa_forward
// CHECK-SAME: scale = 1.250000e-01 : f32, softcap = 0.000000e+00 : f32}
module attributes {sdpa.artifacts = {
    sdpa_fwd_0 = "kernel k forward\0Atile_q 64\0Asoftcap 50\0A",
    sdpa_fwd_1 = "kernel k forward\0Atile_q 64\0A",
    sdpa_bwd_0 = "tile_q 32\0Akernel b bwd_main\0Asoftcap 50\0A"}} {
  func.func @softcap(%q: tensor<1x2x100x64xf16>, %do: tensor<1x2x100x64xf16>) -> (tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>) {
    %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 50.0 : f32, sdpa.kernel = @sdpa_fwd_0::@k}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
    %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %o, %do, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 50.0 : f32, sdpa.kernel = @sdpa_bwd_0}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
        -> tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>
    %o1, %lse1 = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = inf, right = 0, align = top_left>, softcap = 0x7F800000 : f32, sdpa.kernel = @sdpa_fwd_1::@k}
        : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>, tensor<1x2x100xf32>
    return %dq, %o1 : tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>
  }
}
