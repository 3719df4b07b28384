//===- DriverGraph.cpp - Graphs and stream capture in the driver API ------===//
//
// cuGraph*, cuStreamBeginCapture and the rest of the capture family,
// cuGraphInstantiate*, cuGraphLaunch, cuGraphExec* and cuUserObject*, over
// the runtime core's graphs (cuhip/runtime/Graph.h) that libcudart uses too:
// a CUgraph is the runtime's cudaGraph_t, so programs built with NVIDIA's
// static runtime, which reaches graphs only through these functions, get the
// same graphs as programs that import libcudart. Each function converts the
// driver's parameter structures to the core's NodeOp (or back) and calls the
// core once. Older entry points that cuda.h now maps to a _v2 name keep
// their old parameter lists (CUDA_KERNEL_NODE_PARAMS_v1, the four-argument
// cuGraphGetEdges, cuGraphExecUpdate with an error node and result, ...).
// The _ptsz forms mean the per-thread default stream by 0.
//
//===----------------------------------------------------------------------===//
#include "CudaDriverGraphTypes.h"
#include "DriverExport.h"

#include "cuhip/runtime/Graph.h"

#include <cstring>
#include <mutex>
#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {

rt::Graph *graphOf(CUgraph G) { return reinterpret_cast<rt::Graph *>(G); }
rt::GraphNode *nodeOf(CUgraphNode N) {
  return reinterpret_cast<rt::GraphNode *>(N);
}
rt::GraphNode *const *nodesOf(const CUgraphNode *N) {
  return reinterpret_cast<rt::GraphNode *const *>(N);
}
rt::GraphExec *execOf(CUgraphExec E) {
  return reinterpret_cast<rt::GraphExec *>(E);
}
rt::Array *arrayOf(CUarray A) { return reinterpret_cast<rt::Array *>(A); }

/// Edge data other than the default asks for programmatic dependencies,
/// which cuhip does not have.
bool defaultEdges(const CUgraphEdgeData *Edges, size_t N) {
  if (!Edges)
    return true;
  for (size_t I = 0; I < N; ++I) {
    const unsigned char *B = reinterpret_cast<const unsigned char *>(&Edges[I]);
    for (size_t J = 0; J < sizeof(CUgraphEdgeData); ++J)
      if (B[J])
        return false;
  }
  return true;
}

void fillDefaultEdges(CUgraphEdgeData *Edges, size_t N) {
  if (Edges)
    for (size_t I = 0; I < N; ++I)
      Edges[I] = CUgraphEdgeData{};
}

//===----------------------------------------------------------------------===//
// The driver's parameter structures and NodeOp
//===----------------------------------------------------------------------===//

/// A kernel node from any of the CUDA_KERNEL_NODE_PARAMS forms: the
/// function is Func, or Kern where Func is null (v2 and v3).
CUresult kernelOp(CUfunction Func, CUkernel Kern, unsigned GX, unsigned GY,
                  unsigned GZ, unsigned BX, unsigned BY, unsigned BZ,
                  unsigned Shared, void **Params, void **Extra,
                  rt::NodeOp &Op) {
  const void *Handle = Func ? static_cast<const void *>(Func)
                            : static_cast<const void *>(Kern);
  if (!Handle || !runtime().isKernelHandle(Handle) || (Params && Extra))
    return CUDA_ERROR_INVALID_VALUE;
  auto *K = reinterpret_cast<rt::Kernel *>(const_cast<void *>(Handle));
  Op.K = rt::NodeOp::KernelLaunch;
  Op.FnHandle = Handle;
  Op.Grid = {GX, GY, GZ};
  Op.Block = {BX, BY, BZ};
  Op.SharedMem = Shared;
  return toCU(Extra ? rt::packKernelExtra(K, Extra, Op)
                    : rt::packKernelArgs(K, Params, Op));
}

template <typename Params> CUresult kernelOpV1(const Params *P, rt::NodeOp &Op) {
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  return kernelOp(P->func, nullptr, P->gridDimX, P->gridDimY, P->gridDimZ,
                  P->blockDimX, P->blockDimY, P->blockDimZ, P->sharedMemBytes,
                  P->kernelParams, P->extra, Op);
}

template <typename Params> CUresult kernelOpV2(const Params *P, rt::NodeOp &Op) {
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  return kernelOp(P->func, P->kern, P->gridDimX, P->gridDimY, P->gridDimZ,
                  P->blockDimX, P->blockDimY, P->blockDimZ, P->sharedMemBytes,
                  P->kernelParams, P->extra, Op);
}

/// The getters' form: the function (a CUfunction and a CUkernel are the
/// same handle here, so both fields name it), the dimensions, and argument
/// pointers into the node's own copy of the arguments.
template <typename Params>
void kernelParamsOf(CUgraphNode Node, const rt::NodeOp &Op, Params *P) {
  std::memset(P, 0, sizeof(*P));
  P->func = static_cast<CUfunction>(const_cast<void *>(
      Op.FnHandle ? Op.FnHandle : static_cast<const void *>(Op.Fn)));
  P->gridDimX = Op.Grid.X;
  P->gridDimY = Op.Grid.Y;
  P->gridDimZ = Op.Grid.Z;
  P->blockDimX = Op.Block.X;
  P->blockDimY = Op.Block.Y;
  P->blockDimZ = Op.Block.Z;
  P->sharedMemBytes = unsigned(Op.SharedMem);
  P->kernelParams = rt::graphKernelNodeArgs(nodeOf(Node));
  P->extra = nullptr;
}

template <typename Params>
void kernelParamsOfV2(CUgraphNode Node, const rt::NodeOp &Op, Params *P) {
  kernelParamsOf(Node, Op, P);
  P->kern = reinterpret_cast<CUkernel>(P->func);
  P->ctx = currentContext();
}

/// One side of a CUDA_MEMCPY3D: the memory type says which field is the
/// memory; unified memory is device memory where an allocation holds it.
bool copyEnd(CUmemorytype Type, const void *Host, CUdeviceptr Dev,
             CUarray Array, size_t X, size_t Y, size_t Z, size_t Pitch,
             size_t Rows, void *&Base, size_t &OpPitch, rt::CopyEnd &E,
             bool &Device) {
  E.MemoryType = Type;
  E.X = X;
  E.Y = Y;
  E.Z = Z;
  E.Rows = Rows;
  OpPitch = Pitch;
  switch (Type) {
  case CU_MEMORYTYPE_HOST:
    Base = const_cast<void *>(Host);
    Device = false;
    return true;
  case CU_MEMORYTYPE_DEVICE:
    Base = ptr(Dev);
    Device = true;
    return true;
  case CU_MEMORYTYPE_UNIFIED:
    Base = ptr(Dev);
    Device = runtime().isDeviceRange(Base, 1);
    return true;
  case CU_MEMORYTYPE_ARRAY:
    Base = nullptr;
    E.A = arrayOf(Array);
    Device = true;
    return Array != nullptr;
  default:
    return false;
  }
}

CUresult copyOp(const CUDA_MEMCPY3D *C, rt::NodeOp &Op) {
  if (!C || C->srcLOD || C->dstLOD || C->reserved0 || C->reserved1)
    return CUDA_ERROR_INVALID_VALUE;
  Op.K = rt::NodeOp::Memcpy;
  void *Src = nullptr, *Dst = nullptr;
  bool SrcDev, DstDev;
  if (!copyEnd(C->srcMemoryType, C->srcHost, C->srcDevice, C->srcArray,
               C->srcXInBytes, C->srcY, C->srcZ, C->srcPitch, C->srcHeight, Src,
               Op.SrcPitch, Op.SrcEnd, SrcDev) ||
      !copyEnd(C->dstMemoryType, C->dstHost, C->dstDevice, C->dstArray,
               C->dstXInBytes, C->dstY, C->dstZ, C->dstPitch, C->dstHeight, Dst,
               Op.Pitch, Op.DstEnd, DstDev))
    return CUDA_ERROR_INVALID_VALUE;
  Op.Src = Src;
  Op.Dst = Dst;
  Op.Width = C->WidthInBytes;
  Op.Height = C->Height;
  Op.Depth = C->Depth;
  Op.Copy = SrcDev ? (DstDev ? rt::CopyKind::DeviceToDevice
                             : rt::CopyKind::DeviceToHost)
                   : (DstDev ? rt::CopyKind::HostToDevice
                             : rt::CopyKind::HostToHost);
  return CUDA_SUCCESS;
}

/// The memory type a getter reports for a side given without one (a node
/// made through libcudart or by capture).
CUmemorytype memoryTypeOf(const rt::CopyEnd &E, const void *P) {
  if (E.MemoryType)
    return E.MemoryType;
  if (E.A)
    return CU_MEMORYTYPE_ARRAY;
  return runtime().isDeviceRange(P, 1) ? CU_MEMORYTYPE_DEVICE
                                       : CU_MEMORYTYPE_HOST;
}

void copyParamsOf(const rt::NodeOp &Op, CUDA_MEMCPY3D *C) {
  std::memset(C, 0, sizeof(*C));
  bool OneD = Op.Width == 0;
  auto side = [&](const rt::CopyEnd &E, const void *P, size_t Pitch,
                  CUmemorytype &Type, const void **Host, CUdeviceptr &Dev,
                  CUarray &Array, size_t &X, size_t &Y, size_t &Z,
                  size_t &OutPitch, size_t &Rows) {
    Type = memoryTypeOf(E, P);
    if (Type == CU_MEMORYTYPE_HOST)
      *Host = P;
    else if (Type == CU_MEMORYTYPE_ARRAY)
      Array = reinterpret_cast<CUarray>(E.A);
    else
      Dev = devptr(P);
    X = E.X;
    Y = E.Y;
    Z = E.Z;
    OutPitch = OneD ? Op.Bytes : Pitch;
    Rows = OneD ? 1 : E.Rows;
  };
  const void *DstHost = nullptr;
  side(Op.SrcEnd, Op.Src, Op.SrcPitch, C->srcMemoryType, &C->srcHost,
       C->srcDevice, C->srcArray, C->srcXInBytes, C->srcY, C->srcZ,
       C->srcPitch, C->srcHeight);
  side(Op.DstEnd, Op.Dst, Op.Pitch, C->dstMemoryType, &DstHost, C->dstDevice,
       C->dstArray, C->dstXInBytes, C->dstY, C->dstZ, C->dstPitch,
       C->dstHeight);
  C->dstHost = const_cast<void *>(DstHost);
  C->WidthInBytes = OneD ? Op.Bytes : Op.Width;
  C->Height = OneD ? 1 : Op.Height;
  C->Depth = OneD ? 1 : Op.Depth;
}

template <typename Params>
CUresult memsetOp(const Params *P, rt::NodeOp &Op) {
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  Op.K = rt::NodeOp::Memset;
  Op.Dst = ptr(P->dst);
  Op.Pitch = P->pitch;
  Op.Value = P->value;
  Op.ElementSize = P->elementSize;
  Op.Width = P->width;
  Op.Height = P->height;
  return CUDA_SUCCESS;
}

void memsetParamsOf(const rt::NodeOp &Op, CUDA_MEMSET_NODE_PARAMS *P) {
  P->dst = devptr(Op.Dst);
  P->pitch = Op.Pitch;
  P->value = Op.Value;
  P->elementSize = Op.ElementSize;
  P->width = Op.Width;
  P->height = Op.Height;
}

template <typename Params> CUresult hostOp(const Params *P, rt::NodeOp &Op) {
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  Op.K = rt::NodeOp::Host;
  Op.HostFn = P->fn;
  Op.HostData = P->userData;
  return CUDA_SUCCESS;
}

CUresult eventOp(CUevent Event, bool Record, rt::NodeOp &Op) {
  Op.K = Record ? rt::NodeOp::EventRecord : rt::NodeOp::EventWait;
  Op.Event = Event;
  return CUDA_SUCCESS;
}

CUresult childOp(CUgraph Child, bool Move, rt::NodeOp &Op) {
  Op.K = rt::NodeOp::ChildGraph;
  Op.Child = graphOf(Child);
  Op.MoveChild = Move;
  return CUDA_SUCCESS;
}

template <typename Params> CUresult allocOp(const Params *P, rt::NodeOp &Op) {
  if (!P || (P->accessDescCount && !P->accessDescs))
    return CUDA_ERROR_INVALID_VALUE;
  Op.K = rt::NodeOp::MemAlloc;
  Op.Bytes = P->bytesize;
  Op.Pool.AllocType = P->poolProps.allocType;
  Op.Pool.HandleTypes = P->poolProps.handleTypes;
  Op.Pool.LocationType = P->poolProps.location.type;
  Op.Pool.LocationId = P->poolProps.location.id;
  Op.Pool.MaxSize = P->poolProps.maxSize;
  for (size_t I = 0; I < P->accessDescCount; ++I) {
    const CUmemAccessDesc &D = P->accessDescs[I];
    Op.Access.push_back({D.location.type, D.location.id, D.flags});
  }
  return CUDA_SUCCESS;
}

template <typename Params>
void allocParamsOf(const rt::NodeOp &Op, Params *P) {
  std::memset(P, 0, sizeof(*P));
  P->poolProps.allocType = Op.Pool.AllocType;
  P->poolProps.handleTypes = Op.Pool.HandleTypes;
  P->poolProps.location.type = Op.Pool.LocationType;
  P->poolProps.location.id = Op.Pool.LocationId;
  P->poolProps.maxSize = Op.Pool.MaxSize;
  // rt::VirtualAccess has CUmemAccessDesc's layout: three ints.
  static_assert(sizeof(rt::VirtualAccess) == sizeof(CUmemAccessDesc));
  P->accessDescs = Op.Access.empty() ? nullptr
                                     : reinterpret_cast<const CUmemAccessDesc *>(
                                           Op.Access.data());
  P->accessDescCount = Op.Access.size();
  P->bytesize = Op.Bytes;
  P->dptr = devptr(Op.Dst);
}

CUresult notSupportedNode(const char *What) {
  static std::once_flag Once;
  std::call_once(Once, [What] {
    CUHIP_ERROR("graph %s nodes are not supported: cuhip has no external "
                "semaphores or batched memory operations",
                What);
  });
  return CUDA_ERROR_NOT_SUPPORTED;
}

/// CUgraphNodeParams as a NodeOp; reserved bytes must be zero.
CUresult nodeParamsOp(const CUgraphNodeParams *P, rt::NodeOp &Op) {
  if (!P || P->reserved0[0] || P->reserved0[1] || P->reserved0[2] ||
      P->reserved2)
    return CUDA_ERROR_INVALID_VALUE;
  switch (P->type) {
  case CU_GRAPH_NODE_TYPE_KERNEL:
    return kernelOpV2(&P->kernel, Op);
  case CU_GRAPH_NODE_TYPE_MEMCPY:
    if (P->memcpy.flags || P->memcpy.reserved)
      return CUDA_ERROR_INVALID_VALUE;
    return copyOp(&P->memcpy.copyParams, Op);
  case CU_GRAPH_NODE_TYPE_MEMSET:
    return memsetOp(&P->memset, Op);
  case CU_GRAPH_NODE_TYPE_HOST:
    return hostOp(&P->host, Op);
  case CU_GRAPH_NODE_TYPE_GRAPH:
    if (P->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE &&
        P->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)
      return CUDA_ERROR_INVALID_VALUE;
    return childOp(P->graph.graph,
                   P->graph.ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE,
                   Op);
  case CU_GRAPH_NODE_TYPE_EMPTY:
    Op.K = rt::NodeOp::Empty;
    return CUDA_SUCCESS;
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    return eventOp(P->eventWait.event, false, Op);
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    return eventOp(P->eventRecord.event, true, Op);
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    return allocOp(&P->alloc, Op);
  case CU_GRAPH_NODE_TYPE_MEM_FREE:
    Op.K = rt::NodeOp::MemFree;
    Op.Dst = ptr(P->free.dptr);
    return CUDA_SUCCESS;
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
    return notSupportedNode("external semaphore");
  case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
    return notSupportedNode("batched memory operation");
  case CU_GRAPH_NODE_TYPE_CONDITIONAL:
    // The node runs in the one context there is.
    if (P->conditional.ctx && P->conditional.ctx != currentContext())
      return CUDA_ERROR_INVALID_CONTEXT;
    Op.K = rt::NodeOp::Conditional;
    Op.CondHandle = P->conditional.handle;
    Op.CondType = P->conditional.type;
    Op.CondSize = P->conditional.size;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

/// The node's operation if it is a node of kind K.
const rt::NodeOp *opOf(CUgraphNode Node, rt::NodeOp::Kind K) {
  const rt::NodeOp *Op = rt::graphNodeOp(nodeOf(Node));
  return Op && Op->K == K ? Op : nullptr;
}

CUresult addNode(CUgraphNode *Node, CUgraph Graph, const CUgraphNode *Deps,
                 size_t NumDeps, CUresult Converted, rt::NodeOp &Op) {
  if (CUresult R = checkInit())
    return R;
  if (Converted)
    return Converted;
  return toCU(rt::graphAddNode(reinterpret_cast<rt::GraphNode **>(Node),
                               graphOf(Graph), nodesOf(Deps), NumDeps,
                               std::move(Op)));
}

CUresult setNode(CUgraphNode Node, CUresult Converted, rt::NodeOp &Op) {
  if (CUresult R = checkInit())
    return R;
  if (Converted)
    return Converted;
  return toCU(rt::graphNodeSetOp(nodeOf(Node), std::move(Op)));
}

CUresult setExecNode(CUgraphExec Exec, CUgraphNode Node, CUresult Converted,
                     rt::NodeOp &Op) {
  if (CUresult R = checkInit())
    return R;
  if (Converted)
    return Converted;
  return toCU(
      rt::graphExecSetNodeOp(execOf(Exec), nodeOf(Node), std::move(Op)));
}

/// Getters: init, then the node of the kind asked for and a place for the
/// answer.
#define CUHIP_GET_NODE(Kind, Out)                                              \
  if (CUresult R = checkInit())                                                \
    return R;                                                                  \
  const rt::NodeOp *Op = opOf(Node, Kind);                                     \
  if (!Op || !(Out))                                                           \
    return CUDA_ERROR_INVALID_VALUE;

} // namespace

//===----------------------------------------------------------------------===//
// Stream capture
//===----------------------------------------------------------------------===//

namespace {
CUresult beginCapture(void *Stream, CUstreamCaptureMode Mode) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::streamBeginCapture(Stream, static_cast<rt::CaptureMode>(Mode)));
}

CUresult endCapture(void *Stream, CUgraph *Graph) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::streamEndCapture(Stream, reinterpret_cast<rt::Graph **>(Graph)));
}

CUresult isCapturing(void *Stream, CUstreamCaptureStatus *Status) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::streamIsCapturing(Stream,
                                    reinterpret_cast<rt::CaptureStatus *>(Status)));
}

CUresult captureInfo(void *Stream, CUstreamCaptureStatus *Status,
                     cuuint64_t *Id, CUgraph *Graph, const CUgraphNode **Deps,
                     const CUgraphEdgeData **Edges, size_t *NumDeps) {
  if (CUresult R = checkContext())
    return R;
  uint64_t CaptureId = 0;
  rt::GraphNode *const *D = nullptr;
  size_t N = 0;
  if (CUresult R = toCU(rt::streamGetCaptureInfo(
          Stream, reinterpret_cast<rt::CaptureStatus *>(Status), &CaptureId,
          reinterpret_cast<rt::Graph **>(Graph), &D, &N)))
    return R;
  if (Id)
    *Id = CaptureId;
  if (Deps)
    *Deps = reinterpret_cast<const CUgraphNode *>(D);
  if (NumDeps)
    *NumDeps = N;
  if (Edges) {
    // Valid, like Deps, until the next call on this thread.
    thread_local std::vector<CUgraphEdgeData> Zeros;
    Zeros.assign(N, CUgraphEdgeData{});
    *Edges = N ? Zeros.data() : nullptr;
  }
  return CUDA_SUCCESS;
}
} // namespace

// CUDA 10.0's form had no mode: the global one.
CUHIP_EXPORT CUresult cuStreamBeginCapture(CUstream S) {
  return beginCapture(coreStream(S), CU_STREAM_CAPTURE_MODE_GLOBAL);
}
CUHIP_EXPORT CUresult cuStreamBeginCapture_ptsz(CUstream S) {
  return beginCapture(perThreadStream(S), CU_STREAM_CAPTURE_MODE_GLOBAL);
}
CUHIP_EXPORT CUresult cuStreamBeginCapture_v2(CUstream S,
                                              CUstreamCaptureMode Mode) {
  return beginCapture(coreStream(S), Mode);
}
CUHIP_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream S,
                                                   CUstreamCaptureMode Mode) {
  return beginCapture(perThreadStream(S), Mode);
}

CUHIP_EXPORT CUresult cuStreamEndCapture(CUstream S, CUgraph *Graph) {
  return endCapture(coreStream(S), Graph);
}
CUHIP_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream S, CUgraph *Graph) {
  return endCapture(perThreadStream(S), Graph);
}

CUHIP_EXPORT CUresult cuStreamIsCapturing(CUstream S,
                                          CUstreamCaptureStatus *Status) {
  return isCapturing(coreStream(S), Status);
}
CUHIP_EXPORT CUresult cuStreamIsCapturing_ptsz(CUstream S,
                                               CUstreamCaptureStatus *Status) {
  return isCapturing(perThreadStream(S), Status);
}

CUHIP_EXPORT CUresult cuStreamGetCaptureInfo(CUstream S,
                                             CUstreamCaptureStatus *Status,
                                             cuuint64_t *Id) {
  return captureInfo(coreStream(S), Status, Id, nullptr, nullptr, nullptr,
                     nullptr);
}
CUHIP_EXPORT CUresult cuStreamGetCaptureInfo_ptsz(CUstream S,
                                                  CUstreamCaptureStatus *Status,
                                                  cuuint64_t *Id) {
  return captureInfo(perThreadStream(S), Status, Id, nullptr, nullptr, nullptr,
                     nullptr);
}
CUHIP_EXPORT CUresult cuStreamGetCaptureInfo_v2(
    CUstream S, CUstreamCaptureStatus *Status, cuuint64_t *Id, CUgraph *Graph,
    const CUgraphNode **Deps, size_t *NumDeps) {
  return captureInfo(coreStream(S), Status, Id, Graph, Deps, nullptr, NumDeps);
}
CUHIP_EXPORT CUresult cuStreamGetCaptureInfo_v2_ptsz(
    CUstream S, CUstreamCaptureStatus *Status, cuuint64_t *Id, CUgraph *Graph,
    const CUgraphNode **Deps, size_t *NumDeps) {
  return captureInfo(perThreadStream(S), Status, Id, Graph, Deps, nullptr,
                     NumDeps);
}
CUHIP_EXPORT CUresult cuStreamGetCaptureInfo_v3(
    CUstream S, CUstreamCaptureStatus *Status, cuuint64_t *Id, CUgraph *Graph,
    const CUgraphNode **Deps, const CUgraphEdgeData **Edges, size_t *NumDeps) {
  return captureInfo(coreStream(S), Status, Id, Graph, Deps, Edges, NumDeps);
}
CUHIP_EXPORT CUresult cuStreamGetCaptureInfo_v3_ptsz(
    CUstream S, CUstreamCaptureStatus *Status, cuuint64_t *Id, CUgraph *Graph,
    const CUgraphNode **Deps, const CUgraphEdgeData **Edges, size_t *NumDeps) {
  return captureInfo(perThreadStream(S), Status, Id, Graph, Deps, Edges,
                     NumDeps);
}

namespace {
CUresult beginCaptureToGraph(void *Stream, CUgraph Graph,
                             const CUgraphNode *Deps,
                             const CUgraphEdgeData *Edges, size_t NumDeps,
                             CUstreamCaptureMode Mode) {
  if (CUresult R = checkContext())
    return R;
  if (!defaultEdges(Edges, NumDeps)) {
    CUHIP_ERROR("cuStreamBeginCaptureToGraph: edges with non-default edge "
                "data (programmatic dependencies) are not supported");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  return toCU(rt::streamBeginCaptureToGraph(
      Stream, graphOf(Graph), nodesOf(Deps), NumDeps,
      static_cast<rt::CaptureMode>(Mode)));
}

CUresult updateCaptureDependencies(void *Stream, CUgraphNode *Deps,
                                   const CUgraphEdgeData *Edges,
                                   size_t NumDeps, unsigned Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!defaultEdges(Edges, NumDeps)) {
    CUHIP_ERROR("cuStreamUpdateCaptureDependencies: edges with non-default "
                "edge data (programmatic dependencies) are not supported");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  return toCU(rt::streamUpdateCaptureDependencies(Stream, nodesOf(Deps),
                                                  NumDeps, Flags));
}
} // namespace

CUHIP_EXPORT CUresult cuStreamBeginCaptureToGraph(
    CUstream S, CUgraph Graph, const CUgraphNode *Deps,
    const CUgraphEdgeData *DependencyData, size_t NumDeps,
    CUstreamCaptureMode Mode) {
  return beginCaptureToGraph(coreStream(S), Graph, Deps, DependencyData,
                             NumDeps, Mode);
}
CUHIP_EXPORT CUresult cuStreamBeginCaptureToGraph_ptsz(
    CUstream S, CUgraph Graph, const CUgraphNode *Deps,
    const CUgraphEdgeData *DependencyData, size_t NumDeps,
    CUstreamCaptureMode Mode) {
  return beginCaptureToGraph(perThreadStream(S), Graph, Deps, DependencyData,
                             NumDeps, Mode);
}

// CUDA 11.3's form, without edge data.
CUHIP_EXPORT CUresult cuStreamUpdateCaptureDependencies(CUstream S,
                                                        CUgraphNode *Deps,
                                                        size_t NumDeps,
                                                        unsigned int Flags) {
  return updateCaptureDependencies(coreStream(S), Deps, nullptr, NumDeps,
                                   Flags);
}
CUHIP_EXPORT CUresult cuStreamUpdateCaptureDependencies_ptsz(
    CUstream S, CUgraphNode *Deps, size_t NumDeps, unsigned int Flags) {
  return updateCaptureDependencies(perThreadStream(S), Deps, nullptr, NumDeps,
                                   Flags);
}
CUHIP_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2(
    CUstream S, CUgraphNode *Deps, const CUgraphEdgeData *DependencyData,
    size_t NumDeps, unsigned int Flags) {
  return updateCaptureDependencies(coreStream(S), Deps, DependencyData,
                                   NumDeps, Flags);
}
CUHIP_EXPORT CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(
    CUstream S, CUgraphNode *Deps, const CUgraphEdgeData *DependencyData,
    size_t NumDeps, unsigned int Flags) {
  return updateCaptureDependencies(perThreadStream(S), Deps, DependencyData,
                                   NumDeps, Flags);
}

CUHIP_EXPORT CUresult cuThreadExchangeStreamCaptureMode(
    CUstreamCaptureMode *Mode) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::threadExchangeCaptureMode(
      reinterpret_cast<rt::CaptureMode *>(Mode)));
}

//===----------------------------------------------------------------------===//
// Graphs and their topology
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuGraphCreate(CUgraph *Graph, unsigned int Flags) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphCreate(reinterpret_cast<rt::Graph **>(Graph), Flags));
}

CUHIP_EXPORT CUresult cuGraphConditionalHandleCreate(
    CUgraphConditionalHandle *Handle, CUgraph Graph, CUcontext Ctx,
    unsigned int DefaultLaunchValue, unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (Ctx && Ctx != currentContext())
    return CUDA_ERROR_INVALID_CONTEXT;
  return toCU(rt::graphConditionalHandleCreate(
      reinterpret_cast<uint64_t *>(Handle),
      reinterpret_cast<rt::Graph *>(Graph), DefaultLaunchValue, Flags));
}

CUHIP_EXPORT CUresult cuGraphDestroy(CUgraph Graph) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphDestroy(graphOf(Graph)));
}

CUHIP_EXPORT CUresult cuGraphClone(CUgraph *Clone, CUgraph Original) {
  if (CUresult R = checkInit())
    return R;
  return toCU(
      rt::graphClone(reinterpret_cast<rt::Graph **>(Clone), graphOf(Original)));
}

CUHIP_EXPORT CUresult cuGraphNodeFindInClone(CUgraphNode *Node,
                                             CUgraphNode Original,
                                             CUgraph Clone) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphNodeFindInClone(reinterpret_cast<rt::GraphNode **>(Node),
                                       nodeOf(Original), graphOf(Clone)));
}

CUHIP_EXPORT CUresult cuGraphDebugDotPrint(CUgraph Graph, const char *Path,
                                           unsigned int Flags) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphDebugDotPrint(graphOf(Graph), Path, Flags));
}

CUHIP_EXPORT CUresult cuGraphGetNodes(CUgraph Graph, CUgraphNode *Nodes,
                                      size_t *NumNodes) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphGetNodes(
      graphOf(Graph), reinterpret_cast<rt::GraphNode **>(Nodes), NumNodes));
}

CUHIP_EXPORT CUresult cuGraphGetRootNodes(CUgraph Graph, CUgraphNode *Nodes,
                                          size_t *NumNodes) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphGetRootNodes(
      graphOf(Graph), reinterpret_cast<rt::GraphNode **>(Nodes), NumNodes));
}

namespace {
CUresult getEdges(CUgraph Graph, CUgraphNode *From, CUgraphNode *To,
                  CUgraphEdgeData *Edges, size_t *Num) {
  if (CUresult R = checkInit())
    return R;
  if (Edges && (!From || !To))
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult R = toCU(rt::graphGetEdges(
          graphOf(Graph), reinterpret_cast<rt::GraphNode **>(From),
          reinterpret_cast<rt::GraphNode **>(To), Num)))
    return R;
  fillDefaultEdges(From ? Edges : nullptr, *Num);
  return CUDA_SUCCESS;
}

CUresult getDependencies(CUgraphNode Node, CUgraphNode *Out,
                         CUgraphEdgeData *Edges, size_t *Num,
                         bool Dependents) {
  if (CUresult R = checkInit())
    return R;
  if (Edges && !Out)
    return CUDA_ERROR_INVALID_VALUE;
  auto **Nodes = reinterpret_cast<rt::GraphNode **>(Out);
  if (CUresult R = toCU(
          Dependents ? rt::graphNodeGetDependentNodes(nodeOf(Node), Nodes, Num)
                     : rt::graphNodeGetDependencies(nodeOf(Node), Nodes, Num)))
    return R;
  fillDefaultEdges(Out ? Edges : nullptr, *Num);
  return CUDA_SUCCESS;
}

CUresult changeDependencies(CUgraph Graph, const CUgraphNode *From,
                            const CUgraphNode *To,
                            const CUgraphEdgeData *Edges, size_t Num,
                            bool Add) {
  if (CUresult R = checkInit())
    return R;
  if (!defaultEdges(Edges, Num)) {
    if (!Add) // no such edge exists to be removed
      return CUDA_ERROR_INVALID_VALUE;
    CUHIP_ERROR("cuGraphAddDependencies: edges with non-default edge data "
                "(programmatic dependencies) are not supported");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  return toCU(Add ? rt::graphAddDependencies(graphOf(Graph), nodesOf(From),
                                             nodesOf(To), Num)
                  : rt::graphRemoveDependencies(graphOf(Graph), nodesOf(From),
                                                nodesOf(To), Num));
}
} // namespace

CUHIP_EXPORT CUresult cuGraphGetEdges(CUgraph Graph, CUgraphNode *From,
                                      CUgraphNode *To, size_t *NumEdges) {
  return getEdges(Graph, From, To, nullptr, NumEdges);
}
CUHIP_EXPORT CUresult cuGraphGetEdges_v2(CUgraph Graph, CUgraphNode *From,
                                         CUgraphNode *To,
                                         CUgraphEdgeData *EdgeData,
                                         size_t *NumEdges) {
  return getEdges(Graph, From, To, EdgeData, NumEdges);
}

CUHIP_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode Node,
                                                 CUgraphNode *Deps,
                                                 size_t *NumDeps) {
  return getDependencies(Node, Deps, nullptr, NumDeps, false);
}
CUHIP_EXPORT CUresult cuGraphNodeGetDependencies_v2(CUgraphNode Node,
                                                    CUgraphNode *Deps,
                                                    CUgraphEdgeData *EdgeData,
                                                    size_t *NumDeps) {
  return getDependencies(Node, Deps, EdgeData, NumDeps, false);
}

CUHIP_EXPORT CUresult cuGraphNodeGetDependentNodes(CUgraphNode Node,
                                                   CUgraphNode *Dependents,
                                                   size_t *NumDependents) {
  return getDependencies(Node, Dependents, nullptr, NumDependents, true);
}
CUHIP_EXPORT CUresult cuGraphNodeGetDependentNodes_v2(
    CUgraphNode Node, CUgraphNode *Dependents, CUgraphEdgeData *EdgeData,
    size_t *NumDependents) {
  return getDependencies(Node, Dependents, EdgeData, NumDependents, true);
}

CUHIP_EXPORT CUresult cuGraphAddDependencies(CUgraph Graph,
                                             const CUgraphNode *From,
                                             const CUgraphNode *To,
                                             size_t NumDependencies) {
  return changeDependencies(Graph, From, To, nullptr, NumDependencies, true);
}
CUHIP_EXPORT CUresult cuGraphAddDependencies_v2(CUgraph Graph,
                                                const CUgraphNode *From,
                                                const CUgraphNode *To,
                                                const CUgraphEdgeData *EdgeData,
                                                size_t NumDependencies) {
  return changeDependencies(Graph, From, To, EdgeData, NumDependencies, true);
}

CUHIP_EXPORT CUresult cuGraphRemoveDependencies(CUgraph Graph,
                                                const CUgraphNode *From,
                                                const CUgraphNode *To,
                                                size_t NumDependencies) {
  return changeDependencies(Graph, From, To, nullptr, NumDependencies, false);
}
CUHIP_EXPORT CUresult cuGraphRemoveDependencies_v2(
    CUgraph Graph, const CUgraphNode *From, const CUgraphNode *To,
    const CUgraphEdgeData *EdgeData, size_t NumDependencies) {
  return changeDependencies(Graph, From, To, EdgeData, NumDependencies, false);
}

CUHIP_EXPORT CUresult cuGraphDestroyNode(CUgraphNode Node) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphDestroyNode(nodeOf(Node)));
}

CUHIP_EXPORT CUresult cuGraphNodeGetType(CUgraphNode Node,
                                         CUgraphNodeType *Type) {
  if (CUresult R = checkInit())
    return R;
  rt::NodeOp::Kind K;
  if (CUresult R = toCU(rt::graphNodeGetType(nodeOf(Node), &K)))
    return R;
  if (!Type)
    return CUDA_ERROR_INVALID_VALUE;
  *Type = static_cast<CUgraphNodeType>(K);
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Adding nodes
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuGraphAddKernelNode(
    CUgraphNode *Node, CUgraph Graph, const CUgraphNode *Deps, size_t NumDeps,
    const CUDA_KERNEL_NODE_PARAMS_v1 *Params) {
  rt::NodeOp Op;
  CUresult R = checkContext();
  if (!R)
    R = kernelOpV1(Params, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}
CUHIP_EXPORT CUresult cuGraphAddKernelNode_v2(
    CUgraphNode *Node, CUgraph Graph, const CUgraphNode *Deps, size_t NumDeps,
    const CUDA_KERNEL_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = checkContext();
  if (!R)
    R = kernelOpV2(Params, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *Node, CUgraph Graph,
                                           const CUgraphNode *Deps,
                                           size_t NumDeps,
                                           const CUDA_MEMCPY3D *CopyParams,
                                           CUcontext) {
  rt::NodeOp Op;
  CUresult R = checkContext();
  if (!R)
    R = copyOp(CopyParams, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddMemsetNode(
    CUgraphNode *Node, CUgraph Graph, const CUgraphNode *Deps, size_t NumDeps,
    const CUDA_MEMSET_NODE_PARAMS *MemsetParams, CUcontext) {
  rt::NodeOp Op;
  CUresult R = checkContext();
  if (!R)
    R = memsetOp(MemsetParams, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *Node, CUgraph Graph,
                                         const CUgraphNode *Deps,
                                         size_t NumDeps,
                                         const CUDA_HOST_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = hostOp(Params, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *Node,
                                               CUgraph Graph,
                                               const CUgraphNode *Deps,
                                               size_t NumDeps,
                                               CUgraph ChildGraph) {
  rt::NodeOp Op;
  CUresult R = childOp(ChildGraph, false, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *Node, CUgraph Graph,
                                          const CUgraphNode *Deps,
                                          size_t NumDeps) {
  rt::NodeOp Op;
  return addNode(Node, Graph, Deps, NumDeps, CUDA_SUCCESS, Op);
}

CUHIP_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *Node,
                                                CUgraph Graph,
                                                const CUgraphNode *Deps,
                                                size_t NumDeps, CUevent Event) {
  rt::NodeOp Op;
  CUresult R = eventOp(Event, true, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *Node, CUgraph Graph,
                                              const CUgraphNode *Deps,
                                              size_t NumDeps, CUevent Event) {
  rt::NodeOp Op;
  CUresult R = eventOp(Event, false, Op);
  return addNode(Node, Graph, Deps, NumDeps, R, Op);
}

CUHIP_EXPORT CUresult cuGraphAddMemAllocNode(
    CUgraphNode *Node, CUgraph Graph, const CUgraphNode *Deps, size_t NumDeps,
    CUDA_MEM_ALLOC_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = checkContext();
  if (!R)
    R = allocOp(Params, Op);
  if (CUresult E = addNode(Node, Graph, Deps, NumDeps, R, Op))
    return E;
  Params->dptr = devptr(rt::graphNodeOp(nodeOf(*Node))->Dst);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode *Node, CUgraph Graph,
                                            const CUgraphNode *Deps,
                                            size_t NumDeps, CUdeviceptr DPtr) {
  rt::NodeOp Op;
  Op.K = rt::NodeOp::MemFree;
  Op.Dst = ptr(DPtr);
  return addNode(Node, Graph, Deps, NumDeps, checkContext(), Op);
}

namespace {
CUresult addGenericNode(CUgraphNode *Node, CUgraph Graph,
                        const CUgraphNode *Deps, const CUgraphEdgeData *Edges,
                        size_t NumDeps, CUgraphNodeParams *Params) {
  if (CUresult R = checkContext())
    return R;
  if (!defaultEdges(Edges, NumDeps)) {
    CUHIP_ERROR("cuGraphAddNode: edges with non-default edge data "
                "(programmatic dependencies) are not supported");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  rt::NodeOp Op;
  CUresult R = nodeParamsOp(Params, Op);
  if (CUresult E = addNode(Node, Graph, Deps, NumDeps, R, Op))
    return E;
  // The allocation's address is an out parameter, and so are a
  // conditional node's bodies (an array the node owns).
  if (Params->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
    Params->alloc.dptr = devptr(rt::graphNodeOp(nodeOf(*Node))->Dst);
  if (Params->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
    Params->conditional.phGraph_out = reinterpret_cast<CUgraph *>(
        const_cast<rt::Graph **>(rt::graphNodeOp(nodeOf(*Node))->Bodies.data()));
  return CUDA_SUCCESS;
}
} // namespace

CUHIP_EXPORT CUresult cuGraphAddNode(CUgraphNode *Node, CUgraph Graph,
                                     const CUgraphNode *Deps, size_t NumDeps,
                                     CUgraphNodeParams *Params) {
  return addGenericNode(Node, Graph, Deps, nullptr, NumDeps, Params);
}
CUHIP_EXPORT CUresult cuGraphAddNode_v2(CUgraphNode *Node, CUgraph Graph,
                                        const CUgraphNode *Deps,
                                        const CUgraphEdgeData *DependencyData,
                                        size_t NumDeps,
                                        CUgraphNodeParams *Params) {
  return addGenericNode(Node, Graph, Deps, DependencyData, NumDeps, Params);
}

//===----------------------------------------------------------------------===//
// Node parameters
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuGraphKernelNodeGetParams(
    CUgraphNode Node, CUDA_KERNEL_NODE_PARAMS_v1 *Params) {
  CUHIP_GET_NODE(rt::NodeOp::KernelLaunch, Params)
  kernelParamsOf(Node, *Op, Params);
  return CUDA_SUCCESS;
}
CUHIP_EXPORT CUresult
cuGraphKernelNodeGetParams_v2(CUgraphNode Node, CUDA_KERNEL_NODE_PARAMS *Params) {
  CUHIP_GET_NODE(rt::NodeOp::KernelLaunch, Params)
  kernelParamsOfV2(Node, *Op, Params);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuGraphKernelNodeSetParams(
    CUgraphNode Node, const CUDA_KERNEL_NODE_PARAMS_v1 *Params) {
  rt::NodeOp Op;
  CUresult R = kernelOpV1(Params, Op);
  return setNode(Node, R, Op);
}
CUHIP_EXPORT CUresult cuGraphKernelNodeSetParams_v2(
    CUgraphNode Node, const CUDA_KERNEL_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = kernelOpV2(Params, Op);
  return setNode(Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode Node,
                                                 CUDA_MEMCPY3D *Params) {
  CUHIP_GET_NODE(rt::NodeOp::Memcpy, Params)
  copyParamsOf(*Op, Params);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode Node,
                                                 const CUDA_MEMCPY3D *Params) {
  rt::NodeOp Op;
  CUresult R = copyOp(Params, Op);
  return setNode(Node, R, Op);
}

CUHIP_EXPORT CUresult
cuGraphMemsetNodeGetParams(CUgraphNode Node, CUDA_MEMSET_NODE_PARAMS *Params) {
  CUHIP_GET_NODE(rt::NodeOp::Memset, Params)
  memsetParamsOf(*Op, Params);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuGraphMemsetNodeSetParams(
    CUgraphNode Node, const CUDA_MEMSET_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = memsetOp(Params, Op);
  return setNode(Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode Node,
                                               CUDA_HOST_NODE_PARAMS *Params) {
  CUHIP_GET_NODE(rt::NodeOp::Host, Params)
  Params->fn = Op->HostFn;
  Params->userData = Op->HostData;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult
cuGraphHostNodeSetParams(CUgraphNode Node, const CUDA_HOST_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = hostOp(Params, Op);
  return setNode(Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode Node,
                                                    CUgraph *Graph) {
  CUHIP_GET_NODE(rt::NodeOp::ChildGraph, Graph)
  *Graph = reinterpret_cast<CUgraph>(Op->Child);
  return CUDA_SUCCESS;
}

#define CUHIP_EVENT_NODE(Name, Kind)                                           \
  CUHIP_EXPORT CUresult Name##GetEvent(CUgraphNode Node, CUevent *Event) {     \
    CUHIP_GET_NODE(Kind, Event)                                                \
    *Event = static_cast<CUevent>(Op->Event);                                  \
    return CUDA_SUCCESS;                                                       \
  }                                                                            \
  CUHIP_EXPORT CUresult Name##SetEvent(CUgraphNode Node, CUevent Event) {      \
    rt::NodeOp Op;                                                             \
    CUresult R = eventOp(Event, Kind == rt::NodeOp::EventRecord, Op);          \
    return setNode(Node, R, Op);                                               \
  }
CUHIP_EVENT_NODE(cuGraphEventRecordNode, rt::NodeOp::EventRecord)
CUHIP_EVENT_NODE(cuGraphEventWaitNode, rt::NodeOp::EventWait)
#undef CUHIP_EVENT_NODE

CUHIP_EXPORT CUresult
cuGraphMemAllocNodeGetParams(CUgraphNode Node,
                             CUDA_MEM_ALLOC_NODE_PARAMS *Params) {
  CUHIP_GET_NODE(rt::NodeOp::MemAlloc, Params)
  allocParamsOf(*Op, Params);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode Node,
                                                  CUdeviceptr *DPtr) {
  CUHIP_GET_NODE(rt::NodeOp::MemFree, DPtr)
  *DPtr = devptr(Op->Dst);
  return CUDA_SUCCESS;
}

// CUkernelNodeAttrValue is 64 bytes, as the core's attributes.
static_assert(sizeof(CUkernelNodeAttrValue) == rt::NodeOp::AttrBytes);

CUHIP_EXPORT CUresult cuGraphKernelNodeSetAttribute(
    CUgraphNode Node, CUkernelNodeAttrID Attr,
    const CUkernelNodeAttrValue *Value) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphKernelNodeSetAttribute(nodeOf(Node), Attr, Value));
}

CUHIP_EXPORT CUresult cuGraphKernelNodeGetAttribute(
    CUgraphNode Node, CUkernelNodeAttrID Attr, CUkernelNodeAttrValue *Value) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphKernelNodeGetAttribute(nodeOf(Node), Attr, Value));
}

CUHIP_EXPORT CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode Dst,
                                                      CUgraphNode Src) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphKernelNodeCopyAttributes(nodeOf(Dst), nodeOf(Src)));
}

CUHIP_EXPORT CUresult cuGraphNodeSetParams(CUgraphNode Node,
                                           CUgraphNodeParams *Params) {
  rt::NodeOp Op;
  CUresult R = nodeParamsOp(Params, Op);
  return setNode(Node, R, Op);
}

#undef CUHIP_GET_NODE

//===----------------------------------------------------------------------===//
// Executable graphs
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *Exec,
                                                  CUgraph Graph,
                                                  unsigned long long Flags) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::graphInstantiate(reinterpret_cast<rt::GraphExec **>(Exec),
                                   graphOf(Graph), Flags));
}

namespace {
/// CUDA 10 and 11's cuGraphInstantiate: the node that failed, and a log.
CUresult instantiateWithLog(CUgraphExec *Exec, CUgraph Graph,
                            CUgraphNode *ErrorNode, char *Log, size_t LogSize) {
  if (CUresult R = checkContext())
    return R;
  rt::GraphNode *Failed = nullptr;
  CUresult R = toCU(rt::graphInstantiate(
      reinterpret_cast<rt::GraphExec **>(Exec), graphOf(Graph), 0, &Failed));
  if (ErrorNode)
    *ErrorNode = reinterpret_cast<CUgraphNode>(Failed);
  if (Log && LogSize) {
    const char *Text = R == CUDA_SUCCESS ? ""
                       : Failed          ? "the graph has a cycle"
                                         : "the graph cannot be instantiated";
    std::strncpy(Log, Text, LogSize - 1);
    Log[LogSize - 1] = '\0';
  }
  return R;
}

CUresult instantiateWithParams(CUgraphExec *Exec, CUgraph Graph,
                               CUDA_GRAPH_INSTANTIATE_PARAMS *Params,
                               bool PerThread) {
  if (CUresult R = checkContext())
    return R;
  if (!Params)
    return CUDA_ERROR_INVALID_VALUE;
  rt::GraphNode *Failed = nullptr;
  CUresult R = toCU(rt::graphInstantiate(
      reinterpret_cast<rt::GraphExec **>(Exec), graphOf(Graph), Params->flags,
      &Failed));
  Params->hErrNode_out = reinterpret_cast<CUgraphNode>(Failed);
  if (R) {
    Params->result_out = Failed ? CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE
                                : CUDA_GRAPH_INSTANTIATE_ERROR;
    return R;
  }
  Params->result_out = CUDA_GRAPH_INSTANTIATE_SUCCESS;
  if (Params->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) {
    void *S = PerThread ? perThreadStream(Params->hUploadStream)
                        : coreStream(Params->hUploadStream);
    if (CUresult U = toCU(rt::graphUpload(execOf(*Exec), S))) {
      rt::graphExecDestroy(execOf(*Exec));
      *Exec = nullptr;
      Params->result_out = CUDA_GRAPH_INSTANTIATE_ERROR;
      return U;
    }
  }
  return CUDA_SUCCESS;
}

CUresult launch(CUgraphExec Exec, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::graphLaunch(execOf(Exec), Stream));
}

CUresult upload(CUgraphExec Exec, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  return toCU(rt::graphUpload(execOf(Exec), Stream));
}
} // namespace

CUHIP_EXPORT CUresult cuGraphInstantiate(CUgraphExec *Exec, CUgraph Graph,
                                         CUgraphNode *ErrorNode, char *Log,
                                         size_t LogSize) {
  return instantiateWithLog(Exec, Graph, ErrorNode, Log, LogSize);
}
CUHIP_EXPORT CUresult cuGraphInstantiate_v2(CUgraphExec *Exec, CUgraph Graph,
                                            CUgraphNode *ErrorNode, char *Log,
                                            size_t LogSize) {
  return instantiateWithLog(Exec, Graph, ErrorNode, Log, LogSize);
}

CUHIP_EXPORT CUresult cuGraphInstantiateWithParams(
    CUgraphExec *Exec, CUgraph Graph, CUDA_GRAPH_INSTANTIATE_PARAMS *Params) {
  return instantiateWithParams(Exec, Graph, Params, false);
}
CUHIP_EXPORT CUresult cuGraphInstantiateWithParams_ptsz(
    CUgraphExec *Exec, CUgraph Graph, CUDA_GRAPH_INSTANTIATE_PARAMS *Params) {
  return instantiateWithParams(Exec, Graph, Params, true);
}

CUHIP_EXPORT CUresult cuGraphExecGetFlags(CUgraphExec Exec, cuuint64_t *Flags) {
  if (CUresult R = checkInit())
    return R;
  unsigned long long F = 0;
  if (CUresult R = toCU(rt::graphExecGetFlags(execOf(Exec), &F)))
    return R;
  *Flags = F;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuGraphExecDestroy(CUgraphExec Exec) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphExecDestroy(execOf(Exec)));
}

CUHIP_EXPORT CUresult cuGraphLaunch(CUgraphExec Exec, CUstream S) {
  return launch(Exec, coreStream(S));
}
CUHIP_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec Exec, CUstream S) {
  return launch(Exec, perThreadStream(S));
}

CUHIP_EXPORT CUresult cuGraphUpload(CUgraphExec Exec, CUstream S) {
  return upload(Exec, coreStream(S));
}
CUHIP_EXPORT CUresult cuGraphUpload_ptsz(CUgraphExec Exec, CUstream S) {
  return upload(Exec, perThreadStream(S));
}

namespace {
CUresult execUpdate(CUgraphExec Exec, CUgraph Graph, CUgraphNode *ErrorNode,
                    CUgraphNode *ErrorFrom, CUgraphExecUpdateResult *Result) {
  if (CUresult R = checkInit())
    return R;
  int Res = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  rt::GraphNode *Node = nullptr, *From = nullptr;
  CUresult R = toCU(
      rt::graphExecUpdate(execOf(Exec), graphOf(Graph), &Res, &Node, &From));
  if (Result)
    *Result = static_cast<CUgraphExecUpdateResult>(Res);
  if (ErrorNode)
    *ErrorNode = reinterpret_cast<CUgraphNode>(Node);
  if (ErrorFrom)
    *ErrorFrom = reinterpret_cast<CUgraphNode>(From);
  return R;
}
} // namespace

CUHIP_EXPORT CUresult cuGraphExecUpdate(CUgraphExec Exec, CUgraph Graph,
                                        CUgraphNode *ErrorNode,
                                        CUgraphExecUpdateResult *Result) {
  return execUpdate(Exec, Graph, ErrorNode, nullptr, Result);
}
CUHIP_EXPORT CUresult cuGraphExecUpdate_v2(CUgraphExec Exec, CUgraph Graph,
                                           CUgraphExecUpdateResultInfo *Info) {
  if (!Info)
    return execUpdate(Exec, Graph, nullptr, nullptr, nullptr);
  return execUpdate(Exec, Graph, &Info->errorNode, &Info->errorFromNode,
                    &Info->result);
}

CUHIP_EXPORT CUresult cuGraphExecKernelNodeSetParams(
    CUgraphExec Exec, CUgraphNode Node,
    const CUDA_KERNEL_NODE_PARAMS_v1 *Params) {
  rt::NodeOp Op;
  CUresult R = kernelOpV1(Params, Op);
  return setExecNode(Exec, Node, R, Op);
}
CUHIP_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(
    CUgraphExec Exec, CUgraphNode Node, const CUDA_KERNEL_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = kernelOpV2(Params, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(
    CUgraphExec Exec, CUgraphNode Node, const CUDA_MEMCPY3D *CopyParams,
    CUcontext) {
  rt::NodeOp Op;
  CUresult R = copyOp(CopyParams, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecMemsetNodeSetParams(
    CUgraphExec Exec, CUgraphNode Node,
    const CUDA_MEMSET_NODE_PARAMS *MemsetParams, CUcontext) {
  rt::NodeOp Op;
  CUresult R = memsetOp(MemsetParams, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecHostNodeSetParams(
    CUgraphExec Exec, CUgraphNode Node, const CUDA_HOST_NODE_PARAMS *Params) {
  rt::NodeOp Op;
  CUresult R = hostOp(Params, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec Exec,
                                                         CUgraphNode Node,
                                                         CUgraph ChildGraph) {
  rt::NodeOp Op;
  CUresult R = childOp(ChildGraph, false, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec Exec,
                                                         CUgraphNode Node,
                                                         CUevent Event) {
  rt::NodeOp Op;
  CUresult R = eventOp(Event, true, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec Exec,
                                                       CUgraphNode Node,
                                                       CUevent Event) {
  rt::NodeOp Op;
  CUresult R = eventOp(Event, false, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphExecNodeSetParams(CUgraphExec Exec,
                                               CUgraphNode Node,
                                               CUgraphNodeParams *Params) {
  rt::NodeOp Op;
  CUresult R = nodeParamsOp(Params, Op);
  return setExecNode(Exec, Node, R, Op);
}

CUHIP_EXPORT CUresult cuGraphNodeSetEnabled(CUgraphExec Exec, CUgraphNode Node,
                                            unsigned int IsEnabled) {
  if (CUresult R = checkInit())
    return R;
  return toCU(
      rt::graphNodeSetEnabled(execOf(Exec), nodeOf(Node), IsEnabled != 0));
}

CUHIP_EXPORT CUresult cuGraphNodeGetEnabled(CUgraphExec Exec, CUgraphNode Node,
                                            unsigned int *IsEnabled) {
  if (CUresult R = checkInit())
    return R;
  if (!IsEnabled)
    return CUDA_ERROR_INVALID_VALUE;
  bool On = false;
  if (CUresult R = toCU(rt::graphNodeGetEnabled(execOf(Exec), nodeOf(Node), &On)))
    return R;
  *IsEnabled = On;
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// User objects and graph memory
//===----------------------------------------------------------------------===//

namespace {
rt::UserObject *userObjectOf(CUuserObject O) {
  return reinterpret_cast<rt::UserObject *>(O);
}
} // namespace

CUHIP_EXPORT CUresult cuUserObjectCreate(CUuserObject *Object, void *Ptr,
                                         CUhostFn Destroy,
                                         unsigned int InitialRefcount,
                                         unsigned int Flags) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::userObjectCreate(reinterpret_cast<rt::UserObject **>(Object),
                                   Ptr, Destroy, InitialRefcount, Flags));
}

CUHIP_EXPORT CUresult cuUserObjectRetain(CUuserObject Object,
                                         unsigned int Count) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::userObjectRetain(userObjectOf(Object), Count));
}

CUHIP_EXPORT CUresult cuUserObjectRelease(CUuserObject Object,
                                          unsigned int Count) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::userObjectRelease(userObjectOf(Object), Count));
}

CUHIP_EXPORT CUresult cuGraphRetainUserObject(CUgraph Graph,
                                              CUuserObject Object,
                                              unsigned int Count,
                                              unsigned int Flags) {
  if (CUresult R = checkInit())
    return R;
  return toCU(rt::graphRetainUserObject(graphOf(Graph), userObjectOf(Object),
                                        Count, Flags));
}

CUHIP_EXPORT CUresult cuGraphReleaseUserObject(CUgraph Graph,
                                               CUuserObject Object,
                                               unsigned int Count) {
  if (CUresult R = checkInit())
    return R;
  return toCU(
      rt::graphReleaseUserObject(graphOf(Graph), userObjectOf(Object), Count));
}

CUHIP_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice Device,
                                                   CUgraphMem_attribute Attr,
                                                   void *Value) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Device))
    return CUDA_ERROR_INVALID_DEVICE;
  return toCU(rt::deviceGetGraphMemAttribute(Device, Attr,
                                             static_cast<uint64_t *>(Value)));
}

CUHIP_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice Device,
                                                   CUgraphMem_attribute Attr,
                                                   void *Value) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Device))
    return CUDA_ERROR_INVALID_DEVICE;
  return toCU(rt::deviceSetGraphMemAttribute(Device, Attr,
                                             static_cast<uint64_t *>(Value)));
}

CUHIP_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice Device) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Device))
    return CUDA_ERROR_INVALID_DEVICE;
  return toCU(rt::deviceGraphMemTrim(Device));
}
