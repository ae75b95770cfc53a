//===- Manifest.h - The kernel artifact's manifest --------------*- C++ -*-===//
//
// Parses and validates version 1 of the manifest described in
// docs/Artifact.md. Pure C++, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_MANIFEST_H
#define SDPARUNTIME_MANIFEST_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sdpa::runtime {

/// The manifest version this runtime reads.
constexpr int kManifestVersion = 1;

enum class Direction { Forward, Backward };
enum class ElementType { F16, BF16, F32, I32 };
enum class Alignment { TopLeft, BottomRight };
enum class KernelRole { Forward, BwdPreprocess, BwdMain, BwdDqConvert };
enum class ParamType { Ptr, I32, I64, F32 };
/// How one grid dimension is formed (docs/Artifact.md, "Grid terms").
enum class GridTerm { QTiles, KvTiles, HeadsQ, HeadsKv, Batch, One, Rows };

const char *toString(ElementType type);
const char *toString(KernelRole role);
const char *toString(ParamType type);
const char *toString(GridTerm term);

/// One kernel parameter, in launch order.
struct Param {
  std::string name;
  ParamType type;
};

/// One `kernel` record and the keys that follow it.
struct Kernel {
  std::string name;
  KernelRole role;
  std::array<unsigned, 3> block{0, 0, 0};
  unsigned sharedBytes = 0;
  std::array<GridTerm, 3> grid{GridTerm::One, GridTerm::One, GridTerm::One};
  std::vector<Param> params;
  /// Line of the `kernel` key, for messages.
  int line = 0;
};

struct Manifest {
  int version = kManifestVersion;
  std::string ptxFile;
  Direction direction = Direction::Forward;
  ElementType dtype = ElementType::F16;
  int64_t headDim = 0;
  int64_t tileQ = 0;
  int64_t tileKv = 0;
  /// Band edges; nullopt is unbounded (`inf`).
  std::optional<int64_t> left, right;
  Alignment align = Alignment::TopLeft;
  float scale = 0;
  bool varlen = false;
  bool deterministic = false;
  std::vector<Kernel> kernels;

  /// The kernel of `role`, or null.
  const Kernel *findKernel(KernelRole role) const;
  /// The kernel named `name`, or null.
  const Kernel *findKernel(std::string_view name) const;
};

/// The type a known parameter name must have, or nullopt if the runtime does
/// not know the name.
std::optional<ParamType> expectedParamType(std::string_view name);

/// Parses `text`. On failure returns false and sets `error` to a message that
/// starts with "line N: " (N 1-based) and names the key.
bool parseManifest(std::string_view text, Manifest &out, std::string &error);

} // namespace sdpa::runtime

#endif // SDPARUNTIME_MANIFEST_H
