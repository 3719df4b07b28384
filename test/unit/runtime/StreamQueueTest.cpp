//===- StreamQueueTest.cpp - Asynchronous streams on the CPU backend ------===//
//
// Launches, copies and the other stream operations return before their
// work runs, as in CUDA: a kernel that waits for a flag the host sets after
// the launch finishes (it would wait out its time limit if the launch ran
// on the calling thread), queries answer cudaErrorNotReady meanwhile, work
// runs in stream order on threads other than the caller's, the legacy
// stream waits for blocking streams and not for non-blocking ones, kernel
// arguments and pageable sources are taken at the call, faults surface at
// the next synchronisation, and after a fault host functions stop while
// stream callbacks still run. Most tests hold a stream with a host function
// that waits for the test to open a gate; a gate opens by itself after ten
// seconds, so a regression fails instead of hanging.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

using namespace cuhip::rt;

namespace {

const char *QueuePtx = R"(.version 9.0
.target sm_75
.address_size 64
// out[0] = 1 once *flag is nonzero, or 2 when limit_ns passed first.
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
// out[0] = v
.visible .entry put(.param .u64 out, .param .u32 v)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [v];
  st.global.u32 [%rd1], %r1;
  ret;
}
// out[0] += 1
.visible .entry bump(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [%rd1];
  add.u32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
// A store to an address no allocation covers: a fault.
.visible .entry wild()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 16;
  mov.u32 %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

void *const Legacy = nullptr;
void *const PerThread = reinterpret_cast<void *>(uintptr_t(2));

/// A host function that holds its stream until the test opens it (or ten
/// seconds pass).
struct Gate {
  std::atomic<bool> Open{false}, Entered{false}, TimedOut{false};
  static void wait(void *P) {
    auto *G = static_cast<Gate *>(P);
    G->Entered = true;
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!G->Open.load()) {
      if (std::chrono::steady_clock::now() > Deadline) {
        G->TimedOut = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
};

/// Sets a flag when its stream runs it.
void setFlag(void *P) { static_cast<std::atomic<int> *>(P)->store(1); }

/// Polls Done for up to Ms milliseconds.
template <typename Pred> bool within(int Ms, Pred Done) {
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(Ms);
  while (!Done()) {
    if (std::chrono::steady_clock::now() > Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

class StreamQueueTest : public ::testing::Test {
protected:
  void SetUp() override {
    R.getLastError();
    Module *M = nullptr;
    ASSERT_EQ(R.loadModuleData(QueuePtx, 0, "stream_queue.ptx", &M),
              cudaSuccess);
    ASSERT_EQ(R.moduleGetFunction(M, "waitflag", &WaitFlag), cudaSuccess);
    ASSERT_EQ(R.moduleGetFunction(M, "put", &Put), cudaSuccess);
    ASSERT_EQ(R.moduleGetFunction(M, "bump", &Bump), cudaSuccess);
    ASSERT_EQ(R.moduleGetFunction(M, "wild", &Wild), cudaSuccess);
    ASSERT_EQ(R.malloc(&Dev, 64), cudaSuccess);
    ASSERT_EQ(R.memset(Dev, 0, 64), cudaSuccess);
  }
  void TearDown() override {
    EXPECT_EQ(R.synchronize(), cudaSuccess);
    EXPECT_EQ(R.free(Dev), cudaSuccess);
    R.getLastError();
  }
  uint32_t readDev() {
    uint32_t V = 0;
    EXPECT_EQ(R.memcpy(&V, Dev, 4, CopyKind::DeviceToHost), cudaSuccess);
    return V;
  }
  Status put(void *Stream, uint32_t V) {
    void *Args[] = {&Dev, &V};
    return R.launch(Put, {1, 1, 1}, {1, 1, 1}, Args, 0, Stream);
  }

  Runtime &R = Runtime::get();
  Kernel *WaitFlag = nullptr, *Put = nullptr, *Bump = nullptr, *Wild = nullptr;
  void *Dev = nullptr;
};

TEST_F(StreamQueueTest, KernelWaitsForAFlagTheHostSetsAfterTheLaunch) {
  // Mapped page-locked memory and managed memory, both of which the host
  // writes while the kernel runs.
  void *Pinned = nullptr, *Managed = nullptr;
  ASSERT_EQ(R.hostAlloc(&Pinned, 64, 0x2 /*cudaHostAllocMapped*/),
            cudaSuccess);
  ASSERT_EQ(R.mallocManaged(&Managed, 64, 0x1), cudaSuccess);
  void *Event = nullptr;
  ASSERT_EQ(R.eventCreate(&Event, 0), cudaSuccess);
  for (void *Host : {Pinned, Managed}) {
    void *FlagDev = nullptr;
    ASSERT_EQ(R.hostGetDevicePointer(&FlagDev, Pinned, 0), cudaSuccess);
    if (Host == Managed)
      FlagDev = Managed;
    auto *Flag = static_cast<volatile uint32_t *>(Host);
    *Flag = 0;
    ASSERT_EQ(R.memset(Dev, 0, 4), cudaSuccess);
    uint64_t LimitNs = 8'000'000'000;
    void *Args[] = {&FlagDev, &Dev, &LimitNs};
    auto Start = std::chrono::steady_clock::now();
    ASSERT_EQ(R.launch(WaitFlag, {1, 1, 1}, {1, 1, 1}, Args, 0, Legacy),
              cudaSuccess);
    ASSERT_EQ(R.eventRecord(Event, Legacy), cudaSuccess);
    // The kernel waits: the launch returned, and its stream and the event
    // after it are not done.
    EXPECT_LT(std::chrono::steady_clock::now() - Start,
              std::chrono::seconds(4));
    EXPECT_EQ(R.streamQuery(Legacy), cudaErrorNotReady);
    EXPECT_EQ(R.eventQuery(Event), cudaErrorNotReady);
    EXPECT_EQ(R.getLastError(), cudaSuccess) << "NotReady is no error";
    *Flag = 1;
    EXPECT_EQ(R.eventSynchronize(Event), cudaSuccess);
    EXPECT_EQ(R.streamQuery(Legacy), cudaSuccess);
    EXPECT_EQ(R.eventQuery(Event), cudaSuccess);
    EXPECT_EQ(readDev(), 1u) << "1: the kernel saw the flag; 2: it timed out";
  }
  EXPECT_EQ(R.eventDestroy(Event), cudaSuccess);
  EXPECT_EQ(R.freeHost(Pinned), cudaSuccess);
  EXPECT_EQ(R.free(Managed), cudaSuccess);
}

TEST_F(StreamQueueTest, HostFunctionsRunInOrderOnAnotherThread) {
  void *S = nullptr;
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  Gate G;
  ASSERT_EQ(R.streamAddHostFunc(S, Gate::wait, &G), cudaSuccess);
  struct Log {
    std::vector<int> Order;
    std::vector<std::thread::id> Threads;
  } L;
  struct Step {
    Log *L;
    int I;
  };
  std::vector<Step> Steps;
  Steps.reserve(100);
  for (int I = 0; I < 100; ++I) {
    Steps.push_back({&L, I});
    ASSERT_EQ(R.streamAddHostFunc(
                  S,
                  [](void *P) {
                    auto *St = static_cast<Step *>(P);
                    St->L->Order.push_back(St->I);
                    St->L->Threads.push_back(std::this_thread::get_id());
                  },
                  &Steps.back()),
              cudaSuccess);
  }
  EXPECT_EQ(R.streamQuery(S), cudaErrorNotReady);
  G.Open = true;
  EXPECT_EQ(R.streamSynchronize(S), cudaSuccess);
  EXPECT_FALSE(G.TimedOut);
  ASSERT_EQ(L.Order.size(), 100u);
  for (int I = 0; I < 100; ++I) {
    EXPECT_EQ(L.Order[I], I);
    EXPECT_NE(L.Threads[I], std::this_thread::get_id())
        << "host functions run on a thread of the runtime's";
  }
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
}

TEST_F(StreamQueueTest, AStreamWaitsForTheEventOfAnother) {
  void *A = nullptr, *B = nullptr, *E = nullptr;
  ASSERT_EQ(R.streamCreate(&A, 1, 0), cudaSuccess);
  ASSERT_EQ(R.streamCreate(&B, 1, 0), cudaSuccess);
  ASSERT_EQ(R.eventCreate(&E, 0), cudaSuccess);
  Gate G;
  ASSERT_EQ(R.streamAddHostFunc(A, Gate::wait, &G), cudaSuccess);
  ASSERT_EQ(put(A, 5), cudaSuccess);
  ASSERT_EQ(R.eventRecord(E, A), cudaSuccess);
  ASSERT_EQ(R.streamWaitEvent(B, E, 0), cudaSuccess);
  // Re-recording the event later does not change what B waits for.
  ASSERT_EQ(R.eventRecord(E, B), cudaSuccess);
  ASSERT_EQ(put(B, 9), cudaSuccess);
  std::atomic<int> BRan{0};
  ASSERT_EQ(R.streamAddHostFunc(B, setFlag, &BRan), cudaSuccess);
  EXPECT_FALSE(within(50, [&] { return BRan.load() != 0; }))
      << "B ran before A reached the event";
  EXPECT_EQ(R.streamQuery(B), cudaErrorNotReady);
  G.Open = true;
  EXPECT_EQ(R.streamSynchronize(B), cudaSuccess);
  EXPECT_EQ(BRan.load(), 1);
  EXPECT_EQ(readDev(), 9u) << "B's kernel ran after A's";
  EXPECT_EQ(R.eventDestroy(E), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(A), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(B), cudaSuccess);
}

TEST_F(StreamQueueTest, LegacyStreamWaitsForBlockingStreamsOnly) {
  void *Blocking = nullptr, *NonBlocking = nullptr;
  ASSERT_EQ(R.streamCreate(&Blocking, 0, 0), cudaSuccess);
  ASSERT_EQ(R.streamCreate(&NonBlocking, 1, 0), cudaSuccess);

  // Legacy work waits for a blocking stream's earlier work.
  Gate G1;
  ASSERT_EQ(R.streamAddHostFunc(Blocking, Gate::wait, &G1), cudaSuccess);
  std::atomic<int> LegacyRan{0};
  ASSERT_EQ(R.streamAddHostFunc(Legacy, setFlag, &LegacyRan), cudaSuccess);
  EXPECT_FALSE(within(50, [&] { return LegacyRan.load() != 0; }));
  G1.Open = true;
  EXPECT_EQ(R.streamSynchronize(Legacy), cudaSuccess);
  EXPECT_EQ(LegacyRan.load(), 1);

  // ... and not for a non-blocking stream's.
  Gate G2;
  ASSERT_EQ(R.streamAddHostFunc(NonBlocking, Gate::wait, &G2), cudaSuccess);
  std::atomic<int> LegacyRan2{0};
  ASSERT_EQ(R.streamAddHostFunc(Legacy, setFlag, &LegacyRan2), cudaSuccess);
  EXPECT_TRUE(within(5000, [&] { return LegacyRan2.load() != 0; }))
      << "the legacy stream waited for a non-blocking stream";
  G2.Open = true;
  EXPECT_EQ(R.streamSynchronize(NonBlocking), cudaSuccess);

  // A blocking stream's later work waits for the legacy stream's.
  Gate G3;
  ASSERT_EQ(R.streamAddHostFunc(Legacy, Gate::wait, &G3), cudaSuccess);
  std::atomic<int> BlockingRan{0}, NonBlockingRan{0};
  ASSERT_EQ(R.streamAddHostFunc(Blocking, setFlag, &BlockingRan), cudaSuccess);
  ASSERT_EQ(R.streamAddHostFunc(NonBlocking, setFlag, &NonBlockingRan),
            cudaSuccess);
  EXPECT_TRUE(within(5000, [&] { return NonBlockingRan.load() != 0; }));
  EXPECT_EQ(BlockingRan.load(), 0);
  G3.Open = true;
  EXPECT_EQ(R.streamSynchronize(Blocking), cudaSuccess);
  EXPECT_EQ(BlockingRan.load(), 1);
  EXPECT_FALSE(G1.TimedOut || G2.TimedOut || G3.TimedOut);
  EXPECT_EQ(R.streamDestroy(Blocking), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(NonBlocking), cudaSuccess);
}

TEST_F(StreamQueueTest, PerThreadStreamsAreBlockingStreamsOfTheirOwn) {
  Gate G;
  std::atomic<int> OtherRan{0}, LegacyRan{0};
  // This thread's default stream is held; another thread's is not.
  ASSERT_EQ(R.streamAddHostFunc(PerThread, Gate::wait, &G), cudaSuccess);
  std::thread([&] {
    EXPECT_EQ(R.streamAddHostFunc(PerThread, setFlag, &OtherRan),
              cudaSuccess);
    EXPECT_EQ(R.streamSynchronize(PerThread), cudaSuccess);
  }).join();
  EXPECT_EQ(OtherRan.load(), 1);
  EXPECT_EQ(R.streamQuery(PerThread), cudaErrorNotReady);
  // The legacy stream waits for it, as for any blocking stream.
  ASSERT_EQ(R.streamAddHostFunc(Legacy, setFlag, &LegacyRan), cudaSuccess);
  EXPECT_FALSE(within(50, [&] { return LegacyRan.load() != 0; }));
  G.Open = true;
  EXPECT_EQ(R.streamSynchronize(Legacy), cudaSuccess);
  EXPECT_EQ(LegacyRan.load(), 1);
  EXPECT_FALSE(G.TimedOut);
}

TEST_F(StreamQueueTest, ArgumentsAndPageableSourcesAreTakenAtTheCall) {
  void *S = nullptr;
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  Gate G;
  ASSERT_EQ(R.streamAddHostFunc(S, Gate::wait, &G), cudaSuccess);
  uint32_t Value = 41;
  void *Args[] = {&Dev, &Value};
  ASSERT_EQ(R.launch(Put, {1, 1, 1}, {1, 1, 1}, Args, 0, S), cudaSuccess);
  Value = 99; // after the call, before the kernel runs
  uint32_t Source[4] = {1, 2, 3, 4};
  ASSERT_EQ(R.memcpyAsync(static_cast<char *>(Dev) + 16, Source, 16,
                          CopyKind::HostToDevice, S),
            cudaSuccess);
  Source[0] = Source[1] = Source[2] = Source[3] = 0;
  G.Open = true;
  ASSERT_EQ(R.streamSynchronize(S), cudaSuccess);
  uint32_t Back[5] = {};
  ASSERT_EQ(R.memcpy(Back, Dev, 4, CopyKind::DeviceToHost), cudaSuccess);
  ASSERT_EQ(R.memcpy(Back + 1, static_cast<char *>(Dev) + 16, 16,
                     CopyKind::DeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Back[0], 41u);
  EXPECT_EQ(Back[1], 1u);
  EXPECT_EQ(Back[4], 4u);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
}

TEST_F(StreamQueueTest, SynchronousCopiesWaitForBlockingStreams) {
  void *S = nullptr;
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  Gate G;
  ASSERT_EQ(R.streamAddHostFunc(S, Gate::wait, &G), cudaSuccess);
  ASSERT_EQ(R.memsetAsync(Dev, 7, 4, S), cudaSuccess);
  std::thread Opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    G.Open = true;
  });
  EXPECT_EQ(readDev(), 0x07070707u) << "cudaMemcpy ran before the memset";
  Opener.join();
  // cudaMemset too.
  Gate G2;
  ASSERT_EQ(R.streamAddHostFunc(S, Gate::wait, &G2), cudaSuccess);
  ASSERT_EQ(put(S, 0x0303), cudaSuccess);
  std::thread Opener2([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    G2.Open = true;
  });
  ASSERT_EQ(R.memset(static_cast<char *>(Dev) + 1, 0, 1), cudaSuccess);
  Opener2.join();
  EXPECT_EQ(readDev(), 3u) << "the memset ran before the kernel";
  EXPECT_FALSE(G.TimedOut || G2.TimedOut);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
}

TEST_F(StreamQueueTest, ADestroyedStreamFinishesItsWork) {
  void *S = nullptr;
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  Gate G;
  std::atomic<int> Ran{0};
  ASSERT_EQ(R.streamAddHostFunc(S, Gate::wait, &G), cudaSuccess);
  ASSERT_EQ(put(S, 12), cudaSuccess);
  ASSERT_EQ(R.streamAddHostFunc(S, setFlag, &Ran), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
  EXPECT_FALSE(R.isStreamHandle(S));
  G.Open = true;
  EXPECT_EQ(R.synchronize(), cudaSuccess);
  EXPECT_EQ(Ran.load(), 1);
  EXPECT_EQ(readDev(), 12u);
}

TEST_F(StreamQueueTest, ManyLaunchesOutrunTheQueue) {
  // More launches than a queue holds: enqueuing waits for room.
  void *Args[] = {&Dev};
  for (int I = 0; I < 10000; ++I)
    ASSERT_EQ(R.launch(Bump, {1, 1, 1}, {1, 1, 1}, Args, 0, Legacy),
              cudaSuccess);
  EXPECT_EQ(R.synchronize(), cudaSuccess);
  EXPECT_EQ(readDev(), 10000u);
}

TEST_F(StreamQueueTest, FaultsSurfaceAtTheNextSynchronisation) {
  // Configuration errors are found before the launch is queued.
  EXPECT_EQ(R.launch(Put, {0, 1, 1}, {1, 1, 1}, nullptr, 0, Legacy),
            cudaErrorInvalidConfiguration);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(R.getLastError(), cudaSuccess);

  Gate G;
  std::atomic<int> HostFnRan{0}, CallbackRan{0};
  ASSERT_EQ(R.streamAddHostFunc(Legacy, Gate::wait, &G), cudaSuccess);
  ASSERT_EQ(R.launch(Wild, {1, 1, 1}, {1, 1, 1}, nullptr, 0, Legacy),
            cudaSuccess);
  EXPECT_EQ(R.getLastError(), cudaSuccess) << "nothing has run yet";
  ASSERT_EQ(put(Legacy, 77), cudaSuccess);
  ASSERT_EQ(R.streamAddHostFunc(Legacy, setFlag, &HostFnRan), cudaSuccess);
  ASSERT_EQ(R.streamAddHostFunc(Legacy, setFlag, &CallbackRan,
                                /*RunsAfterFault=*/true),
            cudaSuccess);
  G.Open = true;
  EXPECT_EQ(R.streamSynchronize(Legacy), cudaErrorIllegalAddress);
  EXPECT_EQ(R.synchronize(), cudaErrorIllegalAddress) << "sticky";
  EXPECT_EQ(HostFnRan.load(), 0) << "host functions stop after a fault";
  EXPECT_EQ(CallbackRan.load(), 1) << "callbacks are told about it";
  EXPECT_EQ(R.deviceReset(), cudaSuccess);
  // The reset freed every allocation; the fixture's comes back.
  ASSERT_EQ(R.malloc(&Dev, 64), cudaSuccess);
  EXPECT_FALSE(G.TimedOut);
}

} // namespace
