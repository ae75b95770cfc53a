// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdpa-opt %s --sdpa-backward-pipeline="artifact-dir=%t artifact-name=bwd dq-mode=accumulate" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/bwd.ptx
// RUN: FileCheck %s --check-prefix=RELAY < %t/bwd.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/bwd.manifest
// RUN: %ptxas -arch=sm_80 -v %t/bwd.ptx -o %t/bwd.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

/// The gpt-oss backward (causal window of 128 keys), deterministic: the
/// relay is an acquire load, a device-scope fence and a release store, and
/// every kernel assembles for sm_80 without spills or local memory.
/// bwd_main asks for no blocks per SM (.minnctapersm): ptxas 13.0 gives it
/// 241 registers; held to 168 (3 blocks of 128 threads) it spilled 120
/// bytes here.

// PTX: .version 8.0
// PTX: .target sm_80
// PTX-LABEL: .visible .entry sdpa_bwd_main(
// PTX: .maxntid 128, 1, 1
// PTX-NOT: .minnctapersm
// PTX: .shared .align 16 .b8 __dynamic_shmem__0
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-NOT: .local

/// (LLVM lays the loop's blocks out freely: the relay's parts in any order.)
// RELAY-LABEL: .visible .entry sdpa_bwd_main(
// RELAY-DAG: ld.acquire.gpu.global.b32
// RELAY-DAG: atom.global.add.f32
// RELAY-DAG: fence.acq_rel.gpu
// RELAY-DAG: st.release.gpu.global.b32
// RELAY-DAG: ex2.approx

// MANIFEST: sdpa-artifact 1
// MANIFEST: ptx bwd.ptx
// MANIFEST: direction backward
// MANIFEST: band 127 0 top_left
// MANIFEST: deterministic 1
// MANIFEST: kernel sdpa_bwd_preprocess bwd_preprocess
// MANIFEST: kernel sdpa_bwd_main bwd_main
// MANIFEST: grid kv_tiles heads_kv batch
// MANIFEST: param relay_counters ptr
// MANIFEST: kernel sdpa_bwd_dq_convert bwd_dq_convert

// PTXAS-COUNT-3: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
func.func @grad(%q: tensor<2x16x?x64xf16>, %lse: tensor<2x16x?xf32>) -> tensor<2x16x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>, deterministic}
      : tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>, tensor<2x16x?x64xf16>
  return %dq : tensor<2x16x?x64xf16>
}
