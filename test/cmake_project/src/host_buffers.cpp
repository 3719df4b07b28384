// Host-only C++ that uses the CUDA runtime API (compiled by the C++
// compiler, linked through CUDA::cudart).
#include "mlp.h"

#include <cstdio>

float *deviceCopyOf(const float *host, int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return nullptr;
  if (cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice) !=
      cudaSuccess) {
    cudaFree(d);
    return nullptr;
  }
  return d;
}

bool hostCopyOf(float *host, const float *device, int n) {
  cudaError_t e =
      cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess)
    std::fprintf(stderr, "cudaMemcpy: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess;
}
