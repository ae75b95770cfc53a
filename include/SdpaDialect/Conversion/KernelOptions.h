//===- KernelOptions.h - Range checks of the kernel options -----*- C++ -*-===//
//
// The tile, warp and stage options of the convert passes (checked as a pass
// starts, so also where it runs outside the pipelines) and of the lowering
// pipelines, checked in one place before anything multiplies them: a value
// outside its range gets a message that names the option, and no product
// of two options is formed before both are known to be small. What depends
// on the op (head dim, shared memory, divisibility) stays with the kernels'
// specs.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_CONVERSION_KERNELOPTIONS_H
#define SDPADIALECT_CONVERSION_KERNELOPTIONS_H

#include "SdpaDialect/Analysis/TileBounds.h"
#include "SdpaDialect/Conversion/Sm80.h"
#include "SdpaDialect/DqModeOption.h"
#include "SdpaSchema/Schema.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace mlir::sdpa {

/// The largest `warps`: one block holds at most kMaxThreadsPerBlock threads.
constexpr int64_t kMaxWarps = sm80::kMaxThreadsPerBlock / sm80::kWarpSize;
/// The `stages` the forward takes: 2 (double buffer) or 3 (K and V copied
/// two tiles ahead). The option and the lowering check the same range.
constexpr int64_t kMinStages = 2;
constexpr int64_t kMaxStages = 3;

/// "expected <option> in [lo, hi], got <value>" unless lo <= value <= hi;
/// empty if it is in range.
inline std::string checkOptionRange(llvm::StringRef option, int64_t value,
                                    int64_t lo, int64_t hi) {
  if (value >= lo && value <= hi)
    return "";
  return "expected " + option.str() + " in [" + std::to_string(lo) + ", " +
         std::to_string(hi) + "], got " + std::to_string(value);
}

/// A tile option (`tile-q`, `tile-kv`, `backward-tile-q`, ...):
/// 0 <= value <= kMaxTileSize, the limit of the schedule's arithmetic; 0 is
/// unset (the default tile rule, Analysis/KernelDefaults.h).
inline std::string checkTileOption(llvm::StringRef option, int64_t value) {
  return checkOptionRange(option, value, 0, kMaxTileSize);
}

/// The forward's `warps` (0 <= warps <= kMaxWarps, so warps * 32 threads
/// fit a block; 0: the default rule's) and `stages`.
inline std::string checkForwardOptions(int64_t warps, int64_t stages) {
  std::string error = checkOptionRange("warps", warps, 0, kMaxWarps);
  if (error.empty())
    error = checkOptionRange("stages", stages, kMinStages, kMaxStages);
  return error;
}

/// The tile options `tile-q` and `tile-kv` of a convert pass.
inline std::string checkTileOptions(int64_t tileQ, int64_t tileKv) {
  std::string error = checkTileOption("tile-q", tileQ);
  if (error.empty())
    error = checkTileOption("tile-kv", tileKv);
  return error;
}

/// Every option of convert-sdpa-to-gpu: tiles, warps, stages.
inline std::string checkForwardPassOptions(int64_t tileQ, int64_t tileKv,
                                           int64_t warps, int64_t stages) {
  std::string error = checkTileOptions(tileQ, tileKv);
  if (error.empty())
    error = checkForwardOptions(warps, stages);
  return error;
}

} // namespace mlir::sdpa

#endif // SDPADIALECT_CONVERSION_KERNELOPTIONS_H
