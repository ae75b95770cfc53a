// RUN: not sdpa-opt %s -sdpa-derive-bounds="tile-q=-1" 2>&1 | FileCheck %s
// RUN: not sdpa-opt %s -sdpa-print-schedule="tile-kv=-4" 2>&1 | FileCheck %s
// RUN: not sdpa-opt %s -sdpa-print-schedule="seq-lens-q=4,5 seq-lens-kv=4" 2>&1 | FileCheck %s --check-prefix=LENS

/// Tile sizes come from pass options and are checked there.
// CHECK: error: expected tile-q and tile-kv to be non-negative (0: the default tile rule)
// LENS: error: expected seq-lens-q and seq-lens-kv to have the same length
module {}
