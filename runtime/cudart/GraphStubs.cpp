//===- GraphStubs.cpp - The graph functions cuhip does not implement ------===//
//
// The rest of the CUDA 13 graph family: external semaphore nodes (cuhip has
// no external semaphores). Exported with the signatures of
// cuda_runtime_api.h so programs that import them load and run; each
// returns cudaErrorNotSupported and logs its name and why, once.
//
//===----------------------------------------------------------------------===//
#include "CudaGraphTypes.h"
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <mutex>

namespace {
constexpr const char *NoExternalSemaphores =
    "cuhip has no external semaphores";
cudaError_t notSupported(const char *Name, std::once_flag &Once) {
  std::call_once(Once, [Name] {
    CUHIP_WARN("%s is not implemented (%s); it returns cudaErrorNotSupported",
               Name, NoExternalSemaphores);
  });
  return cuhip::cudart::runtime().record(cuhip::rt::cudaErrorNotSupported);
}
} // namespace

#define CUHIP_GRAPH_STUB(Name, Params)                                         \
  CUHIP_EXPORT cudaError_t Name Params {                                       \
    static std::once_flag Once;                                                \
    return notSupported(#Name, Once);                                          \
  }

CUHIP_GRAPH_STUB(
    cudaGraphAddExternalSemaphoresSignalNode,
    (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
     const cudaGraphNode_t *pDependencies, size_t numDependencies,
     const struct cudaExternalSemaphoreSignalNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphAddExternalSemaphoresWaitNode,
                 (cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                  const struct cudaExternalSemaphoreWaitNodeParams *nodeParams))
CUHIP_GRAPH_STUB(
    cudaGraphExecExternalSemaphoresSignalNodeSetParams,
    (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
     const struct cudaExternalSemaphoreSignalNodeParams *nodeParams))
CUHIP_GRAPH_STUB(cudaGraphExecExternalSemaphoresWaitNodeSetParams,
                 (cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                  const struct cudaExternalSemaphoreWaitNodeParams *nodeParams))
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
