//===- DqModeOption.h - The dq-mode pass option ------------------*- C++ -*-===//
//
// The `dq-mode` option that sdpa-derive-bounds (whose default backward tiles
// follow the dQ mode), convert-sdpa-grad-to-gpu and the backward pipelines
// share.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_DQMODEOPTION_H
#define SDPADIALECT_DQMODEOPTION_H

#include "SdpaSchema/Schema.h"
#include "llvm/Support/CommandLine.h"

#include <optional>

namespace mlir::sdpa {

/// The `dq-mode` option of sdpa-derive-bounds, convert-sdpa-grad-to-gpu and
/// the backward pipelines: the default rule (Analysis/KernelDefaults.h,
/// getDefaultDqMode) or one dQ mode.
enum class DqModeOption { Default, Accumulate, Recompute };

/// The option's values, for its cl::values.
inline auto getDqModeOptionValues() {
  return llvm::cl::values(
      clEnumValN(DqModeOption::Default, "default",
                 "the default rule: recompute, unless capped, "
                 "non-deterministic, wider than 512 keys and at most "
                 "head_dim 128"),
      clEnumValN(DqModeOption::Accumulate, "accumulate",
                 "bwd_main adds dQ partials into dq_accum (atomics, or the "
                 "relay when deterministic)"),
      clEnumValN(DqModeOption::Recompute, "recompute",
                 "bwd_dq recomputes P and dS per query tile (no workspace, "
                 "deterministic)"));
}

/// The dQ mode the option fixes; none for the default rule.
inline std::optional<sdpa_schema::DqMode> toDqMode(DqModeOption option) {
  switch (option) {
  case DqModeOption::Accumulate:
    return sdpa_schema::DqMode::Accumulate;
  case DqModeOption::Recompute:
    return sdpa_schema::DqMode::Recompute;
  case DqModeOption::Default:
    break;
  }
  return std::nullopt;
}

} // namespace mlir::sdpa

#endif // SDPADIALECT_DQMODEOPTION_H
