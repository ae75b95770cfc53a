//===- StablehloAttrs.td - Enums and attributes of stablehlo -*- tablegen -*-===//
//
// The comparison, precision and dot-algorithm attributes of our StableHLO
// subset.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_ATTRS_TD
#define SDPA_STABLEHLO_ATTRS_TD

include "SdpaDialect/StableHLO/StablehloDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Stablehlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "direction of stablehlo.compare", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let cppNamespace = "::mlir::sdpa::shlo";
}

def Stablehlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "element interpretation of stablehlo.compare", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let cppNamespace = "::mlir::sdpa::shlo";
}

def Stablehlo_Precision : I32EnumAttr<"Precision",
    "precision of one dot_general operand", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let cppNamespace = "::mlir::sdpa::shlo";
}

def Stablehlo_DotAlgorithmAttr : AttrDef<Stablehlo_Dialect, "DotAlgorithm"> {
  let mnemonic = "dot_algorithm";
  let summary = "The algorithm of a stablehlo.dot_general";
  let description = [{
    Operand precision types, accumulation type, component counts and the
    number of primitive operations of a dot product, as StableHLO prints it
    after `algorithm =`:

        <lhs_precision_type = bf16, rhs_precision_type = bf16,
         accumulation_type = f32, lhs_component_count = 1,
         rhs_component_count = 1, num_primitive_operations = 1,
         allow_imprecise_accumulation = false>
  }];
  let parameters = (ins
    "::mlir::Type":$lhs_precision_type,
    "::mlir::Type":$rhs_precision_type,
    "::mlir::Type":$accumulation_type,
    "int64_t":$lhs_component_count,
    "int64_t":$rhs_component_count,
    "int64_t":$num_primitive_operations,
    "bool":$allow_imprecise_accumulation);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // SDPA_STABLEHLO_ATTRS_TD
