// Attention sinks (gpt-oss) written out, as JAX prints them for the
// gpt-oss-sinks fixture (test/Import/Inputs/models/README.txt: window 128
// keys causal, 4 query heads over 1 kv head, d 64):
//
//   %111 = broadcast(%arg1 : [Hq] f32) to one key column per row
//   %112 = concatenate(masked logits, %111) along the keys    (257 columns)
//   softmax over the 257 columns;  %124 = slice(P, keys [0, 256))
//
// imports as sinks(%arg1) (docs/Semantics.md §7: LSE includes exp(sink[h]),
// P over the keys only). The backward's sink gradient is not read yet: a
// training step imports its forward and keeps its backward, with a remark.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefix=FWD
// FWD: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 4 query head(s) per kv head; sinks; mask verified on 262144 cells
// FWD-LABEL: func.func public @main
// FWD: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%arg1 : tensor<4xf32>)
// FWD-NOT: stablehlo.concatenate {{.*}}tensor<1x4x256x257xf32>
// FWD-NOT: stablehlo.exponential

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_vg.mlir 2>&1 | FileCheck %s --check-prefix=VG
// VG: remark: decomposed attention backward not imported: the backward of attention with sinks is not imported yet
// VG: remark: imported decomposed attention: {{.*}}; sinks; mask verified on 262144 cells
// VG-LABEL: func.func public @main
// VG: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%arg1 : tensor<4xf32>)
// VG-NOT: sdpa.attention_grad

/// Mutations decline with a remark (the module is kept).
/// The slice keeps the sink column and drops the first key:
// RUN: sed -e 's/%124 = stablehlo.slice %123 \[0:1, 0:4, 0:256, 0:256\]/%124 = stablehlo.slice %123 [0:1, 0:4, 0:256, 1:257]/' %S/Inputs/models/gptoss_sinks_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=SLICE,KEPT
// SLICE: remark: decomposed attention not imported: the probabilities are not sliced to the keys without the sink column
/// The extra column is a per-row value (a [Sq] vector), not a per-head sink:
// RUN: sed -e 's/%110 = stablehlo.broadcast_in_dim %arg1, dims = \[1\] : (tensor<4xf32>) -> tensor<1x4x1x1xf32>/%110 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<256xf32>) -> tensor<1x1x256x1xf32>/' -e 's/%111 = stablehlo.broadcast_in_dim %110, dims = \[0, 1, 2, 3\] : (tensor<1x4x1x1xf32>)/%111 = stablehlo.broadcast_in_dim %110, dims = [0, 1, 2, 3] : (tensor<1x1x256x1xf32>)/' %S/Inputs/models/gptoss_sinks_xla_fwd.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=PERROW,KEPT
// PERROW: remark: decomposed attention not imported: a sink column that is not an [Hq] f32 vector broadcast over the query heads
// KEPT-NOT: remark: imported
// KEPT-NOT: sdpa.attention
// KEPT: stablehlo.exponential

/// Through sdpa-stablehlo-pipeline the forward site becomes an
/// sdpa_forward_sinks call: test/Pipelines/sdpa-stablehlo-pipeline-sinks.test.
