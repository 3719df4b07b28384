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

} // namespace
