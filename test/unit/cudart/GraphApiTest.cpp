//===- GraphApiTest.cpp - libcudart's graph API through the real headers --===//
//
// The graph node families of libcudart.so.13 called as programs call them,
// through the toolkit's cuda_runtime_api.h: 3D copy, memset, host, child
// graph, event and memory nodes with their getters and setters, the
// generic cudaGraphAddNode, topology queries and edits, instance updates,
// user objects and graph memory. No kernels here (nothing registers one);
// the e2e program graph_nodes.cu has them.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

namespace {

#define CHECK_CUDA(Call) ASSERT_EQ((Call), cudaSuccess) << #Call

void countUp(void *P) { static_cast<std::atomic<int> *>(P)->fetch_add(1); }

// driver_functions.h's make_cuda* helpers, which plain C++ cannot include.
cudaPitchedPtr pitched(void *P, size_t Pitch, size_t XSize, size_t YSize) {
  return {P, Pitch, XSize, YSize};
}
cudaPos position(size_t X, size_t Y, size_t Z) { return {X, Y, Z}; }
cudaExtent extent(size_t W, size_t H, size_t D) { return {W, H, D}; }

TEST(GraphApi, ThreeDimensionalCopiesThroughPitchedMemory) {
  // 2 slices of 3 rows of 8 bytes, host -> device (pitched, at a position)
  // -> host, in one graph, launched twice with new input.
  constexpr size_t W = 8, H = 3, D = 2;
  cudaPitchedPtr Dev;
  CHECK_CUDA(cudaMalloc3D(&Dev, extent(W + 4, H + 1, D)));
  std::vector<unsigned char> In(W * H * D), Out(W * H * D);
  cudaMemcpy3DParms Up = {};
  Up.srcPtr = pitched(In.data(), W, W, H);
  Up.dstPtr = Dev;
  Up.dstPos = position(4, 1, 0);
  Up.extent = extent(W, H, D);
  Up.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DParms Down = Up;
  Down.srcPtr = Dev;
  Down.srcPos = Up.dstPos;
  Down.dstPtr = pitched(Out.data(), W, W, H);
  Down.dstPos = position(0, 0, 0);
  Down.kind = cudaMemcpyDeviceToHost;
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  cudaGraphNode_t UpNode, DownNode;
  CHECK_CUDA(cudaGraphAddMemcpyNode(&UpNode, G, nullptr, 0, &Up));
  CHECK_CUDA(cudaGraphAddMemcpyNode(&DownNode, G, &UpNode, 1, &Down));
  cudaMemcpy3DParms Got;
  CHECK_CUDA(cudaGraphMemcpyNodeGetParams(UpNode, &Got));
  EXPECT_EQ(Got.srcPtr.ptr, In.data());
  EXPECT_EQ(Got.dstPtr.ptr, Dev.ptr);
  EXPECT_EQ(Got.dstPtr.pitch, Dev.pitch);
  EXPECT_EQ(Got.dstPtr.ysize, Dev.ysize);
  EXPECT_EQ(Got.dstPos.x, 4u);
  EXPECT_EQ(Got.dstPos.y, 1u);
  EXPECT_EQ(Got.extent.depth, D);
  EXPECT_EQ(Got.kind, cudaMemcpyHostToDevice);
  cudaGraphNodeType Type;
  CHECK_CUDA(cudaGraphNodeGetType(DownNode, &Type));
  EXPECT_EQ(Type, cudaGraphNodeTypeMemcpy);
  // A box past the end of the allocation is refused when the node is made.
  cudaMemcpy3DParms TooDeep = Up;
  TooDeep.extent.depth = D + 1;
  cudaGraphNode_t Bad;
  EXPECT_EQ(cudaGraphAddMemcpyNode(&Bad, G, nullptr, 0, &TooDeep),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphAddMemcpyNode(&Bad, G, nullptr, 0, nullptr),
            cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraphExec_t E;
  CHECK_CUDA(cudaGraphInstantiate(&E, G, 0));
  for (int Round = 1; Round <= 2; ++Round) {
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<unsigned char>(I * Round);
    CHECK_CUDA(cudaGraphLaunch(E, nullptr));
    CHECK_CUDA(cudaStreamSynchronize(nullptr));
    EXPECT_EQ(Out, In);
  }
  // A 1D copy's parameters read back as one row.
  cudaGraphNode_t Flat;
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&Flat, G, nullptr, 0, Out.data(),
                                      In.data(), 16, cudaMemcpyHostToHost));
  CHECK_CUDA(cudaGraphMemcpyNodeGetParams(Flat, &Got));
  EXPECT_EQ(Got.extent.width, 16u);
  EXPECT_EQ(Got.extent.height, 1u);
  EXPECT_EQ(Got.srcPtr.ptr, In.data());
  CHECK_CUDA(cudaGraphExecDestroy(E));
  CHECK_CUDA(cudaGraphDestroy(G));
  CHECK_CUDA(cudaFree(Dev.ptr));
}

TEST(GraphApi, MemsetHostAndChildGraphNodes) {
  constexpr size_t N = 64;
  unsigned short *Dev;
  CHECK_CUDA(cudaMalloc(reinterpret_cast<void **>(&Dev), N * 2));
  std::vector<unsigned short> Out(N);
  std::atomic<int> Calls{0}, Others{0};
  // Child: memset 16-bit 0x1234, copy out, count.
  cudaGraph_t Child;
  CHECK_CUDA(cudaGraphCreate(&Child, 0));
  cudaMemsetParams Set = {};
  Set.dst = Dev;
  Set.value = 0x1234;
  Set.elementSize = 2;
  Set.width = N;
  Set.height = 1;
  cudaGraphNode_t SetNode, CopyNode, HostNode;
  CHECK_CUDA(cudaGraphAddMemsetNode(&SetNode, Child, nullptr, 0, &Set));
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&CopyNode, Child, &SetNode, 1,
                                      Out.data(), Dev, N * 2,
                                      cudaMemcpyDeviceToHost));
  cudaHostNodeParams Host = {countUp, &Calls};
  CHECK_CUDA(cudaGraphAddHostNode(&HostNode, Child, &CopyNode, 1, &Host));
  cudaMemsetParams GotSet;
  CHECK_CUDA(cudaGraphMemsetNodeGetParams(SetNode, &GotSet));
  EXPECT_EQ(GotSet.value, 0x1234u);
  EXPECT_EQ(GotSet.elementSize, 2u);
  cudaHostNodeParams GotHost;
  CHECK_CUDA(cudaGraphHostNodeGetParams(HostNode, &GotHost));
  EXPECT_EQ(GotHost.userData, &Calls);
  EXPECT_EQ(cudaGraphKernelNodeGetParams(HostNode, nullptr),
            cudaErrorInvalidValue)
      << "not a kernel node";
  cudaMemsetParams Odd = Set;
  Odd.elementSize = 3;
  EXPECT_EQ(cudaGraphMemsetNodeSetParams(SetNode, &Odd), cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  cudaGraphNode_t ChildNode;
  CHECK_CUDA(cudaGraphAddChildGraphNode(&ChildNode, G, nullptr, 0, Child));
  cudaGraph_t Embedded;
  CHECK_CUDA(cudaGraphChildGraphNodeGetGraph(ChildNode, &Embedded));
  size_t Num = 0;
  CHECK_CUDA(cudaGraphGetNodes(Embedded, nullptr, &Num));
  EXPECT_EQ(Num, 3u);
  cudaGraphExec_t E;
  CHECK_CUDA(cudaGraphInstantiate(&E, G, 0));
  CHECK_CUDA(cudaGraphLaunch(E, nullptr));
  CHECK_CUDA(cudaStreamSynchronize(nullptr));
  EXPECT_EQ(Out[N - 1], 0x1234);
  EXPECT_EQ(Calls.load(), 1);

  // The instance's child graph takes another graph's parameters.
  Set.value = 0xbeef;
  CHECK_CUDA(cudaGraphMemsetNodeSetParams(SetNode, &Set));
  Host.userData = &Others;
  CHECK_CUDA(cudaGraphHostNodeSetParams(HostNode, &Host));
  CHECK_CUDA(cudaGraphExecChildGraphNodeSetParams(E, ChildNode, Child));
  CHECK_CUDA(cudaGraphLaunch(E, nullptr));
  CHECK_CUDA(cudaStreamSynchronize(nullptr));
  EXPECT_EQ(Out[0], 0xbeef);
  EXPECT_EQ(Others.load(), 1);
  EXPECT_EQ(Calls.load(), 1);
  CHECK_CUDA(cudaGraphExecDestroy(E));
  CHECK_CUDA(cudaGraphDestroy(G));
  CHECK_CUDA(cudaGraphDestroy(Child));
  CHECK_CUDA(cudaFree(Dev));
}

TEST(GraphApi, EventNodesAndTheirEvents) {
  cudaEvent_t A, B;
  CHECK_CUDA(cudaEventCreate(&A));
  CHECK_CUDA(cudaEventCreate(&B));
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  cudaGraphNode_t Record, Wait;
  CHECK_CUDA(cudaGraphAddEventRecordNode(&Record, G, nullptr, 0, A));
  CHECK_CUDA(cudaGraphAddEventWaitNode(&Wait, G, &Record, 1, A));
  cudaEvent_t Got = nullptr;
  CHECK_CUDA(cudaGraphEventRecordNodeGetEvent(Record, &Got));
  EXPECT_EQ(Got, A);
  CHECK_CUDA(cudaGraphEventWaitNodeSetEvent(Wait, B));
  CHECK_CUDA(cudaGraphEventWaitNodeGetEvent(Wait, &Got));
  EXPECT_EQ(Got, B);
  EXPECT_EQ(cudaGraphEventRecordNodeGetEvent(Wait, &Got),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaGraphAddEventRecordNode(&Record, G, nullptr, 0, nullptr),
            cudaErrorInvalidValue);
  cudaGetLastError();
  cudaGraphNodeType Type;
  CHECK_CUDA(cudaGraphNodeGetType(Wait, &Type));
  EXPECT_EQ(Type, cudaGraphNodeTypeWaitEvent);
  cudaGraphExec_t E;
  CHECK_CUDA(cudaGraphInstantiate(&E, G, 0));
  CHECK_CUDA(cudaEventRecord(B, nullptr));
  CHECK_CUDA(cudaGraphExecEventRecordNodeSetEvent(E, Record, B));
  cudaStream_t S;
  CHECK_CUDA(cudaStreamCreate(&S));
  CHECK_CUDA(cudaGraphLaunch(E, S));
  CHECK_CUDA(cudaStreamSynchronize(S));
  EXPECT_EQ(cudaEventQuery(B), cudaSuccess);
  CHECK_CUDA(cudaGraphExecDestroy(E));
  CHECK_CUDA(cudaGraphDestroy(G));
  CHECK_CUDA(cudaStreamDestroy(S));
  CHECK_CUDA(cudaEventDestroy(A));
  CHECK_CUDA(cudaEventDestroy(B));
}

TEST(GraphApi, TopologyWithEdgeData) {
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  cudaGraphNode_t A, B, C;
  CHECK_CUDA(cudaGraphAddEmptyNode(&A, G, nullptr, 0));
  CHECK_CUDA(cudaGraphAddEmptyNode(&B, G, &A, 1));
  cudaGraphNode_t AB[] = {A, B};
  CHECK_CUDA(cudaGraphAddEmptyNode(&C, G, AB, 2));
  cudaGraphNode_t From[4], To[4];
  cudaGraphEdgeData Edges[4];
  std::memset(Edges, 0xff, sizeof(Edges));
  size_t Num = 4;
  CHECK_CUDA(cudaGraphGetEdges(G, From, To, Edges, &Num));
  ASSERT_EQ(Num, 3u);
  EXPECT_EQ(From[0], A);
  EXPECT_EQ(To[0], B);
  EXPECT_EQ(To[2], C);
  EXPECT_EQ(Edges[2].type, 0) << "default edge data is written";
  EXPECT_EQ(From[3], nullptr);
  Num = 4;
  cudaGraphNode_t Deps[4];
  CHECK_CUDA(cudaGraphNodeGetDependencies(C, Deps, Edges, &Num));
  ASSERT_EQ(Num, 2u);
  EXPECT_EQ(Deps[1], B);
  Num = 4;
  CHECK_CUDA(cudaGraphNodeGetDependentNodes(A, Deps, nullptr, &Num));
  ASSERT_EQ(Num, 2u);
  Num = 4;
  CHECK_CUDA(cudaGraphGetRootNodes(G, Deps, &Num));
  ASSERT_EQ(Num, 1u);
  EXPECT_EQ(Deps[0], A);
  // Edges with data cuhip does not have cannot exist to be removed.
  cudaGraphEdgeData Programmatic = {};
  Programmatic.type = cudaGraphDependencyTypeProgrammatic;
  EXPECT_EQ(cudaGraphRemoveDependencies(G, &A, &C, &Programmatic, 1),
            cudaErrorInvalidValue);
  CHECK_CUDA(cudaGraphRemoveDependencies(G, &A, &C, nullptr, 1));
  Num = 0;
  CHECK_CUDA(cudaGraphGetEdges(G, nullptr, nullptr, nullptr, &Num));
  EXPECT_EQ(Num, 2u);
  cudaGraph_t Clone;
  CHECK_CUDA(cudaGraphClone(&Clone, G));
  cudaGraphNode_t InClone;
  CHECK_CUDA(cudaGraphNodeFindInClone(&InClone, B, Clone));
  EXPECT_NE(InClone, B);
  CHECK_CUDA(cudaGraphDestroyNode(B));
  Num = 0;
  CHECK_CUDA(cudaGraphGetNodes(G, nullptr, &Num));
  EXPECT_EQ(Num, 2u);
  CHECK_CUDA(cudaGraphGetNodes(Clone, nullptr, &Num));
  EXPECT_EQ(Num, 3u);
  CHECK_CUDA(cudaGraphDestroy(Clone));
  CHECK_CUDA(cudaGraphDestroy(G));
}

TEST(GraphApi, GenericNodesAndInstanceParameters) {
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  // An allocation node reports its address through the parameters.
  cudaGraphNodeParams Alloc = {};
  Alloc.type = cudaGraphNodeTypeMemAlloc;
  Alloc.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  Alloc.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  Alloc.alloc.poolProps.location.id = 0;
  Alloc.alloc.bytesize = 256;
  cudaGraphNode_t AllocNode;
  CHECK_CUDA(cudaGraphAddNode(&AllocNode, G, nullptr, nullptr, 0, &Alloc));
  ASSERT_NE(Alloc.alloc.dptr, nullptr);
  cudaMemAllocNodeParams GotAlloc;
  CHECK_CUDA(cudaGraphMemAllocNodeGetParams(AllocNode, &GotAlloc));
  EXPECT_EQ(GotAlloc.dptr, Alloc.alloc.dptr);
  EXPECT_EQ(GotAlloc.bytesize, 256u);
  cudaGraphNodeParams Set = {};
  Set.type = cudaGraphNodeTypeMemset;
  Set.memset.dst = Alloc.alloc.dptr;
  Set.memset.value = 0x11;
  Set.memset.elementSize = 1;
  Set.memset.width = 256;
  Set.memset.height = 1;
  cudaGraphNode_t SetNode;
  CHECK_CUDA(cudaGraphAddNode(&SetNode, G, &AllocNode, nullptr, 1, &Set));
  unsigned char Out[256];
  cudaGraphNode_t CopyNode;
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&CopyNode, G, &SetNode, 1, Out,
                                      Alloc.alloc.dptr, 256,
                                      cudaMemcpyDeviceToHost));
  cudaGraphNodeParams Free = {};
  Free.type = cudaGraphNodeTypeMemFree;
  Free.free.dptr = Alloc.alloc.dptr;
  cudaGraphNode_t FreeNode;
  CHECK_CUDA(cudaGraphAddNode(&FreeNode, G, &CopyNode, nullptr, 1, &Free));
  void *Freed = nullptr;
  CHECK_CUDA(cudaGraphMemFreeNodeGetParams(FreeNode, &Freed));
  EXPECT_EQ(Freed, Alloc.alloc.dptr);
  // Reserved bytes must be zero; conditional nodes are not supported.
  cudaGraphNodeParams Dirty = Set;
  Dirty.reserved0[1] = 1;
  cudaGraphNode_t Bad;
  EXPECT_EQ(cudaGraphAddNode(&Bad, G, nullptr, nullptr, 0, &Dirty),
            cudaErrorInvalidValue);
  // A conditional node without a handle of the graph (or bodies) is
  // refused.
  cudaGraphNodeParams Cond = {};
  Cond.type = cudaGraphNodeTypeConditional;
  EXPECT_EQ(cudaGraphAddNode(&Bad, G, nullptr, nullptr, 0, &Cond),
            cudaErrorInvalidValue);
  cudaGetLastError();

  cudaGraphInstantiateParams IP = {};
  IP.flags = cudaGraphInstantiateFlagUpload;
  IP.uploadStream = nullptr;
  cudaGraphExec_t E;
  CHECK_CUDA(cudaGraphInstantiateWithParams(&E, G, &IP));
  EXPECT_EQ(IP.result_out, cudaGraphInstantiateSuccess);
  unsigned long long Flags = 0;
  CHECK_CUDA(cudaGraphExecGetFlags(E, &Flags));
  EXPECT_EQ(Flags, static_cast<unsigned long long>(cudaGraphInstantiateFlagUpload));
  CHECK_CUDA(cudaGraphUpload(E, nullptr));
  CHECK_CUDA(cudaGraphLaunch(E, nullptr));
  CHECK_CUDA(cudaStreamSynchronize(nullptr));
  EXPECT_EQ(Out[255], 0x11);
  // The instance's memset gets a new value through the generic form.
  Set.memset.value = 0x22;
  CHECK_CUDA(cudaGraphExecNodeSetParams(E, SetNode, &Set));
  CHECK_CUDA(cudaGraphLaunch(E, nullptr));
  CHECK_CUDA(cudaStreamSynchronize(nullptr));
  EXPECT_EQ(Out[0], 0x22);
  CHECK_CUDA(cudaGraphNodeSetEnabled(E, SetNode, 0));
  unsigned int Enabled = 1;
  CHECK_CUDA(cudaGraphNodeGetEnabled(E, SetNode, &Enabled));
  EXPECT_EQ(Enabled, 0u);
  EXPECT_EQ(cudaGraphNodeSetEnabled(E, FreeNode, 0), cudaErrorInvalidValue);
  // Allocation nodes take no new parameters.
  EXPECT_EQ(cudaGraphNodeSetParams(AllocNode, &Alloc), cudaErrorNotSupported);
  cudaGetLastError();
  uint64_t Reserved = 0;
  CHECK_CUDA(cudaDeviceGetGraphMemAttribute(
      0, cudaGraphMemAttrReservedMemCurrent, &Reserved));
  EXPECT_GE(Reserved, 256u);
  CHECK_CUDA(cudaDeviceGraphMemTrim(0));
  CHECK_CUDA(cudaGraphExecDestroy(E));
  CHECK_CUDA(cudaGraphDestroy(G));
  CHECK_CUDA(cudaDeviceGetGraphMemAttribute(
      0, cudaGraphMemAttrReservedMemCurrent, &Reserved));
  EXPECT_EQ(Reserved, 0u);
}

TEST(GraphApi, InstantiateReportsACycle) {
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  cudaGraphNode_t A, B;
  CHECK_CUDA(cudaGraphAddEmptyNode(&A, G, nullptr, 0));
  CHECK_CUDA(cudaGraphAddEmptyNode(&B, G, &A, 1));
  CHECK_CUDA(cudaGraphAddDependencies(G, &B, &A, nullptr, 1));
  cudaGraphInstantiateParams IP = {};
  cudaGraphExec_t E;
  EXPECT_EQ(cudaGraphInstantiateWithParams(&E, G, &IP), cudaErrorInvalidValue);
  EXPECT_EQ(IP.result_out, cudaGraphInstantiateInvalidStructure);
  EXPECT_NE(IP.errNode_out, nullptr);
  cudaGetLastError();
  CHECK_CUDA(cudaGraphDestroy(G));
}

TEST(GraphApi, CaptureIntoAnExistingGraph) {
  unsigned char *Dev;
  CHECK_CUDA(cudaMalloc(reinterpret_cast<void **>(&Dev), 64));
  unsigned char Out[64] = {};
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  cudaGraphNode_t Set;
  cudaMemsetParams P = {};
  P.dst = Dev;
  P.value = 0x42;
  P.elementSize = 1;
  P.width = 64;
  P.height = 1;
  CHECK_CUDA(cudaGraphAddMemsetNode(&Set, G, nullptr, 0, &P));
  cudaStream_t S;
  CHECK_CUDA(cudaStreamCreate(&S));
  CHECK_CUDA(cudaStreamBeginCaptureToGraph(S, G, &Set, nullptr, 1,
                                           cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaMemcpyAsync(Out, Dev, 64, cudaMemcpyDeviceToHost, S));
  // A second copy after the memset only, not after the first copy.
  CHECK_CUDA(cudaStreamUpdateCaptureDependencies(
      S, &Set, nullptr, 1, cudaStreamSetCaptureDependencies));
  CHECK_CUDA(cudaMemcpyAsync(Out + 32, Dev, 32, cudaMemcpyDeviceToHost, S));
  cudaGraph_t Captured;
  CHECK_CUDA(cudaStreamEndCapture(S, &Captured));
  EXPECT_EQ(Captured, G);
  size_t Num = 4;
  cudaGraphNode_t Roots[4];
  CHECK_CUDA(cudaGraphGetRootNodes(G, Roots, &Num));
  EXPECT_EQ(Num, 1u);
  size_t Dependents = 0;
  CHECK_CUDA(cudaGraphNodeGetDependentNodes(Set, nullptr, nullptr,
                                            &Dependents));
  EXPECT_EQ(Dependents, 2u);
  cudaGraphExec_t E;
  CHECK_CUDA(cudaGraphInstantiate(&E, G, 0));
  CHECK_CUDA(cudaGraphLaunch(E, S));
  CHECK_CUDA(cudaStreamSynchronize(S));
  EXPECT_EQ(Out[0], 0x42);
  EXPECT_EQ(Out[63], 0x42);
  EXPECT_EQ(cudaStreamUpdateCaptureDependencies(S, &Set, nullptr, 1, 0),
            cudaErrorIllegalState);
  cudaGetLastError();
  CHECK_CUDA(cudaGraphExecDestroy(E));
  CHECK_CUDA(cudaGraphDestroy(G));
  CHECK_CUDA(cudaStreamDestroy(S));
  CHECK_CUDA(cudaFree(Dev));
}

int Destroyed = 0;
void destroyed(void *) { ++Destroyed; }

TEST(GraphApi, UserObjects) {
  cudaUserObject_t O;
  CHECK_CUDA(cudaUserObjectCreate(&O, nullptr, destroyed, 1,
                                  cudaUserObjectNoDestructorSync));
  cudaGraph_t G;
  CHECK_CUDA(cudaGraphCreate(&G, 0));
  CHECK_CUDA(cudaGraphRetainUserObject(G, O, 1, cudaGraphUserObjectMove));
  CHECK_CUDA(cudaUserObjectRetain(O, 1));
  CHECK_CUDA(cudaUserObjectRelease(O, 1));
  EXPECT_EQ(Destroyed, 0);
  CHECK_CUDA(cudaGraphDestroy(G));
  EXPECT_EQ(Destroyed, 1);
  EXPECT_EQ(cudaUserObjectCreate(&O, nullptr, destroyed, 1, 0),
            cudaErrorInvalidValue);
  cudaGetLastError();
}

} // namespace
