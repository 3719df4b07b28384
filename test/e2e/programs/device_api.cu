// Device, error and function API of the runtime as an nvcc-built program
// uses them: properties against attributes, kernel attributes, a launch
// with 64 KiB of dynamic shared memory that needs cudaFuncSetAttribute,
// cudaOccupancyMaxPotentialBlockSize (a header template over
// cudaDeviceGetAttribute, cudaFuncGetAttributes and the occupancy query),
// cudaLaunchKernelExC with launch attributes, and error names.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

static int Failures = 0;
#define CHECK(Cond)                                                            \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      std::printf("FAILED line %d: %s\n", __LINE__, #Cond);                   \
      ++Failures;                                                              \
    }                                                                          \
  } while (0)

// Sums 0..n-1 through dynamic shared memory.
__global__ void sumThroughShared(int n, long long *out) {
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long sum = 0;
    for (int i = 0; i < n; ++i)
      sum += s[i];
    *out = sum;
  }
}

__global__ void __launch_bounds__(128) staticShared(float *out) {
  __shared__ float tile[512];
  tile[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  // --- properties and attributes -----------------------------------------
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess && count >= 1);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.warpSize == 32);
  int v = 0;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0) == cudaSuccess &&
        v == 32);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0) ==
            cudaSuccess &&
        v == prop.multiProcessorCount);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               0) == cudaSuccess &&
        size_t(v) == prop.sharedMemPerBlockOptin);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0) == cudaSuccess &&
        v > 0);
  CHECK(cudaDeviceGetAttribute(&v, cudaDeviceAttr(44), 0) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaSetDevice(count) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  std::printf("%s: sm_%d%d, %d multiprocessors\n", prop.name, prop.major,
              prop.minor, prop.multiProcessorCount);

  // --- kernel attributes ----------------------------------------------------
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, staticShared) == cudaSuccess);
  CHECK(fa.sharedSizeBytes == 512 * sizeof(float));
  CHECK(fa.maxThreadsPerBlock == 128);
  CHECK(fa.ptxVersion == 80);
  CHECK(fa.binaryVersion == prop.major * 10 + prop.minor);
  CHECK(fa.maxDynamicSharedSizeBytes ==
        int(prop.sharedMemPerBlock - fa.sharedSizeBytes));
  const char *name = nullptr;
  CHECK(cudaFuncGetName(&name, staticShared) == cudaSuccess && name &&
        std::strstr(name, "staticShared"));
  size_t offset = 1, size = 0;
  // axpy(int n, float a, const float *x, float *y): x is 8 bytes at 8.
  CHECK(cudaFuncGetParamInfo((const void *)axpy, 2, &offset, &size) ==
            cudaSuccess &&
        offset == 8 && size == 8);
  CHECK(cudaFuncGetParamInfo((const void *)axpy, 4, &offset, &size) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  float *dout = nullptr;
  CHECK(cudaMalloc(&dout, 128 * sizeof(float)) == cudaSuccess);
  staticShared<<<1, 128>>>(dout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float hout[128];
  CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(hout[0] == 127.0f && hout[127] == 0.0f);

  // --- 64 KiB of dynamic shared memory --------------------------------------
  const int n = 16384; // ints: 64 KiB
  const size_t bytes = n * sizeof(int);
  long long *dsum = nullptr, sum = 0;
  CHECK(cudaMalloc(&dsum, sizeof(long long)) == cudaSuccess);
  sumThroughShared<<<1, 256, bytes>>>(n, dsum);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue); // above 48 KiB
  CHECK(cudaFuncSetAttribute(sumThroughShared,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(prop.sharedMemPerBlockOptin) + 1) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaFuncSetAttribute(sumThroughShared,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(bytes)) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(&fa, sumThroughShared) == cudaSuccess &&
        fa.maxDynamicSharedSizeBytes == int(bytes));
  sumThroughShared<<<1, 256, bytes>>>(n, dsum);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpy(&sum, dsum, sizeof(sum), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(sum == (long long)n * (n - 1) / 2);
  size_t avail = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, sumThroughShared, 1,
                                                  256) == cudaSuccess &&
        avail >= bytes);

  // --- occupancy through the header template --------------------------------
  int minGrid = 0, block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, axpy, 0, 0) ==
        cudaSuccess);
  CHECK(block > 0 && block <= 1024 && block % 32 == 0 && minGrid > 0);
  int perSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, axpy, block, 0) ==
            cudaSuccess &&
        perSm > 0);
  std::printf("occupancy: blocks of %d threads, %d per multiprocessor\n",
              block, perSm);

  // --- cudaLaunchKernelExC with attributes -----------------------------------
  const int m = 1000;
  float *x = nullptr, *y = nullptr, hy[m], hx[m];
  for (int i = 0; i < m; ++i) {
    hx[i] = float(i);
    hy[i] = 1.0f;
  }
  CHECK(cudaMalloc(&x, sizeof(hx)) == cudaSuccess);
  CHECK(cudaMalloc(&y, sizeof(hy)) == cudaSuccess);
  CHECK(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(y, hy, sizeof(hy), cudaMemcpyHostToDevice) == cudaSuccess);
  cudaLaunchAttribute attrs[3];
  std::memset(attrs, 0, sizeof(attrs));
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  attrs[1].id = cudaLaunchAttributeClusterDimension;
  attrs[1].val.clusterDim.x = 1;
  attrs[1].val.clusterDim.y = 1;
  attrs[1].val.clusterDim.z = 1;
  attrs[2].id = cudaLaunchAttributePriority;
  attrs[2].val.priority = 0;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((m + block - 1) / block);
  config.blockDim = dim3(block);
  config.attrs = attrs;
  config.numAttrs = 3;
  float a = 2.0f;
  int mm = m;
  void *args[] = {&mm, &a, &x, &y};
  CHECK(cudaLaunchKernelExC(&config, (const void *)axpy, args) == cudaSuccess);
  // The C++ wrapper of cuda_runtime.h reaches the same entry point.
  config.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&config, axpy, m, 1.0f, (const float *)x, y) ==
        cudaSuccess);
  CHECK(cudaMemcpy(hy, y, sizeof(hy), cudaMemcpyDeviceToHost) == cudaSuccess);
  bool ok = true;
  for (int i = 0; i < m; ++i)
    ok &= hy[i] == 1.0f + 3.0f * float(i);
  CHECK(ok);
  // Clusters of more than one block are reported, not run.
  attrs[1].val.clusterDim.x = 2;
  config.attrs = &attrs[1];
  config.numAttrs = 1;
  config.gridDim = dim3(2);
  CHECK(cudaLaunchKernelExC(&config, (const void *)axpy, args) ==
        cudaErrorNotSupported);
  CHECK(cudaGetLastError() == cudaErrorNotSupported);
  int clusterSize = 0;
  CHECK(cudaOccupancyMaxPotentialClusterSize(&clusterSize, axpy, &config) ==
            cudaSuccess &&
        clusterSize == 1);

  // --- errors and versions ---------------------------------------------------
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorInvalidValue),
                    "cudaErrorInvalidValue") == 0);
  CHECK(std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress),
                    "cudaErrorIllegalAddress") == 0);
  CHECK(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
  int rv = 0, dv = 0;
  CHECK(cudaRuntimeGetVersion(&rv) == cudaSuccess && rv >= 12000);
  CHECK(cudaDriverGetVersion(&dv) == cudaSuccess && dv >= rv);
  size_t heap = 0;
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess &&
        heap == (size_t(8) << 20));

  cudaFree(x);
  cudaFree(y);
  cudaFree(dsum);
  cudaFree(dout);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  if (Failures)
    return 1;
  std::printf("PASS\n");
  return 0;
}
