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

def SdpaLowerExp2 : Pass<"sdpa-lower-exp2", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the kernels' approximable f32 exp2 to one ex2.approx.ftz.f32 each";
  let description = [{
    Rewrites every scalar f32 `math.exp2` of a kernel module that carries the
    `afn` fast-math flag into the NVVM intrinsic `llvm.nvvm.ex2.approx.ftz.f`
    (PTX `ex2.approx.ftz.f32`, one MUFU.EX2). Left to `convert-gpu-to-nvvm`,
    `math.exp2` becomes libdevice's `__nv_exp2f`, that is `ex2.approx.f32`,
    which keeps subnormal results: ptxas wraps the MUFU in a range test and
    two multiplies, four instructions where one does.

    The flush changes only results below 2^-126 (docs/Semantics.md §2.5).
    The convert passes mark the exponentials where it was measured to pay
    (`flushesExponentials` in Analysis/KernelDefaults.h: every kernel but
    narrow bands up to head dim 64); an unmarked exponential, or one of
    another type, keeps the upstream lowering.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def SdpaCheckIndexRange : Pass<"sdpa-check-index-range", "::mlir::ModuleOp"> {
  let summary = "Refuse attention whose static shapes a 32-bit index cannot address";
  let description = [{
    The first pass of the lowering pipelines at `index-bitwidth=32`, whose
    kernels address every operand, result and workspace with 32-bit element
    offsets, at most 2^31 - 1. Every `sdpa.attention` and
    `sdpa.attention_grad` with an operand or result whose static shape holds
    more than 2^31 elements is an error naming it; the workspaces (dQ
    accumulator, Delta, relay counters, sink partials) hold no more elements
    than q. Dynamic sizes are the runtime's to check: it refuses such a call
    with `SDPA_ERROR_INDEX_RANGE` (docs/Runtime.md). `sdpa-import-stablehlo`
    declines such a site with a remark instead.
  }];
}

def SdpaNarrowKernelIndex
    : Pass<"sdpa-narrow-kernel-index", "::mlir::ModuleOp"> {
  let summary = "Prepare the kernel modules for a 32-bit index and lower their NVGPU ops at it";
  let description = [{
    The first step of the kernel lowering at `index-bitwidth=32`
    (docs/Performance.md, "Registers"). For every `gpu.module`:

    * the flat global memrefs its `gpu.func`s take (`kFlatExtent`, 2^40
      elements at a 64-bit index) become memrefs of 2^31 - 1 elements, the
      largest a 32-bit index holds (the extent is only a type: the kernels
      index them with runtime offsets);
    * its manifest in the `sdpa.artifacts` dictionary gains `index_bits 32`,
      so the runtime refuses any tensor whose last element's offset does not
      fit (docs/Artifact.md);
    * its NVGPU ops (ldmatrix, mma.sync, cp.async) are converted to NVVM
      under an LLVM type converter of index bitwidth 32 with bare-pointer
      kernel arguments. The upstream `convert-nvgpu-to-nvvm` pass converts at
      a 64-bit index only; every later conversion of the pipeline takes
      `index-bitwidth=32` itself;
    * an index cannot hold a pointer at 32 bits: each element pointer formed
      as `llvm.inttoptr(arith.index_cast(memref.extract_aligned_pointer_as_index
      %m))` (the backward's dQ atomics and relay counters) takes the aligned
      pointer of `%m`'s LLVM descriptor instead.

    A kernel module without a manifest, or whose manifest does not parse, is
    refused, and so is any other `memref.extract_aligned_pointer_as_index`.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
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
