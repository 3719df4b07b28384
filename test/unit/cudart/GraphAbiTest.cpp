//===- GraphAbiTest.cpp - cuhip's graph ABI types against CUDA's ----------===//
//
// The graph and stream-capture types libcudart declares itself
// (CudaGraphTypes.h) against the toolkit's driver_types.h: structure sizes,
// field offsets and enum values.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include <cstddef>
#include <gtest/gtest.h>

namespace cuhip_abi {
#include "CudaGraphTypes.h"
}

namespace {

#define SAME_LAYOUT(Type)                                                      \
  EXPECT_EQ(sizeof(::Type), sizeof(cuhip_abi::Type)) << #Type;                 \
  EXPECT_EQ(alignof(::Type), alignof(cuhip_abi::Type)) << #Type;
#define SAME_OFFSET(Type, Field)                                               \
  EXPECT_EQ(offsetof(::Type, Field), offsetof(cuhip_abi::Type, Field))         \
      << #Type "::" #Field;
#define SAME_VALUE(Name) EXPECT_EQ(int(::Name), int(cuhip_abi::Name)) << #Name;

TEST(CudaAbi, GraphParameterStructures) {
  SAME_LAYOUT(cudaKernelNodeParams)
  SAME_OFFSET(cudaKernelNodeParams, func)
  SAME_OFFSET(cudaKernelNodeParams, gridDim)
  SAME_OFFSET(cudaKernelNodeParams, blockDim)
  SAME_OFFSET(cudaKernelNodeParams, sharedMemBytes)
  SAME_OFFSET(cudaKernelNodeParams, kernelParams)
  SAME_OFFSET(cudaKernelNodeParams, extra)
  SAME_LAYOUT(cudaMemsetParams)
  SAME_OFFSET(cudaMemsetParams, dst)
  SAME_OFFSET(cudaMemsetParams, pitch)
  SAME_OFFSET(cudaMemsetParams, value)
  SAME_OFFSET(cudaMemsetParams, elementSize)
  SAME_OFFSET(cudaMemsetParams, width)
  SAME_OFFSET(cudaMemsetParams, height)
  SAME_LAYOUT(cudaHostNodeParams)
  SAME_OFFSET(cudaHostNodeParams, fn)
  SAME_OFFSET(cudaHostNodeParams, userData)
  SAME_LAYOUT(cudaGraphEdgeData)
  SAME_OFFSET(cudaGraphEdgeData, from_port)
  SAME_OFFSET(cudaGraphEdgeData, to_port)
  SAME_OFFSET(cudaGraphEdgeData, type)
  SAME_OFFSET(cudaGraphEdgeData, reserved)
  SAME_LAYOUT(cudaGraphExecUpdateResultInfo)
  SAME_OFFSET(cudaGraphExecUpdateResultInfo, result)
  SAME_OFFSET(cudaGraphExecUpdateResultInfo, errorNode)
  SAME_OFFSET(cudaGraphExecUpdateResultInfo, errorFromNode)
}

TEST(CudaAbi, CaptureAndUpdateEnums) {
  SAME_VALUE(cudaStreamCaptureStatusNone)
  SAME_VALUE(cudaStreamCaptureStatusActive)
  SAME_VALUE(cudaStreamCaptureStatusInvalidated)
  SAME_VALUE(cudaStreamCaptureModeGlobal)
  SAME_VALUE(cudaStreamCaptureModeThreadLocal)
  SAME_VALUE(cudaStreamCaptureModeRelaxed)
  SAME_VALUE(cudaGraphExecUpdateSuccess)
  SAME_VALUE(cudaGraphExecUpdateErrorTopologyChanged)
  SAME_VALUE(cudaGraphExecUpdateErrorNodeTypeChanged)
  SAME_VALUE(cudaGraphExecUpdateErrorUnsupportedFunctionChange)
  SAME_VALUE(cudaGraphExecUpdateErrorAttributesChanged)
  EXPECT_EQ(sizeof(::cudaStreamCaptureMode),
            sizeof(cuhip_abi::cudaStreamCaptureMode));
  EXPECT_EQ(sizeof(::cudaGraphConditionalHandle),
            sizeof(cuhip_abi::cudaGraphConditionalHandle));
}

TEST(CudaAbi, GraphNodeParameterStructures) {
  SAME_LAYOUT(cudaKernelNodeParamsV2)
  SAME_OFFSET(cudaKernelNodeParamsV2, sharedMemBytes)
  SAME_OFFSET(cudaKernelNodeParamsV2, extra)
  SAME_LAYOUT(cudaMemcpyNodeParams)
  SAME_OFFSET(cudaMemcpyNodeParams, flags)
  SAME_OFFSET(cudaMemcpyNodeParams, reserved)
  SAME_OFFSET(cudaMemcpyNodeParams, copyParams)
  SAME_LAYOUT(cudaMemsetParamsV2)
  SAME_OFFSET(cudaMemsetParamsV2, elementSize)
  SAME_OFFSET(cudaMemsetParamsV2, height)
  SAME_LAYOUT(cudaHostNodeParamsV2)
  SAME_OFFSET(cudaHostNodeParamsV2, userData)
  SAME_LAYOUT(cudaChildGraphNodeParams)
  SAME_OFFSET(cudaChildGraphNodeParams, graph)
  SAME_OFFSET(cudaChildGraphNodeParams, ownership)
  SAME_LAYOUT(cudaEventRecordNodeParams)
  SAME_LAYOUT(cudaEventWaitNodeParams)
  SAME_LAYOUT(cudaMemAccessDesc)
  SAME_OFFSET(cudaMemAccessDesc, location)
  SAME_OFFSET(cudaMemAccessDesc, flags)
  SAME_LAYOUT(cudaMemAllocNodeParams)
  SAME_OFFSET(cudaMemAllocNodeParams, poolProps)
  SAME_OFFSET(cudaMemAllocNodeParams, accessDescs)
  SAME_OFFSET(cudaMemAllocNodeParams, accessDescCount)
  SAME_OFFSET(cudaMemAllocNodeParams, bytesize)
  SAME_OFFSET(cudaMemAllocNodeParams, dptr)
  SAME_LAYOUT(cudaMemAllocNodeParamsV2)
  SAME_OFFSET(cudaMemAllocNodeParamsV2, dptr)
  SAME_LAYOUT(cudaMemFreeNodeParams)
  SAME_LAYOUT(cudaGraphNodeParams)
  SAME_OFFSET(cudaGraphNodeParams, type)
  SAME_OFFSET(cudaGraphNodeParams, reserved0)
  SAME_OFFSET(cudaGraphNodeParams, kernel)
  SAME_OFFSET(cudaGraphNodeParams, memcpy)
  SAME_OFFSET(cudaGraphNodeParams, memset)
  SAME_OFFSET(cudaGraphNodeParams, host)
  SAME_OFFSET(cudaGraphNodeParams, graph)
  SAME_OFFSET(cudaGraphNodeParams, eventWait)
  SAME_OFFSET(cudaGraphNodeParams, eventRecord)
  SAME_OFFSET(cudaGraphNodeParams, alloc)
  SAME_OFFSET(cudaGraphNodeParams, free)
  SAME_OFFSET(cudaGraphNodeParams, reserved2)
  SAME_LAYOUT(cudaGraphInstantiateParams)
  SAME_OFFSET(cudaGraphInstantiateParams, flags)
  SAME_OFFSET(cudaGraphInstantiateParams, uploadStream)
  SAME_OFFSET(cudaGraphInstantiateParams, errNode_out)
  SAME_OFFSET(cudaGraphInstantiateParams, result_out)
}

TEST(CudaAbi, GraphNodeEnums) {
  SAME_VALUE(cudaGraphNodeTypeKernel)
  SAME_VALUE(cudaGraphNodeTypeMemcpy)
  SAME_VALUE(cudaGraphNodeTypeMemset)
  SAME_VALUE(cudaGraphNodeTypeHost)
  SAME_VALUE(cudaGraphNodeTypeGraph)
  SAME_VALUE(cudaGraphNodeTypeEmpty)
  SAME_VALUE(cudaGraphNodeTypeWaitEvent)
  SAME_VALUE(cudaGraphNodeTypeEventRecord)
  SAME_VALUE(cudaGraphNodeTypeExtSemaphoreSignal)
  SAME_VALUE(cudaGraphNodeTypeExtSemaphoreWait)
  SAME_VALUE(cudaGraphNodeTypeMemAlloc)
  SAME_VALUE(cudaGraphNodeTypeMemFree)
  SAME_VALUE(cudaGraphNodeTypeConditional)
  SAME_VALUE(cudaGraphNodeTypeCount)
  SAME_VALUE(cudaGraphInstantiateFlagAutoFreeOnLaunch)
  SAME_VALUE(cudaGraphInstantiateFlagUpload)
  SAME_VALUE(cudaGraphInstantiateFlagDeviceLaunch)
  SAME_VALUE(cudaGraphInstantiateFlagUseNodePriority)
  SAME_VALUE(cudaGraphInstantiateSuccess)
  SAME_VALUE(cudaGraphInstantiateError)
  SAME_VALUE(cudaGraphInstantiateInvalidStructure)
  SAME_VALUE(cudaGraphInstantiateConditionalHandleUnused)
  SAME_VALUE(cudaGraphMemAttrUsedMemCurrent)
  SAME_VALUE(cudaGraphMemAttrUsedMemHigh)
  SAME_VALUE(cudaGraphMemAttrReservedMemCurrent)
  SAME_VALUE(cudaGraphMemAttrReservedMemHigh)
  SAME_VALUE(cudaUserObjectNoDestructorSync)
  SAME_VALUE(cudaGraphUserObjectMove)
  SAME_VALUE(cudaMemAccessFlagsProtNone)
  SAME_VALUE(cudaMemAccessFlagsProtRead)
  SAME_VALUE(cudaMemAccessFlagsProtReadWrite)
  SAME_VALUE(cudaGraphChildGraphOwnershipClone)
  SAME_VALUE(cudaGraphChildGraphOwnershipMove)
  EXPECT_EQ(sizeof(::cudaGraphNodeType), sizeof(cuhip_abi::cudaGraphNodeType));
}

} // namespace
