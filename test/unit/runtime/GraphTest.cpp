//===- GraphTest.cpp - Stream capture and graphs in the runtime core ------===//
//
// Capture records stream operations instead of running them, forks and
// joins streams through events, refuses what CUDA refuses during capture
// with CUDA's error codes, and the graphs it produces (and graphs built node
// by node) run their nodes in dependency order each time they are launched.
// Kernels come from a small PTX module loaded through loadModuleData.
//
//===----------------------------------------------------------------------===//
#include "AddKernelPtx.h"
#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Runtime.h"
#include "cuhip/runtime/Texture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace cuhip::rt;

namespace {

using test::AddPtx;

Kernel *addKernel() {
  static Kernel *K = [] {
    Runtime &R = Runtime::get();
    Module *M = nullptr;
    Kernel *K = nullptr;
    if (R.loadModuleData(AddPtx, 0, "graph_test.ptx", &M) != cudaSuccess ||
        R.moduleGetFunction(M, "add", &K) != cudaSuccess)
      return static_cast<Kernel *>(nullptr);
    return K;
  }();
  return K;
}

Status launchAdd(void *Stream, void *P, unsigned N, unsigned V) {
  void *Args[] = {&P, &N, &V};
  return Runtime::get().launch(addKernel(), {(N + 63) / 64, 1, 1}, {64, 1, 1},
                               Args, 0, Stream);
}

void countUp(void *P) { static_cast<std::atomic<int> *>(P)->fetch_add(1); }

struct GraphFixture : ::testing::Test {
  Runtime &R = Runtime::get();
  static constexpr unsigned N = 100;
  void *Dev = nullptr;
  std::vector<uint32_t> Host = std::vector<uint32_t>(N);
  void SetUp() override {
    ASSERT_NE(addKernel(), nullptr);
    ASSERT_EQ(R.malloc(&Dev, N * 4), cudaSuccess);
    R.getLastError();
  }
  void TearDown() override {
    EXPECT_EQ(R.free(Dev), cudaSuccess);
    R.getLastError();
  }
  void *stream(unsigned Flags = 0) {
    void *S = nullptr;
    EXPECT_EQ(R.streamCreate(&S, Flags, 0), cudaSuccess);
    return S;
  }
  void *event() {
    void *E = nullptr;
    EXPECT_EQ(R.eventCreate(&E, 0), cudaSuccess);
    return E;
  }
};

TEST_F(GraphFixture, CaptureRecordsAndLaunchReplays) {
  void *S = stream();
  for (unsigned I = 0; I < N; ++I)
    Host[I] = I;
  std::atomic<int> Calls{0};
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  CaptureStatus St;
  ASSERT_EQ(streamIsCapturing(S, &St), cudaSuccess);
  EXPECT_EQ(St, CaptureStatus::Active);
  ASSERT_EQ(R.memcpyAsync(Dev, Host.data(), N * 4, CopyKind::HostToDevice, S),
            cudaSuccess);
  unsigned V = 5;
  ASSERT_EQ(launchAdd(S, Dev, N, V), cudaSuccess);
  ASSERT_EQ(R.memcpyAsync(Host.data(), Dev, N * 4, CopyKind::DeviceToHost, S),
            cudaSuccess);
  ASSERT_EQ(R.streamAddHostFunc(S, countUp, &Calls), cudaSuccess);
  // Nothing ran: the host function was not called, the data not copied.
  EXPECT_EQ(Calls.load(), 0);
  uint64_t Id = 0;
  size_t NumDeps = 0;
  GraphNode *const *Deps = nullptr;
  Graph *Captured = nullptr;
  ASSERT_EQ(streamGetCaptureInfo(S, &St, &Id, &Captured, &Deps, &NumDeps),
            cudaSuccess);
  EXPECT_NE(Id, 0u);
  EXPECT_NE(Captured, nullptr);
  EXPECT_EQ(NumDeps, 1u);
  Graph *G = nullptr;
  ASSERT_EQ(streamEndCapture(S, &G), cudaSuccess);
  ASSERT_EQ(G, Captured);
  ASSERT_EQ(streamIsCapturing(S, &St), cudaSuccess);
  EXPECT_EQ(St, CaptureStatus::None);
  size_t Count = 0;
  ASSERT_EQ(graphGetNodes(G, nullptr, &Count), cudaSuccess);
  EXPECT_EQ(Count, 4u);

  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  for (int Round = 1; Round <= 3; ++Round) {
    // Each launch copies Host in again, so every round adds 5 once.
    for (unsigned I = 0; I < N; ++I)
      Host[I] = I * Round;
    ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
    ASSERT_EQ(R.streamSynchronize(S), cudaSuccess);
    for (unsigned I = 0; I < N; ++I)
      ASSERT_EQ(Host[I], I * Round + 5) << I;
    EXPECT_EQ(Calls.load(), Round);
  }
  EXPECT_EQ(graphExecDestroy(E), cudaSuccess);
  EXPECT_EQ(graphExecDestroy(E), cudaErrorInvalidValue);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(S), cudaSuccess);
  R.getLastError();
}

TEST_F(GraphFixture, KernelArgumentsAreCopiedWhenCaptured) {
  void *S = stream();
  std::vector<uint32_t> Zero(N, 0);
  ASSERT_EQ(R.memcpy(Dev, Zero.data(), N * 4, CopyKind::HostToDevice),
            cudaSuccess);
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::ThreadLocal), cudaSuccess);
  {
    void *P = Dev;
    unsigned Count = N, V = 7;
    void *Args[] = {&P, &Count, &V};
    ASSERT_EQ(R.launch(addKernel(), {2, 1, 1}, {64, 1, 1}, Args, 0, S),
              cudaSuccess);
    V = 1000; // changing the caller's argument after capture changes nothing
  }
  Graph *G = nullptr;
  ASSERT_EQ(streamEndCapture(S, &G), cudaSuccess);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(R.memcpy(Host.data(), Dev, N * 4, CopyKind::DeviceToHost),
            cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Host[I], 7u) << I;
  graphExecDestroy(E);
  graphDestroy(G);
  R.streamDestroy(S);
}

TEST_F(GraphFixture, ForkAndJoinThroughEvents) {
  void *A = stream(), *B = stream(), *Fork = event(), *Join = event();
  std::vector<uint32_t> Zero(N, 0);
  ASSERT_EQ(R.memcpy(Dev, Zero.data(), N * 4, CopyKind::HostToDevice),
            cudaSuccess);
  ASSERT_EQ(streamBeginCapture(A, CaptureMode::Global), cudaSuccess);
  ASSERT_EQ(R.memsetAsync(Dev, 0, N * 4, A), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Fork, A), cudaSuccess);
  ASSERT_EQ(R.streamWaitEvent(B, Fork, 0), cudaSuccess);
  CaptureStatus St;
  ASSERT_EQ(streamIsCapturing(B, &St), cudaSuccess);
  EXPECT_EQ(St, CaptureStatus::Active) << "B joined A's capture";
  // Two branches on the two halves, then B joins back into A.
  ASSERT_EQ(launchAdd(A, Dev, N / 2, 1), cudaSuccess);
  ASSERT_EQ(launchAdd(B, static_cast<uint32_t *>(Dev) + N / 2, N / 2, 2),
            cudaSuccess);
  // Ending now would leave B's work unjoined; ending on B is unmatched.
  Graph *G = nullptr;
  EXPECT_EQ(streamEndCapture(B, &G), cudaErrorStreamCaptureUnmatched);
  ASSERT_EQ(R.eventRecord(Join, B), cudaSuccess);
  ASSERT_EQ(R.streamWaitEvent(A, Join, 0), cudaSuccess);
  size_t NumDeps = 0;
  ASSERT_EQ(streamGetCaptureInfo(A, &St, nullptr, nullptr, nullptr, &NumDeps),
            cudaSuccess);
  EXPECT_EQ(NumDeps, 2u) << "A's next work waits for both branches";
  ASSERT_EQ(launchAdd(A, Dev, N, 10), cudaSuccess);
  ASSERT_EQ(streamEndCapture(A, &G), cudaSuccess);
  ASSERT_EQ(streamIsCapturing(B, &St), cudaSuccess);
  EXPECT_EQ(St, CaptureStatus::None) << "B left the capture with A";

  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, A), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, A), cudaSuccess);
  ASSERT_EQ(R.memcpy(Host.data(), Dev, N * 4, CopyKind::DeviceToHost),
            cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Host[I], I < N / 2 ? 11u : 12u) << I;

  char Path[] = "/tmp/cuhip_graph_XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  close(Fd);
  ASSERT_EQ(graphDebugDotPrint(G, Path, 0), cudaSuccess);
  std::ifstream Dot(Path);
  std::stringstream Text;
  Text << Dot.rdbuf();
  std::remove(Path);
  EXPECT_NE(Text.str().find("digraph"), std::string::npos);
  EXPECT_NE(Text.str().find("kernel add"), std::string::npos);
  EXPECT_NE(Text.str().find("memset"), std::string::npos);
  // memset -> both adds -> final add: four edges.
  size_t Edges = 0;
  for (size_t P = 0; (P = Text.str().find("->", P)) != std::string::npos; ++P)
    ++Edges;
  EXPECT_EQ(Edges, 4u);
  graphExecDestroy(E);
  graphDestroy(G);
  for (void *S : {A, B})
    R.streamDestroy(S);
  for (void *Ev : {Fork, Join})
    R.eventDestroy(Ev);
}

TEST_F(GraphFixture, UnjoinedForkFailsEndCapture) {
  void *A = stream(), *B = stream(), *Fork = event();
  ASSERT_EQ(streamBeginCapture(A, CaptureMode::Global), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Fork, A), cudaSuccess);
  ASSERT_EQ(R.streamWaitEvent(B, Fork, 0), cudaSuccess);
  ASSERT_EQ(launchAdd(B, Dev, N, 1), cudaSuccess);
  Graph *G = reinterpret_cast<Graph *>(1);
  EXPECT_EQ(streamEndCapture(A, &G), cudaErrorStreamCaptureUnjoined);
  EXPECT_EQ(G, nullptr);
  CaptureStatus St;
  ASSERT_EQ(streamIsCapturing(B, &St), cudaSuccess);
  EXPECT_EQ(St, CaptureStatus::None);
  EXPECT_FALSE(capture::anyActive());
  R.streamDestroy(A);
  R.streamDestroy(B);
  R.eventDestroy(Fork);
  R.getLastError();
}

// A forked stream destroyed inside the capture (NVIDIA's graphMemoryNodes
// does it after joining it back): its work stays in the graph and the
// capture ends normally; destroyed before it was joined, ending reports the
// fork unjoined.
TEST_F(GraphFixture, ForkedStreamDestroyedDuringCapture) {
  for (bool JoinFirst : {true, false}) {
    void *A = stream(), *B = stream(), *Fork = event(), *Join = event();
    ASSERT_EQ(streamBeginCapture(A, CaptureMode::Global), cudaSuccess);
    ASSERT_EQ(R.eventRecord(Fork, A), cudaSuccess);
    ASSERT_EQ(R.streamWaitEvent(B, Fork, 0), cudaSuccess);
    ASSERT_EQ(launchAdd(B, Dev, N, 1), cudaSuccess);
    if (JoinFirst) {
      ASSERT_EQ(R.eventRecord(Join, B), cudaSuccess);
      ASSERT_EQ(R.streamWaitEvent(A, Join, 0), cudaSuccess);
    }
    ASSERT_EQ(R.streamDestroy(B), cudaSuccess);
    ASSERT_EQ(R.eventDestroy(Fork), cudaSuccess);
    ASSERT_EQ(R.eventDestroy(Join), cudaSuccess);
    ASSERT_EQ(launchAdd(A, Dev, N, 2), cudaSuccess);
    Graph *G = nullptr;
    if (!JoinFirst) {
      EXPECT_EQ(streamEndCapture(A, &G), cudaErrorStreamCaptureUnjoined);
      EXPECT_EQ(G, nullptr);
      R.getLastError();
      R.streamDestroy(A);
      continue;
    }
    ASSERT_EQ(streamEndCapture(A, &G), cudaSuccess);
    ASSERT_NE(G, nullptr);
    size_t Count = 0;
    ASSERT_EQ(graphGetNodes(G, nullptr, &Count), cudaSuccess);
    EXPECT_EQ(Count, 2u);
    graphDestroy(G);
    R.streamDestroy(A);
  }
  EXPECT_FALSE(capture::anyActive());
}

TEST_F(GraphFixture, CaptureStartAndEndErrors) {
  void *S = stream();
  EXPECT_EQ(streamBeginCapture(nullptr, CaptureMode::Global),
            cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(
      streamBeginCapture(reinterpret_cast<void *>(1), CaptureMode::Global),
      cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(streamBeginCapture(S, static_cast<CaptureMode>(7)),
            cudaErrorInvalidValue);
  Graph *G = nullptr;
  EXPECT_EQ(streamEndCapture(S, &G), cudaErrorIllegalState);
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  EXPECT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaErrorIllegalState);
  // A non-relaxed capture must end on the thread that began it.
  Status Other = cudaSuccess;
  std::thread([&] { Other = streamEndCapture(S, &G); }).join();
  EXPECT_EQ(Other, cudaErrorStreamCaptureWrongThread);
  ASSERT_EQ(streamEndCapture(S, &G), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  // A relaxed one may end anywhere.
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Relaxed), cudaSuccess);
  std::thread([&] { Other = streamEndCapture(S, &G); }).join();
  EXPECT_EQ(Other, cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(streamEndCapture(S, nullptr), cudaErrorInvalidValue);
  R.streamDestroy(S);
  R.getLastError();
}

TEST_F(GraphFixture, UnsafeCallsInvalidateGlobalCapture) {
  void *S = stream();
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  void *P = nullptr;
  EXPECT_EQ(R.malloc(&P, 64), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(R.getLastError(), cudaErrorStreamCaptureUnsupported);
  CaptureStatus St;
  ASSERT_EQ(streamIsCapturing(S, &St), cudaSuccess);
  EXPECT_EQ(St, CaptureStatus::Invalidated);
  // Work on an invalidated capture fails; ending it gives no graph.
  EXPECT_EQ(launchAdd(S, Dev, N, 1), cudaErrorStreamCaptureInvalidated);
  Graph *G = nullptr;
  EXPECT_EQ(streamEndCapture(S, &G), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(G, nullptr);
  // Afterwards everything works again.
  EXPECT_EQ(R.malloc(&P, 64), cudaSuccess);
  EXPECT_EQ(R.free(P), cudaSuccess);

  // Synchronous copies run on the legacy stream: refused too.
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  EXPECT_EQ(R.memcpy(Host.data(), Dev, 16, CopyKind::DeviceToHost),
            cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(streamEndCapture(S, &G), cudaErrorStreamCaptureInvalidated);

  // Waiting for a capturing stream is refused and invalidates it.
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  EXPECT_EQ(R.streamSynchronize(S), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(R.streamQuery(S), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(streamEndCapture(S, &G), cudaErrorStreamCaptureInvalidated);
  R.streamDestroy(S);
  R.getLastError();
}

TEST_F(GraphFixture, CaptureModesDecideWhichCallsAreUnsafe) {
  void *S = stream(), *P = nullptr;
  Graph *G = nullptr;
  // Relaxed capture: cudaMalloc is allowed.
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Relaxed), cudaSuccess);
  EXPECT_EQ(R.malloc(&P, 64), cudaSuccess);
  EXPECT_EQ(R.free(P), cudaSuccess);
  // ... but a synchronous copy still orders with the legacy stream, which
  // would wait for the capturing (blocking) stream.
  EXPECT_EQ(R.memcpy(Host.data(), Dev, 16, CopyKind::DeviceToHost),
            cudaErrorStreamCaptureImplicit);
  ASSERT_EQ(streamEndCapture(S, &G), cudaErrorStreamCaptureInvalidated);

  // Thread-local capture on another thread does not restrict this one, but
  // a global one does unless this thread's mode is relaxed.
  void *NonBlocking = stream(0x1);
  for (CaptureMode M : {CaptureMode::ThreadLocal, CaptureMode::Global}) {
    std::atomic<int> Phase{0};
    std::thread T([&] {
      EXPECT_EQ(streamBeginCapture(NonBlocking, M), cudaSuccess);
      Phase = 1;
      while (Phase != 2)
        std::this_thread::yield();
      Status S2 = streamEndCapture(NonBlocking, &G);
      if (S2 == cudaSuccess)
        graphDestroy(G);
      Phase = 3;
    });
    while (Phase != 1)
      std::this_thread::yield();
    Status Got = R.malloc(&P, 64);
    if (M == CaptureMode::ThreadLocal) {
      EXPECT_EQ(Got, cudaSuccess);
      R.free(P);
    } else {
      EXPECT_EQ(Got, cudaErrorStreamCaptureUnsupported);
      CaptureMode Mine = CaptureMode::Relaxed;
      ASSERT_EQ(threadExchangeCaptureMode(&Mine), cudaSuccess);
      EXPECT_EQ(Mine, CaptureMode::Global);
      EXPECT_EQ(R.malloc(&P, 64), cudaSuccess);
      R.free(P);
      ASSERT_EQ(threadExchangeCaptureMode(&Mine), cudaSuccess);
      EXPECT_EQ(Mine, CaptureMode::Relaxed);
    }
    Phase = 2;
    T.join();
  }
  R.streamDestroy(NonBlocking);
  R.streamDestroy(S);
  R.getLastError();
}

TEST_F(GraphFixture, LegacyStreamWorkWhileABlockingStreamCaptures) {
  void *Blocking = stream(), *NonBlocking = stream(0x1);
  Graph *G = nullptr;
  ASSERT_EQ(streamBeginCapture(NonBlocking, CaptureMode::Relaxed), cudaSuccess);
  // A non-blocking stream does not order with the legacy stream.
  EXPECT_EQ(R.memsetAsync(Dev, 0, 16, nullptr), cudaSuccess);
  ASSERT_EQ(streamEndCapture(NonBlocking, &G), cudaSuccess);
  graphDestroy(G);
  ASSERT_EQ(streamBeginCapture(Blocking, CaptureMode::Relaxed), cudaSuccess);
  EXPECT_EQ(R.memsetAsync(Dev, 0, 16, nullptr), cudaErrorStreamCaptureImplicit);
  EXPECT_EQ(streamEndCapture(Blocking, &G), cudaErrorStreamCaptureInvalidated);
  R.streamDestroy(Blocking);
  R.streamDestroy(NonBlocking);
  R.getLastError();
}

TEST_F(GraphFixture, PerThreadDefaultStreamsCaptureSeparately) {
  void *PerThread = reinterpret_cast<void *>(2);
  ASSERT_EQ(streamBeginCapture(PerThread, CaptureMode::ThreadLocal),
            cudaSuccess);
  CaptureStatus Elsewhere = CaptureStatus::Active;
  std::thread([&] { streamIsCapturing(PerThread, &Elsewhere); }).join();
  EXPECT_EQ(Elsewhere, CaptureStatus::None);
  ASSERT_EQ(launchAdd(PerThread, Dev, N, 1), cudaSuccess);
  Graph *G = nullptr;
  ASSERT_EQ(streamEndCapture(PerThread, &G), cudaSuccess);
  size_t Count = 0;
  ASSERT_EQ(graphGetNodes(G, nullptr, &Count), cudaSuccess);
  EXPECT_EQ(Count, 1u);
  graphDestroy(G);
}

TEST_F(GraphFixture, ExplicitGraphRunsInDependencyOrder) {
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  EXPECT_EQ(graphCreate(&G, 1), cudaErrorInvalidValue);
  std::vector<uint32_t> Out(N, 0);
  // memset 0x01010101 -> add 1 (kernel) -> copy out -> host function,
  // plus a memset of 4-byte elements that a byte memset cannot do.
  NodeOp Set;
  Set.K = NodeOp::Memset;
  Set.Dst = Dev;
  Set.Value = 3;
  Set.ElementSize = 4;
  Set.Width = N;
  Set.Pitch = N * 4;
  GraphNode *SetNode = nullptr, *AddNode = nullptr, *CopyNode = nullptr,
            *HostNode = nullptr, *Empty = nullptr;
  ASSERT_EQ(graphAddNode(&SetNode, G, nullptr, 0, Set), cudaSuccess);
  NodeOp Add;
  Add.K = NodeOp::KernelLaunch;
  Add.Grid = {2, 1, 1};
  Add.Block = {64, 1, 1};
  void *P = Dev;
  unsigned Count = N, V = 4;
  void *Args[] = {&P, &Count, &V};
  ASSERT_EQ(packKernelArgs(addKernel(), Args, Add), cudaSuccess);
  ASSERT_EQ(graphAddNode(&AddNode, G, &SetNode, 1, Add), cudaSuccess);
  NodeOp Copy;
  Copy.K = NodeOp::Memcpy;
  Copy.Dst = Out.data();
  Copy.Src = Dev;
  Copy.Bytes = N * 4;
  Copy.Copy = CopyKind::DeviceToHost;
  ASSERT_EQ(graphAddNode(&CopyNode, G, &AddNode, 1, Copy), cudaSuccess);
  std::atomic<int> Calls{0};
  NodeOp Host;
  Host.K = NodeOp::Host;
  Host.HostFn = countUp;
  Host.HostData = &Calls;
  ASSERT_EQ(graphAddNode(&HostNode, G, nullptr, 0, Host), cudaSuccess);
  ASSERT_EQ(graphAddNode(&Empty, G, nullptr, 0, NodeOp()), cudaSuccess);
  ASSERT_EQ(graphAddDependencies(G, &CopyNode, &HostNode, 1), cudaSuccess);
  EXPECT_EQ(graphAddDependencies(G, &CopyNode, &HostNode, 1),
            cudaErrorInvalidValue)
      << "an edge that exists already";
  // Bad nodes and parameters.
  NodeOp BadCopy = Copy;
  BadCopy.Bytes = N * 4 + 4;
  GraphNode *Bad = nullptr;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, BadCopy), cudaErrorInvalidValue);
  NodeOp BadSet = Set;
  BadSet.ElementSize = 3;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, BadSet), cudaErrorInvalidValue);
  Graph *Other = nullptr;
  ASSERT_EQ(graphCreate(&Other, 0), cudaSuccess);
  EXPECT_EQ(graphAddNode(&Bad, Other, &SetNode, 1, NodeOp()),
            cudaErrorInvalidValue)
      << "a dependency from another graph";
  graphDestroy(Other);

  std::vector<GraphNode *> Nodes(8);
  size_t Num = Nodes.size();
  ASSERT_EQ(graphGetNodes(G, Nodes.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 5u);
  EXPECT_EQ(Nodes[0], SetNode);
  EXPECT_EQ(Nodes[5], nullptr);

  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 7u) << I;
  EXPECT_EQ(Calls.load(), 1);

  // New kernel arguments for the instance only.
  NodeOp Add2 = Add;
  V = 100;
  ASSERT_EQ(packKernelArgs(addKernel(), Args, Add2), cudaSuccess);
  ASSERT_EQ(graphExecSetNodeOp(E, AddNode, Add2), cudaSuccess);
  EXPECT_EQ(graphExecSetNodeOp(E, AddNode, Copy), cudaErrorInvalidValue);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 103u) << I;

  // A clone runs like the original (with the graph's own arguments).
  Graph *C = nullptr;
  ASSERT_EQ(graphClone(&C, G), cudaSuccess);
  GraphExec *CE = nullptr;
  ASSERT_EQ(graphInstantiate(&CE, C, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(CE, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 7u) << I;
  EXPECT_EQ(Calls.load(), 3);

  // Update: the clone has the same topology; one more edge does not.
  int Result = -1;
  GraphNode *ErrNode = nullptr;
  EXPECT_EQ(graphExecUpdate(E, C, &Result, &ErrNode), cudaSuccess);
  EXPECT_EQ(Result, 0);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Out[0], 7u) << "the update took the clone's arguments";
  std::vector<GraphNode *> CNodes(5);
  Num = 5;
  ASSERT_EQ(graphGetNodes(C, CNodes.data(), &Num), cudaSuccess);
  ASSERT_EQ(graphAddDependencies(C, &CNodes[4], &CNodes[3], 1), cudaSuccess);
  EXPECT_EQ(graphExecUpdate(E, C, &Result, &ErrNode),
            cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(Result, 2); // cudaGraphExecUpdateErrorTopologyChanged

  // A cycle cannot be instantiated.
  ASSERT_EQ(graphAddDependencies(C, &CNodes[3], &CNodes[4], 1), cudaSuccess);
  GraphExec *Cyclic = nullptr;
  EXPECT_EQ(graphInstantiate(&Cyclic, C, 0), cudaErrorInvalidValue);

  EXPECT_EQ(graphExecDestroy(CE), cudaSuccess);
  EXPECT_EQ(graphExecDestroy(E), cudaSuccess);
  EXPECT_EQ(graphDestroy(C), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaErrorInvalidValue);
  R.getLastError();
}

TEST_F(GraphFixture, GraphLaunchedIntoACaptureIsCaptured) {
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  NodeOp Add;
  Add.K = NodeOp::KernelLaunch;
  Add.Grid = {2, 1, 1};
  Add.Block = {64, 1, 1};
  void *P = Dev;
  unsigned Count = N, V = 1;
  void *Args[] = {&P, &Count, &V};
  ASSERT_EQ(packKernelArgs(addKernel(), Args, Add), cudaSuccess);
  GraphNode *Node = nullptr;
  ASSERT_EQ(graphAddNode(&Node, G, nullptr, 0, Add), cudaSuccess);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  void *S = stream();
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
  Graph *Outer = nullptr;
  ASSERT_EQ(streamEndCapture(S, &Outer), cudaSuccess);
  size_t Num = 0;
  ASSERT_EQ(graphGetNodes(Outer, nullptr, &Num), cudaSuccess);
  EXPECT_EQ(Num, 2u);
  graphDestroy(Outer);
  graphExecDestroy(E);
  graphDestroy(G);
  R.streamDestroy(S);
}

TEST_F(GraphFixture, PitchedCopiesAndSetsAreCaptured) {
  // A 2D region of 8 rows of 16 bytes in a 64-byte-pitched allocation, and
  // a 3D one of 2 slices of 3 such rows whose slices are 4 rows apart (a
  // gap between slices: one node per slice).
  constexpr size_t Pitch = 64, W = 16, Rows = 8;
  void *Pitched = nullptr, *Slab = nullptr, *Peer = nullptr;
  ASSERT_EQ(R.malloc(&Pitched, Pitch * Rows), cudaSuccess);
  ASSERT_EQ(R.malloc(&Slab, Pitch * 4 * 2), cudaSuccess);
  ASSERT_EQ(R.malloc(&Peer, W), cudaSuccess);
  ASSERT_EQ(R.memset(Pitched, 0, Pitch * Rows), cudaSuccess);
  ASSERT_EQ(R.memset(Slab, 0, Pitch * 4 * 2), cudaSuccess);
  void *Managed = nullptr;
  ASSERT_EQ(R.mallocManaged(&Managed, 256, 1), cudaSuccess);
  std::vector<uint8_t> Src(W * Rows), Back(W * Rows, 0), SlabBack(W * 6, 0);
  std::vector<uint8_t> PeerBack(W, 0);
  for (size_t I = 0; I < Src.size(); ++I)
    Src[I] = uint8_t(I + 1);
  void *S = stream();
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  // Host rows packed (pitch W) into device rows Pitch apart, and back.
  ASSERT_EQ(R.memcpy3D({Pitched, Pitch, Rows}, {Src.data(), W, Rows}, W, Rows,
                       1, CopyKind::HostToDevice, S, /*Async=*/true),
            cudaSuccess);
  ASSERT_EQ(R.memcpy3D({Back.data(), W, Rows}, {Pitched, Pitch, Rows}, W, Rows,
                       1, CopyKind::DeviceToHost, S, true),
            cudaSuccess);
  // A 3D memset of 2 slices of 3 rows, 4 rows apart, then read back.
  ASSERT_EQ(R.memset3D({Slab, Pitch, 4}, 0x5a, W, 3, 2, S, true), cudaSuccess);
  ASSERT_EQ(R.memcpy3D({SlabBack.data(), W, 3}, {Slab, Pitch, 4}, W, 3, 2,
                       CopyKind::DeviceToHost, S, true),
            cudaSuccess);
  // Peer copies, prefetches and 1D copies through the same hooks.
  ASSERT_EQ(R.memcpyPeer(Peer, 0, Pitched, 0, W, S, true), cudaSuccess);
  ASSERT_EQ(R.memPrefetchAsync(Managed, 256, 1, 0, 0, S), cudaSuccess);
  ASSERT_EQ(R.memcpyAsync(PeerBack.data(), Peer, W, CopyKind::DeviceToHost, S),
            cudaSuccess);
  // Nothing ran during capture.
  for (uint8_t B : Back)
    ASSERT_EQ(B, 0);
  for (uint8_t B : SlabBack)
    ASSERT_EQ(B, 0);
  Graph *G = nullptr;
  ASSERT_EQ(streamEndCapture(S, &G), cudaSuccess);
  size_t Count = 0;
  ASSERT_EQ(graphGetNodes(G, nullptr, &Count), cudaSuccess);
  // 2D copy in, 2D copy out, two memset slices, two copy slices, the peer
  // copy, the prefetch and the last copy.
  EXPECT_EQ(Count, 9u);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(S), cudaSuccess);
  EXPECT_EQ(Back, Src);
  for (uint8_t B : SlabBack)
    ASSERT_EQ(B, 0x5a);
  EXPECT_TRUE(std::equal(PeerBack.begin(), PeerBack.end(), Src.begin()));
  // The gaps between the pitched rows and slices stayed untouched.
  std::vector<uint8_t> Whole(Pitch * 4 * 2);
  ASSERT_EQ(R.memcpy(Whole.data(), Slab, Whole.size(), CopyKind::DeviceToHost),
            cudaSuccess);
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 4; ++Y)
      for (size_t X = 0; X < Pitch; ++X)
        ASSERT_EQ(Whole[(Z * 4 + Y) * Pitch + X], Y < 3 && X < W ? 0x5a : 0)
            << Z << " " << Y << " " << X;
  graphExecDestroy(E);
  graphDestroy(G);
  R.streamDestroy(S);
  R.free(Pitched);
  R.free(Slab);
  R.free(Peer);
  R.free(Managed);
  R.getLastError();
}

TEST_F(GraphFixture, SynchronousMemoryFamilyIsRefusedDuringCapture) {
  // Non-blocking, so that in relaxed mode the legacy stream's work does not
  // have to wait for the capture.
  void *S = stream(0x1);
  const struct {
    const char *Name;
    std::function<Status()> Run;
  } Calls[] = {
      {"memcpy3D",
       [&] {
         return R.memcpy3D({Dev, 16, 2}, {Host.data(), 16, 2}, 16, 2, 1,
                           CopyKind::HostToDevice, nullptr, false);
       }},
      {"memset3D",
       [&] {
         return R.memset3D({Dev, 16, 2}, 0, 16, 2, 1, nullptr, false);
       }},
      {"memcpyPeer",
       [&] { return R.memcpyPeer(Dev, 0, Dev, 0, 16, nullptr, false); }},
  };
  for (const auto &C : Calls) {
    ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
    EXPECT_EQ(C.Run(), cudaErrorStreamCaptureUnsupported) << C.Name;
    EXPECT_EQ(R.getLastError(), cudaErrorStreamCaptureUnsupported) << C.Name;
    Graph *G = nullptr;
    EXPECT_EQ(streamEndCapture(S, &G), cudaErrorStreamCaptureInvalidated)
        << C.Name;
  }
  // Relaxed capture lets them run.
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Relaxed), cudaSuccess);
  for (const auto &C : Calls)
    EXPECT_EQ(C.Run(), cudaSuccess) << C.Name;
  Graph *G = nullptr;
  EXPECT_EQ(streamEndCapture(S, &G), cudaSuccess);
  graphDestroy(G);
  R.streamDestroy(S);
  R.getLastError();
}

TEST_F(GraphFixture, StreamOrderedAllocationIsCapturedAsMemoryNodes) {
  void *S = stream();
  void *Outside = nullptr;
  ASSERT_EQ(R.mallocFromPoolAsync(&Outside, 64, nullptr, S), cudaSuccess);
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  void *Q = nullptr;
  ASSERT_EQ(R.mallocFromPoolAsync(&Q, N * 4, nullptr, S), cudaSuccess);
  ASSERT_NE(Q, nullptr);
  ASSERT_EQ(R.memsetAsync(Q, 0, N * 4, S), cudaSuccess);
  ASSERT_EQ(launchAdd(S, Q, N, 9), cudaSuccess);
  ASSERT_EQ(R.memcpyAsync(Host.data(), Q, N * 4, CopyKind::DeviceToHost, S),
            cudaSuccess);
  ASSERT_EQ(R.freeAsync(Q, S), cudaSuccess);
  // Memory no allocation node made cannot be freed by a free node.
  EXPECT_EQ(R.freeAsync(Outside, S), cudaErrorInvalidValue);
  Graph *G = nullptr;
  ASSERT_EQ(streamEndCapture(S, &G), cudaSuccess);
  std::vector<GraphNode *> Nodes(5);
  size_t Num = 5;
  ASSERT_EQ(graphGetNodes(G, Nodes.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 5u);
  NodeOp::Kind First, Last;
  ASSERT_EQ(graphNodeGetType(Nodes[0], &First), cudaSuccess);
  ASSERT_EQ(graphNodeGetType(Nodes[4], &Last), cudaSuccess);
  EXPECT_EQ(First, NodeOp::MemAlloc);
  EXPECT_EQ(Last, NodeOp::MemFree);
  EXPECT_EQ(graphNodeOp(Nodes[0])->Dst, Q);
  EXPECT_EQ(graphNodeOp(Nodes[4])->Dst, Q);
  // The address stays the graph's: freeing it outside is refused.
  EXPECT_EQ(R.freeAsync(Q, S), cudaErrorInvalidValue);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  for (int Round = 0; Round < 2; ++Round) {
    std::fill(Host.begin(), Host.end(), 0);
    ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
    ASSERT_EQ(R.streamSynchronize(S), cudaSuccess);
    for (unsigned I = 0; I < N; ++I)
      ASSERT_EQ(Host[I], 9u) << I;
  }
  EXPECT_EQ(graphExecDestroy(E), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(R.freeAsync(Outside, S), cudaSuccess);
  R.streamDestroy(S);
  R.getLastError();
}

namespace {
NodeOp addOp(void *P, unsigned Count, unsigned V) {
  NodeOp Op;
  Op.K = NodeOp::KernelLaunch;
  Op.Grid = {(Count + 63) / 64, 1, 1};
  Op.Block = {64, 1, 1};
  void *Args[] = {&P, &Count, &V};
  EXPECT_EQ(packKernelArgs(addKernel(), Args, Op), cudaSuccess);
  return Op;
}

NodeOp copyOp(void *Dst, const void *Src, size_t Bytes, CopyKind Kind) {
  NodeOp Op;
  Op.K = NodeOp::Memcpy;
  Op.Dst = Dst;
  Op.Src = Src;
  Op.Bytes = Bytes;
  Op.Copy = Kind;
  return Op;
}

GraphNode *add(Graph *G, NodeOp Op, std::vector<GraphNode *> Deps = {}) {
  GraphNode *N = nullptr;
  EXPECT_EQ(graphAddNode(&N, G, Deps.data(), Deps.size(), std::move(Op)),
            cudaSuccess);
  return N;
}
} // namespace

TEST_F(GraphFixture, ThreeDimensionalCopyNodes) {
  // Host rows of 12 bytes, 2 slices of 3 rows, into a device box at
  // (x 4, y 1, z 1) of a 32-byte-pitched allocation of 4 rows per slice, and
  // from there into a CUDA array and back out.
  constexpr size_t W = 12, Rows = 3, Slices = 2, Pitch = 32, DevRows = 4;
  std::vector<uint8_t> Src(W * Rows * Slices), Back(W * Rows * Slices, 0);
  for (size_t I = 0; I < Src.size(); ++I)
    Src[I] = uint8_t(I + 1);
  void *Box = nullptr;
  ASSERT_EQ(R.malloc(&Box, Pitch * DevRows * 3), cudaSuccess);
  ASSERT_EQ(R.memset(Box, 0, Pitch * DevRows * 3), cudaSuccess);
  Array *A = nullptr;
  ChannelFormat F;
  F.X = 8;
  F.Kind = 1; // unsigned
  ASSERT_EQ(arrayCreate(&A, F, W, Rows, Slices, 0), cudaSuccess);

  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  NodeOp In;
  In.K = NodeOp::Memcpy;
  In.Copy = CopyKind::HostToDevice;
  In.Width = W;
  In.Height = Rows;
  In.Depth = Slices;
  In.Src = Src.data();
  In.SrcPitch = W;
  In.Dst = Box;
  In.Pitch = Pitch;
  In.DstEnd.Rows = DevRows;
  In.DstEnd.X = 4;
  In.DstEnd.Y = 1;
  In.DstEnd.Z = 1;
  GraphNode *InNode = add(G, In);
  NodeOp ToArray = In;
  ToArray.Copy = CopyKind::DeviceToDevice;
  ToArray.Src = Box;
  ToArray.SrcPitch = Pitch;
  ToArray.SrcEnd = In.DstEnd;
  ToArray.Dst = nullptr;
  ToArray.Pitch = 0;
  ToArray.DstEnd = CopyEnd();
  ToArray.DstEnd.A = A;
  GraphNode *ArrayNode = add(G, ToArray, {InNode});
  NodeOp Out = In;
  Out.Copy = CopyKind::DeviceToHost;
  Out.Src = nullptr;
  Out.SrcPitch = 0;
  Out.SrcEnd = CopyEnd();
  Out.SrcEnd.A = A;
  Out.Dst = Back.data();
  Out.Pitch = W;
  Out.DstEnd = CopyEnd();
  add(G, Out, {ArrayNode});

  // A box that leaves its allocation, an array region that leaves the
  // array, a pitch narrower than a row: refused when the node is made.
  GraphNode *Bad = nullptr;
  NodeOp TooFar = In;
  TooFar.DstEnd.Z = 2;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, TooFar), cudaErrorInvalidValue);
  NodeOp OffArray = ToArray;
  OffArray.DstEnd.X = 1;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, OffArray),
            cudaErrorInvalidValue);
  NodeOp Narrow = In;
  Narrow.Pitch = W - 1;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, Narrow),
            cudaErrorInvalidPitchValue);
  NodeOp BadKind = In;
  BadKind.Copy = static_cast<CopyKind>(7);
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, BadKind),
            cudaErrorInvalidMemcpyDirection);

  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  for (int Round = 0; Round < 2; ++Round) {
    std::fill(Back.begin(), Back.end(), 0);
    ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
    ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
    EXPECT_EQ(Back, Src);
  }
  // The box landed where the position says, and nowhere else.
  std::vector<uint8_t> Whole(Pitch * DevRows * 3);
  ASSERT_EQ(R.memcpy(Whole.data(), Box, Whole.size(), CopyKind::DeviceToHost),
            cudaSuccess);
  for (size_t Z = 0; Z < 3; ++Z)
    for (size_t Y = 0; Y < DevRows; ++Y)
      for (size_t X = 0; X < Pitch; ++X) {
        bool Inside = Z >= 1 && Y >= 1 && Y < 1 + Rows && X >= 4 && X < 4 + W;
        uint8_t Want =
            Inside ? Src[((Z - 1) * Rows + (Y - 1)) * W + (X - 4)] : 0;
        ASSERT_EQ(Whole[(Z * DevRows + Y) * Pitch + X], Want)
            << Z << " " << Y << " " << X;
      }
  EXPECT_EQ(graphExecDestroy(E), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(arrayDestroy(A), cudaSuccess);
  R.free(Box);
  R.getLastError();
}

TEST_F(GraphFixture, ChildGraphsRunInsideTheirParent) {
  std::vector<uint32_t> Zero(N, 0);
  // Child: add 2 then add 3. Parent: zero -> child -> copy out.
  Graph *Child = nullptr;
  ASSERT_EQ(graphCreate(&Child, 0), cudaSuccess);
  GraphNode *C1 = add(Child, addOp(Dev, N, 2));
  add(Child, addOp(Dev, N, 3), {C1});
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  GraphNode *Zeroing =
      add(G, copyOp(Dev, Zero.data(), N * 4, CopyKind::HostToDevice));
  NodeOp ChildOp;
  ChildOp.K = NodeOp::ChildGraph;
  ChildOp.Child = Child;
  GraphNode *ChildNode = add(G, ChildOp, {Zeroing});
  add(G, copyOp(Host.data(), Dev, N * 4, CopyKind::DeviceToHost), {ChildNode});
  // The node holds a copy: changing the original changes nothing in it.
  add(Child, addOp(Dev, N, 1000));
  Graph *Embedded = graphNodeOp(ChildNode)->Child;
  ASSERT_NE(Embedded, nullptr);
  ASSERT_NE(Embedded, Child);
  size_t Num = 0;
  ASSERT_EQ(graphGetNodes(Embedded, nullptr, &Num), cudaSuccess);
  EXPECT_EQ(Num, 2u);
  // The embedded graph belongs to its node: not destroyed through its
  // handle, and not made a child of itself.
  EXPECT_EQ(graphDestroy(Embedded), cudaErrorInvalidValue);
  GraphNode *Bad = nullptr;
  NodeOp Self = ChildOp;
  Self.Child = G;
  EXPECT_EQ(graphAddNode(&Bad, Embedded, nullptr, 0, Self),
            cudaErrorInvalidValue);

  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  for (int Round = 0; Round < 2; ++Round) {
    ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
    ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
    for (unsigned I = 0; I < N; ++I)
      ASSERT_EQ(Host[I], 5u) << I;
  }
  // Changing the embedded graph changes the graph, not the instance.
  std::vector<GraphNode *> Inner(2);
  Num = 2;
  ASSERT_EQ(graphGetNodes(Embedded, Inner.data(), &Num), cudaSuccess);
  ASSERT_EQ(graphNodeSetOp(Inner[1], addOp(Dev, N, 30)), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Host[0], 5u);
  // The instance takes a graph of the child's topology's parameters...
  Graph *NewChild = nullptr;
  ASSERT_EQ(graphClone(&NewChild, Embedded), cudaSuccess);
  NodeOp Update;
  Update.K = NodeOp::ChildGraph;
  Update.Child = NewChild;
  ASSERT_EQ(graphExecSetNodeOp(E, ChildNode, Update), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Host[0], 32u);
  // ...but not one of another topology.
  add(NewChild, NodeOp());
  EXPECT_EQ(graphExecSetNodeOp(E, ChildNode, Update), cudaErrorInvalidValue);
  // cudaGraphExecUpdate recurses into child graphs the same way.
  Graph *Clone = nullptr;
  ASSERT_EQ(graphClone(&Clone, G), cudaSuccess);
  int Result = -1;
  GraphNode *ErrNode = nullptr;
  ASSERT_EQ(graphExecUpdate(E, Clone, &Result, &ErrNode), cudaSuccess);
  EXPECT_EQ(Result, 0);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Host[0], 32u);

  // Moving a graph into the node: the node owns the handle itself.
  NodeOp Move = ChildOp;
  Move.Child = NewChild;
  Move.MoveChild = true;
  GraphNode *Moved = add(G, Move);
  EXPECT_EQ(graphNodeOp(Moved)->Child, NewChild);
  EXPECT_EQ(graphDestroy(NewChild), cudaErrorInvalidValue);
  GraphExec *Never = nullptr;
  EXPECT_EQ(graphInstantiate(&Never, NewChild, 0), cudaErrorInvalidValue);

  EXPECT_EQ(graphExecDestroy(E), cudaSuccess);
  EXPECT_EQ(graphDestroy(Clone), cudaSuccess);
  EXPECT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(graphGetNodes(Embedded, nullptr, &Num), cudaErrorInvalidValue)
      << "the embedded graph went with its parent";
  EXPECT_EQ(graphDestroy(Child), cudaSuccess);
  R.getLastError();
}

TEST_F(GraphFixture, EventNodesRecordAndWait) {
  void *Ev = event(), *Other = stream();
  std::vector<uint32_t> Zero(N, 0);
  ASSERT_EQ(R.memcpy(Dev, Zero.data(), N * 4, CopyKind::HostToDevice),
            cudaSuccess);
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  GraphNode *K = add(G, addOp(Dev, N, 4));
  NodeOp Record;
  Record.K = NodeOp::EventRecord;
  Record.Event = Ev;
  add(G, Record, {K});
  NodeOp Wait;
  Wait.K = NodeOp::EventWait;
  Wait.Event = Ev;
  add(G, Wait);
  // A null or destroyed event is refused.
  void *Gone = event();
  ASSERT_EQ(R.eventDestroy(Gone), cudaSuccess);
  GraphNode *Bad = nullptr;
  NodeOp Stale = Record;
  Stale.Event = Gone;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, Stale), cudaErrorInvalidValue);
  Stale.Event = nullptr;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, Stale), cudaErrorInvalidValue);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, Other), cudaSuccess);
  // The event marks the kernel's completion: waiting for it on the host
  // sees its result.
  ASSERT_EQ(R.eventSynchronize(Ev), cudaSuccess);
  ASSERT_EQ(R.memcpy(Host.data(), Dev, N * 4, CopyKind::DeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Host[N - 1], 4u);
  ASSERT_EQ(R.streamSynchronize(Other), cudaSuccess);
  graphExecDestroy(E);
  graphDestroy(G);
  R.eventDestroy(Ev);
  R.streamDestroy(Other);
  R.getLastError();
}

TEST_F(GraphFixture, TopologyQueriesAndEdits) {
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  //   A -> C, B -> C, C -> D
  GraphNode *A = add(G, NodeOp()), *B = add(G, NodeOp());
  GraphNode *C = add(G, NodeOp(), {A, B});
  GraphNode *D = add(G, NodeOp(), {C});
  GraphNode *Bad = nullptr;
  GraphNode *Twice[] = {A, A};
  EXPECT_EQ(graphAddNode(&Bad, G, Twice, 2, NodeOp()), cudaErrorInvalidValue)
      << "a dependency given twice";
  std::vector<GraphNode *> Out(4, nullptr);
  size_t Num = 4;
  ASSERT_EQ(graphGetRootNodes(G, Out.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 2u);
  EXPECT_EQ(Out[0], A);
  EXPECT_EQ(Out[1], B);
  EXPECT_EQ(Out[2], nullptr);
  std::vector<GraphNode *> From(5), To(5);
  Num = 0;
  ASSERT_EQ(graphGetEdges(G, nullptr, nullptr, &Num), cudaSuccess);
  EXPECT_EQ(Num, 3u);
  Num = 5;
  ASSERT_EQ(graphGetEdges(G, From.data(), To.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 3u);
  EXPECT_EQ(From[0], A);
  EXPECT_EQ(To[0], C);
  EXPECT_EQ(From[2], C);
  EXPECT_EQ(To[2], D);
  EXPECT_EQ(From[3], nullptr);
  EXPECT_EQ(graphGetEdges(G, From.data(), nullptr, &Num),
            cudaErrorInvalidValue);
  Num = 4;
  ASSERT_EQ(graphNodeGetDependencies(C, Out.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 2u);
  EXPECT_EQ(Out[1], B);
  Num = 1;
  ASSERT_EQ(graphNodeGetDependentNodes(C, Out.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 1u);
  EXPECT_EQ(Out[0], D);

  // Removing an edge that exists, then one that does not.
  ASSERT_EQ(graphRemoveDependencies(G, &B, &C, 1), cudaSuccess);
  EXPECT_EQ(graphRemoveDependencies(G, &B, &C, 1), cudaErrorInvalidValue);
  Num = 4;
  ASSERT_EQ(graphGetRootNodes(G, Out.data(), &Num), cudaSuccess);
  EXPECT_EQ(Num, 2u);
  ASSERT_EQ(graphNodeGetDependentNodes(B, nullptr, &Num), cudaSuccess);
  EXPECT_EQ(Num, 0u);

  // A clone's nodes are found from the original's.
  Graph *Clone = nullptr;
  ASSERT_EQ(graphClone(&Clone, G), cudaSuccess);
  GraphNode *CloneOfC = nullptr;
  ASSERT_EQ(graphNodeFindInClone(&CloneOfC, C, Clone), cudaSuccess);
  ASSERT_NE(CloneOfC, C);
  Num = 4;
  ASSERT_EQ(graphNodeGetDependencies(CloneOfC, Out.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 1u);
  GraphNode *CloneOfA = nullptr;
  ASSERT_EQ(graphNodeFindInClone(&CloneOfA, A, Clone), cudaSuccess);
  EXPECT_EQ(Out[0], CloneOfA);
  EXPECT_EQ(graphNodeFindInClone(&Bad, C, G), cudaErrorInvalidValue)
      << "G is no clone";

  // Destroying a node takes its edges along.
  ASSERT_EQ(graphDestroyNode(C), cudaSuccess);
  EXPECT_EQ(graphDestroyNode(C), cudaErrorInvalidValue);
  Num = 4;
  ASSERT_EQ(graphGetNodes(G, Out.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 3u);
  EXPECT_EQ(Out[2], D);
  ASSERT_EQ(graphGetEdges(G, nullptr, nullptr, &Num), cudaSuccess);
  EXPECT_EQ(Num, 0u);
  // The graph still instantiates and runs in the new shape.
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  graphExecDestroy(E);
  graphDestroy(Clone);
  graphDestroy(G);
  R.getLastError();
}

TEST_F(GraphFixture, NodeParametersOfGraphsAndInstances) {
  std::vector<uint32_t> Out(N, 0);
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  NodeOp Set;
  Set.K = NodeOp::Memset;
  Set.Dst = Dev;
  Set.Value = 1;
  Set.ElementSize = 4;
  Set.Width = N;
  GraphNode *SetNode = add(G, Set);
  GraphNode *AddNode = add(G, addOp(Dev, N, 10), {SetNode});
  GraphNode *CopyNode = add(
      G, copyOp(Out.data(), Dev, N * 4, CopyKind::DeviceToHost), {AddNode});
  std::atomic<int> Calls{0}, Others{0};
  NodeOp Host;
  Host.K = NodeOp::Host;
  Host.HostFn = countUp;
  Host.HostData = &Calls;
  GraphNode *HostNode = add(G, Host, {CopyNode});
  // The graph's node takes new parameters of its own kind only.
  ASSERT_EQ(graphNodeSetOp(AddNode, addOp(Dev, N, 20)), cudaSuccess);
  EXPECT_EQ(graphNodeSetOp(AddNode, Host), cudaErrorInvalidValue);
  NodeOp::Kind K;
  ASSERT_EQ(graphNodeGetType(HostNode, &K), cudaSuccess);
  EXPECT_EQ(K, NodeOp::Host);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  auto run = [&] {
    ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
    ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  };
  run();
  EXPECT_EQ(Out[0], 21u);
  EXPECT_EQ(Calls.load(), 1);

  // The instance's parameters change without the graph's.
  NodeOp Set7 = Set;
  Set7.Value = 7;
  ASSERT_EQ(graphExecSetNodeOp(E, SetNode, Set7), cudaSuccess);
  NodeOp OtherHost = Host;
  OtherHost.HostData = &Others;
  ASSERT_EQ(graphExecSetNodeOp(E, HostNode, OtherHost), cudaSuccess);
  run();
  EXPECT_EQ(Out[0], 27u);
  EXPECT_EQ(Others.load(), 1);
  EXPECT_EQ(graphNodeOp(SetNode)->Value, 1u);
  // What an instance may not change: a 2D memset's shape, a copy from
  // device to host memory, anything empty.
  NodeOp Rows = Set;
  Rows.Height = 2;
  Rows.Width = N / 2;
  Rows.Pitch = N / 2 * 4;
  EXPECT_EQ(graphExecSetNodeOp(E, SetNode, Rows), cudaErrorInvalidValue);
  std::vector<uint32_t> HostSrc(N);
  EXPECT_EQ(graphExecSetNodeOp(
                E, CopyNode,
                copyOp(Out.data(), HostSrc.data(), N * 4, CopyKind::Default)),
            cudaErrorInvalidValue);
  EXPECT_EQ(graphExecSetNodeOp(
                E, CopyNode, copyOp(Out.data(), Dev, 0, CopyKind::DeviceToHost)),
            cudaErrorInvalidValue);
  EXPECT_EQ(graphExecSetNodeOp(E, CopyNode, Host), cudaErrorInvalidValue);

  // Disabled nodes act as empty ones.
  ASSERT_EQ(graphNodeSetEnabled(E, AddNode, false), cudaSuccess);
  bool Enabled = true;
  ASSERT_EQ(graphNodeGetEnabled(E, AddNode, &Enabled), cudaSuccess);
  EXPECT_FALSE(Enabled);
  run();
  EXPECT_EQ(Out[0], 7u);
  ASSERT_EQ(graphNodeSetEnabled(E, AddNode, true), cudaSuccess);
  run();
  EXPECT_EQ(Out[0], 27u);
  EXPECT_EQ(graphNodeSetEnabled(E, HostNode, false), cudaErrorInvalidValue)
      << "only kernel, memcpy and memset nodes";

  // cudaGraphExecUpdate says what differs.
  Graph *Other = nullptr;
  ASSERT_EQ(graphCreate(&Other, 0), cudaSuccess);
  GraphNode *O1 = add(Other, Set);
  GraphNode *O2 = add(Other, Host, {O1});
  add(Other, copyOp(Out.data(), Dev, N * 4, CopyKind::DeviceToHost), {O2});
  add(Other, Host);
  int Result = -1;
  GraphNode *ErrNode = nullptr, *ErrFrom = nullptr;
  EXPECT_EQ(graphExecUpdate(E, Other, &Result, &ErrNode, &ErrFrom),
            cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(Result, 3); // cudaGraphExecUpdateErrorNodeTypeChanged
  EXPECT_EQ(ErrNode, O2);
  Graph *Rewired = nullptr;
  ASSERT_EQ(graphCreate(&Rewired, 0), cudaSuccess);
  GraphNode *R1 = add(Rewired, Set);
  GraphNode *R2 = add(Rewired, addOp(Dev, N, 10), {R1});
  add(Rewired, copyOp(Out.data(), Dev, N * 4, CopyKind::DeviceToHost), {R2});
  GraphNode *R4 = add(Rewired, Host, {R1});
  EXPECT_EQ(graphExecUpdate(E, Rewired, &Result, &ErrNode, &ErrFrom),
            cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(Result, 2); // cudaGraphExecUpdateErrorTopologyChanged
  EXPECT_EQ(ErrNode, R4);
  EXPECT_EQ(ErrFrom, R1);

  graphExecDestroy(E);
  graphDestroy(Rewired);
  graphDestroy(Other);
  graphDestroy(G);
  R.getLastError();
}

TEST_F(GraphFixture, CaptureIntoAGraphAndEditItsDependencies) {
  std::vector<uint32_t> Zero(N, 0);
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  GraphNode *Root =
      add(G, copyOp(Dev, Zero.data(), N * 4, CopyKind::HostToDevice));
  void *S = stream();
  ASSERT_EQ(streamBeginCaptureToGraph(S, G, &Root, 1, CaptureMode::Global),
            cudaSuccess);
  ASSERT_EQ(launchAdd(S, Dev, N, 5), cudaSuccess);
  GraphNode *const *Cur = nullptr;
  size_t NumCur = 0;
  CaptureStatus St;
  Graph *During = nullptr;
  ASSERT_EQ(streamGetCaptureInfo(S, &St, nullptr, &During, &Cur, &NumCur),
            cudaSuccess);
  ASSERT_EQ(During, G);
  ASSERT_EQ(NumCur, 1u);
  GraphNode *Add5 = Cur[0];
  // Set: the next operation depends on Root only; add: on Add5 as well.
  ASSERT_EQ(streamUpdateCaptureDependencies(S, &Root, 1, 1), cudaSuccess);
  ASSERT_EQ(launchAdd(S, Dev, N, 7), cudaSuccess);
  ASSERT_EQ(streamUpdateCaptureDependencies(S, &Add5, 1, 0), cudaSuccess);
  ASSERT_EQ(R.memcpyAsync(Host.data(), Dev, N * 4, CopyKind::DeviceToHost, S),
            cudaSuccess);
  // Nodes of another graph, unknown flags.
  Graph *Other = nullptr;
  ASSERT_EQ(graphCreate(&Other, 0), cudaSuccess);
  GraphNode *Foreign = add(Other, NodeOp());
  EXPECT_EQ(streamUpdateCaptureDependencies(S, &Foreign, 1, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(streamUpdateCaptureDependencies(S, &Root, 1, 2),
            cudaErrorInvalidValue);
  Graph *Out = nullptr;
  ASSERT_EQ(streamEndCapture(S, &Out), cudaSuccess);
  EXPECT_EQ(Out, G);
  EXPECT_EQ(streamUpdateCaptureDependencies(S, &Root, 1, 0),
            cudaErrorIllegalState)
      << "not capturing";
  std::vector<GraphNode *> Nodes(4);
  size_t Num = 4;
  ASSERT_EQ(graphGetNodes(G, Nodes.data(), &Num), cudaSuccess);
  ASSERT_EQ(Num, 4u);
  std::vector<GraphNode *> Deps(4);
  size_t NumDeps = 4;
  ASSERT_EQ(graphNodeGetDependencies(Nodes[2], Deps.data(), &NumDeps),
            cudaSuccess);
  ASSERT_EQ(NumDeps, 1u);
  EXPECT_EQ(Deps[0], Root);
  NumDeps = 4;
  ASSERT_EQ(graphNodeGetDependencies(Nodes[3], Deps.data(), &NumDeps),
            cudaSuccess);
  EXPECT_EQ(NumDeps, 2u);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(S), cudaSuccess);
  EXPECT_EQ(Host[0], 12u);
  // A failed capture leaves the program's graph to the program.
  ASSERT_EQ(streamBeginCaptureToGraph(S, G, nullptr, 0, CaptureMode::Global),
            cudaSuccess);
  void *Q = nullptr;
  EXPECT_EQ(R.malloc(&Q, 16), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(streamEndCapture(S, &Out), cudaErrorStreamCaptureInvalidated);
  EXPECT_EQ(graphGetNodes(G, nullptr, &Num), cudaSuccess);
  EXPECT_EQ(streamBeginCaptureToGraph(S, G, &Foreign, 1, CaptureMode::Global),
            cudaErrorInvalidValue);
  graphExecDestroy(E);
  graphDestroy(Other);
  graphDestroy(G);
  R.streamDestroy(S);
  R.getLastError();
}

TEST_F(GraphFixture, KernelNodeAttributes) {
  std::vector<uint32_t> Zero(N, 0);
  ASSERT_EQ(R.memcpy(Dev, Zero.data(), N * 4, CopyKind::HostToDevice),
            cudaSuccess);
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  GraphNode *K = add(G, addOp(Dev, N, 3));
  GraphNode *Empty = add(G, NodeOp());
  uint8_t Value[64] = {}, Got[64];
  // Unset: CUDA's defaults (memory sync domain map {0, 1}).
  ASSERT_EQ(graphKernelNodeGetAttribute(K, 9, Got), cudaSuccess);
  EXPECT_EQ(Got[0], 0);
  EXPECT_EQ(Got[1], 1);
  int One = 1;
  std::memcpy(Value, &One, sizeof(One));
  ASSERT_EQ(graphKernelNodeSetAttribute(K, 2, Value), cudaSuccess);
  ASSERT_EQ(graphKernelNodeGetAttribute(K, 2, Got), cudaSuccess);
  EXPECT_EQ(std::memcmp(Got, Value, 64), 0);
  EXPECT_TRUE(graphNodeOp(K)->cooperative());
  // Attributes for streams only, clusters, other nodes.
  EXPECT_EQ(graphKernelNodeSetAttribute(K, 3, Value), cudaErrorInvalidValue);
  unsigned Cluster[3] = {2, 1, 1};
  std::memcpy(Value, Cluster, sizeof(Cluster));
  EXPECT_EQ(graphKernelNodeSetAttribute(K, 4, Value), cudaErrorNotSupported);
  EXPECT_EQ(graphKernelNodeSetAttribute(Empty, 8, Value),
            cudaErrorInvalidValue);
  // New parameters keep the attributes; a copy takes them all.
  ASSERT_EQ(graphNodeSetOp(K, addOp(Dev, N, 4)), cudaSuccess);
  EXPECT_TRUE(graphNodeOp(K)->cooperative());
  GraphNode *K2 = add(G, addOp(Dev, N, 1), {K});
  EXPECT_FALSE(graphNodeOp(K2)->cooperative());
  ASSERT_EQ(graphKernelNodeCopyAttributes(K2, K), cudaSuccess);
  EXPECT_TRUE(graphNodeOp(K2)->cooperative());
  // A cooperative node runs as one.
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.memcpy(Host.data(), Dev, N * 4, CopyKind::DeviceToHost),
            cudaSuccess);
  EXPECT_EQ(Host[N - 1], 5u);
  // An update may not make a cooperative node an ordinary one.
  Graph *Plain = nullptr;
  ASSERT_EQ(graphCreate(&Plain, 0), cudaSuccess);
  GraphNode *P1 = add(Plain, addOp(Dev, N, 4));
  add(Plain, NodeOp());
  add(Plain, addOp(Dev, N, 1), {P1});
  int Result = -1;
  GraphNode *ErrNode = nullptr;
  EXPECT_EQ(graphExecUpdate(E, Plain, &Result, &ErrNode),
            cudaErrorGraphExecUpdateFailure);
  EXPECT_EQ(Result, 8); // cudaGraphExecUpdateErrorAttributesChanged
  EXPECT_EQ(ErrNode, P1);
  graphExecDestroy(E);
  graphDestroy(Plain);
  graphDestroy(G);
  R.getLastError();
}

namespace {
int Destroyed = 0;
void destroyCounted(void *P) { Destroyed += *static_cast<int *>(P); }
} // namespace

TEST_F(GraphFixture, UserObjectsLiveAsLongAsTheirOwners) {
  int One = 1;
  Destroyed = 0;
  UserObject *O = nullptr;
  EXPECT_EQ(userObjectCreate(&O, &One, destroyCounted, 1, 0),
            cudaErrorInvalidValue)
      << "cudaUserObjectNoDestructorSync is required";
  EXPECT_EQ(userObjectCreate(&O, &One, destroyCounted, 0, 1),
            cudaErrorInvalidValue);
  ASSERT_EQ(userObjectCreate(&O, &One, destroyCounted, 1, 1), cudaSuccess);
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  add(G, NodeOp());
  ASSERT_EQ(graphRetainUserObject(G, O, 2, 0), cudaSuccess);
  ASSERT_EQ(graphReleaseUserObject(G, O, 1), cudaSuccess);
  EXPECT_EQ(graphReleaseUserObject(G, O, 5), cudaErrorInvalidValue)
      << "more than the graph owns";
  Graph *Clone = nullptr;
  ASSERT_EQ(graphClone(&Clone, G), cudaSuccess);
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  // The caller's reference goes; the graph, the clone and the instance
  // keep the object alive.
  ASSERT_EQ(userObjectRelease(O, 1), cudaSuccess);
  ASSERT_EQ(graphDestroy(G), cudaSuccess);
  ASSERT_EQ(graphDestroy(Clone), cudaSuccess);
  EXPECT_EQ(Destroyed, 0);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Destroyed, 0);
  ASSERT_EQ(graphExecDestroy(E), cudaSuccess);
  EXPECT_EQ(Destroyed, 1);
  EXPECT_EQ(userObjectRetain(O, 1), cudaErrorInvalidValue) << "destroyed";

  // Moving the caller's references into a graph.
  UserObject *M = nullptr;
  ASSERT_EQ(userObjectCreate(&M, &One, destroyCounted, 2, 1), cudaSuccess);
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  ASSERT_EQ(graphRetainUserObject(G, M, 2, 1), cudaSuccess);
  ASSERT_EQ(graphDestroy(G), cudaSuccess);
  EXPECT_EQ(Destroyed, 2);
  R.getLastError();
}

TEST_F(GraphFixture, AllocationNodesKeepTheirAddress) {
  auto memAttr = [](int Attr) {
    uint64_t V = 0;
    EXPECT_EQ(deviceGetGraphMemAttribute(0, Attr, &V), cudaSuccess);
    return V;
  };
  uint64_t UsedBefore = memAttr(0), ReservedBefore = memAttr(2);
  Graph *G = nullptr;
  ASSERT_EQ(graphCreate(&G, 0), cudaSuccess);
  NodeOp Alloc;
  Alloc.K = NodeOp::MemAlloc;
  Alloc.Bytes = N * 4;
  GraphNode *AllocNode = add(G, Alloc);
  void *P = graphNodeOp(AllocNode)->Dst;
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(memAttr(2), ReservedBefore + N * 4);
  NodeOp Set;
  Set.K = NodeOp::Memset;
  Set.Dst = P;
  Set.Width = N * 4;
  GraphNode *SetNode = add(G, Set, {AllocNode});
  GraphNode *AddNode = add(G, addOp(P, N, 6), {SetNode});
  GraphNode *Out = add(
      G, copyOp(Host.data(), P, N * 4, CopyKind::DeviceToHost), {AddNode});
  // Bad allocations: no bytes, another location type.
  GraphNode *Bad = nullptr;
  NodeOp Empty = Alloc;
  Empty.Bytes = 0;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, Empty), cudaErrorInvalidValue);
  NodeOp Host2 = Alloc;
  Host2.Pool.LocationType = 2;
  EXPECT_EQ(graphAddNode(&Bad, G, nullptr, 0, Host2), cudaErrorInvalidValue);
  // Graphs with memory nodes cannot be cloned or lose nodes or edges.
  Graph *Clone = nullptr;
  EXPECT_EQ(graphClone(&Clone, G), cudaErrorNotSupported);
  EXPECT_EQ(graphDestroyNode(Out), cudaErrorInvalidValue);
  EXPECT_EQ(graphRemoveDependencies(G, &AddNode, &Out, 1),
            cudaErrorInvalidValue);

  // Not freed in the graph: each launch needs a free in between.
  GraphExec *E = nullptr;
  ASSERT_EQ(graphInstantiate(&E, G, 0), cudaSuccess);
  GraphExec *Second = nullptr;
  EXPECT_EQ(graphInstantiate(&Second, G, 0), cudaErrorInvalidValue)
      << "one instance at a time";
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Host[N - 1], 6u);
  EXPECT_EQ(memAttr(0), UsedBefore + N * 4);
  EXPECT_EQ(graphLaunch(E, nullptr), cudaErrorInvalidValue);
  ASSERT_EQ(R.freeAsync(P, nullptr), cudaSuccess);
  EXPECT_EQ(memAttr(0), UsedBefore);
  EXPECT_EQ(R.free(P), cudaErrorInvalidValue) << "freed already";
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.free(P), cudaSuccess);
  ASSERT_EQ(graphExecDestroy(E), cudaSuccess);

  // With cudaGraphInstantiateFlagAutoFreeOnLaunch each launch frees the
  // last one's memory itself.
  ASSERT_EQ(graphInstantiate(&E, G, 1), cudaSuccess);
  unsigned long long Flags = 0;
  ASSERT_EQ(graphExecGetFlags(E, &Flags), cudaSuccess);
  EXPECT_EQ(Flags, 1u);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Host[0], 6u);

  // A free node in another graph frees it; a second one is refused.
  Graph *Freer = nullptr;
  ASSERT_EQ(graphCreate(&Freer, 0), cudaSuccess);
  NodeOp Free;
  Free.K = NodeOp::MemFree;
  Free.Dst = P;
  add(Freer, Free);
  EXPECT_EQ(graphAddNode(&Bad, Freer, nullptr, 0, Free), cudaErrorInvalidValue);
  NodeOp Stray = Free;
  Stray.Dst = Dev;
  EXPECT_EQ(graphAddNode(&Bad, Freer, nullptr, 0, Stray),
            cudaErrorInvalidValue)
      << "not an allocation node's memory";
  GraphExec *FreeExec = nullptr;
  ASSERT_EQ(graphInstantiate(&FreeExec, Freer, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(FreeExec, nullptr), cudaSuccess);
  EXPECT_EQ(memAttr(0), UsedBefore);
  ASSERT_EQ(graphExecDestroy(FreeExec), cudaSuccess);
  ASSERT_EQ(graphDestroy(Freer), cudaSuccess);
  ASSERT_EQ(graphExecDestroy(E), cudaSuccess);
  ASSERT_EQ(graphDestroy(G), cudaSuccess);
  // The storage went with the last holder.
  EXPECT_EQ(memAttr(2), ReservedBefore);
  EXPECT_FALSE(R.isDeviceRange(P, 1));
  uint64_t Zero = 0, One = 1;
  EXPECT_EQ(deviceSetGraphMemAttribute(0, 1, &Zero), cudaSuccess);
  EXPECT_EQ(deviceSetGraphMemAttribute(0, 1, &One), cudaErrorInvalidValue);
  EXPECT_EQ(deviceSetGraphMemAttribute(0, 0, &Zero), cudaErrorInvalidValue);
  R.getLastError();
}

TEST(Streams, IdsAreUniqueAndEventsWithoutTimingCannotBeTimed) {
  Runtime &R = Runtime::get();
  void *A = nullptr, *B = nullptr;
  ASSERT_EQ(R.streamCreate(&A, 0, 0), cudaSuccess);
  ASSERT_EQ(R.streamCreate(&B, 0x1, 0), cudaSuccess);
  unsigned long long IdA = 0, IdB = 0, IdLegacy = 0, IdMine = 0, IdOther = 0;
  ASSERT_EQ(R.streamGetId(A, &IdA), cudaSuccess);
  ASSERT_EQ(R.streamGetId(B, &IdB), cudaSuccess);
  ASSERT_EQ(R.streamGetId(nullptr, &IdLegacy), cudaSuccess);
  ASSERT_EQ(R.streamGetId(reinterpret_cast<void *>(2), &IdMine), cudaSuccess);
  std::thread([&] {
    R.streamGetId(reinterpret_cast<void *>(2), &IdOther);
  }).join();
  std::vector<unsigned long long> Ids = {IdA, IdB, IdLegacy, IdMine, IdOther};
  std::sort(Ids.begin(), Ids.end());
  EXPECT_EQ(std::unique(Ids.begin(), Ids.end()), Ids.end());
  EXPECT_EQ(R.streamGetId(A, nullptr), cudaErrorInvalidValue);
  R.streamDestroy(A);
  EXPECT_EQ(R.streamGetId(A, &IdA), cudaErrorInvalidResourceHandle);
  R.streamDestroy(B);

  void *Timed = nullptr, *Untimed = nullptr;
  ASSERT_EQ(R.eventCreate(&Timed, 0), cudaSuccess);
  ASSERT_EQ(R.eventCreate(&Untimed, 0x2), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Timed, nullptr), cudaSuccess);
  ASSERT_EQ(R.eventRecord(Untimed, nullptr), cudaSuccess);
  ASSERT_EQ(R.eventSynchronize(Untimed), cudaSuccess);
  float Ms = 0;
  EXPECT_EQ(R.eventElapsedTime(&Ms, Timed, Untimed),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventElapsedTime(&Ms, Timed, Timed), cudaSuccess);
  R.eventDestroy(Timed);
  R.eventDestroy(Untimed);
  R.getLastError();
}

} // namespace
