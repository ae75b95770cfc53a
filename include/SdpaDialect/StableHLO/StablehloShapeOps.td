//===- StablehloShapeOps.td - Data-movement stablehlo ops ---*- tablegen -*-===//
//
// Constants, index generators and the ops that move data without computing
// on it: broadcast, reshape, transpose, reverse, slices, pads, concatenate,
// gather and the dynamic forms, dimension sizes, tuples.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_SHAPEOPS_TD
#define SDPA_STABLEHLO_SHAPEOPS_TD

include "SdpaDialect/StableHLO/StablehloBase.td"

def Stablehlo_ConstantOp : Stablehlo_Op<"constant", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "A constant tensor";
  let description = [{
    `%c = stablehlo.constant dense<127> : tensor<i32>`: the result is
    `value`. Results are named as StableHLO names them: `%cst` for floats,
    `%c` otherwise.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Stablehlo_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Stablehlo_IotaOp : Stablehlo_Op<"iota", [Pure]> {
  let summary = "Indices along one dimension";
  let description = [{
    `output[i0, ..., in] = i_d` with `d = iota_dimension`:

        %0 = stablehlo.iota dim = 0 : tensor<256x256xi32>
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension);
  let results = (outs Stablehlo_Tensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def Stablehlo_DynamicIotaOp : Stablehlo_Op<"dynamic_iota", [Pure]> {
  let summary = "Indices along one dimension, shape given at run time";
  let description = [{
    `iota` with the result shape in the 1-d tensor `output_shape`:

        %1 = stablehlo.dynamic_iota %0, dim = 0 : (tensor<2xi64>) -> tensor<?x4xi32>
  }];
  let arguments = (ins Stablehlo_ShapeTensor:$output_shape,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $output_shape `,` `dim` `=` $iota_dimension attr-dict `:`
    functional-type(operands, results)
  }];
}

def Stablehlo_BroadcastInDimOp : Stablehlo_Op<"broadcast_in_dim", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Broadcast into a larger shape";
  let description = [{
    Operand dimension `j` becomes result dimension `dims[j]` (of equal size,
    or of size 1 in the operand, then repeated); other result dimensions
    repeat the operand:

        %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<256xi32>) -> tensor<256x1xi32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicBroadcastInDimOp
    : Stablehlo_Op<"dynamic_broadcast_in_dim", [Pure]> {
  let summary = "broadcast_in_dim to a shape given at run time";
  let description = [{
    `broadcast_in_dim` to the shape `output_dimensions`; the optional
    `known_expanding_dimensions` / `known_nonexpanding_dimensions` say which
    operand dimensions are known to (not) be broadcast:

        %1 = stablehlo.dynamic_broadcast_in_dim %0, %s, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_ShapeTensor:$output_dimensions,
                       DenseI64ArrayAttr:$broadcast_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_expanding_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_nonexpanding_dimensions);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions
    attr-dict `:` functional-type(operands, results)
  }];
}

def Stablehlo_TransposeOp : Stablehlo_Op<"transpose", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Permute dimensions";
  let description = [{
    Result dimension `i` is operand dimension `dims[i]`:

        %2 = stablehlo.transpose %1, dims = [0, 2, 1, 3] : (tensor<2x16x256x64xbf16>) -> tensor<2x256x16x64xbf16>

    Folds an identity permutation and a transpose of a transpose whose
    permutations compose to the identity.
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Stablehlo_ReshapeOp : Stablehlo_Op<"reshape", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Reshape, row-major";
  let description = [{
    Same elements in row-major order, new static shape:

        %0 = stablehlo.reshape %arg0 : (tensor<2x256x16x64xbf16>) -> tensor<2x256x16x1x64xbf16>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Stablehlo_DynamicReshapeOp : Stablehlo_Op<"dynamic_reshape", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "Reshape to a shape given at run time";
  let description = [{
        %1 = stablehlo.dynamic_reshape %0, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_ShapeTensor:$output_shape);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Stablehlo_ReverseOp : Stablehlo_Op<"reverse", [Pure,
    SameOperandsAndResultType]> {
  let summary = "Reverse along dimensions";
  let description = [{
    `result[..., i_d, ...] = operand[..., n_d - 1 - i_d, ...]` for each `d`
    in `dims`:

        %1 = stablehlo.reverse %0, dims = [1] : tensor<3x2xi32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $dimensions attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_SliceOp : Stablehlo_Op<"slice", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "A strided box of a tensor";
  let description = [{
    `result[i] = operand[start + i * stride]` per dimension, with
    `result dim = ceil((limit - start) / stride)`; printed as
    `start:limit` or `start:limit:stride` (a stride of 1 is not printed):

        %1 = stablehlo.slice %0 [0:1, 0:256, 0:4, 32:64] : (tensor<1x256x4x64xbf16>) -> tensor<1x256x4x32xbf16>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicSliceOp : Stablehlo_Op<"dynamic_slice", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "A box of a tensor at run-time offsets";
  let description = [{
    `result[i] = operand[s + i]` with `s[d] = clamp(start_indices[d], 0,
    operand dim d - slice_sizes[d])`, each start a 0-d integer tensor:

        %1 = stablehlo.dynamic_slice %0, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Variadic<Stablehlo_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<VariadicOperandWithAttribute>($start_indices)
    `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicUpdateSliceOp : Stablehlo_Op<"dynamic_update_slice",
    [Pure, AllTypesMatch<["operand", "result"]>,
     AllElementTypesMatch<["operand", "update"]>]> {
  let summary = "Overwrite a box of a tensor at run-time offsets";
  let description = [{
    `operand` with the box at the clamped `start_indices` replaced by
    `update`:

        %1 = stablehlo.dynamic_update_slice %0, %u, %i, %j : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand, Stablehlo_Tensor:$update,
                       Variadic<Stablehlo_ScalarIntTensor>:$start_indices);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Stablehlo_PadOp : Stablehlo_Op<"pad", [Pure,
    AllElementTypesMatch<["operand", "padding_value", "result"]>]> {
  let summary = "Pad a tensor at its edges and between its elements";
  let description = [{
    Per dimension, `low` copies of `padding_value` (negative: that many
    elements removed), then the operand's elements with `interior` copies
    between neighbours, then `high`:
    `result dim = low + high + d + (d - 1) * interior` (`low + high` for
    `d = 0`).

        %1 = stablehlo.pad %0, %cst, low = [0, 0, 0, 64], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<1x256x2x64xf16>, tensor<f16>) -> tensor<1x256x2x128xf16>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       0DTensorOf<[AnyType]>:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=`
    $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicPadOp : Stablehlo_Op<"dynamic_pad", [Pure,
    AllElementTypesMatch<["operand", "padding_value", "result"]>]> {
  let summary = "pad with run-time paddings";
  let description = [{
    `pad` with `low`, `high` and `interior` as 1-d integer tensors:

        %1 = stablehlo.dynamic_pad %0, %c, %l, %h, %n : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       0DTensorOf<[AnyType]>:$padding_value,
                       Stablehlo_ShapeTensor:$edge_padding_low,
                       Stablehlo_ShapeTensor:$edge_padding_high,
                       Stablehlo_ShapeTensor:$interior_padding);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Stablehlo_ConcatenateOp : Stablehlo_Op<"concatenate", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Concatenate tensors along one dimension";
  let description = [{
    The inputs, of one rank and equal sizes except in `dimension`, one
    after the other along it (`result dim = sum of the inputs' dims`):

        %2 = stablehlo.concatenate %0, %1, dim = 3 : (tensor<1x256x4x32xf32>, tensor<1x256x4x32xf32>) -> tensor<1x256x4x64xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_GatherOp : Stablehlo_Op<"gather", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "Slices of a tensor at indices from another";
  let description = [{
    For each index vector of `start_indices` (along `index_vector_dim`), a
    slice of `slice_sizes` of `operand` starting at the clamped start that
    `start_index_map` scatters over operand dimensions; `offset_dims` are
    the result dimensions within a slice, the `collapsed_slice_dims` (of
    size 1) are dropped. Printed in the generic form:

        %2 = "stablehlo.gather"(%0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_IntTensor:$start_indices,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_DynamicGatherOp : Stablehlo_Op<"dynamic_gather", [Pure,
    AllElementTypesMatch<["operand", "result"]>]> {
  let summary = "gather with run-time slice sizes";
  let description = [{
    `gather` with `slice_sizes` a 1-d integer tensor; generic form:

        %3 = "stablehlo.dynamic_gather"(%0, %1, %2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_IntTensor:$start_indices,
                       Stablehlo_ShapeTensor:$slice_sizes,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Stablehlo_Tensor:$result);
}

def Stablehlo_GetDimensionSizeOp : Stablehlo_Op<"get_dimension_size", [Pure]> {
  let summary = "The size of one dimension";
  let description = [{
    `result = size of operand dimension dim`, a 0-d i32:

        %1 = stablehlo.get_dimension_size %0, dim = 1 : (tensor<2x?xf32>) -> tensor<i32>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs 0DTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:`
    functional-type(operands, results)
  }];
}

def Stablehlo_TupleOp : Stablehlo_Op<"tuple", [Pure]> {
  let summary = "Group values into a tuple";
  let description = [{
    `result = (val...)`; only the tuple type is printed:

        %2 = stablehlo.tuple %0, %1 : tuple<tensor<2xf32>, tuple<tensor<i32>>>
  }];
  let arguments = (ins Variadic<Stablehlo_Value>:$val);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = [{
    $val attr-dict `:` custom<TupleOpType>(type($val), type($result))
  }];
  let hasVerifier = 1;
}

def Stablehlo_GetTupleElementOp : Stablehlo_Op<"get_tuple_element", [Pure]> {
  let summary = "One element of a tuple";
  let description = [{
    `result = operand[index]`:

        %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  }];
  let arguments = (ins AnyTuple:$operand,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$index);
  let results = (outs Stablehlo_Value:$result);
  let assemblyFormat = [{
    $operand `[` $index `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // SDPA_STABLEHLO_SHAPEOPS_TD
