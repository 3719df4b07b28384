//===- DriverGraphTest.cpp - libcuda.so.1's graphs through the real cuda.h -===//
//
// The graph and stream-capture families of cuhip's driver API, called as
// programs (and NVIDIA's static runtime) call them: a graph built node by
// node with every node kind cuhip has, launched several times and updated;
// stream capture of driver calls; the generic cuGraphAddNode with memory
// nodes; and the entry points older toolkits bind to, reached through
// cuGetProcAddress with their versions as the static runtime reaches them.
//
//===----------------------------------------------------------------------===//
#include "DriverTestKernels.h"

#include <cuda.h>

#include <atomic>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

namespace {


// add(p, v, n): p[i] += v for i < n.
const char *AddPtx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry add(.param .u64 p, .param .u32 v, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r6, [v];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.u32 %r4, [%rd2];
  add.s32 %r4, %r4, %r6;
  st.global.u32 [%rd2], %r4;
DONE:
  ret;
}
)";

void countUp(void *P) { static_cast<std::atomic<int> *>(P)->fetch_add(1); }

struct DriverGraph : ::testing::Test {
  static constexpr unsigned N = 96;
  void SetUp() override {
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&Dev, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
    CHECK_CU(cuCtxSetCurrent(Ctx));
    CHECK_CU(cuModuleLoadData(&Mod, AddPtx));
    CHECK_CU(cuModuleGetFunction(&Add, Mod, "add"));
    CHECK_CU(cuMemAlloc(&Buf, N * 4));
  }
  void TearDown() override {
    cuMemFree(Buf);
    cuModuleUnload(Mod);
    cuDevicePrimaryCtxRelease(Dev);
  }
  /// A kernel node's parameters adding V to the N words at Buf; Args must
  /// outlive the call that takes them.
  CUDA_KERNEL_NODE_PARAMS addParams(void **Args) {
    CUDA_KERNEL_NODE_PARAMS P = {};
    P.func = Add;
    P.gridDimX = (N + 31) / 32;
    P.gridDimY = P.gridDimZ = 1;
    P.blockDimX = 32;
    P.blockDimY = P.blockDimZ = 1;
    P.kernelParams = Args;
    return P;
  }
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUmodule Mod = nullptr;
  CUfunction Add = nullptr;
  CUdeviceptr Buf = 0;
};

TEST_F(DriverGraph, EveryNodeKindLaunchedAndUpdated) {
  // memset 1 (32-bit) -> child graph (add 2, add V) -> event record ->
  // 3D copy of the words as 4 rows of 24 words into a pitched host box ->
  // host function; an event wait and an empty node beside them.
  std::vector<uint32_t> Box(4 * 32, 0xdeadbeef);
  std::atomic<int> Calls{0};
  CUevent Ev;
  CHECK_CU(cuEventCreate(&Ev, CU_EVENT_DEFAULT));
  CUgraph Child, G;
  CHECK_CU(cuGraphCreate(&Child, 0));
  CHECK_CU(cuGraphCreate(&G, 0));
  unsigned Two = 2, V = 10, Count = N;
  void *ArgsTwo[] = {&Buf, &Two, &Count};
  void *ArgsV[] = {&Buf, &V, &Count};
  CUDA_KERNEL_NODE_PARAMS KTwo = addParams(ArgsTwo), KV = addParams(ArgsV);
  CUgraphNode C1, C2;
  CHECK_CU(cuGraphAddKernelNode(&C1, Child, nullptr, 0, &KTwo));
  CHECK_CU(cuGraphAddKernelNode(&C2, Child, &C1, 1, &KV));
  V = 1000; // the node copied the argument already

  CUDA_MEMSET_NODE_PARAMS Set = {};
  Set.dst = Buf;
  Set.value = 1;
  Set.elementSize = 4;
  Set.width = N;
  Set.height = 1;
  CUgraphNode SetNode, ChildNode, RecordNode, CopyNode, HostNode, WaitNode,
      EmptyNode;
  CHECK_CU(cuGraphAddMemsetNode(&SetNode, G, nullptr, 0, &Set, Ctx));
  CHECK_CU(cuGraphAddChildGraphNode(&ChildNode, G, &SetNode, 1, Child));
  CHECK_CU(cuGraphAddEventRecordNode(&RecordNode, G, &ChildNode, 1, Ev));
  CUDA_MEMCPY3D Copy = {};
  Copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  Copy.srcDevice = Buf;
  Copy.srcPitch = 24 * 4;
  Copy.dstMemoryType = CU_MEMORYTYPE_HOST;
  Copy.dstHost = Box.data();
  Copy.dstPitch = 32 * 4;
  Copy.dstXInBytes = 8 * 4;
  Copy.WidthInBytes = 24 * 4;
  Copy.Height = 4;
  Copy.Depth = 1;
  CHECK_CU(cuGraphAddMemcpyNode(&CopyNode, G, &RecordNode, 1, &Copy, Ctx));
  CUDA_HOST_NODE_PARAMS Host = {countUp, &Calls};
  CHECK_CU(cuGraphAddHostNode(&HostNode, G, &CopyNode, 1, &Host));
  CHECK_CU(cuGraphAddEventWaitNode(&WaitNode, G, &RecordNode, 1, Ev));
  CHECK_CU(cuGraphAddEmptyNode(&EmptyNode, G, nullptr, 0));

  // Getters hand back what the nodes were made with.
  CUDA_KERNEL_NODE_PARAMS Got;
  CHECK_CU(cuGraphKernelNodeGetParams(C2, &Got));
  EXPECT_EQ(Got.func, Add);
  EXPECT_EQ(Got.gridDimX, KV.gridDimX);
  EXPECT_EQ(*static_cast<unsigned *>(Got.kernelParams[1]), 10u);
  CUDA_MEMCPY3D GotCopy;
  CHECK_CU(cuGraphMemcpyNodeGetParams(CopyNode, &GotCopy));
  EXPECT_EQ(GotCopy.dstMemoryType, CU_MEMORYTYPE_HOST);
  EXPECT_EQ(GotCopy.dstHost, Box.data());
  EXPECT_EQ(GotCopy.dstXInBytes, 32u);
  EXPECT_EQ(GotCopy.srcDevice, Buf);
  EXPECT_EQ(GotCopy.Height, 4u);
  CUDA_MEMSET_NODE_PARAMS GotSet;
  CHECK_CU(cuGraphMemsetNodeGetParams(SetNode, &GotSet));
  EXPECT_EQ(GotSet.dst, Buf);
  EXPECT_EQ(GotSet.elementSize, 4u);
  CUevent GotEvent = nullptr;
  CHECK_CU(cuGraphEventWaitNodeGetEvent(WaitNode, &GotEvent));
  EXPECT_EQ(GotEvent, Ev);
  CUgraphNodeType Type;
  CHECK_CU(cuGraphNodeGetType(ChildNode, &Type));
  EXPECT_EQ(Type, CU_GRAPH_NODE_TYPE_GRAPH);
  // Kernel node attributes: a priority kept and read back.
  CUkernelNodeAttrValue Prio = {}, GotPrio = {};
  Prio.priority = -1;
  CHECK_CU(cuGraphKernelNodeSetAttribute(C2, CU_LAUNCH_ATTRIBUTE_PRIORITY,
                                         &Prio));
  CHECK_CU(cuGraphKernelNodeGetAttribute(C2, CU_LAUNCH_ATTRIBUTE_PRIORITY,
                                         &GotPrio));
  EXPECT_EQ(GotPrio.priority, -1);
  EXPECT_EQ(cuGraphKernelNodeSetAttribute(
                C2, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &Prio),
            CUDA_ERROR_INVALID_VALUE)
      << "a stream attribute";
  CUgraph Embedded;
  CHECK_CU(cuGraphChildGraphNodeGetGraph(ChildNode, &Embedded));
  size_t Num = 0;
  CHECK_CU(cuGraphGetNodes(Embedded, nullptr, &Num));
  EXPECT_EQ(Num, 2u);
  EXPECT_EQ(cuGraphHostNodeGetParams(SetNode, &Host), CUDA_ERROR_INVALID_VALUE);
  // A copy past the end of the allocation is refused when the node is made.
  CUDA_MEMCPY3D TooFar = Copy;
  TooFar.Height = 5;
  CUgraphNode Bad;
  EXPECT_EQ(cuGraphAddMemcpyNode(&Bad, G, nullptr, 0, &TooFar, Ctx),
            CUDA_ERROR_INVALID_VALUE);

  CUgraphExec E;
  CHECK_CU(cuGraphInstantiate(&E, G, 0));
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  auto check = [&](uint32_t Want, int Launch) {
    std::fill(Box.begin(), Box.end(), 0xdeadbeef);
    CHECK_CU(cuGraphLaunch(E, S));
    CHECK_CU(cuStreamSynchronize(S));
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned X = 0; X < 32; ++X)
        ASSERT_EQ(Box[Row * 32 + X], X >= 8 ? Want : 0xdeadbeefu)
            << "launch " << Launch << " row " << Row << " x " << X;
    EXPECT_EQ(Calls.load(), Launch);
  };
  for (int Launch = 1; Launch <= 3; ++Launch)
    check(1 + 2 + 10, Launch);
  EXPECT_EQ(cuEventQuery(Ev), CUDA_SUCCESS);

  // The instance's memset and host node change without the graph's.
  Set.value = 100;
  CHECK_CU(cuGraphExecMemsetNodeSetParams(E, SetNode, &Set, Ctx));
  check(100 + 2 + 10, 4);
  // The child graph's second kernel, through a graph of its topology.
  CUgraph NewChild;
  CHECK_CU(cuGraphClone(&NewChild, Embedded));
  size_t Two2 = 2;
  CUgraphNode Inner[2];
  CHECK_CU(cuGraphGetNodes(Embedded, Inner, &Two2));
  CUgraphNode NewC2;
  CHECK_CU(cuGraphNodeFindInClone(&NewC2, Inner[1], NewChild));
  EXPECT_NE(NewC2, Inner[1]);
  V = 20;
  CUDA_KERNEL_NODE_PARAMS K20 = addParams(ArgsV);
  CHECK_CU(cuGraphKernelNodeSetParams(NewC2, &K20));
  CHECK_CU(cuGraphExecChildGraphNodeSetParams(E, ChildNode, NewChild));
  check(100 + 2 + 20, 5);
  // A whole graph's parameters: the original graph again.
  CUgraphExecUpdateResultInfo Info;
  CHECK_CU(cuGraphExecUpdate(E, G, &Info));
  EXPECT_EQ(Info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
  check(1 + 2 + 10, 6);
  // One more node is another topology.
  CHECK_CU(cuGraphAddEmptyNode(&Bad, G, nullptr, 0));
  EXPECT_EQ(cuGraphExecUpdate(E, G, &Info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
  EXPECT_EQ(Info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
  // A disabled kernel node (in the parent: the memset) acts as empty.
  CHECK_CU(cuGraphNodeSetEnabled(E, SetNode, 0));
  unsigned Enabled = 1;
  CHECK_CU(cuGraphNodeGetEnabled(E, SetNode, &Enabled));
  EXPECT_EQ(Enabled, 0u);
  check(1 + 2 + 10 + 2 + 10, 7);

  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(NewChild));
  CHECK_CU(cuGraphDestroy(G));
  CHECK_CU(cuGraphDestroy(Child));
  CHECK_CU(cuStreamDestroy(S));
  CHECK_CU(cuEventDestroy(Ev));
}

TEST_F(DriverGraph, StreamCaptureOfDriverCalls) {
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_DEFAULT));
  std::vector<uint32_t> In(N), Out(N, 0);
  for (unsigned I = 0; I < N; ++I)
    In[I] = I;
  CHECK_CU(cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUstreamCaptureStatus Status;
  CHECK_CU(cuStreamIsCapturing(S, &Status));
  EXPECT_EQ(Status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  CHECK_CU(cuMemcpyHtoDAsync(Buf, In.data(), N * 4, S));
  unsigned V = 7, Count = N;
  void *Args[] = {&Buf, &V, &Count};
  CHECK_CU(cuLaunchKernel(Add, (N + 31) / 32, 1, 1, 32, 1, 1, 0, S, Args,
                          nullptr));
  CHECK_CU(cuMemcpyDtoHAsync(Out.data(), Buf, N * 4, S));
  cuuint64_t Id = 0;
  CUgraph During = nullptr;
  const CUgraphNode *Deps = nullptr;
  const CUgraphEdgeData *Edges = nullptr;
  size_t NumDeps = 0;
  CHECK_CU(cuStreamGetCaptureInfo(S, &Status, &Id, &During, &Deps, &Edges,
                                  &NumDeps));
  EXPECT_NE(Id, 0u);
  EXPECT_EQ(NumDeps, 1u);
  ASSERT_NE(Edges, nullptr);
  EXPECT_EQ(Edges[0].type, 0);
  // Nothing ran yet.
  EXPECT_EQ(Out[5], 0u);
  // A synchronous call is not allowed during a global capture, and ends it.
  CUdeviceptr Other;
  EXPECT_EQ(cuMemAlloc(&Other, 16), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  CUgraph G;
  EXPECT_EQ(cuStreamEndCapture(S, &G), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  CHECK_CU(cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK_CU(cuMemcpyHtoDAsync(Buf, In.data(), N * 4, S));
  CHECK_CU(cuLaunchKernel(Add, (N + 31) / 32, 1, 1, 32, 1, 1, 0, S, Args,
                          nullptr));
  CHECK_CU(cuMemcpyDtoHAsync(Out.data(), Buf, N * 4, S));
  // Relaxed: this thread may allocate while the capture goes on.
  CHECK_CU(cuThreadExchangeStreamCaptureMode(&Mode));
  CHECK_CU(cuMemAlloc(&Other, 16));
  CHECK_CU(cuThreadExchangeStreamCaptureMode(&Mode));
  EXPECT_EQ(Mode, CU_STREAM_CAPTURE_MODE_RELAXED);
  CHECK_CU(cuStreamEndCapture(S, &G));
  CHECK_CU(cuMemFree(Other));
  CHECK_CU(cuGraphGetNodes(G, nullptr, &NumDeps));
  EXPECT_EQ(NumDeps, 3u);
  CUgraphExec E;
  CHECK_CU(cuGraphInstantiateWithFlags(&E, G, 0));
  for (unsigned Round = 1; Round <= 2; ++Round) {
    for (unsigned I = 0; I < N; ++I)
      In[I] = I * Round;
    CHECK_CU(cuGraphLaunch(E, S));
    CHECK_CU(cuStreamSynchronize(S));
    for (unsigned I = 0; I < N; ++I)
      ASSERT_EQ(Out[I], I * Round + 7) << I;
  }
  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(G));
  CHECK_CU(cuStreamDestroy(S));
}

TEST_F(DriverGraph, CaptureIntoAnExistingGraph) {
  CUgraph G;
  CHECK_CU(cuGraphCreate(&G, 0));
  CUDA_MEMSET_NODE_PARAMS Set = {};
  Set.dst = Buf;
  Set.value = 6;
  Set.elementSize = 4;
  Set.width = N;
  Set.height = 1;
  CUgraphNode SetNode;
  CHECK_CU(cuGraphAddMemsetNode(&SetNode, G, nullptr, 0, &Set, Ctx));
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_DEFAULT));
  CHECK_CU(cuStreamBeginCaptureToGraph(S, G, &SetNode, nullptr, 1,
                                       CU_STREAM_CAPTURE_MODE_GLOBAL));
  unsigned V = 1, Count = N;
  void *Args[] = {&Buf, &V, &Count};
  CHECK_CU(cuLaunchKernel(Add, (N + 31) / 32, 1, 1, 32, 1, 1, 0, S, Args,
                          nullptr));
  CHECK_CU(cuLaunchKernel(Add, (N + 31) / 32, 1, 1, 32, 1, 1, 0, S, Args,
                          nullptr));
  // The copy out waits for the memset as well: one edge more.
  CHECK_CU(cuStreamUpdateCaptureDependencies(
      S, &SetNode, nullptr, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
  std::vector<uint32_t> Out(N);
  CHECK_CU(cuMemcpyDtoHAsync(Out.data(), Buf, N * 4, S));
  CUgraph Captured;
  CHECK_CU(cuStreamEndCapture(S, &Captured));
  EXPECT_EQ(Captured, G);
  size_t Num = 0;
  CHECK_CU(cuGraphGetEdges(G, nullptr, nullptr, nullptr, &Num));
  EXPECT_EQ(Num, 4u);
  CUgraphExec E;
  CHECK_CU(cuGraphInstantiate(&E, G, 0));
  CHECK_CU(cuGraphLaunch(E, S));
  CHECK_CU(cuStreamSynchronize(S));
  EXPECT_EQ(Out[0], 8u);
  EXPECT_EQ(cuStreamUpdateCaptureDependencies(S, &SetNode, nullptr, 1, 0),
            CUDA_ERROR_ILLEGAL_STATE);
  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(G));
  CHECK_CU(cuStreamDestroy(S));
}

TEST_F(DriverGraph, StreamOrderedAllocationAndItsCapture) {
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_DEFAULT));
  // Outside capture: memory of the device's pool, in stream order.
  CUdeviceptr Plain = 0;
  CHECK_CU(cuMemAllocAsync(&Plain, 256, S));
  ASSERT_NE(Plain, 0u);
  CHECK_CU(cuMemsetD8Async(Plain, 5, 256, S));
  CHECK_CU(cuMemFreeAsync(Plain, S));
  // Captured: allocation and free nodes.
  std::vector<uint32_t> Out(N, 0);
  CHECK_CU(cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUdeviceptr P = 0;
  CHECK_CU(cuMemAllocAsync(&P, N * 4, S));
  ASSERT_NE(P, 0u);
  CHECK_CU(cuMemsetD32Async(P, 8, N, S));
  unsigned V = 1, Count = N;
  void *Args[] = {&P, &V, &Count};
  CHECK_CU(cuLaunchKernel(Add, (N + 31) / 32, 1, 1, 32, 1, 1, 0, S, Args,
                          nullptr));
  CHECK_CU(cuMemcpyDtoHAsync(Out.data(), P, N * 4, S));
  CHECK_CU(cuMemFreeAsync(P, S));
  CUgraph G;
  CHECK_CU(cuStreamEndCapture(S, &G));
  CUgraphNode Nodes[8];
  size_t Num = 8;
  CHECK_CU(cuGraphGetNodes(G, Nodes, &Num));
  ASSERT_EQ(Num, 5u);
  CUgraphNodeType First, Set, Last;
  CHECK_CU(cuGraphNodeGetType(Nodes[0], &First));
  CHECK_CU(cuGraphNodeGetType(Nodes[1], &Set));
  CHECK_CU(cuGraphNodeGetType(Nodes[Num - 1], &Last));
  EXPECT_EQ(First, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
  // A 32-bit pattern is a memset node of 4-byte elements (not a copy from
  // a buffer that is gone when the graph runs).
  EXPECT_EQ(Set, CU_GRAPH_NODE_TYPE_MEMSET);
  CUDA_MEMSET_NODE_PARAMS SetParams;
  CHECK_CU(cuGraphMemsetNodeGetParams(Nodes[1], &SetParams));
  EXPECT_EQ(SetParams.elementSize, 4u);
  EXPECT_EQ(SetParams.value, 8u);
  EXPECT_EQ(Last, CU_GRAPH_NODE_TYPE_MEM_FREE);
  CUgraphExec E;
  CHECK_CU(cuGraphInstantiate(&E, G, 0));
  for (int Round = 0; Round < 2; ++Round) {
    std::fill(Out.begin(), Out.end(), 0);
    CHECK_CU(cuGraphLaunch(E, S));
    CHECK_CU(cuStreamSynchronize(S));
    EXPECT_EQ(Out[0], 9u);
    EXPECT_EQ(Out[N - 1], 9u);
  }
  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(G));
  CHECK_CU(cuStreamDestroy(S));
}

TEST_F(DriverGraph, GenericNodesMemoryNodesAndUserObjects) {
  CUgraph G;
  CHECK_CU(cuGraphCreate(&G, 0));
  CUgraphNodeParams Alloc = {};
  Alloc.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
  Alloc.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  Alloc.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Alloc.alloc.bytesize = N * 4;
  CUgraphNode AllocNode, SetNode, KernelNode, CopyNode, FreeNode;
  CHECK_CU(cuGraphAddNode(&AllocNode, G, nullptr, nullptr, 0, &Alloc));
  ASSERT_NE(Alloc.alloc.dptr, 0u);
  CUdeviceptr P = Alloc.alloc.dptr;
  CUgraphNodeParams Set = {};
  Set.type = CU_GRAPH_NODE_TYPE_MEMSET;
  Set.memset.dst = P;
  Set.memset.value = 3;
  Set.memset.elementSize = 4;
  Set.memset.width = N;
  Set.memset.height = 1;
  CHECK_CU(cuGraphAddNode(&SetNode, G, &AllocNode, nullptr, 1, &Set));
  unsigned V = 4, Count = N;
  void *Args[] = {&P, &V, &Count};
  CUgraphNodeParams Kernel = {};
  Kernel.type = CU_GRAPH_NODE_TYPE_KERNEL;
  Kernel.kernel.func = Add;
  Kernel.kernel.gridDimX = (N + 31) / 32;
  Kernel.kernel.gridDimY = Kernel.kernel.gridDimZ = 1;
  Kernel.kernel.blockDimX = 32;
  Kernel.kernel.blockDimY = Kernel.kernel.blockDimZ = 1;
  Kernel.kernel.kernelParams = Args;
  CHECK_CU(cuGraphAddNode(&KernelNode, G, &SetNode, nullptr, 1, &Kernel));
  std::vector<uint32_t> Out(N);
  CUgraphNodeParams Copy = {};
  Copy.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  Copy.memcpy.copyParams.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  Copy.memcpy.copyParams.srcDevice = P;
  Copy.memcpy.copyParams.dstMemoryType = CU_MEMORYTYPE_HOST;
  Copy.memcpy.copyParams.dstHost = Out.data();
  Copy.memcpy.copyParams.WidthInBytes = N * 4;
  Copy.memcpy.copyParams.Height = 1;
  Copy.memcpy.copyParams.Depth = 1;
  CHECK_CU(cuGraphAddNode(&CopyNode, G, &KernelNode, nullptr, 1, &Copy));
  CUgraphNodeParams Free = {};
  Free.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
  Free.free.dptr = P;
  CHECK_CU(cuGraphAddNode(&FreeNode, G, &CopyNode, nullptr, 1, &Free));
  CUDA_MEM_ALLOC_NODE_PARAMS GotAlloc;
  CHECK_CU(cuGraphMemAllocNodeGetParams(AllocNode, &GotAlloc));
  EXPECT_EQ(GotAlloc.dptr, P);
  EXPECT_EQ(GotAlloc.bytesize, N * 4u);
  CUdeviceptr Freed = 0;
  CHECK_CU(cuGraphMemFreeNodeGetParams(FreeNode, &Freed));
  EXPECT_EQ(Freed, P);
  // A conditional node needs a handle made for its graph; edge data other
  // than the default is not supported.
  CUgraphNodeParams Cond = {};
  Cond.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  Cond.conditional.size = 1;
  CUgraphNode Bad;
  EXPECT_EQ(cuGraphAddNode(&Bad, G, nullptr, nullptr, 0, &Cond),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuGraphConditionalHandleCreate(&Cond.conditional.handle, G,
                                          nullptr, 0, 0));
  CUgraphNode CondNode;
  CHECK_CU(cuGraphAddNode(&CondNode, G, nullptr, nullptr, 0, &Cond));
  ASSERT_NE(Cond.conditional.phGraph_out, nullptr);
  EXPECT_NE(Cond.conditional.phGraph_out[0], nullptr);
  CUgraphNodeType CondType;
  CHECK_CU(cuGraphNodeGetType(CondNode, &CondType));
  EXPECT_EQ(CondType, CU_GRAPH_NODE_TYPE_CONDITIONAL);
  CUgraphEdgeData Programmatic = {};
  Programmatic.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
  CUgraphNodeParams Empty = {};
  Empty.type = CU_GRAPH_NODE_TYPE_EMPTY;
  EXPECT_EQ(cuGraphAddNode(&Bad, G, &KernelNode, &Programmatic, 1, &Empty),
            CUDA_ERROR_NOT_SUPPORTED);

  CUDA_GRAPH_INSTANTIATE_PARAMS IP = {};
  CUgraphExec E;
  CHECK_CU(cuGraphInstantiateWithParams(&E, G, &IP));
  EXPECT_EQ(IP.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
  for (int Round = 0; Round < 2; ++Round) {
    std::fill(Out.begin(), Out.end(), 0);
    CHECK_CU(cuGraphLaunch(E, nullptr));
    CHECK_CU(cuCtxSynchronize());
    for (unsigned I = 0; I < N; ++I)
      ASSERT_EQ(Out[I], 7u) << I;
  }
  cuuint64_t Reserved = 0, Used = 1;
  CHECK_CU(cuDeviceGetGraphMemAttribute(
      Dev, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &Reserved));
  EXPECT_GE(Reserved, N * 4u);
  CHECK_CU(cuDeviceGetGraphMemAttribute(Dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
                                        &Used));
  EXPECT_EQ(Used, 0u) << "the graph frees what it allocates";

  // A user object lives while the graph holds it.
  static int Destroyed;
  Destroyed = 0;
  CUuserObject O;
  CHECK_CU(cuUserObjectCreate(
      &O, nullptr, [](void *) { ++Destroyed; }, 1,
      CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
  CHECK_CU(cuGraphRetainUserObject(G, O, 1, 0));
  CHECK_CU(cuUserObjectRelease(O, 1));
  EXPECT_EQ(Destroyed, 0);
  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(G));
  EXPECT_EQ(Destroyed, 1);
}

TEST_F(DriverGraph, OlderEntryPointsThroughGetProcAddress) {
  CUgraph G;
  CHECK_CU(cuGraphCreate(&G, 0));
  CUgraphNode A, B;
  CHECK_CU(cuGraphAddEmptyNode(&A, G, nullptr, 0));
  unsigned V = 1, Count = N;
  void *Args[] = {&Buf, &V, &Count};
  // CUDA 10.0's cuGraphAddKernelNode takes the parameters without kern/ctx.
  using AddKernelV1 = CUresult (*)(CUgraphNode *, CUgraph, const CUgraphNode *,
                                   size_t, const CUDA_KERNEL_NODE_PARAMS_v1 *);
  CUdriverProcAddressQueryResult St;
  void *Fn = nullptr;
  CHECK_CU(cuGetProcAddress("cuGraphAddKernelNode", &Fn, 10000, 0, &St));
  ASSERT_NE(Fn, nullptr);
  CUDA_KERNEL_NODE_PARAMS_v1 K1 = {};
  K1.func = Add;
  K1.gridDimX = (N + 31) / 32;
  K1.gridDimY = K1.gridDimZ = 1;
  K1.blockDimX = 32;
  K1.blockDimY = K1.blockDimZ = 1;
  K1.kernelParams = Args;
  CHECK_CU(reinterpret_cast<AddKernelV1>(Fn)(&B, G, &A, 1, &K1));
  // The four-argument cuGraphGetEdges.
  using GetEdgesV1 = CUresult (*)(CUgraph, CUgraphNode *, CUgraphNode *,
                                  size_t *);
  CHECK_CU(cuGetProcAddress("cuGraphGetEdges", &Fn, 10000, 0, &St));
  CUgraphNode From[2], To[2];
  size_t Num = 2;
  CHECK_CU(reinterpret_cast<GetEdgesV1>(Fn)(G, From, To, &Num));
  ASSERT_EQ(Num, 1u);
  EXPECT_EQ(From[0], A);
  EXPECT_EQ(To[0], B);
  // CUDA 11's cuGraphInstantiate reports the node of a cycle.
  using InstantiateV2 = CUresult (*)(CUgraphExec *, CUgraph, CUgraphNode *,
                                     char *, size_t);
  CHECK_CU(cuGetProcAddress("cuGraphInstantiate", &Fn, 11000, 0, &St));
  CHECK_CU(cuGraphAddDependencies(G, &B, &A, nullptr, 1));
  CUgraphExec E = nullptr;
  CUgraphNode ErrNode = nullptr;
  char Log[64] = "x";
  EXPECT_EQ(reinterpret_cast<InstantiateV2>(Fn)(&E, G, &ErrNode, Log,
                                                sizeof(Log)),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_NE(ErrNode, nullptr);
  EXPECT_NE(std::strlen(Log), 0u);
  CHECK_CU(cuGraphRemoveDependencies(G, &B, &A, nullptr, 1));
  // CUDA 10.2's cuGraphExecUpdate: an error node and a result.
  using ExecUpdateV1 = CUresult (*)(CUgraphExec, CUgraph, CUgraphNode *,
                                    CUgraphExecUpdateResult *);
  CHECK_CU(cuGraphInstantiate(&E, G, 0));
  CHECK_CU(cuGetProcAddress("cuGraphExecUpdate", &Fn, 10020, 0, &St));
  CUgraph Other;
  CHECK_CU(cuGraphCreate(&Other, 0));
  CUgraphNode O1;
  CHECK_CU(cuGraphAddEmptyNode(&O1, Other, nullptr, 0));
  CUgraphExecUpdateResult Result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  EXPECT_EQ(reinterpret_cast<ExecUpdateV1>(Fn)(E, Other, &ErrNode, &Result),
            CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
  EXPECT_EQ(Result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
  // The v1 getter leaves kern and ctx, which v1 has not, alone.
  struct {
    CUDA_KERNEL_NODE_PARAMS_v1 P;
    uint64_t Guard;
  } Got;
  Got.Guard = 0x1234;
  using GetParamsV1 = CUresult (*)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS_v1 *);
  CHECK_CU(cuGetProcAddress("cuGraphKernelNodeGetParams", &Fn, 10000, 0, &St));
  CHECK_CU(reinterpret_cast<GetParamsV1>(Fn)(B, &Got.P));
  EXPECT_EQ(Got.P.func, Add);
  EXPECT_EQ(Got.Guard, 0x1234u);
  // The per-thread forms the static runtime asks for with its flag.
  CHECK_CU(cuGetProcAddress("cuGraphLaunch", &Fn, 13000,
                            CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &St));
  using Launch = CUresult (*)(CUgraphExec, CUstream);
  CHECK_CU(reinterpret_cast<Launch>(Fn)(E, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuGraphExecDestroy(E));
  CHECK_CU(cuGraphDestroy(Other));
  CHECK_CU(cuGraphDestroy(G));
}

} // namespace
