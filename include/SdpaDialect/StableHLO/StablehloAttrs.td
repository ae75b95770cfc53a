//===- StablehloAttrs.td - Enums and attributes of stablehlo -*- tablegen -*-===//
//
// The enums and attributes of the StableHLO specification: comparison
// direction and type, precision, dot algorithm, dimension numbers of dot,
// gather, scatter and convolution, channel handles, output-operand aliases,
// FFT type, RNG distribution and algorithm, result accuracy, the bounds of a
// tensor type, custom-call API versions.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_ATTRS_TD
#define SDPA_STABLEHLO_ATTRS_TD

include "SdpaDialect/StableHLO/StablehloDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums, printed `#stablehlo<comparison_direction GE>` (and as the bare
// keyword where an op's format holds them)
//===----------------------------------------------------------------------===//

class Stablehlo_I32Enum<string name, string summary,
                        list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::sdpa::shlo";
  let genSpecializedAttr = 0;
}

class Stablehlo_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Stablehlo_Dialect, info, mnemonic>;

def Stablehlo_ComparisonDirection : Stablehlo_I32Enum<"ComparisonDirection",
    "direction of stablehlo.compare", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]>;
def Stablehlo_ComparisonDirectionAttr
    : Stablehlo_EnumAttr<Stablehlo_ComparisonDirection, "comparison_direction">;

def Stablehlo_ComparisonType : Stablehlo_I32Enum<"ComparisonType",
    "element interpretation of stablehlo.compare", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]>;
def Stablehlo_ComparisonTypeAttr
    : Stablehlo_EnumAttr<Stablehlo_ComparisonType, "comparison_type">;

def Stablehlo_Precision : Stablehlo_I32Enum<"Precision",
    "precision of one dot or convolution operand", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]>;
def Stablehlo_PrecisionAttr
    : Stablehlo_EnumAttr<Stablehlo_Precision, "precision">;
def Stablehlo_PrecisionConfigAttr
    : TypedArrayAttrBase<Stablehlo_PrecisionAttr, "precision config">;

def Stablehlo_FftType : Stablehlo_I32Enum<"FftType", "kind of stablehlo.fft", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]>;
def Stablehlo_FftTypeAttr : Stablehlo_EnumAttr<Stablehlo_FftType, "fft_type">;

def Stablehlo_Transpose : Stablehlo_I32Enum<"Transpose",
    "how stablehlo.triangular_solve reads a", [
      I32EnumAttrCase<"TRANSPOSE_INVALID", 0>,
      I32EnumAttrCase<"NO_TRANSPOSE", 1>, I32EnumAttrCase<"TRANSPOSE", 2>,
      I32EnumAttrCase<"ADJOINT", 3>]>;
def Stablehlo_TransposeAttr
    : Stablehlo_EnumAttr<Stablehlo_Transpose, "transpose">;

def Stablehlo_RngDistribution : Stablehlo_I32Enum<"RngDistribution",
    "distribution of stablehlo.rng", [
      I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]>;
def Stablehlo_RngDistributionAttr
    : Stablehlo_EnumAttr<Stablehlo_RngDistribution, "rng_distribution">;

def Stablehlo_RngAlgorithm : Stablehlo_I32Enum<"RngAlgorithm",
    "algorithm of stablehlo.rng_bit_generator", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]>;
def Stablehlo_RngAlgorithmAttr
    : Stablehlo_EnumAttr<Stablehlo_RngAlgorithm, "rng_algorithm">;

def Stablehlo_ResultAccuracyMode : Stablehlo_I32Enum<"ResultAccuracyMode",
    "accuracy mode of a transcendental op", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGHEST", 1>,
      I32EnumAttrCase<"TOLERANCE", 2>]>;
def Stablehlo_ResultAccuracyModeAttr
    : Stablehlo_EnumAttr<Stablehlo_ResultAccuracyMode, "result_accuracy_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

/// An integer attribute (`api_version = 4 : i32`), as StableHLO stores it.
def Stablehlo_CustomCallApiVersion : I32EnumAttr<"CustomCallApiVersion",
    "calling convention of stablehlo.custom_call", [
      I32EnumAttrCase<"API_VERSION_UNSPECIFIED", 0>,
      I32EnumAttrCase<"API_VERSION_ORIGINAL", 1>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING", 2>,
      I32EnumAttrCase<"API_VERSION_STATUS_RETURNING_UNIFIED", 3>,
      I32EnumAttrCase<"API_VERSION_TYPED_FFI", 4>]> {
  let cppNamespace = "::mlir::sdpa::shlo";
}

//===----------------------------------------------------------------------===//
// Structured attributes
//===----------------------------------------------------------------------===//

class Stablehlo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Stablehlo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// A list of dimensions, `[0, 2]`.
def Stablehlo_Dims : ArrayRefParameter<"int64_t", "dimensions"> {
  let parser = "::mlir::sdpa::shlo::parseDimList($_parser)";
  let printer = "::mlir::sdpa::shlo::printDimList($_printer, $_self)";
}

def Stablehlo_DotDimensionNumbers
    : Stablehlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "The batching and contracting dimensions of a dot product";
  let description = [{
    Pairs `lhs_batching_dimensions[k]` with `rhs_batching_dimensions[k]` and
    `lhs_contracting_dimensions[k]` with `rhs_contracting_dimensions[k]`.
    Printed in full in the generic form, fields that are empty left out:

        #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>

    and as `batching_dims = [0] x [0], contracting_dims = [2] x [1]` in
    `stablehlo.dot_general`.
  }];
  let parameters = (ins Stablehlo_Dims:$lhs_batching_dimensions,
                        Stablehlo_Dims:$rhs_batching_dimensions,
                        Stablehlo_Dims:$lhs_contracting_dimensions,
                        Stablehlo_Dims:$rhs_contracting_dimensions);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_GatherDimensionNumbers
    : Stablehlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "The dimension numbers of stablehlo.gather";
  let description = [{
    Which result dimensions are slice offsets (`offset_dims`), which operand
    dimensions are collapsed (size-1 slices) or batching, which start-index
    component addresses which operand dimension (`start_index_map`), and
    which dimension of `start_indices` holds the index vectors. Empty
    fields and a zero `index_vector_dim` are not printed:

        #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
  }];
  let parameters = (ins Stablehlo_Dims:$offset_dims,
                        Stablehlo_Dims:$collapsed_slice_dims,
                        Stablehlo_Dims:$operand_batching_dims,
                        Stablehlo_Dims:$start_indices_batching_dims,
                        Stablehlo_Dims:$start_index_map,
                        "int64_t":$index_vector_dim);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_ScatterDimensionNumbers
    : Stablehlo_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "The dimension numbers of stablehlo.scatter";
  let description = [{
    The counterpart of `#stablehlo.gather` for the updates: which update
    dimensions are window dimensions, which operand dimensions are inserted
    (size 1) or batching, and which index component addresses which
    operand dimension:

        #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  }];
  let parameters = (ins Stablehlo_Dims:$update_window_dims,
                        Stablehlo_Dims:$inserted_window_dims,
                        Stablehlo_Dims:$input_batching_dims,
                        Stablehlo_Dims:$scatter_indices_batching_dims,
                        Stablehlo_Dims:$scatter_dims_to_operand_dims,
                        "int64_t":$index_vector_dim);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_ConvDimensionNumbers
    : Stablehlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "The layout of a convolution's input, kernel and output";
  let description = [{
    Written as three dimension lists in which `b` is the batch, `f` the
    feature, `i`/`o` the kernel's input/output feature dimension, and a
    number `k` the `k`-th spatial dimension:

        #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>

    (NHWC input, HWIO kernel, NHWC output).
  }];
  let parameters = (ins "int64_t":$input_batch_dimension,
                        "int64_t":$input_feature_dimension,
                        Stablehlo_Dims:$input_spatial_dimensions,
                        "int64_t":$kernel_input_feature_dimension,
                        "int64_t":$kernel_output_feature_dimension,
                        Stablehlo_Dims:$kernel_spatial_dimensions,
                        "int64_t":$output_batch_dimension,
                        "int64_t":$output_feature_dimension,
                        Stablehlo_Dims:$output_spatial_dimensions);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_DotAlgorithmAttr
    : Stablehlo_Attr<"DotAlgorithm", "dot_algorithm"> {
  let summary = "The algorithm of a dot product";
  let description = [{
    Operand precision types, accumulation type, component counts and the
    number of primitive operations of a dot product:

        #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  }];
  let parameters = (ins "::mlir::Type":$lhs_precision_type,
                        "::mlir::Type":$rhs_precision_type,
                        "::mlir::Type":$accumulation_type,
                        "int64_t":$lhs_component_count,
                        "int64_t":$rhs_component_count,
                        "int64_t":$num_primitive_operations,
                        "bool":$allow_imprecise_accumulation);
  let assemblyFormat = [{
    `<` `lhs_precision_type` `=` $lhs_precision_type `,`
    `rhs_precision_type` `=` $rhs_precision_type `,`
    `accumulation_type` `=` $accumulation_type `,`
    `lhs_component_count` `=` $lhs_component_count `,`
    `rhs_component_count` `=` $rhs_component_count `,`
    `num_primitive_operations` `=` $num_primitive_operations `,`
    `allow_imprecise_accumulation` `=` $allow_imprecise_accumulation `>`
  }];
}

def Stablehlo_OutputOperandAlias
    : Stablehlo_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "A custom call's output that shares an operand's buffer";
  let description = [{
    Output (tuple path `output_tuple_indices`, empty for a tensor) aliases
    operand `operand_index` (tuple path `operand_tuple_indices`):

        #stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [1]>
  }];
  let parameters = (ins Stablehlo_Dims:$output_tuple_indices,
                        "int64_t":$operand_index,
                        Stablehlo_Dims:$operand_tuple_indices);
  let assemblyFormat = [{
    `<` `output_tuple_indices` `=` $output_tuple_indices `,`
    `operand_index` `=` $operand_index `,`
    `operand_tuple_indices` `=` $operand_tuple_indices `>`
  }];
}

def Stablehlo_ChannelHandle : Stablehlo_Attr<"ChannelHandle", "channel_handle"> {
  let summary = "The channel of a collective or send/recv";
  let description = [{
    `handle` identifies the channel, `type` its kind (0 invalid, 1 device to
    device, 2 device to host, 3 host to device):

        #stablehlo.channel_handle<handle = 1, type = 1>
  }];
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Stablehlo_ResultAccuracyAttr
    : Stablehlo_Attr<"ResultAccuracy", "result_accuracy"> {
  let summary = "The accuracy a transcendental op must meet";
  let description = [{
    `|result - exact| <= atol + rtol * |exact|` or within `ulps` units in
    the last place, in `mode = TOLERANCE`; zero fields are not printed:

        #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>
        #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>
  }];
  let parameters = (ins "::llvm::APFloat":$atol, "::llvm::APFloat":$rtol,
                        "int64_t":$ulps,
                        Stablehlo_ResultAccuracyModeAttr:$mode);
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_TypeExtensions : Stablehlo_Attr<"TypeExtensions",
    "type_extensions",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "The bounds of a tensor type's dynamic dimensions";
  let description = [{
    The encoding of a ranked tensor type: `bounds[d]` bounds dynamic
    dimension `d` (`?` for a static or unbounded one):

        tensor<?x4xf32, #stablehlo.bounds<16, ?>>

    Printed `#stablehlo.bounds<...>`; `#stablehlo.type_extensions<bounds =
    [16, ?]>` parses too.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$bounds);
  let hasCustomAssemblyFormat = 1;
}

#endif // SDPA_STABLEHLO_ATTRS_TD
