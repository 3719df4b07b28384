// A failed device-side assert stops the kernel with cudaErrorAssert, the
// message names the file, block and thread, and the error is sticky: later
// calls keep returning it, as on a GPU. Prints PASS when that holds.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void check(const int *v, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  assert(v[t] >= 0);
  out[t] = v[t];
}

int main() {
  int h[64], *dv, *dout;
  for (int i = 0; i < 64; ++i)
    h[i] = i == 37 ? -1 : i;
  cudaMalloc(&dv, sizeof(h));
  cudaMalloc(&dout, sizeof(h));
  cudaMemcpy(dv, h, sizeof(h), cudaMemcpyHostToDevice);
  check<<<2, 32>>>(dv, dout);
  cudaError_t launch = cudaDeviceSynchronize();
  cudaError_t later = cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  void *p = nullptr;
  cudaError_t alloc = cudaMalloc(&p, 16);
  std::printf("sync: %s, memcpy: %s, malloc: %s\n", cudaGetErrorName(launch),
              cudaGetErrorName(later), cudaGetErrorName(alloc));
  bool ok = launch == cudaErrorAssert && later == cudaErrorAssert &&
            alloc == cudaErrorAssert;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
