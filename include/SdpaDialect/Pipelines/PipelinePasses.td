//===- PipelinePasses.td - The lowering tail's passes ------*- tablegen -*-===//
//
// The passes that run after a convert pass inside the lowering pipelines:
// keep only the kernels, and write the artifact (docs/Artifact.md).
//
//===----------------------------------------------------------------------===//

#ifndef SDPA_PIPELINE_PASSES_TD
#define SDPA_PIPELINE_PASSES_TD

include "mlir/Pass/PassBase.td"

def SdpaStripHost : Pass<"sdpa-strip-host", "::mlir::ModuleOp"> {
  let summary = "Keep only the gpu.module kernels of a lowered module";
  let description = [{
    The ahead-of-time (artifact) mode: erases every top-level op that is not
    a `gpu.module` (the host program the convert passes emit, and anything
    else the input held), so that the GPU to NVVM pipeline sees only
    kernels. The runtime launches the kernels from the artifact; the
    `sdpa.artifacts` module attribute is kept.
  }];
}

def SdpaWriteArtifact : Pass<"sdpa-write-artifact", "::mlir::ModuleOp"> {
  let summary = "Write each compiled kernel module as PTX plus a manifest";
  let description = [{
    For every `gpu.binary` whose object holds PTX (`format = isa`) and whose
    name has a manifest in the module's `sdpa.artifacts` dictionary, writes
    `<dir>/<name>.ptx` and `<dir>/<name>.manifest` (docs/Artifact.md,
    version 1). With `name` set, the only kernel module is written under that
    name instead; a name (or symbol) other than 1 to 128 characters of
    `[A-Za-z0-9_.-]` not starting with `.` or `-` is refused. Each manifest is
    first parsed with the runtime's parser (lib/Schema) and its kernel records
    matched against the PTX's `.entry` points and their parameter counts;
    nothing is written unless every module passes. The IR is not changed.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\".\"",
           "Directory the artifact files are written to">,
    Option<"name", "name", "std::string", /*default=*/"\"\"",
           "File name stem for the single kernel module (default: its symbol)">,
  ];
}

#endif // SDPA_PIPELINE_PASSES_TD
