//===- StreamTest.cpp - Streams and events on the CPU backend -------------===//
//
// The stream-ordered operations of the runtime core on the CPU backend,
// where each operation is complete when its call returns: kernels, copies
// and host functions on created and default streams happen in call order,
// events time what lies between them, and invalid handles, flags and
// destroyed objects give CUDA's error codes.
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
  EXPECT_EQ(C.First, 42u);
  ASSERT_EQ(R.memcpyAsync(Back.data(), Dev, 128, CopyKind::DeviceToHost, S),
            cudaSuccess);
  EXPECT_EQ(R.streamSynchronize(S), cudaSuccess);
  EXPECT_EQ(R.streamQuery(S), cudaSuccess);
  EXPECT_EQ(Back, std::vector<uint32_t>(32, 42));
  EXPECT_EQ(R.memsetAsync(Dev, 0, 128, S), cudaSuccess);
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
  // Work completes as it is enqueued, so priorities make no difference:
  // CUDA reports [0, 0] then, and clamps requested priorities into it.
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

TEST_F(StreamTest, CooperativeLaunchIsRefusedOnTheCpu) {
  Runtime &R = Runtime::get();
  void *Args[] = {&Dev};
  EXPECT_EQ(R.launch(K, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Args, 0, nullptr,
                     /*Cooperative=*/true),
            cudaErrorNotSupported);
  EXPECT_FALSE(R.deviceInfo(0).CooperativeLaunch);
  R.getLastError();
}

} // namespace
