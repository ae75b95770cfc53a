//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Declares the few driver types and entry points the runtime uses and loads
// them from libcuda.so.1 with dlopen, so that the runtime builds and its host
// logic runs without CUDA headers or a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef SDPARUNTIME_CUDADRIVER_H
#define SDPARUNTIME_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace sdpa::runtime {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;

/// The enum values used, as in cuda.h.
constexpr CUresult kCudaSuccess = 0;
constexpr int kJitInfoLogBuffer = 3;
constexpr int kJitInfoLogBufferSizeBytes = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr int kFuncAttributeSharedSizeBytes = 1;
constexpr int kFuncAttributeMaxDynamicSharedSizeBytes = 8;
constexpr int kDeviceAttributeMaxSharedMemoryPerBlockOptin = 97;
/// Dynamic shared memory a kernel may use without opting in.
constexpr unsigned kDefaultDynamicSharedLimit = 48 * 1024;

/// Entry points of libcuda.so.1.
struct CudaDriver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);

  /// "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument)".
  std::string describe(const char *call, CUresult result) const;
};

/// Loads libcuda.so.1 once (thread-safe) and calls cuInit. Returns null and
/// sets `error` if the library or an entry point is missing or cuInit fails.
const CudaDriver *getCudaDriver(std::string &error);

} // namespace sdpa::runtime

#endif // SDPARUNTIME_CUDADRIVER_H
