// A program whose fatbin holds PTX for compute_75, compute_80 and
// compute_90: the device reports capability 8.0, so its kernels must be
// the compute_80 ones, as NVIDIA's driver would choose. Host code that
// reads the capability then agrees with the kernels it gets.
#include "Expect.h"

__global__ void archOf(int *Out) {
#ifdef __CUDA_ARCH__
  *Out = __CUDA_ARCH__;
#endif
}

int main() {
  cudaDeviceProp P;
  CHECK(cudaGetDeviceProperties(&P, 0));
  int *D = nullptr, Arch = 0;
  CHECK(cudaMalloc(&D, sizeof(int)));
  archOf<<<1, 1>>>(D);
  CHECK(cudaMemcpy(&Arch, D, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(D));
  printf("device %d.%d, kernel built for __CUDA_ARCH__ %d\n", P.major,
         P.minor, Arch);
  EXPECT(Arch == P.major * 100 + P.minor * 10);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
