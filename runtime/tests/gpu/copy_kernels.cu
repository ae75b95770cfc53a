// Test kernels for the runtime's GPU checks: not attention, but they read
// every tensor through the strides and offsets the runtime passes, so a wrong
// stride, parameter order or grid shows up as a wrong value.
//
//   o[b, h, s, :] = bf16(float(q[b, h, s, :]) + float(k[b, h/g, s % Skv, :])
//                        + float(v[b, h/g, s % Skv, :]))
//   lse[b, h, s]  = s + 1000 h + 100000 b
//
// (b is the sequence index for THD; s the position inside it.) One thread per
// query row; grid (q_tiles, heads_q, batch) with tile_q = blockDim.x = 64.
#include <cuda_bf16.h>

namespace {
constexpr int kHeadDim = 64;

__device__ void row(const __nv_bfloat16 *q, const __nv_bfloat16 *k,
                    const __nv_bfloat16 *v, __nv_bfloat16 *o) {
  for (int d = 0; d < kHeadDim; ++d) {
    float x = __bfloat162float(q[d]);
    if (k)
      x = x + __bfloat162float(k[d]) + __bfloat162float(v[d]);
    o[d] = __float2bfloat16_rn(x);
  }
}
} // namespace

extern "C" __global__ void sdpa_copy_dense(
    const __nv_bfloat16 *q, const __nv_bfloat16 *k, const __nv_bfloat16 *v,
    __nv_bfloat16 *o, float *lse, int seq_q, int seq_kv, int heads_q,
    int heads_kv, long long q_stride_b, long long q_stride_h,
    long long q_stride_s, long long k_stride_b, long long k_stride_h,
    long long k_stride_s, long long v_stride_b, long long v_stride_h,
    long long v_stride_s, long long o_stride_b, long long o_stride_h,
    long long o_stride_s, long long lse_stride_b, long long lse_stride_h) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y, b = blockIdx.z;
  if (s >= seq_q)
    return;
  int hk = h / (heads_q / heads_kv);
  const __nv_bfloat16 *kr = nullptr, *vr = nullptr;
  if (seq_kv > 0) {
    int sk = s % seq_kv;
    kr = k + b * k_stride_b + hk * k_stride_h + sk * k_stride_s;
    vr = v + b * v_stride_b + hk * v_stride_h + sk * v_stride_s;
  }
  row(q + b * q_stride_b + h * q_stride_h + s * q_stride_s, kr, vr,
      o + b * o_stride_b + h * o_stride_h + s * o_stride_s);
  lse[b * lse_stride_b + h * lse_stride_h + s] = s + 1000.f * h + 100000.f * b;
}

extern "C" __global__ void sdpa_copy_thd(
    const __nv_bfloat16 *q, const __nv_bfloat16 *k, const __nv_bfloat16 *v,
    __nv_bfloat16 *o, float *lse, const int *cu_seqlens_q,
    const int *cu_seqlens_kv, int heads_q, int heads_kv, long long q_stride_h,
    long long q_stride_s, long long k_stride_h, long long k_stride_s,
    long long v_stride_h, long long v_stride_s, long long o_stride_h,
    long long o_stride_s, long long lse_stride_h) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y, b = blockIdx.z;
  int start = cu_seqlens_q[b], len = cu_seqlens_q[b + 1] - start;
  if (s >= len)
    return;
  int startKv = cu_seqlens_kv[b], lenKv = cu_seqlens_kv[b + 1] - startKv;
  int hk = h / (heads_q / heads_kv);
  const __nv_bfloat16 *kr = nullptr, *vr = nullptr;
  if (lenKv > 0) {
    long long t = startKv + s % lenKv;
    kr = k + hk * k_stride_h + t * k_stride_s;
    vr = v + hk * v_stride_h + t * v_stride_s;
  }
  long long t = start + s;
  row(q + h * q_stride_h + t * q_stride_s, kr, vr,
      o + h * o_stride_h + t * o_stride_s);
  lse[h * lse_stride_h + t] = s + 1000.f * h + 100000.f * b;
}
