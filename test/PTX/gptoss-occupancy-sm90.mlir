// REQUIRES: ptxas
// RUN: rm -rf %t && %sdpa_opt %s --sdpa-pipeline="artifact-dir=%t" -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/sdpa_fwd_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: %ptxas -arch=sm_90 -v %t/sdpa_bwd_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=BWD
// RUN: FileCheck %s --check-prefix=SMEM < %t/sdpa_bwd_0.manifest

/// The gpt-oss benchmark's kernels (bf16, d 64, window 128, the default
/// tiles) as an H100 or H200 runs them: their driver compiles our sm_80 PTX
/// for sm_90 itself, allocating registers as `ptxas -arch=sm_90` does, and
/// the blocks an SM follow from those counts, not from sm_80's
/// (bench/RESULTS.md, 2026-12-05: a bwd_main variant with 56 registers fewer
/// for sm_80 took 12 more for sm_90, a block fewer an SM, and ran 7%
/// slower). Registers are allocated 8 a thread at a time (256 a warp) from
/// the SM's 65,536:
///   forward, 128 threads: at most 128 registers for 4 blocks an SM;
///   bwd_main, 128 threads: at most 168 for 3 blocks;
///   bwd_dq, 64 threads: 4 blocks set by its shared memory (4 x 55,296 bytes
///   of the 228 KiB an SM, 1 KiB of it reserved per block), so any count up
///   to 255 keeps them.
/// None spills for sm_90.

// FWD-LABEL: Compiling entry function 'sdpa_fwd_0' for 'sm_90'
// FWD-NEXT: Function properties for sdpa_fwd_0
// FWD-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// FWD-NEXT: Used {{([0-9]|[1-9][0-9]|1[01][0-9]|12[0-8])}} registers

// BWD-LABEL: Compiling entry function 'sdpa_bwd_dq' for 'sm_90'
// BWD-NEXT: Function properties for sdpa_bwd_dq
// BWD-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// BWD-LABEL: Compiling entry function 'sdpa_bwd_main' for 'sm_90'
// BWD-NEXT: Function properties for sdpa_bwd_main
// BWD-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// BWD-NEXT: Used {{([0-9]|[1-9][0-9]|1[0-5][0-9]|16[0-8])}} registers
// BWD-LABEL: Compiling entry function 'sdpa_bwd_preprocess' for 'sm_90'
// BWD-NEXT: Function properties for sdpa_bwd_preprocess
// BWD-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

/// bwd_dq's shared memory: Q and dO of the 64-row query tile and two stages
/// of K and V of the 64-key tile, rows of 64 + 8 (padding) bf16: 6 x 64 x 72
/// x 2 bytes.
// SMEM-LABEL: kernel sdpa_bwd_dq bwd_dq
// SMEM-NEXT: block 64 1 1
// SMEM-NEXT: shared_bytes 55296

func.func @forward(%q: tensor<2x16x?x64xbf16>) -> tensor<2x16x?x64xbf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16> -> tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
  return %o : tensor<2x16x?x64xbf16>
}

func.func @backward(%q: tensor<2x16x?x64xbf16>, %lse: tensor<2x16x?xf32>) -> tensor<2x16x?x64xbf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?xf32>
      -> tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>, tensor<2x16x?x64xbf16>
  return %dq : tensor<2x16x?x64xbf16>
}
