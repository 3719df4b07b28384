// Built with an rpath into the CUDA toolkit's lib64 (DT_RPATH or
// DT_RUNPATH; test/e2e/CMakeLists.txt builds both), which holds NVIDIA's
// libcudart.so.13. DT_RPATH is searched before LD_LIBRARY_PATH, so only
// cuhip's audit module makes `cuhip run` give it cuhip's libcudart. Without
// `cuhip run` there is no driver and the first call fails; with NVIDIA's
// libcudart over cuhip's libcuda.so.1 kernels would still run, so the
// program checks which libcudart answered. Also started as a child by
// spawn_parent. Prints PASS.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <dlfcn.h>

__global__ void square(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] = Data[I] * Data[I];
}

int main() {
  const int N = 300;
  int Host[N];
  for (int I = 0; I < N; ++I)
    Host[I] = I - 150;
  int *Dev = nullptr;
  cudaError_t E = cudaMalloc(&Dev, sizeof(Host));
  if (E != cudaSuccess) {
    std::printf("cudaMalloc: %s\nFAIL\n", cudaGetErrorName(E));
    return 1;
  }
  if (cudaMemcpy(Dev, Host, sizeof(Host), cudaMemcpyHostToDevice) !=
      cudaSuccess) {
    std::printf("cudaMemcpy failed\nFAIL\n");
    return 1;
  }
  square<<<(N + 127) / 128, 128>>>(Dev, N);
  E = cudaDeviceSynchronize();
  if (E == cudaSuccess)
    E = cudaMemcpy(Host, Dev, sizeof(Host), cudaMemcpyDeviceToHost);
  if (E != cudaSuccess) {
    std::printf("kernel or copy: %s\nFAIL\n", cudaGetErrorName(E));
    return 1;
  }
  int Errors = 0;
  for (int I = 0; I < N; ++I)
    Errors += Host[I] != (I - 150) * (I - 150);
  cudaFree(Dev);

  Dl_info Info;
  const char *Lib =
      dladdr(reinterpret_cast<void *>(&cudaDeviceSynchronize), &Info)
          ? Info.dli_fname
          : "?";
  std::printf("libcudart: %s\n", Lib);
  if (std::strstr(Lib, "/usr/local/cuda") || std::strstr(Lib, "targets/")) {
    std::printf("the toolkit's libcudart was loaded\n");
    ++Errors;
  }
  std::printf("%s\n", Errors ? "FAIL" : "PASS");
  return Errors ? 1 : 0;
}
