// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=64 tile-kv=64" --convert-sdpa-to-gpu | FileCheck %s
// RUN: %sdpa_opt %s --sdpa-derive-bounds="tile-q=64 tile-kv=64" --convert-sdpa-to-gpu="host-program=false" | FileCheck %s --check-prefix=TAG

/// The gpt-oss window (L = 127, R = 0, top-left) with 64x64 tiles. By hand:
/// query tile t sees keys [64t - 127, 64t + 63], so it visits key tiles from
/// (64t - 127) floordiv 64 = t - 2 up to t, and the tiles in
/// [(64t + 63 - 127) ceildiv 64, (64t + 1) floordiv 64) = [t - 1, t) need no
/// mask. The kernel's loop bounds must be exactly these maps, applied to
/// (blockIdx.x)[seq_q, seq_kv] with the lengths as runtime parameters.
// CHECK-DAG: #[[KVB:.+]] = affine_map<(d0)[s0, s1] -> (0, d0 - 2, {{.*}})>
// CHECK-DAG: #[[KVE:.+]] = affine_map<(d0)[s0, s1] -> (s1 ceildiv 64, d0 + 1, {{.*}})>
// CHECK-DAG: #[[IB:.+]] = affine_map<(d0)[s0, s1] -> (0, d0 - 1)>
// CHECK-DAG: #[[IE:.+]] = affine_map<(d0)[s0, s1] -> (s1 floordiv 64, d0)>
// CHECK-DAG: #[[TILES:.+]] = affine_map<()[s0] -> (s0 ceildiv 64)>

/// The manifest of each kernel module travels on the top-level module.
// CHECK: module attributes {gpu.container_module, sdpa.artifacts = {sdpa_fwd_0 = "sdpa-artifact 1\0Adirection forward\0Adtype bf16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 127 0 top_left\0Ascale 0.125\0Avarlen 0\0Akernel sdpa_fwd_0 forward\0Ablock 128 1 1\0Ashared_bytes 46080\0Agrid q_tiles heads_q batch\0Aparam q ptr\0A
// CHECK-SAME: sdpa_fwd_1 = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 128\0Atile_q 64\0Atile_kv 64\0Aband inf 0 bottom_right\0Ascale 0.0883883476483184{{[0-9]+}}\0Avarlen 0\0Akernel sdpa_fwd_1 forward\0Ablock 128 1 1\0Ashared_bytes 87040\0A

/// The op becomes its host program: buffers of q, k, v, O and LSE on the
/// device, the sizes read off the buffers, and one launch over
/// (Sq ceildiv 64, Hq, B) with the manifest's 128 threads and 46080 bytes
/// of shared memory (64 x 72 bf16 for Q, 2 x 64 x 72 each for K and V),
/// the parameters in the manifest's order.
/// host-program=false keeps the op, tagged with its kernel (for
/// sdpa-export-ffi-calls), and emits no launch.
// TAG-LABEL: func.func @window
// TAG: sdpa.attention {{.*}}sdpa.kernel = @sdpa_fwd_0::@sdpa_fwd_0
// TAG-NOT: gpu.launch_func
// TAG-LABEL: func.func @causal_br
// TAG: sdpa.attention {{.*}}sdpa.kernel = @sdpa_fwd_1::@sdpa_fwd_1
// TAG-NOT: gpu.launch_func
// CHECK-LABEL: func.func @window
// CHECK-SAME: (%[[QT:.+]]: tensor<2x16x?x64xbf16>, %[[KT:.+]]: tensor<2x16x?x64xbf16>, %[[VT:.+]]: tensor<2x16x?x64xbf16>)
// CHECK: %[[QB:.+]] = bufferization.to_buffer %[[QT]] read_only : tensor<2x16x?x64xbf16> to memref<2x16x?x64xbf16>
// CHECK: %[[QP:.+]] = memref.reinterpret_cast %[[QB]] to offset: [0], sizes: [1099511627776], strides: [1] : memref<2x16x?x64xbf16> to memref<1099511627776xbf16>
// CHECK: %{{.+}}, %{{.+}}, %{{.+}}:4, %[[QS:.+]]:4 = memref.extract_strided_metadata %[[QB]]
// CHECK: %[[QSB:.+]] = arith.index_cast %[[QS]]#0 : index to i64
// CHECK: %[[QSH:.+]] = arith.index_cast %[[QS]]#1 : index to i64
// CHECK: %[[QSS:.+]] = arith.index_cast %[[QS]]#2 : index to i64
// CHECK: %[[KB:.+]] = bufferization.to_buffer %[[KT]] read_only
// CHECK: %[[KP:.+]] = memref.reinterpret_cast %[[KB]]
// CHECK: %[[VB:.+]] = bufferization.to_buffer %[[VT]] read_only
// CHECK: %[[VP:.+]] = memref.reinterpret_cast %[[VB]]
// CHECK: %[[O:.+]] = gpu.alloc (%{{.+}}) : memref<2x16x?x64xbf16>
// CHECK: %[[OP:.+]] = memref.reinterpret_cast %[[O]]
// CHECK: %[[LSE:.+]] = gpu.alloc (%{{.+}}) : memref<2x16x?xf32>
// CHECK: %[[LSEP:.+]] = memref.reinterpret_cast %[[LSE]] {{.*}} to memref<1099511627776xf32>
// CHECK: %[[SQ:.+]] = memref.dim %[[QB]], %{{.+}} : memref<2x16x?x64xbf16>
// CHECK: %[[SKV:.+]] = memref.dim %[[KB]], %{{.+}} : memref<2x16x?x64xbf16>
// CHECK: %[[HQ:.+]] = memref.dim %[[QB]], %{{.+}} : memref<2x16x?x64xbf16>
// CHECK: %[[HKV:.+]] = memref.dim %[[KB]], %{{.+}} : memref<2x16x?x64xbf16>
// CHECK: %[[B:.+]] = memref.dim %[[QB]], %{{.+}} : memref<2x16x?x64xbf16>
// CHECK: %[[SQ32:.+]] = arith.index_cast %[[SQ]] : index to i32
// CHECK: %[[SKV32:.+]] = arith.index_cast %[[SKV]] : index to i32
// CHECK: %[[HQ32:.+]] = arith.index_cast %[[HQ]] : index to i32
// CHECK: %[[HKV32:.+]] = arith.index_cast %[[HKV]] : index to i32
// CHECK: %[[QTILES:.+]] = affine.apply #[[TILES]]()[%[[SQ]]]
// CHECK: %[[THREADS:.+]] = arith.constant 128 : index
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[SMEM:.+]] = arith.constant 46080 : i32
// CHECK: gpu.launch_func @sdpa_fwd_0::@sdpa_fwd_0 blocks in (%[[QTILES]], %[[HQ]], %[[B]]) threads in (%[[THREADS]], %[[ONE]], %[[ONE]]) dynamic_shared_memory_size %[[SMEM]] args(%[[QP]] : memref<1099511627776xbf16>, %[[KP]] : memref<1099511627776xbf16>, %[[VP]] : memref<1099511627776xbf16>, %[[OP]] : memref<1099511627776xbf16>, %[[LSEP]] : memref<1099511627776xf32>, %[[SQ32]] : i32, %[[SKV32]] : i32, %[[HQ32]] : i32, %[[HKV32]] : i32, %[[QSB]] : i64, %[[QSH]] : i64, %[[QSS]] : i64,
// CHECK: %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable : memref<2x16x?x64xbf16> to tensor<2x16x?x64xbf16>
// CHECK: return %[[OT]]
func.func @window(%q: tensor<2x16x?x64xbf16>, %k: tensor<2x16x?x64xbf16>, %v: tensor<2x16x?x64xbf16>)
    -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}

/// Causal, bottom-right, f16, head_dim 128, GQA 8/2, static but different
/// lengths: the kernel still takes the lengths at run time.
/// Static shapes: the same host program (the sizes fold later), 87040
/// bytes of shared memory (64 x 136 f16 for Q, 2 x 64 x 136 for K and V).
// CHECK-LABEL: func.func @causal_br
// CHECK: %[[SMEM1:.+]] = arith.constant 87040 : i32
// CHECK: gpu.launch_func @sdpa_fwd_1::@sdpa_fwd_1 {{.*}} dynamic_shared_memory_size %[[SMEM1]]
func.func @causal_br(%q: tensor<1x8x100x128xf16>, %k: tensor<1x2x300x128xf16>, %v: tensor<1x2x300x128xf16>)
    -> tensor<1x8x100x128xf16> {
  %o, %lse = sdpa.attention %q, %k, %v {mask = #sdpa.band<left = inf, right = 0, align = bottom_right>}
      : tensor<1x8x100x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>
      -> tensor<1x8x100x128xf16>, tensor<1x8x100xf32>
  return %o : tensor<1x8x100x128xf16>
}

// CHECK: gpu.module @sdpa_fwd_0
// CHECK: gpu.func @sdpa_fwd_0(%[[Q:.+]]: memref<1099511627776xbf16>, %{{.+}}: memref<1099511627776xbf16>, %{{.+}}: memref<1099511627776xbf16>, %[[O:.+]]: memref<1099511627776xbf16>, %[[LSE:.+]]: memref<1099511627776xf32>, %[[SQ:.+]]: i32, %[[SKV:.+]]: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i64
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[SQI:.+]] = arith.index_cast %[[SQ]] : i32 to index
// CHECK: %[[SKVI:.+]] = arith.index_cast %[[SKV]] : i32 to index
/// 16-byte aligned, padded (64 + 8 columns) shared buffers for Q, K[2], V[2].
// CHECK: %[[DYN:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[DYN]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[DYN]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[T:.+]] = gpu.block_id x
// CHECK: %[[KB:.+]] = affine.max #[[KVB]](%[[T]])[%[[SQI]], %[[SKVI]]]
// CHECK: %[[KE:.+]] = affine.min #[[KVE]](%[[T]])[%[[SQI]], %[[SKVI]]]
// CHECK: %[[RIB:.+]] = affine.max #[[IB]](%[[T]])[%[[SQI]], %[[SKVI]]]
// CHECK: %[[RIE:.+]] = affine.min #[[IE]](%[[T]])[%[[SQI]], %[[SKVI]]]
/// The interior is clamped into the visit range.
// CHECK: %[[M0:.+]] = arith.minsi %[[RIB]], %[[KE]]
// CHECK: %[[CIB:.+]] = arith.maxsi %[[M0]], %[[KB]]
// CHECK: %[[M1:.+]] = arith.minsi %[[RIE]], %[[KE]]
// CHECK: %[[CIE:.+]] = arith.maxsi %[[M1]], %[[CIB]]
/// Q, K and V tiles arrive by 16-byte cp.async with zero fill past the end,
/// cached in L1 too (no bypassL1: cp.async.ca).
// CHECK: nvgpu.device_async_copy %[[Q]][%{{.+}}], %{{.+}}[%{{.+}}, %{{.+}}], 8, %{{[^ ]+}} : memref
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// CHECK: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<64x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
/// Only the tile holding Skv, kv_full = Skv / tile_kv, has keys past the
/// sequence: the edge loops stop before it.
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK-NEXT: %[[KVFULL:.+]] = arith.divui %[[SKVI]], %[[C64]] : index
// CHECK-NEXT: %[[E1:.+]] = arith.minsi %[[CIB]], %[[KVFULL]] : index
/// Masked edge [kv_begin, min(ib, kv_full)): the band test and -inf.
// CHECK: scf.for %{{.+}} = %[[KB]] to %[[E1]] step
// CHECK: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<2x64x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
/// The band test (BandCellTest): per thread diff + L (diff = col - row -
/// delta); with both edges bounded one unsigned compare a cell,
/// diff + L + (key - query offset) <=u L + R = 127. Cell (0, 0): diff + 127
/// itself; cell (0, 1): diff + 127 + 1. No key-length test here.
// CHECK-NOT: arith.subi %[[SKVI]],
// CHECK: %[[C127:.+]] = arith.constant 127 : index
// CHECK-NEXT: %[[LROOM:.+]] = arith.addi %{{.+}}, %[[C127]] : index
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[W0:.+]] = arith.constant 127 : index
// CHECK-NEXT: %[[V0:.+]] = arith.cmpi ule, %[[LROOM]], %[[W0]] : index
// CHECK-NEXT: arith.select %[[V0]], %{{.+}}, %[[NEGINF]] : f32
// CHECK-NEXT: %[[CP1:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[ROOM1:.+]] = arith.addi %[[LROOM]], %[[CP1]] : index
// CHECK-NEXT: %[[W1:.+]] = arith.constant 127 : index
// CHECK-NEXT: arith.cmpi ule, %[[ROOM1]], %[[W1]] : index
// CHECK-NOT: arith.subi %[[SKVI]],
// CHECK: gpu.shuffle  xor
// CHECK: math.exp2
// CHECK: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = true}
// CHECK: } {sdpa.masked}
/// Unmasked interior [ib, ie): no band test.
// CHECK: scf.for %{{.+}} = %[[CIB]] to %[[CIE]] step
// CHECK-NOT: arith.cmpi sge
// CHECK: } {sdpa.interior}
/// Masked edge [ie, min(kv_end, kv_full)).
// CHECK: %[[E3:.+]] = arith.minsi %[[KE]], %[[KVFULL]] : index
// CHECK: scf.for %{{.+}} = %[[CIE]] to %[[E3]] step
// CHECK-NOT: arith.subi %[[SKVI]],
// CHECK: arith.cmpi ule
// CHECK-NOT: arith.subi %[[SKVI]],
// CHECK: } {sdpa.masked}
/// The tile holding Skv, [max(kv_begin, kv_full), kv_end): the band and the
/// key length, Skv - col per thread, then two compares a cell (cell (0, 0):
/// col < Skv first, then the band's one).
// CHECK: %[[B4:.+]] = arith.maxsi %[[KB]], %[[KVFULL]] : index
// CHECK: scf.for %{{.+}} = %[[B4]] to %[[KE]] step
// CHECK: %[[KROOM:.+]] = arith.subi %[[SKVI]], %{{.+}} : index
// CHECK: %[[TC127:.+]] = arith.constant 127 : index
// CHECK-NEXT: %[[TLROOM:.+]] = arith.addi %{{.+}}, %[[TC127]] : index
// CHECK-NEXT: %[[TNEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[TC1:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[K0:.+]] = arith.cmpi sge, %[[KROOM]], %[[TC1]] : index
// CHECK-NEXT: %[[TW0:.+]] = arith.constant 127 : index
// CHECK-NEXT: %[[TB0:.+]] = arith.cmpi ule, %[[TLROOM]], %[[TW0]] : index
// CHECK-NEXT: %[[TV0:.+]] = arith.andi %[[K0]], %[[TB0]] : i1
// CHECK-NEXT: arith.select %[[TV0]], %{{.+}}, %[[TNEGINF]] : f32
// CHECK-NEXT: %[[TC2:.+]] = arith.constant 2 : index
// CHECK-NEXT: arith.cmpi sge, %[[KROOM]], %[[TC2]] : index
// CHECK: } {sdpa.key_tail, sdpa.masked}
/// Epilogue: O and LSE from registers.
// CHECK: math.log2
// CHECK: vector.store %{{.+}}, %[[O]][%{{.+}}] {alignment = 4 : i64} : memref<1099511627776xbf16>, vector<2xbf16>
// CHECK: memref.store %{{.+}}, %[[LSE]][%{{.+}}] : memref<1099511627776xf32>
// CHECK: gpu.return

/// f16 uses nvgpu.mma.sync; a causal band has no left test, only the right:
/// one compare per cell in the edge loops, two (with the key length) in the
/// tile holding Skv.
// CHECK: gpu.module @sdpa_fwd_1
// CHECK: known_block_size = array<i32: 128, 1, 1>
// CHECK: memref.view {{.*}} to memref<64x136xf16, #gpu.address_space<workgroup>>
/// A wide band's copies bypass L1 (cp.async.cg).
// CHECK: nvgpu.device_async_copy {{.*}} {bypassL1} : memref<1099511627776xf16> to memref<64x136xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: %[[FR:.+]] = arith.cmpi sge, %{{.+}}, %{{.+}} : index
// CHECK-NEXT: arith.select %[[FR]]
// CHECK: } {sdpa.masked}
// CHECK: } {sdpa.interior}
// CHECK: } {sdpa.masked}
// CHECK: scf.for
// CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.cmpi sge, %{{.+}}, %{{.+}} : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: arith.select
// CHECK: } {sdpa.key_tail, sdpa.masked}
