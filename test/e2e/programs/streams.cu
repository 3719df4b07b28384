// Streams and events through the CUDA runtime API as programs use them: a
// pipeline of copies and kernels on two created streams ordered by an
// event, a host function and a callback that see the work before them,
// event timing, the per-thread default stream, and CUDA's errors for a
// destroyed stream and an event without timing. Prints PASS when all hold.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void addOne(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1;
}

__global__ void twice(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i];
}

static int failures = 0;
#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("check failed at line %d: %s\n", __LINE__, #cond);          \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

struct Seen {
  const int *host;
  int value;
};

static void CUDART_CB hostFn(void *p) {
  Seen *s = static_cast<Seen *>(p);
  s->value = s->host[5];
}

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *p) {
  *static_cast<int *>(p) = status == cudaSuccess ? 1 : -1;
}

int main() {
  const int n = 1000;
  static int h[n], out[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *a, *b;
  CHECK(cudaMalloc(&a, sizeof(h)) == cudaSuccess);
  CHECK(cudaMalloc(&b, sizeof(h)) == cudaSuccess);

  int least = 1, greatest = 1;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, greatest) ==
        cudaSuccess);
  unsigned flags = 0;
  CHECK(cudaStreamGetFlags(s1, &flags) == cudaSuccess &&
        flags == cudaStreamNonBlocking);
  cudaEvent_t start, produced, stop, untimed;
  CHECK(cudaEventCreate(&start) == cudaSuccess);
  CHECK(cudaEventCreate(&produced) == cudaSuccess);
  CHECK(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync) == cudaSuccess);
  CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) ==
        cudaSuccess);

  // s1 produces a, s2 waits for it and derives b.
  CHECK(cudaEventRecord(start, s1) == cudaSuccess);
  CHECK(cudaMemcpyAsync(a, h, sizeof(h), cudaMemcpyHostToDevice, s1) ==
        cudaSuccess);
  addOne<<<(n + 127) / 128, 128, 0, s1>>>(a, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaEventRecord(produced, s1) == cudaSuccess);
  CHECK(cudaStreamWaitEvent(s2, produced, 0) == cudaSuccess);
  twice<<<(n + 127) / 128, 128, 0, s2>>>(a, b, n);
  CHECK(cudaMemcpyAsync(out, b, sizeof(out), cudaMemcpyDeviceToHost, s2) ==
        cudaSuccess);
  Seen seen{out, -1};
  CHECK(cudaLaunchHostFunc(s2, hostFn, &seen) == cudaSuccess);
  int called = 0;
  CHECK(cudaStreamAddCallback(s2, callback, &called, 0) == cudaSuccess);
  CHECK(cudaEventRecord(stop, s2) == cudaSuccess);
  CHECK(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s2) == cudaSuccess);
  CHECK(cudaStreamQuery(s1) == cudaSuccess);
  bool right = true;
  for (int i = 0; i < n; ++i)
    right &= out[i] == 2 * (i + 1);
  CHECK(right);
  CHECK(seen.value == 12);
  CHECK(called == 1);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms >= 0);
  CHECK(cudaEventQuery(stop) == cudaSuccess);

  // The per-thread default stream and cudaMemsetAsync on the legacy one.
  addOne<<<(n + 127) / 128, 128, 0, cudaStreamPerThread>>>(a, n);
  CHECK(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
  CHECK(cudaMemsetAsync(b, 0, sizeof(h), 0) == cudaSuccess);
  CHECK(cudaMemcpy(out, a, sizeof(out), cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(out[0] == 2 && out[n - 1] == n + 1);

  // CUDA's errors: timing an event created without timing, using a
  // destroyed stream.
  CHECK(cudaEventRecord(untimed, 0) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, untimed) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaStreamDestroy(s1) == cudaSuccess);
  CHECK(cudaStreamDestroy(s2) == cudaSuccess);
  for (cudaEvent_t e : {start, produced, stop, untimed})
    CHECK(cudaEventDestroy(e) == cudaSuccess);
  CHECK(cudaFree(a) == cudaSuccess && cudaFree(b) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
