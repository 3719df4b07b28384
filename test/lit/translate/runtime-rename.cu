// The runtime API, its types and enumerators are renamed wherever they are
// spelled: in code, in macro definitions and in #if branches the current
// configuration does not take. Comments and strings are not touched. The
// CHECK lines are anchored at the start of a line so that they cannot match
// themselves (comments are copied unchanged into the output).
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path -- -DUSE_ASYNC 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err

#include <cuda_runtime.h>
// CHECK: {{^ *}}#include <hip/hip_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) return 1; } while (0)
// CHECK: {{^ *}}#define CHECK(call) do { hipError_t e = (call); if (e != hipSuccess) return 1; } while (0)

__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }

int run(float *host, int n) {
  float *dev;
  // cudaMalloc in a comment stays cudaMalloc.
  // CHECK: {{^ *}}// cudaMalloc in a comment stays cudaMalloc.
  CHECK(cudaMalloc(&dev, n * sizeof(float)));
  // CHECK: {{^ *}}CHECK(hipMalloc(&dev, n * sizeof(float)));
  const char *name = "cudaMalloc";
  // CHECK: {{^ *}}const char *name = "cudaMalloc";
#ifdef USE_ASYNC
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, s));
  // CHECK: {{^ *}}hipStream_t s;
  // CHECK: {{^ *}}CHECK(hipStreamCreate(&s));
  // CHECK: {{^ *}}CHECK(hipMemcpyAsync(dev, host, n * sizeof(float), hipMemcpyHostToDevice, s));
#else
  CHECK(cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice));
  // CHECK: {{^ *}}CHECK(hipMemcpy(dev, host, n * sizeof(float), hipMemcpyHostToDevice));
#endif
  scale<<<1, n>>>(dev, 2.0f);
  // CHECK: {{^ *}}scale<<<1, n>>>(dev, 2.0f);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(dev));
  // CHECK: {{^ *}}CHECK(hipDeviceSynchronize());
  // CHECK: {{^ *}}CHECK(hipFree(dev));
  (void)name;
  return 0;
}
// DIAG-NOT: warning
