// The tile options of convert-sdpa-grad-to-gpu are checked as the pass
// starts, also where it runs outside the pipelines: negative tiles asserted
// in the schedule derivation, before the op could refuse it (0 is unset: the
// default tile rule).
// RUN: not %sdpa_opt %s --convert-sdpa-grad-to-gpu="tile-q=-1" 2>&1 | FileCheck %s --check-prefix=TILEQ0
// TILEQ0: error: convert-sdpa-grad-to-gpu: expected tile-q in [0, 65536], got -1
// RUN: not %sdpa_opt %s --convert-sdpa-grad-to-gpu="tile-kv=-16" 2>&1 | FileCheck %s --check-prefix=TILEKV0
// TILEKV0: error: convert-sdpa-grad-to-gpu: expected tile-kv in [0, 65536], got -16
// RUN: not %sdpa_opt %s --convert-sdpa-grad-to-gpu="tile-kv=-64" 2>&1 | FileCheck %s --check-prefix=TILEKVNEG
// TILEKVNEG: error: convert-sdpa-grad-to-gpu: expected tile-kv in [0, 65536], got -64
// RUN: not %sdpa_opt %s --convert-sdpa-grad-to-gpu="tile-q=1152921504606846976" 2>&1 | FileCheck %s --check-prefix=TILEHUGE
// TILEHUGE: error: convert-sdpa-grad-to-gpu: expected tile-q in [0, 65536], got 1152921504606846976
// RUN: not %sdpa_opt %s --convert-sdpa-grad-to-gpu="tile-kv=65537" 2>&1 | FileCheck %s --check-prefix=TILEKV
// TILEKV: error: convert-sdpa-grad-to-gpu: expected tile-kv in [0, 65536], got 65537
//
// At the range's edge the op decides: one warp per 16 keys, at most 128.
// RUN: not %sdpa_opt %s --convert-sdpa-grad-to-gpu="tile-q=16 tile-kv=65536" 2>&1 | FileCheck %s --check-prefix=MAXTILE
// MAXTILE: error: 'sdpa.attention_grad' op expected schedule tile_kv to be 16, 32, 48, ... or 128 (one warp per 16 keys)

func.func @backward(%q: tensor<1x1x?x64xf16>, %lse: tensor<1x1x?xf32>) -> tensor<1x1x?x64xf16> {
  %dq, %dk, %dv = sdpa.attention_grad %q, %q, %q, %q, %q, %lse {mask = #sdpa.band<left = inf, right = 0, align = top_left>}
      : tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?xf32>
      -> tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>, tensor<1x1x?x64xf16>
  return %dq : tensor<1x1x?x64xf16>
}
