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

def Stablehlo_ConvertOp : Stablehlo_Op<"convert", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "Element type conversion";
  let description = [{
    `result[i] = operand[i]` converted to the result element type; the type
    is printed once when the two are equal:

        %4 = stablehlo.convert %3 : (tensor<2x256x16x64xf32>) -> tensor<2x256x16x64xbf16>
        %5 = stablehlo.convert %4 : tensor<2x256x16x64xbf16>
  }];
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

def Stablehlo_SliceOp : Stablehlo_Op<"slice", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "A strided box of a tensor";
  let description = [{
    `result[i] = operand[start + i * stride]` per dimension, with
    `result dim = ceil((limit - start) / stride)`; printed as
    `start:limit` or `start:limit:stride` (a stride of 1 is not printed):

        %1 = stablehlo.slice %0 [0:1, 0:256, 0:4, 32:64] : (tensor<1x256x4x64xbf16>) -> tensor<1x256x4x32xbf16>
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_PadOp : Stablehlo_Op<"pad", [Pure,
    AllElementTypesMatch<["operand", "padding_value", "result"]>]> {
  let summary = "Pad a tensor at its edges and between its elements";
  let description = [{
    Per dimension, `low` copies of `padding_value` (negative: that many
    elements removed), then the operand's elements with `interior` copies
    between neighbours, then `high`:
    `result dim = low + high + d + (d - 1) * interior` (`0` for `d = 0`).

        %1 = stablehlo.pad %0, %cst, low = [0, 0, 0, 64], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<1x256x2x64xf16>, tensor<f16>) -> tensor<1x256x2x128xf16>
  }];
  let arguments = (ins AnyRankedTensor:$operand,
                       0DTensorOf<[AnyType]>:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=`
    $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_ConcatenateOp : Stablehlo_Op<"concatenate", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Concatenate tensors along one dimension";
  let description = [{
    The inputs, of one rank and equal sizes except in `dimension`, one
    after the other along it (`result dim = sum of the inputs' dims`):

        %2 = stablehlo.concatenate %0, %1, dim = 3 : (tensor<1x256x4x32xf32>, tensor<1x256x4x32xf32>) -> tensor<1x256x4x64xf32>
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class Stablehlo_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic, traits # [Pure, Elementwise,
                                        SameOperandsAndResultType]> {
  let summary = "Elementwise " # mnemonic;
  let description = [{
    `result[i] = lhs[i] }] # mnemonic # [{ rhs[i]` on two tensors of one
    type. The type is printed once when all three types are equal, as a
    functional type otherwise:

        %3 = stablehlo.}] # mnemonic # [{ %1, %2 : tensor<2x16x256x1x256xf32>
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def Stablehlo_AddOp : Stablehlo_BinaryOp<"add", [Commutative]>;
def Stablehlo_SubtractOp : Stablehlo_BinaryOp<"subtract">;
def Stablehlo_MultiplyOp : Stablehlo_BinaryOp<"multiply", [Commutative]>;
def Stablehlo_DivideOp : Stablehlo_BinaryOp<"divide">;
def Stablehlo_MaximumOp : Stablehlo_BinaryOp<"maximum", [Commutative]>;
def Stablehlo_MinimumOp : Stablehlo_BinaryOp<"minimum", [Commutative]>;
def Stablehlo_PowerOp : Stablehlo_BinaryOp<"power">;
def Stablehlo_AndOp : Stablehlo_BinaryOp<"and", [Commutative]>;
def Stablehlo_OrOp : Stablehlo_BinaryOp<"or", [Commutative]>;

class Stablehlo_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic, traits # [Pure, Elementwise,
                                        SameOperandsAndResultType]> {
  let summary = "Elementwise " # mnemonic;
  let description = [{
    `result[i] = }] # mnemonic # [{(operand[i])` on one tensor:

        %1 = stablehlo.}] # mnemonic # [{ %0 : tensor<1x2x16x256x256xf32>
  }];
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

def Stablehlo_ExpOp : Stablehlo_UnaryOp<"exponential">;
def Stablehlo_LogOp : Stablehlo_UnaryOp<"log">;
def Stablehlo_NegOp : Stablehlo_UnaryOp<"negate">;
def Stablehlo_NotOp : Stablehlo_UnaryOp<"not">;
def Stablehlo_RsqrtOp : Stablehlo_UnaryOp<"rsqrt">;
def Stablehlo_SineOp : Stablehlo_UnaryOp<"sine">;
def Stablehlo_CosineOp : Stablehlo_UnaryOp<"cosine">;
def Stablehlo_TanhOp : Stablehlo_UnaryOp<"tanh">;

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

def Stablehlo_ReduceOp : Stablehlo_Op<"reduce", [RecursiveMemoryEffects,
    RecursivelySpeculatable, SameVariadicOperandSize]> {
  let summary = "Reduce tensors over dimensions with a body";
  let description = [{
    Reduces `inputs[k]` (all of one shape) over `dimensions`, starting from
    `init_values[k]` (0-d), combining with `body`, which takes the
    accumulators and the elements (`2 N` 0-d tensors) and returns `N`:

        result[k][i] = body(... body(init, x[i, j0]), x[i, j1]) ...

    (the order of combination is unspecified). StableHLO prints a body
    that is one commutative binary op of the dialect on the block
    arguments, returned, in the compact `applies` form; any other body
    after `reducer`:

        %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.maximum across dimensions = [4] : (tensor<2x16x256x1x256xf32>, tensor<f32>) -> tensor<2x16x256x1xf32>
        %5:2 = stablehlo.reduce(%a init: %c0), (%b init: %c1) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
         reducer(%x: tensor<f32>, %y: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
          ...
          stablehlo.return %m, %n : tensor<f32>, tensor<i32>
        }

    A reducer pair `(%x, %y)` names block arguments `k` and `N + k`.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       Variadic<AnyRankedTensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The name of the body's op when the body is the compact form (one
    /// commutative binary op on the block arguments, returned), else "".
    ::llvm::StringRef getApplies();
  }];
}

def Stablehlo_ReturnOp : Stablehlo_Op<"return", [Pure, Terminator]> {
  let summary = "Returns the values of a region";
  let description = [{
    Ends the region of `reduce` (and of the other region-holding ops):

        stablehlo.return %1 : tensor<f32>
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
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
