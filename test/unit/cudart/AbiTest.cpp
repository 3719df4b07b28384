//===- AbiTest.cpp - cuhip's CUDA types against the real CUDA headers -----===//
//
// libcudart is built without the CUDA toolkit, from its own declarations of
// the CUDA ABI types. This test compiles those declarations next to the
// toolkit's headers and checks sizes, every field offset of cudaDeviceProp,
// and every cudaError_t value. Built only when the toolkit is present.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include <cstddef>
#include <gtest/gtest.h>

namespace cuhip_abi {
#include "CudaRuntimeTypes.h"
}

namespace {

#define FIELD_OFFSET_MATCHES(Field)                                            \
  EXPECT_EQ(offsetof(::cudaDeviceProp, Field),                                 \
            offsetof(cuhip_abi::cudaDeviceProp, Field))                        \
      << #Field;

TEST(CudaAbi, DevicePropLayoutIsCuda13s) {
  EXPECT_EQ(sizeof(::cudaDeviceProp), sizeof(cuhip_abi::cudaDeviceProp));
  FIELD_OFFSET_MATCHES(name)
  FIELD_OFFSET_MATCHES(uuid)
  FIELD_OFFSET_MATCHES(luid)
  FIELD_OFFSET_MATCHES(luidDeviceNodeMask)
  FIELD_OFFSET_MATCHES(totalGlobalMem)
  FIELD_OFFSET_MATCHES(sharedMemPerBlock)
  FIELD_OFFSET_MATCHES(regsPerBlock)
  FIELD_OFFSET_MATCHES(warpSize)
  FIELD_OFFSET_MATCHES(memPitch)
  FIELD_OFFSET_MATCHES(maxThreadsPerBlock)
  FIELD_OFFSET_MATCHES(maxThreadsDim)
  FIELD_OFFSET_MATCHES(maxGridSize)
  FIELD_OFFSET_MATCHES(totalConstMem)
  FIELD_OFFSET_MATCHES(major)
  FIELD_OFFSET_MATCHES(minor)
  FIELD_OFFSET_MATCHES(textureAlignment)
  FIELD_OFFSET_MATCHES(multiProcessorCount)
  FIELD_OFFSET_MATCHES(integrated)
  FIELD_OFFSET_MATCHES(canMapHostMemory)
  FIELD_OFFSET_MATCHES(maxSurfaceCubemapLayered)
  FIELD_OFFSET_MATCHES(surfaceAlignment)
  FIELD_OFFSET_MATCHES(concurrentKernels)
  FIELD_OFFSET_MATCHES(unifiedAddressing)
  FIELD_OFFSET_MATCHES(l2CacheSize)
  FIELD_OFFSET_MATCHES(maxThreadsPerMultiProcessor)
  FIELD_OFFSET_MATCHES(sharedMemPerMultiprocessor)
  FIELD_OFFSET_MATCHES(managedMemory)
  FIELD_OFFSET_MATCHES(concurrentManagedAccess)
  FIELD_OFFSET_MATCHES(cooperativeLaunch)
  FIELD_OFFSET_MATCHES(sharedMemPerBlockOptin)
  FIELD_OFFSET_MATCHES(maxBlocksPerMultiProcessor)
  FIELD_OFFSET_MATCHES(reservedSharedMemPerBlock)
  FIELD_OFFSET_MATCHES(memoryPoolsSupported)
  FIELD_OFFSET_MATCHES(clusterLaunch)
  FIELD_OFFSET_MATCHES(deviceNumaId)
  FIELD_OFFSET_MATCHES(hostNumaId)
  FIELD_OFFSET_MATCHES(gpuPciSubsystemID)
  FIELD_OFFSET_MATCHES(hostNumaMultinodeIpcSupported)
  FIELD_OFFSET_MATCHES(reserved)
}

TEST(CudaAbi, SmallTypes) {
  EXPECT_EQ(sizeof(::dim3), sizeof(cuhip_abi::dim3));
  EXPECT_EQ(sizeof(::cudaError_t), sizeof(cuhip_abi::cudaError_t));
  EXPECT_EQ(sizeof(::cudaMemcpyKind), sizeof(cuhip_abi::cudaMemcpyKind));
  EXPECT_EQ(int(::cudaMemcpyDefault), int(cuhip_abi::cudaMemcpyDefault));
  EXPECT_EQ(int(::cudaMemcpyDeviceToHost), int(cuhip_abi::cudaMemcpyDeviceToHost));
}

TEST(CudaAbi, EveryErrorCodeHasTheToolkitsValue) {
#define CUHIP_CUDA_ERROR(Name, Value, Desc) EXPECT_EQ(int(::Name), Value) << #Name;
#include "cuhip/runtime/CudaErrors.def"
#undef CUHIP_CUDA_ERROR
}

} // namespace
