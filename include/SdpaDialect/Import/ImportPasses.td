//===- ImportPasses.td - StableHLO import passes -----------*- tablegen -*-===//

#ifndef SDPA_IMPORT_PASSES_TD
#define SDPA_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def SdpaImportStablehlo : Pass<"sdpa-import-stablehlo", "::mlir::ModuleOp"> {
  let summary = "Import attention from StableHLO into sdpa ops, exactly or not at all";
  let description = [{
    Rewrites the attention that JAX expresses in StableHLO into
    `sdpa.attention` / `sdpa.attention_grad` (docs/Import.md):

    * `stablehlo.custom_call @__cudnn$fmhaSoftmax` and
      `@__cudnn$fmhaSoftmaxBackward`: `backend_config` gives the scale,
      the mask (`mask_type`, `sliding_window_length = n` keys: `left = n - 1`;
      causal: `right = 0`, else `inf`; top-left), the layout (from the bmm
      dot dimension numbers) and, for padding masks, the per-batch lengths
      operands. The transposes JAX puts after the call are absorbed.
      A cuDNN variant we do not implement (bias, dropout, fp8, paged,
      packed segments) or a malformed config is an error naming it, and the
      module is left unchanged.
    * `stablehlo.composite "sdpa.attention"` with the attributes of the
      convention in docs/Import.md; a composite that does not follow it is
      kept (its decomposition stays the meaning) with a remark.
    * XLA-decomposed forward graphs (dot_general, scale, masked select,
      softmax, dot_general): the mask is recovered symbolically as a
      conjunction of half-planes `q - k <= c` / `q - k >= c`, then verified
      cell by cell against the band over the static shape. A graph that is
      not exactly attention under a band is left as it was with a remark
      saying why; an imported one gets a remark with the band and the
      number of cells checked. The logit softcap `c * tanh(S / c)` (the
      same constant c dividing and multiplying, right after the scale) is
      `softcap = c`; its backward's `dS` carries the factor `1 - tanh^2`.
      A per-head sink logit concatenated as one more key column and sliced
      off the probabilities is `sinks(%s)` (forward only for now).

    With `check-lowering`, as `sdpa-stablehlo-pipeline` runs it, a
    decomposed site whose op the gpu lowerings refuse (with the tiles of
    `lowering`: a head dim outside the schema's table, tiles that do not
    fit, a modifier not lowered yet), or that the FFI call cannot state
    (sinks, for now), is declined with the reason, so the module still
    compiles; a refused backward leaves the forward imported.
  }];
  let options = [
    Option<"decomposed", "decomposed", "bool", /*default=*/"true",
           "Recover attention from XLA-decomposed graphs">,
    Option<"checkLowering", "check-lowering", "bool", /*default=*/"false",
           "Decline a decomposed site whose sdpa op the gpu lowerings refuse "
           "(with `lowering`'s tiles), with their diagnostic">,
    Option<"lowering", "lowering", "std::string", /*default=*/"\"\"",
           "Options of sdpa-pipeline that check-lowering checks against">,
  ];
  let dependentDialects = ["::mlir::sdpa::SdpaDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // SDPA_IMPORT_PASSES_TD
