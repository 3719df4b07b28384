// streams_events: a three-stage pipeline over three streams, in four chunks.
// Per chunk, stream 0 copies x in with cudaMemcpyAsync and scales it; stream
// 1 copies y in, waits (cudaStreamWaitEvent) for stream 0's event and adds
// the two; stream 2 waits for stream 1's event, transforms the sum and
// copies it out. cudaLaunchHostFunc callbacks log the order in which the
// stages finish, and the last one checks the copied-out chunk from the host
// side. Checked: the data, that the logged order respects every stream and
// event dependency, a non-negative cudaEventElapsedTime between events on
// different streams (and cudaErrorInvalidResourceHandle for events created
// with cudaEventDisableTiming), and cudaStreamQuery/cudaEventQuery giving
// cudaSuccess once everything is synchronized. Host buffers are page-locked
// (cudaMallocHost), as asynchronous copies want them. Prints PASS or FAIL.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int kChunks = 4, kChunk = 1 << 15, kStages = 3;

__global__ void scale(float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    x[i] *= a;
}

__global__ void addInto(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] += x[i];
}

__global__ void affine(float *out, const float *in, float a, float b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = a * in[i] + b;
}

// Integer-valued data keeps every device result exact.
static float xValue(int i) { return float(i % 97); }
static float yValue(int i) { return float((i * 7) % 31) - 15.0f; }
static float expected(int i) {
  return 3.0f * (2.0f * xValue(i) + yValue(i)) + 1.0f;
}

struct Log {
  std::atomic<int> next{0};
  int order[kChunks][kStages]; // position in the global completion order
  const float *hostOut = nullptr;
  int chunkOk[kChunks] = {};
};

struct StageTag {
  Log *log;
  int chunk, stage;
};

static void CUDART_CB stageDone(void *p) {
  StageTag *tag = (StageTag *)p;
  tag->log->order[tag->chunk][tag->stage] = tag->log->next.fetch_add(1);
  if (tag->stage == kStages - 1) {
    // The copy of this chunk was enqueued before this callback in the same
    // stream, so its data must already be on the host.
    int ok = 1, base = tag->chunk * kChunk;
    for (int i = 0; i < kChunk; ++i)
      ok &= tag->log->hostOut[base + i] == expected(base + i);
    tag->log->chunkOk[tag->chunk] = ok;
  }
}

int main() {
  const int n = kChunks * kChunk;
  size_t bytes = size_t(n) * sizeof(float), chunkBytes = kChunk * sizeof(float);
  float *hx, *hy, *hout;
  CHECK(cudaMallocHost(&hx, bytes));
  CHECK(cudaMallocHost(&hy, bytes));
  CHECK(cudaMallocHost(&hout, bytes));
  for (int i = 0; i < n; ++i) {
    hx[i] = xValue(i);
    hy[i] = yValue(i);
    hout[i] = -1.0f;
  }
  float *dx, *dy, *dout;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dy, bytes));
  CHECK(cudaMalloc(&dout, bytes));

  cudaStream_t streams[kStages];
  CHECK(cudaStreamCreate(&streams[0]));
  CHECK(cudaStreamCreateWithFlags(&streams[1], cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&streams[2], cudaStreamNonBlocking));
  cudaEvent_t start, stop, stageEvents[kChunks][2];
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (auto &pair : stageEvents)
    for (auto &e : pair)
      CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));

  int bad = 0;
  // Querying an event that was never recorded reports success.
  if (cudaEventQuery(stageEvents[0][0]) != cudaSuccess && bad++ < 8)
    std::fprintf(stderr, "query of an unrecorded event failed\n");

  Log log;
  log.hostOut = hout;
  StageTag tags[kChunks][kStages];
  CHECK(cudaEventRecord(start, streams[0]));
  for (int c = 0; c < kChunks; ++c) {
    size_t off = size_t(c) * kChunk;
    for (int s = 0; s < kStages; ++s)
      tags[c][s] = {&log, c, s};
    // Stage 0: x = 2x. The callback goes before the event record so that the
    // event, and everything waiting on it, follows the callback.
    CHECK(cudaMemcpyAsync(dx + off, hx + off, chunkBytes,
                          cudaMemcpyHostToDevice, streams[0]));
    scale<<<16, 128, 0, streams[0]>>>(dx + off, 2.0f, kChunk);
    CHECK(cudaGetLastError());
    CHECK(cudaLaunchHostFunc(streams[0], stageDone, &tags[c][0]));
    CHECK(cudaEventRecord(stageEvents[c][0], streams[0]));
    // Stage 1: y += x once stage 0 of this chunk is done.
    CHECK(cudaMemcpyAsync(dy + off, hy + off, chunkBytes,
                          cudaMemcpyHostToDevice, streams[1]));
    CHECK(cudaStreamWaitEvent(streams[1], stageEvents[c][0], 0));
    addInto<<<16, 128, 0, streams[1]>>>(dy + off, dx + off, kChunk);
    CHECK(cudaGetLastError());
    CHECK(cudaLaunchHostFunc(streams[1], stageDone, &tags[c][1]));
    CHECK(cudaEventRecord(stageEvents[c][1], streams[1]));
    // Stage 2: out = 3y + 1 and copy it back.
    CHECK(cudaStreamWaitEvent(streams[2], stageEvents[c][1], 0));
    affine<<<16, 128, 0, streams[2]>>>(dout + off, dy + off, 3.0f, 1.0f,
                                       kChunk);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(hout + off, dout + off, chunkBytes,
                          cudaMemcpyDeviceToHost, streams[2]));
    CHECK(cudaLaunchHostFunc(streams[2], stageDone, &tags[c][2]));
  }
  CHECK(cudaEventRecord(stop, streams[2]));
  CHECK(cudaEventSynchronize(stop));
  for (auto s : streams)
    CHECK(cudaStreamSynchronize(s));

  for (int i = 0; i < n; ++i)
    if (hout[i] != expected(i) && bad++ < 8)
      std::fprintf(stderr, "out[%d]: got %g, want %g\n", i, hout[i],
                   expected(i));
  if (log.next.load() != kChunks * kStages && bad++ < 8)
    std::fprintf(stderr, "%d callbacks ran, want %d\n", log.next.load(),
                 kChunks * kStages);
  for (int c = 0; c < kChunks; ++c) {
    const int *o = log.order[c];
    // Event dependencies inside a chunk, stream order across chunks.
    bool ok = o[0] < o[1] && o[1] < o[2] && log.chunkOk[c];
    if (c > 0)
      for (int s = 0; s < kStages; ++s)
        ok &= log.order[c - 1][s] < o[s];
    if (!ok && bad++ < 8)
      std::fprintf(stderr,
                   "chunk %d: callback order %d %d %d, data seen by the "
                   "callback %s\n",
                   c, o[0], o[1], o[2], log.chunkOk[c] ? "ok" : "wrong");
  }

  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (!(ms >= 0.0f) && bad++ < 8)
    std::fprintf(stderr, "elapsed time %g ms is negative\n", ms);
  cudaError_t noTiming = cudaEventElapsedTime(&ms, start, stageEvents[0][0]);
  if (noTiming != cudaErrorInvalidResourceHandle && bad++ < 8)
    std::fprintf(stderr, "elapsed time with a non-timing event gave %s\n",
                 cudaGetErrorName(noTiming));
  for (auto s : streams)
    if (cudaStreamQuery(s) != cudaSuccess && bad++ < 8)
      std::fprintf(stderr, "stream not idle after synchronize\n");
  for (auto &pair : stageEvents)
    for (auto e : pair)
      if (cudaEventQuery(e) != cudaSuccess && bad++ < 8)
        std::fprintf(stderr, "event not complete after synchronize\n");
  if (cudaEventQuery(stop) != cudaSuccess && bad++ < 8)
    std::fprintf(stderr, "stop event not complete after synchronize\n");

  for (auto &pair : stageEvents)
    for (auto e : pair)
      CHECK(cudaEventDestroy(e));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (auto s : streams)
    CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dout));
  CHECK(cudaFreeHost(hx));
  CHECK(cudaFreeHost(hy));
  CHECK(cudaFreeHost(hout));
  std::printf("streams_events chunks=%d elapsed>=0: %s\n", kChunks,
              bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
