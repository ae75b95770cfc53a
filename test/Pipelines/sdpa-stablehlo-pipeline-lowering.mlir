// RUN: not %sdpa_opt %s --sdpa-stablehlo-pipeline="lowering=bogus=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %sdpa_opt %s --sdpa-stablehlo-pipeline="lowering=tile-q=abc" 2>&1 | FileCheck %s --check-prefix=BADINT
// RUN: not %sdpa_opt %s --sdpa-stablehlo-pipeline="lowering=tile-q=-1" 2>&1 | FileCheck %s --check-prefix=RANGE

/// Options of sdpa-stablehlo-pipeline's `lowering` that sdpa-pipeline
/// refuses fail the whole pipeline (exit 1). A bad string used to print an
/// error and exit 0 without an artifact: the pipeline was looked up by name
/// and, when that failed, the import ran alone.
// UNKNOWN: error: sdpa-stablehlo-pipeline: invalid 'lowering' options 'bogus=1' (the options of sdpa-pipeline)
// BADINT: error: sdpa-stablehlo-pipeline: invalid 'lowering' options 'tile-q=abc' (the options of sdpa-pipeline)
// RANGE: error: sdpa-pipeline: expected tile-q in [0, 65536], got -1

func.func @main(%arg0: tensor<1xf32>) -> tensor<1xf32> {
  return %arg0 : tensor<1xf32>
}
