//===- EmuTestUtil.h - Run tiny PTX kernels in tests --------------*- C++ -*-===//

#ifndef PTXEMULATOR_TESTS_EMUTESTUTIL_H
#define PTXEMULATOR_TESTS_EMUTESTUTIL_H

#include "PtxEmulator/FloatBits.h"
#include "PtxEmulator/Interpreter.h"
#include "PtxEmulator/Parser.h"

#include <cstring>
#include <string>
#include <vector>

namespace sdpa::emu::test {

/// Wraps `body` into a module with one kernel `k` taking `numParams` .u64
/// parameters k_param_0..., with registers %p<64>, %rs<64>, %r<128>,
/// %rd<64> and `extra` declarations (e.g. .shared arrays).
inline std::string kernelPtx(const std::string &body, unsigned numParams = 2,
                             const std::string &extra = "") {
  std::string ptx = ".version 8.0\n.target sm_80\n.address_size 64\n\n"
                    ".visible .entry k(\n";
  for (unsigned i = 0; i < numParams; ++i)
    ptx += "\t.param .u64 k_param_" + std::to_string(i) +
           (i + 1 < numParams ? ",\n" : "\n");
  ptx += ")\n{\n\t.reg .pred %p<64>;\n\t.reg .b16 %rs<64>;\n"
         "\t.reg .b32 %r<128>;\n\t.reg .b64 %rd<64>;\n" +
         extra + "\n" + body + "\n\tret;\n}\n";
  return ptx;
}

/// A parsed kernel and device memory to run it on.
struct Emu {
  GlobalMemory memory;
  Module module;
  EmulatorOptions options;
  std::string parseError;

  bool load(const std::string &ptx) {
    return parsePtx(ptx, module, parseError);
  }

  /// A device buffer holding `values`.
  template <typename T> uint64_t buffer(const std::vector<T> &values) {
    uint64_t p = memory.allocate(values.size() * sizeof(T));
    std::memcpy(reinterpret_cast<void *>(p), values.data(),
                values.size() * sizeof(T));
    return p;
  }
  /// A zeroed device buffer of `bytes`.
  uint64_t zeros(size_t bytes) { return memory.allocate(bytes, 0); }

  template <typename T> std::vector<T> read(uint64_t p, size_t n) {
    std::vector<T> out(n);
    std::memcpy(out.data(), reinterpret_cast<const void *>(p), n * sizeof(T));
    return out;
  }

  /// Launches kernel `k` with u64 arguments.
  Fault run(const std::vector<uint64_t> &args, unsigned threads = 32,
            unsigned ctas = 1, unsigned dynamicShared = 0) {
    const Kernel *k = module.find("k");
    if (!k) {
      Fault f;
      f.code = -1;
      f.message = "no kernel: " + parseError;
      return f;
    }
    std::vector<uint8_t> params(k->paramBytes + 8, 0);
    for (size_t i = 0; i < args.size() && i < k->params.size(); ++i)
      std::memcpy(params.data() + k->params[i].offset, &args[i], 8);
    LaunchConfig config;
    config.grid[0] = ctas;
    config.block[0] = threads;
    config.dynamicShared = dynamicShared;
    return launchKernel(*k, config, params.data(), memory, options);
  }
};

} // namespace sdpa::emu::test

#endif // PTXEMULATOR_TESTS_EMUTESTUTIL_H
