// Relocatable device code, file 3 of 3: a kernel calling device functions of
// the two other files, cudaMemcpyToSymbol/FromSymbol on extern __device__
// variables, and a launch of a kernel defined in another file. Prints PASS.
#include "rdc_shared.h"
#include <cstdio>

__global__ void rdcCompute(int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = rdcSquare(I) + rdcScaled(I) + rdcOffset(I);
}

static int fail(const char *What, cudaError_t E) {
  std::printf("FAIL: %s: %s\n", What, cudaGetErrorString(E));
  return 1;
}

int main() {
  const int N = 100;
  int *D = nullptr;
  cudaError_t E = cudaMalloc(&D, N * sizeof(int));
  if (E != cudaSuccess)
    return fail("cudaMalloc", E);
  int Scale = 3;
  if ((E = cudaMemcpyToSymbol(rdcScale, &Scale, sizeof(int))) != cudaSuccess)
    return fail("cudaMemcpyToSymbol(rdcScale)", E);
  int Bias[4] = {1, 2, 3, 4};
  if ((E = cudaMemcpyToSymbol(rdcBias, Bias, sizeof(Bias))) != cudaSuccess)
    return fail("cudaMemcpyToSymbol(rdcBias)", E);
  rdcCompute<<<(N + 31) / 32, 32>>>(D, N);
  if ((E = cudaDeviceSynchronize()) != cudaSuccess)
    return fail("rdcCompute", E);
  int H[N];
  cudaMemcpy(H, D, sizeof(H), cudaMemcpyDeviceToHost);
  for (int I = 0; I < N; ++I) {
    int Want = I * I + I * Scale + Bias[I & 3] + Scale;
    if (H[I] != Want) {
      std::printf("FAIL: rdcCompute[%d] = %d, want %d\n", I, H[I], Want);
      return 1;
    }
  }
  rdcFill<<<(N + 31) / 32, 32>>>(D, N);
  if ((E = cudaDeviceSynchronize()) != cudaSuccess)
    return fail("rdcFill", E);
  cudaMemcpy(H, D, sizeof(H), cudaMemcpyDeviceToHost);
  for (int I = 0; I < N; ++I)
    if (H[I] != Bias[I & 3] + Scale) {
      std::printf("FAIL: rdcFill[%d] = %d\n", I, H[I]);
      return 1;
    }
  int Back = 0;
  if ((E = cudaMemcpyFromSymbol(&Back, rdcScale, sizeof(int))) != cudaSuccess)
    return fail("cudaMemcpyFromSymbol", E);
  if (Back != Scale) {
    std::printf("FAIL: rdcScale read back %d\n", Back);
    return 1;
  }
  cudaFree(D);
  std::printf("PASS\n");
  return 0;
}
