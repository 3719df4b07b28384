// A kernel whose PTX holds an instruction cuhip's frontend does not
// implement (pmevent). Its launch must fail with a CUDA error, and the
// program must go on: a second, ordinary kernel of another module still
// runs. Prints PASS when both behave.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void usesPme(int *out) {
  asm volatile("pmevent 3;");
  out[threadIdx.x] = 1;
}

int main() {
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 1;
  }
  usesPme<<<1, 32>>>(d);
  cudaError_t launch = cudaGetLastError();
  std::printf("launch failed as expected: %s\n", cudaGetErrorName(launch));
  // The error is not sticky: later calls work.
  cudaError_t after = cudaDeviceSynchronize();
  cudaError_t peek = cudaPeekAtLastError();
  int ok = launch == cudaErrorInvalidPtx && after == cudaSuccess &&
           peek == cudaSuccess && cudaFree(d) == cudaSuccess;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
