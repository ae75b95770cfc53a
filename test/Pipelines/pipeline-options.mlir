// Pipeline options outside what the lowering supports fail the pipeline
// with a message that names the option (lib/Pipelines/PipelineOptions.cpp),
// before any pass runs; each used to crash, hang or write a broken artifact.
//
// Tiles: negative sizes asserted in the schedule derivation or divided by
// zero in the backward spec (0 is unset: the default tile rule,
// lib/Analysis/KernelDefaults.cpp); 2^60 wrapped the shared-memory check.
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="tile-q=-1" 2>&1 | FileCheck %s --check-prefix=TILEQ0
// TILEQ0: error: sdpa-forward-pipeline: expected tile-q in [0, 65536], got -1
// RUN: not %sdpa_opt %s --sdpa-backward-pipeline="tile-kv=-64" 2>&1 | FileCheck %s --check-prefix=TILEKVNEG
// TILEKVNEG: error: sdpa-backward-pipeline: expected tile-kv in [0, 65536], got -64
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="tile-q=1152921504606846976" 2>&1 | FileCheck %s --check-prefix=TILEHUGE
// TILEHUGE: error: sdpa-forward-pipeline: expected tile-q in [0, 65536], got 1152921504606846976
// RUN: not %sdpa_opt %s --sdpa-pipeline="backward-tile-q=-16" 2>&1 | FileCheck %s --check-prefix=BWDTILE
// BWDTILE: error: sdpa-pipeline: expected backward-tile-q in [0, 65536], got -16
// RUN: not %sdpa_opt %s --sdpa-pipeline="backward-tile-kv=65537" 2>&1 | FileCheck %s --check-prefix=BWDTILEKV
// BWDTILEKV: error: sdpa-pipeline: expected backward-tile-kv in [0, 65536], got 65537
//
// warps = 2^60 + 1 wrapped warps * 32 to 32 threads: a valid-looking
// manifest for a kernel that never stores.
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="warps=1152921504606846977" 2>&1 | FileCheck %s --check-prefix=WARPS
// WARPS: error: sdpa-forward-pipeline: expected warps in [0, 32], got 1152921504606846977
// RUN: not %sdpa_opt %s --sdpa-pipeline="warps=-1" 2>&1 | FileCheck %s --check-prefix=WARPS0
// WARPS0: error: sdpa-pipeline: expected warps in [0, 32], got -1
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="stages=4611686018427387904" 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: error: sdpa-forward-pipeline: expected stages in [2, 3], got 4611686018427387904
//
// Targets: sm_70 and sm_75 ended in an LLVM ERROR (abort), an empty chip in
// a SIGSEGV, +ptx60 in an LLVM ERROR.
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=SM70
// SM70: error: sdpa-forward-pipeline: expected chip sm_80 or newer (the kernels use mma.sync, cp.async and ldmatrix of sm_80), got 'sm_70'
// RUN: not %sdpa_opt %s --sdpa-backward-pipeline="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=SM75
// SM75: error: sdpa-backward-pipeline: expected chip sm_80 or newer (the kernels use mma.sync, cp.async and ldmatrix of sm_80), got 'sm_75'
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="chip=" 2>&1 | FileCheck %s --check-prefix=EMPTYCHIP
// EMPTYCHIP: error: sdpa-forward-pipeline: expected chip of the form sm_<N> (sm_80 or newer), got ''
// RUN: not %sdpa_opt %s --sdpa-pipeline="chip=sm_85" 2>&1 | FileCheck %s --check-prefix=UNKNOWNCHIP
// UNKNOWNCHIP: error: sdpa-pipeline: expected chip to be a target of LLVM's NVPTX backend, got 'sm_85'
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="features=+ptx60" 2>&1 | FileCheck %s --check-prefix=PTX60
// PTX60: error: sdpa-forward-pipeline: expected features of PTX ISA 7.0 or newer (+ptx70), got '+ptx60'
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="features=+sm_80" 2>&1 | FileCheck %s --check-prefix=NOTPTX
// NOTPTX: error: sdpa-forward-pipeline: expected features to be one PTX ISA version, +ptx<NN> (+ptx70 or newer), got '+sm_80'
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="features=+ptx99" 2>&1 | FileCheck %s --check-prefix=PTX99
// PTX99: error: sdpa-forward-pipeline: expected features to be a PTX ISA version LLVM's NVPTX backend knows, got '+ptx99'
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="chip=sm_90 features=+ptx70" 2>&1 | FileCheck %s --check-prefix=SM90PTX70
// SM90PTX70: error: sdpa-forward-pipeline: expected features of at least +ptx78 for chip sm_90, got '+ptx70'
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="opt-level=7" 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: sdpa-forward-pipeline: expected opt-level in [0, 3], got 7
// RUN: not %sdpa_opt %s --sdpa-backward-pipeline="index-bitwidth=16" 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: sdpa-backward-pipeline: expected index-bitwidth 32 or 64, got 16
//
// An artifact name is a file stem: "../x" wrote outside artifact-dir, and
// whitespace broke the manifest's lines.
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="artifact-dir=%t artifact-name=../escape" 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: sdpa-forward-pipeline: expected artifact-name to be a file stem of letters, digits, '_', '-' and '.' (not first), got '../escape'
//
// The edges of the ranges are accepted (the lowering then decides what the
// op allows): sm_90a with its own minimum PTX, and tile-q 65536, which the
// forward refuses per op, not as an option.
// RUN: %sdpa_opt %s --sdpa-forward-pipeline="chip=sm_90a features=+ptx80" | FileCheck %s --check-prefix=SM90A
// SM90A: gpu.binary @sdpa_fwd_0
// RUN: not %sdpa_opt %s --sdpa-forward-pipeline="tile-q=65536" 2>&1 | FileCheck %s --check-prefix=MAXTILE
// MAXTILE: error: 'sdpa.attention' op

func.func @forward(%q: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16> -> tensor<1x2x128x64xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x64xf16>
}
