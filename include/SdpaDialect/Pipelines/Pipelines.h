//===- Pipelines.h - The sdpa lowering pipelines ----------------*- C++ -*-===//
//
// The registered pipelines (sdpa-forward-pipeline, sdpa-backward-pipeline,
// sdpa-pipeline), their builders as C++ functions for the libraries above
// (lib/Import calls buildAttentionConversions), the tail they share after the
// convert passes, the passes of that tail and the registration of what the
// lowering needs besides the dialects.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_PIPELINES_PIPELINES_H
#define SDPADIALECT_PIPELINES_PIPELINES_H

#include "SdpaDialect/Conversion/KernelOptions.h"
#include "SdpaDialect/Pipelines/KernelPipelineOptions.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::sdpa {

#define GEN_PASS_DECL
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "SdpaDialect/Pipelines/PipelinePasses.h.inc"

/// How a pipeline builder reports options it refuses (the pass registry's
/// error handler: the message reaches the user and the tool exits non-zero).
using PipelineErrorFn = function_ref<LogicalResult(const Twine &)>;

/// sdpa-forward-pipeline: sdpa-derive-bounds, convert-sdpa-to-gpu, the tail.
LogicalResult buildForwardPipeline(OpPassManager &pm,
                                   const ForwardPipelineOptions &options,
                                   PipelineErrorFn error);

/// sdpa-backward-pipeline: sdpa-derive-bounds, convert-sdpa-grad-to-gpu, the
/// tail.
LogicalResult buildBackwardPipeline(OpPassManager &pm,
                                    const BackwardPipelineOptions &options,
                                    PipelineErrorFn error);

/// sdpa-pipeline: convert-sdpa-to-gpu and convert-sdpa-grad-to-gpu, each
/// with its own tiles, then the tail.
LogicalResult buildAttentionPipeline(OpPassManager &pm,
                                     const AttentionPipelineOptions &options,
                                     PipelineErrorFn error);

/// What the convert passes leave on the host side: the complete host program
/// (gpu.launch_func and workspaces), or each site's op tagged with its
/// kernels for sdpa-export-ffi-calls (`host-program=false`).
enum class HostSide { Program, TaggedOps };

/// The convert passes of sdpa-pipeline without the tail, for a pipeline
/// that keeps the host (sdpa-stablehlo-pipeline, docs/Export.md).
LogicalResult buildAttentionConversions(OpPassManager &pm,
                                        const AttentionPipelineOptions &options,
                                        PipelineErrorFn error,
                                        HostSide host = HostSide::Program);

/// The tail all lowering pipelines share, after their convert passes: drop
/// the host side, run the upstream GPU to NVVM pipeline (PTX, bare
/// pointers), and write the artifact if asked.
void buildKernelsToArtifactPipeline(OpPassManager &pm,
                                    const KernelTargetOptions &target);

/// A whole single-direction pipeline: sdpa-derive-bounds with the tiles (and
/// a backward's dQ mode, whose default tiles it takes), the convert pass
/// `lowering`, createCheckLoweredPass, then buildKernelsToArtifactPipeline.
void buildLoweringPipeline(OpPassManager &pm, int64_t tileQ, int64_t tileKv,
                           std::unique_ptr<Pass> lowering,
                           const KernelTargetOptions &target,
                           DqModeOption dqMode = DqModeOption::Default);

/// convert-sdpa-to-gpu with a pipeline's forward options.
std::unique_ptr<Pass>
createForwardLowering(int64_t tileQ, int64_t tileKv, int64_t warps,
                      int64_t stages, HostSide host = HostSide::Program);

/// The manifest text of `record` (a kernel module's `sdpa.artifacts` entry)
/// for the artifact `<stem>.ptx`: the record with the `ptx` key after its
/// header line. The convert passes leave that key to sdpa-write-artifact;
/// the schema's parser needs it.
std::string getManifestWithPtx(StringRef record, StringRef stem);

/// Checks the target options of `pipeline` (its CLI name, which every
/// message starts with): chip sm_80 or newer and known to LLVM's NVPTX
/// backend, features one PTX ISA of at least 7.0 and of the chip's
/// minimum, opt-level in [0, 3], index-bitwidth 32 or 64, and an
/// artifact-name that is a plain file stem.
LogicalResult checkKernelTargetOptions(StringRef pipeline,
                                       const KernelTargetOptions &target,
                                       PipelineErrorFn error);

/// Reports `problem` (a message of SdpaDialect/Conversion/KernelOptions.h,
/// empty if none) as an error of `pipeline`.
LogicalResult checkPipelineOption(StringRef pipeline,
                                  const std::string &problem,
                                  PipelineErrorFn error);

/// Checks the options every lowering pipeline has (tile-q, tile-kv and the
/// target) before `pipeline` adds a pass.
template <typename Derived>
LogicalResult
checkKernelPipelineOptions(StringRef pipeline,
                           const KernelPipelineOptions<Derived> &options,
                           PipelineErrorFn error) {
  if (failed(checkPipelineOption(
          pipeline, checkTileOption("tile-q", options.tileQ), error)) ||
      failed(checkPipelineOption(
          pipeline, checkTileOption("tile-kv", options.tileKv), error)))
    return failure();
  return checkKernelTargetOptions(pipeline, options.getTargetOptions(),
                                  error);
}

/// Why kernels at a 32-bit index cannot address `op` (an sdpa.attention or
/// sdpa.attention_grad): its first operand or result whose static shape
/// holds more than 2^31 elements, named in a message; nullopt if none does
/// (lib/Pipelines/CheckIndexRange.cpp).
std::optional<std::string> getIndexRangeProblem(Operation *op);

/// Fails on every sdpa op that carries no `sdpa.kernel` tag, i.e. that no
/// convert pass lowered (lib/Pipelines/CheckLowered.cpp); the pipelines run
/// it before their tail erases the host side.
std::unique_ptr<Pass> createCheckLoweredPass();

/// Registers the pipeline `arg` whose options are `Options`; unlike
/// PassPipelineRegistration, `build` may refuse the options (a failure with
/// its diagnostic, not a truncated pipeline).
template <typename Options>
void registerCheckedPipeline(StringRef arg, StringRef description,
                             LogicalResult (*build)(OpPassManager &,
                                                    const Options &,
                                                    PipelineErrorFn)) {
  registerPassPipeline(
      arg, description,
      [build](OpPassManager &pm, StringRef text, PipelineErrorFn error) {
        Options options;
        if (failed(options.parseFromString(text)))
          return failure();
        return build(pm, options, error);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(Options());
      });
}

/// Registers sdpa-forward-pipeline, sdpa-backward-pipeline, sdpa-pipeline
/// and the tail's passes (sdpa-strip-host, sdpa-write-artifact).
void registerSdpaPipelines();

/// Registers the dialects the lowering emits and what it needs besides: the
/// to-LLVM conversion interfaces, the builtin/llvm/gpu/nvvm LLVM IR
/// translations and the NVVM target attribute's serialization.
void registerSdpaLoweringDependencies(DialectRegistry &registry);

} // namespace mlir::sdpa

#endif // SDPADIALECT_PIPELINES_PIPELINES_H
