//===- StablehloDialect.td - Our subset of StableHLO -------*- tablegen -*-===//
//
// The `stablehlo` dialect of this project: only the ops that JAX's attention
// graphs use, parsed and printed in StableHLO's own printed form. StableHLO
// itself is not a dependency; these definitions are written from its printed
// syntax.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_DIALECT_TD
#define SDPA_STABLEHLO_DIALECT_TD

include "mlir/IR/OpBase.td"

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::sdpa::shlo";
  let summary = "The subset of StableHLO that attention graphs use";
  let description = [{
    Just enough of StableHLO to read what JAX prints for
    `jax.nn.dot_product_attention` (cuDNN custom calls and XLA-decomposed
    graphs, forward and backward) and `stablehlo.composite` ops, so that
    `sdpa-import-stablehlo` can turn them into `sdpa` ops. Every op parses
    and prints StableHLO's pretty form; an op outside the subset is an
    error naming it (the dialect does not allow unknown operations).
  }];
  let useDefaultAttributePrinterParser = 1;
}

#endif // SDPA_STABLEHLO_DIALECT_TD
