//===- DriverTest.cpp - libcuda.so.1 through dlopen, as the runtime uses it ===//

#include "EmuTestUtil.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

using namespace sdpa::emu::test;

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;
using Handle = void *;

/// The entry points, bound from the built library.
struct Api {
  void *lib = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGet)(int *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, int);
  CUresult (*cuDevicePrimaryCtxRetain)(Handle *, int);
  CUresult (*cuCtxGetCurrent)(Handle *);
  CUresult (*cuCtxSetCurrent)(Handle);
  CUresult (*cuCtxGetDevice)(int *);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(Handle *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(Handle);
  CUresult (*cuModuleGetFunction)(Handle *, Handle, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, Handle);
  CUresult (*cuFuncSetAttribute)(Handle, int, int);
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, Handle, void **,
                             void **);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, Handle);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);

  template <typename Fn> void bind(Fn &fn, const char *name) {
    fn = reinterpret_cast<Fn>(dlsym(lib, name));
    ASSERT_NE(fn, nullptr) << name;
  }
  void load() {
    lib = dlopen(SDPA_EMU_DRIVER_LIB, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << dlerror();
    bind(cuInit, "cuInit");
    bind(cuGetErrorName, "cuGetErrorName");
    bind(cuGetErrorString, "cuGetErrorString");
    bind(cuDeviceGet, "cuDeviceGet");
    bind(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    bind(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(cuCtxGetCurrent, "cuCtxGetCurrent");
    bind(cuCtxSetCurrent, "cuCtxSetCurrent");
    bind(cuCtxGetDevice, "cuCtxGetDevice");
    bind(cuCtxSynchronize, "cuCtxSynchronize");
    bind(cuModuleLoadDataEx, "cuModuleLoadDataEx");
    bind(cuModuleUnload, "cuModuleUnload");
    bind(cuModuleGetFunction, "cuModuleGetFunction");
    bind(cuFuncGetAttribute, "cuFuncGetAttribute");
    bind(cuFuncSetAttribute, "cuFuncSetAttribute");
    bind(cuLaunchKernel, "cuLaunchKernel");
    bind(cuMemsetD32Async, "cuMemsetD32Async");
    bind(cuMemAlloc, "cuMemAlloc_v2");
    bind(cuMemFree, "cuMemFree_v2");
    bind(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    bind(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  }
};

/// One test: the driver's error state is sticky and process-wide.
TEST(Driver, EntryPointsAsTheRuntimeCallsThem) {
  Api cu;
  ASSERT_NO_FATAL_FAILURE(cu.load());
  ASSERT_EQ(cu.cuInit(0), 0);
  const char *name = nullptr, *text = nullptr;
  EXPECT_EQ(cu.cuGetErrorName(700, &name), 0);
  EXPECT_STREQ(name, "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(cu.cuGetErrorString(218, &text), 0);
  EXPECT_STREQ(text, "a PTX JIT compilation failed");

  Handle context = nullptr;
  ASSERT_EQ(cu.cuCtxGetCurrent(&context), 0);
  EXPECT_EQ(context, nullptr);
  int device = -1;
  ASSERT_EQ(cu.cuDeviceGet(&device, 0), 0);
  ASSERT_EQ(cu.cuDevicePrimaryCtxRetain(&context, device), 0);
  ASSERT_EQ(cu.cuCtxSetCurrent(context), 0);
  ASSERT_EQ(cu.cuCtxGetDevice(&device), 0);
  int value = 0;
  EXPECT_EQ(cu.cuDeviceGetAttribute(&value, 75, device), 0);
  EXPECT_EQ(value, 8);
  EXPECT_EQ(cu.cuDeviceGetAttribute(&value, 76, device), 0);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(cu.cuDeviceGetAttribute(&value, 97, device), 0);
  EXPECT_EQ(value, 166912);
  EXPECT_EQ(cu.cuDeviceGetAttribute(&value, 16, device), 0);
  EXPECT_EQ(value, 108);

  // A bad module: CUDA_ERROR_INVALID_PTX with the diagnostic in the log.
  char errorLog[256] = {0}, infoLog[256] = {1};
  int options[] = {5, 6, 3, 4};
  void *values[] = {errorLog, reinterpret_cast<void *>(uintptr_t(256)),
                    infoLog, reinterpret_cast<void *>(uintptr_t(256))};
  Handle module = nullptr;
  std::string bad = kernelPtx("\ttex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, "
                              "[%rd1, {%r5}];");
  EXPECT_EQ(cu.cuModuleLoadDataEx(&module, bad.c_str(), 4, options, values),
            218);
  EXPECT_STREQ(errorLog,
               "ptx: line 15: unsupported instruction 'tex.1d.v4.s32.s32'");

  // A kernel writing out[tid] = tid * param + dynamic shared probe.
  std::string ptx = kernelPtx(R"(
	ld.param.u64 %rd1, [k_param_0];
	ld.param.u64 %rd2, [k_param_1];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	cvt.u64.u32 %rd3, %r4;
	mul.lo.s64 %rd4, %rd3, %rd2;
	mul.wide.u32 %rd5, %r4, 8;
	add.s64 %rd6, %rd1, %rd5;
	st.global.b64 [%rd6], %rd4;
	mov.u64 %rd7, __dynamic_shmem__0;
	st.shared.b32 [%rd7+60000], %r1;
)",
                              2,
                              "\t.shared .align 4 .b8 st[100];\n"
                              "\t.shared .align 16 .b8 __dynamic_shmem__0;\n");
  ASSERT_EQ(cu.cuModuleLoadDataEx(&module, ptx.c_str(), 4, options, values),
            0);
  Handle fn = nullptr;
  EXPECT_EQ(cu.cuModuleGetFunction(&fn, module, "missing"), 500);
  ASSERT_EQ(cu.cuModuleGetFunction(&fn, module, "k"), 0);
  EXPECT_EQ(cu.cuFuncGetAttribute(&value, 1, fn), 0);
  EXPECT_EQ(value, 100);

  CUdeviceptr out = 0;
  ASSERT_EQ(cu.cuMemAlloc(&out, 64 * 8), 0);
  ASSERT_EQ(cu.cuMemsetD32Async(out, 0xdeadbeef, 64 * 2, nullptr), 0);
  uint64_t factor = 3;
  void *params[] = {&out, &factor};
  // 60004 dynamic bytes exceed the default 48 KiB until opted in.
  EXPECT_EQ(cu.cuLaunchKernel(fn, 2, 1, 1, 32, 1, 1, 60004, nullptr, params,
                              nullptr),
            1);
  EXPECT_EQ(cu.cuFuncSetAttribute(fn, 8, 166912), 1); // + 100 static
  ASSERT_EQ(cu.cuFuncSetAttribute(fn, 8, 60004), 0);
  ASSERT_EQ(cu.cuLaunchKernel(fn, 2, 1, 1, 32, 1, 1, 60004, nullptr, params,
                              nullptr),
            0);
  EXPECT_EQ(cu.cuCtxSynchronize(), 0);
  std::vector<uint64_t> host(64);
  ASSERT_EQ(cu.cuMemcpyDtoH(host.data(), out, 64 * 8), 0);
  for (unsigned i = 0; i < 64; ++i)
    EXPECT_EQ(host[i], i * 3u) << i;
  ASSERT_EQ(cu.cuMemcpyHtoD(out, host.data(), 8), 0);
  EXPECT_EQ(cu.cuMemcpyHtoD(out + 8, host.data(), 64 * 8), 1); // overrun

  // A fault: the launch returns it and it sticks.
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cu.cuLaunchKernel(fn, 2, 1, 1, 32, 1, 1, 60000, nullptr, params,
                              nullptr),
            700);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("sdpa-cuda-emulator: kernel k block (0,0,0) thread "
                     "(0,0,0) line 30 'st.shared.b32 [%rd7+60000], %r1': "
                     "shared store of 4 bytes"),
            std::string::npos)
      << err;
  EXPECT_EQ(cu.cuCtxSynchronize(), 700);
  EXPECT_EQ(cu.cuMemcpyDtoH(host.data(), out, 8), 700);
  EXPECT_EQ(cu.cuModuleUnload(module), 0);
}

} // namespace
