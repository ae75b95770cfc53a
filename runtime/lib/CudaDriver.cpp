//===- CudaDriver.cpp - Load libcuda.so.1 with dlopen ---------------------===//

#include "SdpaRuntime/CudaDriver.h"

#include <dlfcn.h>
#include <mutex>

using namespace sdpa::runtime;

std::string CudaDriver::describe(const char *call, CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != kCudaSuccess || !name)
    name = "unknown error";
  if (cuGetErrorString(result, &text) != kCudaSuccess || !text)
    text = "no description";
  return std::string(call) + " failed: " + name + " (" + text + ")";
}

namespace {

struct Loaded {
  CudaDriver driver{};
  std::string error;
  bool ok = false;
};

template <typename Fn>
bool bind(void *library, const char *symbol, Fn &fn, std::string &error) {
  fn = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (!fn)
    error = std::string("libcuda.so.1 lacks ") + symbol;
  return fn != nullptr;
}

Loaded load() {
  Loaded loaded;
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    loaded.error = std::string("libcuda.so.1 could not be loaded (no NVIDIA "
                               "driver?): ") +
                   (reason ? reason : "unknown reason");
    return loaded;
  }
  CudaDriver &d = loaded.driver;
  std::string &e = loaded.error;
  // Versioned names as cuda.h maps them for the legacy default stream.
  if (!bind(library, "cuInit", d.cuInit, e) ||
      !bind(library, "cuGetErrorName", d.cuGetErrorName, e) ||
      !bind(library, "cuGetErrorString", d.cuGetErrorString, e) ||
      !bind(library, "cuDeviceGet", d.cuDeviceGet, e) ||
      !bind(library, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, e) ||
      !bind(library, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain,
            e) ||
      !bind(library, "cuCtxGetCurrent", d.cuCtxGetCurrent, e) ||
      !bind(library, "cuCtxSetCurrent", d.cuCtxSetCurrent, e) ||
      !bind(library, "cuCtxGetDevice", d.cuCtxGetDevice, e) ||
      !bind(library, "cuCtxSynchronize", d.cuCtxSynchronize, e) ||
      !bind(library, "cuModuleLoadDataEx", d.cuModuleLoadDataEx, e) ||
      !bind(library, "cuModuleUnload", d.cuModuleUnload, e) ||
      !bind(library, "cuModuleGetFunction", d.cuModuleGetFunction, e) ||
      !bind(library, "cuFuncGetAttribute", d.cuFuncGetAttribute, e) ||
      !bind(library, "cuFuncSetAttribute", d.cuFuncSetAttribute, e) ||
      !bind(library, "cuLaunchKernel", d.cuLaunchKernel, e) ||
      !bind(library, "cuMemsetD32Async", d.cuMemsetD32Async, e) ||
      !bind(library, "cuMemAlloc_v2", d.cuMemAlloc, e) ||
      !bind(library, "cuMemFree_v2", d.cuMemFree, e) ||
      !bind(library, "cuMemcpyHtoD_v2", d.cuMemcpyHtoD, e) ||
      !bind(library, "cuMemcpyDtoH_v2", d.cuMemcpyDtoH, e))
    return loaded;
  CUresult result = d.cuInit(0);
  if (result != kCudaSuccess) {
    e = d.describe("cuInit", result);
    return loaded;
  }
  loaded.ok = true;
  return loaded;
}

} // namespace

const CudaDriver *sdpa::runtime::getCudaDriver(std::string &error) {
  static Loaded loaded = load();
  if (!loaded.ok) {
    error = loaded.error;
    return nullptr;
  }
  return &loaded.driver;
}
