//===- KernelPipelineOptions.h - Options of the lowering pipelines -*- C++ -*-//
//
// The options of sdpa-forward-pipeline, sdpa-backward-pipeline and
// sdpa-pipeline: the tiles, the target (chip, PTX features, NVVM
// optimization level) and the artifact they share, and what each adds.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_PIPELINES_KERNELPIPELINEOPTIONS_H
#define SDPADIALECT_PIPELINES_KERNELPIPELINEOPTIONS_H

#include "SdpaDialect/Conversion/KernelOptions.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::sdpa {

/// Where the lowered kernels go: the target and the optional artifact.
struct KernelTargetOptions {
  std::string chip, features;
  int optLevel = 3;
  /// Write <artifactDir>/<artifactName>.{ptx,manifest}; empty: do not.
  std::string artifactDir, artifactName;
  /// The kernels' index arithmetic: 64, or 32 (sdpa-narrow-kernel-index;
  /// the runtime then refuses element offsets past 2^31 - 1).
  int indexBitwidth = 64;
};

/// The tile, target and artifact options of a lowering pipeline whose
/// options are `Derived` (the CRTP of PassPipelineOptions).
template <typename Derived>
struct KernelPipelineOptions : public PassPipelineOptions<Derived> {
  template <typename DataType>
  using Option = mlir::detail::PassOptions::Option<DataType>;

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
  Option<int> indexBitwidth{
      *this, "index-bitwidth",
      llvm::cl::desc("Width of the kernels' index arithmetic: 64, or 32 "
                     "(1-3% faster; the runtime refuses a tensor whose last "
                     "element's offset exceeds 2^31 - 1)"),
      llvm::cl::init(64)};
  Option<int64_t> tileQ;
  Option<int64_t> tileKv;

  /// These options as buildKernelsToArtifactPipeline takes them.
  KernelTargetOptions getTargetOptions() const {
    return {chip, features, optLevel, artifactDir, artifactName,
            indexBitwidth};
  }

protected:
  /// `tileKvHelp` (a string literal) describes `tile-kv`. Both default to 0:
  /// each op takes the default tile rule (lib/Analysis/KernelDefaults.cpp).
  explicit KernelPipelineOptions(StringRef tileKvHelp)
      : tileQ{*this, "tile-q",
              llvm::cl::desc("Query rows per tile (0: the default tile rule, "
                             "lib/Analysis/KernelDefaults.cpp)"),
              llvm::cl::init(0)},
        tileKv{*this, "tile-kv", llvm::cl::desc(tileKvHelp),
               llvm::cl::init(0)} {}
};

/// sdpa-forward-pipeline: the tiles, warps and stages (0: the default tile
/// rule).
struct ForwardPipelineOptions
    : public KernelPipelineOptions<ForwardPipelineOptions> {
  ForwardPipelineOptions()
      : KernelPipelineOptions("Keys per tile (0: the default tile rule)") {}

  Option<int64_t> warps{
      *this, "warps",
      llvm::cl::desc("Warps per block (0: the default tile rule's)"),
      llvm::cl::init(0)};
  Option<int64_t> stages{*this, "stages",
                         llvm::cl::desc("Shared-memory stages of K/V"),
                         llvm::cl::init(2)};
};

/// sdpa-backward-pipeline: the tiles (0: the default tile rule).
struct BackwardPipelineOptions
    : public KernelPipelineOptions<BackwardPipelineOptions> {
  BackwardPipelineOptions()
      : KernelPipelineOptions(
            "Keys per tile (one warp per 16; 0: the default tile rule)") {}

  /// As convert-sdpa-grad-to-gpu's `dq-mode`.
  Option<DqModeOption> dqMode{
      *this, "dq-mode",
      llvm::cl::desc("How dQ is formed: default (the rule), accumulate or "
                     "recompute"),
      llvm::cl::init(DqModeOption::Default), getDqModeOptionValues()};
};

/// sdpa-pipeline: `tile-q`, `tile-kv`, `warps`, `stages` are the forward's
/// (as in sdpa-forward-pipeline); `backward-tile-q`, `backward-tile-kv` the
/// backward's tiles (as in sdpa-backward-pipeline); 0: the default tile rule.
struct AttentionPipelineOptions
    : public KernelPipelineOptions<AttentionPipelineOptions> {
  AttentionPipelineOptions()
      : KernelPipelineOptions(
            "Keys per forward tile (0: the default tile rule)") {}

  Option<int64_t> warps{
      *this, "warps",
      llvm::cl::desc("Warps per forward block (0: the default tile rule's)"),
      llvm::cl::init(0)};
  Option<int64_t> stages{*this, "stages",
                         llvm::cl::desc("Shared-memory stages of K/V (forward)"),
                         llvm::cl::init(2)};
  Option<int64_t> backwardTileQ{
      *this, "backward-tile-q",
      llvm::cl::desc("Query rows per backward tile (0: the default tile rule)"),
      llvm::cl::init(0)};
  Option<int64_t> backwardTileKv{
      *this, "backward-tile-kv",
      llvm::cl::desc(
          "Keys per backward tile (one warp per 16; 0: the default tile rule)"),
      llvm::cl::init(0)};
  Option<DqModeOption> backwardDqMode{
      *this, "backward-dq-mode",
      llvm::cl::desc("How the backward forms dQ: default (the rule), "
                     "accumulate or recompute"),
      llvm::cl::init(DqModeOption::Default), getDqModeOptionValues()};
};

} // namespace mlir::sdpa

#endif // SDPADIALECT_PIPELINES_KERNELPIPELINEOPTIONS_H
