//===- StreamTest.cpp - Streams and events on the CPU backend -------------===//
//
// The stream-ordered operations of the runtime core on the CPU backend:
// kernels, copies and host functions on created and default streams happen
// in call order, events time what lies between them, and invalid handles,
// flags and destroyed objects give CUDA's error codes. Cooperative grids
// run with all blocks resident, up to the limit the device reports.
// (StreamQueueTest.cpp checks that the work is asynchronous.)
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

using namespace cuhip::rt;

namespace {

// out[tid] += 1
const char *IncrementPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry increment(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.u32 %r2, [%rd2];
  add.u32 %r2, %r2, 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

void *const Legacy = reinterpret_cast<void *>(uintptr_t(1));
void *const PerThread = reinterpret_cast<void *>(uintptr_t(2));

class StreamTest : public ::testing::Test {
protected:
  void SetUp() override {
    Runtime &R = Runtime::get();
    R.getLastError();
    Module *M = nullptr;
    ASSERT_EQ(R.loadModuleData(IncrementPtx, 0, "increment.ptx", &M),
              cudaSuccess);
    ASSERT_EQ(R.moduleGetFunction(M, "increment", &K), cudaSuccess);
    ASSERT_EQ(R.malloc(&Dev, 32 * 4), cudaSuccess);
  }
  void TearDown() override {
    Runtime &R = Runtime::get();
    EXPECT_EQ(R.free(Dev), cudaSuccess);
    R.getLastError();
  }
  Kernel *K = nullptr;
  void *Dev = nullptr;
};

TEST_F(StreamTest, OperationsOnAStreamHappenInOrder) {
  Runtime &R = Runtime::get();
  void *S = nullptr;
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  ASSERT_NE(S, nullptr);
  EXPECT_TRUE(R.isStreamHandle(S));
  std::vector<uint32_t> Host(32, 41), Back(32, 0);
  ASSERT_EQ(R.memcpyAsync(Dev, Host.data(), 128, CopyKind::HostToDevice, S),
            cudaSuccess);
  void *Args[] = {&Dev};
  ASSERT_EQ(R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, S),
            cudaSuccess);
  // A host function sees the kernel's result: it runs after it.
  struct Check {
    void *Dev;
    uint32_t First = 0;
  } C{Dev};
  ASSERT_EQ(R.streamAddHostFunc(
                S,
                [](void *P) {
                  auto *C = static_cast<Check *>(P);
                  C->First = *static_cast<uint32_t *>(C->Dev);
                },
                &C),
            cudaSuccess);
  ASSERT_EQ(R.memcpyAsync(Back.data(), Dev, 128, CopyKind::DeviceToHost, S),
            cudaSuccess);
  EXPECT_EQ(R.streamSynchronize(S), cudaSuccess);
  EXPECT_EQ(R.streamQuery(S), cudaSuccess);
  EXPECT_EQ(C.First, 42u);
  EXPECT_EQ(Back, std::vector<uint32_t>(32, 42));
  EXPECT_EQ(R.memsetAsync(Dev, 0, 128, S), cudaSuccess);
  // A copy to pageable memory has completed when it returns.
  EXPECT_EQ(R.memcpyAsync(Back.data(), Dev, 128, CopyKind::DeviceToHost, S),
            cudaSuccess);
  EXPECT_EQ(Back, std::vector<uint32_t>(32, 0));
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
}

TEST_F(StreamTest, DefaultStreamsNeedNoCreation) {
  Runtime &R = Runtime::get();
  void *Args[] = {&Dev};
  for (void *S : {static_cast<void *>(nullptr), Legacy, PerThread}) {
    EXPECT_TRUE(R.isStreamHandle(S));
    EXPECT_EQ(R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, S),
              cudaSuccess);
    EXPECT_EQ(R.streamSynchronize(S), cudaSuccess);
    EXPECT_EQ(R.streamQuery(S), cudaSuccess);
    unsigned Flags = 7;
    int Priority = 7;
    EXPECT_EQ(R.streamGetFlags(S, &Flags), cudaSuccess);
    EXPECT_EQ(R.streamGetPriority(S, &Priority), cudaSuccess);
    EXPECT_EQ(Flags, 0u);
    EXPECT_EQ(Priority, 0);
  }
}

TEST_F(StreamTest, FlagsAndPrioritiesAreKept) {
  Runtime &R = Runtime::get();
  int Least = 5, Greatest = 5;
  ASSERT_EQ(R.streamPriorityRange(&Least, &Greatest), cudaSuccess);
  // Each stream runs on a thread of its own, so priorities make no
  // difference: CUDA reports [0, 0] then, and clamps requested priorities
  // into it.
  EXPECT_EQ(Least, 0);
  EXPECT_EQ(Greatest, 0);
  void *S = nullptr;
  ASSERT_EQ(R.streamCreate(&S, 1 /*cudaStreamNonBlocking*/, -3), cudaSuccess);
  unsigned Flags = 0;
  int Priority = 9;
  EXPECT_EQ(R.streamGetFlags(S, &Flags), cudaSuccess);
  EXPECT_EQ(R.streamGetPriority(S, &Priority), cudaSuccess);
  EXPECT_EQ(Flags, 1u);
  EXPECT_EQ(Priority, 0);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
}

TEST_F(StreamTest, InvalidStreamsAndFlagsAreRefused) {
  Runtime &R = Runtime::get();
  void *S = nullptr;
  EXPECT_EQ(R.streamCreate(&S, 0x8, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.streamCreate(nullptr, 0, 0), cudaErrorInvalidValue);
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  ASSERT_EQ(R.streamDestroy(S), cudaSuccess);
  // A destroyed stream, and a pointer that never was one.
  int NotAStream = 0;
  void *Args[] = {&Dev};
  for (void *Bad : {S, static_cast<void *>(&NotAStream)}) {
    EXPECT_FALSE(R.isStreamHandle(Bad));
    EXPECT_EQ(R.streamDestroy(Bad), cudaErrorInvalidResourceHandle);
    EXPECT_EQ(R.streamSynchronize(Bad), cudaErrorInvalidResourceHandle);
    EXPECT_EQ(R.streamQuery(Bad), cudaErrorInvalidResourceHandle);
    EXPECT_EQ(R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, Bad),
              cudaErrorInvalidResourceHandle);
    EXPECT_EQ(R.memsetAsync(Dev, 0, 4, Bad), cudaErrorInvalidResourceHandle);
  }
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.getLastError(), cudaSuccess);
  EXPECT_EQ(R.streamAddHostFunc(nullptr, nullptr, nullptr),
            cudaErrorInvalidValue);
}

TEST_F(StreamTest, EventsTimeTheWorkBetweenThem) {
  Runtime &R = Runtime::get();
  void *Start = nullptr, *End = nullptr, *S = nullptr;
  ASSERT_EQ(R.eventCreate(&Start, 0), cudaSuccess);
  ASSERT_EQ(R.eventCreate(&End, 1 /*cudaEventBlockingSync*/), cudaSuccess);
  ASSERT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  float Ms = -1;
  // Not yet recorded.
  EXPECT_EQ(R.eventElapsedTime(&Ms, Start, End),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventQuery(Start), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Start, S), cudaSuccess);
  // A host function that takes 20 ms stands for the stream's work.
  ASSERT_EQ(R.streamAddHostFunc(
                S,
                [](void *) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
                },
                nullptr),
            cudaSuccess);
  ASSERT_EQ(R.eventRecord(End, S), cudaSuccess);
  EXPECT_EQ(R.eventSynchronize(End), cudaSuccess);
  EXPECT_EQ(R.eventQuery(End), cudaSuccess);
  ASSERT_EQ(R.eventElapsedTime(&Ms, Start, End), cudaSuccess);
  EXPECT_GE(Ms, 19.0f);
  EXPECT_LT(Ms, 2000.0f);
  // Reversed, the time is negative.
  ASSERT_EQ(R.eventElapsedTime(&Ms, End, Start), cudaSuccess);
  EXPECT_LE(Ms, -19.0f);
  EXPECT_EQ(R.streamWaitEvent(nullptr, End, 0), cudaSuccess);
  EXPECT_EQ(R.streamWaitEvent(nullptr, End, 0x4), cudaErrorInvalidValue);
  EXPECT_EQ(R.eventDestroy(Start), cudaSuccess);
  EXPECT_EQ(R.eventDestroy(End), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
  R.getLastError();
}

TEST_F(StreamTest, EventFlagsAndHandlesAreChecked) {
  Runtime &R = Runtime::get();
  void *E = nullptr, *T = nullptr;
  EXPECT_EQ(R.eventCreate(&E, 0x10), cudaErrorInvalidValue);
  // Interprocess events must disable timing.
  EXPECT_EQ(R.eventCreate(&E, 0x4), cudaErrorInvalidValue);
  ASSERT_EQ(R.eventCreate(&E, 0x4 | 0x2), cudaSuccess);
  ASSERT_EQ(R.eventCreate(&T, 0), cudaSuccess);
  ASSERT_EQ(R.eventRecord(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.eventRecord(T, nullptr), cudaSuccess);
  float Ms;
  EXPECT_EQ(R.eventElapsedTime(&Ms, T, E), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventElapsedTime(nullptr, T, T), cudaErrorInvalidValue);
  EXPECT_EQ(R.eventDestroy(E), cudaSuccess);
  EXPECT_EQ(R.eventDestroy(E), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventRecord(E, nullptr), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventQuery(E), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.streamWaitEvent(nullptr, E, 0), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventDestroy(T), cudaSuccess);
  R.getLastError();
}

TEST_F(StreamTest, CooperativeLaunchRunsOnTheCpu) {
  Runtime &R = Runtime::get();
  EXPECT_TRUE(R.deviceInfo(0).CooperativeLaunch);
  std::vector<uint32_t> Zero(32, 0);
  ASSERT_EQ(R.memcpy(Dev, Zero.data(), 32 * 4, CopyKind::HostToDevice),
            cudaSuccess);
  void *Args[] = {&Dev};
  EXPECT_EQ(R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, nullptr,
                     /*Cooperative=*/true),
            cudaSuccess);
  std::vector<uint32_t> Out(32);
  ASSERT_EQ(R.memcpy(Out.data(), Dev, 32 * 4, CopyKind::DeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Out, std::vector<uint32_t>(32, 1));
}

TEST_F(StreamTest, ResidentBlocksFollowThreadsAndSharedMemory) {
  Runtime &R = Runtime::get();
  const DeviceInfo &D = R.deviceInfo(0);
  int N = -1;
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 32, 0, &N), cudaSuccess);
  EXPECT_EQ(N, D.MaxBlocksPerMultiProcessor);
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 1024, 0, &N), cudaSuccess);
  EXPECT_EQ(N, D.MaxThreadsPerMultiProcessor / 1024);
  // Partial warps count as whole ones.
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 513, 0, &N), cudaSuccess);
  EXPECT_EQ(N, D.MaxThreadsPerMultiProcessor / 544);
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 32, 64 * 1024, &N),
            cudaSuccess);
  EXPECT_EQ(N, int(D.SharedMemPerMultiprocessor / (64 * 1024)));
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 1025, 0, &N), cudaSuccess);
  EXPECT_EQ(N, 0);
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 0, 0, &N),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.maxActiveBlocksPerMultiprocessor(K, 32, 0, nullptr),
            cudaErrorInvalidValue);
  R.getLastError();
}

TEST_F(StreamTest, OversizedCooperativeGridIsRefused) {
  Runtime &R = Runtime::get();
  const DeviceInfo &D = R.deviceInfo(0);
  unsigned Max = unsigned(D.MultiProcessorCount * D.MaxBlocksPerMultiProcessor);
  // Room for 1024 threads, should a launch wrongly run.
  void *Big = nullptr;
  ASSERT_EQ(R.malloc(&Big, 1024 * 4), cudaSuccess);
  void *Args[] = {&Big};
  EXPECT_EQ(R.launch(K, Dim3{Max + 1, 1, 1}, Dim3{32, 1, 1}, Args, 0, nullptr,
                     /*Cooperative=*/true),
            cudaErrorCooperativeLaunchTooLarge);
  // 1024-thread blocks: only MaxThreadsPerMultiProcessor / 1024 per core.
  unsigned MaxLarge =
      unsigned(D.MultiProcessorCount * (D.MaxThreadsPerMultiProcessor / 1024));
  EXPECT_EQ(R.launch(K, Dim3{MaxLarge + 1, 1, 1}, Dim3{1024, 1, 1}, Args, 0,
                     nullptr, /*Cooperative=*/true),
            cudaErrorCooperativeLaunchTooLarge);
  // Not sticky, and the same grid launches normally.
  EXPECT_EQ(R.getLastError(), cudaErrorCooperativeLaunchTooLarge);
  EXPECT_EQ(R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, nullptr,
                     /*Cooperative=*/true),
            cudaSuccess);
  EXPECT_EQ(R.free(Big), cudaSuccess);
}

// What nvcc makes of cooperative_groups' grid.sync(), written out: thread 0
// of each block adds to the workspace's barrier word found through
// %envreg1:%envreg2 and polls it until bit 31 flips. Each block bumps
// out[0] before each of two syncs and records what it sees after sync r in
// out[1 + r * blocks + b]: a block that passed a sync early sees less than
// (r + 1) * blocks.
const char *GridSyncPtx = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry gridsync(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %envreg2;
  cvt.u64.u32 %rd3, %r1;
  mov.u32 %r2, %envreg1;
  cvt.u64.u32 %rd4, %r2;
  bfi.b64 %rd5, %rd4, %rd3, 32, 32;
  setp.ne.s64 %p1, %rd5, 0;
  @%p1 bra HAVE;
  trap;
HAVE:
  add.s64 %rd6, %rd5, 4;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %nctaid.x;
  mov.u32 %r5, %tid.x;
  setp.ne.s32 %p2, %r5, 0;
  mov.u32 %r15, 0;
LOOP:
  @%p2 bra AFTER;
  atom.global.add.u32 %r6, [%rd2], 1;
  setp.eq.s32 %p3, %r3, 0;
  mov.u32 %r14, -2147483647;
  sub.s32 %r7, %r14, %r4;
  selp.b32 %r8, %r7, 1, %p3;
  atom.add.release.gpu.u32 %r9, [%rd6], %r8;
SPIN:
  ld.acquire.gpu.u32 %r10, [%rd6];
  xor.b32 %r11, %r10, %r9;
  setp.gt.s32 %p3, %r11, -1;
  @%p3 bra SPIN;
  ld.global.u32 %r12, [%rd2];
  mad.lo.u32 %r13, %r15, %r4, %r3;
  mul.wide.u32 %rd10, %r13, 4;
  add.s64 %rd11, %rd2, %rd10;
  st.global.u32 [%rd11+4], %r12;
AFTER:
  barrier.sync 0;
  add.s32 %r15, %r15, 1;
  setp.lt.u32 %p3, %r15, 2;
  @%p3 bra LOOP;
  ret;
}
)";

TEST_F(StreamTest, GridSyncWaitsForEveryBlock) {
  Runtime &R = Runtime::get();
  Module *M = nullptr;
  Kernel *G = nullptr;
  ASSERT_EQ(R.loadModuleData(GridSyncPtx, 0, "gridsync.ptx", &M), cudaSuccess);
  ASSERT_EQ(R.moduleGetFunction(M, "gridsync", &G), cudaSuccess);
  const DeviceInfo &D = R.deviceInfo(0);
  for (unsigned Blocks :
       {1u, 3u, unsigned(D.MultiProcessorCount * D.MaxBlocksPerMultiProcessor)}) {
    size_t Bytes = (2 * Blocks + 1) * 4;
    void *Out = nullptr;
    ASSERT_EQ(R.malloc(&Out, Bytes), cudaSuccess);
    ASSERT_EQ(R.memset(Out, 0, Bytes), cudaSuccess);
    void *Args[] = {&Out};
    EXPECT_EQ(R.launch(G, Dim3{Blocks, 1, 1}, Dim3{32, 1, 1}, Args, 0,
                       nullptr, /*Cooperative=*/true),
              cudaSuccess);
    std::vector<uint32_t> Seen(2 * Blocks + 1);
    ASSERT_EQ(R.memcpy(Seen.data(), Out, Bytes, CopyKind::DeviceToHost),
              cudaSuccess);
    EXPECT_EQ(Seen[0], 2 * Blocks);
    // Blocks that left sync r may already have bumped for the next round,
    // but none can have passed sync r + 1.
    for (unsigned Round = 0; Round < 2; ++Round)
      for (unsigned B = 0; B < Blocks; ++B) {
        uint32_t V = Seen[1 + Round * Blocks + B];
        EXPECT_TRUE(V >= (Round + 1) * Blocks && V < (Round + 2) * Blocks)
            << "block " << B << " of " << Blocks << " saw " << V
            << " after sync " << Round;
      }
    EXPECT_EQ(R.free(Out), cudaSuccess);
  }
}

} // namespace
