// RUN: %sdpa_opt %s --canonicalize --sdpa-derive-bounds="tile-q=64 tile-kv=64" --convert-sdpa-to-gpu | FileCheck %s

/// THD packed sequences: one kernel runs every sequence (blockIdx.z), with
/// its lengths and first tokens read off the cumulative offsets.
///
/// The windowed bottom-right band L = 127, R = 0 with 64x64 tiles, for one
/// sequence of Sq = s0 query and Skv = s1 key rows
/// (docs/Semantics.md §3, δ = s1 - s0).
/// By hand, query tile t holds rows [64t, min(s0, 64t + 64)):
///   klo = max(0, 64t + δ - 127), so kv_begin = max(0, (64t - s0 + s1 - 127) floordiv 64);
///   khi = min(s1 - 1, 64t + 63 + δ) (the row s0 - 1 gives s1 - 1 too), so
///   kv_end = min(s1 ceildiv 64, (64t - s0 + s1 + 63) floordiv 64 + 1);
///   tile u needs no mask iff 64u >= 64t + 63 + δ - 127 and 64u + 63 <= 64t + δ
///   (and all of it is keys, u < s1 floordiv 64), so the interior is
///   [max(0, (64t - s0 + s1 - 64) ceildiv 64), min(s1 floordiv 64, (64t - s0 + s1 + 1) floordiv 64)).
/// s0 and s1 must be the lengths of the program's own sequence, never the
/// packed token counts or the grid's maximum lengths (seq_q, seq_kv).
// CHECK-DAG: #[[KVB:.+]] = affine_map<(d0)[s0, s1] -> (0, (d0 * 64 - s0 + s1 - 127) floordiv 64)>
// CHECK-DAG: #[[KVE:.+]] = affine_map<(d0)[s0, s1] -> (s1 ceildiv 64, (d0 * 64 - s0 + s1 + 63) floordiv 64 + 1)>
// CHECK-DAG: #[[IB:.+]] = affine_map<(d0)[s0, s1] -> (0, (d0 * 64 - s0 + s1 - 64) ceildiv 64)>
// CHECK-DAG: #[[IE:.+]] = affine_map<(d0)[s0, s1] -> (s1 floordiv 64, (d0 * 64 - s0 + s1 + 1) floordiv 64)>
// CHECK-DAG: #[[TILES:.+]] = affine_map<()[s0] -> (s0 ceildiv 64)>

/// The manifest says varlen 1 and the kernel takes the offsets right after
/// lse; seq_q and seq_kv stay (the maxima the runtime forms the grid from).
// CHECK: module attributes {gpu.container_module, sdpa.artifacts = {sdpa_fwd_0 = "sdpa-artifact 1\0Adirection forward\0Adtype bf16\0Ahead_dim 64\0Atile_q 64\0Atile_kv 64\0Aband 127 0 bottom_right\0Ascale 0.125\0Avarlen 1\0Akernel sdpa_fwd_0 forward\0Ablock 128 1 1\0Ashared_bytes 46080\0Agrid q_tiles heads_q batch\0Aparam q ptr\0Aparam k ptr\0Aparam v ptr\0Aparam o ptr\0Aparam lse ptr\0Aparam cu_seqlens_q ptr\0Aparam cu_seqlens_kv ptr\0Aparam seq_q i32\0Aparam seq_kv i32\0Aparam heads_q i32\0Aparam heads_kv i32\0Aparam q_stride_b i64\0A
/// Canonicalization must not shift the band by the packed token counts
/// (1000 and 1000 would make it top-left): δ is per sequence.
// CHECK-SAME: sdpa_fwd_1 = "sdpa-artifact 1\0Adirection forward\0Adtype f16\0Ahead_dim 128\0Atile_q 64\0Atile_kv 64\0Aband 31 0 bottom_right\0A{{.*}}\0Avarlen 1\0A

/// The host program of a THD op: the b strides are 0, the offsets follow
/// lse, the query tokens bound the longest sequence (grid x is their
/// ceildiv by 64: programs past a sequence's end exit) and grid z, the
/// number of sequences, is the number of offsets minus one.
// CHECK-LABEL: func.func @thd_window
// CHECK-SAME: (%[[QT:.+]]: tensor<?x16x64xbf16>, %{{.+}}: tensor<?x4x64xbf16>, %{{.+}}: tensor<?x4x64xbf16>, %[[CUQT:.+]]: tensor<?xi32>, %[[CUKVT:.+]]: tensor<?xi32>)
// CHECK: %[[Q:.+]] = bufferization.to_buffer %[[QT]] read_only : tensor<?x16x64xbf16> to memref<?x16x64xbf16>
// CHECK: %[[QP:.+]] = memref.reinterpret_cast %[[Q]]
// CHECK: %[[QSB:.+]] = arith.constant 0 : i64
// CHECK: %[[CUQ:.+]] = bufferization.to_buffer %[[CUQT]] read_only : tensor<?xi32> to memref<?xi32>
// CHECK: %[[CUQP:.+]] = memref.reinterpret_cast %[[CUQ]]
// CHECK: %[[CUKV:.+]] = bufferization.to_buffer %[[CUKVT]] read_only
// CHECK: %[[CUKVP:.+]] = memref.reinterpret_cast %[[CUKV]]
// CHECK: %[[TQ:.+]] = memref.dim %[[Q]], %{{.+}} : memref<?x16x64xbf16>
// CHECK: %[[ENTRIES:.+]] = memref.dim %[[CUQ]], %{{.+}} : memref<?xi32>
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[N:.+]] = arith.subi %[[ENTRIES]], %[[ONE]] : index
// CHECK: %[[QTILES:.+]] = affine.apply #[[TILES]]()[%[[TQ]]]
// CHECK: gpu.launch_func @sdpa_fwd_0::@sdpa_fwd_0 blocks in (%[[QTILES]], %{{.+}}, %[[N]]) {{.*}} args(%[[QP]] : memref<1099511627776xbf16>, {{.*}}, %[[CUQP]] : memref<1099511627776xi32>, %[[CUKVP]] : memref<1099511627776xi32>, %{{.+}} : i32, %{{.+}} : i32, %{{.+}} : i32, %{{.+}} : i32, %[[QSB]] : i64,
func.func @thd_window(%q: tensor<?x16x64xbf16>, %k: tensor<?x4x64xbf16>, %v: tensor<?x4x64xbf16>,
                      %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x16x64xbf16> {
  %o, %lse = sdpa.attention %q, %k, %v seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<?x16x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16>
      -> tensor<?x16x64xbf16>, tensor<16x?xf32>
  return %o : tensor<?x16x64xbf16>
}

/// Static shapes with equal token counts: the band stays bottom-right.
// CHECK-LABEL: func.func @thd_static
// CHECK: gpu.launch_func @sdpa_fwd_1::@sdpa_fwd_1
func.func @thd_static(%q: tensor<1000x8x128xf16>, %cu: tensor<4xi32>) -> tensor<1000x8x128xf16> {
  %o, %lse = sdpa.attention %q, %q, %q seqlens(%cu, %cu : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = 31, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>}
      : tensor<1000x8x128xf16>, tensor<1000x8x128xf16>, tensor<1000x8x128xf16>
      -> tensor<1000x8x128xf16>, tensor<8x1000xf32>
  return %o : tensor<1000x8x128xf16>
}

// CHECK: gpu.module @sdpa_fwd_0
// CHECK: gpu.func @sdpa_fwd_0(%[[Q:[^:]+]]: memref<1099511627776xbf16>, %[[K:[^:]+]]: memref<1099511627776xbf16>, %{{[^:]+}}: memref<1099511627776xbf16>, %[[O:[^:]+]]: memref<1099511627776xbf16>, %[[LSE:[^:]+]]: memref<1099511627776xf32>,
// CHECK-SAME: %[[CUQ:[^:]+]]: memref<1099511627776xi32>, %[[CUKV:[^:]+]]: memref<1099511627776xi32>, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32,
// CHECK-SAME: %{{[^:]+}}: i64, %[[QSH:[^:]+]]: i64, %[[QSS:[^:]+]]: i64, %{{[^:]+}}: i64, %[[KSH:[^:]+]]: i64, %[[KSS:[^:]+]]: i64,
// CHECK-SAME: %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %[[LSH:[^:]+]]: i64)
/// Sequence i = blockIdx.z is rows [off[i], off[i+1]) of the packed tensors.
// CHECK: %[[SEQ:.+]] = gpu.block_id z
// CHECK: %[[H:.+]] = gpu.block_id y
// CHECK: %[[TILE:.+]] = gpu.block_id x
// CHECK: %[[NEXT:.+]] = arith.addi %[[SEQ]], %{{.+}} : index
// CHECK: %[[QOFF32:.+]] = memref.load %[[CUQ]][%[[SEQ]]] : memref<1099511627776xi32>
// CHECK: %[[QOFF:.+]] = arith.index_cast %[[QOFF32]] : i32 to index
// CHECK: %[[QSTOP32:.+]] = memref.load %[[CUQ]][%[[NEXT]]] : memref<1099511627776xi32>
// CHECK: %[[QSTOP:.+]] = arith.index_cast %[[QSTOP32]] : i32 to index
// CHECK: %[[KVOFF32:.+]] = memref.load %[[CUKV]][%[[SEQ]]] : memref<1099511627776xi32>
// CHECK: %[[KVOFF:.+]] = arith.index_cast %[[KVOFF32]] : i32 to index
// CHECK: %[[KVSTOP32:.+]] = memref.load %[[CUKV]][%[[NEXT]]] : memref<1099511627776xi32>
// CHECK: %[[KVSTOP:.+]] = arith.index_cast %[[KVSTOP32]] : i32 to index
// CHECK: %[[SQ:.+]] = arith.subi %[[QSTOP]], %[[QOFF]] : index
// CHECK: %[[SKV:.+]] = arith.subi %[[KVSTOP]], %[[KVOFF]] : index
/// GQA as for dense: kv head h / (Hq / Hkv).
// CHECK: %[[GROUP:.+]] = arith.divui
// CHECK: %[[HKV:.+]] = arith.divui %[[H]], %[[GROUP]] : index
/// Row r of the sequence is token off + r: the slices start at off * stride_s.
// CHECK: %[[QSHI:.+]] = arith.index_cast %[[QSH]] : i64 to index
// CHECK: %[[QHEAD:.+]] = arith.muli %[[H]], %[[QSHI]] : index
// CHECK: %[[QSSI:.+]] = arith.index_cast %[[QSS]] : i64 to index
// CHECK: %[[QTOK:.+]] = arith.muli %[[QOFF]], %[[QSSI]] : index
// CHECK: %[[QBASE:.+]] = arith.addi %[[QTOK]], %[[QHEAD]] : index
// CHECK: %[[KSHI:.+]] = arith.index_cast %[[KSH]] : i64 to index
// CHECK: %[[KHEAD:.+]] = arith.muli %[[HKV]], %[[KSHI]] : index
// CHECK: %[[KSSI:.+]] = arith.index_cast %[[KSS]] : i64 to index
// CHECK: %[[KTOK:.+]] = arith.muli %[[KVOFF]], %[[KSSI]] : index
// CHECK: %[[KBASE:.+]] = arith.addi %[[KTOK]], %[[KHEAD]] : index
/// lse is [heads_q, tokens_q]: entry (h, off + r) is at h * lse_stride_h + off + r.
// CHECK: %[[LSHI:.+]] = arith.index_cast %[[LSH]] : i64 to index
// CHECK: %[[LHEAD:.+]] = arith.muli %[[H]], %[[LSHI]] : index
// CHECK: %[[LBASE:.+]] = arith.addi %[[QOFF]], %[[LHEAD]] : index
/// Bottom-right alignment is per sequence: delta = Skv_i - Sq_i.
// CHECK: arith.subi %[[SKV]], %[[SQ]] : index
// CHECK: %[[Q0:.+]] = arith.muli %[[TILE]], %{{.+}} : index
/// The grid covers the longest sequence: a tile past this one's end exits
/// before it copies or stores anything.
// CHECK: %[[LIVE:.+]] = arith.cmpi slt, %[[Q0]], %[[SQ]] : index
// CHECK-NEXT: scf.if %[[LIVE]] {
// CHECK-NEXT: %[[T:.+]] = gpu.block_id x
// CHECK-NEXT: %[[KB:.+]] = affine.max #[[KVB]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK-NEXT: %[[KE:.+]] = affine.min #[[KVE]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK-NEXT: affine.max #[[IB]](%[[T]])[%[[SQ]], %[[SKV]]]
// CHECK-NEXT: affine.min #[[IE]](%[[T]])[%[[SQ]], %[[SKV]]]
/// Q rows past the sequence are zero-filled, not read from the next one.
// CHECK: %[[QROW:.+]] = arith.addi %[[Q0]], %{{.+}} : index
// CHECK: %[[QIN:.+]] = arith.cmpi slt, %[[QROW]], %[[SQ]] : index
// CHECK: %[[QSRC:.+]] = arith.addi %[[QBASE]], %{{.+}} : index
// CHECK: %[[QADDR:.+]] = arith.select %[[QIN]], %[[QSRC]], %c0{{(_[0-9]+)?}} : index
// CHECK: nvgpu.device_async_copy %[[Q]][%[[QADDR]]]
/// Likewise keys past the sequence's Skv. A zero-filled chunk names element 0
/// of the tensor: an empty last sequence's slice starts at its end.
// CHECK: %[[KIN:.+]] = arith.cmpi slt, %{{.+}}, %[[SKV]] : index
// CHECK: %[[KVALID:.+]] = arith.andi %[[KIN]], %{{.+}} : i1
// CHECK: %[[KSRC:.+]] = arith.addi %[[KBASE]], %{{.+}} : index
// CHECK: %[[KADDR:.+]] = arith.select %[[KVALID]], %[[KSRC]], %c0{{(_[0-9]+)?}} : index
// CHECK: nvgpu.device_async_copy %[[K]][%[[KADDR]]]
// CHECK: scf.for %{{.+}} = %[[KB]] to
// CHECK: } {sdpa.masked}
// CHECK: } {sdpa.interior}
// CHECK: } {sdpa.masked}
/// Only rows of the sequence are stored.
// CHECK: arith.cmpi slt, %{{.+}}, %[[SQ]] : index
// CHECK: vector.store %{{.+}}, %[[O]][%{{.+}}]
// CHECK: %[[LIDX:.+]] = arith.addi %[[LBASE]], %{{.+}} : index
// CHECK-NEXT: memref.store %{{.+}}, %[[LSE]][%[[LIDX]]] : memref<1099511627776xf32>
/// The last store closes its two ifs, then the sequence guard; the return
/// follows the guard.
// CHECK: memref.store %{{.+}}, %[[LSE]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return

// CHECK: gpu.module @sdpa_fwd_1
// CHECK: memref.view {{.*}} to memref<64x136xf16, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: affine.max
