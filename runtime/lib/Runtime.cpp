//===- Runtime.cpp - The C API: load, check, launch -----------------------===//

#include "SdpaRuntime/ArgCheck.h"
#include "SdpaRuntime/CudaDriver.h"
#include "SdpaRuntime/LaunchPlan.h"
#include "SdpaRuntime/Manifest.h"
#include "SdpaRuntime/SdpaRuntime.h"
#include "RecordError.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <vector>

using namespace sdpa::runtime;

namespace {

thread_local std::string lastError;

SdpaStatus failWith(SdpaStatus status, std::string message) {
  lastError = std::move(message);
  return status;
}

bool readFile(const std::string &path, std::string &contents,
              std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  contents = buffer.str();
  return true;
}

/// The module of one CUDA context and the functions found in it.
struct LoadedModule {
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction> functions;
};

} // namespace

struct SdpaArtifact {
  Manifest manifest;
  std::string manifestPath;
  std::string ptx;
  std::mutex mutex;
  /// A list: references stay valid as modules of other contexts are added.
  std::list<LoadedModule> modules;
};

namespace {

/// Makes sure a context is current (device 0's primary context otherwise).
SdpaStatus ensureContext(const CudaDriver &cuda, CUcontext &context) {
  CUresult r = cuda.cuCtxGetCurrent(&context);
  if (r != kCudaSuccess)
    return failWith(SDPA_ERROR_CUDA, cuda.describe("cuCtxGetCurrent", r));
  if (context)
    return SDPA_SUCCESS;
  CUdevice device;
  if ((r = cuda.cuDeviceGet(&device, 0)) != kCudaSuccess)
    return failWith(SDPA_ERROR_CUDA, cuda.describe("cuDeviceGet", r));
  if ((r = cuda.cuDevicePrimaryCtxRetain(&context, device)) != kCudaSuccess)
    return failWith(SDPA_ERROR_CUDA,
                    cuda.describe("cuDevicePrimaryCtxRetain", r));
  if ((r = cuda.cuCtxSetCurrent(context)) != kCudaSuccess)
    return failWith(SDPA_ERROR_CUDA, cuda.describe("cuCtxSetCurrent", r));
  return SDPA_SUCCESS;
}

/// Finds `kernel` in `module` and opts it into its dynamic shared memory,
/// refusing more shared memory than the device's per-block limit `optin`.
SdpaStatus prepareFunction(const CudaDriver &cuda, CUmodule module,
                           const Kernel &kernel, int optin, CUfunction &fn) {
  CUresult r = cuda.cuModuleGetFunction(&fn, module, kernel.name.c_str());
  if (r != kCudaSuccess)
    return failWith(SDPA_ERROR_CUDA,
                    "kernel '" + kernel.name + "' (manifest line " +
                        std::to_string(kernel.line) + "): " +
                        cuda.describe("cuModuleGetFunction", r));
  int staticBytes = 0;
  cuda.cuFuncGetAttribute(&staticBytes, kFuncAttributeSharedSizeBytes, fn);
  if (int64_t(kernel.sharedBytes) + staticBytes > optin)
    return failWith(SDPA_ERROR_UNSUPPORTED,
                    "kernel '" + kernel.name + "': shared_bytes " +
                        std::to_string(kernel.sharedBytes) + " plus " +
                        std::to_string(staticBytes) +
                        " static bytes exceed the device's limit of " +
                        std::to_string(optin) + " per block");
  if (kernel.sharedBytes > kDefaultDynamicSharedLimit) {
    r = cuda.cuFuncSetAttribute(fn, kFuncAttributeMaxDynamicSharedSizeBytes,
                                int(kernel.sharedBytes));
    if (r != kCudaSuccess)
      return failWith(SDPA_ERROR_CUDA,
                      "kernel '" + kernel.name + "': " +
                          cuda.describe("cuFuncSetAttribute", r));
  }
  return SDPA_SUCCESS;
}

/// Loads the PTX into the current context (once per context) and prepares
/// each kernel's dynamic shared memory.
SdpaStatus ensureModule(SdpaArtifact &art, const CudaDriver *&cudaOut,
                        LoadedModule *&out) {
  std::string error;
  const CudaDriver *cuda = getCudaDriver(error);
  if (!cuda)
    return failWith(SDPA_ERROR_CUDA_UNAVAILABLE, error);
  cudaOut = cuda;
  CUcontext context;
  if (SdpaStatus s = ensureContext(*cuda, context))
    return s;
  std::lock_guard<std::mutex> lock(art.mutex);
  for (LoadedModule &m : art.modules)
    if (m.context == context) {
      out = &m;
      return SDPA_SUCCESS;
    }

  LoadedModule loaded;
  loaded.context = context;
  std::vector<char> errorLog(16384, 0), infoLog(16384, 0);
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes,
                   kJitInfoLogBuffer, kJitInfoLogBufferSizeBytes};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(uintptr_t(errorLog.size())),
                    infoLog.data(),
                    reinterpret_cast<void *>(uintptr_t(infoLog.size()))};
  CUresult r = cuda->cuModuleLoadDataEx(&loaded.module, art.ptx.c_str(), 4,
                                        options, values);
  if (r != kCudaSuccess) {
    errorLog.back() = 0;
    return failWith(SDPA_ERROR_CUDA,
                    cuda->describe("cuModuleLoadDataEx", r) + " for " +
                        art.manifest.ptxFile + "; JIT log: " +
                        (errorLog[0] ? errorLog.data() : "(empty)"));
  }
  CUdevice device;
  int optin = 0;
  if ((r = cuda->cuCtxGetDevice(&device)) != kCudaSuccess ||
      (r = cuda->cuDeviceGetAttribute(
           &optin, kDeviceAttributeMaxSharedMemoryPerBlockOptin, device)) !=
          kCudaSuccess) {
    cuda->cuModuleUnload(loaded.module);
    return failWith(SDPA_ERROR_CUDA,
                    cuda->describe("cuDeviceGetAttribute", r));
  }
  for (const Kernel &kernel : art.manifest.kernels) {
    CUfunction fn;
    if (SdpaStatus s =
            prepareFunction(*cuda, loaded.module, kernel, optin, fn)) {
      cuda->cuModuleUnload(loaded.module);
      return s;
    }
    loaded.functions[kernel.name] = fn;
  }
  art.modules.push_back(std::move(loaded));
  out = &art.modules.back();
  return SDPA_SUCCESS;
}

/// One kernel launch, formed and packed before anything touches the GPU.
struct LaunchStep {
  const Kernel *kernel = nullptr;
  std::array<unsigned, 3> grid{};
  PackedParams params;
};

/// Forms each kernel's grid and packs its parameters: everything a launch
/// checks before its first CUDA call. The check entry points run exactly
/// this too, so they refuse what the launch would refuse. Null kernels
/// (roles an artifact lacks) are skipped.
SdpaStatus planLaunch(const std::vector<const Kernel *> &kernels,
                      const ParamTable &table, const GridValues &gridValues,
                      std::vector<LaunchStep> &steps) {
  steps.clear();
  steps.reserve(kernels.size());
  for (const Kernel *kernel : kernels) {
    if (!kernel)
      continue;
    std::string error;
    LaunchStep &step = steps.emplace_back();
    step.kernel = kernel;
    if (!formGrid(*kernel, gridValues, step.grid, error) ||
        !step.params.pack(*kernel, table, error))
      return failWith(SDPA_ERROR_INVALID_ARGUMENT, error);
  }
  return SDPA_SUCCESS;
}

/// Work on the stream between loading the module and the first launch.
using BeforeLaunch = std::function<SdpaStatus(const CudaDriver &)>;

/// The launch sequence of every entry point: planLaunch, then the module
/// into the current context, `beforeLaunch`, and the kernels in order on
/// `stream`. A kernel with an empty grid launches nothing.
SdpaStatus launchKernels(SdpaArtifact &artifact,
                         const std::vector<const Kernel *> &kernels,
                         const ParamTable &table, const GridValues &gridValues,
                         void *stream, const BeforeLaunch &beforeLaunch = {}) {
  std::vector<LaunchStep> steps;
  if (SdpaStatus s = planLaunch(kernels, table, gridValues, steps))
    return s;
  const CudaDriver *cuda;
  LoadedModule *module;
  if (SdpaStatus s = ensureModule(artifact, cuda, module))
    return s;
  if (beforeLaunch)
    if (SdpaStatus s = beforeLaunch(*cuda))
      return s;
  for (LaunchStep &step : steps) {
    const Kernel &kernel = *step.kernel;
    const std::array<unsigned, 3> &grid = step.grid;
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
      continue; // Empty problem: nothing to compute.
    CUresult r = cuda->cuLaunchKernel(
        module->functions.at(kernel.name), grid[0], grid[1], grid[2],
        kernel.block[0], kernel.block[1], kernel.block[2], kernel.sharedBytes,
        static_cast<CUstream>(stream), step.params.data(), nullptr);
    if (r != kCudaSuccess)
      return failWith(SDPA_ERROR_CUDA,
                      "kernel '" + kernel.name + "' grid (" +
                          std::to_string(grid[0]) + ", " +
                          std::to_string(grid[1]) + ", " +
                          std::to_string(grid[2]) + "): " +
                          cuda->describe("cuLaunchKernel", r));
  }
  return SDPA_SUCCESS;
}

/// The kernels of a forward.
std::vector<const Kernel *> forwardKernels(const Manifest &m) {
  return {m.findKernel(KernelRole::Forward)};
}

/// The kernels of a backward, in launch order (null for roles it lacks).
std::vector<const Kernel *> backwardKernels(const Manifest &m) {
  std::vector<const Kernel *> kernels;
  for (KernelRole role : sdpa_schema::getBackwardRoles(m.dqMode()))
    kernels.push_back(m.findKernel(role));
  return kernels;
}

/// Checks an entry point's arguments with `check` (checkForward or
/// checkBackward); `entry` names the entry point in the null-input message.
template <typename Args, typename Check>
SdpaStatus checkArguments(const char *entry, const SdpaArtifact *artifact,
                          const Args *args, Check check, Problem &problem,
                          ParamTable &table) {
  if (!artifact || !args)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    std::string(entry) + ": null artifact or arguments");
  std::string error;
  SdpaStatus status;
  if (!check(artifact->manifest, *args, problem, table, error, &status))
    return failWith(status, error);
  return SDPA_SUCCESS;
}

/// The *Check entry points: `args` checked as `entry` does, then the launch
/// of `kernels(manifest)` planned (parameters and grid), nothing launched.
template <typename Args, typename Check, typename Kernels>
SdpaStatus checkAndPlan(const char *entry, const SdpaArtifact *artifact,
                        const Args *args, Check check, Kernels kernels) {
  Problem problem;
  ParamTable table;
  if (SdpaStatus s =
          checkArguments(entry, artifact, args, check, problem, table))
    return s;
  std::vector<LaunchStep> steps;
  return planLaunch(kernels(artifact->manifest), table, problem.grid, steps);
}

} // namespace

extern "C" {

const char *sdpaGetLastError(void) { return lastError.c_str(); }

SdpaStatus sdpaArtifactLoad(const char *manifestPath, SdpaArtifact **out) {
  if (!manifestPath || !out)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaArtifactLoad: null manifest path or output");
  *out = nullptr;
  std::string path = manifestPath, text, error;
  if (!readFile(path, text, error))
    return failWith(SDPA_ERROR_IO, "manifest: " + error);
  auto art = std::make_unique<SdpaArtifact>();
  if (!parseManifest(text, art->manifest, error))
    return failWith(SDPA_ERROR_INVALID_MANIFEST, path + ": " + error);
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string ptxPath = dir + art->manifest.ptxFile;
  // The driver takes the PTX as a C string: it must be a whole, non-empty
  // file (a directory reads as empty) without NUL bytes (one would end it).
  struct stat info;
  if (stat(ptxPath.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
    return failWith(SDPA_ERROR_IO,
                    path + ": key 'ptx': " + ptxPath + " is not a regular file");
  if (!readFile(ptxPath, art->ptx, error))
    return failWith(SDPA_ERROR_IO, path + ": key 'ptx': " + error);
  if (art->ptx.empty())
    return failWith(SDPA_ERROR_IO, path + ": key 'ptx': " + ptxPath +
                                       " is empty");
  if (size_t nul = art->ptx.find('\0'); nul != std::string::npos)
    return failWith(SDPA_ERROR_IO, path + ": key 'ptx': " + ptxPath +
                                       " holds a NUL byte at offset " +
                                       std::to_string(nul) + " (not PTX text)");
  art->manifestPath = path;
  *out = art.release();
  return SDPA_SUCCESS;
}

SdpaStatus sdpaArtifactPrepare(SdpaArtifact *artifact) {
  if (!artifact)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT, "artifact: null");
  const CudaDriver *cuda;
  LoadedModule *module;
  return ensureModule(*artifact, cuda, module);
}

void sdpaArtifactDestroy(SdpaArtifact *artifact) {
  if (!artifact)
    return;
  std::string error;
  const CudaDriver *cuda =
      artifact->modules.empty() ? nullptr : getCudaDriver(error);
  if (cuda) {
    // Each module is unloaded in its own context; the caller's is restored.
    CUcontext current = nullptr;
    cuda->cuCtxGetCurrent(&current);
    for (LoadedModule &m : artifact->modules)
      if (cuda->cuCtxSetCurrent(m.context) == kCudaSuccess)
        cuda->cuModuleUnload(m.module);
    cuda->cuCtxSetCurrent(current);
  }
  delete artifact;
}

SdpaStatus sdpaArtifactQuery(const SdpaArtifact *artifact, const char *key,
                             int64_t *value) {
  if (!artifact || !key || !value)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaArtifactQuery: null argument");
  const Manifest &m = artifact->manifest;
  std::string k = key;
  if (k == "head_dim")
    *value = m.headDim;
  else if (k == "tile_q")
    *value = m.tileQ;
  else if (k == "tile_kv")
    *value = m.tileKv;
  else if (k == "dtype")
    *value = m.dtype == ElementType::BF16 ? SDPA_DTYPE_BF16 : SDPA_DTYPE_F16;
  else if (k == "varlen")
    *value = m.varlen;
  else if (k == "direction")
    *value = m.direction == Direction::Backward;
  else if (k == "deterministic")
    *value = m.deterministic;
  else if (k == "sinks")
    *value = m.sinks;
  else
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaArtifactQuery: unknown key '" + k + "'");
  return SDPA_SUCCESS;
}

SdpaStatus sdpaArtifactBand(const SdpaArtifact *artifact, int64_t *left,
                            int64_t *right, int32_t *bottomRight,
                            float *scale) {
  if (!artifact || !left || !right || !bottomRight || !scale)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaArtifactBand: null argument");
  const Manifest &m = artifact->manifest;
  *left = m.left.value_or(-1);
  *right = m.right.value_or(-1);
  *bottomRight = m.align == Alignment::BottomRight;
  *scale = m.scaleF32();
  return SDPA_SUCCESS;
}

SdpaStatus sdpaArtifactSoftcap(const SdpaArtifact *artifact, float *softcap) {
  if (!artifact || !softcap)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaArtifactSoftcap: null argument");
  *softcap = artifact->manifest.softcap.value_or(0.0f);
  return SDPA_SUCCESS;
}

SdpaStatus sdpaForwardCheck(const SdpaArtifact *artifact,
                            const SdpaForwardArgs *args) {
  return checkAndPlan("sdpaForwardCheck", artifact, args, checkForward,
                      forwardKernels);
}

SdpaStatus sdpaForward(SdpaArtifact *artifact, const SdpaForwardArgs *args,
                       void *stream) {
  Problem problem;
  ParamTable table;
  if (SdpaStatus s = checkArguments("sdpaForward", artifact, args,
                                    checkForward, problem, table))
    return s;
  return launchKernels(*artifact, forwardKernels(artifact->manifest), table,
                       problem.grid, stream);
}

SdpaStatus sdpaBackwardWorkspace(const SdpaArtifact *artifact,
                                 const SdpaBackwardArgs *args,
                                 SdpaWorkspaceSizes *sizes) {
  if (!artifact || !args || !sizes)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaBackwardWorkspace: null argument");
  std::string error;
  if (!backwardWorkspace(artifact->manifest, *args, *sizes, error))
    return failWith(SDPA_ERROR_INVALID_ARGUMENT, error);
  return SDPA_SUCCESS;
}

SdpaStatus sdpaBackwardCheck(const SdpaArtifact *artifact,
                             const SdpaBackwardArgs *args) {
  return checkAndPlan("sdpaBackwardCheck", artifact, args, checkBackward,
                      backwardKernels);
}

SdpaStatus sdpaBackward(SdpaArtifact *artifact, const SdpaBackwardArgs *args,
                        void *stream) {
  Problem problem;
  ParamTable table;
  if (SdpaStatus s = checkArguments("sdpaBackward", artifact, args,
                                    checkBackward, problem, table))
    return s;
  const Manifest &m = artifact->manifest;
  // The relay counters (a deterministic, accumulating artifact) start at
  // zero on the stream.
  BeforeLaunch zeroRelayCounters = [&](const CudaDriver &cuda) -> SdpaStatus {
    int64_t count = problem.batch * problem.headsQ * problem.grid.qTiles;
    if (!m.usesRelay() || count <= 0)
      return SDPA_SUCCESS;
    CUresult r = cuda.cuMemsetD32Async(args->relay_counters.data, 0,
                                       size_t(count),
                                       static_cast<CUstream>(stream));
    if (r != kCudaSuccess)
      return failWith(SDPA_ERROR_CUDA,
                      "relay_counters: " +
                          cuda.describe("cuMemsetD32Async", r));
    return SDPA_SUCCESS;
  };
  return launchKernels(*artifact, backwardKernels(m), table, problem.grid,
                       stream, zeroRelayCounters);
}

SdpaStatus sdpaLaunchKernel(SdpaArtifact *artifact, const char *kernelName,
                            const SdpaNamedValue *values, int32_t numValues,
                            const SdpaGridValues *grid, void *stream) {
  if (!artifact || !kernelName || (!values && numValues > 0) || !grid)
    return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                    "sdpaLaunchKernel: null argument");
  const Kernel *kernel = artifact->manifest.findKernel(kernelName);
  if (!kernel)
    return failWith(SDPA_ERROR_UNSUPPORTED, std::string("kernel '") +
                                                kernelName +
                                                "' is not in the manifest");
  ParamTable table;
  for (int32_t i = 0; i < numValues; ++i) {
    const SdpaNamedValue &v = values[i];
    if (!v.name)
      return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                      "values[" + std::to_string(i) + "]: null name");
    switch (v.type) {
    case 0:
      table[v.name] = ParamValue::pointer(v.ptr);
      break;
    case 1:
      table[v.name] = ParamValue::int32(v.i32);
      break;
    case 2:
      table[v.name] = ParamValue::int64(v.i64);
      break;
    case 3:
      table[v.name] = ParamValue::float32(v.f32);
      break;
    default:
      return failWith(SDPA_ERROR_INVALID_ARGUMENT,
                      std::string(v.name) + ": unknown type code " +
                          std::to_string(v.type));
    }
  }
  GridValues gridValues;
  gridValues.qTiles = grid->q_tiles;
  gridValues.kvTiles = grid->kv_tiles;
  gridValues.headsQ = grid->heads_q;
  gridValues.headsKv = grid->heads_kv;
  gridValues.batch = grid->batch;
  gridValues.totalRows = grid->total_rows;
  return launchKernels(*artifact, {kernel}, table, gridValues, stream);
}

} // extern "C"

SdpaStatus sdpa::runtime::recordError(SdpaStatus status, std::string message) {
  return failWith(status, std::move(message));
}
