//===- ApiOverhead.cpp - What a CUDA runtime call costs on cuhip ----------===//
//
// Calls the functions libcudart.so.13 exports (this program links against
// the build's drop-in, as a `-cudart shared` program does) in tight loops
// and prints nanoseconds per call next to a plain, non-inlined function call
// measured in the same run, and their ratio: the overhead of the drop-in's
// argument checks, handle lookups, locks and error bookkeeping, in units a
// reader can compare across machines. Each figure is the median of several
// repetitions. The empty kernel is PTX loaded through the runtime core;
// cudaLaunchKernel takes its kernel handle as it takes a cudaKernel_t.
// Every call's status is checked; with --quick the loops are short and the
// program only shows that everything runs (the ctest smoke test).
//
// usage: api_overhead [--quick] [--reps N]
//
//===----------------------------------------------------------------------===//
#include "CudaRuntimeTypes.h"

#include "cuhip/runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

// The exported functions of libcudart.so.13, as cuda_runtime_api.h declares
// them.
extern "C" {
cudaError_t cudaMalloc(void **DevPtr, size_t Size);
cudaError_t cudaFree(void *DevPtr);
cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       cudaMemcpyKind Kind);
cudaError_t cudaStreamCreate(cudaStream_t *Stream);
cudaError_t cudaStreamDestroy(cudaStream_t Stream);
cudaError_t cudaStreamSynchronize(cudaStream_t Stream);
cudaError_t cudaEventCreate(cudaEvent_t *Event);
cudaError_t cudaEventDestroy(cudaEvent_t Event);
cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream);
cudaError_t cudaEventQuery(cudaEvent_t Event);
cudaError_t cudaLaunchKernel(const void *Func, dim3 GridDim, dim3 BlockDim,
                             void **Args, size_t SharedMem,
                             cudaStream_t Stream);
const char *cudaGetErrorName(cudaError_t Error);
}

namespace {

const char *EmptyPtx = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry empty()
{
  ret;
}
)";

/// The reference: a call the compiler may not inline or remove.
__attribute__((noinline)) int plainCall(void *P) {
  asm volatile("" : : "r"(P) : "memory");
  return 0;
}
int (*volatile PlainCall)(void *) = plainCall;

bool Failed = false;

void check(cudaError_t E, const char *What) {
  if (E != 0 && !Failed) {
    std::fprintf(stderr, "api_overhead: error: %s gave %s\n", What,
                 cudaGetErrorName(E));
    Failed = true;
  }
}

/// Median over Reps of the ns per iteration of Body run Iters times.
double nsPerCall(int Reps, int Iters, const std::function<void()> &Body) {
  std::vector<double> Ns;
  Body(); // warm-up: first-touch, lazy initialisation
  for (int R = 0; R < Reps; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Iters; ++I)
      Body();
    auto T1 = std::chrono::steady_clock::now();
    Ns.push_back(std::chrono::duration<double, std::nano>(T1 - T0).count() /
                 Iters);
  }
  std::sort(Ns.begin(), Ns.end());
  return Ns[Ns.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  bool Quick = false;
  int Reps = 7;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--quick"))
      Quick = true;
    else if (!std::strcmp(Argv[I], "--reps") && I + 1 < Argc)
      Reps = std::max(1, std::atoi(Argv[++I]));
    else {
      std::fprintf(stderr, "usage: api_overhead [--quick] [--reps N]\n");
      return 2;
    }
  }
  if (Quick)
    Reps = 1;
  // Calls per repetition: enough for tens of milliseconds per row.
  int Scale = Quick ? 1 : 100;

  using namespace cuhip;
  rt::Runtime &R = rt::Runtime::get();
  rt::Module *M = nullptr;
  rt::Kernel *K = nullptr;
  if (R.loadModuleData(EmptyPtx, 0, "api_overhead.ptx", &M) !=
          rt::cudaSuccess ||
      R.moduleGetFunction(M, "empty", &K) != rt::cudaSuccess) {
    std::fprintf(stderr, "api_overhead: error: cannot load the empty kernel "
                         "(CUHIP_LOG=info says why)\n");
    return 1;
  }

  cudaStream_t Stream;
  cudaEvent_t Event;
  check(cudaStreamCreate(&Stream), "cudaStreamCreate");
  check(cudaEventCreate(&Event), "cudaEventCreate");
  void *Dev = nullptr;
  check(cudaMalloc(&Dev, 4), "cudaMalloc");
  uint32_t Word = 42;

  struct Row {
    const char *Name;
    int Iters;
    std::function<void()> Body;
    double CallsPerIteration = 1; // what the row's figure is per
  };
  auto mallocFree = [](size_t Bytes) {
    return [Bytes] {
      void *P = nullptr;
      check(cudaMalloc(&P, Bytes), "cudaMalloc");
      check(cudaFree(P), "cudaFree");
    };
  };
  // Many live allocations at once, as a program that keeps thousands of
  // small buffers has; the row is per pair of calls.
  std::vector<void *> Batch(1000);
  auto mallocBatch = [&] {
    for (void *&P : Batch)
      check(cudaMalloc(&P, 256), "cudaMalloc");
    for (void *P : Batch)
      check(cudaFree(P), "cudaFree");
  };
  std::vector<Row> Rows = {
      {"cudaMalloc + cudaFree (1 KiB)", 200 * Scale, mallocFree(1024)},
      {"cudaMalloc + cudaFree (64 KiB)", 200 * Scale, mallocFree(64 << 10)},
      {"cudaMalloc + cudaFree (4 MiB)", 20 * Scale, mallocFree(4 << 20)},
      {"1000 live cudaMalloc(256) + cudaFree", Scale, mallocBatch,
       double(Batch.size())},
      {"cudaMemcpy H2D (4 bytes)", 500 * Scale,
       [&] {
         check(cudaMemcpy(Dev, &Word, 4, cudaMemcpyHostToDevice), "cudaMemcpy");
       }},
      {"cudaStreamSynchronize (idle stream)", 500 * Scale,
       [&] { check(cudaStreamSynchronize(Stream), "cudaStreamSynchronize"); }},
      {"cudaEventRecord + cudaEventQuery", 500 * Scale,
       [&] {
         check(cudaEventRecord(Event, Stream), "cudaEventRecord");
         // Launches are asynchronous: the marker may not have run yet.
         cudaError_t Q = cudaEventQuery(Event);
         check(Q == rt::cudaErrorNotReady ? 0 : Q, "cudaEventQuery");
       }},
      {"empty kernel <<<1,32>>>", 20 * Scale,
       [&] {
         check(cudaLaunchKernel(K, dim3{1, 1, 1}, dim3{32, 1, 1}, nullptr, 0,
                                nullptr),
               "cudaLaunchKernel");
       }},
      {"empty kernel <<<1,32>>> + sync", 20 * Scale,
       [&] {
         check(cudaLaunchKernel(K, dim3{1, 1, 1}, dim3{32, 1, 1}, nullptr, 0,
                                nullptr),
               "cudaLaunchKernel");
         check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
       }},
  };

  const int PlainIters = 2000 * Scale;
  double Plain = nsPerCall(Reps, PlainIters, [] { PlainCall(nullptr); });
  std::printf("cuhip libcudart.so.13 call overhead, %s backend, median of %d "
              "repetitions\n",
              R.deviceInfo(0).Integrated ? "CPU" : "HIP", Reps);
  std::printf("plain non-inlined function call: %.2f ns\n\n", Plain);
  std::printf("%-38s %12s %14s %10s\n", "call", "ns/call", "plain call ns",
              "ratio");
  for (const Row &Rw : Rows) {
    double Ns = nsPerCall(Reps, Rw.Iters, Rw.Body) / Rw.CallsPerIteration;
    // The reference again, next to each row, so drift over the run shows.
    double Ref = nsPerCall(Reps, PlainIters, [] { PlainCall(nullptr); });
    std::printf("%-38s %12.1f %14.2f %10.0f\n", Rw.Name, Ns, Ref,
                Ref > 0 ? Ns / Ref : 0.0);
    if (Failed)
      break;
  }
  check(cudaFree(Dev), "cudaFree");
  check(cudaEventDestroy(Event), "cudaEventDestroy");
  check(cudaStreamDestroy(Stream), "cudaStreamDestroy");
  std::printf("\n%s\n", Failed ? "FAILED: a call returned an error"
                               : "all calls succeeded");
  return Failed ? 1 : 0;
}
