//===- GraphStubs.cpp - The graph functions cuhip does not implement ------===//
//
// Every other function of the CUDA 13 graph family (child graphs, event and
// memory-allocation nodes, node parameter getters and setters, conditional
// nodes, user objects, graph memory attributes, capture into an existing
// graph), exported with the signature of cuda_runtime_api.h so programs that
// import them load and run; each returns cudaErrorNotSupported and logs its
// name once. libcudart.so.12 also exports the _v2 names CUDA 12.3+ headers
// bind to (with the CUDA 13 parameter lists, which they share).
//
//===----------------------------------------------------------------------===//
#include "CudaGraphTypes.h"
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <mutex>

namespace {
cudaError_t notSupported(const char *Name, std::once_flag &Once) {
  std::call_once(Once, [Name] {
    CUHIP_WARN("%s is not implemented; it returns cudaErrorNotSupported", Name);
  });
  return cuhip::cudart::runtime().record(cuhip::rt::cudaErrorNotSupported);
}
} // namespace

#define CUHIP_GRAPH_STUB(Name, Params)                                         \
  CUHIP_EXPORT cudaError_t Name Params {                                       \
    static std::once_flag Once;                                                \
    return notSupported(#Name, Once);                                          \
  }

CUHIP_GRAPH_STUB(cudaDeviceGetGraphMemAttribute,
                 (int device, enum cudaGraphMemAttributeType attr, void *value))
CUHIP_GRAPH_STUB(cudaDeviceGraphMemTrim, (int device))
CUHIP_GRAPH_STUB(cudaDeviceSetGraphMemAttribute,
                 (int device, enum cudaGraphMemAttributeType attr, void *value))
CUHIP_GRAPH_STUB(cudaGraphAddChildGraphNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  cudaGraph_t childGraph))
CUHIP_GRAPH_STUB(cudaGraphAddEventRecordNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  cudaEvent_t event))
CUHIP_GRAPH_STUB(cudaGraphAddEventWaitNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  cudaEvent_t event))
CUHIP_GRAPH_STUB(
    cudaGraphAddExternalSemaphoresSignalNode,
    (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
     const cudaGraphNode_t *pDependencies, size_t numDependencies,
     const struct cudaExternalSemaphoreSignalNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphAddExternalSemaphoresWaitNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  const struct cudaExternalSemaphoreWaitNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphAddMemAllocNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  struct cudaMemAllocNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphAddMemFreeNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  void *dptr))
CUHIP_GRAPH_STUB(cudaGraphAddMemcpyNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  const struct cudaMemcpy3DParms *pCopyParams))
CUHIP_GRAPH_STUB(cudaGraphAddMemcpyNodeFromSymbol,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  void *dst, const void *symbol, size_t count, size_t offset,
                  enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphAddMemcpyNodeToSymbol,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  const void *symbol, const void *src, size_t count,
                  size_t offset, enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphAddNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies,
                  struct cudaGraphNodeParams *nodeParams))
#if CUHIP_CUDART_MAJOR < 13
CUHIP_GRAPH_STUB(cudaGraphAddNode_v2,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies,
                  struct cudaGraphNodeParams *nodeParams))
#endif
CUHIP_GRAPH_STUB(cudaGraphChildGraphNodeGetGraph,
                 (cudaGraphNode_t node, cudaGraph_t *pGraph))
CUHIP_GRAPH_STUB(cudaGraphConditionalHandleCreate,
                 (cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                  unsigned int defaultLaunchValue, unsigned int flags))
CUHIP_GRAPH_STUB(cudaGraphDestroyNode, (cudaGraphNode_t node))
CUHIP_GRAPH_STUB(cudaGraphEventRecordNodeGetEvent,
                 (cudaGraphNode_t node, cudaEvent_t *event_out))
CUHIP_GRAPH_STUB(cudaGraphEventRecordNodeSetEvent,
                 (cudaGraphNode_t node, cudaEvent_t event))
CUHIP_GRAPH_STUB(cudaGraphEventWaitNodeGetEvent,
                 (cudaGraphNode_t node, cudaEvent_t *event_out))
CUHIP_GRAPH_STUB(cudaGraphEventWaitNodeSetEvent,
                 (cudaGraphNode_t node, cudaEvent_t event))
CUHIP_GRAPH_STUB(cudaGraphExecChildGraphNodeSetParams,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                  cudaGraph_t childGraph))
CUHIP_GRAPH_STUB(cudaGraphExecEventRecordNodeSetEvent,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                  cudaEvent_t event))
CUHIP_GRAPH_STUB(cudaGraphExecEventWaitNodeSetEvent,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                  cudaEvent_t event))
CUHIP_GRAPH_STUB(
    cudaGraphExecExternalSemaphoresSignalNodeSetParams,
    (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
     const struct cudaExternalSemaphoreSignalNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphExecExternalSemaphoresWaitNodeSetParams,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                  const struct cudaExternalSemaphoreWaitNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphExecGetFlags,
                 (cudaGraphExec_t graphExec, unsigned long long *flags))
CUHIP_GRAPH_STUB(cudaGraphExecHostNodeSetParams,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                  const struct cudaHostNodeParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphExecMemcpyNodeSetParams,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                  const struct cudaMemcpy3DParms *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphExecMemcpyNodeSetParams1D,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                  const void *src, size_t count, enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphExecMemcpyNodeSetParamsFromSymbol,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                  const void *symbol, size_t count, size_t offset,
                  enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphExecMemcpyNodeSetParamsToSymbol,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                  const void *symbol, const void *src, size_t count,
                  size_t offset, enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphExecMemsetNodeSetParams,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                  const struct cudaMemsetParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphExecNodeSetParams,
                 (cudaGraphExec_t graphExec, cudaGraphNode_t node,
                  struct cudaGraphNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphExternalSemaphoresSignalNodeGetParams,
                 (cudaGraphNode_t hNode,
                  struct cudaExternalSemaphoreSignalNodeParams *params_out))
CUHIP_GRAPH_STUB(
    cudaGraphExternalSemaphoresSignalNodeSetParams,
    (cudaGraphNode_t hNode,
     const struct cudaExternalSemaphoreSignalNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphExternalSemaphoresWaitNodeGetParams,
                 (cudaGraphNode_t hNode,
                  struct cudaExternalSemaphoreWaitNodeParams *params_out))
CUHIP_GRAPH_STUB(cudaGraphExternalSemaphoresWaitNodeSetParams,
                 (cudaGraphNode_t hNode,
                  const struct cudaExternalSemaphoreWaitNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphGetEdges,
                 (cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                  cudaGraphEdgeData *edgeData, size_t *numEdges))
#if CUHIP_CUDART_MAJOR < 13
CUHIP_GRAPH_STUB(cudaGraphGetEdges_v2,
                 (cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                  cudaGraphEdgeData *edgeData, size_t *numEdges))
#endif
CUHIP_GRAPH_STUB(cudaGraphGetRootNodes,
                 (cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                  size_t *pNumRootNodes))
CUHIP_GRAPH_STUB(cudaGraphHostNodeGetParams,
                 (cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphHostNodeSetParams,
                 (cudaGraphNode_t node,
                  const struct cudaHostNodeParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphInstantiateWithParams,
                 (cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                  cudaGraphInstantiateParams *instantiateParams))
CUHIP_GRAPH_STUB(cudaGraphInstantiateWithParams_ptsz,
                 (cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                  cudaGraphInstantiateParams *instantiateParams))
CUHIP_GRAPH_STUB(cudaGraphKernelNodeCopyAttributes,
                 (cudaGraphNode_t hDst, cudaGraphNode_t hSrc))
CUHIP_GRAPH_STUB(cudaGraphKernelNodeGetAttribute,
                 (cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
                  cudaLaunchAttributeValue *value_out))
CUHIP_GRAPH_STUB(cudaGraphKernelNodeGetParams,
                 (cudaGraphNode_t node,
                  struct cudaKernelNodeParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphKernelNodeSetAttribute,
                 (cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
                  const cudaLaunchAttributeValue *value))
CUHIP_GRAPH_STUB(cudaGraphKernelNodeSetParams,
                 (cudaGraphNode_t node,
                  const struct cudaKernelNodeParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphMemAllocNodeGetParams,
                 (cudaGraphNode_t node,
                  struct cudaMemAllocNodeParams *params_out))
CUHIP_GRAPH_STUB(cudaGraphMemFreeNodeGetParams,
                 (cudaGraphNode_t node, void *dptr_out))
CUHIP_GRAPH_STUB(cudaGraphMemcpyNodeGetParams,
                 (cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphMemcpyNodeSetParams,
                 (cudaGraphNode_t node,
                  const struct cudaMemcpy3DParms *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphMemcpyNodeSetParams1D,
                 (cudaGraphNode_t node, void *dst, const void *src,
                  size_t count, enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphMemcpyNodeSetParamsFromSymbol,
                 (cudaGraphNode_t node, void *dst, const void *symbol,
                  size_t count, size_t offset, enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphMemcpyNodeSetParamsToSymbol,
                 (cudaGraphNode_t node, const void *symbol, const void *src,
                  size_t count, size_t offset, enum cudaMemcpyKind kind))
CUHIP_GRAPH_STUB(cudaGraphMemsetNodeGetParams,
                 (cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphMemsetNodeSetParams,
                 (cudaGraphNode_t node,
                  const struct cudaMemsetParams *pNodeParams))
CUHIP_GRAPH_STUB(cudaGraphNodeFindInClone,
                 (cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                  cudaGraph_t clonedGraph))
CUHIP_GRAPH_STUB(cudaGraphNodeGetDependencies,
                 (cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                  cudaGraphEdgeData *edgeData, size_t *pNumDependencies))
#if CUHIP_CUDART_MAJOR < 13
CUHIP_GRAPH_STUB(cudaGraphNodeGetDependencies_v2,
                 (cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                  cudaGraphEdgeData *edgeData, size_t *pNumDependencies))
#endif
CUHIP_GRAPH_STUB(cudaGraphNodeGetDependentNodes,
                 (cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                  cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes))
#if CUHIP_CUDART_MAJOR < 13
CUHIP_GRAPH_STUB(cudaGraphNodeGetDependentNodes_v2,
                 (cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                  cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes))
#endif
CUHIP_GRAPH_STUB(cudaGraphNodeGetEnabled,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                  unsigned int *isEnabled))
CUHIP_GRAPH_STUB(cudaGraphNodeGetType,
                 (cudaGraphNode_t node, enum cudaGraphNodeType *pType))
CUHIP_GRAPH_STUB(cudaGraphNodeSetEnabled,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                  unsigned int isEnabled))
CUHIP_GRAPH_STUB(cudaGraphNodeSetParams,
                 (cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphReleaseUserObject,
                 (cudaGraph_t graph, cudaUserObject_t object,
                  unsigned int count))
CUHIP_GRAPH_STUB(cudaGraphRemoveDependencies,
                 (cudaGraph_t graph, const cudaGraphNode_t *from,
                  const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                  size_t numDependencies))
#if CUHIP_CUDART_MAJOR < 13
CUHIP_GRAPH_STUB(cudaGraphRemoveDependencies_v2,
                 (cudaGraph_t graph, const cudaGraphNode_t *from,
                  const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                  size_t numDependencies))
#endif
CUHIP_GRAPH_STUB(cudaGraphRetainUserObject,
                 (cudaGraph_t graph, cudaUserObject_t object,
                  unsigned int count, unsigned int flags))
CUHIP_GRAPH_STUB(cudaGraphUpload,
                 (cudaGraphExec_t graphExec, cudaStream_t stream))
CUHIP_GRAPH_STUB(cudaGraphUpload_ptsz,
                 (cudaGraphExec_t graphExec, cudaStream_t stream))
CUHIP_GRAPH_STUB(cudaStreamBeginCaptureToGraph,
                 (cudaStream_t stream, cudaGraph_t graph,
                  const cudaGraphNode_t *dependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies, enum cudaStreamCaptureMode mode))
CUHIP_GRAPH_STUB(cudaStreamBeginCaptureToGraph_ptsz,
                 (cudaStream_t stream, cudaGraph_t graph,
                  const cudaGraphNode_t *dependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies, enum cudaStreamCaptureMode mode))
CUHIP_GRAPH_STUB(cudaStreamUpdateCaptureDependencies,
                 (cudaStream_t stream, cudaGraphNode_t *dependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies, unsigned int flags))
CUHIP_GRAPH_STUB(cudaStreamUpdateCaptureDependencies_ptsz,
                 (cudaStream_t stream, cudaGraphNode_t *dependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies, unsigned int flags))
#if CUHIP_CUDART_MAJOR < 13
CUHIP_GRAPH_STUB(cudaStreamUpdateCaptureDependencies_v2,
                 (cudaStream_t stream, cudaGraphNode_t *dependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies, unsigned int flags))
CUHIP_GRAPH_STUB(cudaStreamUpdateCaptureDependencies_v2_ptsz,
                 (cudaStream_t stream, cudaGraphNode_t *dependencies,
                  const cudaGraphEdgeData *dependencyData,
                  size_t numDependencies, unsigned int flags))
#endif
CUHIP_GRAPH_STUB(cudaUserObjectCreate,
                 (cudaUserObject_t *object_out, void *ptr,
                  cudaHostFn_t destroy, unsigned int initialRefcount,
                  unsigned int flags))
CUHIP_GRAPH_STUB(cudaUserObjectRelease,
                 (cudaUserObject_t object, unsigned int count))
CUHIP_GRAPH_STUB(cudaUserObjectRetain,
                 (cudaUserObject_t object, unsigned int count))
