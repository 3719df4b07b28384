//===- GraphApi.cpp - Stream capture and CUDA graphs ----------------------===//
//
// The graph and stream-capture functions of the CUDA runtime API that cuhip
// implements: capture on streams (with the `_ptsz` entry points of
// `--default-stream per-thread` programs), explicit graph construction with
// kernel, 1D copy, memset, host and empty nodes, instantiation, launch and
// the simple form of update. Each converts its arguments to the runtime
// core's NodeOp and calls the core once. libcudart.so.12 also exports the
// names CUDA 12 headers bind to (cudaStreamGetCaptureInfo_v2/_v3,
// cudaGraphAddDependencies without edge data and _v2 with it).
//
//===----------------------------------------------------------------------===//
#include "CudaGraphTypes.h"
#include "Export.h"

#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Log.h"

#include <vector>

using namespace cuhip;
using namespace cuhip::cudart;

namespace {
rt::Graph *graphOf(cudaGraph_t G) { return reinterpret_cast<rt::Graph *>(G); }
rt::GraphExec *execOf(cudaGraphExec_t E) {
  return reinterpret_cast<rt::GraphExec *>(E);
}
rt::GraphNode *nodeOf(cudaGraphNode_t N) {
  return reinterpret_cast<rt::GraphNode *>(N);
}
rt::GraphNode *const *nodesOf(const cudaGraphNode_t *N) {
  return reinterpret_cast<rt::GraphNode *const *>(N);
}

/// Edge data other than the default (all zero: full completion, full
/// dependency) asks for programmatic dependencies cuhip does not have.
bool defaultEdges(const cudaGraphEdgeData *Edges, size_t N) {
  if (!Edges)
    return true;
  for (size_t I = 0; I < N; ++I) {
    const unsigned char *B = reinterpret_cast<const unsigned char *>(&Edges[I]);
    for (size_t J = 0; J < sizeof(cudaGraphEdgeData); ++J)
      if (B[J])
        return false;
  }
  return true;
}

cudaError_t nonDefaultEdges(const char *Fn) {
  CUHIP_ERROR("%s: edges with non-default edge data (programmatic "
              "dependencies) are not supported",
              Fn);
  return runtime().record(rt::cudaErrorNotSupported);
}

/// A kernel node's operation: the kernel and its arguments copied now.
cudaError_t kernelOp(const cudaKernelNodeParams *P, rt::NodeOp &Op) {
  if (!P)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (P->extra) {
    CUHIP_ERROR("graph kernel node: arguments in the 'extra' form are not "
                "supported; pass kernelParams");
    return runtime().record(rt::cudaErrorNotSupported);
  }
  rt::Kernel *K = kernelFor(P->func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  Op.K = rt::NodeOp::KernelLaunch;
  Op.Grid = toDim3(P->gridDim);
  Op.Block = toDim3(P->blockDim);
  Op.SharedMem = P->sharedMemBytes;
  return rt::packKernelArgs(K, P->kernelParams, Op);
}
} // namespace

//===----------------------------------------------------------------------===//
// Stream capture
//===----------------------------------------------------------------------===//

static cudaError_t cudaStreamBeginCapture_impl(cudaStream_t Stream,
                                               cudaStreamCaptureMode Mode) {
  return rt::streamBeginCapture(Stream, static_cast<rt::CaptureMode>(Mode));
}
CUHIP_STREAM_API(cudaStreamBeginCapture,
                 (cudaStream_t Stream, enum cudaStreamCaptureMode Mode),
                 (Stream, Mode), Stream)

static cudaError_t cudaStreamEndCapture_impl(cudaStream_t Stream,
                                             cudaGraph_t *Graph) {
  return rt::streamEndCapture(Stream, reinterpret_cast<rt::Graph **>(Graph));
}
CUHIP_STREAM_API(cudaStreamEndCapture,
                 (cudaStream_t Stream, cudaGraph_t *Graph), (Stream, Graph),
                 Stream)

static cudaError_t cudaStreamIsCapturing_impl(cudaStream_t Stream,
                                              cudaStreamCaptureStatus *Status) {
  return rt::streamIsCapturing(Stream,
                               reinterpret_cast<rt::CaptureStatus *>(Status));
}
CUHIP_STREAM_API(cudaStreamIsCapturing,
                 (cudaStream_t Stream, enum cudaStreamCaptureStatus *Status),
                 (Stream, Status), Stream)

/// The CUDA 13 form (CUDA 12's _v3): with edge data, all default here.
static cudaError_t cudaStreamGetCaptureInfo_v3_impl(
    cudaStream_t Stream, cudaStreamCaptureStatus *Status,
    unsigned long long *Id, cudaGraph_t *Graph, const cudaGraphNode_t **Deps,
    const cudaGraphEdgeData **EdgeData, size_t *NumDeps) {
  uint64_t CaptureId = 0;
  size_t N = 0;
  rt::GraphNode *const *D = nullptr;
  cudaError_t E = rt::streamGetCaptureInfo(
      Stream, reinterpret_cast<rt::CaptureStatus *>(Status), &CaptureId,
      reinterpret_cast<rt::Graph **>(Graph), &D, &N);
  if (E != rt::cudaSuccess)
    return E;
  if (Id)
    *Id = CaptureId;
  if (Deps)
    *Deps = reinterpret_cast<const cudaGraphNode_t *>(D);
  if (NumDeps)
    *NumDeps = N;
  if (EdgeData) {
    // Valid, like Deps, until the next call on this thread.
    thread_local std::vector<cudaGraphEdgeData> Zeros;
    Zeros.assign(N, cudaGraphEdgeData{});
    *EdgeData = N ? Zeros.data() : nullptr;
  }
  return rt::cudaSuccess;
}

#if CUHIP_CUDART_MAJOR >= 13
static cudaError_t cudaStreamGetCaptureInfo_impl(
    cudaStream_t Stream, cudaStreamCaptureStatus *Status,
    unsigned long long *Id, cudaGraph_t *Graph, const cudaGraphNode_t **Deps,
    const cudaGraphEdgeData **EdgeData, size_t *NumDeps) {
  return cudaStreamGetCaptureInfo_v3_impl(Stream, Status, Id, Graph, Deps,
                                          EdgeData, NumDeps);
}
CUHIP_STREAM_API(cudaStreamGetCaptureInfo,
                 (cudaStream_t Stream, enum cudaStreamCaptureStatus *Status,
                  unsigned long long *Id, cudaGraph_t *Graph,
                  const cudaGraphNode_t **Deps,
                  const cudaGraphEdgeData **EdgeData, size_t *NumDeps),
                 (Stream, Status, Id, Graph, Deps, EdgeData, NumDeps), Stream)
#else
CUHIP_STREAM_API(cudaStreamGetCaptureInfo_v3,
                 (cudaStream_t Stream, enum cudaStreamCaptureStatus *Status,
                  unsigned long long *Id, cudaGraph_t *Graph,
                  const cudaGraphNode_t **Deps,
                  const cudaGraphEdgeData **EdgeData, size_t *NumDeps),
                 (Stream, Status, Id, Graph, Deps, EdgeData, NumDeps), Stream)

static cudaError_t cudaStreamGetCaptureInfo_v2_impl(
    cudaStream_t Stream, cudaStreamCaptureStatus *Status,
    unsigned long long *Id, cudaGraph_t *Graph, const cudaGraphNode_t **Deps,
    size_t *NumDeps) {
  return cudaStreamGetCaptureInfo_v3_impl(Stream, Status, Id, Graph, Deps,
                                          nullptr, NumDeps);
}
CUHIP_STREAM_API(cudaStreamGetCaptureInfo_v2,
                 (cudaStream_t Stream, enum cudaStreamCaptureStatus *Status,
                  unsigned long long *Id, cudaGraph_t *Graph,
                  const cudaGraphNode_t **Deps, size_t *NumDeps),
                 (Stream, Status, Id, Graph, Deps, NumDeps), Stream)

// CUDA 11.3's form, still exported by CUDA 12's libcudart.
static cudaError_t
cudaStreamGetCaptureInfo_impl(cudaStream_t Stream,
                              cudaStreamCaptureStatus *Status,
                              unsigned long long *Id) {
  return cudaStreamGetCaptureInfo_v3_impl(Stream, Status, Id, nullptr, nullptr,
                                          nullptr, nullptr);
}
CUHIP_STREAM_API(cudaStreamGetCaptureInfo,
                 (cudaStream_t Stream, enum cudaStreamCaptureStatus *Status,
                  unsigned long long *Id),
                 (Stream, Status, Id), Stream)
#endif

CUHIP_EXPORT cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *Mode) {
  return rt::threadExchangeCaptureMode(
      reinterpret_cast<rt::CaptureMode *>(Mode));
}

//===----------------------------------------------------------------------===//
// Building graphs
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *Graph, unsigned Flags) {
  return rt::graphCreate(reinterpret_cast<rt::Graph **>(Graph), Flags);
}

CUHIP_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t Graph) {
  return rt::graphDestroy(graphOf(Graph));
}

static cudaError_t addNode(cudaGraphNode_t *Node, cudaGraph_t Graph,
                           const cudaGraphNode_t *Deps, size_t NumDeps,
                           rt::NodeOp Op) {
  return rt::graphAddNode(reinterpret_cast<rt::GraphNode **>(Node),
                          graphOf(Graph), nodesOf(Deps), NumDeps,
                          std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddKernelNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaKernelNodeParams *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = kernelOp(Params, Op))
    return E;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *Node,
                                                  cudaGraph_t Graph,
                                                  const cudaGraphNode_t *Deps,
                                                  size_t NumDeps, void *Dst,
                                                  const void *Src, size_t Count,
                                                  enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  Op.K = rt::NodeOp::Memcpy;
  Op.Dst = Dst;
  Op.Src = Src;
  Op.Bytes = Count;
  Op.Copy = static_cast<rt::CopyKind>(Kind);
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemsetNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaMemsetParams *Params) {
  if (!Params)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::NodeOp Op;
  Op.K = rt::NodeOp::Memset;
  Op.Dst = Params->dst;
  Op.Pitch =
      Params->height > 1 ? Params->pitch : Params->width * Params->elementSize;
  Op.Value = Params->value;
  Op.ElementSize = Params->elementSize;
  Op.Width = Params->width;
  Op.Height = Params->height;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddHostNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaHostNodeParams *Params) {
  if (!Params)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::NodeOp Op;
  Op.K = rt::NodeOp::Host;
  Op.HostFn = Params->fn;
  Op.HostData = Params->userData;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Node,
                                               cudaGraph_t Graph,
                                               const cudaGraphNode_t *Deps,
                                               size_t NumDeps) {
  return addNode(Node, Graph, Deps, NumDeps, rt::NodeOp());
}

static cudaError_t addDependencies(const char *Fn, cudaGraph_t Graph,
                                   const cudaGraphNode_t *From,
                                   const cudaGraphNode_t *To,
                                   const cudaGraphEdgeData *Edges, size_t N) {
  if (!defaultEdges(Edges, N))
    return nonDefaultEdges(Fn);
  return rt::graphAddDependencies(graphOf(Graph), nodesOf(From), nodesOf(To),
                                  N);
}

#if CUHIP_CUDART_MAJOR >= 13
CUHIP_EXPORT cudaError_t cudaGraphAddDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t NumDependencies) {
  return addDependencies("cudaGraphAddDependencies", Graph, From, To, EdgeData,
                         NumDependencies);
}
#else
CUHIP_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t Graph,
                                                  const cudaGraphNode_t *From,
                                                  const cudaGraphNode_t *To,
                                                  size_t NumDependencies) {
  return addDependencies("cudaGraphAddDependencies", Graph, From, To, nullptr,
                         NumDependencies);
}
CUHIP_EXPORT cudaError_t cudaGraphAddDependencies_v2(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t NumDependencies) {
  return addDependencies("cudaGraphAddDependencies_v2", Graph, From, To,
                         EdgeData, NumDependencies);
}
#endif

CUHIP_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t Graph,
                                           cudaGraphNode_t *Nodes,
                                           size_t *NumNodes) {
  return rt::graphGetNodes(graphOf(Graph),
                           reinterpret_cast<rt::GraphNode **>(Nodes), NumNodes);
}

CUHIP_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *Clone,
                                        cudaGraph_t Original) {
  return rt::graphClone(reinterpret_cast<rt::Graph **>(Clone),
                        graphOf(Original));
}

CUHIP_EXPORT cudaError_t cudaGraphDebugDotPrint(cudaGraph_t Graph,
                                                const char *Path,
                                                unsigned int Flags) {
  return rt::graphDebugDotPrint(graphOf(Graph), Path, Flags);
}

//===----------------------------------------------------------------------===//
// Executable graphs
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Exec,
                                              cudaGraph_t Graph,
                                              unsigned long long Flags) {
  return rt::graphInstantiate(reinterpret_cast<rt::GraphExec **>(Exec),
                              graphOf(Graph), Flags);
}

CUHIP_EXPORT cudaError_t cudaGraphInstantiateWithFlags(
    cudaGraphExec_t *Exec, cudaGraph_t Graph, unsigned long long Flags) {
  return cudaGraphInstantiate(Exec, Graph, Flags);
}

CUHIP_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t Exec) {
  return rt::graphExecDestroy(execOf(Exec));
}

static cudaError_t cudaGraphLaunch_impl(cudaGraphExec_t Exec,
                                        cudaStream_t Stream) {
  return rt::graphLaunch(execOf(Exec), Stream);
}
CUHIP_STREAM_API(cudaGraphLaunch, (cudaGraphExec_t Exec, cudaStream_t Stream),
                 (Exec, Stream), Stream)

CUHIP_EXPORT cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaKernelNodeParams *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = kernelOp(Params, Op))
    return E;
  return rt::graphExecSetNodeOp(execOf(Exec), nodeOf(Node), std::move(Op));
}

CUHIP_EXPORT cudaError_t
cudaGraphExecUpdate(cudaGraphExec_t Exec, cudaGraph_t Graph,
                    cudaGraphExecUpdateResultInfo *ResultInfo) {
  int Result = cudaGraphExecUpdateSuccess;
  rt::GraphNode *ErrorNode = nullptr;
  cudaError_t E =
      rt::graphExecUpdate(execOf(Exec), graphOf(Graph), &Result, &ErrorNode);
  if (ResultInfo) {
    ResultInfo->result = static_cast<cudaGraphExecUpdateResult>(Result);
    ResultInfo->errorNode = reinterpret_cast<cudaGraphNode_t>(ErrorNode);
    ResultInfo->errorFromNode = nullptr;
  }
  return E;
}
