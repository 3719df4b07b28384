// saxpy: y = a*x + y with a grid-stride loop and a deliberately small grid,
// so every thread handles many elements. Prints PASS or FAIL.
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

__global__ void saxpy(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 3 * (1 << 20) + 17;
  const float a = 2.5f;
  size_t bytes = size_t(n) * sizeof(float);
  float *hx = (float *)std::malloc(bytes), *hy = (float *)std::malloc(bytes),
        *out = (float *)std::malloc(bytes);
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i % 1000) * 0.001f;
    hy[i] = float((i * 7) % 500) - 250.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));

  saxpy<<<64, 128>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out, dy, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = std::fma(a, hx[i], hy[i]);
    float alt = a * hx[i] + hy[i];
    if (out[i] != want && out[i] != alt && bad++ < 5)
      std::fprintf(stderr, "mismatch at %d: %f != %f\n", i, out[i], want);
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  std::free(hx);
  std::free(hy);
  std::free(out);
  std::printf("saxpy n=%d: %s\n", n, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
