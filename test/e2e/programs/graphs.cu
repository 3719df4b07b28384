// CUDA graphs through libcudart: a two-stream fork/join workload (copies,
// <<<>>> launches, a host function) captured into a graph, instantiated and
// launched several times with new input each time; a capture that
// cudaMalloc invalidates; and a graph built node by node (memset, kernel,
// copy, host nodes), relaunched with new kernel parameters, cloned, updated
// and written as a dot file. Prints PASS when every result is right.
#include <cstdio>
#include <cstring>
#include <string>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("FAIL %s:%d: %s gave %s\n", __FILE__, __LINE__, #call,       \
                  cudaGetErrorName(e_));                                       \
      return 1;                                                                \
    }                                                                          \
  } while (0)
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

__global__ void addVec(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

static void CUDART_CB countCall(void *p) { ++*static_cast<int *>(p); }

static int captured() {
  const int n = 1000;
  const size_t bytes = n * sizeof(float);
  std::vector<float> hx(n), hy(n), hz(n, -1.0f);
  float *x, *y, *z;
  CHECK(cudaMalloc(&x, bytes));
  CHECK(cudaMalloc(&y, bytes));
  CHECK(cudaMalloc(&z, bytes));
  cudaStream_t s0, s1;
  CHECK(cudaStreamCreate(&s0));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  int calls = 0;
  int grid = (n + 127) / 128;

  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(x, hx.data(), bytes, cudaMemcpyHostToDevice, s0));
  CHECK(cudaEventRecord(fork, s0));
  CHECK(cudaStreamWaitEvent(s1, fork, 0));
  CHECK(cudaMemcpyAsync(y, hy.data(), bytes, cudaMemcpyHostToDevice, s1));
  scale<<<grid, 128, 0, s1>>>(y, 3.0f, n);
  CHECK(cudaGetLastError());
  scale<<<grid, 128, 0, s0>>>(x, 2.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(join, s1));
  CHECK(cudaStreamWaitEvent(s0, join, 0));
  addVec<<<grid, 128, 0, s0>>>(x, y, z, n);
  CHECK(cudaMemcpyAsync(hz.data(), z, bytes, cudaMemcpyDeviceToHost, s0));
  CHECK(cudaLaunchHostFunc(s0, countCall, &calls));

  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusActive);
  unsigned long long id = 0;
  cudaGraph_t during = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t numDeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s0, &status, &id, &during, &deps, nullptr,
                                 &numDeps));
  EXPECT(status == cudaStreamCaptureStatusActive && id != 0 && during &&
         numDeps == 1 && deps);
  // Captured, not run.
  EXPECT(calls == 0 && hz[0] == -1.0f);
  cudaGraph_t graph;
  CHECK(cudaStreamEndCapture(s0, &graph));
  EXPECT(graph == during);
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT(nodes == 7);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < n; ++i) {
      hx[i] = float(i * round);
      hy[i] = float(n - i);
    }
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    for (int i = 0; i < n; ++i)
      if (hz[i] != 2.0f * i * round + 3.0f * (n - i)) {
        std::printf("FAIL round %d: z[%d] = %g\n", round, i, hz[i]);
        return 1;
      }
    EXPECT(calls == round);
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  // cudaMalloc is not allowed during a global capture; the capture is lost.
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  void *p = nullptr;
  EXPECT(cudaMalloc(&p, 64) == cudaErrorStreamCaptureUnsupported);
  EXPECT(cudaGetLastError() == cudaErrorStreamCaptureUnsupported);
  EXPECT(cudaStreamEndCapture(s0, &graph) == cudaErrorStreamCaptureInvalidated);
  EXPECT(graph == nullptr);
  EXPECT(cudaGetLastError() == cudaErrorStreamCaptureInvalidated);
  EXPECT(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
         cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();

  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  CHECK(cudaStreamDestroy(s0));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  return 0;
}

static int explicitGraph() {
  const int n = 512;
  const size_t bytes = n * sizeof(float);
  float *x;
  CHECK(cudaMalloc(&x, bytes));
  std::vector<float> out(n, 0.0f);
  int calls = 0;
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));

  cudaMemsetParams set = {};
  float one = 1.0f;
  set.dst = x;
  set.elementSize = 4;
  std::memcpy(&set.value, &one, 4);
  set.width = n;
  set.height = 1;
  cudaGraphNode_t setNode, scaleNode, copyNode, hostNode;
  CHECK(cudaGraphAddMemsetNode(&setNode, graph, nullptr, 0, &set));

  float a = 5.0f;
  int count = n;
  float *px = x;
  void *args[] = {&px, &a, &count};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void *>(scale);
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&scaleNode, graph, &setNode, 1, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&copyNode, graph, nullptr, 0, out.data(), x,
                                 bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddDependencies(graph, &scaleNode, &copyNode, nullptr, 1));
  cudaHostNodeParams hp = {countCall, &calls};
  CHECK(cudaGraphAddHostNode(&hostNode, graph, &copyNode, 1, &hp));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i)
    EXPECT(out[i] == 5.0f);
  EXPECT(calls == 1);

  // New parameters for the instance: the graph itself keeps a = 5.
  a = 7.0f;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, scaleNode, &kp));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(out[0] == 7.0f && out[n - 1] == 7.0f && calls == 2);

  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, graph));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(clone, nullptr, &nodes));
  EXPECT(nodes == 4);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(exec, clone, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess);
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  EXPECT(out[0] == 5.0f && calls == 3);

  const char *dot = "graphs_e2e.dot";
  CHECK(cudaGraphDebugDotPrint(graph, dot, 0));
  FILE *f = std::fopen(dot, "r");
  EXPECT(f);
  char head[16] = {};
  EXPECT(std::fread(head, 1, 7, f) == 7);
  std::fclose(f);
  std::remove(dot);
  EXPECT(std::strncmp(head, "digraph", 7) == 0);

  // A conditional node prints as the node and a cluster per body.
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 0, 0));
  cudaGraphNodeParams cond = {};
  cond.type = cudaGraphNodeTypeConditional;
  cond.conditional.handle = handle;
  cond.conditional.type = cudaGraphCondTypeIf;
  cond.conditional.size = 2;
  cudaGraphNode_t condNode;
  CHECK(cudaGraphAddNode(&condNode, graph, nullptr, nullptr, 0, &cond));
  cudaGraphNode_t inBody;
  CHECK(cudaGraphAddEmptyNode(&inBody, cond.conditional.phGraph_out[1],
                              nullptr, 0));
  CHECK(cudaGraphDebugDotPrint(graph, dot, 0));
  f = std::fopen(dot, "r");
  EXPECT(f);
  std::string text;
  if (f) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      text.append(buf, n);
    std::fclose(f);
  }
  std::remove(dot);
  EXPECT(text.find("conditional if") != std::string::npos);
  EXPECT(text.find("if body 1") != std::string::npos);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(x));
  return 0;
}

int main() {
  if (captured() || explicitGraph())
    return 1;
  std::printf("PASS\n");
  return 0;
}
