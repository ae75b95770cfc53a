// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 dq-mode=accumulate" -split-input-file | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 host-program=false dq-mode=accumulate" -split-input-file | FileCheck %s --check-prefix=TAG

/// Causal window of 101 keys (L = 100, R = 0), top-left, Tq = Tk = 64,
/// dynamic lengths, deterministic. By hand (docs/Semantics.md §3-4), key tile u
/// holds keys [64u, 64u + 64):
///   q_begin(u) = max(0, u, <empty past Sq>)             (qlo = 64u)
///   q_end(u)   = min(ceil(Sq/64), u + 3, (Skv + 99) floordiv 64 + 1)
///                (qhi = min(Sq - 1, 64u + 63 + 100) and k1 = Skv)
///   kv_first(t) = max(0, t - 2), so turn(u, t) = min(u, u - t + 2).
/// The q-loop walks the range from the top: step i visits t = begin + end - 1 - i.
/// Interior (no cell mask) needs 64t + 63 - 100 <= 64u and 64u + 63 <= 64t:
///   q_interior_begin(u) = (64u + 63) ceildiv 64 = u + 1
///   q_interior_end(u)   = (64u + 100 + 1) floordiv 64 = u + 1
/// so no visit is interior (101 keys < Tq + Tk - 1); each map also takes the
/// visit range's results (the clamp).
// CHECK-DAG: #[[QB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0, d0 * 64 - s0 + (s0 - 1) floordiv 64 + 1)>
// CHECK-DAG: #[[QE:.*]] = affine_map<(d0)[s0, s1] -> (s0 ceildiv 64, d0 + 3, (s1 + 99) floordiv 64 + 1)>
// CHECK-DAG: #[[QIB:.*]] = affine_map<(d0)[s0, s1] -> (0, (d0 * 64 + 63) ceildiv 64, d0, {{.*}})>
// CHECK-DAG: #[[QIE:.*]] = affine_map<(d0)[s0, s1] -> (s0 ceildiv 64, d0 + 1, (s1 + 99) floordiv 64 + 1)>
// CHECK-DAG: #[[FULL:.*]] = affine_map<()[s0] -> (s0 floordiv 64)>
// CHECK-DAG: #[[DOWN:.*]] = affine_map<(d0)[s0, s1] -> (-d0 + s0 + s1 - 1)>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - d1 + 2)>
// CHECK-DAG: #[[TILES:.*]] = affine_map<()[s0] -> (s0 ceildiv 64)>
// CHECK: module attributes {gpu.container_module, sdpa.artifacts = {sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 100 0 top_left\0Ascale 0.125\0Avarlen 0\0Adeterministic 1
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 46592\0Agrid kv_tiles heads_kv batch
/// The op becomes its host program: dQ, dK, dV on the device, the
/// workspaces the runtime allocates (docs/Runtime.md) sized
/// Hq * (B * Sq) * 64 (dq_accum), Hq * (B * Sq) (delta) and
/// B * Hq * (Sq ceildiv 64) relay counters, zeroed; the three kernels over
/// (Sq ceildiv 64, Hq, B), (Skv ceildiv 64, Hkv, B), (Sq ceildiv 64, Hq, B)
/// with the main kernel's 46592 bytes of shared memory, the workspaces
/// freed after the last launch.
/// host-program=false keeps the op, tagged with its kernel module (for
/// sdpa-export-ffi-calls), and emits no launch.
// TAG-LABEL: func.func @window
// TAG: sdpa.attention_grad {{.*}}sdpa.kernel = @sdpa_bwd_0
// TAG-NOT: gpu.launch_func
// CHECK-LABEL: func.func @window
// CHECK: %[[Q:.+]] = bufferization.to_buffer %{{.+}} read_only : tensor<1x2x?x64xf16> to memref<1x2x?x64xf16>
// CHECK: %[[K:.+]] = bufferization.to_buffer
// CHECK: %[[DQ:.+]] = gpu.alloc (%{{.+}}) : memref<1x2x?x64xf16>
// CHECK: gpu.alloc (%{{.+}}) : memref<1x2x?x64xf16>
// CHECK: gpu.alloc (%{{.+}}) : memref<1x2x?x64xf16>
// CHECK: %[[SQ:.+]] = memref.dim %[[Q]], %{{.+}} :
// CHECK: %[[SKV:.+]] = memref.dim %[[K]], %{{.+}} :
// CHECK: %[[HQ:.+]] = memref.dim %[[Q]], %{{.+}} :
// CHECK: %[[HKV:.+]] = memref.dim %[[K]], %{{.+}} :
// CHECK: %[[B:.+]] = memref.dim %[[Q]], %{{.+}} :
// CHECK: %[[TOKENS:.+]] = arith.muli %[[B]], %[[SQ]] : index
// CHECK: %[[QTILES:.+]] = affine.apply #[[TILES]]()[%[[SQ]]]
// CHECK: %[[KVTILES:.+]] = affine.apply #[[TILES]]()[%[[SKV]]]
// CHECK: %[[D:.+]] = arith.constant 64 : index
// CHECK: %[[A0:.+]] = arith.muli %{{.+}}, %[[HQ]] : index
// CHECK: %[[A1:.+]] = arith.muli %[[A0]], %[[TOKENS]] : index
// CHECK: %[[A2:.+]] = arith.muli %[[A1]], %[[D]] : index
// CHECK: %[[ACC:.+]] = gpu.alloc (%[[A2]]) : memref<?xf32>
// CHECK: %[[ACCP:.+]] = memref.reinterpret_cast %[[ACC]]
// CHECK: %[[D0:.+]] = arith.muli %{{.+}}, %[[HQ]] : index
// CHECK: %[[D1:.+]] = arith.muli %[[D0]], %[[TOKENS]] : index
// CHECK: %[[DELTA:.+]] = gpu.alloc (%[[D1]]) : memref<?xf32>
// CHECK: %[[DELTAP:.+]] = memref.reinterpret_cast %[[DELTA]]
// CHECK: %[[R0:.+]] = arith.muli %{{.+}}, %[[B]] : index
// CHECK: %[[R1:.+]] = arith.muli %[[R0]], %[[HQ]] : index
// CHECK: %[[R2:.+]] = arith.muli %[[R1]], %[[QTILES]] : index
// CHECK: %[[RELAY:.+]] = gpu.alloc (%[[R2]]) : memref<?xi32>
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: gpu.memset %[[RELAY]], %[[ZERO]] : memref<?xi32>, i32
// CHECK: %[[RELAYP:.+]] = memref.reinterpret_cast %[[RELAY]]
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_preprocess blocks in (%[[QTILES]], %[[HQ]], %[[B]]) threads in ({{.*}}) args(%{{.+}} : memref<1099511627776xf16>, %{{.+}} : memref<1099511627776xf16>, %[[DELTAP]] : memref<1099511627776xf32>, %[[ACCP]] : memref<1099511627776xf32>, %[[RELAYP]] : memref<1099511627776xi32>, %{{.+}} : i32, %{{.+}} : i32, %{{.+}} : i64
// CHECK: %[[SMEM:.+]] = arith.constant 46592 : i32
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_main blocks in (%[[KVTILES]], %[[HKV]], %[[B]]) threads in ({{.*}}) dynamic_shared_memory_size %[[SMEM]] args(
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert blocks in (%[[QTILES]], %[[HQ]], %[[B]]) threads in ({{.*}}) args(%[[ACCP]] : memref<1099511627776xf32>, %{{.+}} : memref<1099511627776xf16>,
// CHECK: gpu.dealloc %[[ACC]] : memref<?xf32>
// CHECK: gpu.dealloc %[[DELTA]] : memref<?xf32>
// CHECK: gpu.dealloc %[[RELAY]] : memref<?xi32>
// CHECK: %[[DQT:.+]] = bufferization.to_tensor %[[DQ]] restrict writable
// CHECK: return %[[DQT]]
// CHECK-LABEL: gpu.module @sdpa_bwd_0
// CHECK: gpu.func @sdpa_bwd_preprocess
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: vector.reduction <add>
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-DAG: %[[SQ:.*]] = arith.index_cast %arg10 : i32 to index
// CHECK-DAG: %[[SKV:.*]] = arith.index_cast %arg11 : i32 to index
// CHECK-DAG: %[[U:.*]] = gpu.block_id x
// CHECK: %[[BEGIN:.*]] = affine.max #[[QB]](%[[U]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[RAWEND:.*]] = affine.min #[[QE]](%[[U]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[END:.*]] = affine.max #{{.*}}(%[[RAWEND]], %[[BEGIN]])
/// The interior, clamped into [BEGIN, END), is empty (at END) unless the key
/// tile is full: u < Skv floordiv 64.
// CHECK: %[[RAWIB:.*]] = affine.max #[[QIB]](%[[U]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[IB0:.*]] = affine.min #{{.*}}(%[[RAWIB]], %[[END]])
// CHECK: %[[RAWIE:.*]] = affine.min #[[QIE]](%[[U]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[IE0:.*]] = affine.max #{{.*}}(%[[RAWIE]], %[[IB0]])
// CHECK: %[[NFULL:.*]] = affine.apply #[[FULL]]()[%[[SKV]]]
// CHECK: %[[ISFULL:.*]] = arith.cmpi ult, %[[U]], %[[NFULL]] : index
// CHECK: %[[IB:.*]] = arith.select %[[ISFULL]], %[[IB0]], %[[END]] : index
// CHECK: %[[IE:.*]] = arith.select %[[ISFULL]], %[[IE0]], %[[END]] : index
// CHECK: scf.for
// CHECK: scf.for %[[I:.*]] = %[[BEGIN]] to %[[END]] step
// CHECK-NEXT: %[[T:.*]] = affine.apply #[[DOWN]](%[[I]])[%[[BEGIN]], %[[END]]]
/// An edge visit (t outside [IB, IE)) masks P cell by cell; an interior one
/// branches around the mask.
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpi ult, %[[T]], %[[IB]] : index
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpi uge, %[[T]], %[[IE]] : index
// CHECK-NEXT: %[[EDGE:.*]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
/// S^T and dP^T: Tq/8 * d/16 = 32 products each.
// CHECK-COUNT-64: nvgpu.mma.sync
// CHECK: scf.if %[[EDGE]] -> (vector<2x2xf32>
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {sdpa.band_mask}
/// dV, dK (2 * 4 * 8) and the first round of 4 dQ fragments (4 * 4).
// CHECK-COUNT-80: nvgpu.mma.sync
// CHECK: %[[TURNV:.*]] = affine.min #[[TURN]](%[[U]], %[[T]])[%[[SQ]], %[[SKV]]]
// CHECK: %[[TURN32:.*]] = arith.index_cast %[[TURNV]] : index to i32
// CHECK: scf.while
// CHECK: %[[SEEN:.*]] = llvm.load %{{.*}} atomic syncscope("device") acquire
// CHECK: arith.cmpi ne, %[[SEEN]], %[[TURN32]]
// CHECK: } attributes {sdpa.relay_wait}
// CHECK: gpu.barrier
// CHECK: llvm.atomicrmw fadd {{.*}} syncscope("device") monotonic
/// The second round of dQ fragments, inside the turn.
// CHECK-COUNT-16: nvgpu.mma.sync
// CHECK: llvm.atomicrmw fadd {{.*}} syncscope("device") monotonic
// CHECK-NOT: nvgpu.mma.sync
// CHECK: llvm.fence syncscope("device") acq_rel
// CHECK-NEXT: gpu.barrier
// CHECK: %[[NEXT:.*]] = arith.addi %[[TURNV]], %c1
// CHECK: llvm.store {{.*}} atomic syncscope("device") release
// CHECK: } {sdpa.q_loop}
// CHECK: } {sdpa.head_loop}
// CHECK: vector.store
// CHECK-LABEL: gpu.func @sdpa_bwd_dq_convert
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @window(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 100, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// Causal only (L = inf): every query tile's visitors start at key tile 0,
/// so the turn is the key-tile index itself and q_end is only ceil(Sq/64).
/// The interior is [(64u + 63) ceildiv 64, ceil(Sq/64)) = [u + 1, q_end): all
/// but the diagonal tile.
// CHECK-DAG: #[[QE:.*]] = affine_map<(d0)[s0, s1] -> (s0 ceildiv 64)>
// CHECK-DAG: #[[QIB:.*]] = affine_map<(d0)[s0, s1] -> (0, (d0 * 64 + 63) ceildiv 64, {{.*}})>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0)>
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[U:.*]] = gpu.block_id x
// CHECK: affine.min #[[QE]](%[[U]])
// CHECK: affine.max #[[QIB]](%[[U]])
// CHECK: affine.min #[[QE]](%[[U]])
// CHECK: scf.for
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[T:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK: %[[TURNV:.*]] = affine.apply #[[TURN]](%[[U]], %[[T]])
// CHECK: arith.index_cast %[[TURNV]] : index to i32
// CHECK: } attributes {sdpa.relay_wait}
func.func @causal(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// Bottom-right window (L = 100, R = 0), delta = Skv - Sq:
///   q_begin(u) = max(0, floor((64u - delta) / 64)) = max(0, u + (Sq - Skv) floordiv 64)
///   q_end(u)   = min(ceil(Sq/64), (64u + 63 - delta + 100) floordiv 64 + 1)
///   kv_first(t) = max(0, (64t + delta - 100) floordiv 64)
///   turn(u, t)  = min(u, u - (64t - Sq + Skv - 100) floordiv 64)
// CHECK-DAG: #[[QB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0 + (s0 - s1) floordiv 64)>
// CHECK-DAG: #[[QE:.*]] = affine_map<(d0)[s0, s1] -> (s0 ceildiv 64, (d0 * 64 + s0 - s1 + 163) floordiv 64 + 1)>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - (d1 * 64 - s0 + s1 - 100) floordiv 64)>
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[U:.*]] = gpu.block_id x
// CHECK: %[[BEGIN:.*]] = affine.max #[[QB]](%[[U]])
// CHECK: affine.min #[[QE]](%[[U]])
// CHECK: scf.for %[[I:.*]] = %[[BEGIN]] to %{{.*}} step
// CHECK-NEXT: %[[T:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK: affine.min #[[TURN]](%[[U]], %[[T]])
// CHECK: } attributes {sdpa.relay_wait}
func.func @bottom_right(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = 100, right = 0, align = bottom_right>, deterministic}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// Non-deterministic, GQA 4/2, bshd: plain relaxed atomic adds, no relay
/// counters among the parameters and no waiting.
// CHECK: deterministic 0
// CHECK-NOT: relay_counters
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-NOT: sdpa.relay_wait
// CHECK: llvm.atomicrmw fadd {{.*}} syncscope("device") monotonic
// CHECK-NOT: sdpa.relay_wait
// CHECK: } {sdpa.q_loop}
func.func @atomic(%q: tensor<2x?x4x64xf16>, %k: tensor<2x?x2x64xf16>, %lse: tensor<2x4x?xf32>) -> tensor<2x?x4x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, layout = #sdpa.layout<bshd>}
      : tensor<2x?x4x64xf16>, tensor<2x?x2x64xf16>, tensor<2x?x2x64xf16>, tensor<2x?x4x64xf16>, tensor<2x?x4x64xf16>, tensor<2x4x?xf32>
      -> tensor<2x?x4x64xf16>, tensor<2x?x2x64xf16>, tensor<2x?x2x64xf16>
  return %dq : tensor<2x?x4x64xf16>
}
