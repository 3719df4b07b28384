// vector_add: c[i] = a[i] + b[i] over a 1-D grid; checks every element on the
// host and prints PASS or FAIL.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20) + 3;
  size_t bytes = size_t(n) * sizeof(float);
  float *ha = (float *)std::malloc(bytes), *hb = (float *)std::malloc(bytes),
        *hc = (float *)std::malloc(bytes);
  for (int i = 0; i < n; ++i) {
    ha[i] = std::sin(float(i));
    hb[i] = std::cos(float(i)) * 2.0f;
  }
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device 0: %s (%d SMs, warp %d)\n", prop.name,
              prop.multiProcessorCount, prop.warpSize);

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0, bytes));

  int threads = 256, blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (hc[i] != ha[i] + hb[i] && bad++ < 5)
      std::fprintf(stderr, "mismatch at %d: %f != %f\n", i, hc[i],
                   ha[i] + hb[i]);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  std::free(ha);
  std::free(hb);
  std::free(hc);
  std::printf("vector_add n=%d: %s\n", n, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
