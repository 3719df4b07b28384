// Language features a first CUDA program reaches for, each in a kernel of
// its own and checked against the host: dynamic shared memory with a tree
// reduction (__syncthreads in a loop), a struct passed by value, 3-D blocks
// and grids, threads leaving before a barrier, a grid-stride loop over
// doubles, integer division and conversions. Prints PASS when all match.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                  cudaGetErrorName(e_));                                       \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int failures = 0;
static void expect(bool ok, const char *what) {
  std::printf("%-56s %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

__global__ void blockSum(const int *in, long long *out, int n) {
  extern __shared__ long long partial[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}

struct Affine {
  float scale;
  double offset;
  int stride;
  char tag[3];
};

__global__ void applyAffine(Affine a, const float *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * a.stride < n)
    out[i] = in[i * a.stride] * a.scale + a.offset + a.tag[2];
}

__global__ void index3d(int *out) {
  int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int threads = blockDim.x * blockDim.y * blockDim.z;
  out[bx * threads + tx] = (threadIdx.z << 16) | (threadIdx.y << 8) | threadIdx.x;
}

// The first `active` threads stay; the others return before the barrier.
__global__ void earlyExit(int *out, int active) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t >= active)
    return;
  s[t] = t * t;
  __syncthreads();
  out[t] = s[(t + 1) % active];
}

__global__ void gridStrideDouble(double *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] = sqrt(x[i]) + (double)(i % 7) / 3.0;
}

__global__ void integerOps(const int *a, int *q, int *r, unsigned *u, float *f,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int d = (i % 13) - 6;
  q[i] = d ? a[i] / d : -1;
  r[i] = d ? a[i] % d : -1;
  u[i] = (unsigned)a[i] >> (i % 31);
  f[i] = (float)a[i] * 0.5f;
}

int main() {
  // Block reduction with dynamic shared memory.
  {
    const int n = 100000, threads = 256, blocks = (n + threads - 1) / threads;
    int *h = (int *)std::malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (i * 37) % 1001 - 500;
    int *d;
    long long *dout, *hout = (long long *)std::malloc(blocks * sizeof(long long));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, blocks * sizeof(long long)));
    CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    blockSum<<<blocks, threads, threads * sizeof(long long)>>>(d, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
      long long want = 0;
      for (int i = b * threads; i < n && i < (b + 1) * threads; ++i)
        want += h[i];
      ok = ok && hout[b] == want;
    }
    expect(ok, "tree reduction in dynamic shared memory");
    CHECK(cudaFree(d));
    CHECK(cudaFree(dout));
    std::free(h);
    std::free(hout);
  }
  // A struct parameter with mixed alignment.
  {
    const int n = 3000;
    Affine a = {1.5f, -2.25, 3, {'x', 'y', 7}};
    float *hin = (float *)std::malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
      hin[i] = float(i) * 0.25f;
    float *din;
    double *dout;
    int outs = (n + a.stride - 1) / a.stride;
    double *hout = (double *)std::malloc(outs * sizeof(double));
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, outs * sizeof(double)));
    CHECK(cudaMemcpy(din, hin, n * sizeof(float), cudaMemcpyHostToDevice));
    applyAffine<<<(outs + 127) / 128, 128>>>(a, din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, outs * sizeof(double), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < outs; ++i)
      ok = ok && hout[i] == double(hin[i * 3] * 1.5f) + -2.25 + 7;
    expect(ok, "struct parameter passed by value");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    std::free(hin);
    std::free(hout);
  }
  // 3-D grid of 3-D blocks.
  {
    dim3 grid(3, 2, 2), block(5, 4, 3);
    int total = 3 * 2 * 2 * 5 * 4 * 3;
    int *d, *h = (int *)std::malloc(total * sizeof(int));
    CHECK(cudaMalloc(&d, total * sizeof(int)));
    index3d<<<grid, block>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, total * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < 12; ++b)
      for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 4; ++y)
          for (int x = 0; x < 5; ++x)
            ok = ok && h[b * 60 + x + 5 * (y + 4 * z)] == ((z << 16) | (y << 8) | x);
    expect(ok, "3-D grid and block indices");
    CHECK(cudaFree(d));
    std::free(h);
  }
  // Threads that exit before __syncthreads.
  {
    int *d, h[256];
    CHECK(cudaMalloc(&d, sizeof(h)));
    CHECK(cudaMemset(d, 0xff, sizeof(h)));
    earlyExit<<<1, 256>>>(d, 100);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < 256; ++t)
      ok = ok && h[t] == (t < 100 ? ((t + 1) % 100) * ((t + 1) % 100) : -1);
    expect(ok, "threads returning before a barrier");
    CHECK(cudaFree(d));
  }
  // Grid-stride loop over doubles with sqrt.
  {
    const int n = 50001;
    double *h = (double *)std::malloc(n * sizeof(double)), *d;
    for (int i = 0; i < n; ++i)
      h[i] = i * 1.25;
    CHECK(cudaMalloc(&d, n * sizeof(double)));
    CHECK(cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice));
    gridStrideDouble<<<7, 96>>>(d, n);
    CHECK(cudaGetLastError());
    double *r = (double *)std::malloc(n * sizeof(double));
    CHECK(cudaMemcpy(r, d, n * sizeof(double), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok = ok && r[i] == std::sqrt(h[i]) + (double)(i % 7) / 3.0;
    expect(ok, "grid-stride loop over doubles");
    CHECK(cudaFree(d));
    std::free(h);
    std::free(r);
  }
  // Integer division, remainder, shifts, conversions.
  {
    const int n = 4096;
    int *ha = (int *)std::malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i)
      ha[i] = (i * 7919) % 200003 - 100000;
    int *da, *dq, *dr;
    unsigned *du;
    float *df;
    CHECK(cudaMalloc(&da, n * 4));
    CHECK(cudaMalloc(&dq, n * 4));
    CHECK(cudaMalloc(&dr, n * 4));
    CHECK(cudaMalloc(&du, n * 4));
    CHECK(cudaMalloc(&df, n * 4));
    CHECK(cudaMemcpy(da, ha, n * 4, cudaMemcpyHostToDevice));
    integerOps<<<n / 64, 64>>>(da, dq, dr, du, df, n);
    CHECK(cudaGetLastError());
    int *hq = (int *)std::malloc(n * 4), *hr = (int *)std::malloc(n * 4);
    unsigned *hu = (unsigned *)std::malloc(n * 4);
    float *hf = (float *)std::malloc(n * 4);
    CHECK(cudaMemcpy(hq, dq, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hr, dr, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hu, du, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, df, n * 4, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) {
      int d = (i % 13) - 6;
      ok = ok && hq[i] == (d ? ha[i] / d : -1) && hr[i] == (d ? ha[i] % d : -1) &&
           hu[i] == (unsigned)ha[i] >> (i % 31) && hf[i] == (float)ha[i] * 0.5f;
    }
    expect(ok, "integer division, remainder, shifts, conversions");
    CHECK(cudaFree(da));
    CHECK(cudaFree(dq));
    CHECK(cudaFree(dr));
    CHECK(cudaFree(du));
    CHECK(cudaFree(df));
  }
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
