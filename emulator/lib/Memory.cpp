//===- Memory.cpp - Allocation table and shared-memory race tracking ------===//

#include "PtxEmulator/Memory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace sdpa::emu;

std::string sdpa::emu::hex(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%llx",
                static_cast<unsigned long long>(value));
  return buffer;
}

//===----------------------------------------------------------------------===//
// GlobalMemory
//===----------------------------------------------------------------------===//

GlobalMemory::~GlobalMemory() {
  for (auto &[base, size] : allocations)
    std::free(reinterpret_cast<void *>(base));
}

uint64_t GlobalMemory::allocate(size_t bytes, uint8_t fill) {
  if (bytes == 0)
    return 0;
  size_t rounded = (bytes + 255) / 256 * 256;
  if (rounded < bytes)
    return 0;
  void *p = std::aligned_alloc(256, rounded);
  if (!p)
    return 0;
  std::memset(p, fill, rounded);
  uint64_t base = reinterpret_cast<uint64_t>(p);
  allocations[base] = bytes;
  return base;
}

bool GlobalMemory::release(uint64_t address) {
  auto it = allocations.find(address);
  if (it == allocations.end())
    return false;
  std::free(reinterpret_cast<void *>(address));
  allocations.erase(it);
  cacheBegin = 1;
  cacheEnd = 0;
  return true;
}

bool GlobalMemory::lookup(uint64_t address, uint64_t bytes) const {
  uint64_t end = address + bytes;
  if (end < address)
    return false;
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return false;
  --it;
  uint64_t allocEnd = it->first + it->second;
  if (end > allocEnd)
    return false;
  cacheBegin = it->first;
  cacheEnd = allocEnd;
  return true;
}

//===----------------------------------------------------------------------===//
// RaceTracker
//===----------------------------------------------------------------------===//

void RaceTracker::reserve(unsigned bytes) {
  if (units.size() < (bytes + 1) / 2)
    units.resize((bytes + 1) / 2);
}

bool RaceTracker::access(uint32_t offset, unsigned bytes, uint16_t warp,
                         bool write, uint32_t line, uint32_t epoch,
                         Fault &fault) {
  uint32_t first = offset / 2, last = (offset + bytes - 1) / 2;
  for (uint32_t i = first; i <= last && i < units.size(); ++i) {
    Unit &u = units[i];
    if (u.epoch != epoch) {
      u = Unit();
      u.epoch = epoch;
    }
    const char *kind = nullptr;
    uint32_t otherLine = 0;
    uint16_t other = 0;
    if (u.writer != kNone && u.writer != warp) {
      kind = write ? "WAW" : "RAW";
      otherLine = u.writeLine;
      other = u.writer;
    } else if (write && u.reader != kNone && u.reader != warp) {
      kind = "WAR";
      otherLine = u.readLine;
      other = u.reader;
    }
    if (kind) {
      fault.code = kErrLaunchFailed;
      std::string otherWarp =
          other == kMany ? std::string("several warps")
                         : "warp " + std::to_string(other);
      fault.message = std::string("shared-memory race (") + kind +
                      ") on bytes " + hex(i * 2) + ".." + hex(i * 2 + 1) +
                      ": warp " + std::to_string(warp) + " " +
                      (write ? "writes" : "reads") + " at line " +
                      std::to_string(line) + ", " + otherWarp + " " +
                      (kind[2] == 'R' ? "read" : "wrote") +
                      " at line " + std::to_string(otherLine) +
                      " with no bar.sync between";
      return false;
    }
    if (write) {
      u.writer = warp;
      u.writeLine = line;
    } else {
      if (u.reader == kNone)
        u.reader = warp;
      else if (u.reader != warp)
        u.reader = kMany;
      u.readLine = line;
    }
  }
  return true;
}
