//===- StablehloOps.td - Our subset of StableHLO's ops -----*- tablegen -*-===//
//
// The StableHLO ops that JAX's attention graphs use, with StableHLO's printed
// forms. Semantics are StableHLO's; only what the importer relies on is
// restated here.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_OPS_TD
#define SDPA_STABLEHLO_OPS_TD

include "SdpaDialect/StableHLO/StablehloDialect.td"
include "SdpaDialect/StableHLO/StablehloAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Stablehlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stablehlo_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Constants and index generators
//===----------------------------------------------------------------------===//

def Stablehlo_ConstantOp : Stablehlo_Op<"constant", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "A constant tensor";
  let description = [{
    `%c = stablehlo.constant dense<127> : tensor<i32>`: the result is
    `value`. Results are named as StableHLO names them: `%cst` for floats,
    `%c` otherwise.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Stablehlo_IotaOp : Stablehlo_Op<"iota", [Pure]> {
  let summary = "Indices along one dimension";
  let description = [{
    `out[i0, ..., in] = i_d` with `d = iota_dimension`:

        %0 = stablehlo.iota dim = 0 : tensor<256x256xi32>
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs AnyRankedTensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Stablehlo_BroadcastInDimOp : Stablehlo_Op<"broadcast_in_dim", [Pure]> {
  let summary = "Broadcast into a larger shape";
  let description = [{
    Operand dimension `j` becomes result dimension `dims[j]` (of equal size,
    or of size 1 in the operand, then repeated); other result dimensions
    repeat the operand:

        %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<256xi32>) -> tensor<256x1xi32>
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_TransposeOp : Stablehlo_Op<"transpose", [Pure]> {
  let summary = "Permute dimensions";
  let description = [{
    Result dimension `i` is operand dimension `dims[i]`:

        %2 = stablehlo.transpose %1, dims = [0, 2, 1, 3] : (tensor<2x16x256x64xbf16>) -> tensor<2x256x16x64xbf16>

    Folds an identity permutation and a transpose of a transpose whose
    permutations compose to the identity.
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Stablehlo_ReshapeOp : Stablehlo_Op<"reshape", [Pure]> {
  let summary = "Reshape, row-major";
  let description = [{
    Same elements in row-major order, new static shape:

        %0 = stablehlo.reshape %arg0 : (tensor<2x256x16x64xbf16>) -> tensor<2x256x16x1x64xbf16>
  }];
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_ConvertOp : Stablehlo_Op<"convert", [Pure]> {
  let summary = "Element type conversion";
  let description = [{
        %4 = stablehlo.convert %3 : (tensor<2x256x16x64xf32>) -> tensor<2x256x16x64xbf16>
  }];
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class Stablehlo_BinaryOp<string mnemonic>
    : Stablehlo_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "Elementwise " # mnemonic;
  let description = [{
    Elementwise on two tensors of one type:

        %3 = stablehlo.}] # mnemonic # [{ %1, %2 : tensor<2x16x256x1x256xf32>
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Stablehlo_AddOp : Stablehlo_BinaryOp<"add">;
def Stablehlo_SubtractOp : Stablehlo_BinaryOp<"subtract">;
def Stablehlo_MultiplyOp : Stablehlo_BinaryOp<"multiply">;
def Stablehlo_DivideOp : Stablehlo_BinaryOp<"divide">;
def Stablehlo_MaximumOp : Stablehlo_BinaryOp<"maximum">;
def Stablehlo_MinimumOp : Stablehlo_BinaryOp<"minimum">;
def Stablehlo_AndOp : Stablehlo_BinaryOp<"and">;
def Stablehlo_OrOp : Stablehlo_BinaryOp<"or">;

class Stablehlo_UnaryOp<string mnemonic>
    : Stablehlo_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "Elementwise " # mnemonic;
  let description = [{
    Elementwise on one tensor:

        %1 = stablehlo.}] # mnemonic # [{ %0 : tensor<1x2x16x256x256xf32>
  }];
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Stablehlo_ExpOp : Stablehlo_UnaryOp<"exponential">;
def Stablehlo_LogOp : Stablehlo_UnaryOp<"log">;
def Stablehlo_NegOp : Stablehlo_UnaryOp<"negate">;
def Stablehlo_NotOp : Stablehlo_UnaryOp<"not">;

def Stablehlo_CompareOp : Stablehlo_Op<"compare", [Pure]> {
  let summary = "Elementwise comparison";
  let description = [{
    `out = lhs <direction> rhs` elementwise, as `compare_type` reads the
    elements:

        %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xi1>
  }];
  let arguments = (ins Stablehlo_ComparisonDirection:$comparison_direction,
                       AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       OptionalAttr<Stablehlo_ComparisonType>:$compare_type);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def Stablehlo_SelectOp : Stablehlo_Op<"select", [Pure,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "Elementwise choice";
  let description = [{
    `out = pred ? on_true : on_false` elementwise:

        %6 = stablehlo.select %4, %arg0, %5 : tensor<256x256xi1>, tensor<256x256xi1>
  }];
  let arguments = (ins AnyRankedTensor:$pred, AnyRankedTensor:$on_true,
                       AnyRankedTensor:$on_false);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,`
    type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

def Stablehlo_ReduceOp : Stablehlo_Op<"reduce", [Pure]> {
  let summary = "Reduce one tensor over dimensions with one binary op";
  let description = [{
    Only StableHLO's short form with a single input, whose body is one
    elementwise binary op (`applies`):

        %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.maximum across dimensions = [4] : (tensor<2x16x256x1x256xf32>, tensor<f32>) -> tensor<2x16x256x1xf32>

    `out[i] = init (op) x[i, j0] (op) x[i, j1] ...` over the reduced
    dimensions. The long form with an explicit region is not part of the
    subset.
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$init_value,
                       StrAttr:$applies, DenseI64ArrayAttr:$dimensions);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Stablehlo_DotGeneralOp : Stablehlo_Op<"dot_general", [Pure]> {
  let summary = "Batched tensor contraction";
  let description = [{
    Contracts `lhs` and `rhs` over the paired contracting dimensions, batched
    over the paired batching dimensions. The result dimensions are the batch
    dimensions (in lhs order), then lhs's free dimensions, then rhs's:

        %1 = stablehlo.dot_general %0, %arg1, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x256x16x1x64xbf16>, tensor<2x256x16x64xbf16>) -> tensor<2x16x256x1x256xf32>

    `batching_dims` is printed only when there are batch dimensions;
    `precision` and `algorithm` are optional.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions,
                       OptionalAttr<TypedArrayAttrBase<Stablehlo_Precision,
                           "precision config">>:$precision_config,
                       OptionalAttr<Stablehlo_DotAlgorithmAttr>:$algorithm);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

def Stablehlo_CustomCallOp : Stablehlo_Op<"custom_call"> {
  let summary = "A call into a backend-defined target";
  let description = [{
    Opaque to the compiler except for its attributes; the importer reads
    `backend_config` of the cuDNN attention targets:

        %1:2 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {api_version = 2 : i32, backend_config = "{...}", operand_layouts = [...], result_layouts = [...]} : (...) -> (...)

    Layouts are minor-to-major physical layouts; they do not change the
    values.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       StrAttr:$call_target_name,
                       OptionalAttr<BoolAttr>:$has_side_effect,
                       OptionalAttr<AnyAttr>:$backend_config,
                       OptionalAttr<I32Attr>:$api_version,
                       OptionalAttr<ArrayAttr>:$operand_layouts,
                       OptionalAttr<ArrayAttr>:$result_layouts);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    custom<CallTarget>($call_target_name) `(` $inputs `)` attr-dict `:`
    functional-type(operands, results)
  }];
}

def Stablehlo_CompositeOp : Stablehlo_Op<"composite"> {
  let summary = "A named op with its decomposition";
  let description = [{
    Means `call @decomposition(inputs)`; `name`, `composite_attributes` and
    `version` let a consumer recognize it and use a better implementation:

        %0 = stablehlo.composite "sdpa.attention" %q, %k, %v {composite_attributes = {...}, decomposition = @attention_impl} : (...) -> ...

    See docs/Import.md for the `sdpa.attention` convention.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$name,
                       OptionalAttr<DictionaryAttr>:$composite_attributes,
                       FlatSymbolRefAttr:$decomposition,
                       OptionalAttr<I32Attr>:$version);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $name $inputs attr-dict `:` functional-type(operands, results)
  }];
}

#endif // SDPA_STABLEHLO_OPS_TD
