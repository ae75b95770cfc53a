//===- FfiCall.h - One attention site as an XLA FFI custom call -*- C++ -*-===//
//
// The convention between `sdpa-export-ffi-calls` and the runtime's XLA FFI
// handler (runtime/ffi, docs/Export.md): target names, the attributes of
// the typed backend_config, and the rewrite of one lowered site.
//
//===----------------------------------------------------------------------===//

#ifndef SDPADIALECT_EXPORT_FFICALL_H
#define SDPADIALECT_EXPORT_FFICALL_H

#include "SdpaDialect/SdpaOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::sdpa {

/// FFI targets the handler registers (platform CUDA).
inline constexpr llvm::StringLiteral kFfiForwardTarget = "sdpa_forward";
inline constexpr llvm::StringLiteral kFfiBackwardTarget = "sdpa_backward";

/// XLA's typed FFI (API_VERSION_TYPED_FFI).
inline constexpr int32_t kFfiApiVersion = 4;

/// What a site's call names: the artifact it runs and the facts of its
/// manifest the call's types depend on.
struct FfiArtifact {
  /// Path stem of the artifact (`<stem>.manifest`, `<stem>.ptx`).
  std::string path;
  /// The forward kernel, or the backward's `bwd_main` kernel.
  std::string kernel;
  /// Query rows per tile (sizes the relay counters).
  int64_t tileQ = 0;
};

/// Reads the kernel name of `role` and `tile_q` from a manifest as the
/// convert passes record it; failure (with `error` set) when either is
/// missing.
LogicalResult readFfiArtifact(StringRef manifest, StringRef role,
                              FfiArtifact &artifact, std::string &error);

/// Why `op` cannot be exported, or the empty string when it can (static
/// shapes, a dense layout, no per-batch lengths, no sinks yet).
std::string whyNotExportable(AttentionOpInterface op);

/// Replaces the forward `op` by a call to kFfiForwardTarget.
void exportForwardSite(RewriterBase &rewriter, AttentionOp op,
                       const FfiArtifact &artifact);

/// Replaces the backward `op` by a call to kFfiBackwardTarget with its
/// workspaces as extra, unused results.
void exportBackwardSite(RewriterBase &rewriter, AttentionGradOp op,
                        const FfiArtifact &artifact);

} // namespace mlir::sdpa

#endif // SDPADIALECT_EXPORT_FFICALL_H
