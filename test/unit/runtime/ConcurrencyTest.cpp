//===- ConcurrencyTest.cpp - The runtime core from many host threads ------===//
//
// Eight host threads use the runtime core at once, each with its own streams
// and events: allocating and freeing, copying in both directions, launching
// kernels, ordering two streams through events, capturing and replaying a
// graph, and reading their own last error. Every result is checked, so a lost
// update or a wrong error code fails the test; scripts/sanitize-check runs it
// under ThreadSanitizer, which reports the races that do not change results.
//
//===----------------------------------------------------------------------===//
#include "AddKernelPtx.h"
#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace cuhip::rt;

namespace {

using test::AddPtx;

constexpr int Threads = 8;
constexpr int Rounds = 25;

/// One thread's work; returns a description of the first failed check, or
/// an empty string.
std::string hammer(int T, Kernel *K) {
  Runtime &R = Runtime::get();
  auto fail = [&](const char *What, int Round, Status S) {
    return "thread " + std::to_string(T) + " round " + std::to_string(Round) +
           ": " + What + " gave " + statusName(S);
  };
  void *A = nullptr, *B = nullptr, *Done = nullptr, *Timed = nullptr;
  if (Status S = R.streamCreate(&A, 0, 0))
    return fail("streamCreate", -1, S);
  // Captured streams are non-blocking, so the legacy-stream copies of the
  // other threads do not conflict with their captures.
  if (Status S = R.streamCreate(&B, /*cudaStreamNonBlocking=*/1, 0))
    return fail("streamCreate", -1, S);
  if (Status S = R.eventCreate(&Done, /*cudaEventDisableTiming=*/2))
    return fail("eventCreate", -1, S);
  if (Status S = R.eventCreate(&Timed, 0))
    return fail("eventCreate", -1, S);
  for (int Round = 0; Round < Rounds; ++Round) {
    unsigned N = 64 + 37 * ((T * Rounds + Round) % 29);
    std::vector<uint32_t> Host(N), Back(N);
    for (unsigned I = 0; I < N; ++I)
      Host[I] = I * 3 + T;
    void *Dev = nullptr;
    if (Status S = R.malloc(&Dev, N * 4))
      return fail("malloc", Round, S);
    if (Status S = R.memcpy(Dev, Host.data(), N * 4, CopyKind::HostToDevice))
      return fail("memcpy H2D", Round, S);
    unsigned V = T + 1;
    void *Args[] = {&Dev, &N, &V};
    Dim3 Grid{(N + 63) / 64, 1, 1}, Block{64, 1, 1};
    if (Status S = R.launch(K, Grid, Block, Args, 0, A))
      return fail("launch on A", Round, S);
    if (Status S = R.eventRecord(Done, A))
      return fail("eventRecord", Round, S);
    if (Status S = R.streamWaitEvent(B, Done, 0))
      return fail("streamWaitEvent", Round, S);
    if (Status S = R.launch(K, Grid, Block, Args, 0, B))
      return fail("launch on B", Round, S);
    if (Status S = R.eventRecord(Timed, B))
      return fail("eventRecord", Round, S);
    if (Status S = R.eventSynchronize(Timed))
      return fail("eventSynchronize", Round, S);
    if (Status S = R.eventQuery(Timed))
      return fail("eventQuery", Round, S);
    // B, captured: one more add, replayed twice.
    if (Status S = streamBeginCapture(B, CaptureMode::ThreadLocal))
      return fail("streamBeginCapture", Round, S);
    if (Status S = R.launch(K, Grid, Block, Args, 0, B))
      return fail("captured launch", Round, S);
    Graph *G = nullptr;
    if (Status S = streamEndCapture(B, &G))
      return fail("streamEndCapture", Round, S);
    GraphExec *E = nullptr;
    if (Status S = graphInstantiate(&E, G, 0))
      return fail("graphInstantiate", Round, S);
    for (int L = 0; L < 2; ++L)
      if (Status S = graphLaunch(E, B))
        return fail("graphLaunch", Round, S);
    if (Status S =
            R.memcpyAsync(Back.data(), Dev, N * 4, CopyKind::DeviceToHost, B))
      return fail("memcpyAsync D2H", Round, S);
    if (Status S = R.streamSynchronize(B))
      return fail("streamSynchronize", Round, S);
    for (unsigned I = 0; I < N; ++I)
      if (Back[I] != Host[I] + 4 * V)
        return "thread " + std::to_string(T) + " round " +
               std::to_string(Round) + ": element " + std::to_string(I) +
               " is " + std::to_string(Back[I]) + ", expected " +
               std::to_string(Host[I] + 4 * V);
    graphExecDestroy(E);
    graphDestroy(G);
    // A timing query with an event that has no timing fails on this thread
    // only; other threads' last errors stay clean.
    float Ms;
    if (R.eventElapsedTime(&Ms, Timed, Done) != cudaErrorInvalidResourceHandle)
      return fail("eventElapsedTime without timing", Round, cudaSuccess);
    if (Status S = R.getLastError(); S != cudaErrorInvalidResourceHandle)
      return fail("getLastError after a failed call", Round, S);
    if (Status S = R.getLastError())
      return fail("getLastError after clearing", Round, S);
    if (Status S = R.free(Dev))
      return fail("free", Round, S);
  }
  for (void *S : {A, B})
    if (Status St = R.streamDestroy(S))
      return fail("streamDestroy", Rounds, St);
  for (void *E : {Done, Timed})
    if (Status St = R.eventDestroy(E))
      return fail("eventDestroy", Rounds, St);
  return "";
}

TEST(Concurrency, EightThreadsUseTheRuntimeAtOnce) {
  Runtime &R = Runtime::get();
  Module *M = nullptr;
  Kernel *K = nullptr;
  ASSERT_EQ(R.loadModuleData(AddPtx, 0, "concurrency_test.ptx", &M),
            cudaSuccess);
  ASSERT_EQ(R.moduleGetFunction(M, "add", &K), cudaSuccess);
  std::vector<std::string> Failures(Threads);
  std::atomic<int> Ready{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      // Start together, for as much overlap as possible.
      Ready.fetch_add(1);
      while (Ready.load() < Threads)
        std::this_thread::yield();
      Failures[T] = hammer(T, K);
    });
  for (auto &T : Pool)
    T.join();
  for (const std::string &F : Failures)
    EXPECT_EQ(F, "");
  EXPECT_FALSE(capture::anyActive());
  EXPECT_EQ(R.getLastError(), cudaSuccess);
}

} // namespace
