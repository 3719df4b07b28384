// Every kind of graph node cuhip has, as a program uses them: a graph built
// node by node with a 3D copy (cudaMemcpy3DParms), a memset, kernels, a
// host function, a child graph, copies to and from a __device__ variable
// and an event record and wait, launched several times with new input,
// then changed in its instance (kernel, memset and host parameters, the
// child graph's, a disabled node) and by cudaGraphExecUpdate; a graph with
// allocation and free nodes; and a graph captured from two streams with
// cudaMallocAsync and cudaFreeAsync in it. Built twice: against libcudart
// (-cudart shared) and with nvcc's default static runtime, which reaches
// the graphs through cuhip's libcuda.so.1. Prints PASS when every result is
// right.
#include "Expect.h"

#include <cstring>
#include <vector>

__device__ int bias[4];

__global__ void addBias(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += bias[i % 4];
}

__global__ void scale(int *x, int a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

static void CUDART_CB countCall(void *p) { ++*static_cast<int *>(p); }

// The 3D region: 2 slices of 4 rows of 16 ints, inside a pitched
// allocation at (x 2 ints, y 1, z 0) with 6 rows per slice.
constexpr int W = 16, H = 4, D = 2, N = W * H * D;

static int explicitGraph() {
  cudaPitchedPtr box;
  CHECK(cudaMalloc3D(&box, make_cudaExtent((W + 2) * sizeof(int), H + 2, D)));
  CHECK(cudaMemset(box.ptr, 0, box.pitch * (H + 2) * D));
  int *flat;
  CHECK(cudaMalloc(&flat, N * sizeof(int)));
  std::vector<int> in(N), out(N), biasIn = {1, 2, 3, 4}, biasOut(4);
  int calls = 0, otherCalls = 0;
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));

  cudaGraph_t child;
  CHECK(cudaGraphCreate(&child, 0));
  // Child: scale by `factor`, then add the bias.
  int n = N, factor = 3;
  void *scaleArgs[] = {&flat, &factor, &n};
  cudaKernelNodeParams scaleParams = {};
  scaleParams.func = reinterpret_cast<void *>(scale);
  scaleParams.gridDim = dim3((N + 63) / 64);
  scaleParams.blockDim = dim3(64);
  scaleParams.kernelParams = scaleArgs;
  cudaGraphNode_t scaleNode, biasNode;
  CHECK(cudaGraphAddKernelNode(&scaleNode, child, nullptr, 0, &scaleParams));
  void *biasArgs[] = {&flat, &n};
  cudaKernelNodeParams biasParams = scaleParams;
  biasParams.func = reinterpret_cast<void *>(addBias);
  biasParams.kernelParams = biasArgs;
  CHECK(cudaGraphAddKernelNode(&biasNode, child, &scaleNode, 1, &biasParams));

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  // Host -> pitched box (3D), box -> flat (3D), the bias in, memset of a
  // scratch word, the child graph, an event, flat -> host, the bias out,
  // a host function; an event wait beside them.
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(in.data(), W * sizeof(int), W, H);
  up.dstPtr = box;
  up.dstPos = make_cudaPos(2 * sizeof(int), 1, 0);
  up.extent = make_cudaExtent(W * sizeof(int), H, D);
  up.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DParms gather = {};
  gather.srcPtr = box;
  gather.srcPos = up.dstPos;
  gather.dstPtr = make_cudaPitchedPtr(flat, W * sizeof(int), W, H);
  gather.extent = up.extent;
  gather.kind = cudaMemcpyDeviceToDevice;
  cudaMemsetParams zero = {};
  zero.dst = flat;
  zero.value = 0;
  zero.elementSize = 4;
  zero.width = N;
  zero.height = 1;
  cudaGraphNode_t zeroNode, upNode, gatherNode, biasInNode, childNode,
      recordNode, downNode, biasOutNode, hostNode, waitNode;
  CHECK(cudaGraphAddMemsetNode(&zeroNode, graph, nullptr, 0, &zero));
  CHECK(cudaGraphAddMemcpyNode(&upNode, graph, nullptr, 0, &up));
  cudaGraphNode_t gatherDeps[] = {zeroNode, upNode};
  CHECK(cudaGraphAddMemcpyNode(&gatherNode, graph, gatherDeps, 2, &gather));
  CHECK(cudaGraphAddMemcpyNodeToSymbol(&biasInNode, graph, nullptr, 0, bias,
                                       biasIn.data(), sizeof(int) * 4, 0,
                                       cudaMemcpyHostToDevice));
  cudaGraphNode_t childDeps[] = {gatherNode, biasInNode};
  CHECK(cudaGraphAddChildGraphNode(&childNode, graph, childDeps, 2, child));
  CHECK(cudaGraphAddEventRecordNode(&recordNode, graph, &childNode, 1, done));
  CHECK(cudaGraphAddMemcpyNode1D(&downNode, graph, &recordNode, 1, out.data(),
                                 flat, N * sizeof(int),
                                 cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemcpyNodeFromSymbol(&biasOutNode, graph, &recordNode, 1,
                                         biasOut.data(), bias, sizeof(int) * 4,
                                         0, cudaMemcpyDeviceToHost));
  cudaHostNodeParams host = {countCall, &calls};
  cudaGraphNode_t hostDeps[] = {downNode, biasOutNode};
  CHECK(cudaGraphAddHostNode(&hostNode, graph, hostDeps, 2, &host));
  CHECK(cudaGraphAddEventWaitNode(&waitNode, graph, &recordNode, 1, done));

  // What the getters report.
  cudaKernelNodeParams got;
  cudaGraph_t embedded;
  CHECK(cudaGraphChildGraphNodeGetGraph(childNode, &embedded));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(embedded, nullptr, &count));
  EXPECT(count == 2);
  cudaGraphNode_t inner[2];
  CHECK(cudaGraphGetNodes(embedded, inner, &count));
  CHECK(cudaGraphKernelNodeGetParams(inner[0], &got));
  EXPECT(got.gridDim.x == (N + 63) / 64 && got.blockDim.x == 64);
  EXPECT(*static_cast<int *>(got.kernelParams[1]) == 3);
  cudaMemcpy3DParms gotCopy;
  CHECK(cudaGraphMemcpyNodeGetParams(upNode, &gotCopy));
  EXPECT(gotCopy.dstPos.x == 2 * sizeof(int) && gotCopy.dstPos.y == 1 &&
         gotCopy.extent.depth == D && gotCopy.srcPtr.ptr == in.data());
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(waitNode, &type));
  EXPECT(type == cudaGraphNodeTypeWaitEvent);
  CHECK(cudaGraphNodeGetType(childNode, &type));
  EXPECT(type == cudaGraphNodeTypeGraph);
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  EXPECT(roots == 3);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  auto run = [&](int round, int wantFactor, int wantCalls) {
    for (int i = 0; i < N; ++i)
      in[i] = i * round;
    std::fill(out.begin(), out.end(), -1);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; ++i)
      if (out[i] != i * round * wantFactor + biasIn[i % 4]) {
        printf("round %d: out[%d] = %d, expected %d\n", round, i, out[i],
               i * round * wantFactor + biasIn[i % 4]);
        ++failures;
        break;
      }
    EXPECT(biasOut == biasIn);
    EXPECT(calls == wantCalls);
    EXPECT(cudaEventQuery(done) == cudaSuccess);
  };
  for (int round = 1; round <= 3; ++round)
    run(round, 3, round);

  // The instance's own parameters: a new bias, another host counter, and
  // (through a graph of the child's topology) another factor.
  biasIn = {10, 20, 30, 40};
  CHECK(cudaGraphExecMemcpyNodeSetParamsToSymbol(
      exec, biasInNode, bias, biasIn.data(), sizeof(int) * 4, 0,
      cudaMemcpyHostToDevice));
  cudaHostNodeParams other = {countCall, &otherCalls};
  CHECK(cudaGraphExecHostNodeSetParams(exec, hostNode, &other));
  cudaGraph_t newChild;
  CHECK(cudaGraphClone(&newChild, embedded));
  cudaGraphNode_t newScale;
  CHECK(cudaGraphNodeFindInClone(&newScale, inner[0], newChild));
  factor = 5;
  CHECK(cudaGraphKernelNodeSetParams(newScale, &scaleParams));
  CHECK(cudaGraphExecChildGraphNodeSetParams(exec, childNode, newChild));
  run(4, 5, 3);
  EXPECT(otherCalls == 1);
  // The original graph's parameters again, through cudaGraphExecUpdate.
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, graph, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess);
  biasIn = {1, 2, 3, 4};
  run(5, 3, 4);
  // A graph of another shape is refused, and says which node differs.
  cudaGraph_t reshaped;
  CHECK(cudaGraphClone(&reshaped, graph));
  cudaGraphNode_t extra, reshapedHost;
  CHECK(cudaGraphNodeFindInClone(&reshapedHost, hostNode, reshaped));
  CHECK(cudaGraphAddEmptyNode(&extra, reshaped, &reshapedHost, 1));
  EXPECT_ERR(cudaGraphExecUpdate(exec, reshaped, &info),
             cudaErrorGraphExecUpdateFailure);
  EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  // A disabled memset leaves flat as the last launch did: the zeroing is
  // gone, and gather overwrites it anyway, so the results stay right.
  CHECK(cudaGraphNodeSetEnabled(exec, zeroNode, 0));
  unsigned enabled = 1;
  CHECK(cudaGraphNodeGetEnabled(exec, zeroNode, &enabled));
  EXPECT(enabled == 0);
  run(6, 3, 5);
  // A memset instance with a new value shows when the copy after it is
  // gone: gather disabled, scale 3, bias added, on words set to 7.
  CHECK(cudaGraphNodeSetEnabled(exec, zeroNode, 1));
  CHECK(cudaGraphNodeSetEnabled(exec, gatherNode, 0));
  zero.value = 7;
  CHECK(cudaGraphExecMemsetNodeSetParams(exec, zeroNode, &zero));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(out[0] == 7 * 3 + 1 && out[N - 1] == 7 * 3 + 4);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(reshaped));
  CHECK(cudaGraphDestroy(newChild));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaFree(flat));
  CHECK(cudaFree(box.ptr));
  return 0;
}

// Allocation and free nodes, as NVIDIA's graphMemoryNodes sample uses them.
static int memoryNodes() {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = N * sizeof(int);
  cudaGraphNode_t allocNode, setNode, scaleNode, downNode, freeNode;
  CHECK(cudaGraphAddMemAllocNode(&allocNode, graph, nullptr, 0, &alloc));
  int *p = static_cast<int *>(alloc.dptr);
  EXPECT(p != nullptr);
  cudaMemsetParams set = {};
  set.dst = p;
  set.value = 2;
  set.elementSize = 4;
  set.width = N;
  set.height = 1;
  CHECK(cudaGraphAddMemsetNode(&setNode, graph, &allocNode, 1, &set));
  int n = N, factor = 21;
  void *args[] = {&p, &factor, &n};
  cudaKernelNodeParams k = {};
  k.func = reinterpret_cast<void *>(scale);
  k.gridDim = dim3((N + 63) / 64);
  k.blockDim = dim3(64);
  k.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&scaleNode, graph, &setNode, 1, &k));
  // A cooperative kernel node (its two blocks resident together).
  cudaLaunchAttributeValue coop = {}, gotCoop = {};
  coop.cooperative = 1;
  CHECK(cudaGraphKernelNodeSetAttribute(scaleNode,
                                        cudaLaunchAttributeCooperative, &coop));
  CHECK(cudaGraphKernelNodeGetAttribute(scaleNode,
                                        cudaLaunchAttributeCooperative,
                                        &gotCoop));
  EXPECT(gotCoop.cooperative == 1);
  std::vector<int> out(N);
  CHECK(cudaGraphAddMemcpyNode1D(&downNode, graph, &scaleNode, 1, out.data(),
                                 p, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&freeNode, graph, &downNode, 1, p));
  void *freed = nullptr;
  CHECK(cudaGraphMemFreeNodeGetParams(freeNode, &freed));
  EXPECT(freed == p);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int round = 0; round < 3; ++round) {
    std::fill(out.begin(), out.end(), 0);
    CHECK(cudaGraphLaunch(exec, nullptr));
    CHECK(cudaStreamSynchronize(nullptr));
    EXPECT(out[0] == 42 && out[N - 1] == 42);
  }
  unsigned long long used = 1, reserved = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent,
                                       &used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent,
                                       &reserved));
  EXPECT(used == 0 && reserved >= N * sizeof(int));
  // Graphs with memory nodes have no clones.
  cudaGraph_t clone;
  EXPECT(cudaGraphClone(&clone, graph) != cudaSuccess);
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaDeviceGraphMemTrim(0));
  return 0;
}

// A fork/join capture with stream-ordered allocation inside.
static int captured() {
  cudaStream_t s0, s1;
  CHECK(cudaStreamCreate(&s0));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  std::vector<int> in(N), out(N);
  int *a, *b;
  CHECK(cudaMalloc(&a, N * sizeof(int)));
  int calls = 0;

  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&b, N * sizeof(int), s0));
  CHECK(cudaMemcpyAsync(a, in.data(), N * sizeof(int), cudaMemcpyHostToDevice,
                        s0));
  CHECK(cudaEventRecord(fork, s0));
  CHECK(cudaStreamWaitEvent(s1, fork, 0));
  CHECK(cudaMemcpyAsync(b, a, N * sizeof(int), cudaMemcpyDeviceToDevice, s1));
  scale<<<(N + 63) / 64, 64, 0, s1>>>(b, 2, N);
  CHECK(cudaEventRecord(join, s1));
  scale<<<(N + 63) / 64, 64, 0, s0>>>(a, 10, N);
  CHECK(cudaStreamWaitEvent(s0, join, 0));
  addBias<<<(N + 63) / 64, 64, 0, s0>>>(a, N); // bias is 1..4 from above
  CHECK(cudaMemcpyAsync(out.data(), b, N * sizeof(int), cudaMemcpyDeviceToHost,
                        s0));
  CHECK(cudaFreeAsync(b, s0));
  CHECK(cudaLaunchHostFunc(s0, countCall, &calls));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusActive);
  EXPECT(calls == 0);
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(s0, &graph));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT(nodes == 9);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<int> a2(N);
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < N; ++i)
      in[i] = i + round;
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    CHECK(cudaMemcpy(a2.data(), a, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i)
      if (out[i] != 2 * (i + round) || a2[i] != 10 * (i + round) + 1 + i % 4) {
        printf("captured round %d: element %d is %d and %d\n", round, i,
               out[i], a2[i]);
        ++failures;
        break;
      }
    EXPECT(calls == round);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  CHECK(cudaStreamDestroy(s0));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaFree(a));
  return 0;
}

int main() {
  if (explicitGraph() || memoryNodes() || captured())
    return 1;
  if (failures) {
    printf("FAIL: %d check(s) failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
