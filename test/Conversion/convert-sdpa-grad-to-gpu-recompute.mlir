// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s --check-prefix=NOACC --implicit-check-not=dq_accum --implicit-check-not=relay_counters --implicit-check-not=llvm.atomicrmw --implicit-check-not=bwd_dq_convert
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="dq-mode=accumulate" -split-input-file | FileCheck %s --check-prefix=ACC
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s --check-prefix=ROWTILES
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu -split-input-file | FileCheck %s --check-prefix=CHUNK
// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=32 tile-kv=64" -split-input-file | FileCheck %s --check-prefix=KEYROWS

/// bwd_dq's warp chunks (docs/Semantics.md §3.8): warp w of query tile t
/// holds rows [32x, 32x + 31], x = 2t + w, and walks the key tile in chunks
/// of 32 keys; chunk c of key tile u is chunk 2u + c of the band tiled
/// 32 x 32. By hand its rows see keys [32x - 127, 32x + 31]: chunks from
/// (32x - 127) floordiv 32 = x - 4 to x, whole from the chunk whose first
/// key is at least 32x + 31 - 127 (x - 3) to the last whose last key is at
/// most 32x (x - 1). A chunk is computed only inside the range and masked
/// only outside the whole ones.
// CHUNK-DAG: #[[CB:.+]] = affine_map<(d0)[s0, s1] -> (0, d0 - 4, {{.*}})>
// CHUNK-DAG: #[[CE:.+]] = affine_map<(d0)[s0, s1] -> (s1 ceildiv 32, d0 + 1, {{.*}})>
// CHUNK-DAG: #[[CIB:.+]] = affine_map<(d0)[s0, s1] -> (0, d0 - 3)>
// CHUNK-DAG: #[[CIE:.+]] = affine_map<(d0)[s0, s1] -> (s1 floordiv 32, d0)>
// CHUNK-LABEL: gpu.func @sdpa_bwd_dq(
// CHUNK: %[[X2:.+]] = arith.muli %block_id_x, %c2{{(_[0-9]+)?}} : index
// CHUNK-NEXT: %[[X:.+]] = arith.addi %[[X2]], %{{.+}} : index
// CHUNK-NEXT: %[[B:.+]] = affine.max #[[CB]](%[[X]])
// CHUNK-NEXT: %[[E:.+]] = affine.min #[[CE]](%[[X]])
// CHUNK-NEXT: affine.max #[[CIB]](%[[X]])
// CHUNK-NEXT: affine.min #[[CIE]](%[[X]])
// CHUNK: scf.for %[[U:[a-z0-9_]+]] =
// CHUNK: %[[U2:.+]] = arith.muli %[[U]], %c2{{(_[0-9]+)?}} : index
// CHUNK: %[[CHUNK:.+]] = arith.addi %[[U2]], %{{.+}} : index
// CHUNK-NEXT: %[[FROM:.+]] = arith.cmpi sge, %[[CHUNK]], %[[B]] : index
// CHUNK-NEXT: %[[TO:.+]] = arith.cmpi slt, %[[CHUNK]], %[[E]] : index
// CHUNK-NEXT: %[[SEES:.+]] = arith.andi %[[FROM]], %[[TO]] : i1
// CHUNK-NEXT: %[[BELOW:.+]] = arith.cmpi ult, %[[CHUNK]], %{{.+}} : index
// CHUNK-NEXT: %[[ABOVE:.+]] = arith.cmpi uge, %[[CHUNK]], %{{.+}} : index
// CHUNK-NEXT: %[[PARTLY:.+]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
// CHUNK-NEXT: scf.if %[[SEES]] -> (vector<2x2xf32>
// CHUNK: nvgpu.mma.sync
// CHUNK: scf.if %[[PARTLY]] -> (vector<2x2xf32>
// CHUNK: } {sdpa.band_mask}
// CHUNK: } {sdpa.kv_loop}

/// bwd_dq's two row tiles per warp: in the key loop, the Q A-fragments of
/// both row tiles (rows warpRow0 and warpRow0 + 16) are loaded, then each K
/// B-fragment (x2, from the staged K tile) feeds one mma.sync per row tile.
// ROWTILES-LABEL: gpu.func @sdpa_bwd_dq(
// ROWTILES: scf.for
// ROWTILES: %[[A0:.+]] = nvgpu.ldmatrix %{{.+}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// ROWTILES: %[[A1:.+]] = nvgpu.ldmatrix %{{.+}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// ROWTILES: %[[B:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 2 : i32, transpose = false} : memref<2x64x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// ROWTILES-NEXT: nvgpu.mma.sync(%[[A0]], %[[B]], %{{.+}})
// ROWTILES-NEXT: nvgpu.mma.sync(%[[A1]], %[[B]], %{{.+}})

/// bwd_main's two key row tiles a warp (BackwardKernelSpec::keyRowTiles):
/// with dQ recomputed, mma width 64 <= 64, tile_q 32 <= 32 and tile_kv 64 a
/// multiple of 32, warp w holds keys [32w, 32w + 31] of the tile: 64 / 32 =
/// 2 warps, 64 threads. Per k16 block of S^T = K Q^T the K A-fragments of
/// both row tiles (rows 32w + lane % 16 and 32w + 16 + lane % 16) are
/// loaded, then each Q B-fragment (two from one x4 of the staged Q tile)
/// feeds one mma.sync per row tile.
// KEYROWS: kernel sdpa_bwd_main bwd_main\0Ablock 64 1 1\0A
// KEYROWS-LABEL: gpu.func @sdpa_bwd_main(
// KEYROWS: %[[WARP:.+]] = arith.divui %thread_id_x, %c32 : index
// KEYROWS: scf.for
// KEYROWS: %[[R0:.+]] = arith.muli %[[WARP]], %c32{{(_[0-9]+)?}} : index
// KEYROWS: %[[A0:.+]] = nvgpu.ldmatrix %{{.+}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// KEYROWS: %[[W32:.+]] = arith.muli %[[WARP]], %c32{{(_[0-9]+)?}} : index
// KEYROWS-NEXT: %c16{{(_[0-9]+)?}} = arith.constant 16 : index
// KEYROWS-NEXT: %[[R1:.+]] = arith.addi %[[W32]], %c16{{(_[0-9]+)?}} : index
// KEYROWS: %[[A1:.+]] = nvgpu.ldmatrix %{{.+}} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// KEYROWS: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<2x32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// KEYROWS: %[[B0:.+]] = vector.insert %{{.+}}, %{{.+}} [1] : vector<2xf16> into vector<2x2xf16>
// KEYROWS: %[[B1:.+]] = vector.insert %{{.+}}, %{{.+}} [1] : vector<2xf16> into vector<2x2xf16>
// KEYROWS-NEXT: nvgpu.mma.sync(%[[A0]], %[[B0]], %{{.+}})
// KEYROWS-NEXT: nvgpu.mma.sync(%[[A1]], %[[B0]], %{{.+}})
// KEYROWS-NEXT: nvgpu.mma.sync(%[[A0]], %[[B1]], %{{.+}})
// KEYROWS-NEXT: nvgpu.mma.sync(%[[A1]], %[[B1]], %{{.+}})

/// dq-mode=default picks recompute for a band of at most 512 keys up to
/// head_dim 64 (lib/Analysis/KernelDefaults.cpp): a causal window of 128 keys
/// (L = 127, R = 0), top-left, d 64, dynamic lengths, tiles 64 x 64 (the
/// default tile rule's narrow pick). The kernels: bwd_preprocess (Delta
/// only: no dq_accum to zero), bwd_main (dK, dV only) and bwd_dq, one
/// program per query tile, 2 warps of 32 rows (two m16 row tiles each: mma
/// width 64 <= 64 and tile_q 64, BackwardKernelSpec::dqRowTiles), 64
/// threads, Q, dO tiles of 64 x (64 + 8)
/// f16 in shared memory (9216 bytes each) and K, V tiles in 2 stages (mma
/// width 64 <= 96, and it fits): 2 * 9216 + 2 * 2 * 9216 = 55296 bytes.
/// bwd_main keeps 2 stages of Q, dO and the row stats and lays out no dS
/// tile (only an accumulated dQ reads it):
/// 2 * 9216 + 2 * 2 * 9216 + 2 * 2 * 64 * 4 = 56320 bytes.
/// Its key tiles are the forward range of query tile t, by hand
/// (docs/Semantics.md §3): rows [64t, 64t + 63] see keys [q - 127, q], so
///   kv_begin(t) = max(0, floor((64t - 127) / 64)) = max(0, t - 2)
///   kv_end(t)   = min(ceil(Skv / 64), t + 1, (Sq - 1) floordiv 64 + 1)
/// and the unmasked interior, every cell of the block visible, needs
/// 64u + 63 <= 64t (u <= t - 1) and 64u >= 64t + 63 - 127 (u >= t - 1):
///   kv_interior_begin(t) = max(0, t - 1), kv_interior_end(t) = min(Skv floordiv 64, t).
/// No kernel takes dq_accum or relay counters, and nothing is atomic.
// CHECK-DAG: #[[KVB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0 - 2, {{.*}})>
// CHECK-DAG: #[[KVE:.*]] = affine_map<(d0)[s0, s1] -> (s1 ceildiv 64, d0 + 1, (s0 - 1) floordiv 64 + 1)>
// CHECK-DAG: #[[KVIB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0 - 1)>
// CHECK-DAG: #[[KVIE:.*]] = affine_map<(d0)[s0, s1] -> (s1 floordiv 64, d0)>
// CHECK: sdpa.artifacts = {sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 127 0 top_left\0Ascale 0.125\0Avarlen 0\0Adeterministic 0\0Akernel sdpa_bwd_preprocess bwd_preprocess\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam o ptr\0Aparam do ptr\0Aparam delta ptr\0Aparam seq_q i32
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 56320\0Agrid kv_tiles heads_kv batch\0Aparam q ptr\0Aparam k ptr\0Aparam v ptr\0Aparam do ptr\0Aparam lse ptr\0Aparam delta ptr\0Aparam dk ptr\0Aparam dv ptr\0Aparam seq_q i32
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 55296\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0Aparam v ptr\0Aparam do ptr\0Aparam lse ptr\0Aparam delta ptr\0Aparam dq ptr\0Aparam seq_q i32\0Aparam seq_kv i32\0Aparam heads_q i32\0Aparam heads_kv i32
/// The host program allocates dQ, dK, dV and delta (one f32 workspace) and
/// launches the three kernels in order.
// CHECK-LABEL: func.func @window
// CHECK-COUNT-3: gpu.alloc (%{{.+}}) : memref<1x2x?x64xf16>
// CHECK: %[[DELTA:.+]] = gpu.alloc (%{{.+}}) : memref<?xf32>
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_preprocess
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_main
// CHECK: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq blocks in (%{{.+}}, %{{.+}}, %{{.+}}) threads in (%{{.+}}, %{{.+}}, %{{.+}}) dynamic_shared_memory_size %{{.+}}
// CHECK: gpu.dealloc %[[DELTA]]
/// bwd_dq: Q [64][72] at 0, dO [64][72] at 9216, K [2][64][72] at 18432,
/// V [2][64][72] at 18432 + 2 * 9216 = 36864.
// CHECK: gpu.func @sdpa_bwd_dq(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[T:.+]] = gpu.block_id x
// CHECK: memref.view %{{.*}}[%c0{{(_[0-9]+)?}}][] : {{.*}} to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c9216{{(_[0-9]+)?}}][] : {{.*}} to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[KS:.*]] = memref.view %{{.*}}[%c18432{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x72xf16, #gpu.address_space<workgroup>>
// CHECK: %[[VS:.*]] = memref.view %{{.*}}[%c36864{{(_[0-9]+)?}}][] : {{.*}} to memref<2x64x72xf16, #gpu.address_space<workgroup>>
/// Q and dO once (their group names every wait: a wait counts groups).
// CHECK: %[[QGROUP:.*]] = nvgpu.device_async_create_group
// CHECK: %[[KVBEGIN:.*]] = affine.max #[[KVB]](%[[T]])
// CHECK: %[[KVEND:.*]] = affine.min #[[KVE]](%[[T]])
// CHECK: affine.max #[[KVIB]](%[[T]])
// CHECK: affine.min #[[KVIE]](%[[T]])
/// Before the loop, if the key range is not empty, key tile kv_begin's K
/// and V go to stage kv_begin mod 2.
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi ult, %[[KVBEGIN]], %[[KVEND]] : index
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[FSTAGE:.*]] = arith.remui %[[KVBEGIN]], %[[TWO]] : index
// CHECK: nvgpu.device_async_copy %arg1[%{{.*}}], %[[KS]][%[[FSTAGE]], %{{.*}}, %{{.*}}]
// CHECK: nvgpu.device_async_copy %arg2[%{{.*}}], %[[VS]][%[[FSTAGE]], %{{.*}}, %{{.*}}]
// CHECK-NOT: gpu.barrier
/// Per key tile u: wait for its copies, barrier (every warp is also done
/// with tile u - 1, whose stage (u + 1) mod 2 tile u + 1 then takes), fetch
/// tile u + 1 (disabled past kv_end, its index kept at u), compute from
/// stage u mod 2.
// CHECK: scf.for %[[U:.*]] = %[[KVBEGIN]] to %[[KVEND]] step
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %[[U]], %[[TWO]] : index
// CHECK-NEXT: nvgpu.device_async_wait %[[QGROUP]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[U]], %{{.*}} : index
// CHECK-NEXT: %[[HASNEXT:.*]] = arith.cmpi ult, %[[NEXT]], %[[KVEND]] : index
// CHECK-NEXT: %[[NSTAGE:.*]] = arith.remui %[[NEXT]], %[[TWO]] : index
// CHECK-NEXT: arith.select %[[HASNEXT]], %[[NEXT]], %[[U]] : index
// CHECK-NOT: nvgpu.mma.sync
// CHECK: arith.andi %{{.*}}, %[[HASNEXT]] : i1
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvgpu.device_async_copy %arg1[%{{.*}}], %[[KS]][%[[NSTAGE]], %{{.*}}, %{{.*}}]
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvgpu.device_async_copy %arg2[%{{.*}}], %[[VS]][%[[NSTAGE]], %{{.*}}, %{{.*}}]
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvgpu.ldmatrix %[[KS]][%[[STAGE]], %{{.*}}, %{{.*}}]
// CHECK: nvgpu.mma.sync
// CHECK: } {sdpa.band_mask}
// CHECK: nvgpu.mma.sync
// CHECK: } {sdpa.kv_loop}
/// The last, disabled fetch lands before dQ is stored.
// CHECK-NEXT: nvgpu.device_async_wait %[[QGROUP]] {numGroups = 0 : i32}
// CHECK: vector.store
// CHECK: gpu.return
// NOACC-LABEL: func.func @window
// ACC-LABEL: func.func @window
// ACC: gpu.launch_func @sdpa_bwd_0::@sdpa_bwd_dq_convert
func.func @window(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// deterministic: recomputed dQ is repeatable as it is, so the artifact says
/// deterministic 1 and still takes no relay counters.
// CHECK: sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype f16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 127 0 top_left\0Ascale 0.125\0Avarlen 0\0Adeterministic 1
// CHECK-SAME: kernel sdpa_bwd_dq bwd_dq
// CHECK: func.func @deterministic
// NOACC-LABEL: func.func @deterministic
// ACC: sdpa_bwd_0 = "{{.*}}param relay_counters ptr
func.func @deterministic(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>) -> tensor<1x2x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>
  return %dq : tensor<1x2x?x64xf16>
}

// -----

/// With sinks, bwd_dq also takes the dsink partials (bwd_preprocess writes
/// them) and stores grad_sinks in its program (0, h, 0).
// CHECK: sdpa_bwd_0 = "{{.*}}kernel sdpa_bwd_dq bwd_dq\0Ablock 64 1 1\0Ashared_bytes 55296\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0Aparam v ptr\0Aparam do ptr\0Aparam lse ptr\0Aparam delta ptr\0Aparam dq ptr\0Aparam dsink_partials ptr\0Aparam grad_sinks ptr\0Aparam seq_q i32
// CHECK: func.func @sinks
// NOACC-LABEL: func.func @sinks
func.func @sinks(%q: tensor<1x2x?x64xf16>, %lse: tensor<1x2x?xf32>, %s: tensor<2xf32>) -> tensor<2xf32> {
  %dq, %dk, %dv, %ds = sdpa.attention_grad %q, %q, %q, %q, %q, %lse sinks(%s : tensor<2xf32>) {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?xf32>
      -> tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<2xf32>
  return %ds : tensor<2xf32>
}
