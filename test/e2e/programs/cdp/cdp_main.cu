// CUDA dynamic parallelism: kernels that launch kernels (nvcc -rdc=true,
// linked with cudadevrt). Checks the results of recursive launches, launch
// order within a device stream, device-side copies, fills and allocations,
// tail launches, a launch of a kernel defined in another file, and the
// errors of bad device-side launches.
#include "../Expect.h"
#include "cdp_shared.h"

#include <cstdio>
#include <vector>

// Each block counts itself, then thread 0 launches Fanout blocks of the
// next level until Depth levels exist: sum over levels of Fanout^level.
__global__ void tree(int *count, int depth, int max_depth, int fanout) {
  if (threadIdx.x == 0) {
    atomicAdd(count, 1);
    if (depth + 1 < max_depth)
      tree<<<fanout, 2>>>(count, depth + 1, max_depth, fanout);
  }
}

// Two children in one device stream run in order: the second reads what
// the first wrote. A copy queued after them sees both, and a fill after
// the copy does not disturb it.
__global__ void ordered(int *a, int *b, int *copy, int n, int *status) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  cudaStream_t s;
  status[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  fill_child<<<(n + 63) / 64, 64, 0, s>>>(a, n, 41);
  add_child<<<(n + 63) / 64, 64, 0, s>>>(b, a, n); // b = a + 1 = 42
  status[1] = cudaGetLastError();
  status[2] = cudaMemcpyAsync(copy, b, n * sizeof(int),
                              cudaMemcpyDeviceToDevice, s);
  status[3] = cudaMemsetAsync(a, 0, n * sizeof(int), s);
  status[4] = cudaStreamDestroy(s);
}

// The parent's writes before a launch are visible to the child.
__global__ void parent_then_tail(int *x, int *status) {
  if (threadIdx.x != 0)
    return;
  x[0] = 7;
  add_child<<<1, 1, 0, cudaStreamTailLaunch>>>(x, nullptr, 1); // 8
  status[0] = cudaGetLastError();
  add_child<<<1, 1, 0, cudaStreamFireAndForget>>>(x + 1, nullptr, 1);
  status[1] = cudaGetLastError();
}

// Device-side cudaMalloc and cudaFree, and a child that uses the block.
__global__ void device_alloc(int *out, int *status) {
  if (threadIdx.x != 0)
    return;
  int *p = nullptr;
  status[0] = cudaMalloc(&p, 16 * sizeof(int));
  if (status[0] != cudaSuccess || !p)
    return;
  for (int i = 0; i < 16; ++i)
    p[i] = i;
  add_child<<<1, 16>>>(out, p, 16); // out[i] = i + 1
  status[1] = cudaGetLastError();
  // Freed after the child ran: a child of this grid runs after it ends,
  // so the block must outlive the grid. Freed by the next kernel instead.
  out[16] = int((size_t)p & 0x7fffffff);
  *(int **)(out + 18) = p;
}

__global__ void device_free(int *out, int *status) {
  if (threadIdx.x == 0)
    status[0] = cudaFree(*(int **)(out + 18));
}

// Launch errors reported to the launching thread.
__global__ void bad_launches(int *status) {
  if (threadIdx.x != 0)
    return;
  fill_child<<<1, 2048>>>(nullptr, 0, 0); // too many threads
  status[0] = cudaGetLastError();
  status[1] = cudaGetLastError(); // cleared by the first read
  fill_child<<<1, 1, 0, (cudaStream_t)0x12345>>>(nullptr, 0, 0);
  status[2] = cudaPeekAtLastError();
  status[3] = cudaGetLastError();
  int dev = -1, sms = 0;
  status[4] = cudaGetDevice(&dev);
  status[5] = dev;
  status[6] = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  status[7] = sms;
  cudaFuncAttributes fa;
  status[8] = cudaFuncGetAttributes(&fa, fill_child);
  status[9] = fa.maxThreadsPerBlock;
  status[10] = fa.ptxVersion;
  int blocks = 0;
  status[11] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_child, 128, 0);
  status[12] = blocks;
}

// Recursion past CUDA's 24 nesting levels: the launch from level 24 fails.
__global__ void deep(int *levels, int depth, int *status) {
  atomicMax(levels, depth);
  deep<<<1, 1>>>(levels, depth + 1, status);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    status[0] = e, status[1] = depth;
}

// More launches than cudaLimitDevRuntimePendingLaunchCount allows.
__global__ void many(int *out, int n, int *status) {
  if (threadIdx.x != 0)
    return;
  int failed = 0, first = cudaSuccess;
  for (int i = 0; i < n; ++i) {
    add_child<<<1, 1>>>(out + i, nullptr, 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      if (!failed)
        first = e;
      ++failed;
    }
  }
  status[0] = failed;
  status[1] = first;
}

// A device-side copy to an address no memory is at: the launch fails
// with cudaErrorIllegalAddress, as a kernel's own bad access does, and the
// process goes on to report it.
__global__ void bad_copy(const int *src) {
  if (threadIdx.x == 0)
    cudaMemcpyAsync((void *)0x10, src, 4, cudaMemcpyDeviceToDevice, 0);
}

int main() {
  const int n = 1000;
  int *count, *a, *b, *copy, *status, *x, *out, *levels;
  CHECK(cudaMallocManaged(&count, sizeof(int)));
  CHECK(cudaMallocManaged(&a, n * sizeof(int)));
  CHECK(cudaMallocManaged(&b, n * sizeof(int)));
  CHECK(cudaMallocManaged(&copy, n * sizeof(int)));
  CHECK(cudaMallocManaged(&status, 16 * sizeof(int)));
  CHECK(cudaMallocManaged(&x, 2 * sizeof(int)));
  CHECK(cudaMallocManaged(&out, 32 * sizeof(int)));
  CHECK(cudaMallocManaged(&levels, sizeof(int)));

  // 1 + 3 + 9 + 27 blocks.
  *count = 0;
  tree<<<1, 2>>>(count, 0, 4, 3);
  CHECK(cudaDeviceSynchronize());
  EXPECT(*count == 40);

  for (int i = 0; i < n; ++i)
    a[i] = b[i] = copy[i] = -1;
  for (int i = 0; i < 16; ++i)
    status[i] = -1;
  ordered<<<2, 32>>>(a, b, copy, n, status);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 5; ++i)
    EXPECT(status[i] == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += a[i] != 0 || b[i] != 42 || copy[i] != 42;
  EXPECT(bad == 0);

  x[0] = x[1] = 0;
  parent_then_tail<<<1, 1>>>(x, status);
  CHECK(cudaDeviceSynchronize());
  EXPECT(status[0] == cudaSuccess && status[1] == cudaSuccess);
  EXPECT(x[0] == 8 && x[1] == 1);

  for (int i = 0; i < 32; ++i)
    out[i] = 0;
  device_alloc<<<1, 1>>>(out, status);
  CHECK(cudaDeviceSynchronize());
  EXPECT(status[0] == cudaSuccess && status[1] == cudaSuccess);
  for (int i = 0; i < 16; ++i)
    EXPECT(out[i] == i + 1);
  device_free<<<1, 1>>>(out, status);
  CHECK(cudaDeviceSynchronize());
  EXPECT(status[0] == cudaSuccess);

  bad_launches<<<1, 1>>>(status);
  CHECK(cudaDeviceSynchronize());
  EXPECT(status[0] == cudaErrorInvalidConfiguration);
  EXPECT(status[1] == cudaSuccess);
  EXPECT(status[2] == cudaErrorInvalidResourceHandle);
  EXPECT(status[3] == cudaErrorInvalidResourceHandle);
  EXPECT(status[4] == cudaSuccess && status[5] == 0);
  int host_sms = 0;
  CHECK(cudaDeviceGetAttribute(&host_sms, cudaDevAttrMultiProcessorCount, 0));
  EXPECT(status[6] == cudaSuccess && status[7] == host_sms);
  // The device side sees the kernel as the host does.
  cudaFuncAttributes host_fa;
  CHECK(cudaFuncGetAttributes(&host_fa, fill_child));
  EXPECT(status[8] == cudaSuccess && status[9] == host_fa.maxThreadsPerBlock &&
         status[10] == host_fa.ptxVersion);
  int host_blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&host_blocks, fill_child,
                                                      128, 0));
  EXPECT(status[11] == cudaSuccess && status[12] == host_blocks &&
         host_blocks > 0);

  *levels = 0;
  status[0] = status[1] = 0;
  deep<<<1, 1>>>(levels, 0, status);
  CHECK(cudaDeviceSynchronize());
  EXPECT(*levels == 24);
  EXPECT(status[0] == cudaErrorLaunchMaxDepthExceeded && status[1] == 24);

  size_t limit = 0;
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
  EXPECT(limit == 2048);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4));
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
  EXPECT(limit == 4);
  for (int i = 0; i < 32; ++i)
    out[i] = 0;
  many<<<1, 1>>>(out, 6, status);
  CHECK(cudaDeviceSynchronize());
  EXPECT(status[0] == 2 && status[1] == cudaErrorLaunchPendingCountExceeded);
  EXPECT(out[0] == 1 && out[3] == 1 && out[4] == 0 && out[5] == 0);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 2048));

  // Last: the fault is sticky.
  bad_copy<<<1, 1>>>(out);
  EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);

  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
