//===- Driver.cpp - The CUDA driver API entry points of libcuda.so.1 ------===//
//
// Implements the driver entry points the sdpa runtime binds (see
// runtime/include/SdpaRuntime/CudaDriver.h) on top of the interpreter: one
// device (compute capability 8.0), one primary context, synchronous
// launches. A launch that faults prints one line to stderr and its error
// sticks to the context, as a real context corruption does.
//
//===----------------------------------------------------------------------===//

#include "PtxEmulator/Interpreter.h"
#include "PtxEmulator/Parser.h"
#include "SdpaDialect/Conversion/Sm80.h"
#include "SdpaRuntime/CudaDriver.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace sdpa::emu;
// The entry points' types and the enum values the runtime passes: one
// declaration of the interface, the runtime's.
using sdpa::runtime::CUdevice;
using sdpa::runtime::CUdeviceptr;
using sdpa::runtime::CUresult;

// The driver's handle types, opaque to callers.
struct CUctx_st {
  int device = 0;
};
struct CUfunc_st;
struct CUmod_st {
  Module module;
  std::vector<std::unique_ptr<CUfunc_st>> functions;
};
struct CUfunc_st {
  CUmod_st *owner = nullptr;
  const Kernel *kernel = nullptr;
  int maxDynamicShared = sdpa::runtime::kDefaultDynamicSharedLimit;
};
struct CUstream_st;

namespace {

constexpr CUresult kSuccess = sdpa::runtime::kCudaSuccess;

/// sm_80 (A100) limits.
constexpr int kMaxSharedOptin = int(mlir::sdpa::sm80::kMaxSharedBytes);
constexpr int kMaxSharedPerBlock = sdpa::runtime::kDefaultDynamicSharedLimit;
constexpr int kMultiprocessors = 108;

/// The device attributes answered, as cuda.h numbers them.
struct DeviceAttribute {
  int attribute;
  int value;
};
const DeviceAttribute kDeviceAttributes[] = {
    {1, 1024},               // MAX_THREADS_PER_BLOCK
    {2, 1024},               // MAX_BLOCK_DIM_X
    {3, 1024},               // MAX_BLOCK_DIM_Y
    {4, 64},                 // MAX_BLOCK_DIM_Z
    {5, 2147483647},         // MAX_GRID_DIM_X
    {6, 65535},              // MAX_GRID_DIM_Y
    {7, 65535},              // MAX_GRID_DIM_Z
    {8, kMaxSharedPerBlock}, // MAX_SHARED_MEMORY_PER_BLOCK
    {10, 32},                // WARP_SIZE
    {16, kMultiprocessors},  // MULTIPROCESSOR_COUNT
    {75, 8},                 // COMPUTE_CAPABILITY_MAJOR
    {76, 0},                 // COMPUTE_CAPABILITY_MINOR
    {81, 167936},            // MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
    {sdpa::runtime::kDeviceAttributeMaxSharedMemoryPerBlockOptin,
     kMaxSharedOptin},
};

struct ErrorName {
  int code;
  const char *name;
  const char *text;
};
const ErrorName kErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT",
     "the launch timed out and was terminated"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION",
     "an illegal instruction was encountered"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

/// The name and text of `code`, or null if the driver has none.
const ErrorName *findError(CUresult code) {
  for (const ErrorName &e : kErrors)
    if (e.code == code)
      return &e;
  return nullptr;
}

/// The emulated device's state, guarded by `mutex`.
struct State {
  std::mutex mutex;
  bool initialized = false;
  CUctx_st primary;
  GlobalMemory memory;
  /// A launch fault sticks: every later context call returns it.
  CUresult sticky = kSuccess;
  EmulatorOptions options = EmulatorOptions::fromEnvironment();
  /// Launches so far: each runs under its own schedule.
  uint64_t launches = 0;
};

/// "mma 1.2% ldmatrix 3.4% ...": the launch's instruction mix by class, in
/// the order classes first occur in the opcode table.
std::string instructionMix(const Kernel &kernel, const LaunchStats &stats) {
  std::array<uint64_t, kOpCount> perOp{};
  for (size_t i = 0; i < kernel.code.size(); ++i)
    perOp[unsigned(kernel.code[i].op)] += stats.perInstruction[i];
  std::vector<std::pair<const char *, uint64_t>> classes;
  for (unsigned op = 0; op < kOpCount; ++op) {
    const char *name = opClass(Op(op));
    auto it = std::find_if(classes.begin(), classes.end(), [&](auto &c) {
      return std::strcmp(c.first, name) == 0;
    });
    if (it == classes.end())
      classes.emplace_back(name, perOp[op]);
    else
      it->second += perOp[op];
  }
  std::string text;
  char part[64];
  for (auto &[name, count] : classes) {
    std::snprintf(part, sizeof part, " %s %.1f%%", name,
                  stats.instructions ? 100.0 * count / stats.instructions : 0);
    text += part;
  }
  return text;
}

/// Appends "kernel line count class" for every instruction of the launch to
/// the file SDPA_EMU_PROFILE_FILE names (counts in warp-instructions, the
/// class opClass's).
void appendLineProfile(const char *path, const Kernel &kernel,
                       const LaunchStats &stats) {
  FILE *file = std::fopen(path, "a");
  if (!file)
    return;
  for (size_t i = 0; i < kernel.code.size(); ++i)
    std::fprintf(file, "%s %u %llu %s\n", kernel.name.c_str(),
                 kernel.code[i].line,
                 static_cast<unsigned long long>(stats.perInstruction[i] / 32),
                 opClass(kernel.code[i].op));
  std::fclose(file);
}

State &state() {
  static State *s = new State(); // Never destroyed: calls may come at exit.
  return *s;
}

thread_local CUctx_st *current = nullptr;

bool isStickyCode(CUresult r) {
  return r == kErrIllegalAddress || r == kErrLaunchFailed ||
         r == kErrMisalignedAddress || r == kErrLaunchTimeout;
}

/// What a call about device `device` returning through `out` fails with
/// before it does anything, in the driver's order (not initialized, a null
/// output, a device other than the one device 0), else kSuccess.
CUresult checkDeviceCall(const void *out, int device) {
  if (!state().initialized)
    return kErrNotInitialized;
  if (!out)
    return kErrInvalidValue;
  if (device != 0)
    return kErrInvalidDevice;
  return kSuccess;
}

} // namespace

#define EMU_API extern "C" __attribute__((visibility("default")))

EMU_API CUresult cuInit(unsigned flags) {
  if (flags != 0)
    return kErrInvalidValue;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.initialized = true;
  return kSuccess;
}

EMU_API CUresult cuGetErrorName(CUresult error, const char **name) {
  if (!name)
    return kErrInvalidValue;
  const ErrorName *known = findError(error);
  *name = known ? known->name : nullptr;
  return known ? kSuccess : kErrInvalidValue;
}

EMU_API CUresult cuGetErrorString(CUresult error, const char **text) {
  if (!text)
    return kErrInvalidValue;
  const ErrorName *known = findError(error);
  *text = known ? known->text : nullptr;
  return known ? kSuccess : kErrInvalidValue;
}

EMU_API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (CUresult r = checkDeviceCall(device, ordinal); r != kSuccess)
    return r;
  *device = 0;
  return kSuccess;
}

EMU_API CUresult cuDeviceGetAttribute(int *value, int attribute,
                                      CUdevice device) {
  if (CUresult r = checkDeviceCall(value, device); r != kSuccess)
    return r;
  for (const DeviceAttribute &known : kDeviceAttributes)
    if (known.attribute == attribute) {
      *value = known.value;
      return kSuccess;
    }
  return kErrInvalidValue;
}

EMU_API CUresult cuDevicePrimaryCtxRetain(CUctx_st **context,
                                          CUdevice device) {
  if (CUresult r = checkDeviceCall(context, device); r != kSuccess)
    return r;
  *context = &state().primary;
  return kSuccess;
}

EMU_API CUresult cuCtxGetCurrent(CUctx_st **context) {
  if (!state().initialized)
    return kErrNotInitialized;
  if (!context)
    return kErrInvalidValue;
  *context = current;
  return kSuccess;
}

EMU_API CUresult cuCtxSetCurrent(CUctx_st *context) {
  State &s = state();
  if (!s.initialized)
    return kErrNotInitialized;
  if (context && context != &s.primary)
    return kErrInvalidContext;
  current = context;
  return kSuccess;
}

EMU_API CUresult cuCtxGetDevice(CUdevice *device) {
  if (!state().initialized)
    return kErrNotInitialized;
  if (!device)
    return kErrInvalidValue;
  if (!current)
    return kErrInvalidContext;
  *device = current->device;
  return kSuccess;
}

EMU_API CUresult cuCtxSynchronize() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.initialized)
    return kErrNotInitialized;
  return s.sticky;
}

EMU_API CUresult cuModuleLoadDataEx(CUmod_st **module, const void *image,
                                    unsigned numOptions, int *options,
                                    void **optionValues) {
  State &s = state();
  if (!s.initialized)
    return kErrNotInitialized;
  if (!module || !image || (numOptions && (!options || !optionValues)))
    return kErrInvalidValue;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.sticky)
      return s.sticky;
  }
  char *errorLog = nullptr, *infoLog = nullptr;
  size_t errorSize = 0, infoSize = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    uintptr_t value = reinterpret_cast<uintptr_t>(optionValues[i]);
    switch (options[i]) {
    case sdpa::runtime::kJitInfoLogBuffer:
      infoLog = static_cast<char *>(optionValues[i]);
      break;
    case sdpa::runtime::kJitInfoLogBufferSizeBytes:
      infoSize = value;
      break;
    case sdpa::runtime::kJitErrorLogBuffer:
      errorLog = static_cast<char *>(optionValues[i]);
      break;
    case sdpa::runtime::kJitErrorLogBufferSizeBytes:
      errorSize = value;
      break;
    default: // Other JIT options do not change the result.
      break;
    }
  }
  if (infoLog && infoSize)
    infoLog[0] = 0;
  auto loaded = std::make_unique<CUmod_st>();
  std::string error;
  const char *text = static_cast<const char *>(image);
  if (!parsePtx(std::string_view(text, std::strlen(text)), loaded->module,
                error)) {
    std::string log = "ptx: " + error;
    if (errorLog && errorSize) {
      size_t n = std::min(errorSize - 1, log.size());
      std::memcpy(errorLog, log.data(), n);
      errorLog[n] = 0;
    }
    return kErrInvalidPtx;
  }
  for (const Kernel &kernel : loaded->module.kernels) {
    auto fn = std::make_unique<CUfunc_st>();
    fn->owner = loaded.get();
    fn->kernel = &kernel;
    loaded->functions.push_back(std::move(fn));
  }
  *module = loaded.release();
  return kSuccess;
}

EMU_API CUresult cuModuleUnload(CUmod_st *module) {
  if (!module)
    return kErrInvalidHandle;
  delete module;
  return kSuccess;
}

EMU_API CUresult cuModuleGetFunction(CUfunc_st **function, CUmod_st *module,
                                     const char *name) {
  if (!function || !name)
    return kErrInvalidValue;
  if (!module)
    return kErrInvalidHandle;
  for (auto &fn : module->functions)
    if (fn->kernel->name == name) {
      *function = fn.get();
      return kSuccess;
    }
  return kErrNotFound;
}

EMU_API CUresult cuFuncGetAttribute(int *value, int attribute,
                                    CUfunc_st *function) {
  if (!value)
    return kErrInvalidValue;
  if (!function)
    return kErrInvalidHandle;
  const Kernel &k = *function->kernel;
  switch (attribute) {
  case 0: { // MAX_THREADS_PER_BLOCK
    unsigned n = k.maxntid[0] * k.maxntid[1] * k.maxntid[2];
    *value = n ? int(std::min(n, 1024u)) : 1024;
    return kSuccess;
  }
  case sdpa::runtime::kFuncAttributeSharedSizeBytes:
    *value = int(k.staticShared);
    return kSuccess;
  case 2: // CONST_SIZE_BYTES
  case 3: // LOCAL_SIZE_BYTES
    *value = 0;
    return kSuccess;
  case 4: // NUM_REGS
    *value = int(std::min(k.numDeclaredRegs, 255u));
    return kSuccess;
  case 5: // PTX_VERSION
  case 6: // BINARY_VERSION
    *value = 80;
    return kSuccess;
  case sdpa::runtime::kFuncAttributeMaxDynamicSharedSizeBytes:
    *value = function->maxDynamicShared;
    return kSuccess;
  case 9: // PREFERRED_SHARED_MEMORY_CARVEOUT
    *value = -1;
    return kSuccess;
  default:
    *value = 0;
    return kSuccess;
  }
}

EMU_API CUresult cuFuncSetAttribute(CUfunc_st *function, int attribute,
                                    int value) {
  if (!function)
    return kErrInvalidHandle;
  switch (attribute) {
  case sdpa::runtime::kFuncAttributeMaxDynamicSharedSizeBytes:
    if (value < 0 ||
        int64_t(value) + function->kernel->staticShared > kMaxSharedOptin)
      return kErrInvalidValue;
    function->maxDynamicShared = value;
    return kSuccess;
  case 9: // PREFERRED_SHARED_MEMORY_CARVEOUT: a hint.
    return kSuccess;
  default:
    return kErrInvalidValue;
  }
}

EMU_API CUresult cuLaunchKernel(CUfunc_st *function, unsigned gridX,
                                unsigned gridY, unsigned gridZ,
                                unsigned blockX, unsigned blockY,
                                unsigned blockZ, unsigned sharedBytes,
                                CUstream_st *stream, void **kernelParams,
                                void **extra) {
  (void)stream; // Launches run synchronously.
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.initialized)
    return kErrNotInitialized;
  if (s.sticky)
    return s.sticky;
  if (!function)
    return kErrInvalidHandle;
  const Kernel &k = *function->kernel;
  if (extra)
    return kErrNotSupported;
  if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ)
    return kErrInvalidValue;
  uint64_t threads = uint64_t(blockX) * blockY * blockZ;
  if (threads > 1024 || threads % 32)
    return kErrInvalidValue;
  if (k.maxntid[0] && threads > uint64_t(k.maxntid[0]) * k.maxntid[1] *
                                    k.maxntid[2])
    return kErrInvalidValue;
  if (int64_t(sharedBytes) > function->maxDynamicShared)
    return kErrInvalidValue;
  if (!k.params.empty() && !kernelParams)
    return kErrInvalidValue;
  std::vector<uint8_t> params(k.paramBytes + 8, 0);
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!kernelParams[i])
      return kErrInvalidValue;
    std::memcpy(params.data() + k.params[i].offset, kernelParams[i],
                k.params[i].size);
  }
  LaunchConfig config;
  config.grid[0] = gridX, config.grid[1] = gridY, config.grid[2] = gridZ;
  config.block[0] = blockX, config.block[1] = blockY, config.block[2] = blockZ;
  config.dynamicShared = sharedBytes;
  LaunchStats stats;
  EmulatorOptions options = s.options;
  if (options.scheduleSeed)
    options.scheduleSeed += s.launches;
  ++s.launches;
  Fault fault =
      launchKernel(k, config, params.data(), s.memory, options, &stats);
  if (s.options.verbose)
    std::fprintf(stderr,
                 "sdpa-cuda-emulator: %s grid (%u,%u,%u) block (%u,%u,%u): "
                 "%llu thread-instructions in %.3f s (%.1f M/s)\n",
                 k.name.c_str(), gridX, gridY, gridZ, blockX, blockY, blockZ,
                 static_cast<unsigned long long>(stats.instructions),
                 stats.seconds,
                 stats.seconds > 0 ? stats.instructions / stats.seconds / 1e6
                                   : 0.0);
  if (s.options.profile)
    std::fprintf(stderr, "sdpa-cuda-emulator: %s: %llu warp-instructions:%s\n",
                 k.name.c_str(),
                 static_cast<unsigned long long>(stats.instructions / 32),
                 instructionMix(k, stats).c_str());
  if (!s.options.profileFile.empty())
    appendLineProfile(s.options.profileFile.c_str(), k, stats);
  if (!fault)
    return kSuccess;
  std::fprintf(stderr, "sdpa-cuda-emulator: %s\n", fault.message.c_str());
  if (isStickyCode(fault.code))
    s.sticky = fault.code;
  return fault.code;
}

EMU_API CUresult cuMemsetD32Async(CUdeviceptr ptr, unsigned value,
                                  size_t count, CUstream_st *stream) {
  (void)stream;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.sticky)
    return s.sticky;
  if (count == 0)
    return kSuccess;
  if (ptr % 4 || count > SIZE_MAX / 4 || !s.memory.contains(ptr, count * 4))
    return kErrInvalidValue;
  uint32_t *p = reinterpret_cast<uint32_t *>(ptr);
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return kSuccess;
}

EMU_API CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.initialized)
    return kErrNotInitialized;
  if (s.sticky)
    return s.sticky;
  if (!ptr || bytes == 0)
    return kErrInvalidValue;
  uint64_t p = s.memory.allocate(bytes, s.options.poison ? 0xff : 0);
  if (!p)
    return kErrOutOfMemory;
  *ptr = p;
  return kSuccess;
}

EMU_API CUresult cuMemFree_v2(CUdeviceptr ptr) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.sticky)
    return s.sticky;
  if (ptr == 0)
    return kSuccess;
  return s.memory.release(ptr) ? kSuccess : kErrInvalidValue;
}

namespace {

/// A copy of `bytes` between host memory `host` and the device allocation
/// at `device`, from `from` to `to` (one of each).
CUresult copyHostDevice(CUdeviceptr device, const void *host, void *to,
                        const void *from, size_t bytes) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.sticky)
    return s.sticky;
  if (bytes == 0)
    return kSuccess;
  if (!host || !s.memory.contains(device, bytes))
    return kErrInvalidValue;
  std::memcpy(to, from, bytes);
  return kSuccess;
}

} // namespace

EMU_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                 size_t bytes) {
  return copyHostDevice(dst, src, reinterpret_cast<void *>(dst), src, bytes);
}

EMU_API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  return copyHostDevice(src, dst, dst, reinterpret_cast<const void *>(src),
                        bytes);
}
