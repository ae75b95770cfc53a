//===- FfiCall.h - What the XLA FFI handler checks, without XLA -*- C++ -*-===//
//
// The part of the XLA FFI handler (docs/Export.md) that needs no XLA
// headers, so that it is built and unit-tested everywhere: the attributes of
// a call, the process-wide artifact cache, the checks of a call against its
// artifact, and buffers as runtime tensors.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_FFI_FFICALL_H
#define SDPARUNTIME_FFI_FFICALL_H

#include "SdpaRuntime/SdpaRuntime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sdpa::ffi {

/// The typed backend_config of an `sdpa_forward` / `sdpa_backward` call (or
/// of their `_sinks` variants), and which of the targets it is.
struct CallAttrs {
  std::string_view artifact;
  std::string_view kernel;
  std::string_view layout;
  /// Band widths, -1 for unbounded.
  int64_t left = -1, right = -1;
  bool bottomRight = false;
  float scale = 0;
  /// The logit cap the call states (0: none), checked against the
  /// artifact's (the kernels bake it in).
  float softcap = 0;
  /// Set for the backward only.
  std::optional<bool> deterministic;
  /// The call is to a `_sinks` target (takes the sinks), checked against
  /// the artifact's `sinks`.
  bool sinks = false;
};

/// A loaded artifact with the kernel names its manifest declares.
struct CachedArtifact {
  SdpaArtifact *artifact = nullptr;
  std::string manifestPath;
  std::vector<std::string> kernels;
};

/// `<artifact>.manifest`, or `<dir>/<basename of artifact>.manifest` when
/// `dir` (the SDPA_ARTIFACT_DIR override) is set and non-empty.
std::string manifestPathFor(std::string_view artifact, const char *dir);

/// The artifact of `manifestPath`, loaded once per process (thread-safe);
/// null with `error` set when it cannot be loaded.
const CachedArtifact *loadArtifact(const std::string &manifestPath,
                                   std::string &error);

/// Checks the call's attributes against its artifact: direction, sinks
/// (the target), kernel name, band, scale, softcap, deterministic flag, and
/// the layout, whose runtime code is stored in `layout`. Returns the problem, or "" when none.
std::string checkCall(const CachedArtifact &artifact, const CallAttrs &attrs,
                      bool backward, int32_t &layout);

/// A dense row-major tensor of `rank` dims (at most 4) at `data`; false with
/// `error` naming `name` when the rank is out of range.
bool makeTensor(const char *name, int32_t dtype, const int64_t *dims,
                size_t rank, void *data, SdpaTensor &out, std::string &error);

} // namespace sdpa::ffi

#endif // SDPARUNTIME_FFI_FFICALL_H
