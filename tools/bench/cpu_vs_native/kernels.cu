// The CUDA side of bench_cpu_vs_native: one kernel per workload, written as
// a CUDA programmer would write it for a GPU (coalesced indexing, shuffle
// reductions, shared-memory tiles and atomics). nvcc turns this file into
// PTX at build time (-O3 -arch=sm_80); the benchmark loads that PTX into
// cuhip's runtime and compares each kernel with its OpenMP twin in
// CpuVsNative.cpp, which does the same work with the same algorithm.

#include <cstdint>

// a[i] = b[i] + s * c[i], one thread per element: a block's threads touch
// consecutive elements, which is also the order the CPU backend runs them.
extern "C" __global__ void triad(float *a, const float *b, const float *c,
                                 float s, unsigned long long n) {
  unsigned long long i =
      (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

__device__ float warpSumXor(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// llm.c's layernorm_forward (kernel 3 style): one warp per row of C floats;
// the lanes stride over the row, the sums meet through xor shuffles, and
// lane 0 records the row's mean and 1/stddev for the backward pass.
extern "C" __global__ void layernorm_forward(float *out, float *mean,
                                             float *rstd, const float *inp,
                                             const float *weight,
                                             const float *bias, int N, int C) {
  int lane = threadIdx.x % 32;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= N)
    return;
  const float *x = inp + (size_t)row * C;
  float sum = 0.0f;
  for (int i = lane; i < C; i += 32)
    sum += x[i];
  float m = warpSumXor(sum) / C;
  float var = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float d = x[i] - m;
    var += d * d;
  }
  float s = rsqrtf(warpSumXor(var) / C + 1e-5f);
  if (lane == 0) {
    mean[row] = m;
    rstd[row] = s;
  }
  float *o = out + (size_t)row * C;
  for (int i = lane; i < C; i += 32)
    o[i] = s * (x[i] - m) * weight[i] + bias[i];
}

// Softmax over rows of C floats, one warp per row: the row maximum through
// down shuffles and a broadcast from lane 0, then the sum of exp(x - max).
extern "C" __global__ void softmax_forward(float *out, const float *inp,
                                           int N, int C) {
  int lane = threadIdx.x % 32;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= N)
    return;
  const float *x = inp + (size_t)row * C;
  float mx = -INFINITY;
  for (int i = lane; i < C; i += 32)
    mx = fmaxf(mx, x[i]);
  for (int off = 16; off > 0; off >>= 1)
    mx = fmaxf(mx, __shfl_down_sync(0xffffffffu, mx, off));
  mx = __shfl_sync(0xffffffffu, mx, 0);
  float sum = 0.0f;
  for (int i = lane; i < C; i += 32)
    sum += expf(x[i] - mx);
  for (int off = 16; off > 0; off >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, off);
  float inv = 1.0f / __shfl_sync(0xffffffffu, sum, 0);
  float *o = out + (size_t)row * C;
  for (int i = lane; i < C; i += 32)
    o[i] = expf(x[i] - mx) * inv;
}

// C = A * B for square row-major n x n matrices (n a multiple of the tile),
// the textbook shared-memory tiling: each 16x16 block stages a tile of A
// and of B, synchronizes, accumulates 16 products per thread, synchronizes.
#define SGEMM_TILE 16
extern "C" __global__ void sgemm_tiled(float *c, const float *a,
                                       const float *b, int n) {
  __shared__ float as[SGEMM_TILE][SGEMM_TILE];
  __shared__ float bs[SGEMM_TILE][SGEMM_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * SGEMM_TILE + ty;
  int col = blockIdx.x * SGEMM_TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += SGEMM_TILE) {
    as[ty][tx] = a[(size_t)row * n + k0 + tx];
    bs[ty][tx] = b[(size_t)(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < SGEMM_TILE; ++k)
      acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[(size_t)row * n + col] = acc;
}

// 256-bin byte histogram: each block counts its chunk of `chunk` bytes into
// a shared histogram with shared-memory atomics (threads stride over the
// chunk, as coalesced GPU code does), then adds it to the global one.
extern "C" __global__ void histogram256(unsigned *hist,
                                        const unsigned char *data,
                                        unsigned long long n,
                                        unsigned chunk) {
  __shared__ unsigned local[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  unsigned long long begin = (unsigned long long)blockIdx.x * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin + threadIdx.x; i < end; i += blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b])
      atomicAdd(&hist[b], local[b]);
}

// Nothing: what a launch costs by itself.
extern "C" __global__ void empty_kernel() {}
