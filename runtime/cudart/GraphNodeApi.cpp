//===- GraphNodeApi.cpp - Graph nodes and their parameters ----------------===//
//
// The node families of the CUDA graph API: the node adders (kernel, copies
// in 1D, 3D and symbol form, memset, host, child graph, event record and
// wait, memory allocation and free, empty, and cudaGraphAddNode's tagged
// union), the parameter getters and setters of graph nodes, and the
// cudaGraphExec*SetParams family that changes an instance. Each converts
// CUDA's parameter structures to the runtime core's NodeOp (or back) and
// calls the core once; the core checks them as CUDA does. libcudart.so.12
// also exports cudaGraphAddNode_v2, which CUDA 12.3+ headers bind to.
//
//===----------------------------------------------------------------------===//
#include "CudaGraphTypes.h"
#include "Export.h"

#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Texture.h"

#include <cstring>
#include <mutex>

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
rt::Array *arrayOf(cudaArray_const_t A) {
  return reinterpret_cast<rt::Array *>(const_cast<cudaArray *>(A));
}

cudaError_t invalid() { return runtime().record(rt::cudaErrorInvalidValue); }

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

//===----------------------------------------------------------------------===//
// CUDA's parameter structures and NodeOp
//===----------------------------------------------------------------------===//

/// A kernel node's operation: the kernel and its arguments copied now.
cudaError_t kernelOp(const cudaKernelNodeParams *P, rt::NodeOp &Op) {
  if (!P)
    return invalid();
  if (P->kernelParams && P->extra)
    return invalid();
  rt::Kernel *K = kernelFor(P->func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  Op.K = rt::NodeOp::KernelLaunch;
  Op.FnHandle = P->func;
  Op.Grid = toDim3(P->gridDim);
  Op.Block = toDim3(P->blockDim);
  Op.SharedMem = P->sharedMemBytes;
  return P->extra ? rt::packKernelExtra(K, P->extra, Op)
                  : rt::packKernelArgs(K, P->kernelParams, Op);
}

void kernelParamsOf(cudaGraphNode_t Node, const rt::NodeOp &Op,
                    cudaKernelNodeParams *P) {
  P->func = const_cast<void *>(Op.FnHandle ? Op.FnHandle
                                           : static_cast<const void *>(Op.Fn));
  P->gridDim = {Op.Grid.X, Op.Grid.Y, Op.Grid.Z};
  P->blockDim = {Op.Block.X, Op.Block.Y, Op.Block.Z};
  P->sharedMemBytes = unsigned(Op.SharedMem);
  P->kernelParams = rt::graphKernelNodeArgs(nodeOf(Node));
  P->extra = nullptr;
}

/// cudaMemcpy3DParms as a copy node: extents and array positions are in
/// the array's elements, a pointer's position in bytes (as cudaMemcpy3D).
cudaError_t copyOp(const cudaMemcpy3DParms *P, rt::NodeOp &Op) {
  if (!P)
    return invalid();
  if ((P->srcArray && P->srcPtr.ptr) || (P->dstArray && P->dstPtr.ptr))
    return invalid();
  size_t SrcElem = P->srcArray ? rt::arrayElementBytes(arrayOf(P->srcArray))
                               : 0;
  size_t DstElem = P->dstArray ? rt::arrayElementBytes(arrayOf(P->dstArray))
                               : 0;
  if ((P->srcArray && !SrcElem) || (P->dstArray && !DstElem) ||
      (SrcElem && DstElem && SrcElem != DstElem))
    return invalid();
  size_t Elem = SrcElem ? SrcElem : DstElem ? DstElem : 1;
  Op.K = rt::NodeOp::Memcpy;
  Op.Copy = static_cast<rt::CopyKind>(P->kind);
  Op.Width = P->extent.width * Elem;
  Op.Height = P->extent.height;
  Op.Depth = P->extent.depth;
  auto end = [&](cudaArray_const_t A, const cudaPos &Pos,
                 const cudaPitchedPtr &Ptr, rt::CopyEnd &E) {
    E.A = arrayOf(A);
    E.X = A ? Pos.x * Elem : Pos.x;
    E.Y = Pos.y;
    E.Z = Pos.z;
    E.Rows = Ptr.ysize;
    E.XSize = Ptr.xsize;
  };
  end(P->dstArray, P->dstPos, P->dstPtr, Op.DstEnd);
  end(P->srcArray, P->srcPos, P->srcPtr, Op.SrcEnd);
  Op.Dst = P->dstPtr.ptr;
  Op.Pitch = P->dstPtr.pitch;
  Op.Src = P->srcPtr.ptr;
  Op.SrcPitch = P->srcPtr.pitch;
  return rt::cudaSuccess;
}

cudaError_t copyOp1D(void *Dst, const void *Src, size_t Count,
                     cudaMemcpyKind Kind, rt::NodeOp &Op) {
  Op.K = rt::NodeOp::Memcpy;
  Op.Dst = Dst;
  Op.Src = Src;
  Op.Bytes = Count;
  Op.Copy = static_cast<rt::CopyKind>(Kind);
  return rt::cudaSuccess;
}

/// A copy to or from the device variable whose host shadow is Symbol, as
/// cudaMemcpyToSymbol and cudaMemcpyFromSymbol take it.
cudaError_t symbolCopyOp(const void *Symbol, void *Linear, size_t Count,
                         size_t Offset, cudaMemcpyKind Kind, bool ToSymbol,
                         rt::NodeOp &Op) {
  bool Allowed = Kind == cudaMemcpyDeviceToDevice || Kind == cudaMemcpyDefault ||
                 Kind == (ToSymbol ? cudaMemcpyHostToDevice
                                   : cudaMemcpyDeviceToHost);
  if (!Allowed)
    return runtime().record(rt::cudaErrorInvalidMemcpyDirection);
  void *Addr;
  size_t Size;
  if (cudaError_t E = runtime().symbolAddress(Symbol, &Addr, &Size))
    return E;
  if (Offset > Size || Count > Size - Offset)
    return invalid();
  char *Var = static_cast<char *>(Addr) + Offset;
  return ToSymbol ? copyOp1D(Var, Linear, Count, Kind, Op)
                  : copyOp1D(Linear, Var, Count, Kind, Op);
}

void copyParamsOf(const rt::NodeOp &Op, cudaMemcpy3DParms *P) {
  std::memset(P, 0, sizeof(*P));
  P->kind = static_cast<cudaMemcpyKind>(Op.Copy);
  if (Op.Width == 0) {
    // A 1D copy is a single row, as cudaGraphAddMemcpyNode1D describes it.
    P->srcPtr = {const_cast<void *>(Op.Src), Op.Bytes, Op.Bytes, 1};
    P->dstPtr = {Op.Dst, Op.Bytes, Op.Bytes, 1};
    P->extent = {Op.Bytes, 1, 1};
    return;
  }
  size_t SrcElem = Op.SrcEnd.A ? rt::arrayElementBytes(Op.SrcEnd.A) : 0;
  size_t DstElem = Op.DstEnd.A ? rt::arrayElementBytes(Op.DstEnd.A) : 0;
  size_t Elem = SrcElem ? SrcElem : DstElem ? DstElem : 1;
  auto end = [&](const rt::CopyEnd &E, void *Ptr, size_t Pitch,
                 cudaArray_t &A, cudaPos &Pos, cudaPitchedPtr &PP) {
    A = reinterpret_cast<cudaArray_t>(E.A);
    Pos = {E.A ? E.X / Elem : E.X, E.Y, E.Z};
    PP = {Ptr, Pitch, E.XSize, E.Rows};
  };
  end(Op.SrcEnd, const_cast<void *>(Op.Src), Op.SrcPitch, P->srcArray,
      P->srcPos, P->srcPtr);
  end(Op.DstEnd, Op.Dst, Op.Pitch, P->dstArray, P->dstPos, P->dstPtr);
  P->extent = {Op.Width / Elem, Op.Height, Op.Depth};
}

cudaError_t memsetOp(const cudaMemsetParams *P, rt::NodeOp &Op) {
  if (!P)
    return invalid();
  Op.K = rt::NodeOp::Memset;
  Op.Dst = P->dst;
  Op.Pitch = P->pitch;
  Op.Value = P->value;
  Op.ElementSize = P->elementSize;
  Op.Width = P->width;
  Op.Height = P->height;
  return rt::cudaSuccess;
}

void memsetParamsOf(const rt::NodeOp &Op, cudaMemsetParams *P) {
  P->dst = Op.Dst;
  P->pitch = Op.Pitch;
  P->value = Op.Value;
  P->elementSize = Op.ElementSize;
  P->width = Op.Width;
  P->height = Op.Height;
}

cudaError_t hostOp(const cudaHostNodeParams *P, rt::NodeOp &Op) {
  if (!P)
    return invalid();
  Op.K = rt::NodeOp::Host;
  Op.HostFn = P->fn;
  Op.HostData = P->userData;
  return rt::cudaSuccess;
}

cudaError_t eventOp(cudaEvent_t Event, bool Record, rt::NodeOp &Op) {
  Op.K = Record ? rt::NodeOp::EventRecord : rt::NodeOp::EventWait;
  Op.Event = Event;
  return rt::cudaSuccess;
}

cudaError_t childOp(cudaGraph_t Child, bool Move, rt::NodeOp &Op) {
  Op.K = rt::NodeOp::ChildGraph;
  Op.Child = graphOf(Child);
  Op.MoveChild = Move;
  return rt::cudaSuccess;
}

/// cudaMemAllocNodeParams (and its V2 twin, laid out alike).
template <typename Params>
cudaError_t allocOp(const Params *P, rt::NodeOp &Op) {
  if (!P || (P->accessDescCount && !P->accessDescs))
    return invalid();
  Op.K = rt::NodeOp::MemAlloc;
  Op.Bytes = P->bytesize;
  const cudaMemPoolProps &Props = P->poolProps;
  Op.Pool.AllocType = Props.allocType;
  Op.Pool.HandleTypes = Props.handleTypes;
  Op.Pool.LocationType = Props.location.type;
  Op.Pool.LocationId = Props.location.id;
  Op.Pool.MaxSize = Props.maxSize;
  for (size_t I = 0; I < P->accessDescCount; ++I) {
    const cudaMemAccessDesc &D = P->accessDescs[I];
    Op.Access.push_back({D.location.type, D.location.id, D.flags});
  }
  return rt::cudaSuccess;
}

template <typename Params>
void allocParamsOf(const rt::NodeOp &Op, Params *P) {
  std::memset(P, 0, sizeof(*P));
  P->poolProps.allocType = static_cast<cudaMemAllocationType>(Op.Pool.AllocType);
  P->poolProps.handleTypes =
      static_cast<cudaMemAllocationHandleType>(Op.Pool.HandleTypes);
  P->poolProps.location.type =
      static_cast<cudaMemLocationType>(Op.Pool.LocationType);
  P->poolProps.location.id = Op.Pool.LocationId;
  P->poolProps.maxSize = Op.Pool.MaxSize;
  // rt::VirtualAccess has cudaMemAccessDesc's layout: three ints.
  static_assert(sizeof(rt::VirtualAccess) == sizeof(cudaMemAccessDesc));
  P->accessDescs = Op.Access.empty()
                       ? nullptr
                       : reinterpret_cast<const cudaMemAccessDesc *>(
                             Op.Access.data());
  P->accessDescCount = Op.Access.size();
  P->bytesize = Op.Bytes;
  P->dptr = Op.Dst;
}

cudaError_t notSupportedNode(const char *What) {
  static std::once_flag Once;
  std::call_once(Once, [What] {
    CUHIP_ERROR("graph %s nodes are not supported: cuhip has no external "
                "semaphores",
                What);
  });
  return runtime().record(rt::cudaErrorNotSupported);
}

/// cudaGraphNodeParams as a NodeOp. All bytes past the member the type
/// uses must be zero, as must the reserved ones.
cudaError_t nodeParamsOp(const cudaGraphNodeParams *P, rt::NodeOp &Op) {
  if (!P || P->reserved0[0] || P->reserved0[1] || P->reserved0[2] ||
      P->reserved2)
    return invalid();
  switch (P->type) {
  case cudaGraphNodeTypeKernel: {
    static_assert(sizeof(cudaKernelNodeParamsV2) ==
                  sizeof(cudaKernelNodeParams));
    cudaKernelNodeParams K;
    std::memcpy(&K, &P->kernel, sizeof(K));
    return kernelOp(&K, Op);
  }
  case cudaGraphNodeTypeMemcpy:
    if (P->memcpy.flags || P->memcpy.reserved[0] || P->memcpy.reserved[1] ||
        P->memcpy.reserved[2])
      return invalid();
    return copyOp(&P->memcpy.copyParams, Op);
  case cudaGraphNodeTypeMemset: {
    cudaMemsetParams M;
    std::memcpy(&M, &P->memset, sizeof(M));
    return memsetOp(&M, Op);
  }
  case cudaGraphNodeTypeHost: {
    cudaHostNodeParams H{P->host.fn, P->host.userData};
    return hostOp(&H, Op);
  }
  case cudaGraphNodeTypeGraph:
    if (P->graph.ownership != cudaGraphChildGraphOwnershipClone &&
        P->graph.ownership != cudaGraphChildGraphOwnershipMove)
      return invalid();
    return childOp(P->graph.graph,
                   P->graph.ownership == cudaGraphChildGraphOwnershipMove, Op);
  case cudaGraphNodeTypeEmpty:
    Op.K = rt::NodeOp::Empty;
    return rt::cudaSuccess;
  case cudaGraphNodeTypeWaitEvent:
    return eventOp(P->eventWait.event, false, Op);
  case cudaGraphNodeTypeEventRecord:
    return eventOp(P->eventRecord.event, true, Op);
  case cudaGraphNodeTypeMemAlloc:
    return allocOp(&P->alloc, Op);
  case cudaGraphNodeTypeMemFree:
    Op.K = rt::NodeOp::MemFree;
    Op.Dst = P->free.dptr;
    return rt::cudaSuccess;
  case cudaGraphNodeTypeExtSemaphoreSignal:
  case cudaGraphNodeTypeExtSemaphoreWait:
    return notSupportedNode("external semaphore");
  case cudaGraphNodeTypeConditional:
    Op.K = rt::NodeOp::Conditional;
    Op.CondHandle = P->conditional.handle;
    Op.CondType = P->conditional.type;
    Op.CondSize = P->conditional.size;
    return rt::cudaSuccess;
  default:
    return invalid();
  }
}

cudaError_t addNode(cudaGraphNode_t *Node, cudaGraph_t Graph,
                    const cudaGraphNode_t *Deps, size_t NumDeps,
                    rt::NodeOp Op) {
  return rt::graphAddNode(reinterpret_cast<rt::GraphNode **>(Node),
                          graphOf(Graph),
                          reinterpret_cast<rt::GraphNode *const *>(Deps),
                          NumDeps, std::move(Op));
}

/// The node's operation if it is a node of kind K; else the error a getter
/// or setter gives.
const rt::NodeOp *opOf(cudaGraphNode_t Node, rt::NodeOp::Kind K) {
  const rt::NodeOp *Op = rt::graphNodeOp(nodeOf(Node));
  if (!Op || Op->K != K) {
    invalid();
    return nullptr;
  }
  return Op;
}

cudaError_t setNode(cudaGraphNode_t Node, cudaError_t Converted,
                    rt::NodeOp &Op) {
  if (Converted)
    return Converted;
  return rt::graphNodeSetOp(nodeOf(Node), std::move(Op));
}

cudaError_t setExecNode(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                        cudaError_t Converted, rt::NodeOp &Op) {
  if (Converted)
    return Converted;
  return rt::graphExecSetNodeOp(execOf(Exec), nodeOf(Node), std::move(Op));
}

cudaError_t addGenericNode(cudaGraphNode_t *Node, cudaGraph_t Graph,
                           const cudaGraphNode_t *Deps,
                           const cudaGraphEdgeData *Edges, size_t NumDeps,
                           cudaGraphNodeParams *P) {
  if (!defaultEdges(Edges, NumDeps)) {
    CUHIP_ERROR("cudaGraphAddNode: edges with non-default edge data "
                "(programmatic dependencies) are not supported");
    return runtime().record(rt::cudaErrorNotSupported);
  }
  rt::NodeOp Op;
  if (cudaError_t E = nodeParamsOp(P, Op))
    return E;
  if (cudaError_t E = addNode(Node, Graph, Deps, NumDeps, std::move(Op)))
    return E;
  // The allocation's address is an out parameter, and so are a
  // conditional node's bodies (an array the node owns).
  if (P->type == cudaGraphNodeTypeMemAlloc)
    P->alloc.dptr = rt::graphNodeOp(nodeOf(*Node))->Dst;
  if (P->type == cudaGraphNodeTypeConditional)
    P->conditional.phGraph_out = reinterpret_cast<cudaGraph_t *>(
        const_cast<rt::Graph **>(rt::graphNodeOp(nodeOf(*Node))->Bodies.data()));
  return rt::cudaSuccess;
}

} // namespace

//===----------------------------------------------------------------------===//
// Adding nodes
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGraphAddKernelNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaKernelNodeParams *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = kernelOp(Params, Op))
    return E;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemcpyNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaMemcpy3DParms *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = copyOp(Params, Op))
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
  copyOp1D(Dst, Src, Count, Kind, Op);
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const void *Symbol, const void *Src, size_t Count,
    size_t Offset, enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  if (cudaError_t E = symbolCopyOp(Symbol, const_cast<void *>(Src), Count,
                                   Offset, Kind, true, Op))
    return E;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, void *Dst, const void *Symbol, size_t Count, size_t Offset,
    enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  if (cudaError_t E =
          symbolCopyOp(Symbol, Dst, Count, Offset, Kind, false, Op))
    return E;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemsetNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaMemsetParams *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = memsetOp(Params, Op))
    return E;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddHostNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaHostNodeParams *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = hostOp(Params, Op))
    return E;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *Node,
                                                    cudaGraph_t Graph,
                                                    const cudaGraphNode_t *Deps,
                                                    size_t NumDeps,
                                                    cudaGraph_t ChildGraph) {
  rt::NodeOp Op;
  childOp(ChildGraph, false, Op);
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Node,
                                               cudaGraph_t Graph,
                                               const cudaGraphNode_t *Deps,
                                               size_t NumDeps) {
  return addNode(Node, Graph, Deps, NumDeps, rt::NodeOp());
}

CUHIP_EXPORT cudaError_t cudaGraphAddEventRecordNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, cudaEvent_t Event) {
  rt::NodeOp Op;
  eventOp(Event, true, Op);
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *Node,
                                                   cudaGraph_t Graph,
                                                   const cudaGraphNode_t *Deps,
                                                   size_t NumDeps,
                                                   cudaEvent_t Event) {
  rt::NodeOp Op;
  eventOp(Event, false, Op);
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemAllocNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, struct cudaMemAllocNodeParams *Params) {
  rt::NodeOp Op;
  if (cudaError_t E = allocOp(Params, Op))
    return E;
  if (cudaError_t E = addNode(Node, Graph, Deps, NumDeps, std::move(Op)))
    return E;
  Params->dptr = rt::graphNodeOp(nodeOf(*Node))->Dst;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *Node,
                                                 cudaGraph_t Graph,
                                                 const cudaGraphNode_t *Deps,
                                                 size_t NumDeps, void *DevPtr) {
  rt::NodeOp Op;
  Op.K = rt::NodeOp::MemFree;
  Op.Dst = DevPtr;
  return addNode(Node, Graph, Deps, NumDeps, std::move(Op));
}

#if CUHIP_CUDART_MAJOR >= 13
CUHIP_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *Node,
                                          cudaGraph_t Graph,
                                          const cudaGraphNode_t *Deps,
                                          const cudaGraphEdgeData *Edges,
                                          size_t NumDeps,
                                          struct cudaGraphNodeParams *Params) {
  return addGenericNode(Node, Graph, Deps, Edges, NumDeps, Params);
}
#else
CUHIP_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *Node,
                                          cudaGraph_t Graph,
                                          const cudaGraphNode_t *Deps,
                                          size_t NumDeps,
                                          struct cudaGraphNodeParams *Params) {
  return addGenericNode(Node, Graph, Deps, nullptr, NumDeps, Params);
}
CUHIP_EXPORT cudaError_t cudaGraphAddNode_v2(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    const cudaGraphEdgeData *Edges, size_t NumDeps,
    struct cudaGraphNodeParams *Params) {
  return addGenericNode(Node, Graph, Deps, Edges, NumDeps, Params);
}
#endif

//===----------------------------------------------------------------------===//
// Node parameters
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t Node,
                                              enum cudaGraphNodeType *Type) {
  rt::NodeOp::Kind K;
  if (cudaError_t E = rt::graphNodeGetType(nodeOf(Node), &K))
    return E;
  *Type = static_cast<cudaGraphNodeType>(K);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphKernelNodeGetParams(cudaGraphNode_t Node,
                             struct cudaKernelNodeParams *Params) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::KernelLaunch);
  if (!Op || !Params)
    return invalid();
  kernelParamsOf(Node, *Op, Params);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphKernelNodeSetParams(cudaGraphNode_t Node,
                             const struct cudaKernelNodeParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = kernelOp(Params, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphMemcpyNodeGetParams(cudaGraphNode_t Node,
                             struct cudaMemcpy3DParms *Params) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::Memcpy);
  if (!Op || !Params)
    return invalid();
  copyParamsOf(*Op, Params);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphMemcpyNodeSetParams(cudaGraphNode_t Node,
                             const struct cudaMemcpy3DParms *Params) {
  rt::NodeOp Op;
  cudaError_t E = copyOp(Params, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(
    cudaGraphNode_t Node, void *Dst, const void *Src, size_t Count,
    enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  cudaError_t E = copyOp1D(Dst, Src, Count, Kind, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(
    cudaGraphNode_t Node, const void *Symbol, const void *Src, size_t Count,
    size_t Offset, enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  cudaError_t E = symbolCopyOp(Symbol, const_cast<void *>(Src), Count, Offset,
                               Kind, true, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(
    cudaGraphNode_t Node, void *Dst, const void *Symbol, size_t Count,
    size_t Offset, enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  cudaError_t E = symbolCopyOp(Symbol, Dst, Count, Offset, Kind, false, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphMemsetNodeGetParams(cudaGraphNode_t Node,
                             struct cudaMemsetParams *Params) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::Memset);
  if (!Op || !Params)
    return invalid();
  memsetParamsOf(*Op, Params);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphMemsetNodeSetParams(cudaGraphNode_t Node,
                             const struct cudaMemsetParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = memsetOp(Params, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphHostNodeGetParams(cudaGraphNode_t Node,
                           struct cudaHostNodeParams *Params) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::Host);
  if (!Op || !Params)
    return invalid();
  Params->fn = Op->HostFn;
  Params->userData = Op->HostData;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphHostNodeSetParams(cudaGraphNode_t Node,
                           const struct cudaHostNodeParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = hostOp(Params, Op);
  return setNode(Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t Node,
                                                         cudaGraph_t *Graph) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::ChildGraph);
  if (!Op || !Graph)
    return invalid();
  *Graph = reinterpret_cast<cudaGraph_t>(Op->Child);
  return rt::cudaSuccess;
}

#define CUHIP_EVENT_NODE(Name, Kind)                                           \
  CUHIP_EXPORT cudaError_t Name##GetEvent(cudaGraphNode_t Node,                \
                                          cudaEvent_t *Event) {                \
    const rt::NodeOp *Op = opOf(Node, Kind);                                   \
    if (!Op || !Event)                                                         \
      return invalid();                                                        \
    *Event = static_cast<cudaEvent_t>(Op->Event);                              \
    return rt::cudaSuccess;                                                    \
  }                                                                            \
  CUHIP_EXPORT cudaError_t Name##SetEvent(cudaGraphNode_t Node,                \
                                          cudaEvent_t Event) {                 \
    rt::NodeOp Op;                                                             \
    cudaError_t E = eventOp(Event, Kind == rt::NodeOp::EventRecord, Op);       \
    return setNode(Node, E, Op);                                               \
  }
CUHIP_EVENT_NODE(cudaGraphEventRecordNode, rt::NodeOp::EventRecord)
CUHIP_EVENT_NODE(cudaGraphEventWaitNode, rt::NodeOp::EventWait)
#undef CUHIP_EVENT_NODE

CUHIP_EXPORT cudaError_t
cudaGraphMemAllocNodeGetParams(cudaGraphNode_t Node,
                               struct cudaMemAllocNodeParams *Params) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::MemAlloc);
  if (!Op || !Params)
    return invalid();
  allocParamsOf(*Op, Params);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t Node,
                                                       void *DevPtr) {
  const rt::NodeOp *Op = opOf(Node, rt::NodeOp::MemFree);
  if (!Op || !DevPtr)
    return invalid();
  *static_cast<void **>(DevPtr) = Op->Dst;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaGraphNodeSetParams(cudaGraphNode_t Node,
                       struct cudaGraphNodeParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = nodeParamsOp(Params, Op);
  return setNode(Node, E, Op);
}

// cudaLaunchAttributeValue is 64 bytes, as the core's attributes.
static_assert(sizeof(cudaLaunchAttributeValue) == rt::NodeOp::AttrBytes);

CUHIP_EXPORT cudaError_t
cudaGraphKernelNodeSetAttribute(cudaGraphNode_t Node, cudaLaunchAttributeID Attr,
                                const cudaLaunchAttributeValue *Value) {
  return rt::graphKernelNodeSetAttribute(nodeOf(Node), Attr, Value);
}

CUHIP_EXPORT cudaError_t
cudaGraphKernelNodeGetAttribute(cudaGraphNode_t Node, cudaLaunchAttributeID Attr,
                                cudaLaunchAttributeValue *Value) {
  return rt::graphKernelNodeGetAttribute(nodeOf(Node), Attr, Value);
}

CUHIP_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t Dst,
                                                           cudaGraphNode_t Src) {
  return rt::graphKernelNodeCopyAttributes(nodeOf(Dst), nodeOf(Src));
}

//===----------------------------------------------------------------------===//
// Parameters of instances
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaKernelNodeParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = kernelOp(Params, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaMemcpy3DParms *Params) {
  rt::NodeOp Op;
  cudaError_t E = copyOp(Params, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Src,
    size_t Count, enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  cudaError_t E = copyOp1D(Dst, Src, Count, Kind, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const void *Symbol,
    const void *Src, size_t Count, size_t Offset, enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  cudaError_t E = symbolCopyOp(Symbol, const_cast<void *>(Src), Count, Offset,
                               Kind, true, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Symbol,
    size_t Count, size_t Offset, enum cudaMemcpyKind Kind) {
  rt::NodeOp Op;
  cudaError_t E = symbolCopyOp(Symbol, Dst, Count, Offset, Kind, false, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaMemsetParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = memsetOp(Params, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphExecHostNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                               const struct cudaHostNodeParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = hostOp(Params, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphExecChildGraphNodeSetParams(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaGraph_t ChildGraph) {
  rt::NodeOp Op;
  cudaError_t E = childOp(ChildGraph, false, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphExecEventRecordNodeSetEvent(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaEvent_t Event) {
  rt::NodeOp Op;
  cudaError_t E = eventOp(Event, true, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphExecEventWaitNodeSetEvent(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, cudaEvent_t Event) {
  rt::NodeOp Op;
  cudaError_t E = eventOp(Event, false, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t
cudaGraphExecNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                           struct cudaGraphNodeParams *Params) {
  rt::NodeOp Op;
  cudaError_t E = nodeParamsOp(Params, Op);
  return setExecNode(Exec, Node, E, Op);
}

CUHIP_EXPORT cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t Exec,
                                                 cudaGraphNode_t Node,
                                                 unsigned int IsEnabled) {
  return rt::graphNodeSetEnabled(execOf(Exec), nodeOf(Node), IsEnabled != 0);
}

CUHIP_EXPORT cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t Exec,
                                                 cudaGraphNode_t Node,
                                                 unsigned int *IsEnabled) {
  bool On = false;
  if (!IsEnabled)
    return invalid();
  if (cudaError_t E = rt::graphNodeGetEnabled(execOf(Exec), nodeOf(Node), &On))
    return E;
  *IsEnabled = On;
  return rt::cudaSuccess;
}
