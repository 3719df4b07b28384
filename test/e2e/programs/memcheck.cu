// Memcheck mode (cuhip run --memcheck): each argument runs one bad kernel
// and expects the launch to fail with cudaErrorIllegalAddress, sticky, after
// the report on stderr (which the test checks):
//   oob     a global write one element past the end of an allocation
//   uaf     a read of an allocation that was freed
//   shared  a write past the end of a static __shared__ array
//   host    a read of host memory (malloc'd, not a device allocation)
//   devfn   an out-of-bounds write inside a device function, which the
//           report names although it is inlined into the kernel
//   clean   a kernel that uses every kind of memory correctly: no report
//   churn   kernels run while another host thread allocates and frees:
//           no report, no crash
// Without memcheck the bad kernels would "work": each access stays inside
// memory the process owns. Prints PASS when the outcome is as expected.
#include <cstdio>
#include <atomic>
#include <cstring>
#include <thread>
#include <cuda_runtime.h>

__global__ void scale(int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i] = 2 * i;
}

__global__ void readFreed(const int *v, int *out) {
  out[threadIdx.x] = v[threadIdx.x];
}

__global__ void tileOverflow(const int *in, int *out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = in[threadIdx.x]; // blockDim.x is 128
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

__device__ int table[16];

__device__ __noinline__ void writeAfter(int *p, int n) { p[n] = n; }

__global__ void callsWriteAfter(int *v, int n) {
  if (threadIdx.x == 0)
    writeAfter(v, n);
}

__device__ __noinline__ int sumThrough(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}

__global__ void clean(const int *in, int *out, int n) {
  extern __shared__ int dyn[];
  __shared__ int fixed[32];
  int local[8];
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i)
    local[i] = in[(t + i) % n];
  fixed[t] = in[t];
  dyn[t] = 2 * in[t];
  if (t < 16)
    table[t] = t;
  int *heap = static_cast<int *>(malloc(4 * sizeof(int)));
  heap[t % 4] = t;
  __syncthreads();
  atomicAdd(&out[n], 1);
  // Generic pointers into shared, local and global memory.
  out[t] = sumThrough(fixed, 32) + sumThrough(dyn, 32) +
           sumThrough(local, 8) + table[t % 16] + heap[t % 4] - t;
  free(heap);
}

static bool expectIllegal(cudaError_t launch, const char *what) {
  cudaError_t later = cudaDeviceSynchronize();
  std::printf("%s: launch %s, later %s\n", what, cudaGetErrorName(launch),
              cudaGetErrorName(later));
  return launch == cudaErrorIllegalAddress && later == cudaErrorIllegalAddress;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "clean";
  bool pass = false;
  if (!std::strcmp(mode, "oob")) {
    int *v;
    cudaMalloc(&v, 100 * sizeof(int)); // 2 x 64 threads write 128 elements
    scale<<<2, 64>>>(v);
    pass = expectIllegal(cudaDeviceSynchronize(), "oob");
  } else if (!std::strcmp(mode, "uaf")) {
    int *v, *out;
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMalloc(&v, 32 * sizeof(int));
    cudaFree(v);
    readFreed<<<1, 32>>>(v, out);
    pass = expectIllegal(cudaDeviceSynchronize(), "uaf");
  } else if (!std::strcmp(mode, "shared")) {
    int *in, *out;
    cudaMalloc(&in, 128 * sizeof(int));
    cudaMalloc(&out, 128 * sizeof(int));
    cudaMemset(in, 0, 128 * sizeof(int));
    tileOverflow<<<1, 128>>>(in, out);
    pass = expectIllegal(cudaDeviceSynchronize(), "shared");
  } else if (!std::strcmp(mode, "host")) {
    int *host = new int[32](), *out;
    cudaMalloc(&out, 32 * sizeof(int));
    readFreed<<<1, 32>>>(host, out);
    pass = expectIllegal(cudaDeviceSynchronize(), "host");
    delete[] host;
  } else if (!std::strcmp(mode, "devfn")) {
    int *v;
    cudaMalloc(&v, 8 * sizeof(int));
    callsWriteAfter<<<1, 32>>>(v, 8);
    pass = expectIllegal(cudaDeviceSynchronize(), "devfn");
  } else if (!std::strcmp(mode, "churn")) {
    int *v;
    cudaMalloc(&v, 256 * sizeof(int));
    std::atomic<bool> stop{false};
    std::atomic<int> churnErrors{0};
    std::thread churn([&] {
      while (!stop) {
        void *p[8];
        for (auto &q : p)
          if (cudaMalloc(&q, 4096) != cudaSuccess)
            ++churnErrors;
        for (auto &q : p)
          if (cudaFree(q) != cudaSuccess)
            ++churnErrors;
      }
    });
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < 200 && err == cudaSuccess; ++i) {
      scale<<<4, 64>>>(v);
      err = cudaDeviceSynchronize();
    }
    stop = true;
    churn.join();
    std::printf("churn: %s, %d allocation errors\n", cudaGetErrorName(err),
                churnErrors.load());
    pass = err == cudaSuccess && churnErrors == 0;
  } else {
    const int n = 32;
    int h[n + 1], *in, *out;
    for (int i = 0; i < n; ++i)
      h[i] = i;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, (n + 1) * sizeof(int));
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, (n + 1) * sizeof(int));
    clean<<<1, n, n * sizeof(int)>>>(in, out, n);
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(h, out, (n + 1) * sizeof(int), cudaMemcpyDeviceToHost);
    // sum(fixed) = 496, sum(dyn) = 992, sum(local) = sum of 8 in[] values,
    // table[t % 16] = t % 16, heap[t % 4] = t's own write or another's.
    int local = 0;
    for (int i = 0; i < 8; ++i)
      local += (0 + i) % n;
    std::printf("clean: %s, out[0] = %d, count = %d\n", cudaGetErrorName(err),
                h[0], h[n]);
    pass = err == cudaSuccess && h[n] == n && h[0] == 496 + 992 + local + 0 + 0;
  }
  std::printf("%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
