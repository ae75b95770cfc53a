//===- Memory.h - Emulated global and shared memory ---------------*- C++ -*-===//
//
// Global memory is host memory: device pointers are host addresses of
// allocations recorded in a table, and every emulated access is checked
// against it. Shared memory is a byte array per CTA addressed from 0 (the
// shared window), with an optional race tracker in the manner of
// compute-sanitizer's racecheck.
//
//===----------------------------------------------------------------------===//

#ifndef PTXEMULATOR_MEMORY_H
#define PTXEMULATOR_MEMORY_H

#include "PtxEmulator/ErrorCodes.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sdpa::emu {


/// Why a launch stopped: a CUDA error code and a one-line reason.
struct Fault {
  int code = 0;
  std::string message;
  explicit operator bool() const { return code != 0; }
};

/// The table of device allocations.
class GlobalMemory {
public:
  GlobalMemory() = default;
  GlobalMemory(const GlobalMemory &) = delete;
  GlobalMemory &operator=(const GlobalMemory &) = delete;
  ~GlobalMemory();

  /// Allocates `bytes` (> 0), 256-byte aligned, filled with `fill`. Returns
  /// 0 when out of memory.
  uint64_t allocate(size_t bytes, uint8_t fill = 0);
  /// Frees the allocation starting at `address`; false if there is none.
  bool release(uint64_t address);
  /// True if [address, address + bytes) lies inside one allocation.
  bool contains(uint64_t address, uint64_t bytes) const {
    if (address >= cacheBegin && address + bytes <= cacheEnd &&
        address + bytes >= address)
      return true;
    return lookup(address, bytes);
  }

private:
  bool lookup(uint64_t address, uint64_t bytes) const;
  /// Base address -> size.
  std::map<uint64_t, uint64_t> allocations;
  mutable uint64_t cacheBegin = 1, cacheEnd = 0;
};

/// Per-CTA shared-memory hazard tracking at 2-byte granularity within one
/// barrier epoch: which warp last wrote a unit, which warp(s) read it.
class RaceTracker {
public:
  /// Makes room for `bytes` of shared memory. Records of other epochs are
  /// ignored, so a tracker is reused without clearing as long as epochs are
  /// never reused.
  void reserve(unsigned bytes);
  /// Records an access of `bytes` at shared offset `offset` by `warp` at
  /// PTX line `line` in epoch `epoch`. Returns false and fills `fault` on a
  /// hazard with another warp.
  bool access(uint32_t offset, unsigned bytes, uint16_t warp, bool write,
              uint32_t line, uint32_t epoch, Fault &fault);

private:
  struct Unit {
    uint32_t epoch = 0;
    uint16_t writer = kNone;
    uint16_t reader = kNone;
    uint32_t writeLine = 0;
    uint32_t readLine = 0;
  };
  static constexpr uint16_t kNone = 0xffff;
  static constexpr uint16_t kMany = 0xfffe;
  std::vector<Unit> units;
};

/// Formats `value` as 0x... .
std::string hex(uint64_t value);

} // namespace sdpa::emu

#endif // PTXEMULATOR_MEMORY_H
