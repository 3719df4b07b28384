//===- GraphApi.cpp - Stream capture and CUDA graphs ----------------------===//
//
// The graph and stream-capture functions of the CUDA runtime API other than
// the node families (GraphNodeApi.cpp): capture on streams (with the `_ptsz`
// entry points of `--default-stream per-thread` programs), graphs and their
// topology, cloning, instantiation, launch and update, user objects and
// graph memory. Each converts its arguments and calls the runtime core
// once. libcudart.so.12 also exports the names CUDA 12 headers bind to
// (cudaStreamGetCaptureInfo_v2/_v3, the topology functions without edge
// data and their _v2 forms with it).
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

cudaError_t invalid() { return runtime().record(rt::cudaErrorInvalidValue); }

/// Edge data must be all default for the topology queries' answers to be
/// complete without it.
cudaError_t fillDefaultEdges(cudaGraphEdgeData *Edges, size_t N) {
  if (Edges)
    for (size_t I = 0; I < N; ++I)
      Edges[I] = cudaGraphEdgeData{};
  return rt::cudaSuccess;
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

static cudaError_t cudaStreamBeginCaptureToGraph_impl(
    cudaStream_t Stream, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    const cudaGraphEdgeData *Edges, size_t NumDeps,
    cudaStreamCaptureMode Mode) {
  if (!defaultEdges(Edges, NumDeps))
    return nonDefaultEdges("cudaStreamBeginCaptureToGraph");
  return rt::streamBeginCaptureToGraph(Stream, graphOf(Graph), nodesOf(Deps),
                                       NumDeps,
                                       static_cast<rt::CaptureMode>(Mode));
}
CUHIP_STREAM_API(cudaStreamBeginCaptureToGraph,
                 (cudaStream_t Stream, cudaGraph_t Graph,
                  const cudaGraphNode_t *Deps, const cudaGraphEdgeData *Edges,
                  size_t NumDeps, enum cudaStreamCaptureMode Mode),
                 (Stream, Graph, Deps, Edges, NumDeps, Mode), Stream)

static cudaError_t updateCaptureDependencies(cudaStream_t Stream,
                                             cudaGraphNode_t *Deps,
                                             const cudaGraphEdgeData *Edges,
                                             size_t NumDeps, unsigned Flags) {
  if (!defaultEdges(Edges, NumDeps))
    return nonDefaultEdges("cudaStreamUpdateCaptureDependencies");
  return rt::streamUpdateCaptureDependencies(Stream, nodesOf(Deps), NumDeps,
                                             Flags);
}

#if CUHIP_CUDART_MAJOR >= 13
static cudaError_t cudaStreamUpdateCaptureDependencies_impl(
    cudaStream_t Stream, cudaGraphNode_t *Deps, const cudaGraphEdgeData *Edges,
    size_t NumDeps, unsigned int Flags) {
  return updateCaptureDependencies(Stream, Deps, Edges, NumDeps, Flags);
}
CUHIP_STREAM_API(cudaStreamUpdateCaptureDependencies,
                 (cudaStream_t Stream, cudaGraphNode_t *Deps,
                  const cudaGraphEdgeData *Edges, size_t NumDeps,
                  unsigned int Flags),
                 (Stream, Deps, Edges, NumDeps, Flags), Stream)
#else
static cudaError_t
cudaStreamUpdateCaptureDependencies_impl(cudaStream_t Stream,
                                         cudaGraphNode_t *Deps, size_t NumDeps,
                                         unsigned int Flags) {
  return updateCaptureDependencies(Stream, Deps, nullptr, NumDeps, Flags);
}
CUHIP_STREAM_API(cudaStreamUpdateCaptureDependencies,
                 (cudaStream_t Stream, cudaGraphNode_t *Deps, size_t NumDeps,
                  unsigned int Flags),
                 (Stream, Deps, NumDeps, Flags), Stream)
static cudaError_t cudaStreamUpdateCaptureDependencies_v2_impl(
    cudaStream_t Stream, cudaGraphNode_t *Deps, const cudaGraphEdgeData *Edges,
    size_t NumDeps, unsigned int Flags) {
  return updateCaptureDependencies(Stream, Deps, Edges, NumDeps, Flags);
}
CUHIP_STREAM_API(cudaStreamUpdateCaptureDependencies_v2,
                 (cudaStream_t Stream, cudaGraphNode_t *Deps,
                  const cudaGraphEdgeData *Edges, size_t NumDeps,
                  unsigned int Flags),
                 (Stream, Deps, Edges, NumDeps, Flags), Stream)
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

CUHIP_EXPORT cudaError_t
cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *Handle,
                                 cudaGraph_t Graph, unsigned DefaultLaunchValue,
                                 unsigned Flags) {
  static_assert(sizeof(cudaGraphConditionalHandle) == sizeof(uint64_t));
  return rt::graphConditionalHandleCreate(
      reinterpret_cast<uint64_t *>(Handle), graphOf(Graph), DefaultLaunchValue,
      Flags);
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

CUHIP_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t Graph,
                                               cudaGraphNode_t *Nodes,
                                               size_t *NumNodes) {
  return rt::graphGetRootNodes(
      graphOf(Graph), reinterpret_cast<rt::GraphNode **>(Nodes), NumNodes);
}

// Every edge has the default edge data: the queries write zeros for it.
static cudaError_t getEdges(cudaGraph_t Graph, cudaGraphNode_t *From,
                            cudaGraphNode_t *To, cudaGraphEdgeData *Edges,
                            size_t *Num) {
  if (Edges && (!From || !To))
    return invalid();
  if (cudaError_t E = rt::graphGetEdges(
          graphOf(Graph), reinterpret_cast<rt::GraphNode **>(From),
          reinterpret_cast<rt::GraphNode **>(To), Num))
    return E;
  return fillDefaultEdges(From ? Edges : nullptr, *Num);
}

static cudaError_t getDependencies(cudaGraphNode_t Node, cudaGraphNode_t *Out,
                                   cudaGraphEdgeData *Edges, size_t *Num,
                                   bool Dependents) {
  if (Edges && !Out)
    return invalid();
  auto **Nodes = reinterpret_cast<rt::GraphNode **>(Out);
  if (cudaError_t E =
          Dependents ? rt::graphNodeGetDependentNodes(nodeOf(Node), Nodes, Num)
                     : rt::graphNodeGetDependencies(nodeOf(Node), Nodes, Num))
    return E;
  return fillDefaultEdges(Out ? Edges : nullptr, *Num);
}

static cudaError_t removeDependencies(cudaGraph_t Graph,
                                      const cudaGraphNode_t *From,
                                      const cudaGraphNode_t *To,
                                      const cudaGraphEdgeData *Edges,
                                      size_t N) {
  // No edge has other data, so none with other data exists to remove.
  if (!defaultEdges(Edges, N))
    return invalid();
  return rt::graphRemoveDependencies(graphOf(Graph), nodesOf(From),
                                     nodesOf(To), N);
}

#if CUHIP_CUDART_MAJOR >= 13
CUHIP_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t Graph,
                                           cudaGraphNode_t *From,
                                           cudaGraphNode_t *To,
                                           cudaGraphEdgeData *EdgeData,
                                           size_t *NumEdges) {
  return getEdges(Graph, From, To, EdgeData, NumEdges);
}
CUHIP_EXPORT cudaError_t cudaGraphNodeGetDependencies(
    cudaGraphNode_t Node, cudaGraphNode_t *Deps, cudaGraphEdgeData *EdgeData,
    size_t *NumDeps) {
  return getDependencies(Node, Deps, EdgeData, NumDeps, false);
}
CUHIP_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t Node, cudaGraphNode_t *Dependents,
    cudaGraphEdgeData *EdgeData, size_t *NumDependents) {
  return getDependencies(Node, Dependents, EdgeData, NumDependents, true);
}
CUHIP_EXPORT cudaError_t cudaGraphRemoveDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t NumDependencies) {
  return removeDependencies(Graph, From, To,
                            EdgeData, NumDependencies);
}
#else
CUHIP_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t Graph,
                                           cudaGraphNode_t *From,
                                           cudaGraphNode_t *To,
                                           size_t *NumEdges) {
  return getEdges(Graph, From, To, nullptr, NumEdges);
}
CUHIP_EXPORT cudaError_t cudaGraphGetEdges_v2(cudaGraph_t Graph,
                                              cudaGraphNode_t *From,
                                              cudaGraphNode_t *To,
                                              cudaGraphEdgeData *EdgeData,
                                              size_t *NumEdges) {
  return getEdges(Graph, From, To, EdgeData, NumEdges);
}
CUHIP_EXPORT cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t Node,
                                                      cudaGraphNode_t *Deps,
                                                      size_t *NumDeps) {
  return getDependencies(Node, Deps, nullptr, NumDeps, false);
}
CUHIP_EXPORT cudaError_t cudaGraphNodeGetDependencies_v2(
    cudaGraphNode_t Node, cudaGraphNode_t *Deps, cudaGraphEdgeData *EdgeData,
    size_t *NumDeps) {
  return getDependencies(Node, Deps, EdgeData, NumDeps, false);
}
CUHIP_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t Node, cudaGraphNode_t *Dependents, size_t *NumDependents) {
  return getDependencies(Node, Dependents, nullptr, NumDependents, true);
}
CUHIP_EXPORT cudaError_t cudaGraphNodeGetDependentNodes_v2(
    cudaGraphNode_t Node, cudaGraphNode_t *Dependents,
    cudaGraphEdgeData *EdgeData, size_t *NumDependents) {
  return getDependencies(Node, Dependents, EdgeData, NumDependents, true);
}
CUHIP_EXPORT cudaError_t cudaGraphRemoveDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    size_t NumDependencies) {
  return removeDependencies(Graph, From, To,
                            nullptr, NumDependencies);
}
CUHIP_EXPORT cudaError_t cudaGraphRemoveDependencies_v2(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t NumDependencies) {
  return removeDependencies(Graph, From, To,
                            EdgeData, NumDependencies);
}
#endif

CUHIP_EXPORT cudaError_t cudaGraphDestroyNode(cudaGraphNode_t Node) {
  return rt::graphDestroyNode(nodeOf(Node));
}

CUHIP_EXPORT cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *Node,
                                                  cudaGraphNode_t Original,
                                                  cudaGraph_t Clone) {
  return rt::graphNodeFindInClone(reinterpret_cast<rt::GraphNode **>(Node),
                                  nodeOf(Original), graphOf(Clone));
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

static cudaError_t instantiateWithParams(cudaGraphExec_t *Exec,
                                         cudaGraph_t Graph,
                                         cudaGraphInstantiateParams *Params,
                                         bool PerThread) {
  if (!Params)
    return invalid();
  rt::GraphNode *ErrorNode = nullptr;
  cudaError_t E = rt::graphInstantiate(reinterpret_cast<rt::GraphExec **>(Exec),
                                       graphOf(Graph), Params->flags,
                                       &ErrorNode);
  Params->errNode_out = reinterpret_cast<cudaGraphNode_t>(ErrorNode);
  if (E) {
    Params->result_out = ErrorNode ? cudaGraphInstantiateInvalidStructure
                                   : cudaGraphInstantiateError;
    return E;
  }
  Params->result_out = cudaGraphInstantiateSuccess;
  // cudaGraphInstantiateFlagUpload: uploaded on the stream given.
  if (Params->flags & cudaGraphInstantiateFlagUpload) {
    cudaStream_t S = PerThread ? perThreadStream(Params->uploadStream)
                               : Params->uploadStream;
    if (cudaError_t U = rt::graphUpload(execOf(*Exec), S)) {
      rt::graphExecDestroy(execOf(*Exec));
      *Exec = nullptr;
      Params->result_out = cudaGraphInstantiateError;
      return U;
    }
  }
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphInstantiateWithParams(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                               cudaGraphInstantiateParams *Params) {
  return instantiateWithParams(Exec, Graph, Params, false);
}

CUHIP_EXPORT cudaError_t
cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                    cudaGraphInstantiateParams *Params) {
  return instantiateWithParams(Exec, Graph, Params, true);
}

CUHIP_EXPORT cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t Exec,
                                               unsigned long long *Flags) {
  return rt::graphExecGetFlags(execOf(Exec), Flags);
}

static cudaError_t cudaGraphUpload_impl(cudaGraphExec_t Exec,
                                        cudaStream_t Stream) {
  return rt::graphUpload(execOf(Exec), Stream);
}
CUHIP_STREAM_API(cudaGraphUpload, (cudaGraphExec_t Exec, cudaStream_t Stream),
                 (Exec, Stream), Stream)

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
cudaGraphExecUpdate(cudaGraphExec_t Exec, cudaGraph_t Graph,
                    cudaGraphExecUpdateResultInfo *ResultInfo) {
  int Result = cudaGraphExecUpdateSuccess;
  rt::GraphNode *ErrorNode = nullptr, *ErrorFrom = nullptr;
  cudaError_t E = rt::graphExecUpdate(execOf(Exec), graphOf(Graph), &Result,
                                      &ErrorNode, &ErrorFrom);
  if (ResultInfo) {
    ResultInfo->result = static_cast<cudaGraphExecUpdateResult>(Result);
    ResultInfo->errorNode = reinterpret_cast<cudaGraphNode_t>(ErrorNode);
    ResultInfo->errorFromNode = reinterpret_cast<cudaGraphNode_t>(ErrorFrom);
  }
  return E;
}

//===----------------------------------------------------------------------===//
// User objects
//===----------------------------------------------------------------------===//

static rt::UserObject *userObjectOf(cudaUserObject_t O) {
  return reinterpret_cast<rt::UserObject *>(O);
}

CUHIP_EXPORT cudaError_t cudaUserObjectCreate(cudaUserObject_t *Object,
                                              void *Ptr, cudaHostFn_t Destroy,
                                              unsigned int InitialRefcount,
                                              unsigned int Flags) {
  return rt::userObjectCreate(reinterpret_cast<rt::UserObject **>(Object), Ptr,
                              Destroy, InitialRefcount, Flags);
}

CUHIP_EXPORT cudaError_t cudaUserObjectRetain(cudaUserObject_t Object,
                                              unsigned int Count) {
  return rt::userObjectRetain(userObjectOf(Object), Count);
}

CUHIP_EXPORT cudaError_t cudaUserObjectRelease(cudaUserObject_t Object,
                                               unsigned int Count) {
  return rt::userObjectRelease(userObjectOf(Object), Count);
}

CUHIP_EXPORT cudaError_t cudaGraphRetainUserObject(cudaGraph_t Graph,
                                                   cudaUserObject_t Object,
                                                   unsigned int Count,
                                                   unsigned int Flags) {
  return rt::graphRetainUserObject(graphOf(Graph), userObjectOf(Object), Count,
                                   Flags);
}

CUHIP_EXPORT cudaError_t cudaGraphReleaseUserObject(cudaGraph_t Graph,
                                                    cudaUserObject_t Object,
                                                    unsigned int Count) {
  return rt::graphReleaseUserObject(graphOf(Graph), userObjectOf(Object),
                                    Count);
}

//===----------------------------------------------------------------------===//
// Graph memory
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t
cudaDeviceGetGraphMemAttribute(int Device, enum cudaGraphMemAttributeType Attr,
                               void *Value) {
  return rt::deviceGetGraphMemAttribute(Device, Attr,
                                        static_cast<uint64_t *>(Value));
}

CUHIP_EXPORT cudaError_t
cudaDeviceSetGraphMemAttribute(int Device, enum cudaGraphMemAttributeType Attr,
                               void *Value) {
  return rt::deviceSetGraphMemAttribute(Device, Attr,
                                        static_cast<uint64_t *>(Value));
}

CUHIP_EXPORT cudaError_t cudaDeviceGraphMemTrim(int Device) {
  return rt::deviceGraphMemTrim(Device);
}
