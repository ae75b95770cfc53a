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

/// The FFI target (platform CUDA) the call of `op` names, the schema's
/// (sdpa_schema::getFfiTarget): `sdpa_forward` / `sdpa_backward`, or their
/// `_sinks` variants, which also take the sinks, when `op` has them.
StringRef getFfiTarget(AttentionOpInterface op, bool backward);

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
  /// A backward whose bwd_dq kernel recomputes dQ: it needs no dq_accum.
  bool recomputesDq = false;
};

/// Reads the kernel name of `role` and `tile_q` from a manifest as the
/// convert passes record it; failure (with `error` set) when either is
/// missing.
LogicalResult readFfiArtifact(StringRef manifest, StringRef role,
                              FfiArtifact &artifact, std::string &error);

/// Why `op` cannot be exported, or the empty string when it can (static
/// shapes, a dense layout, no per-batch lengths).
std::string whyNotExportable(AttentionOpInterface op);

/// Replaces the forward `op` by a call to getFfiTarget(op, false): operands
/// q, k, v (and sinks), results o, lse.
void exportForwardSite(RewriterBase &rewriter, AttentionOp op,
                       const FfiArtifact &artifact);

/// Replaces the backward `op` by a call to getFfiTarget(op, true): operands
/// q, k, v, o, do, lse (and sinks), results dq, dk, dv (and grad_sinks), then
/// the workspaces as extra, unused results: dq_accum, delta, relay_counters
/// (and dsink_partials).
void exportBackwardSite(RewriterBase &rewriter, AttentionGradOp op,
                        const FfiArtifact &artifact);

} // namespace mlir::sdpa

#endif // SDPADIALECT_EXPORT_FFICALL_H
