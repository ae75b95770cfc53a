//===- KernelPipelineOptions.h - Options of the lowering pipelines -*- C++ -*-//
//
// The options sdpa-forward-pipeline and sdpa-backward-pipeline share: the
// tiles, the target (chip, PTX features, NVVM optimization level) and the
// artifact. Each pipeline derives its options from it, gives its tile
// defaults and adds what only it has.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELPIPELINEOPTIONS_H
#define SDPADIALECT_CONVERSION_KERNELPIPELINEOPTIONS_H

#include "SdpaDialect/Conversion/SdpaConversionPasses.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::sdpa {

/// The tile, target and artifact options of a lowering pipeline whose
/// options are `Derived` (the CRTP of PassPipelineOptions).
template <typename Derived>
struct KernelPipelineOptions : public PassPipelineOptions<Derived> {
  template <typename DataType>
  using Option = detail::PassOptions::Option<DataType>;

  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target SM"),
                           llvm::cl::init("sm_80")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX ISA feature"),
                               llvm::cl::init("+ptx80")};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("NVVM optimization level"),
                       llvm::cl::init(3)};
  Option<std::string> artifactDir{
      *this, "artifact-dir",
      llvm::cl::desc("Write <dir>/<name>.ptx and .manifest (empty: do not)"),
      llvm::cl::init("")};
  Option<std::string> artifactName{
      *this, "artifact-name",
      llvm::cl::desc("File stem of the single kernel module's artifact"),
      llvm::cl::init("")};
  Option<int64_t> tileQ;
  Option<int64_t> tileKv;

  /// These options as buildKernelsToArtifactPipeline takes them.
  KernelTargetOptions getTargetOptions() const {
    return {chip, features, optLevel, artifactDir, artifactName};
  }

protected:
  /// `tile-q` defaults to `defaultTileQ`; `tileKvHelp` (a string literal)
  /// describes `tile-kv`, which defaults to 64.
  KernelPipelineOptions(int64_t defaultTileQ, StringRef tileKvHelp)
      : tileQ{*this, "tile-q", llvm::cl::desc("Query rows per tile"),
              llvm::cl::init(defaultTileQ)},
        tileKv{*this, "tile-kv", llvm::cl::desc(tileKvHelp),
               llvm::cl::init(64)} {}
};

/// convert-sdpa-to-gpu with a pipeline's forward options.
std::unique_ptr<Pass> createForwardLowering(int64_t tileQ, int64_t tileKv,
                                            int64_t warps, int64_t stages);

/// A whole lowering pipeline: sdpa-derive-bounds with the tiles, the convert
/// pass `lowering`, then buildKernelsToArtifactPipeline.
void buildLoweringPipeline(OpPassManager &pm, int64_t tileQ, int64_t tileKv,
                           std::unique_ptr<Pass> lowering,
                           const KernelTargetOptions &target);

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELPIPELINEOPTIONS_H
