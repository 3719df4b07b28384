// Kernels in the style of llm.c: layernorm with cooperative-groups warp
// reductions and streaming loads/stores, softmax with shuffles and shared
// memory, GELU on bf16 with tanhf, and a bf16x2 residual add. Each is
// checked against a host reference; prints PASS when all agree.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void layernorm_forward(float *out, float *mean, float *rstd, const float *inp,
                                  const float *weight, const float *bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N) return;
  const float *x = inp + idx * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float m = sum / C;
  if (warp.thread_rank() == 0 && mean != nullptr) __stcs(mean + idx, m);
  sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) { float diff = x[i] - m; sum += diff * diff; }
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  float s = rsqrtf(sum / C + 1e-5f);
  if (warp.thread_rank() == 0 && rstd != nullptr) __stcs(rstd + idx, s);
  float *o = out + idx * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) {
    float n = s * (__ldcs(x + c) - m);
    __stcs(o + c, n * weight[c] + bias[c]);
  }
}

__global__ void softmax_forward(float *out, const float *inp, int N, int C) {
  extern __shared__ float shared[];
  int idx = blockIdx.x, tid = threadIdx.x, warpId = threadIdx.x / 32, laneId = threadIdx.x % 32;
  int warpsPerBlock = blockDim.x / 32;
  float *maxvals = shared, *sumvals = &shared[warpsPerBlock];
  const float *x = inp + idx * C;
  float maxval = -INFINITY;
  for (int i = tid; i < C; i += blockDim.x) maxval = fmaxf(maxval, x[i]);
  for (int off = 16; off > 0; off /= 2) maxval = fmaxf(maxval, __shfl_down_sync(0xFFFFFFFF, maxval, off));
  if (laneId == 0) maxvals[warpId] = maxval;
  __syncthreads();
  if (tid == 0) { float v = maxvals[0]; for (int i = 1; i < warpsPerBlock; i++) v = fmaxf(v, maxvals[i]); maxvals[0] = v; }
  __syncthreads();
  float offset = maxvals[0];
  for (int i = tid; i < C; i += blockDim.x) out[idx * C + i] = expf(x[i] - offset);
  x = out + idx * C;
  float sumval = 0.0f;
  for (int i = tid; i < C; i += blockDim.x) sumval += x[i];
  for (int off = 16; off > 0; off /= 2) sumval += __shfl_down_sync(0xFFFFFFFF, sumval, off);
  if (laneId == 0) sumvals[warpId] = sumval;
  __syncthreads();
  if (tid == 0) { float v = sumvals[0]; for (int i = 1; i < warpsPerBlock; ++i) v += sumvals[i]; sumvals[0] = v; }
  __syncthreads();
  float sum = sumvals[0];
  for (int i = tid; i < C; i += blockDim.x) out[idx * C + i] = x[i] / sum;
}

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)
__global__ void gelu_forward(__nv_bfloat16 *out, const __nv_bfloat16 *inp, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float xi = __bfloat162float(inp[i]);
    float cube = 0.044715f * xi * xi * xi;
    out[i] = __float2bfloat16(0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube))));
  }
}

__global__ void residual_forward(__nv_bfloat162 *out, const __nv_bfloat162 *a, const __nv_bfloat162 *b, int N2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N2) out[i] = __hadd2(a[i], b[i]);
}

int main() {
  int fails = 0;
  const int N = 37, C = 200;
  float *hin = (float*)malloc(N*C*4), *hw = (float*)malloc(C*4), *hb = (float*)malloc(C*4), *hout = (float*)malloc(N*C*4);
  for (int i = 0; i < N*C; ++i) hin[i] = sinf(i * 0.37f) * 3.0f + (i % 7) * 0.1f;
  for (int i = 0; i < C; ++i) { hw[i] = 1.0f + 0.01f * i; hb[i] = 0.5f - 0.002f * i; }
  float *din, *dw, *db, *dout, *dmean, *drstd;
  cudaMalloc(&din, N*C*4); cudaMalloc(&dw, C*4); cudaMalloc(&db, C*4); cudaMalloc(&dout, N*C*4);
  cudaMalloc(&dmean, N*4); cudaMalloc(&drstd, N*4);
  cudaMemcpy(din, hin, N*C*4, cudaMemcpyHostToDevice); cudaMemcpy(dw, hw, C*4, cudaMemcpyHostToDevice); cudaMemcpy(db, hb, C*4, cudaMemcpyHostToDevice);
  layernorm_forward<<<(N + 3) / 4, 128>>>(dout, dmean, drstd, din, dw, db, N, C);
  if (cudaGetLastError() != cudaSuccess) { printf("layernorm launch failed\n"); return 1; }
  cudaMemcpy(hout, dout, N*C*4, cudaMemcpyDeviceToHost);
  double maxerr = 0;
  for (int n = 0; n < N; ++n) {
    double m = 0, v = 0; for (int c = 0; c < C; ++c) m += hin[n*C+c]; m /= C;
    for (int c = 0; c < C; ++c) v += (hin[n*C+c]-m)*(hin[n*C+c]-m); v /= C;
    double s = 1.0 / sqrt(v + 1e-5);
    for (int c = 0; c < C; ++c) { double want = (hin[n*C+c]-m)*s*hw[c]+hb[c]; maxerr = fmax(maxerr, fabs(want - hout[n*C+c])); }
  }
  printf("layernorm max err %.3g %s\n", maxerr, maxerr < 1e-4 ? "ok" : "FAILED"); fails += maxerr >= 1e-4;
  softmax_forward<<<N, 128, 2 * 4 * sizeof(float)>>>(dout, din, N, C);
  cudaMemcpy(hout, dout, N*C*4, cudaMemcpyDeviceToHost);
  maxerr = 0;
  for (int n = 0; n < N; ++n) {
    double mx = -1e30; for (int c = 0; c < C; ++c) mx = fmax(mx, hin[n*C+c]);
    double s = 0; for (int c = 0; c < C; ++c) s += exp(hin[n*C+c]-mx);
    for (int c = 0; c < C; ++c) maxerr = fmax(maxerr, fabs(exp(hin[n*C+c]-mx)/s - hout[n*C+c]));
  }
  printf("softmax max err %.3g %s\n", maxerr, maxerr < 1e-6 ? "ok" : "FAILED"); fails += maxerr >= 1e-6;
  const int G = 1000;
  __nv_bfloat16 hg[G], hr[G];
  for (int i = 0; i < G; ++i) hg[i] = __float2bfloat16((i - 500) * 0.01f);
  __nv_bfloat16 *dg, *dgo; cudaMalloc(&dg, sizeof(hg)); cudaMalloc(&dgo, sizeof(hg));
  cudaMemcpy(dg, hg, sizeof(hg), cudaMemcpyHostToDevice);
  gelu_forward<<<(G + 127) / 128, 128>>>(dgo, dg, G);
  cudaMemcpy(hr, dgo, sizeof(hr), cudaMemcpyDeviceToHost);
  maxerr = 0;
  for (int i = 0; i < G; ++i) { float x = __bfloat162float(hg[i]); double want = 0.5*x*(1+tanh(sqrt(2/M_PI)*(x+0.044715*x*x*x))); maxerr = fmax(maxerr, fabs(want - __bfloat162float(hr[i]))/ (fabs(want)+1e-2)); }
  printf("gelu bf16 rel err %.3g %s\n", maxerr, maxerr < 1e-2 ? "ok" : "FAILED"); fails += maxerr >= 1e-2;
  residual_forward<<<(G/2 + 127) / 128, 128>>>((__nv_bfloat162*)dgo, (__nv_bfloat162*)dg, (__nv_bfloat162*)dg, G/2);
  cudaMemcpy(hr, dgo, sizeof(hr), cudaMemcpyDeviceToHost);
  bool rok = true; for (int i = 0; i < G; ++i) rok = rok && __bfloat162float(hr[i]) == __bfloat162float(__float2bfloat16(2*__bfloat162float(hg[i])));
  printf("residual bf16x2 %s\n", rok ? "ok" : "FAILED"); fails += !rok;
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
