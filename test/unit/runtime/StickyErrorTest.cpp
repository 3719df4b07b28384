//===- StickyErrorTest.cpp - Sticky kernel faults and the last error ------===//
//
// After a kernel fault that leaves the context unusable (an illegal
// address), CUDA returns that error from every call that uses the device
// until cudaDeviceReset. The table below calls a representative of every
// family of the runtime core (device queries, streams, events, memory,
// stream-ordered allocation, graphs and capture, launches) after such a
// fault and expects the sticky error from each; reading the last error
// keeps it, and only a device reset clears it. The last-error rules
// without a fault (failures set it, successes leave it) are checked too.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

using namespace cuhip::rt;

namespace {

// Stores to an address no allocation covers: a kernel fault.
const char *WildPtx = R"(.version 9.0
.target sm_75
.address_size 64
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

Kernel *wildKernel() {
  static Kernel *K = [] {
    Module *M = nullptr;
    Kernel *Out = nullptr;
    Runtime &R = Runtime::get();
    if (R.loadModuleData(WildPtx, 0, "sticky_test.ptx", &M) != cudaSuccess ||
        R.moduleGetFunction(M, "wild", &Out) != cudaSuccess)
      return static_cast<Kernel *>(nullptr);
    return Out;
  }();
  return K;
}

void noop(void *) {}

struct Call {
  const char *Name;
  std::function<Status()> Run;
};

TEST(StickyError, EveryFamilyReturnsItUntilReset) {
  Runtime &R = Runtime::get();
  Kernel *Wild = wildKernel();
  ASSERT_NE(Wild, nullptr);
  // Objects made before the fault, for the calls that take one.
  void *Dev = nullptr, *Pinned = nullptr, *Managed = nullptr;
  void *Stream = nullptr, *Event = nullptr, *Event2 = nullptr;
  ASSERT_EQ(R.malloc(&Dev, 4096), cudaSuccess);
  ASSERT_EQ(R.hostAlloc(&Pinned, 4096, 0), cudaSuccess);
  ASSERT_EQ(R.mallocManaged(&Managed, 4096, 1), cudaSuccess);
  ASSERT_EQ(R.streamCreate(&Stream, 0, 0), cudaSuccess);
  ASSERT_EQ(R.eventCreate(&Event, 0), cudaSuccess);
  ASSERT_EQ(R.eventCreate(&Event2, 0), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Event, Stream), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Event2, Stream), cudaSuccess);
  Graph *G = nullptr;
  GraphNode *Node = nullptr;
  GraphExec *Exec = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  ASSERT_EQ(graphAddNode(&Node, G, nullptr, 0, NodeOp{}), cudaSuccess);
  ASSERT_EQ(graphInstantiate(&Exec, G, 0), cudaSuccess);
  std::vector<char> Host(4096);

  // The fault surfaces when the host waits for the queued launch.
  ASSERT_EQ(R.launch(Wild, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr),
            cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaErrorIllegalAddress);

  void *Out = nullptr;
  int IntOut = 0;
  unsigned UOut = 0;
  size_t Free = 0, Total = 0;
  float Ms = 0;
  PointerAttributes PA;
  KernelAttributes KA;
  Graph *G2 = nullptr;
  GraphExec *Exec2 = nullptr;
  GraphNode *Node2 = nullptr;
  const std::vector<Call> Calls = {
      // Device queries and settings (cudaGetDeviceProperties reads the
      // same attribute table as cudaDeviceGetAttribute).
      {"deviceAttribute", [&] { return R.deviceAttribute(10, 0, &IntOut); }},
      {"synchronize", [&] { return R.synchronize(); }},
      {"getLimit", [&] { return R.getLimit(DeviceLimit::StackSize, &Free); }},
      {"setDeviceFlags", [&] { return R.setDeviceFlags(0); }},
      {"getDeviceFlags", [&] { return R.getDeviceFlags(&UOut); }},
      {"memGetInfo", [&] { return R.memGetInfo(&Free, &Total); }},
      // Streams.
      {"streamCreate", [&] { return R.streamCreate(&Out, 0, 0); }},
      {"streamSynchronize", [&] { return R.streamSynchronize(Stream); }},
      {"streamQuery", [&] { return R.streamQuery(Stream); }},
      {"streamWaitEvent", [&] { return R.streamWaitEvent(Stream, Event, 0); }},
      {"streamAddHostFunc",
       [&] { return R.streamAddHostFunc(Stream, noop, nullptr); }},
      {"streamDestroy", [&] { return R.streamDestroy(Stream); }},
      // Events.
      {"eventCreate", [&] { return R.eventCreate(&Out, 0); }},
      {"eventRecord", [&] { return R.eventRecord(Event, Stream); }},
      {"eventQuery", [&] { return R.eventQuery(Event); }},
      {"eventSynchronize", [&] { return R.eventSynchronize(Event); }},
      {"eventElapsedTime",
       [&] { return R.eventElapsedTime(&Ms, Event, Event2); }},
      {"eventDestroy", [&] { return R.eventDestroy(Event); }},
      // Memory.
      {"malloc", [&] { return R.malloc(&Out, 256); }},
      {"free", [&] { return R.free(Dev); }},
      {"memcpy",
       [&] { return R.memcpy(Dev, Host.data(), 64, CopyKind::HostToDevice); }},
      {"memcpyAsync",
       [&] {
         return R.memcpyAsync(Host.data(), Dev, 64, CopyKind::DeviceToHost,
                              Stream);
       }},
      {"memset", [&] { return R.memset(Dev, 0, 64); }},
      {"memsetAsync", [&] { return R.memsetAsync(Dev, 0, 64, Stream); }},
      {"memcpy3D (2D)",
       [&] {
         return R.memcpy3D({Dev, 64, 4}, {Host.data(), 32, 4}, 32, 4, 1,
                           CopyKind::HostToDevice, Stream, /*Async=*/true);
       }},
      {"memset3D (2D)",
       [&] {
         return R.memset3D({Dev, 64, 4}, 0, 32, 4, 1, nullptr, false);
       }},
      {"memcpyPeer",
       [&] { return R.memcpyPeer(Dev, 0, Dev, 0, 64, nullptr, false); }},
      {"hostAlloc", [&] { return R.hostAlloc(&Out, 256, 0); }},
      {"freeHost", [&] { return R.freeHost(Pinned); }},
      {"mallocManaged", [&] { return R.mallocManaged(&Out, 256, 1); }},
      {"memPrefetchAsync",
       [&] { return R.memPrefetchAsync(Managed, 256, 1, 0, 0, Stream); }},
      {"pointerGetAttributes",
       [&] { return R.pointerGetAttributes(&PA, Dev); }},
      {"mallocFromPoolAsync",
       [&] { return R.mallocFromPoolAsync(&Out, 256, nullptr, Stream); }},
      {"freeAsync", [&] { return R.freeAsync(Dev, Stream); }},
      // Graphs and capture.
      {"graphCreate", [&] { return graphCreate(&G2, 0); }},
      {"graphAddNode",
       [&] { return graphAddNode(&Node2, G, nullptr, 0, NodeOp{}); }},
      {"graphInstantiate", [&] { return graphInstantiate(&Exec2, G, 0); }},
      {"graphLaunch", [&] { return graphLaunch(Exec, Stream); }},
      {"streamBeginCapture",
       [&] { return streamBeginCapture(Stream, CaptureMode::Global); }},
      // Kernels.
      {"launch",
       [&] {
         return R.launch(Wild, {1, 1, 1}, {1, 1, 1}, nullptr, 0, Stream);
       }},
      {"kernelAttributes", [&] { return R.kernelAttributes(Wild, &KA); }},
  };
  for (const Call &C : Calls) {
    EXPECT_EQ(C.Run(), cudaErrorIllegalAddress) << C.Name;
    // Reading the last error returns the fault and does not clear it.
    EXPECT_EQ(R.getLastError(), cudaErrorIllegalAddress) << C.Name;
    EXPECT_EQ(R.peekLastError(), cudaErrorIllegalAddress) << C.Name;
  }
  // Selecting the device only records the choice.
  EXPECT_EQ(R.setDevice(0), cudaSuccess);

  ASSERT_EQ(R.deviceReset(), cudaSuccess);
  EXPECT_EQ(R.getLastError(), cudaSuccess);
  EXPECT_EQ(R.peekLastError(), cudaSuccess);
  // The representatives work again.
  EXPECT_EQ(R.deviceAttribute(10, 0, &IntOut), cudaSuccess);
  EXPECT_EQ(IntOut, 32);
  EXPECT_EQ(R.malloc(&Out, 256), cudaSuccess);
  EXPECT_EQ(R.free(Out), cudaSuccess);
  EXPECT_EQ(graphCreate(&G2, 0), cudaSuccess);
  EXPECT_EQ(graphDestroy(G2), cudaSuccess);
  EXPECT_EQ(R.synchronize(), cudaSuccess);
  EXPECT_EQ(graphExecDestroy(Exec), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  R.getLastError();
}

TEST(LastError, FailuresSetItAndSuccessesLeaveIt) {
  Runtime &R = Runtime::get();
  R.getLastError();
  EXPECT_EQ(R.malloc(nullptr, 16), cudaErrorInvalidValue);
  int Dev = -1;
  // Successful calls of every kind do not clear the recorded failure.
  EXPECT_EQ(R.getDevice(&Dev), cudaSuccess);
  void *S = nullptr;
  EXPECT_EQ(R.streamCreate(&S, 0, 0), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
  EXPECT_EQ(R.synchronize(), cudaSuccess);
  EXPECT_EQ(R.peekLastError(), cudaErrorInvalidValue);
  // A later failure replaces it; reading it clears it.
  EXPECT_EQ(R.streamQuery(reinterpret_cast<void *>(0x10)),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.getLastError(), cudaSuccess);
  // Graph and capture calls record their failures too.
  EXPECT_EQ(graphCreate(nullptr, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(streamBeginCapture(nullptr, CaptureMode::Global),
            cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(R.getLastError(), cudaErrorStreamCaptureUnsupported);
}

} // namespace
