// Kernels that write past the end of a device allocation must never damage
// host memory (the C heap, the program's own buffers). Each argument runs
// one case and prints PASS when its outcome is as expected:
//   slack   every one of many small allocations, each followed at once on
//           the host by a malloc'd buffer, gets a write of 64 bytes past
//           its end (an off-by-a-few-elements bug): the synchronise
//           succeeds, every allocation and every host buffer keeps its
//           contents, and everything is freed (with MALLOC_CHECK_=3 a
//           damaged heap would end the process)
//   guard   a write far past the end of a 64 KiB allocation (eight pages
//           past it, where other allocations follow on the C heap): the
//           synchronise reports cudaErrorIllegalAddress; after
//           cudaDeviceReset the program allocates, computes and frees
//           again
//   memcheck  the slack case under `cuhip run --memcheck`, which still
//           knows each allocation's exact size: the overrun is reported
//           and the synchronise fails with cudaErrorIllegalAddress
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>
#include <cuda_runtime.h>

__global__ void fill(int *p, int n, int tag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = tag * 1000 + i;
}

// Writes [n, n + extra) of p: the elements just past the end.
__global__ void writePast(int *p, int n, int extra) {
  int i = threadIdx.x;
  if (i < extra)
    p[n + i] = -1;
}

__global__ void writeAt(char *p, size_t offset) {
  if (threadIdx.x == 0)
    *reinterpret_cast<int *>(p + offset) = -1;
}

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);          \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/// Small allocations with host buffers between them, all overrun by 64
/// bytes; Want is what the synchronise must return.
static void overrunSmall(cudaError_t want) {
  const int Count = 64, N = 64; // 256 bytes each
  const int Extra = 16;         // 64 bytes past the end
  std::vector<int *> dev(Count);
  std::vector<int *> host(Count);
  for (int k = 0; k < Count; ++k) {
    EXPECT(cudaMalloc(&dev[k], N * sizeof(int)) == cudaSuccess);
    host[k] = static_cast<int *>(std::malloc(N * sizeof(int)));
    for (int i = 0; i < N; ++i)
      host[k][i] = -k * 1000 - i;
    fill<<<1, N>>>(dev[k], N, k);
  }
  for (int k = 0; k < Count; ++k)
    writePast<<<1, 32>>>(dev[k], N, Extra);
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("overrun by %d bytes: %s\n", int(Extra * sizeof(int)),
              cudaGetErrorName(sync));
  EXPECT(sync == want);
  if (sync != cudaSuccess)
    return;
  int bad = 0, badHost = 0;
  std::vector<int> back(N);
  for (int k = 0; k < Count; ++k) {
    EXPECT(cudaMemcpy(back.data(), dev[k], N * sizeof(int),
                      cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < N; ++i) {
      bad += back[i] != k * 1000 + i;
      badHost += host[k][i] != -k * 1000 - i;
    }
  }
  std::printf("damaged device elements: %d, damaged host elements: %d\n", bad,
              badHost);
  EXPECT(bad == 0 && badHost == 0);
  for (int k = 0; k < Count; ++k) {
    EXPECT(cudaFree(dev[k]) == cudaSuccess);
    std::free(host[k]);
  }
  // The heap is whole: more allocations of every size come and go.
  for (int k = 0; k < 1000; ++k)
    std::free(std::malloc(size_t(16 + 24 * k)));
}

static void overrunFar() {
  const size_t Bytes = 64 << 10;
  char *bufs[4] = {};
  for (char *&b : bufs)
    EXPECT(cudaMalloc(&b, Bytes) == cudaSuccess);
  int *small = nullptr;
  EXPECT(cudaMalloc(&small, 64 * sizeof(int)) == cudaSuccess);
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  writeAt<<<1, 32>>>(bufs[0], Bytes + 8 * page);
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("write %zu pages past the end: %s\n", size_t(8),
              cudaGetErrorName(sync));
  EXPECT(sync == cudaErrorIllegalAddress);
  // The error is sticky until the reset, which frees the allocations.
  EXPECT(cudaFree(small) == cudaErrorIllegalAddress);
  EXPECT(cudaDeviceReset() == cudaSuccess);
  int *again = nullptr;
  EXPECT(cudaMalloc(&again, 64 * sizeof(int)) == cudaSuccess);
  fill<<<1, 64>>>(again, 64, 7);
  int back[64] = {};
  EXPECT(cudaMemcpy(back, again, sizeof back, cudaMemcpyDeviceToHost) ==
         cudaSuccess);
  EXPECT(back[0] == 7000 && back[63] == 7063);
  EXPECT(cudaFree(again) == cudaSuccess);
  for (int k = 0; k < 1000; ++k)
    std::free(std::malloc(size_t(16 + 24 * k)));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "slack";
  if (!std::strcmp(mode, "slack")) {
    overrunSmall(cudaSuccess);
  } else if (!std::strcmp(mode, "memcheck")) {
    overrunSmall(cudaErrorIllegalAddress);
  } else if (!std::strcmp(mode, "guard")) {
    overrunFar();
  } else {
    std::printf("unknown mode %s\n", mode);
    return 2;
  }
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
