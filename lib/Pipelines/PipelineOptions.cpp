//===- PipelineOptions.cpp - Checking the lowering pipelines' options -----===//
//
// Every option of sdpa-forward-pipeline, sdpa-backward-pipeline and
// sdpa-pipeline is checked here before a pass is added: tiles, warps and
// stages by their ranges (SdpaDialect/Conversion/KernelOptions.h), the
// target against what the kernels need and what LLVM's NVPTX backend knows
// (a chip of sm_80 or newer, a PTX ISA of at least 7.0 and at least the
// chip's own minimum), the optimization level, and the artifact name. A
// refused option fails the pipeline with a message that names it.
//
//===----------------------------------------------------------------------===//

#include "SdpaDialect/Conversion/KernelOptions.h"
#include "SdpaDialect/Pipelines/Pipelines.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
}

using namespace mlir;
using namespace mlir::sdpa;

namespace {
/// The oldest chip the kernels run on (mma.sync m16n8k16 with bf16,
/// cp.async, ldmatrix) and the oldest PTX ISA that has all three.
constexpr unsigned kMinSm = 80;
constexpr unsigned kMinPtx = 70;

/// `error` with the pipeline's name in front.
LogicalResult refuse(PipelineErrorFn error, StringRef pipeline,
                     const Twine &message) {
  return error(pipeline + ": " + message);
}

/// The NVPTX backend's view of `chip`, or null if it has no such target.
std::unique_ptr<llvm::MCSubtargetInfo> nvptxSubtarget(StringRef chip) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
  });
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target->createMCSubtargetInfo(triple, chip, ""));
}

/// The PTX ISA version (as in `ptx78`) of a feature key, or 0.
unsigned ptxVersion(StringRef feature) {
  unsigned version = 0;
  if (!feature.consume_front("ptx") || feature.getAsInteger(10, version))
    return 0;
  return version;
}

/// The smallest PTX ISA (as in 78 for 7.8) that has `chip`, from NVIDIA's
/// PTX ISA notes; 0 for a chip not listed, which is refused. (LLVM aborts
/// on an older one instead of reporting it.)
unsigned minimumPtxOf(StringRef chip) {
  return llvm::StringSwitch<unsigned>(chip)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Case("sm_89", 78)
      .Case("sm_90", 78)
      .Case("sm_90a", 80)
      .Case("sm_100", 86)
      .Case("sm_100a", 86)
      .Case("sm_120", 87)
      .Case("sm_120a", 87)
      .Default(0);
}
} // namespace

LogicalResult mlir::sdpa::checkKernelTargetOptions(
    StringRef pipeline, const KernelTargetOptions &target,
    PipelineErrorFn error) {
  // chip: sm_<N> with an optional a/f suffix, N >= 80, known to LLVM.
  StringRef number = target.chip;
  unsigned sm = 0;
  if (number.consume_front("sm_"))
    number = number.rtrim("af");
  if (!StringRef(target.chip).starts_with("sm_") ||
      number.getAsInteger(10, sm))
    return refuse(error, pipeline,
                  "expected chip of the form sm_<N> (sm_80 or newer), got '" +
                      target.chip + "'");
  if (sm < kMinSm)
    return refuse(error, pipeline,
                  "expected chip sm_80 or newer (the kernels use mma.sync, "
                  "cp.async and ldmatrix of sm_80), got '" +
                      target.chip + "'");
  std::unique_ptr<llvm::MCSubtargetInfo> sti = nvptxSubtarget(target.chip);
  if (!sti || !sti->isCPUStringValid(target.chip))
    return refuse(error, pipeline,
                  "expected chip to be a target of LLVM's NVPTX backend, "
                  "got '" +
                      target.chip + "'");

  // features: exactly one +ptx<NN>, NN >= 70, known to LLVM, and at least
  // what the chip needs.
  StringRef features = target.features;
  unsigned ptx = 0;
  if (features.consume_front("+"))
    ptx = ptxVersion(features);
  if (ptx == 0)
    return refuse(error, pipeline,
                  "expected features to be one PTX ISA version, +ptx<NN> "
                  "(+ptx70 or newer), got '" +
                      target.features + "'");
  if (ptx < kMinPtx)
    return refuse(error, pipeline,
                  "expected features of PTX ISA 7.0 or newer (+ptx70), got '" +
                      target.features + "'");
  bool known = llvm::any_of(sti->getAllProcessorFeatures(),
                            [&](const llvm::SubtargetFeatureKV &feature) {
                              return features == feature.Key;
                            });
  if (!known)
    return refuse(error, pipeline,
                  "expected features to be a PTX ISA version LLVM's NVPTX "
                  "backend knows, got '" +
                      target.features + "'");
  unsigned minimum = minimumPtxOf(target.chip);
  if (minimum == 0)
    return refuse(error, pipeline,
                  "expected chip sm_80, sm_86, sm_87, sm_89, sm_90(a), "
                  "sm_100(a) or sm_120(a), got '" +
                      target.chip + "'");
  if (ptx < minimum)
    return refuse(error, pipeline,
                  "expected features of at least +ptx" + Twine(minimum) +
                      " for chip " + target.chip + ", got '" +
                      target.features + "'");

  if (target.optLevel < 0 || target.optLevel > 3)
    return refuse(error, pipeline,
                  "expected opt-level in [0, 3], got " +
                      Twine(target.optLevel));

  if (target.indexBitwidth != 32 && target.indexBitwidth != 64)
    return refuse(error, pipeline,
                  "expected index-bitwidth 32 or 64, got " +
                      Twine(target.indexBitwidth));

  // artifact-name: a file stem inside artifact-dir, nothing the manifest's
  // line format or a path could misread.
  StringRef name = target.artifactName;
  bool plain = llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
  });
  if (!plain || name.starts_with("."))
    return refuse(error, pipeline,
                  "expected artifact-name to be a file stem of letters, "
                  "digits, '_', '-' and '.' (not first), got '" +
                      name + "'");
  return success();
}

LogicalResult mlir::sdpa::checkPipelineOption(StringRef pipeline,
                                              const std::string &problem,
                                              PipelineErrorFn error) {
  if (problem.empty())
    return success();
  return refuse(error, pipeline, problem);
}
