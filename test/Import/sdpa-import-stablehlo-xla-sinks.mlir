// Attention sinks (gpt-oss) written out, as JAX prints them for the
// gpt-oss-sinks fixture (test/Import/Inputs/models/README.txt: window 128
// keys causal, 4 query heads over 1 kv head, d 64):
//
//   %111 = broadcast(%arg1 : [Hq] f32) to one key column per row
//   %112 = concatenate(masked logits, %111) along the keys    (257 columns)
//   softmax over the 257 columns;  %124 = slice(P, keys [0, 256))
//
// imports as sinks(%arg1) (docs/Semantics.md §7: LSE includes exp(sink[h]),
// P over the keys only). JAX's backward runs the softmax's gradient over the
// 257 columns, with dP padded by a 0 sink column:
//
//   %237 = pad(dP, 0) by one key at the end;  %250 = dS over 257 columns
//   %251 = slice(%250, keys [0, 256))          dS, to dQ and dK
//   %252 = slice(%250, key 256);  %253 = sum over batch and rows: [4] f32
//
// and %253 = sum_{b,q} -P_sink * rowsum(P * dP) is §7's dsink: it imports as
// attention_grad ... sinks(%arg1) with its grad_sinks result.

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_fwd.mlir 2>&1 | FileCheck %s --check-prefix=FWD
// FWD: remark: imported decomposed attention: left = 127, right = 0, align = top_left, scale 1.250000e-01, layout bshd, 4 query head(s) per kv head; sinks; mask verified on 262144 cells
// FWD-LABEL: func.func public @main
// FWD: sdpa.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%arg1 : tensor<4xf32>)
// FWD-NOT: stablehlo.concatenate {{.*}}tensor<1x4x256x257xf32>
// FWD-NOT: stablehlo.exponential

// RUN: %sdpa_opt -sdpa-import-stablehlo %S/Inputs/models/gptoss_sinks_xla_vg.mlir 2>&1 | FileCheck %s --check-prefix=VG
// VG: remark: imported decomposed attention: {{.*}}; sinks; mask verified on 262144 cells
// VG: remark: imported decomposed attention backward: {{.*}}, dsink = -sum P_sink * rowsum(P * dP) verified
// VG-LABEL: func.func public @main
// VG-NOT: tensor<1x4x256x257xf32>
// VG: %[[O:.*]], %[[LSE:.*]] = sdpa.attention %[[Q:.*]], %[[K:.*]], %[[V:.*]] sinks(%arg1 : tensor<4xf32>)
/// The probabilities (and every other [1, 4, 256, 256] or 257-column
/// tensor) leave the module; the graph's sum %253 is replaced, and what JAX
/// does after it (the transpose of the sinks' broadcast) reads grad_sinks.
// VG-NOT: tensor<1x4x256x25{{[67]}}x
// VG: %{{.*}}, %{{.*}}, %{{.*}}, %[[DSINK:.*]] = sdpa.attention_grad %[[Q]], %[[K]], %[[V]], %[[O]], %{{.*}}, %[[LSE]] sinks(%arg1 : tensor<4xf32>) {{.*}} -> {{.*}}, tensor<4xf32>
// VG-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[DSINK]], dims = [1] : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
// VG: %[[SUM:.*]] = stablehlo.reduce(%[[B]] init: %{{.*}}) applies stablehlo.add across dimensions = [0, 2, 3] : (tensor<1x4x1x1xf32>, tensor<f32>) -> tensor<4xf32>
// VG-NOT: tensor<1x4x256x25{{[67]}}x
// VG: return %{{.*}}, %{{.*}}, %[[SUM]], {{.*}} : tensor<f32>, tensor<256xf32>, tensor<4xf32>,

/// Mutations of the backward's sink column decline the backward with their
/// remark (the forward still imports; the graph's backward stays).
/// The 0 that pads dP to the sink column becomes 1:
// RUN: sed -e 's/%cst_40 = stablehlo.constant dense<0.000000e+00>/%cst_40 = stablehlo.constant dense<1.000000e+00>/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=PADVALUE,BWKEPT
// PADVALUE: remark: decomposed attention backward not imported: dK = scale dS^T Q: a pad in the gradient whose value is not 0
/// dP padded at the first key instead of after the last:
// RUN: sed -e 's/%237 = stablehlo.pad %236, %cst_40, low = \[0, 0, 0, 0\], high = \[0, 0, 0, 1\]/%237 = stablehlo.pad %236, %cst_40, low = [0, 0, 0, 1], high = [0, 0, 0, 0]/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=PADLOW,BWKEPT
// PADLOW: remark: decomposed attention backward not imported: dK = scale dS^T Q: a pad in the gradient that does not add one key at the end (the sink column)
/// dS sliced to keys [1, 257) (drops key 0, keeps the sink column):
// RUN: sed -e 's/%251 = stablehlo.slice %250 \[0:1, 0:4, 0:256, 0:256\]/%251 = stablehlo.slice %250 [0:1, 0:4, 0:256, 1:257]/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=DSSLICE,BWKEPT
// DSSLICE: remark: decomposed attention backward not imported: dK = scale dS^T Q: a slice in the gradient that is not the keys without the sink column
/// 1 / s^2 becomes 2 / s^2 in the row term of dS:
// RUN: sed -e 's/%cst_15 = stablehlo.constant dense<1.000000e+00>/%cst_15 = stablehlo.constant dense<2.000000e+00>/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=ROWTERM,BWKEPT
// ROWTERM: remark: decomposed attention backward not imported: dS is not P * (dP - rowsum(P * dP))
/// The sink column summed with a maximum, or from 1:
// RUN: sed -e 's/%253 = stablehlo.reduce(%252 init: %cst_43) applies stablehlo.add/%253 = stablehlo.reduce(%252 init: %cst_43) applies stablehlo.maximum/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=SINKSUM,BWKEPT
// RUN: sed -e 's/%cst_43 = stablehlo.constant dense<0.000000e+00>/%cst_43 = stablehlo.constant dense<1.000000e+00>/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefixes=SINKSUM,BWKEPT
// SINKSUM: remark: decomposed attention backward not imported: the sinks' gradient is not the sink column of dS summed over the batch and the query rows: a reduce that is not a sum from 0
// BWKEPT-NOT: remark: imported decomposed attention backward
// BWKEPT: sdpa.attention {{.*}} sinks(%arg1
// BWKEPT-NOT: sdpa.attention_grad
// BWKEPT: stablehlo.exponential {{.*}} : tensor<1x4x256x257xf32>

/// The graph sums key 255 instead of the sink column: it computes no sink
/// gradient of the attention's, so grad_sinks goes unused and that sum keeps
/// reading the graph's own 257-column dS (which stays for it).
// RUN: sed -e 's/%252 = stablehlo.slice %250 \[0:1, 0:4, 0:256, 256:257\]/%252 = stablehlo.slice %250 [0:1, 0:4, 0:256, 255:256]/' %S/Inputs/models/gptoss_sinks_xla_vg.mlir | %sdpa_opt -sdpa-import-stablehlo 2>&1 | FileCheck %s --check-prefix=NOSINKGRAD
// NOSINKGRAD: remark: imported decomposed attention backward: {{.*}} (the graph computes no sink gradient) verified
// NOSINKGRAD: stablehlo.slice %{{.*}} [0:1, 0:4, 0:256, 255:256] : (tensor<1x4x256x257xf32>)
// NOSINKGRAD: %{{.*}}, %{{.*}}, %{{.*}}, %[[UNUSED:.*]] = sdpa.attention_grad {{.*}} sinks(%arg1
// NOSINKGRAD-NOT: %[[UNUSED]]

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
