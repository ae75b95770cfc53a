// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 dq-mode=accumulate" -split-input-file | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 host-program=false dq-mode=accumulate" -split-input-file | FileCheck %s --check-prefix=TAG
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=64 tile-kv=64 dq-mode=accumulate" -split-input-file | FileCheck %s --check-prefix=ORDER

/// bwd_main forms S^T = K Q^T over head_dim outermost (one warp holds every
/// column at d 64): in the query loop the warp's K A-fragment of k16 block 0 (x4, from
/// the K tile) is loaded alone and feeds the Tq / 8 = 8 products of that
/// block, each starting from zero with its own Q B-fragment, before any other
/// A-fragment is loaded.
// ORDER-LABEL: gpu.func @sdpa_bwd_main(
// ORDER: scf.for
// ORDER: %[[A:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<64x72xf16, #gpu.address_space<workgroup>>
// ORDER-NOT: memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// ORDER-COUNT-8: nvgpu.mma.sync(%[[A]], %{{.+}}, %cst{{(_[0-9]+)?}})
// ORDER-NOT: nvgpu.mma.sync(%[[A]]
// ORDER: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<64x72xf16, #gpu.address_space<workgroup>>

/// Causal window of 101 keys (L = 100, R = 0), top-left, Tq = Tk = 64,
/// dynamic lengths, deterministic. By hand (docs/Semantics.md §3-4), key tile u
/// holds keys [64u, 64u + 64):
///   q_begin(u) = max(0, u, <empty past Sq>)             (qlo = 64u)
///   q_end(u)   = min(ceil(Sq/64), u + 3, (Skv + 99) floordiv 64 + 1)
///                (qhi = min(Sq - 1, 64u + 63 + 100) and k1 = Skv)
///   kv_first(t) = max(0, t - 2), so turn(u, t) = min(u, u - t + 2).
/// The walk covers (query head, query tile) in one loop, sdpa.q_loop, of
/// group * count steps, count = end - begin: step n visits head
/// kv_head * group + n / count and, within it, step i = n mod count from the
/// top, t = end - 1 - i (the map takes end only: no begin term).
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
// CHECK-DAG: #[[DOWN:.*]] = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - d1 + 2)>
// CHECK-DAG: #[[TILES:.*]] = affine_map<()[s0] -> (s0 ceildiv 64)>
// CHECK: module attributes {gpu.container_module, sdpa.artifacts = {sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 100 0 top_left\0Ascale 0.125\0Avarlen 0\0Adeterministic 1
/// bwd_main's shared memory, by hand (SdpaGradToGPU.h; rows padded by 8
/// halves, Sm80.h): a 64-row tile is 64 * (64 + 8) * 2 = 9216 bytes, and Q,
/// dO and the row stats have 2 stages (the 2-stage total fits in 166912):
///   K [64][72] at 0, V [64][72] at 9216, Q [2][64][72] at 18432,
///   dO [2][64][72] at 18432 + 2 * 9216 = 36864, dS [64][72] at 55296,
///   LSE [2][64] f32 at 55296 + 64 * (64 + 8) * 2 = 64512,
///   Delta [2][64] f32 at 64512 + 2 * 64 * 4 = 65024; end 65536
///   (= 2 * 9216 + 2 * 2 * 9216 + 9216 + 2 * 2 * 64 * 4).
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 65536\0Agrid kv_tiles heads_kv batch
/// The op becomes its host program: dQ, dK, dV on the device, the
/// workspaces the runtime allocates (docs/Runtime.md) sized
/// Hq * (B * Sq) * 64 (dq_accum), Hq * (B * Sq) (delta) and
/// B * Hq * (Sq ceildiv 64) relay counters, zeroed; the three kernels over
/// (Sq ceildiv 64, Hq, B), (Skv ceildiv 64, Hkv, B), (Sq ceildiv 64, Hq, B)
/// with the main kernel's 65536 bytes of shared memory, the workspaces
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
// CHECK: %[[SMEM:.+]] = arith.constant 65536 : i32
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
/// No blocks-per-SM request (nvvm.minctasm): ptxas picks the registers.
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK-NOT: nvvm.minctasm
// CHECK-DAG: %[[SQ:.*]] = arith.index_cast %arg10 : i32 to index
// CHECK-DAG: %[[SKV:.*]] = arith.index_cast %arg11 : i32 to index
// CHECK-DAG: %[[HQ:.*]] = arith.index_cast %arg12 : i32 to index
// CHECK-DAG: %[[HKV:.*]] = arith.index_cast %arg13 : i32 to index
// CHECK-DAG: %[[GROUP:.*]] = arith.divui %[[HQ]], %[[HKV]] : index
// CHECK-DAG: %[[U:.*]] = gpu.block_id x
/// The shared buffers at the offsets above; Q, dO, LSE, Delta staged.
// CHECK: gpu.dynamic_shared_memory
// CHECK-NEXT: %[[OFFK:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[KS:.*]] = memref.view %{{.*}}[%[[OFFK]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[OFFV:.*]] = arith.constant 9216 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[OFFV]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[OFFQ:.*]] = arith.constant 18432 : index
// CHECK-NEXT: %[[QS:.*]] = memref.view %{{.*}}[%[[OFFQ]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[OFFDO:.*]] = arith.constant 36864 : index
// CHECK-NEXT: %[[DOS:.*]] = memref.view %{{.*}}[%[[OFFDO]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[OFFDS:.*]] = arith.constant 55296 : index
// CHECK-NEXT: memref.view %{{.*}}[%[[OFFDS]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[OFFLSE:.*]] = arith.constant 64512 : index
// CHECK-NEXT: %[[LSES:.*]] = memref.view %{{.*}}[%[[OFFLSE]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[OFFDELTA:.*]] = arith.constant 65024 : index
// CHECK-NEXT: %[[DELTAS:.*]] = memref.view %{{.*}}[%[[OFFDELTA]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64xf32, #gpu.address_space<workgroup>>
/// K and V, once (4 copies of 16 bytes a thread each: 64 rows * 8 chunks
/// / 128 threads), unstaged.
// CHECK-COUNT-4: nvgpu.device_async_copy %arg1[%{{.*}}], %[[KS]][%{{.*}}, %{{.*}}], 8, %{{[^ ]*}} {bypassL1} : memref<1099511627776xf16> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[KGROUP:.*]] = nvgpu.device_async_create_group
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
/// count tiles per query head, group * count steps.
// CHECK: %[[COUNT:.*]] = arith.subi %[[END]], %[[BEGIN]] : index
// CHECK: %[[STEPS:.*]] = arith.muli %[[GROUP]], %[[COUNT]] : index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
/// Before the loop, visit 0 (head 0 of the group, tile end - 1), if there
/// is a step at all, has its Q and dO fetched into stage 0 mod 2: with no
/// step, count may be 0, and no visit's coordinates may be formed (n / count).
// CHECK: %[[ANY:.*]] = arith.cmpi ult, %[[C0]], %[[STEPS]] : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[S0:.*]] = arith.remui %[[C0]], %[[TWO]] : index
// CHECK-NEXT: arith.divui %[[C0]], %[[COUNT]] : index
// CHECK-NEXT: %[[I0:.*]] = arith.remui %[[C0]], %[[COUNT]] : index
// CHECK: affine.apply #[[DOWN]](%[[I0]])[%[[END]]]
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}], %[[QS]][%[[S0]], %{{.*}}, %{{.*}}], 8, %{{[^ ]*}} {bypassL1} : memref<1099511627776xf16> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: nvgpu.device_async_copy %arg0[%{{.*}}], %[[QS]][%[[S0]], %{{.*}}, %{{.*}}]
// CHECK-COUNT-4: nvgpu.device_async_copy %arg3[%{{.*}}], %[[DOS]][%[[S0]], %{{.*}}, %{{.*}}]
// CHECK: memref.store %{{.*}}, %[[LSES]][%[[S0]], %{{.*}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.store %{{.*}}, %[[DELTAS]][%[[S0]], %{{.*}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: scf.for %[[N:.*]] = %[[C0]] to %[[STEPS]] step
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %[[N]], %[[TWO]] : index
/// This visit's copies have landed (the wait), and every warp is done with
/// the previous visit (the barrier after it), whose stage (n + 1) mod 2 the
/// next visit's copies then take, disabled after the last step (the last
/// visit again, every copy zero-filling).
// CHECK-NEXT: nvgpu.device_async_wait %[[KGROUP]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[N]], %[[C1]] : index
// CHECK-NEXT: %[[HASNEXT:.*]] = arith.cmpi ult, %[[NEXT]], %[[STEPS]] : index
// CHECK-NEXT: %[[NSTAGE:.*]] = arith.remui %[[NEXT]], %[[TWO]] : index
// CHECK-NEXT: %[[NV:.*]] = arith.select %[[HASNEXT]], %[[NEXT]], %[[N]] : index
// CHECK-NEXT: arith.divui %[[NV]], %[[COUNT]] : index
// CHECK-NEXT: %[[NI:.*]] = arith.remui %[[NV]], %[[COUNT]] : index
// CHECK: affine.apply #[[DOWN]](%[[NI]])[%[[END]]]
/// The prefetch sits between the barrier and the step's first product.
// CHECK-NOT: nvgpu.mma.sync
// CHECK: %[[NEN:.*]] = arith.andi %{{.*}}, %[[HASNEXT]] : i1
// CHECK-NEXT: %{{.*}} = arith.constant 0 : index
// CHECK-NEXT: %{{.*}} = arith.select %[[NEN]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[NBYTES:.*]] = arith.select %[[NEN]], %{{.*}}, %{{.*}} : index
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}], %[[QS]][%[[NSTAGE]], %{{.*}}, %{{.*}}], 8, %[[NBYTES]] {bypassL1} : memref<1099511627776xf16> to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.mma.sync
// CHECK-COUNT-3: nvgpu.device_async_copy %arg0[%{{.*}}], %[[QS]][%[[NSTAGE]], %{{.*}}, %{{.*}}]
// CHECK-NOT: nvgpu.mma.sync
// CHECK-COUNT-4: nvgpu.device_async_copy %arg3[%{{.*}}], %[[DOS]][%[[NSTAGE]], %{{.*}}, %{{.*}}]
/// The next visit's row stats go to registers now (threads 0-63, a row
/// each), to shared memory after this visit's products.
// CHECK-NOT: nvgpu.mma.sync
// CHECK: %[[NSTATS:.*]]:2 = scf.if %{{.*}} -> (f32, f32) {
/// Then this visit: query head n / count, tile end - 1 - n mod count.
// CHECK: arith.divui %[[N]], %[[COUNT]] : index
// CHECK-NEXT: %[[I:.*]] = arith.remui %[[N]], %[[COUNT]] : index
// CHECK: %[[T:.*]] = affine.apply #[[DOWN]](%[[I]])[%[[END]]]
/// An edge visit (t outside [IB, IE)) masks P cell by cell; an interior one
/// branches around the mask.
// CHECK: %[[BELOW:.*]] = arith.cmpi ult, %[[T]], %[[IB]] : index
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpi uge, %[[T]], %[[IE]] : index
// CHECK-NEXT: %[[EDGE:.*]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
/// This visit reads its own stage: S^T and dP^T, Tq/8 * d/16 = 32 products
/// each, against Q and dO of stage n mod 2 (two 8-query blocks a load).
// CHECK: nvgpu.ldmatrix %[[KS]][
// CHECK: nvgpu.ldmatrix %[[QS]][%[[STAGE]], %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-64: nvgpu.mma.sync
// CHECK: vector.load %[[LSES]][%[[STAGE]], %{{.*}}] : memref<2x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: scf.if %[[EDGE]] -> (vector<2x2xf32>
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {sdpa.band_mask}
// CHECK: vector.load %[[DELTAS]][%[[STAGE]], %{{.*}}] : memref<2x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
/// dV, dK (2 * 4 * 8, from dO and Q of stage n mod 2) and the first round of
/// 4 dQ fragments (4 * 4); dO and Q two 8-column blocks a load.
// CHECK: nvgpu.ldmatrix %[[DOS]][%[[STAGE]], %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = true}
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
// CHECK: %[[NEXTTURN:.*]] = arith.addi %[[TURNV]], %c1
// CHECK: llvm.store {{.*}} atomic syncscope("device") release
/// Last in the step, the prefetched row stats land in stage (n + 1) mod 2.
// CHECK: memref.store %[[NSTATS]]#0, %[[LSES]][%[[NSTAGE]], %{{.*}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.store %[[NSTATS]]#1, %[[DELTAS]][%[[NSTAGE]], %{{.*}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: } {sdpa.q_loop}
/// The last, disabled fetch lands before dK and dV are stored; no other loop.
// CHECK-NEXT: nvgpu.device_async_wait %[[KGROUP]] {numGroups = 0 : i32}
// CHECK-NOT: sdpa.head_loop
// CHECK-NOT: scf.for
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
// CHECK-DAG: #[[DOWN:.*]] = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0)>
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[U:.*]] = gpu.block_id x
// CHECK: affine.min #[[QE]](%[[U]])
// CHECK: affine.max #[[QIB]](%[[U]])
// CHECK: affine.min #[[QE]](%[[U]])
// CHECK: %[[COUNT:.*]] = arith.subi
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[I:.*]] = arith.remui %[[N]], %[[COUNT]] : index
// CHECK: %[[T:.*]] = affine.apply #[[DOWN]](%[[I]])
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
/// Here q_begin(u) > 0 past the first key tiles: step i of a head still
/// visits t = q_end - 1 - i (q_begin + q_end - 1 - i, the form of a loop
/// over [q_begin, q_end), would overshoot by q_begin).
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - (d1 * 64 - s0 + s1 - 100) floordiv 64)>
// CHECK-DAG: #[[DOWN:.*]] = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[U:.*]] = gpu.block_id x
// CHECK: %[[BEGIN:.*]] = affine.max #[[QB]](%[[U]])
// CHECK: %[[RAWEND:.*]] = affine.min #[[QE]](%[[U]])
// CHECK: %[[END:.*]] = affine.max #{{.*}}(%[[RAWEND]], %[[BEGIN]])
// CHECK: %[[COUNT:.*]] = arith.subi %[[END]], %[[BEGIN]] : index
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[I:.*]] = arith.remui %[[N]], %[[COUNT]] : index
// CHECK: %[[T:.*]] = affine.apply #[[DOWN]](%[[I]])[%[[END]]]
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
/// counters among the parameters and no waiting. The group of kv head h is
/// query heads 2h, 2h + 1 (group = heads_q / heads_kv = 2): step n of the
/// one walk visits query head h * group + n / count, whose Q rows start at
/// head * q_stride_h.
// CHECK: deterministic 0
// CHECK-NOT: relay_counters
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-DAG: %[[HQ:.*]] = arith.index_cast %arg11 : i32 to index
// CHECK-DAG: %[[HKV:.*]] = arith.index_cast %arg12 : i32 to index
// CHECK-DAG: %[[GROUP:.*]] = arith.divui %[[HQ]], %[[HKV]] : index
// CHECK-DAG: %[[KVH:.*]] = gpu.block_id y
// CHECK: %[[COUNT:.*]] = arith.subi
// CHECK: %[[STEPS:.*]] = arith.muli %[[GROUP]], %[[COUNT]] : index
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %[[STEPS]] step
/// (after the next visit's fetch)
// CHECK: %[[INGROUP:.*]] = arith.divui %[[N]], %[[COUNT]] : index
// CHECK-NEXT: arith.remui %[[N]], %[[COUNT]] : index
// CHECK-NEXT: %[[FIRSTHEAD:.*]] = arith.muli %[[KVH]], %[[GROUP]] : index
// CHECK-NEXT: %[[HEAD:.*]] = arith.addi %[[FIRSTHEAD]], %[[INGROUP]] : index
// CHECK-NEXT: %[[QSB:.*]] = arith.index_cast %arg13 : i64 to index
// CHECK-NEXT: arith.muli %{{.*}}, %[[QSB]] : index
// CHECK-NEXT: %[[QSH:.*]] = arith.index_cast %arg14 : i64 to index
// CHECK-NEXT: arith.muli %[[HEAD]], %[[QSH]] : index
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

