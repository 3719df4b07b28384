// Conditional graph nodes: if (with and without else), while (built with
// node calls and captured into its body with cudaStreamBeginCaptureToGraph),
// switch, a conditional nested in another's body, the default value a
// launch assigns, repeated launches of one instance, and the errors CUDA
// gives for a handle of another graph and for a wrong number of bodies.
// Device code sets the conditions with cudaGraphSetConditional.
#include "Expect.h"

__global__ void setFrom(const int *Flag, cudaGraphConditionalHandle H) {
  cudaGraphSetConditional(H, *Flag);
}

__global__ void add(int *Out, int V) { atomicAdd(Out, V); }

// One loop iteration: count it, and stop once the counter reaches zero.
__global__ void countDown(int *Counter, int *Iterations,
                          cudaGraphConditionalHandle H) {
  ++*Iterations;
  if (--*Counter <= 0)
    cudaGraphSetConditional(H, 0);
}

static cudaGraphNode_t kernelNode(cudaGraph_t G, const cudaGraphNode_t *Deps,
                                  size_t NumDeps, void *Fn, void **Args) {
  cudaGraphNodeParams P = {};
  P.type = cudaGraphNodeTypeKernel;
  P.kernel.func = Fn;
  P.kernel.gridDim = dim3(1);
  P.kernel.blockDim = dim3(1);
  P.kernel.kernelParams = Args;
  cudaGraphNode_t N = nullptr;
  CHECK(cudaGraphAddNode(&N, G, Deps, nullptr, NumDeps, &P));
  return N;
}

static cudaGraphNodeParams condParams(cudaGraphConditionalHandle H,
                                      cudaGraphConditionalNodeType Type,
                                      unsigned Size) {
  cudaGraphNodeParams P = {};
  P.type = cudaGraphNodeTypeConditional;
  P.conditional.handle = H;
  P.conditional.type = Type;
  P.conditional.size = Size;
  return P;
}

static cudaGraph_t *conditional(cudaGraph_t G, cudaGraphNode_t *Deps,
                                size_t NumDeps, cudaGraphConditionalHandle H,
                                cudaGraphConditionalNodeType Type,
                                unsigned Size) {
  cudaGraphNodeParams P = condParams(H, Type, Size);
  cudaGraphNode_t N = nullptr;
  CHECK(cudaGraphAddNode(&N, G, Deps, nullptr, NumDeps, &P));
  return P.conditional.phGraph_out;
}

static int read(const int *D) {
  int V = 0;
  CHECK(cudaMemcpy(&V, D, sizeof(int), cudaMemcpyDeviceToHost));
  return V;
}

static void write(int *D, int V) {
  CHECK(cudaMemcpy(D, &V, sizeof(int), cudaMemcpyHostToDevice));
}

int main() {
  int *Flag, *Out, *Counter, *Iterations;
  CHECK(cudaMalloc(&Flag, sizeof(int)));
  CHECK(cudaMalloc(&Out, sizeof(int)));
  CHECK(cudaMalloc(&Counter, sizeof(int)));
  CHECK(cudaMalloc(&Iterations, sizeof(int)));
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));

  // if / else: a kernel sets the condition from device memory; the body
  // adds 1, the else body 100, and a node after the conditional adds 1000.
  {
    cudaGraph_t G;
    CHECK(cudaGraphCreate(&G, 0));
    cudaGraphConditionalHandle H;
    CHECK(cudaGraphConditionalHandleCreate(&H, G, 0, 0));
    void *SetArgs[] = {&Flag, &H};
    cudaGraphNode_t Set = kernelNode(G, nullptr, 0, (void *)setFrom, SetArgs);
    cudaGraphNodeParams P = condParams(H, cudaGraphCondTypeIf, 2);
    cudaGraphNode_t Cond;
    CHECK(cudaGraphAddNode(&Cond, G, &Set, nullptr, 1, &P));
    cudaGraph_t *Bodies = P.conditional.phGraph_out;
    EXPECT(Bodies != nullptr);
    int One = 1, Hundred = 100, Thousand = 1000;
    void *A1[] = {&Out, &One}, *A100[] = {&Out, &Hundred},
         *A1000[] = {&Out, &Thousand};
    kernelNode(Bodies[0], nullptr, 0, (void *)add, A1);
    kernelNode(Bodies[1], nullptr, 0, (void *)add, A100);
    kernelNode(G, &Cond, 1, (void *)add, A1000);
    cudaGraphExec_t E;
    CHECK(cudaGraphInstantiate(&E, G, 0));
    for (int F : {1, 0, 7}) {
      write(Flag, F);
      write(Out, 0);
      CHECK(cudaGraphLaunch(E, S));
      CHECK(cudaStreamSynchronize(S));
      EXPECT(read(Out) == (F ? 1001 : 1100));
    }
    CHECK(cudaGraphExecDestroy(E));
    CHECK(cudaGraphDestroy(G));
  }

  // while: the body counts down; with cudaGraphCondAssignDefault the loop
  // starts every launch, whatever the last one left in the handle. The
  // body is captured into the node's graph.
  {
    cudaGraph_t G;
    CHECK(cudaGraphCreate(&G, 0));
    cudaGraphConditionalHandle H;
    CHECK(cudaGraphConditionalHandleCreate(&H, G, 1, cudaGraphCondAssignDefault));
    cudaGraph_t *Body = conditional(G, nullptr, 0, H, cudaGraphCondTypeWhile, 1);
    cudaStream_t C;
    CHECK(cudaStreamCreate(&C));
    CHECK(cudaStreamBeginCaptureToGraph(C, Body[0], nullptr, nullptr, 0,
                                        cudaStreamCaptureModeGlobal));
    countDown<<<1, 1, 0, C>>>(Counter, Iterations, H);
    CHECK(cudaStreamEndCapture(C, nullptr));
    size_t Nodes = 0;
    CHECK(cudaGraphGetNodes(Body[0], nullptr, &Nodes));
    EXPECT(Nodes == 1);
    cudaGraphExec_t E;
    CHECK(cudaGraphInstantiate(&E, G, 0));
    for (int N : {5, 3}) {
      write(Counter, N);
      write(Iterations, 0);
      CHECK(cudaGraphLaunch(E, S));
      CHECK(cudaStreamSynchronize(S));
      EXPECT(read(Iterations) == N);
      EXPECT(read(Counter) == 0);
    }
    CHECK(cudaGraphExecDestroy(E));
    CHECK(cudaGraphDestroy(G));
    CHECK(cudaStreamDestroy(C));
  }

  // switch, with a value past the last body running none; and an if nested
  // in the switch's body 1.
  {
    cudaGraph_t G;
    CHECK(cudaGraphCreate(&G, 0));
    cudaGraphConditionalHandle H, Inner;
    CHECK(cudaGraphConditionalHandleCreate(&H, G, 0, 0));
    CHECK(cudaGraphConditionalHandleCreate(&Inner, G, 1, cudaGraphCondAssignDefault));
    void *SetArgs[] = {&Flag, &H};
    cudaGraphNode_t Set = kernelNode(G, nullptr, 0, (void *)setFrom, SetArgs);
    cudaGraph_t *Bodies = conditional(G, &Set, 1, H, cudaGraphCondTypeSwitch, 3);
    int V[3] = {10, 20, 30};
    void *Args[3][2];
    for (int I = 0; I < 3; ++I) {
      Args[I][0] = &Out;
      Args[I][1] = &V[I];
      kernelNode(Bodies[I], nullptr, 0, (void *)add, Args[I]);
    }
    cudaGraph_t *Nested =
        conditional(Bodies[1], nullptr, 0, Inner, cudaGraphCondTypeIf, 1);
    int Five = 5;
    void *A5[] = {&Out, &Five};
    kernelNode(Nested[0], nullptr, 0, (void *)add, A5);
    cudaGraphExec_t E;
    CHECK(cudaGraphInstantiate(&E, G, 0));
    const int Want[] = {10, 25, 30, 0};
    for (int F = 0; F < 4; ++F) {
      write(Flag, F);
      write(Out, 0);
      CHECK(cudaGraphLaunch(E, S));
      CHECK(cudaStreamSynchronize(S));
      EXPECT(read(Out) == Want[F]);
    }
    // A clone runs the same way.
    cudaGraph_t Clone;
    CHECK(cudaGraphClone(&Clone, G));
    cudaGraphExec_t CE;
    CHECK(cudaGraphInstantiate(&CE, Clone, 0));
    write(Flag, 1);
    write(Out, 0);
    CHECK(cudaGraphLaunch(CE, S));
    CHECK(cudaStreamSynchronize(S));
    EXPECT(read(Out) == 25);
    // Launched into a capture it would be recorded for replays it was not
    // made for: refused. Added to the capture's graph as a child graph
    // node, it is captured whole and runs when that graph runs.
    cudaStream_t C;
    CHECK(cudaStreamCreate(&C));
    CHECK(cudaStreamBeginCapture(C, cudaStreamCaptureModeGlobal));
    EXPECT_ERR(cudaGraphLaunch(CE, C), cudaErrorNotSupported);
    cudaStreamCaptureStatus Status;
    cudaGraph_t Capturing = nullptr;
    const cudaGraphNode_t *Deps = nullptr;
    size_t NumDeps = 0;
    CHECK(cudaStreamGetCaptureInfo(C, &Status, nullptr, &Capturing, &Deps,
                                   nullptr, &NumDeps));
    cudaGraphNode_t Child;
    CHECK(cudaGraphAddChildGraphNode(&Child, Capturing, Deps, NumDeps, Clone));
    CHECK(cudaStreamUpdateCaptureDependencies(
        C, &Child, nullptr, 1, cudaStreamSetCaptureDependencies));
    cudaGraph_t Captured = nullptr;
    CHECK(cudaStreamEndCapture(C, &Captured));
    cudaGraphExec_t CapturedExec;
    CHECK(cudaGraphInstantiate(&CapturedExec, Captured, 0));
    write(Flag, 2);
    write(Out, 0);
    CHECK(cudaGraphLaunch(CapturedExec, S));
    CHECK(cudaStreamSynchronize(S));
    EXPECT(read(Out) == 30);
    CHECK(cudaGraphExecDestroy(CapturedExec));
    CHECK(cudaGraphDestroy(Captured));
    CHECK(cudaStreamDestroy(C));
    CHECK(cudaGraphExecDestroy(CE));
    CHECK(cudaGraphDestroy(Clone));
    CHECK(cudaGraphExecDestroy(E));
    CHECK(cudaGraphDestroy(G));
  }

  // Errors: a handle of another graph, a while with two bodies, an if with
  // three; a body graph cannot be destroyed on its own.
  {
    cudaGraph_t G, Other;
    CHECK(cudaGraphCreate(&G, 0));
    CHECK(cudaGraphCreate(&Other, 0));
    cudaGraphConditionalHandle H, Foreign;
    CHECK(cudaGraphConditionalHandleCreate(&H, G, 0, 0));
    CHECK(cudaGraphConditionalHandleCreate(&Foreign, Other, 0, 0));
    EXPECT_ERR(cudaGraphConditionalHandleCreate(&H, G, 0, 2),
               cudaErrorInvalidValue);
    cudaGraphNodeParams P = condParams(Foreign, cudaGraphCondTypeIf, 1);
    cudaGraphNode_t N;
    EXPECT_ERR(cudaGraphAddNode(&N, G, nullptr, nullptr, 0, &P),
               cudaErrorInvalidValue);
    P.conditional.handle = H;
    P.conditional.type = cudaGraphCondTypeWhile;
    P.conditional.size = 2;
    EXPECT_ERR(cudaGraphAddNode(&N, G, nullptr, nullptr, 0, &P),
               cudaErrorInvalidValue);
    P.conditional.type = cudaGraphCondTypeIf;
    P.conditional.size = 3;
    EXPECT_ERR(cudaGraphAddNode(&N, G, nullptr, nullptr, 0, &P),
               cudaErrorInvalidValue);
    P.conditional.size = 1;
    CHECK(cudaGraphAddNode(&N, G, nullptr, nullptr, 0, &P));
    EXPECT_ERR(cudaGraphDestroy(P.conditional.phGraph_out[0]),
               cudaErrorInvalidValue);
    cudaGraphNodeType T;
    CHECK(cudaGraphNodeGetType(N, &T));
    EXPECT(T == cudaGraphNodeTypeConditional);
    CHECK(cudaGraphDestroy(G));
    CHECK(cudaGraphDestroy(Other));
  }

  // Device code that sets a handle nobody made: reported (once for the
  // grid), nothing written, the kernel finishes.
  {
    write(Flag, 1);
    setFrom<<<2, 64>>>(Flag, 0x1234);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }

  CHECK(cudaFree(Flag));
  CHECK(cudaFree(Out));
  CHECK(cudaFree(Counter));
  CHECK(cudaFree(Iterations));
  CHECK(cudaStreamDestroy(S));
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
