// JAX prints static shapes, so sdpa-stablehlo-pipeline lowers at a 32-bit
// index unless its `lowering` names a width, and checks every site against
// it. The full-attention XLA fixture with a batch of 16384 (edited with
// sed): q holds 2^32 elements, past what a 32-bit index addresses, so the
// site stays StableHLO with a remark; at index-bitwidth=64 it is imported.
// RUN: rm -rf %t && sed -e 's/tensor<2x/tensor<16384x/g' -e 's/tensor<1x2x/tensor<1x16384x/g' %S/Inputs/jax_xla_full_fwd.mlir > %t.big.mlir
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t/i32" %t.big.mlir 2>&1 | FileCheck %s --check-prefix=DECLINED
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering={artifact-dir=%t/i64 index-bitwidth=64}" %t.big.mlir 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: FileCheck %s --check-prefix=WIDE-MANIFEST < %t/i64/sdpa_fwd_0.manifest
// The fixture as JAX printed it (batch 2) fits: imported, with a 32-bit
// index in its manifest.
// RUN: %sdpa_opt -sdpa-stablehlo-pipeline="lowering=artifact-dir=%t/small" %S/Inputs/jax_xla_full_fwd.mlir 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: FileCheck %s --check-prefix=SMALL-MANIFEST < %t/small/sdpa_fwd_0.manifest

// DECLINED: remark: decomposed attention not imported: the gpu lowering refuses it: operand #0 (tensor<16384x256x16x64xbf16>) holds 4294967296 elements, more than a 32-bit index addresses (2^31; index-bitwidth=64 lowers it)
// DECLINED-NOT: custom_call @sdpa_forward
// DECLINED: stablehlo.dot_general

// WIDE: remark: imported decomposed attention
// WIDE: stablehlo.custom_call @sdpa_forward
// WIDE-MANIFEST-NOT: index_bits

// SMALL: remark: imported decomposed attention
// SMALL: stablehlo.custom_call @sdpa_forward
// SMALL-MANIFEST: index_bits 32
