// The options of convert-sdpa-to-gpu are checked as the pass starts, also
// where it runs outside the pipelines (lib/Pipelines checks theirs before
// any pass is added): each value below used to crash, hang or lower.
//
// Tiles: negative sizes (0 is unset: the default tile rule) asserted in the schedule derivation; 2^60
// wrapped the shared-memory arithmetic (the builder ran for minutes).
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="tile-q=-1" 2>&1 | FileCheck %s --check-prefix=TILEQ0
// TILEQ0: error: convert-sdpa-to-gpu: expected tile-q in [0, 65536], got -1
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="tile-q=-16" 2>&1 | FileCheck %s --check-prefix=TILEQNEG
// TILEQNEG: error: convert-sdpa-to-gpu: expected tile-q in [0, 65536], got -16
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="tile-kv=-64" 2>&1 | FileCheck %s --check-prefix=TILEKVNEG
// TILEKVNEG: error: convert-sdpa-to-gpu: expected tile-kv in [0, 65536], got -64
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="tile-q=1152921504606846976" 2>&1 | FileCheck %s --check-prefix=TILEHUGE
// TILEHUGE: error: convert-sdpa-to-gpu: expected tile-q in [0, 65536], got 1152921504606846976
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="tile-kv=65537" 2>&1 | FileCheck %s --check-prefix=TILEKV
// TILEKV: error: convert-sdpa-to-gpu: expected tile-kv in [0, 65536], got 65537
//
// warps = 2^60 + 1 wrapped warps * 32 to 32 threads and lowered (exit 0) a
// kernel that never stores.
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="warps=1152921504606846977" 2>&1 | FileCheck %s --check-prefix=WARPS
// WARPS: error: convert-sdpa-to-gpu: expected warps in [0, 32], got 1152921504606846977
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="warps=-1" 2>&1 | FileCheck %s --check-prefix=WARPSNEG
// WARPSNEG: error: convert-sdpa-to-gpu: expected warps in [0, 32], got -1
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="stages=4611686018427387904" 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: error: convert-sdpa-to-gpu: expected stages in [2, 3], got 4611686018427387904
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="stages=0" 2>&1 | FileCheck %s --check-prefix=STAGES0
// STAGES0: error: convert-sdpa-to-gpu: expected stages in [2, 3], got 0
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="stages=1" 2>&1 | FileCheck %s --check-prefix=ONESTAGE
// ONESTAGE: error: convert-sdpa-to-gpu: expected stages in [2, 3], got 1
//
// The edges of the ranges pass the option check; the op then decides (the
// shared memory of a 65536-row tile, the 16 * warps rows per query tile),
// promptly.
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="tile-q=65536 tile-kv=64" 2>&1 | FileCheck %s --check-prefix=MAXTILE
// MAXTILE: error: 'sdpa.attention' op expected the tiles to fit in shared memory: need 9474048 bytes, at most 166912
// RUN: not %sdpa_opt %s --convert-sdpa-to-gpu="warps=32" 2>&1 | FileCheck %s --check-prefix=MAXWARPS
// MAXWARPS: error: 'sdpa.attention' op expected schedule tile_q 64 to be a multiple of 16 * warps (512)
//
// The options are checked also where the module has nothing to lower.
// RUN: echo "module {}" | not %sdpa_opt --convert-sdpa-to-gpu="tile-q=-1" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: convert-sdpa-to-gpu: expected tile-q in [0, 65536], got -1

func.func @forward(%q: tensor<1x2x128x64xf16>) -> tensor<1x2x128x64xf16> {
  %o, %lse = sdpa.attention %q, %q, %q {mask = #sdpa.band<left = 127, right = 0, align = top_left>}
      : tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16>, tensor<1x2x128x64xf16> -> tensor<1x2x128x64xf16>, tensor<1x2x128xf32>
  return %o : tensor<1x2x128x64xf16>
}
