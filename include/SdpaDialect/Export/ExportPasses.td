//===- ExportPasses.td - Export to XLA FFI calls -----------*- tablegen -*-===//

#ifndef SDPA_EXPORT_PASSES_TD
#define SDPA_EXPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def SdpaExportFfiCalls : Pass<"sdpa-export-ffi-calls", "::mlir::ModuleOp"> {
  let summary = "Replace each lowered attention site by an XLA FFI custom call to its kernels";
  let description = [{
    Runs after `convert-sdpa-to-gpu` / `convert-sdpa-grad-to-gpu`, which tag
    every `sdpa.attention` and `sdpa.attention_grad` with the kernel module
    it lowered to (`sdpa.kernel`) and record the module's manifest in
    `sdpa.artifacts`. Each site becomes a `stablehlo.custom_call` in XLA's
    typed FFI convention (`api_version = 4`), calling the runtime's FFI
    handler (docs/Export.md):

        sdpa_forward(Q, K, V) -> (O, LSE)
        sdpa_backward(Q, K, V, O, dO, LSE)
            -> (dQ, dK, dV, dQ_accum, Delta, relay_counters)

    with a typed `backend_config` dictionary: `artifact` (the artifact's
    path stem, `<artifact-dir>/<module name>`), `kernel` (the artifact's
    forward or `bwd_main` kernel), `layout` (`"bhsd"` | `"bshd"`),
    `left`, `right` (i64 band widths, `-1` = unbounded), `bottom_right`,
    `scale` (f32) and, for the backward, `deterministic`. The backward's
    workspaces are extra results that nothing reads, so XLA allocates them:
    `dQ_accum` f32 `[B, Hq, Sq, D]`, `Delta` f32 `[B, Hq, Sq]` and
    `relay_counters` i32 `[B, Hq, ceil(Sq / tile_q)]` (`tile_q` from the
    manifest; read only by a deterministic backward, present always so that
    the call has one signature). Operand and result layouts are row-major.
    Everything else in the module is left as it was.

    The kernel modules and their manifests then move into a nested
    `builtin.module @sdpa_kernels`, so that the kernel pipeline
    (GPU to NVVM, artifacts) runs on them alone and `sdpa-drop-kernels`
    can remove them afterwards.

    Only static shapes and the dense layouts are exported; a THD site, a
    site with per-batch lengths or an untagged site is an error naming it,
    and the module is left unchanged.

    Example (`%q: tensor<1x256x4x64xbf16>`, `%k`, `%v`:
    `tensor<1x256x1x64xbf16>`):

        %0:2 = stablehlo.custom_call @sdpa_forward(%q, %k, %v)
            {api_version = 4 : i32, backend_config = {artifact = "out/sdpa_fwd_0",
             bottom_right = false, kernel = "sdpa_fwd_0", layout = "bshd",
             left = 127 : i64, right = 0 : i64, scale = 1.250000e-01 : f32}, ...}
    }];
  let options = [
    Option<"artifactDir", "artifact-dir", "std::string", /*default=*/"\"\"",
           "Directory the artifacts are written to (prefixes `artifact`)">,
    Option<"artifactName", "artifact-name", "std::string", /*default=*/"\"\"",
           "Stem of the one artifact, if the kernel pipeline renames it">,
  ];
  let dependentDialects = ["::mlir::sdpa::shlo::StablehloDialect"];
}

def SdpaDropKernels : Pass<"sdpa-drop-kernels", "::mlir::ModuleOp"> {
  let summary = "Erase the nested kernel module once its artifacts are written";
  let description = [{
    Removes the `builtin.module @sdpa_kernels` that `sdpa-export-ffi-calls`
    set apart, so that what remains is the host module alone (StableHLO
    with FFI calls, which JAX compiles). Any other nested module stays.
  }];
}

#endif // SDPA_EXPORT_PASSES_TD
