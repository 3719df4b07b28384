// Launch-time argument checking and error-state semantics of the runtime
// API: invalid configurations, cudaGetLastError clearing, invalid frees and
// copies. Each check prints its name; PASS when all hold.
#include <cstdio>
#include <string_view>
#include <cuda_runtime.h>

__global__ void touch(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

static int failures = 0;
static void expect(bool ok, const char *what) {
  std::printf("%-60s %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

int main() {
  int *d = nullptr;
  expect(cudaMalloc(&d, 1024 * sizeof(int)) == cudaSuccess, "cudaMalloc");
  expect(cudaMemset(d, 0, 1024 * sizeof(int)) == cudaSuccess, "cudaMemset");

  touch<<<1, 2048>>>(d);
  expect(cudaPeekAtLastError() == cudaErrorInvalidConfiguration,
         "block of 2048 threads is an invalid configuration");
  expect(cudaGetLastError() == cudaErrorInvalidConfiguration,
         "cudaGetLastError reports it");
  expect(cudaGetLastError() == cudaSuccess, "and clears it");

  touch<<<dim3(4, 1, 0), 32>>>(d);
  expect(cudaGetLastError() == cudaErrorInvalidConfiguration,
         "a zero grid dimension is an invalid configuration");

  touch<<<4, 256>>>(d);
  expect(cudaGetLastError() == cudaSuccess, "a valid launch succeeds");
  expect(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
  int h[1024];
  expect(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost) == cudaSuccess,
         "cudaMemcpy device to host");
  bool all = true;
  for (int i = 0; i < 1024; ++i)
    all = all && h[i] == 1;
  expect(all, "every element was incremented once");

  expect(cudaMemcpy(h, d, sizeof(h), (cudaMemcpyKind)7) ==
             cudaErrorInvalidMemcpyDirection,
         "an invalid copy kind is rejected");
  expect(cudaMemcpy(h, d + 1000, sizeof(h), cudaMemcpyDeviceToHost) ==
             cudaErrorInvalidValue,
         "a copy past the end of an allocation is rejected");
  expect(cudaFree(h) == cudaErrorInvalidValue, "freeing a host pointer fails");
  cudaGetLastError();
  expect(cudaFree(d) == cudaSuccess, "cudaFree");
  expect(cudaSetDevice(5) == cudaErrorInvalidDevice, "cudaSetDevice(5) fails");
  expect(std::string_view(cudaGetErrorName(cudaErrorInvalidValue)) ==
             "cudaErrorInvalidValue",
         "cudaGetErrorName");
  expect(std::string_view(cudaGetErrorString((cudaError_t)12345)) ==
             "unrecognized error code",
         "cudaGetErrorString of an unknown code");
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
