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

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
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
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 103u) << I;

  // A clone runs like the original (with the graph's own arguments).
  Graph *C = nullptr;
  ASSERT_EQ(graphClone(&C, G), cudaSuccess);
  GraphExec *CE = nullptr;
  ASSERT_EQ(graphInstantiate(&CE, C, 0), cudaSuccess);
  ASSERT_EQ(graphLaunch(CE, nullptr), cudaSuccess);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 7u) << I;
  EXPECT_EQ(Calls.load(), 3);

  // Update: the clone has the same topology; one more edge does not.
  int Result = -1;
  GraphNode *ErrNode = nullptr;
  EXPECT_EQ(graphExecUpdate(E, C, &Result, &ErrNode), cudaSuccess);
  EXPECT_EQ(Result, 0);
  ASSERT_EQ(graphLaunch(E, nullptr), cudaSuccess);
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

TEST_F(GraphFixture, StreamOrderedAllocationIsRefusedDuringCapture) {
  void *S = stream();
  void *P = nullptr;
  ASSERT_EQ(R.mallocFromPoolAsync(&P, 64, nullptr, S), cudaSuccess);
  ASSERT_EQ(streamBeginCapture(S, CaptureMode::Global), cudaSuccess);
  void *Q = nullptr;
  EXPECT_EQ(R.mallocFromPoolAsync(&Q, 64, nullptr, S),
            cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(Q, nullptr);
  EXPECT_EQ(R.freeAsync(P, S), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(R.getLastError(), cudaErrorStreamCaptureUnsupported);
  Graph *G = nullptr;
  ASSERT_EQ(streamEndCapture(S, &G), cudaSuccess);
  graphDestroy(G);
  // Outside capture both work, and P was not freed above.
  EXPECT_EQ(R.freeAsync(P, S), cudaSuccess);
  R.streamDestroy(S);
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
  float Ms = 0;
  EXPECT_EQ(R.eventElapsedTime(&Ms, Timed, Untimed),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.eventElapsedTime(&Ms, Timed, Timed), cudaSuccess);
  R.eventDestroy(Timed);
  R.eventDestroy(Untimed);
  R.getLastError();
}

} // namespace
