//===- Manifest.h - The kernel artifact's manifest --------------*- C++ -*-===//
//
// Version 1 of the manifest described in docs/Artifact.md: its contents, the
// one parser (the runtime loads with it; the artifact writer checks what it
// writes with it) and the one printer (both lowerings write with it). Pure
// C++, no MLIR, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SDPASCHEMA_MANIFEST_H
#define SDPASCHEMA_MANIFEST_H

#include "SdpaSchema/Schema.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sdpa_schema {

/// One `kernel` record and the keys that follow it.
struct Kernel {
  std::string name;
  KernelRole role = KernelRole::Forward;
  std::array<unsigned, 3> block{0, 0, 0};
  unsigned sharedBytes = 0;
  std::array<GridTerm, 3> grid{GridTerm::One, GridTerm::One, GridTerm::One};
  std::vector<Param> params;
  /// Line of the `kernel` key, for messages (0 when not parsed).
  int line = 0;
};

struct Manifest {
  int version = kArtifactVersion;
  /// The `ptx` key; the printer omits it when empty.
  std::string ptxFile;
  Direction direction = Direction::Forward;
  ElementType dtype = ElementType::F16;
  int64_t headDim = 0;
  int64_t tileQ = 0;
  int64_t tileKv = 0;
  /// Band edges; nullopt is unbounded (`inf`).
  std::optional<int64_t> left, right;
  Alignment align = Alignment::TopLeft;
  /// As written (`%.17g`); the kernels use it rounded to f32.
  double scale = 0;
  /// The logit cap c the kernels apply (docs/Semantics.md §7); none: no cap.
  std::optional<float> softcap;
  /// The kernels take one f32 sink logit per query head (`sinks`, and the
  /// backward's `grad_sinks`, docs/Semantics.md §7); written only when set.
  bool sinks = false;
  bool varlen = false;
  bool deterministic = false;
  /// The width of the kernels' index arithmetic (`index_bits`, written only
  /// when 32): at 32 every element offset of every tensor the kernels
  /// address must be below 2^31.
  int indexBits = 64;
  std::vector<Kernel> kernels;

  /// The scale the kernels multiply by.
  float scaleF32() const { return static_cast<float>(scale); }
  /// The kernel of `role`, or null.
  const Kernel *findKernel(KernelRole role) const;
  /// The kernel named `name`, or null.
  const Kernel *findKernel(std::string_view name) const;
  /// True if a kernel takes the parameter `name`.
  bool takesParam(std::string_view name) const;
  /// How the backward forms dQ: Recompute where a bwd_dq kernel does.
  DqMode dqMode() const;
  /// True if the backward hands dQ partials on through the relay counters:
  /// a kernel takes them, or the artifact is deterministic and accumulates.
  bool usesRelay() const;
};

/// Parses `text`. On failure returns false and sets `error` to a message that
/// starts with "line N: " (N 1-based) and names the key.
bool parseManifest(std::string_view text, Manifest &out, std::string &error);

/// The manifest text of `manifest`: the keys in the order of
/// docs/Artifact.md (`ptx` only when set, `deterministic` only for a
/// backward artifact), one kernel record after another.
std::string printManifest(const Manifest &manifest);

} // namespace sdpa_schema

#endif // SDPASCHEMA_MANIFEST_H
