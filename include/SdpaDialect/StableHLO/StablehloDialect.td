//===- StablehloDialect.td - The StableHLO opset ------------*- tablegen -*-===//
//
// The `stablehlo` dialect of this project: every op of the StableHLO
// specification, parsed and printed in StableHLO's own printed form.
// StableHLO itself is not a dependency; these definitions are written from
// its specification.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_DIALECT_TD
#define SDPA_STABLEHLO_DIALECT_TD

include "mlir/IR/OpBase.td"

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::sdpa::shlo";
  let summary = "The StableHLO opset, in StableHLO's printed form";
  let description = [{
    Every op, attribute and type of the StableHLO specification, so that
    `sdpa-opt` reads any module JAX prints (the whole model, not only its
    attention) and prints it back unchanged, and `sdpa-import-stablehlo`
    can turn the attention sites into `sdpa` ops. Ops print StableHLO's
    pretty form where StableHLO has one and the generic form otherwise;
    both forms parse. An op outside the specification is an error naming it
    (the dialect does not allow unknown operations). docs/StableHLO.md says
    how the forms are matched and how this dialect coexists with the real
    StableHLO dialect.
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
    /// `#stablehlo.bounds<..>` besides the generated attribute forms.
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

#endif // SDPA_STABLEHLO_DIALECT_TD
