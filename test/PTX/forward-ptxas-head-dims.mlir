// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/kv64 %t/kv32 %t/kv16
// RUN: %sdpa_opt %S/Inputs/forward-head-dims-kv64.mlir --sdpa-forward-pipeline="tile-kv=64 artifact-dir=%t/kv64" -o /dev/null
// RUN: %sdpa_opt %S/Inputs/forward-head-dims-kv32.mlir --sdpa-forward-pipeline="tile-kv=32 artifact-dir=%t/kv32" -o /dev/null
// RUN: %sdpa_opt %S/Inputs/forward-head-dims-kv16.mlir --sdpa-forward-pipeline="tile-kv=16 artifact-dir=%t/kv16" -o /dev/null
// RUN: for f in %t/kv64/sdpa_fwd_0 %t/kv64/sdpa_fwd_1 %t/kv64/sdpa_fwd_2 %t/kv64/sdpa_fwd_3 %t/kv32/sdpa_fwd_0 %t/kv32/sdpa_fwd_1 %t/kv16/sdpa_fwd_0 %t/kv16/sdpa_fwd_1; do grep -h '^head_dim' $f.manifest; %ptxas -arch=sm_80 -v $f.ptx -o /dev/null 2>&1; done > %t/ptxas.txt
// RUN: FileCheck %s < %t/ptxas.txt
// RUN: not grep -E '[1-9][0-9]* bytes (stack frame|spill)|lmem' %t/ptxas.txt
// RUN: FileCheck %s --check-prefix=PTX < %t/kv64/sdpa_fwd_2.ptx

/// The forward kernel at the head dims models use most, f16 and bf16 in
/// turn, with the tile-kv that keeps it free of spills (measured, ptxas
/// 13.0, tile-q 64 with 4 warps): 64 up to d = 96 (d = 128 spills in bf16),
/// 32 up to d = 176 (at 192 it spills), 16 from 192 (at 240 even 16 spills
/// 8 bytes). Every kernel assembles for sm_80 with no spills or local
/// memory; one ptxas run per head dim.

// CHECK: head_dim 32
// CHECK: Compiling entry function 'sdpa_fwd_0' for 'sm_80'
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 64
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 80
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 96
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 128
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 160
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 192
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: head_dim 256
// CHECK: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

/// d = 80 has 5 k16 blocks: pairs of x4 K loads and one x2 for the last.
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
