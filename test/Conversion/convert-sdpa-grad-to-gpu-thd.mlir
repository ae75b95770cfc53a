// RUN: sdpa-opt %s --convert-sdpa-grad-to-gpu="tile-q=32 tile-kv=64 dq-mode=accumulate" -split-input-file | FileCheck %s

/// THD (packed sequences), bottom-right causal window of 128 keys (L = 127,
/// R = 0), Tq = 32, Tk = 64, GQA 4/2, deterministic. Program (u, kv head, i)
/// reads sequence i's first tokens and lengths from the offsets,
///   Sq_i = cu_q[i + 1] - cu_q[i],  Skv_i = cu_kv[i + 1] - cu_kv[i],
/// and every bound takes them as its symbols (s0 = Sq_i, s1 = Skv_i). By
/// hand (docs/Semantics.md §3-4), delta = Skv_i - Sq_i, key tile u holds
/// [64u, min(Skv_i, 64u + 64)):
///   qlo = max(0, 64u - delta)          -> q_begin(u) = max(0, 2u + (Sq_i - Skv_i) floordiv 32)
///   qhi = min(Sq_i - 1, 64u + 63 - delta + 127)
///                                      -> q_end(u) = min(ceil(Sq_i / 32), (64u + Sq_i - Skv_i + 190) floordiv 32 + 1)
///      (the k1 = Skv_i term gives (Sq_i + 126) floordiv 32 + 1 >= ceil(Sq_i / 32): it never bites)
///   kv_first(t) = max(0, (32t + delta - 127) floordiv 64)
///   turn(u, t)  = u - kv_first(t) = min(u, u - (32t - Sq_i + Skv_i - 127) floordiv 64)
/// The grid spans the longest sequence: a key tile at or past Skv_i returns
/// before any write; an in-range tile stores dK, dV (zero if it visits
/// nothing). Relay counters are (i, q head, q tile of the longest: seq_q).
/// The walk: one loop over (query head, query tile), step n visiting query
/// head kv_head * group + n / count and query tile t = q_end - 1 - n mod count
/// (count = q_end - q_begin).
///
/// bwd_main's shared memory, by hand: 64-row K, V tiles of 64 * (64 + 8) * 2
/// = 9216 bytes, Q and dO in 2 stages of 32 * 72 * 2 = 4608, dS 32 * 72 * 2 =
/// 4608, LSE and Delta 2 stages of 32 f32:
/// 2 * 9216 + 2 * 2 * 4608 + 4608 + 2 * 2 * 32 * 4 = 41984 bytes.
// CHECK-DAG: #[[QB:.*]] = affine_map<(d0)[s0, s1] -> (0, d0 * 2 + (s0 - s1) floordiv 32)>
// CHECK-DAG: #[[QE:.*]] = affine_map<(d0)[s0, s1] -> (s0 ceildiv 32, (d0 * 64 + s0 - s1 + 190) floordiv 32 + 1)>
// CHECK-DAG: #[[DOWN:.*]] = affine_map<(d0)[s0] -> (-d0 + s0 - 1)>
// CHECK-DAG: #[[TURN:.*]] = affine_map<(d0, d1)[s0, s1] -> (d0, d0 - (d1 * 32 - s0 + s1 - 127) floordiv 64)>
// CHECK: sdpa_bwd_0 = "sdpa-artifact 1\0Adirection backward\0Adtype bf16\0Ahead_dim 64\0Atile_q 32\0Atile_kv 64\0Aband 127 0 bottom_right\0Ascale 0.125\0Avarlen 1\0Adeterministic 1
// CHECK-SAME: kernel sdpa_bwd_preprocess bwd_preprocess\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam o ptr\0Aparam do ptr\0Aparam delta ptr\0Aparam dq_accum ptr\0Aparam relay_counters ptr\0Aparam cu_seqlens_q ptr\0Aparam seq_q i32\0Aparam heads_q i32\0Aparam batch i32\0A
// CHECK-SAME: kernel sdpa_bwd_main bwd_main\0Ablock 128 1 1\0Ashared_bytes 41984\0Agrid kv_tiles heads_kv batch\0Aparam q ptr\0Aparam k ptr\0Aparam v ptr\0Aparam do ptr\0Aparam lse ptr\0Aparam delta ptr\0Aparam dq_accum ptr\0Aparam dk ptr\0Aparam dv ptr\0Aparam relay_counters ptr\0Aparam cu_seqlens_q ptr\0Aparam cu_seqlens_kv ptr\0Aparam seq_q i32\0Aparam seq_kv i32\0Aparam heads_q i32\0Aparam heads_kv i32\0Aparam batch i32\0A
// CHECK-SAME: kernel sdpa_bwd_dq_convert bwd_dq_convert\0Ablock 128 1 1\0Ashared_bytes 0\0Agrid q_tiles heads_q batch\0Aparam dq_accum ptr\0Aparam dq ptr\0Aparam cu_seqlens_q ptr\0Aparam seq_q i32\0Aparam heads_q i32\0Aparam batch i32\0A

/// Preprocess (%arg5 = cu_seqlens_q, %arg8 = batch): rows of sequence i are
/// its tokens; delta is [Hq, T] like LSE: delta[h * T + first + row] with
/// T = cu_seqlens_q[batch]; O's rows start at first * o_stride_s.
// CHECK-LABEL: gpu.func @sdpa_bwd_preprocess
// CHECK: %[[PH:.*]] = gpu.block_id y
// CHECK: %[[PSEQ:.*]] = gpu.block_id z
// CHECK: %[[PF32:.*]] = memref.load %arg5[%[[PSEQ]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[PFIRST:.*]] = arith.index_cast %[[PF32]] : i32 to index
// CHECK: %[[PE32:.*]] = memref.load %arg5[%{{.*}}] : memref<{{[0-9]+}}xi32>
// CHECK: %[[PEND:.*]] = arith.index_cast %[[PE32]] : i32 to index
// CHECK: %[[PSQ:.*]] = arith.subi %[[PEND]], %[[PFIRST]] : index
// CHECK: %[[PN:.*]] = arith.index_cast %arg8 : i32 to index
// CHECK: %[[PT32:.*]] = memref.load %arg5[%[[PN]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[PT:.*]] = arith.index_cast %[[PT32]] : i32 to index
// CHECK: %[[PHT:.*]] = arith.muli %[[PH]], %[[PT]] : index
// CHECK: %[[PROWS:.*]] = arith.addi %[[PHT]], %[[PFIRST]] : index
// CHECK: %[[OSS:.*]] = arith.index_cast %arg11 : i64 to index
// CHECK-NEXT: arith.muli %[[PFIRST]], %[[OSS]] : index
// CHECK: arith.cmpi ult, %[[PROW:.*]], %[[PSQ]] : index
// CHECK: vector.reduction <add>
// CHECK: %[[DIDX:.*]] = arith.addi %[[PROWS]], %[[PROW]] : index
// CHECK-NEXT: memref.store %{{.*}}, %arg2[%[[DIDX]]]

/// Main (%arg10/%arg11 = cu_seqlens_q/kv, %arg12 = seq_q, %arg16 = batch).
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK: %[[SQMAX:.*]] = arith.index_cast %arg12 : i32 to index
// CHECK: %[[U:.*]] = gpu.block_id x
// CHECK: %[[SEQ:.*]] = gpu.block_id z
// CHECK: %[[QF32:.*]] = memref.load %arg10[%[[SEQ]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[QFIRST:.*]] = arith.index_cast %[[QF32]] : i32 to index
// CHECK: %[[QNEXT:.*]] = arith.addi %[[SEQ]], %{{.*}} : index
// CHECK: %[[QE32:.*]] = memref.load %arg10[%[[QNEXT]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[QEND:.*]] = arith.index_cast %[[QE32]] : i32 to index
// CHECK: %[[SQ:.*]] = arith.subi %[[QEND]], %[[QFIRST]] : index
// CHECK: %[[KF32:.*]] = memref.load %arg11[%[[SEQ]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[KVFIRST:.*]] = arith.index_cast %[[KF32]] : i32 to index
// CHECK: %[[KNEXT:.*]] = arith.addi %[[SEQ]], %{{.*}} : index
// CHECK: %[[KE32:.*]] = memref.load %arg11[%[[KNEXT]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[KEND:.*]] = arith.index_cast %[[KE32]] : i32 to index
// CHECK: %[[SKV:.*]] = arith.subi %[[KEND]], %[[KVFIRST]] : index
// CHECK: %[[K0:.*]] = arith.muli %[[U]], %{{.*}} : index
/// Bottom-right per sequence: delta = Skv_i - Sq_i.
// CHECK: arith.subi %[[SKV]], %[[SQ]] : index
// CHECK: %[[INRANGE:.*]] = arith.cmpi ult, %[[K0]], %[[SKV]] : index
// CHECK-NEXT: scf.if %[[INRANGE]] {
/// K's rows start at the sequence's first key token.
// CHECK: %[[KSS:.*]] = arith.index_cast %arg22 : i64 to index
// CHECK-NEXT: arith.muli %[[KVFIRST]], %[[KSS]] : index
// CHECK: %[[BEGIN:.*]] = affine.max #[[QB]](%[[U]])[%[[SQ]], %[[SKV]]]
// CHECK-NEXT: %[[RAWEND:.*]] = affine.min #[[QE]](%[[U]])[%[[SQ]], %[[SKV]]]
// CHECK-NEXT: %[[END:.*]] = affine.max #{{.*}}(%[[RAWEND]], %[[BEGIN]])
// CHECK: %[[COUNT:.*]] = arith.subi %[[END]], %[[BEGIN]] : index
// CHECK: %[[STEPS:.*]] = arith.muli %{{.*}}, %[[COUNT]] : index
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %[[STEPS]] step
/// After the barrier, the next visit (the last one again after the last).
// CHECK: gpu.barrier
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK-NEXT: %[[HASNEXT:.*]] = arith.cmpi ult, %[[NEXT]], %[[STEPS]] : index
// CHECK-NEXT: %[[NSTAGE:.*]] = arith.remui %[[NEXT]], %{{.*}} : index
// CHECK-NEXT: %[[NV:.*]] = arith.select %[[HASNEXT]], %[[NEXT]], %[[N]] : index
// CHECK-NEXT: arith.divui %[[NV]], %[[COUNT]] : index
// CHECK-NEXT: %[[NI:.*]] = arith.remui %[[NV]], %[[COUNT]] : index
/// Its Q's rows, LSE [Hq, T] and delta [Hq, T] start at the first query
/// token; the counters' row is (i * Hq + h) * ceil(seq_q / 32).
// CHECK: %[[QSS:.*]] = arith.index_cast %arg19 : i64 to index
// CHECK-NEXT: arith.muli %[[QFIRST]], %[[QSS]] : index
// CHECK: %[[LSESH:.*]] = arith.index_cast %arg36 : i64 to index
// CHECK-NEXT: %[[LSEH:.*]] = arith.muli %{{.*}}, %[[LSESH]] : index
// CHECK-NEXT: arith.addi %[[LSEH]], %[[QFIRST]] : index
// CHECK: %[[NSEQ:.*]] = arith.index_cast %arg16 : i32 to index
// CHECK-NEXT: %[[T32:.*]] = memref.load %arg10[%[[NSEQ]]] : memref<{{[0-9]+}}xi32>
// CHECK-NEXT: %[[TOKENS:.*]] = arith.index_cast %[[T32]] : i32 to index
// CHECK-NEXT: %[[HT:.*]] = arith.muli %{{.*}}, %[[TOKENS]] : index
// CHECK-NEXT: arith.addi %[[HT]], %[[QFIRST]] : index
// CHECK: %[[SEQH:.*]] = arith.muli %[[SEQ]], %{{.*}} : index
// CHECK: %[[QTILES:.*]] = arith.ceildivui %[[SQMAX]], %{{.*}} : index
// CHECK: affine.apply #[[DOWN]](%[[NI]])[%[[END]]]
/// The next visit's Q (disabled after the last step): a disabled copy of
/// packed sequences reads from element 0 (its slice, an empty sequence's,
/// may start at the end of the tensor), and 0 bytes.
// CHECK: %[[EN:.*]] = arith.andi %{{.*}}, %[[HASNEXT]] : i1
// CHECK-NEXT: %{{.*}} = arith.constant 0 : index
// CHECK-NEXT: arith.select %[[EN]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[BYTES:.*]] = arith.select %[[EN]], %{{.*}}, %{{.*}} : index
// CHECK: %[[SRC:.*]] = arith.select %[[EN]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: nvgpu.device_async_copy %arg0[%[[SRC]]], %{{.*}}[%[[NSTAGE]], %{{.*}}, %{{.*}}], 8, %[[BYTES]] {bypassL1} : memref<{{[0-9]+}}xbf16> to memref<2x32x72xbf16, #gpu.address_space<workgroup>>
/// Then this visit: tile end - 1 - n mod count, its relay turn.
// CHECK: arith.divui %[[N]], %[[COUNT]] : index
// CHECK-NEXT: %[[I:.*]] = arith.remui %[[N]], %[[COUNT]] : index
// CHECK: %[[T:.*]] = affine.apply #[[DOWN]](%[[I]])[%[[END]]]
// CHECK: affine.min #[[TURN]](%[[U]], %[[T]])[%[[SQ]], %[[SKV]]]
// CHECK: } attributes {sdpa.relay_wait}
// CHECK: } {sdpa.q_loop}
// CHECK-NOT: sdpa.head_loop
/// dK, dV rows: keys of the sequence only, at the first key token.
// CHECK: %[[DKSS:.*]] = arith.index_cast %arg31 : i64 to index
// CHECK-NEXT: arith.muli %[[KVFIRST]], %[[DKSS]] : index
// CHECK: %[[LIVE:.*]] = arith.cmpi ult, %{{.*}}, %[[SKV]] : index
// CHECK-NEXT: scf.if %[[LIVE]] {
// CHECK: vector.store
// CHECK: } {sdpa.key_tile_in_sequence}
// CHECK-NEXT: gpu.return

/// dQ convert (%arg2 = cu_seqlens_q): dq rows at first * dq_stride_s.
// CHECK-LABEL: gpu.func @sdpa_bwd_dq_convert
// CHECK: %[[CSEQ:.*]] = gpu.block_id z
// CHECK: %[[CF32:.*]] = memref.load %arg2[%[[CSEQ]]] : memref<{{[0-9]+}}xi32>
// CHECK: %[[CFIRST:.*]] = arith.index_cast %[[CF32]] : i32 to index
// CHECK: %[[DQSS:.*]] = arith.index_cast %arg8 : i64 to index
// CHECK-NEXT: arith.muli %[[CFIRST]], %[[DQSS]] : index
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @thd(%q: tensor<?x4x64xbf16>, %k: tensor<?x2x64xbf16>, %lse: tensor<4x?xf32>, %cu_q: tensor<?xi32>, %cu_kv: tensor<?xi32>) -> tensor<?x4x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %k, %k, %q, %q, %lse seqlens(%cu_q, %cu_kv : tensor<?xi32>, tensor<?xi32>)
      {mask = #sdpa.band<left = 127, right = 0, align = bottom_right>, layout = #sdpa.layout<thd>, deterministic}
      : tensor<?x4x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16>, tensor<4x?xf32>
      -> tensor<?x4x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16>
  return %dq : tensor<?x4x64xbf16>
}

// -----

/// THD, full attention, static shapes, non-deterministic f16: the maps stay
/// symbolic (per-sequence lengths are runtime values even when T is static),
/// no relay counters, and the offsets follow the other pointers.
// CHECK-DAG: #[[QE:.*]] = affine_map<(d0)[s0, s1] -> (s0 ceildiv 32)>
// CHECK: varlen 1\0Adeterministic 0
// CHECK-NOT: relay_counters
// CHECK-LABEL: gpu.func @sdpa_bwd_main
// CHECK-SAME: %arg9: memref<{{[0-9]+}}xi32>, %arg10: memref<{{[0-9]+}}xi32>, %arg11: i32
// CHECK: %[[SEQ:.*]] = gpu.block_id z
// CHECK: memref.load %arg9[%[[SEQ]]]
// CHECK: memref.load %arg10[%[[SEQ]]]
// CHECK: scf.if
// CHECK: affine.min #[[QE]](%{{.*}})[%{{.*}}, %{{.*}}]
// CHECK-NOT: sdpa.relay_wait
// CHECK: } {sdpa.key_tile_in_sequence}
func.func @thd_full(%q: tensor<100x2x64xf16>, %lse: tensor<2x100xf32>, %cu: tensor<4xi32>) -> tensor<100x2x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse seqlens(%cu, %cu : tensor<4xi32>, tensor<4xi32>)
      {mask = #sdpa.band<left = inf, right = inf, align = top_left>, layout = #sdpa.layout<thd>}
      : tensor<100x2x64xf16>, tensor<100x2x64xf16>, tensor<100x2x64xf16>, tensor<100x2x64xf16>, tensor<100x2x64xf16>, tensor<2x100xf32>
      -> tensor<100x2x64xf16>, tensor<100x2x64xf16>, tensor<100x2x64xf16>
  return %dq : tensor<100x2x64xf16>
}
