// Runtime API names whose HIP counterpart is spelled differently, and names
// HIP added after 5.2: renamed, with a diagnostic when the target HIP is too
// old and no compat definition stands in.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG52 %s < %t.err
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path 2>%t62.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG62 --allow-empty %s < %t62.err

#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>

__device__ float table[4];

int query(float **pinned, size_t n) {
  cudaDeviceProp prop;
  // CHECK: hipDeviceProp_t prop;
  cudaGetDeviceProperties(&prop, 0);
  // CHECK: hipGetDeviceProperties(&prop, 0);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  // CHECK: hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, 0);
  cudaDeviceAttr attr = cudaDevAttrMaxSharedMemoryPerBlockOptin;
  // CHECK: hipDeviceAttribute_t attr = hipDeviceAttributeSharedMemPerBlockOptin;
  cudaMallocHost(pinned, n * sizeof(float));
  // CHECK: hipHostMalloc(pinned, n * sizeof(float));
  float init[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(table, init, sizeof(init));
  // CHECK: hipMemcpyToSymbol(table, init, sizeof(init));
  cudaFuncCache cache = cudaFuncCachePreferShared;
  // CHECK: hipFuncCache_t cache = hipFuncCachePreferShared;
  cudaLimit limit = cudaLimitMallocHeapSize;
  // CHECK: hipLimit_t limit = hipLimitMallocHeapSize;
  cudaDeviceSetLimit(limit, 1 << 20);
  // CHECK: hipDeviceSetLimit(limit, 1 << 20);
  // DIAG52: runtime.cu:[[@LINE-2]]:3: warning: 'hipDeviceSetLimit' (for 'cudaDeviceSetLimit') needs HIP 5.3; the target HIP is 5.2 [cuhip-hip-version]
  (void)attr;
  (void)cache;
  return sms;
}
// DIAG62-NOT: warning
