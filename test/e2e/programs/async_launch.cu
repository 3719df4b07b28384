// Launches and the other stream operations are asynchronous, as on a GPU:
// kernels that spin on a flag in mapped page-locked memory and in managed
// memory finish once the host sets the flag after the launch (they give up
// after 10 s, so a synchronous launch fails instead of hanging), and
// queries answer cudaErrorNotReady while they wait, through the runtime API
// and the driver API alike. A pipeline of kernels, memsets, copies, host
// functions and callbacks on three streams ordered by events gives the
// right results; device printf output precedes what the host prints after
// synchronising; configuration errors are reported by the launch and a
// kernel fault by the next synchronisation. Prints PASS.
//
// With the argument `exit` the program returns from main while a kernel
// still waits for a flag nobody sets and more work is queued behind it: the
// process must end at once, with main's exit status.
#include "Expect.h"

#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <string>
#include <unistd.h>
#include <vector>

__device__ unsigned long long globalTimer() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

// *out = 1 once *flag is set, 2 if limitNs passed first.
__global__ void waitFlag(volatile int *flag, int *out,
                         unsigned long long limitNs) {
  unsigned long long start = globalTimer();
  while (*flag == 0)
    if (globalTimer() - start > limitNs) {
      *out = 2;
      return;
    }
  *out = 1;
}

__global__ void fill(int *a, int n, int round) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = i + round;
}

__global__ void addOne(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1;
}

__global__ void twice(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * in[i];
}

__global__ void addTo(int *acc, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] += in[i];
}

__global__ void say(int v) { printf("device says %d\n", v); }

__global__ void wild(int *p) { p[threadIdx.x] = 1; }

// The driver API's copy of waitFlag.
static const char *WaitFlagPtx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry waitflag(.param .u64 flag, .param .u64 out,
                         .param .u64 limit_ns)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd7, [limit_ns];
  mov.u64 %rd3, %globaltimer;
  add.u64 %rd4, %rd3, %rd7;
SPIN:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SEEN;
  mov.u64 %rd5, %globaltimer;
  setp.lt.u64 %p2, %rd5, %rd4;
  @%p2 bra SPIN;
  mov.u32 %r2, 2;
  st.global.u32 [%rd2], %r2;
  ret;
SEEN:
  mov.u32 %r2, 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

static const unsigned long long TenSeconds = 10'000'000'000ull;

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *n_ = nullptr;                                                \
      cuGetErrorName(r_, &n_);                                                 \
      printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, n_ ? n_ : "?");  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/// A kernel waits for a flag the host writes after the launch.
static void flagInMemory(volatile int *hostFlag, int *devFlag, const char *what) {
  int *out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(int)));
  CHECK(cudaMemset(out, 0, sizeof(int)));
  cudaEvent_t after;
  CHECK(cudaEventCreate(&after));
  *hostFlag = 0;
  waitFlag<<<1, 1>>>(devFlag, out, TenSeconds);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(after, 0));
  EXPECT_ERR(cudaStreamQuery(0), cudaErrorNotReady);
  EXPECT_ERR(cudaEventQuery(after), cudaErrorNotReady);
  *hostFlag = 1;
  CHECK(cudaEventSynchronize(after));
  CHECK(cudaStreamQuery(0));
  int seen = 0;
  CHECK(cudaMemcpy(&seen, out, sizeof(int), cudaMemcpyDeviceToHost));
  printf("%s flag: %s\n", what,
         seen == 1 ? "seen" : seen == 2 ? "timed out" : "never read");
  EXPECT(seen == 1);
  CHECK(cudaEventDestroy(after));
  CHECK(cudaFree(out));
}

/// Another stream's work completes while a kernel waits.
static void streamsRunSideBySide() {
  int *flag = nullptr, *out = nullptr;
  CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  CHECK(cudaMalloc(&out, sizeof(int)));
  int *devFlag = nullptr;
  CHECK(cudaHostGetDevicePointer(&devFlag, flag, 0));
  *flag = 0;
  cudaStream_t waiting, other;
  CHECK(cudaStreamCreateWithFlags(&waiting, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  waitFlag<<<1, 1, 0, waiting>>>(devFlag, out, TenSeconds);
  int *scratch = nullptr, value = 17, back = 0;
  CHECK(cudaMalloc(&scratch, sizeof(int)));
  CHECK(cudaMemcpyAsync(scratch, &value, sizeof(int), cudaMemcpyHostToDevice,
                        other));
  CHECK(cudaMemcpyAsync(&back, scratch, sizeof(int), cudaMemcpyDeviceToHost,
                        other));
  CHECK(cudaStreamSynchronize(other));
  EXPECT(back == 17);
  EXPECT_ERR(cudaStreamQuery(waiting), cudaErrorNotReady);
  *reinterpret_cast<volatile int *>(flag) = 1;
  CHECK(cudaStreamSynchronize(waiting));
  int seen = 0;
  CHECK(cudaMemcpy(&seen, out, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(seen == 1);
  CHECK(cudaStreamDestroy(waiting));
  CHECK(cudaStreamDestroy(other));
  CHECK(cudaFree(scratch));
  CHECK(cudaFree(out));
  CHECK(cudaFreeHost(flag));
}

struct Progress {
  int next = 0;    // the round the next host function should see
  int misorder = 0;
  const int *slices; // page-locked copies of each round's result
  int n;
  int badSlices = 0;
};

struct RoundTag {
  Progress *p;
  int round;
};

static void CUDART_CB roundDone(void *arg) {
  RoundTag *t = static_cast<RoundTag *>(arg);
  if (t->round != t->p->next++)
    ++t->p->misorder;
  // The copy before this function has landed.
  const int *s = t->p->slices + size_t(t->round) * t->p->n;
  for (int i = 0; i < t->p->n; i += 997)
    if (s[i] != 2 * (i + t->round + 1))
      ++t->p->badSlices;
}

static void CUDART_CB allDone(cudaStream_t, cudaError_t status, void *arg) {
  Progress *p = static_cast<Progress *>(arg);
  if (status != cudaSuccess)
    ++p->misorder;
  p->next += 1000;
}

/// Rounds of work on three streams, each stage waiting for the one before
/// through events, with nothing synchronised until the end.
static void pipeline() {
  const int n = 1 << 16, rounds = 24, threads = 256;
  const int blocks = (n + threads - 1) / threads;
  int *a, *b, *c, *slices;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&c, n * sizeof(int)));
  CHECK(cudaMallocHost(&slices, size_t(rounds) * n * sizeof(int)));
  std::memset(slices, 0xff, size_t(rounds) * n * sizeof(int));
  cudaStream_t s1, s2, s3;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
  cudaEvent_t filled, doubled, copied;
  CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&doubled, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
  Progress progress;
  progress.slices = slices;
  progress.n = n;
  std::vector<RoundTag> tags(rounds);
  for (int r = 0; r < rounds; ++r) {
    // a = i + r + 1, once the previous round has read a.
    CHECK(cudaStreamWaitEvent(s1, doubled, 0));
    fill<<<blocks, threads, 0, s1>>>(a, n, r);
    addOne<<<blocks, threads, 0, s1>>>(a, n);
    CHECK(cudaEventRecord(filled, s1));
    // c = 2a, once a is filled and the previous round's c is copied.
    CHECK(cudaStreamWaitEvent(s2, filled, 0));
    CHECK(cudaStreamWaitEvent(s2, copied, 0));
    twice<<<blocks, threads, 0, s2>>>(a, b, n);
    CHECK(cudaMemsetAsync(c, 0, n * sizeof(int), s2));
    addTo<<<blocks, threads, 0, s2>>>(c, b, n);
    CHECK(cudaEventRecord(doubled, s2));
    // The round's slice, then a host function that checks it.
    CHECK(cudaStreamWaitEvent(s3, doubled, 0));
    CHECK(cudaMemcpyAsync(slices + size_t(r) * n, c, n * sizeof(int),
                          cudaMemcpyDeviceToHost, s3));
    tags[r] = {&progress, r};
    CHECK(cudaLaunchHostFunc(s3, roundDone, &tags[r]));
    CHECK(cudaEventRecord(copied, s3));
  }
  CHECK(cudaStreamAddCallback(s3, allDone, &progress, 0));
  // Nothing waited yet: the host got here while the streams work.
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < n; ++i)
      if (slices[size_t(r) * n + i] != 2 * (i + r + 1))
        ++bad;
  printf("pipeline: %d rounds, %d wrong elements, %d out of order, %d "
         "wrong when checked\n",
         rounds, bad, progress.misorder, progress.badSlices);
  EXPECT(bad == 0 && progress.misorder == 0 && progress.badSlices == 0);
  EXPECT(progress.next == rounds + 1000);
  CHECK(cudaEventDestroy(filled));
  CHECK(cudaEventDestroy(doubled));
  CHECK(cudaEventDestroy(copied));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaStreamDestroy(s3));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFreeHost(slices));
}

/// Device printf output is in stdout by the time the host has synchronised,
/// before what the host prints next.
static void printfBeforeTheHost() {
  fflush(stdout);
  FILE *capture = tmpfile();
  int saved = dup(1);
  dup2(fileno(capture), 1);
  say<<<1, 1>>>(42);
  CHECK(cudaDeviceSynchronize());
  printf("host after sync\n");
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string text;
  char buf[256];
  rewind(capture);
  size_t got;
  while ((got = fread(buf, 1, sizeof(buf), capture)) > 0)
    text.append(buf, got);
  fclose(capture);
  size_t device = text.find("device says 42\n");
  size_t host = text.find("host after sync\n");
  printf("printf: device line at %zd, host line at %zd\n", (ssize_t)device,
         (ssize_t)host);
  EXPECT(device != std::string::npos && host != std::string::npos &&
         device < host);
}

struct CallbackSeen {
  const volatile int *out;
  int value = 0;
  CUresult status = CUDA_ERROR_UNKNOWN;
  int hostFnRuns = 0;
};

static void CUDA_CB driverCallback(CUstream, CUresult status, void *arg) {
  CallbackSeen *s = static_cast<CallbackSeen *>(arg);
  s->status = status;
  s->value = *s->out;
}

static void CUDA_CB driverHostFn(void *arg) {
  ++static_cast<CallbackSeen *>(arg)->hostFnRuns;
}

/// The same through the driver API, which programs built with the static
/// runtime reach too.
static void driverApi() {
  CU_CHECK(cuInit(0));
  CUcontext ctx;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
  CU_CHECK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CUfunction fn;
  CU_CHECK(cuModuleLoadData(&mod, WaitFlagPtx));
  CU_CHECK(cuModuleGetFunction(&fn, mod, "waitflag"));
  int *flag = nullptr, *out = nullptr;
  CU_CHECK(cuMemHostAlloc(reinterpret_cast<void **>(&flag), 2 * sizeof(int),
                          CU_MEMHOSTALLOC_DEVICEMAP));
  out = flag + 1;
  flag[0] = flag[1] = 0;
  CUdeviceptr devFlag, devOut;
  CU_CHECK(cuMemHostGetDevicePointer(&devFlag, flag, 0));
  devOut = devFlag + sizeof(int);
  CUstream stream;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent event;
  CU_CHECK(cuEventCreate(&event, CU_EVENT_DEFAULT));
  unsigned long long limit = TenSeconds;
  void *args[] = {&devFlag, &devOut, &limit};
  CU_CHECK(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, stream, args, nullptr));
  CU_CHECK(cuEventRecord(event, stream));
  CallbackSeen seen{out};
  CU_CHECK(cuStreamAddCallback(stream, driverCallback, &seen, 0));
  CU_CHECK(cuLaunchHostFunc(stream, driverHostFn, &seen));
  // A pageable source is taken at the call.
  CUdeviceptr scratch;
  CU_CHECK(cuMemAlloc(&scratch, sizeof(int)));
  int pageable = 5;
  CU_CHECK(cuMemcpyHtoDAsync(scratch, &pageable, sizeof(int), stream));
  pageable = 6;
  if (cuStreamQuery(stream) != CUDA_ERROR_NOT_READY ||
      cuEventQuery(event) != CUDA_ERROR_NOT_READY) {
    printf("driver: the stream was done before the flag was set\n");
    ++failures;
  }
  EXPECT(seen.hostFnRuns == 0);
  *reinterpret_cast<volatile int *>(flag) = 1;
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuStreamQuery(stream));
  int back = 0;
  CU_CHECK(cuMemcpyDtoH(&back, scratch, sizeof(int)));
  printf("driver: kernel %d, callback saw %d (status %d), host function ran "
         "%d time(s), copy %d\n",
         *out, seen.value, int(seen.status), seen.hostFnRuns, back);
  EXPECT(*out == 1 && seen.value == 1 && seen.status == CUDA_SUCCESS &&
         seen.hostFnRuns == 1 && back == 5);
  CU_CHECK(cuMemFree(scratch));
  CU_CHECK(cuEventDestroy(event));
  CU_CHECK(cuStreamDestroy(stream));
  CU_CHECK(cuMemFreeHost(flag));
  CU_CHECK(cuModuleUnload(mod));
  CU_CHECK(cuDevicePrimaryCtxRelease(0));
}

/// Configuration errors at the launch, a fault at the next synchronisation
/// (sticky from then on). Last, as the context stays unusable.
static void errors() {
  int *ok = nullptr;
  CHECK(cudaMalloc(&ok, 32 * sizeof(int)));
  addOne<<<0, 32>>>(ok, 32);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
  addOne<<<1, 4096>>>(ok, 32);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
  CHECK(cudaDeviceSynchronize());
  wild<<<1, 32>>>(reinterpret_cast<int *>(0x1000));
  // The launch itself succeeded; its fault is the device's.
  EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_ERR(cudaStreamQuery(0), cudaErrorIllegalAddress);
  EXPECT_ERR(cudaMemcpy(ok, ok, 4, cudaMemcpyDeviceToDevice),
             cudaErrorIllegalAddress);
}

/// Returns from main with a kernel waiting for a flag nobody sets and work
/// queued behind it, on two streams.
static int exitWithWorkQueued() {
  int *flag = nullptr, *out = nullptr;
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  CHECK(cudaMalloc(&out, sizeof(int)));
  *flag = 0;
  cudaStream_t s, t;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking));
  cudaEvent_t e;
  CHECK(cudaEventCreate(&e));
  waitFlag<<<1, 1, 0, s>>>(flag, out, 120 * 1'000'000'000ull);
  CHECK(cudaEventRecord(e, s));
  say<<<1, 1, 0, s>>>(1);
  CHECK(cudaStreamWaitEvent(t, e, 0));
  say<<<1, 1, 0, t>>>(2);
  CHECK(cudaMemsetAsync(out, 0, sizeof(int), t));
  EXPECT_ERR(cudaStreamQuery(s), cudaErrorNotReady);
  printf("%s\n", failures ? "FAIL" : "PASS");
  fflush(stdout);
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "exit") == 0)
    return exitWithWorkQueued();
  int *pinned = nullptr, *mapped = nullptr, *managed = nullptr;
  CHECK(cudaHostAlloc(&pinned, sizeof(int), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&mapped, pinned, 0));
  flagInMemory(pinned, mapped, "mapped page-locked");
  CHECK(cudaMallocManaged(&managed, sizeof(int)));
  flagInMemory(managed, managed, "managed");
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(managed));
  streamsRunSideBySide();
  pipeline();
  printfBeforeTheHost();
  driverApi();
  errors();
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
