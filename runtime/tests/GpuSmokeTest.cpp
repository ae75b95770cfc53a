//===- GpuSmokeTest.cpp - One real launch through the generic path --------===//
//
// Runs only where SDPA_TEST_PROBE_MANIFEST names the probe artifact (the
// one-warp mma.sync kernel of runtime/tests/gpu/mma_probe.mlir, lowered by
// mlir-opt; see bench/run_gpu.sh) and a GPU is present; skipped otherwise.
//
//===----------------------------------------------------------------------===//

#include "SdpaRuntime/CudaDriver.h"
#include "SdpaRuntime/SdpaRuntime.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace sdpa::runtime;

namespace {

/// IEEE half bits of `x`, exact for the multiples of 1/8 in [-1, 1] used here.
uint16_t toHalf(float x) {
  if (x == 0)
    return 0;
  uint16_t sign = x < 0 ? 0x8000 : 0;
  int exponent;
  float mantissa = std::frexp(std::fabs(x), &exponent); // [0.5, 1)
  uint16_t bits = uint16_t((exponent - 1 + 15) << 10);
  bits |= uint16_t(std::lround((mantissa * 2 - 1) * 1024));
  return sign | bits;
}

TEST(GpuSmoke, HalfConversionIsExact) {
  EXPECT_EQ(toHalf(1.0f), 0x3c00);
  EXPECT_EQ(toHalf(-0.5f), 0xb800);
  EXPECT_EQ(toHalf(0.375f), 0x3600);
  EXPECT_EQ(toHalf(0.125f), 0x3000);
}

#define CK(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    ASSERT_EQ(r_, kCudaSuccess) << cuda->describe(#call, r_);                  \
  } while (0)

TEST(GpuSmoke, ProbeMmaThroughTheGenericLaunchPath) {
  const char *manifest = std::getenv("SDPA_TEST_PROBE_MANIFEST");
  if (!manifest)
    GTEST_SKIP() << "SDPA_TEST_PROBE_MANIFEST not set";
  std::string error;
  const CudaDriver *cuda = getCudaDriver(error);
  if (!cuda)
    GTEST_SKIP() << error;

  SdpaArtifact *art = nullptr;
  ASSERT_EQ(sdpaArtifactLoad(manifest, &art), SDPA_SUCCESS)
      << sdpaGetLastError();
  ASSERT_EQ(sdpaArtifactPrepare(art), SDPA_SUCCESS) << sdpaGetLastError();

  std::vector<float> a(256), b(128);
  std::vector<uint16_t> ah(256), bh(128);
  std::srand(7);
  for (int i = 0; i < 256; ++i)
    ah[i] = toHalf(a[i] = float(std::rand() % 17 - 8) / 8);
  for (int i = 0; i < 128; ++i)
    bh[i] = toHalf(b[i] = float(std::rand() % 17 - 8) / 8);
  std::vector<float> c(128, std::nanf(""));
  CUdeviceptr dA, dB, dC;
  CK(cuda->cuMemAlloc(&dA, 512));
  CK(cuda->cuMemAlloc(&dB, 256));
  CK(cuda->cuMemAlloc(&dC, 512));
  CK(cuda->cuMemcpyHtoD(dA, ah.data(), 512));
  CK(cuda->cuMemcpyHtoD(dB, bh.data(), 256));
  CK(cuda->cuMemcpyHtoD(dC, c.data(), 512)); // poisoned with NaN

  SdpaNamedValue values[3] = {};
  const char *names[3] = {"q", "k", "o"};
  CUdeviceptr ptrs[3] = {dA, dB, dC};
  for (int i = 0; i < 3; ++i) {
    values[i].name = names[i];
    values[i].type = 0;
    values[i].ptr = ptrs[i];
  }
  SdpaGridValues grid{};
  ASSERT_EQ(sdpaLaunchKernel(art, "mma16816", values, 3, &grid, nullptr),
            SDPA_SUCCESS)
      << sdpaGetLastError();
  CK(cuda->cuCtxSynchronize());
  CK(cuda->cuMemcpyDtoH(c.data(), dC, 512));
  double maxErr = 0;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      double ref = 0;
      for (int k = 0; k < 16; ++k)
        ref += double(a[m * 16 + k]) * b[n * 16 + k];
      double got = c[m * 8 + n];
      maxErr = std::isnan(got) ? INFINITY : std::fmax(maxErr, std::fabs(got - ref));
    }
  EXPECT_EQ(maxErr, 0.0) << "C = A * B^T must be exact on these inputs";
  cuda->cuMemFree(dA);
  cuda->cuMemFree(dB);
  cuda->cuMemFree(dC);
  sdpaArtifactDestroy(art);
}

} // namespace
