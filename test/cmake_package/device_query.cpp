// Asks the CUDA runtime and driver API for the devices; expects at least as
// many as argv[1] and a working allocation on the first.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>

int main(int argc, char **argv) {
  int want = argc > 1 ? std::atoi(argv[1]) : 1, count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < want) {
    std::printf("FAIL: %d devices\n", count);
    return 1;
  }
  cudaDeviceProp prop;
  void *p = nullptr;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      cudaMalloc(&p, 1 << 20) != cudaSuccess || cudaFree(p) != cudaSuccess) {
    std::printf("FAIL: device 0\n");
    return 1;
  }
  int driver = 0;
  if (cuDriverGetVersion(&driver) != CUDA_SUCCESS || driver <= 0) {
    std::printf("FAIL: cuDriverGetVersion\n");
    return 1;
  }
  std::printf("PASS: %d device(s), device 0 is %s, driver %d\n", count,
              prop.name, driver);
  return 0;
}
