//===- LaunchTest.cpp - Registration and launches through the core --------===//
//
// Registers hand-built fatbins with the runtime core the way a program's
// start-up code does, then launches their kernels: a working kernel runs on
// the CPU backend; an unsupported instruction and a corrupt fatbin fail the
// launch with the CUDA error codes and leave the runtime usable.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace cuhip::rt;

namespace {

/// A fatbin container holding one uncompressed PTX entry, and the
/// registration wrapper pointing at it.
struct FakeFatbin {
  std::vector<uint8_t> Container;
  struct Wrapper {
    uint32_t Magic, Version;
    const void *Data;
    void *Unused;
  } W;

  explicit FakeFatbin(const std::string &Ptx, uint32_t Sm = 75) {
    std::vector<uint8_t> Payload(Ptx.begin(), Ptx.end());
    Payload.push_back(0);
    while (Payload.size() % 8)
      Payload.push_back(0);
    std::vector<uint8_t> Entry(80, 0);
    auto put16 = [](std::vector<uint8_t> &V, size_t O, uint16_t X) { std::memcpy(&V[O], &X, 2); };
    auto put32 = [](std::vector<uint8_t> &V, size_t O, uint32_t X) { std::memcpy(&V[O], &X, 4); };
    auto put64 = [](std::vector<uint8_t> &V, size_t O, uint64_t X) { std::memcpy(&V[O], &X, 8); };
    put16(Entry, 0, 1);           // PTX
    put16(Entry, 2, 0x0101);
    put32(Entry, 4, 80);          // header size
    put64(Entry, 8, Payload.size());
    put16(Entry, 24, 0);          // ISA minor
    put16(Entry, 26, 9);          // ISA major
    put32(Entry, 28, Sm);
    put64(Entry, 40, 0x11);       // 64-bit, Linux
    put64(Entry, 56, Ptx.size() + 1);
    Container.resize(16, 0);
    put32(Container, 0, 0xBA55ED50u);
    put16(Container, 4, 1);
    put16(Container, 6, 16);
    put64(Container, 8, Entry.size() + Payload.size());
    Container.insert(Container.end(), Entry.begin(), Entry.end());
    Container.insert(Container.end(), Payload.begin(), Payload.end());
    W = {0x466243B1u, 1, Container.data(), nullptr};
  }
};

const char *Header = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Host "stubs": only their addresses matter.
void stubAddOne() {}
void stubBroken() {}
void stubCorrupt() {}
void stubScale() {}

TEST(Launch, RegisteredKernelRuns) {
  static FakeFatbin F(std::string(Header) + R"(
.visible .entry addOne(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra $L_end;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  add.s32 %r4, %r4, 1;
  st.global.u32 [%rd3], %r4;
$L_end:
  ret;
}
)");
  Runtime &R = Runtime::get();
  void **H = R.registerFatBinary(&F.W);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubAddOne), "addOne");
  R.registerFatBinaryEnd(H);

  const unsigned N = 1000;
  void *D = nullptr;
  ASSERT_EQ(R.malloc(&D, N * 4), cudaSuccess);
  std::vector<uint32_t> Host(N);
  for (unsigned I = 0; I < N; ++I)
    Host[I] = I;
  ASSERT_EQ(R.memcpy(D, Host.data(), N * 4, CopyKind::HostToDevice), cudaSuccess);
  Kernel *K = R.kernelForHostFunction(reinterpret_cast<const void *>(&stubAddOne));
  ASSERT_NE(K, nullptr);
  unsigned NArg = N;
  void *Args[] = {&D, &NArg};
  EXPECT_EQ(R.launch(K, {8, 1, 1}, {128, 1, 1}, Args, 0, nullptr), cudaSuccess);
  ASSERT_EQ(R.memcpy(Host.data(), D, N * 4, CopyKind::DeviceToHost), cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    EXPECT_EQ(Host[I], I + 1) << I;
  EXPECT_EQ(R.free(D), cudaSuccess);
  EXPECT_EQ(R.getLastError(), cudaSuccess);
}

TEST(Launch, UnsupportedInstructionFailsTheLaunchNotTheProcess) {
  static FakeFatbin F(std::string(Header) + R"(
.visible .entry broken()
{
  pmevent 1;
  ret;
}
)");
  Runtime &R = Runtime::get();
  void **H = R.registerFatBinary(&F.W);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubBroken), "broken");
  R.registerFatBinaryEnd(H);
  Kernel *K = R.kernelForHostFunction(reinterpret_cast<const void *>(&stubBroken));
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(R.launch(K, {1, 1, 1}, {32, 1, 1}, nullptr, 0, nullptr),
            cudaErrorInvalidPtx);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidPtx);
  // Not sticky: the next launch fails the same way, other calls work.
  EXPECT_EQ(R.launch(K, {1, 1, 1}, {32, 1, 1}, nullptr, 0, nullptr),
            cudaErrorInvalidPtx);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidPtx);
  EXPECT_EQ(R.synchronize(), cudaSuccess);
}

TEST(Launch, CorruptFatbinIsAnErrorNotACrash) {
  Runtime &R = Runtime::get();
  // A wrapper whose container has a bad magic, and one that points nowhere.
  static std::vector<uint8_t> Garbage(64, 0xab);
  static FakeFatbin::Wrapper BadMagic = {0x466243B1u, 1, Garbage.data(), nullptr};
  static FakeFatbin::Wrapper Dangling = {0x466243B1u, 1,
                                         reinterpret_cast<void *>(0x10), nullptr};
  for (auto *W : {&BadMagic, &Dangling}) {
    void **H = R.registerFatBinary(W);
    ASSERT_NE(H, nullptr);
    R.registerFunction(H, reinterpret_cast<const void *>(&stubCorrupt), "k");
    R.registerFatBinaryEnd(H);
    Kernel *K = R.kernelForHostFunction(reinterpret_cast<const void *>(&stubCorrupt));
    ASSERT_NE(K, nullptr);
    EXPECT_EQ(R.launch(K, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr),
              cudaErrorInvalidKernelImage);
    EXPECT_EQ(R.getLastError(), cudaErrorInvalidKernelImage);
  }
  // A wrapper with the wrong magic is refused the same way.
  static FakeFatbin::Wrapper WrongWrapper = {0x12345678u, 1, Garbage.data(), nullptr};
  void **H = R.registerFatBinary(&WrongWrapper);
  ASSERT_NE(H, nullptr);
}

TEST(Launch, InvalidArgumentsGetCudaErrors) {
  Runtime &R = Runtime::get();
  EXPECT_EQ(R.malloc(nullptr, 16), cudaErrorInvalidValue);
  int Local = 0;
  EXPECT_EQ(R.free(&Local), cudaErrorInvalidValue);
  EXPECT_EQ(R.memcpy(&Local, &Local, 4, static_cast<CopyKind>(9)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(R.memset(&Local, 0, 4), cudaErrorInvalidValue);
  EXPECT_EQ(R.setDevice(3), cudaErrorInvalidDevice);
  EXPECT_EQ(R.launch(nullptr, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr),
            cudaErrorInvalidDeviceFunction);
  Dim3 G, B;
  EXPECT_EQ(R.popCallConfiguration(&G, &B, nullptr, nullptr),
            cudaErrorMissingConfiguration);
  EXPECT_STREQ(statusName(cudaErrorInvalidPtx), "cudaErrorInvalidPtx");
  EXPECT_EQ(statusName(123456), nullptr);
  R.getLastError();
}

// CUDA's runtime may be called from any number of host threads at once.
// Several threads here load one module (its first launch compiles it),
// allocate, copy, launch on streams of their own, time with events and
// free, all at the same time; each must see its own results. They also
// share one event, which all of them record and time against, and each
// selects device 0, as multi-threaded CUDA programs do. Under
// ThreadSanitizer (scripts/sanitize-check) this is the runtime's main race
// check.
TEST(Launch, HostThreadsUseTheRuntimeAtOnce) {
  static FakeFatbin F(std::string(Header) + R"(
.visible .entry scale(.param .u64 p, .param .u32 n, .param .u32 f)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r6, [f];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra $L_end;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  mul.lo.s32 %r4, %r4, %r6;
  st.global.u32 [%rd3], %r4;
$L_end:
  ret;
}
)");
  Runtime &R = Runtime::get();
  void **H = R.registerFatBinary(&F.W);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubScale), "scale");
  R.registerFatBinaryEnd(H);
  Kernel *K = R.kernelForHostFunction(reinterpret_cast<const void *>(&stubScale));
  ASSERT_NE(K, nullptr);

  constexpr unsigned Threads = 4, Rounds = 8, N = 777;
  std::vector<std::string> Errors(Threads);
  void *Shared = nullptr;
  ASSERT_EQ(R.eventCreate(&Shared, 0), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Shared, nullptr), cudaSuccess);
  auto Work = [&](unsigned T) {
    std::string &Err = Errors[T];
    auto expect = [&](Status S, const char *What) {
      if (S != cudaSuccess && Err.empty())
        Err = std::string(What) + " failed with status " + std::to_string(S);
      return S == cudaSuccess;
    };
    void *Stream = nullptr, *Start = nullptr, *Stop = nullptr;
    int Device = -1;
    if (!expect(R.setDevice(0), "setDevice") ||
        !expect(R.getDevice(&Device), "getDevice"))
      return;
    if (Device != 0) {
      Err = "getDevice gave " + std::to_string(Device);
      return;
    }
    if (!expect(R.streamCreate(&Stream, 0, 0), "streamCreate") ||
        !expect(R.eventCreate(&Start, 0), "eventCreate") ||
        !expect(R.eventCreate(&Stop, 0), "eventCreate"))
      return;
    for (unsigned Round = 0; Round < Rounds && Err.empty(); ++Round) {
      void *D = nullptr;
      if (!expect(R.malloc(&D, N * 4), "malloc"))
        return;
      std::vector<uint32_t> Host(N);
      for (unsigned I = 0; I < N; ++I)
        Host[I] = I + T;
      unsigned NArg = N, Factor = T + 2;
      void *Args[] = {&D, &NArg, &Factor};
      float Ms = -1;
      expect(R.memcpyAsync(D, Host.data(), N * 4, CopyKind::HostToDevice,
                           Stream),
             "memcpyAsync");
      expect(R.eventRecord(Start, Stream), "eventRecord");
      expect(R.launch(K, {(N + 63) / 64, 1, 1}, {64, 1, 1}, Args, 0, Stream),
             "launch");
      expect(R.eventRecord(Stop, Stream), "eventRecord");
      expect(R.streamSynchronize(Stream), "streamSynchronize");
      expect(R.eventElapsedTime(&Ms, Start, Stop), "eventElapsedTime");
      float SinceShared = 0;
      expect(R.eventRecord(Shared, Stream), "eventRecord");
      // Until a stream reaches the event's latest record (other threads
      // record it too) there is no time: cudaErrorNotReady, not a failure.
      Status Since = R.eventElapsedTime(&SinceShared, Shared, Stop);
      if (Since != cudaErrorNotReady)
        expect(Since, "eventElapsedTime");
      expect(R.memcpy(Host.data(), D, N * 4, CopyKind::DeviceToHost),
             "memcpy");
      for (unsigned I = 0; I < N && Err.empty(); ++I)
        if (Host[I] != (I + T) * Factor)
          Err = "thread " + std::to_string(T) + ": element " +
                std::to_string(I) + " is " + std::to_string(Host[I]);
      if (Ms < 0 && Err.empty())
        Err = "negative elapsed time";
      expect(R.free(D), "free");
    }
    expect(R.eventDestroy(Start), "eventDestroy");
    expect(R.eventDestroy(Stop), "eventDestroy");
    expect(R.streamDestroy(Stream), "streamDestroy");
    expect(R.getLastError(), "getLastError");
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  for (std::thread &T : Pool)
    T.join();
  for (unsigned T = 0; T < Threads; ++T)
    EXPECT_EQ(Errors[T], "") << "host thread " << T;
  EXPECT_EQ(R.eventDestroy(Shared), cudaSuccess);
  EXPECT_EQ(R.synchronize(), cudaSuccess);
}

} // namespace
