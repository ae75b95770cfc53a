//===- LaunchPlan.h - Grid formation and kernel parameter packing -*- C++ -*-===//
//
// Turns a manifest kernel record plus checked values into what
// cuLaunchKernel takes: grid dimensions and the `void **kernelParams` array.
// Pure C++, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_LAUNCHPLAN_H
#define SDPARUNTIME_LAUNCHPLAN_H

#include "SdpaRuntime/ArgCheck.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sdpa::runtime {

/// Largest grid dimensions of SM80 and later.
constexpr int64_t kMaxGridX = 2147483647;
constexpr int64_t kMaxGridYZ = 65535;

/// The value of one grid term.
int64_t gridTermValue(GridTerm term, const GridValues &values,
                      unsigned blockX);

/// Forms the grid of `kernel`. A zero dimension (an empty problem) is
/// returned as is: the caller skips the launch.
bool formGrid(const Kernel &kernel, const GridValues &values,
              std::array<unsigned, 3> &grid, std::string &error);

/// Kernel parameters in manifest order, each in its own 8-byte slot.
class PackedParams {
public:
  /// Fills the slots from `table`; every parameter must be present with the
  /// manifest's type.
  bool pack(const Kernel &kernel, const ParamTable &table, std::string &error);

  /// The array cuLaunchKernel takes; valid while this object lives.
  void **data() { return pointers.data(); }
  size_t size() const { return pointers.size(); }

  /// The raw bytes of parameter `i` (for tests).
  const unsigned char *slot(size_t i) const { return &storage[i * 8]; }

private:
  std::vector<unsigned char> storage;
  std::vector<void *> pointers;
};

} // namespace sdpa::runtime

#endif // SDPARUNTIME_LAUNCHPLAN_H
