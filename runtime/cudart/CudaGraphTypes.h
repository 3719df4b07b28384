//===- CudaGraphTypes.h - The CUDA graph and capture ABI types, our own ---===//
//
// The handles, enums and parameter structures of CUDA 13's graph and stream
// capture API that libcudart's exported functions take, declared with the
// layout of driver_types.h. AbiTest.cpp compares them with the real headers.
// Declarations only, so the test can wrap the file in a namespace.
//
//===----------------------------------------------------------------------===//
#ifndef CUHIP_CUDART_CUDAGRAPHTYPES_H
#define CUHIP_CUDART_CUDAGRAPHTYPES_H

#include "CudaRuntimeTypes.h"

#include <cstddef>

typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};

enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8
};

struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};

struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};

struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
};

typedef struct cudaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
} cudaGraphEdgeData;

typedef struct cudaGraphExecUpdateResultInfo_st {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

// Used only behind pointers or as enum values by the functions cuhip does
// not implement (GraphStubs.cpp): declared, not defined. The enums are
// declared with int as their underlying type, which is how the C ABI passes
// CUDA's.
typedef struct CUuserObject_st *cudaUserObject_t;
typedef unsigned long long cudaGraphConditionalHandle;
typedef struct cudaGraphInstantiateParams_st cudaGraphInstantiateParams;
typedef enum cudaLaunchAttributeID cudaKernelNodeAttrID;
union cudaLaunchAttributeValue;
typedef union cudaLaunchAttributeValue cudaKernelNodeAttrValue;
enum cudaGraphMemAttributeType : int;
enum cudaGraphNodeType : int;
struct cudaExternalSemaphoreSignalNodeParams;
struct cudaExternalSemaphoreWaitNodeParams;
struct cudaGraphNodeParams;
struct cudaMemAllocNodeParams;
struct cudaMemcpy3DParms;

#endif
