//===- SdpaDialect.td - The sdpa dialect -------------------*- tablegen -*-===//

#ifndef SDPA_DIALECT_TD
#define SDPA_DIALECT_TD

include "mlir/IR/OpBase.td"

def Sdpa_Dialect : Dialect {
  let name = "sdpa";
  let cppNamespace = "::mlir::sdpa";
  let summary = "Scaled-dot-product attention with explicit band masks";
  let description = [{
    The `sdpa` dialect states attention at the semantic level: tensors of
    queries, keys and values, one explicit mask form (the band,
    `#sdpa.band`), a scale, a memory layout, grouped-query heads and packed
    variable-length (THD) sequences. Passes derive the exact tile schedule of
    the mask symbolically (`#sdpa.schedule`), and lowerings turn the ops into
    GPU kernels whose loop bounds are those derived maps.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

#endif // SDPA_DIALECT_TD
