// Built with plain nvcc (the static CUDA runtime): allocates, copies,
// launches through <<<>>> and checks the result on the host.
#include <cstdio>
#include <vector>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::printf("FAIL: %s -> %s\n", #call, cudaGetErrorName(e));             \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  axpy<<<(n + 127) / 128, 128>>>(2.0f, dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (y[i] != 2.0f * i + 1.0f) {
      std::printf("FAIL: y[%d] = %f, expected %f\n", i, y[i], 2.0f * i + 1.0f);
      return 1;
    }
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  std::printf("PASS\n");
  return 0;
}
