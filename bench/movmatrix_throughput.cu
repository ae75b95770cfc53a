// movmatrix against a second, transposed ldmatrix (docs/Performance.md,
// "Backward, narrow band": transposing bwd_main's Q and dO fragments in
// registers instead of reading them from shared memory twice).
//
// Each kernel loops over one pattern, 4 warps a block, and is timed with
// CUDA events (the best of 5 after a warm-up). The report is SM cycles a
// warp-iteration: time x clock x SMs / (warps x iterations), so the
// patterns compare as throughput at any occupancy. Each iteration's
// shared-memory addresses depend on the last iteration's loads (through a
// mask that is zero at run time): with addresses that are a function of the
// iteration alone, ptxas proved them periodic, unrolled the loop and loaded
// each address once.
//
//   nvcc -O3 -arch=sm_90 -o movmatrix_throughput bench/movmatrix_throughput.cu
//   ./movmatrix_throughput
//   cuobjdump -sass movmatrix_throughput | grep -cE 'LDSM|MOVM'  # what ran
//
// bench/run_gpu.sh's step `pipes` does all three and counts LDSM, MOVM and
// HMMA per kernel, `pattern N` being the Nth value of enum Pattern.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess) {                                               \
      std::printf("%s: %s\n", #call, cudaGetErrorString(status));              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

namespace {

/// ldmatrix.x4: four 8x8 b16 matrices, one row address per lane.
__device__ __forceinline__ void loadMatrices(unsigned address,
                                             unsigned (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

/// The same, transposed.
__device__ __forceinline__ void loadMatricesTransposed(unsigned address,
                                                       unsigned (&r)[4]) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "r"(address));
}

/// movmatrix: one 8x8 b16 matrix transposed across the warp.
__device__ __forceinline__ unsigned transpose(unsigned fragment) {
  unsigned result;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;"
               : "=r"(result)
               : "r"(fragment));
  return result;
}

/// mma.sync m16n8k16, bf16 in, f32 accumulated.
__device__ __forceinline__ void multiply(float (&c)[4], const unsigned (&a)[4],
                                         unsigned b0, unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

enum Pattern {
  LoadsAlone,         // 4 ldmatrix.x4
  TransposesAlone,    // 16 independent movmatrix
  LoadsTwice,         // 2 ldmatrix.x4 + 2 ldmatrix.x4.trans, 8 mma
  LoadsAndTransposes, // 2 ldmatrix.x4 + 8 movmatrix of them, 8 mma
  LoadsBesideFour,    // 4 ldmatrix.x4 and 4 movmatrix of their results
  LoadsBesideSixteen, // 4 ldmatrix.x4 and 16 movmatrix of their results
  MultipliesAlone,    // 8 mma, B operands formed in registers
};

template <Pattern P>
__global__ void __launch_bounds__(128)
    pattern(float *out, int iterations, unsigned zero) {
  __shared__ __align__(128) unsigned short tile[8 * 1024];
  for (int i = threadIdx.x; i < 8 * 1024; i += blockDim.x)
    tile[i] = static_cast<unsigned short>(i * 7 + blockIdx.x);
  __syncthreads();
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile)) +
                  (threadIdx.x % 32) * 16;
  unsigned a[4] = {threadIdx.x, threadIdx.x * 3u, threadIdx.x * 5u,
                   threadIdx.x * 7u};
  float c[4][4] = {};
  unsigned x = 0;
  for (int it = 0; it < iterations; ++it) {
    unsigned at = base + (it & 3) * 2048 + (x & zero);
    if (P == LoadsAlone || P == LoadsBesideFour || P == LoadsBesideSixteen) {
      unsigned r[4][4];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        loadMatrices(at + j * 512, r[j]);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (P == LoadsBesideSixteen)
          x ^= transpose(r[j][0]) ^ transpose(r[j][1]) ^ transpose(r[j][2]) ^
               transpose(r[j][3]);
        else if (P == LoadsBesideFour)
          x ^= transpose(r[j][0]) ^ r[j][1] ^ r[j][2] ^ r[j][3];
        else
          x ^= r[j][0] ^ r[j][1] ^ r[j][2] ^ r[j][3];
      }
    } else if (P == MultipliesAlone) {
#pragma unroll
      for (int k = 0; k < 8; ++k)
        multiply(c[k & 3], a, a[k & 3] ^ it, a[(k + 1) & 3] ^ it);
    } else if (P == TransposesAlone) {
#pragma unroll
      for (int k = 0; k < 16; ++k)
        x ^= transpose(a[k & 3] ^ (it + k));
    } else {
      // bwd_main's use of a Q (or dO) fragment: as the B operand of S^T,
      // then transposed as the B operand of dK.
      unsigned q[2][4], t[2][4];
#pragma unroll
      for (int s = 0; s < 2; ++s) {
        loadMatrices(at + s * 512, q[s]);
        multiply(c[0], a, q[s][0], q[s][1]);
        multiply(c[1], a, q[s][2], q[s][3]);
      }
#pragma unroll
      for (int s = 0; s < 2; ++s) {
        if (P == LoadsTwice) {
          loadMatricesTransposed(at + 1024 + s * 512, t[s]);
        } else {
          t[s][0] = transpose(q[s][0]);
          t[s][1] = transpose(q[s][2]);
          t[s][2] = transpose(q[s][1]);
          t[s][3] = transpose(q[s][3]);
        }
        multiply(c[2], a, t[s][0], t[s][1]);
        multiply(c[3], a, t[s][2], t[s][3]);
      }
      x ^= q[1][3];
    }
  }
  float sum = static_cast<float>(x);
#pragma unroll
  for (int i = 0; i < 4; ++i)
    sum += c[i][0] + c[i][1] + c[i][2] + c[i][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <Pattern P>
int timePattern(const char *name, float *out, int blocksPerSm) {
  int device, sms, clockKhz;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, device));
  const int blocks = sms * blocksPerSm, iterations = 1 << 15;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  pattern<P><<<blocks, 128>>>(out, iterations, 0u);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int round = 0; round < 5; ++round) {
    CHECK(cudaEventRecord(start));
    pattern<P><<<blocks, 128>>>(out, iterations, 0u);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
  }
  double warpIterations = static_cast<double>(blocks) * 4 * iterations;
  double cycles = best * 1e-3 * clockKhz * 1e3;
  std::printf("%-36s %8.3f ms  %6.2f SM cycles a warp-iteration\n", name, best,
              cycles * sms / warpIterations);
  return 0;
}

} // namespace

int main() {
  float *out;
  CHECK(cudaMalloc(&out, 1 << 24));
  int device;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties;
  CHECK(cudaGetDeviceProperties(&properties, device));
  std::printf("%s, %d SMs\n", properties.name, properties.multiProcessorCount);
  for (int blocksPerSm : {4, 16}) {
    std::printf("-- %d blocks of 4 warps an SM\n", blocksPerSm);
    if (timePattern<LoadsAlone>("4 ldmatrix.x4", out, blocksPerSm) ||
        timePattern<TransposesAlone>("16 movmatrix", out, blocksPerSm) ||
        timePattern<LoadsBesideFour>("4 ldmatrix.x4 + 4 movmatrix", out,
                                     blocksPerSm) ||
        timePattern<LoadsBesideSixteen>("4 ldmatrix.x4 + 16 movmatrix", out,
                                        blocksPerSm) ||
        timePattern<MultipliesAlone>("8 mma", out, blocksPerSm) ||
        timePattern<LoadsTwice>("2 ldmatrix + 2 ldmatrix.trans, 8 mma", out,
                                blocksPerSm) ||
        timePattern<LoadsAndTransposes>("2 ldmatrix + 8 movmatrix, 8 mma", out,
                                        blocksPerSm))
      return 1;
  }
  CHECK(cudaFree(out));
  return 0;
}
