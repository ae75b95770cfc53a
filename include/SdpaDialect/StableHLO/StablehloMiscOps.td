//===- StablehloMiscOps.td - Contractions, calls and the rest -*- tablegen -*-===//
//
// dot_general and convolution, custom_call and composite, FFT, random
// numbers, linear algebra, batch normalization, optimization barriers.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_MISCOPS_TD
#define SDPA_STABLEHLO_MISCOPS_TD

include "SdpaDialect/StableHLO/StablehloBase.td"

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def Stablehlo_DotGeneralOp : Stablehlo_Op<"dot_general", [Pure]> {
  let summary = "Batched tensor contraction";
  let description = [{
    Contracts `lhs` and `rhs` over the paired contracting dimensions, batched
    over the paired batching dimensions. The result dimensions are the batch
    dimensions (in lhs order), then lhs's free dimensions, then rhs's:

        result[b, l, r] = sum_c lhs[b, l, c] * rhs[b, r, c]

        %1 = stablehlo.dot_general %0, %arg1, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x256x16x1x64xbf16>, tensor<2x256x16x64xbf16>) -> tensor<2x16x256x1x256xf32>

    `batching_dims` is printed only when there are batch dimensions;
    `precision` and `algorithm` (`#stablehlo.dot_algorithm<...>` without
    its prefix) are optional. The generic form holds
    `dot_dimension_numbers = #stablehlo.dot<...>`.
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       Stablehlo_DotDimensionNumbers:$dot_dimension_numbers,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config,
                       OptionalAttr<Stablehlo_DotAlgorithmAttr>:$algorithm);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) ``
    custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getLhsBatchingDimensions() {
      return getDotDimensionNumbers().getLhsBatchingDimensions();
    }
    ::llvm::ArrayRef<int64_t> getRhsBatchingDimensions() {
      return getDotDimensionNumbers().getRhsBatchingDimensions();
    }
    ::llvm::ArrayRef<int64_t> getLhsContractingDimensions() {
      return getDotDimensionNumbers().getLhsContractingDimensions();
    }
    ::llvm::ArrayRef<int64_t> getRhsContractingDimensions() {
      return getDotDimensionNumbers().getRhsContractingDimensions();
    }
  }];
}

def Stablehlo_ConvolutionOp : Stablehlo_Op<"convolution", [Pure]> {
  let summary = "Windowed contraction of an input with a kernel";
  let description = [{
    For each output position, the dot product of the kernel with the
    window of the (padded, `lhs_dilation`-dilated) input it covers, the
    kernel dilated by `rhs_dilation` and moved by `window_strides`, with
    feature and batch groups. `dim_numbers` names the layout (`b` batch,
    `f` feature, `i`/`o` kernel input/output feature, numbers spatial):

        %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$feature_group_count,
                       ConfinedAttr<I64Attr, [IntPositive]>:$batch_group_count,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    `(` operands `)` `dim_numbers` `=`
    custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{`
    custom<WindowAttributes>($window_strides, $padding, $lhs_dilation,
                             $rhs_dilation, $window_reversal) `}`
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Stablehlo_DynamicConvOp : Stablehlo_Op<"dynamic_conv", [Pure]> {
  let summary = "convolution with run-time padding";
  let description = [{
    `convolution` whose padding is the `[spatial dims, 2]` integer tensor
    `padding`. Generic form.
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       Stablehlo_IntTensor:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$feature_group_count,
                       ConfinedAttr<I64Attr, [IntPositive]>:$batch_group_count,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Stablehlo_Tensor:$result);
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

    `api_version` is the calling convention (0 unspecified, 1 original, 2
    status returning, 3 unified, 4 typed FFI, whose `backend_config` is a
    dictionary); layouts are minor-to-major physical layouts and do not
    change the values; `output_operand_aliases`
    (`#stablehlo.output_operand_alias<...>`) say which outputs reuse an
    operand's buffer; `called_computations` names functions the target
    may call.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       StrAttr:$call_target_name,
                       OptionalAttr<BoolAttr>:$has_side_effect,
                       OptionalAttr<AnyAttrOf<[StrAttr, DictionaryAttr]>>:$backend_config,
                       OptionalAttr<I32Attr>:$api_version,
                       OptionalAttr<TypedArrayAttrBase<FlatSymbolRefAttr,
                           "called functions">>:$called_computations,
                       OptionalAttr<ArrayAttr>:$operand_layouts,
                       OptionalAttr<ArrayAttr>:$result_layouts,
                       OptionalAttr<TypedArrayAttrBase<Stablehlo_OutputOperandAlias,
                           "output-operand aliases">>:$output_operand_aliases,
                       OptionalAttr<ArrayAttr>:$result_tilings);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    custom<CallTarget>($call_target_name) `(` $inputs `)` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
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

def Stablehlo_OptimizationBarrierOp
    : Stablehlo_Op<"optimization_barrier", [Pure]> {
  let summary = "Values no optimization moves across";
  let description = [{
    `result = operand`, but the ops that compute the operands happen before
    the ones that use the results:

        %1:2 = stablehlo.optimization_barrier %0, %t : tensor<4xf32>, !stablehlo.token
  }];
  let arguments = (ins Variadic<Stablehlo_TensorOrToken>:$operand);
  let results = (outs Variadic<Stablehlo_TensorOrToken>:$result);
  let assemblyFormat = [{
    attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// FFT, random numbers, linear algebra, batch normalization
//===----------------------------------------------------------------------===//

def Stablehlo_FftOp : Stablehlo_Op<"fft", [Pure]> {
  let summary = "Fourier transform over the minor dimensions";
  let description = [{
    FFT/IFFT on complex, RFFT (real to complex, `n/2 + 1` outputs in the
    last dimension) and IRFFT over the last `fft_length` dimensions:

        %1 = stablehlo.fft %0, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `type` `=` custom<EnumKeyword>($fft_type) `,` `length` `=`
    $fft_length attr-dict
    `:` functional-type(operands, results)
  }];
}

def Stablehlo_RngOp : Stablehlo_Op<"rng", [
    AllElementTypesMatch<["a", "b", "result"]>]> {
  let summary = "Random numbers of a distribution";
  let description = [{
    UNIFORM in `[a, b)` or NORMAL of mean `a` and deviation `b`, of shape
    `shape`:

        %2 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  }];
  let arguments = (ins 0DTensorOf<[AnyType]>:$a, 0DTensorOf<[AnyType]>:$b,
                       Stablehlo_ShapeTensor:$shape,
                       Stablehlo_RngDistributionAttr:$rng_distribution);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $shape `,` `distribution` `=`
    custom<EnumKeyword>($rng_distribution) attr-dict
    `:` functional-type(operands, results)
  }];
}

def Stablehlo_RngBitGeneratorOp : Stablehlo_Op<"rng_bit_generator", [Pure,
    AllTypesMatch<["initial_state", "output_state"]>]> {
  let summary = "Random bits from a generator state";
  let description = [{
    The next state and `output` filled with uniformly random bits, by
    `rng_algorithm` (DEFAULT, THREE_FRY, PHILOX):

        %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  }];
  let arguments = (ins Stablehlo_RngAlgorithmAttr:$rng_algorithm,
                       Stablehlo_Tensor:$initial_state);
  let results = (outs Stablehlo_Tensor:$output_state,
                      Stablehlo_Tensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` custom<EnumKeyword>($rng_algorithm)
    attr-dict `:`
    functional-type(operands, results)
  }];
}

def Stablehlo_CholeskyOp : Stablehlo_Op<"cholesky", [Pure,
    SameOperandsAndResultType]> {
  let summary = "Cholesky factors of a batch of matrices";
  let description = [{
    `result` lower (`lower = true`) or upper triangular with
    `a = L L^H` (or `U^H U`) for each matrix of the two minor dimensions:

        %1 = stablehlo.cholesky %0, lower = true : tensor<3x3xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$a, OptionalAttr<BoolAttr>:$lower);
  let results = (outs Stablehlo_Tensor:$result);
  let assemblyFormat = [{
    $a (`,` `lower` `=` $lower^)? attr-dict `:`
    custom<SameOperandsAndResultType>(type($a), type($result))
  }];
}

def Stablehlo_TriangularSolveOp : Stablehlo_Op<"triangular_solve", [Pure,
    AllTypesMatch<["b", "result"]>]> {
  let summary = "Solve triangular systems";
  let description = [{
    `op(a) x = b` (`left_side`) or `x op(a) = b`, `a` lower or upper
    triangular, `op` by `transpose_a`. Generic form:

        %2 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  }];
  let arguments = (ins Stablehlo_Tensor:$a, Stablehlo_Tensor:$b,
                       BoolAttr:$left_side, BoolAttr:$lower,
                       BoolAttr:$unit_diagonal,
                       Stablehlo_TransposeAttr:$transpose_a);
  let results = (outs Stablehlo_Tensor:$result);
}

def Stablehlo_BatchNormTrainingOp : Stablehlo_Op<"batch_norm_training",
    [Pure, AllTypesMatch<["operand", "output"]>]> {
  let summary = "Batch normalization with batch statistics";
  let description = [{
    Over all dimensions but `feature_index`: `mean`, `var` (biased), and
    `output = (operand - mean) / sqrt(var + epsilon) * scale + offset`.
    Generic form.
  }];
  let arguments = (ins Stablehlo_Tensor:$operand, Stablehlo_Tensor:$scale,
                       Stablehlo_Tensor:$offset, F32Attr:$epsilon,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index);
  let results = (outs Stablehlo_Tensor:$output,
                      Stablehlo_Tensor:$batch_mean,
                      Stablehlo_Tensor:$batch_var);
}

def Stablehlo_BatchNormInferenceOp : Stablehlo_Op<"batch_norm_inference",
    [Pure, AllTypesMatch<["operand", "result"]>]> {
  let summary = "Batch normalization with given statistics";
  let description = [{
    `result = (operand - mean) / sqrt(variance + epsilon) * scale + offset`
    per feature. Generic form.
  }];
  let arguments = (ins Stablehlo_Tensor:$operand, Stablehlo_Tensor:$scale,
                       Stablehlo_Tensor:$offset, Stablehlo_Tensor:$mean,
                       Stablehlo_Tensor:$variance, F32Attr:$epsilon,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index);
  let results = (outs Stablehlo_Tensor:$result);
}

def Stablehlo_BatchNormGradOp : Stablehlo_Op<"batch_norm_grad",
    [Pure, AllTypesMatch<["operand", "grad_operand"]>]> {
  let summary = "Gradients of batch normalization";
  let description = [{
    The gradients of `batch_norm_training` with respect to `operand`,
    `scale` and `offset`, from `grad_output`. Generic form.
  }];
  let arguments = (ins Stablehlo_Tensor:$operand, Stablehlo_Tensor:$scale,
                       Stablehlo_Tensor:$mean, Stablehlo_Tensor:$variance,
                       Stablehlo_Tensor:$grad_output, F32Attr:$epsilon,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$feature_index);
  let results = (outs Stablehlo_Tensor:$grad_operand,
                      Stablehlo_Tensor:$grad_scale,
                      Stablehlo_Tensor:$grad_offset);
}

#endif // SDPA_STABLEHLO_MISCOPS_TD
