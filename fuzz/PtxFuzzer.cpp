//===- PtxFuzzer.cpp - Fuzz the PTX emulator's parser and interpreter -----===//
//
// The input is PTX text. It goes through parsePtx; a module that parses has
// each of its first two kernels launched once on a small grid (2 CTAs of 64
// threads, 1 KiB of dynamic shared memory), every pointer parameter pointing
// at a 4 KiB allocation and every other parameter 64, under a small
// instruction budget with the race check on. Invariants:
//
//  * a module that does not parse gets an error that starts "line N: ";
//  * a launch ends, with or without a fault; a fault has a CUDA error code
//    and a message naming the kernel;
//  * no crash, no sanitizer report, whatever the kernel does with its
//    addresses (every global and shared access is checked by the emulator).
//
//===----------------------------------------------------------------------===//

#include "PtxEmulator/Interpreter.h"
#include "PtxEmulator/Parser.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace sdpa::emu;

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "invariant violated: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void launchOnce(const Kernel &kernel) {
  GlobalMemory memory;
  std::vector<uint8_t> params(kernel.paramBytes + 8, 0);
  for (const Param &param : kernel.params) {
    uint64_t value =
        param.size == 8 ? memory.allocate(4096, 0) : uint64_t(64);
    std::memcpy(params.data() + param.offset, &value,
                std::min<size_t>(param.size, sizeof value));
  }
  LaunchConfig config;
  config.grid[0] = 2;
  config.block[0] = 64;
  config.dynamicShared = 1024;
  EmulatorOptions options;
  options.maxInstructions = 200000;
  Fault fault = launchKernel(kernel, config, params.data(), memory, options);
  if (fault && (fault.code <= 0 ||
                fault.message.find(kernel.name) == std::string::npos))
    fail("a fault without a code or the kernel's name: " + fault.message);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Module module;
  std::string error;
  if (!parsePtx(text, module, error)) {
    if (error.rfind("line ", 0) != 0)
      fail("a parse error without its line: " + error);
    return 0;
  }
  for (size_t i = 0; i < module.kernels.size() && i < 2; ++i)
    launchOnce(module.kernels[i]);
  return 0;
}
