// managed: `__managed__` variables and cudaMallocManaged memory, shared by
// host and device code without explicit copies. The host initializes a
// managed counter and a managed table, a kernel updates both (the counter
// with atomics from every thread), and the host reads the results after
// cudaDeviceSynchronize; a cudaMallocManaged buffer goes through the same
// round trip. Prints PASS or FAIL.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int kTable = 64;
__managed__ int counter;
__managed__ float table[kTable];

__global__ void update(float *buffer, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&counter, 1);
    buffer[i] = buffer[i] * 2.0f + 1.0f;
  }
  if (i < kTable)
    table[i] += float(i);
}

int main() {
  const int n = 1000;
  counter = 7;
  for (int i = 0; i < kTable; ++i)
    table[i] = 0.5f;
  float *buffer = nullptr;
  CHECK(cudaMallocManaged(&buffer, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    buffer[i] = float(i % 17);

  update<<<(n + 127) / 128, 128>>>(buffer, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int bad = 0;
  if (counter != 7 + n) {
    std::printf("counter: got %d, want %d\n", counter, 7 + n);
    ++bad;
  }
  for (int i = 0; i < kTable; ++i)
    if (table[i] != 0.5f + float(i) && bad++ < 5)
      std::printf("table[%d]: got %g, want %g\n", i, table[i], 0.5f + i);
  // Small integers times 2 plus 1: exact in float.
  for (int i = 0; i < n; ++i)
    if (buffer[i] != float(i % 17) * 2.0f + 1.0f && bad++ < 5)
      std::printf("buffer[%d]: got %g\n", i, buffer[i]);
  CHECK(cudaFree(buffer));
  std::printf("managed: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
