//===- StablehloRegionOps.td - Stablehlo ops with bodies ----*- tablegen -*-===//
//
// The ops of the StableHLO specification that hold regions: reductions
// (reduce, reduce_window, select_and_scatter, scatter, sort, map), control
// flow (while, if, case) and the terminator of them all, return. All but
// while are as pure as their bodies (RecursiveMemoryEffects and
// RecursivelySpeculatable), so a reduction left unused is dead code.
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_STABLEHLO_REGIONOPS_TD
#define SDPA_STABLEHLO_REGIONOPS_TD

include "SdpaDialect/StableHLO/StablehloBase.td"

def Stablehlo_ReturnOp : Stablehlo_Op<"return", [Pure, Terminator]> {
  let summary = "Returns the values of a region";
  let description = [{
    Ends the body of every region-holding op:

        stablehlo.return %1 : tensor<f32>
  }];
  let arguments = (ins Variadic<Stablehlo_Value>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

def Stablehlo_ReduceOp : Stablehlo_Op<"reduce", [RecursiveMemoryEffects,
    RecursivelySpeculatable,
    SameVariadicOperandSize]> {
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
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Variadic<Stablehlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Stablehlo_Tensor>:$results);
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

def Stablehlo_ReduceWindowOp : Stablehlo_Op<"reduce_window", [
    RecursiveMemoryEffects, RecursivelySpeculatable, SameVariadicOperandSize]> {
  let summary = "Reduce every window of tensors";
  let description = [{
    `results[k][i] = reduce(window of inputs[k] at i * window_strides)`
    with the window of `window_dimensions` (dilated by
    `window_dilations`) over the inputs padded by `padding` (`[lo, hi]`
    per dimension) and dilated by `base_dilations`; `body` as in `reduce`.
    Generic form:

        %1 = "stablehlo.reduce_window"(%0, %c) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}> ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %m = stablehlo.maximum %a, %b : tensor<f32>
          stablehlo.return %m : tensor<f32>
        }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x3xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Variadic<Stablehlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<Stablehlo_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def Stablehlo_SelectAndScatterOp : Stablehlo_Op<"select_and_scatter", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    AllTypesMatch<["operand", "result"]>]> {
  let summary = "Scatter into the element each window selects";
  let description = [{
    For every window of `operand` (as in `reduce_window`), `select` picks
    one element (a 0-d `i1` "keep the first" predicate); `source[i]`, for
    the window `i`, is combined into the result at that element with
    `scatter`, starting from `init_value`. Generic form.
  }];
  let arguments = (ins Stablehlo_Tensor:$operand, Stablehlo_Tensor:$source,
                       Stablehlo_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Stablehlo_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
}

def Stablehlo_ScatterOp : Stablehlo_Op<"scatter", [RecursiveMemoryEffects,
    RecursivelySpeculatable,
    SameVariadicOperandSize]> {
  let summary = "Combine updates into tensors at indices";
  let description = [{
    `results = inputs`, then for every update index the element of
    `updates[k]` combined into `results[k]` by `update_computation` at the
    position `scatter_dimension_numbers` maps it to through
    `scatter_indices`. Generic form:

        %3 = "stablehlo.scatter"(%0, %1, %2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %s : tensor<f32>
        }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Stablehlo_IntTensor:$scatter_indices,
                       Variadic<Stablehlo_Tensor>:$updates,
                       Stablehlo_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<Stablehlo_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasVerifier = 1;
}

def Stablehlo_SortOp : Stablehlo_Op<"sort", [RecursiveMemoryEffects,
    RecursivelySpeculatable,
    SameOperandsAndResultShape]> {
  let summary = "Sort tensors along one dimension";
  let description = [{
    Sorts all `inputs` together along `dimension` (-1: the last) by
    `comparator`, which takes two elements of each input
    (`lhs0, rhs0, lhs1, rhs1, ...`) and returns a 0-d `i1` "lhs before
    rhs". Generic form:

        %1:2 = "stablehlo.sort"(%0, %i) <{dimension = 0 : i64, is_stable = true}> ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
          %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
          stablehlo.return %lt : tensor<i1>
        }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       DefaultValuedOptionalAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<Stablehlo_Tensor>);
  let regions = (region SizedRegion<1>:$comparator);
  let hasVerifier = 1;
}

def Stablehlo_MapOp : Stablehlo_Op<"map", [RecursiveMemoryEffects,
    RecursivelySpeculatable,
    SameOperandsAndResultShape]> {
  let summary = "Apply a body elementwise";
  let description = [{
    `result[i] = computation(inputs[0][i], inputs[1][i], ...)`, the body on
    0-d tensors, over all `dimensions` (which must be `0, 1, ..., rank-1`).
    Generic form.
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Stablehlo_Tensor);
  let regions = (region SizedRegion<1>:$computation);
}

def Stablehlo_WhileOp : Stablehlo_Op<"while", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getAsmBlockArgumentNames"]>]> {
  let summary = "Loop while a condition holds";
  let description = [{
    `x = operand; while (cond(x)) x = body(x); results = x`. Both regions
    take the loop values; `cond` returns a 0-d `i1`:

        %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %x) : tensor<i64>, tensor<4xf32>
        cond {
          %1 = stablehlo.compare LT, %iterArg, %c10, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
          stablehlo.return %1 : tensor<i1>
        } do {
          %1 = stablehlo.add %iterArg, %c1 : tensor<i64>
          stablehlo.return %1, %iterArg_0 : tensor<i64>, tensor<4xf32>
        }
  }];
  let arguments = (ins Variadic<Stablehlo_Value>:$operand);
  let results = (outs Variadic<Stablehlo_Value>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def Stablehlo_IfOp : Stablehlo_Op<"if", [RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "Run one of two regions";
  let description = [{
    `results = pred ? true_branch() : false_branch()`; both return the
    result types. Generic form:

        %2 = "stablehlo.if"(%p) ({
          stablehlo.return %a : tensor<f32>
        }, {
          stablehlo.return %b : tensor<f32>
        }) : (tensor<i1>) -> tensor<f32>
  }];
  let arguments = (ins 0DTensorOf<[I1]>:$pred);
  let results = (outs Variadic<Stablehlo_Value>);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
  let hasRegionVerifier = 1;
}

def Stablehlo_CaseOp : Stablehlo_Op<"case", [RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "Run one of several regions";
  let description = [{
    `results = branches[index]()`, an out-of-range index running the last
    branch. Generic form:

        %1 = "stablehlo.case"(%i) ({
          stablehlo.return %a : tensor<f32>
        }, {
          stablehlo.return %b : tensor<f32>
        }) : (tensor<i32>) -> tensor<f32>
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<Stablehlo_Value>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasRegionVerifier = 1;
}

#endif // SDPA_STABLEHLO_REGIONOPS_TD
