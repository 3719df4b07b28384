//===- AbiTest.cpp - libcuda's driver types against the real cuda.h -------===//
//
// libcuda.so.1 is built from its own declarations of the driver API's ABI
// (CudaDriverTypes.h and the generated tables). This test compiles them
// next to the toolkit's cuda.h and checks every CUresult and
// CUdevice_attribute value, the enum constants cuhip uses, and the size and
// field offsets of each structure. Built only when the toolkit is present.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstddef>
#include <gtest/gtest.h>

// cuda.h guards CUuuid so that other headers may declare it; ours does
// the same, and here must declare it again to be compared.
#undef CU_UUID_HAS_BEEN_DEFINED
namespace cuhip_abi {
#include "CudaDriverTypes.h"
}

namespace {

TEST(CudaDriverAbi, EveryCUresultValueMatches) {
  int Count = 0;
#define CUHIP_CU_ERROR(Name, Value)                                            \
  EXPECT_EQ(int(::Name), Value) << #Name;                                      \
  EXPECT_EQ(int(cuhip_abi::Name), Value) << #Name;                             \
  ++Count;
#include "CudaDriverErrors.def"
#undef CUHIP_CU_ERROR
  EXPECT_GT(Count, 90);
}

TEST(CudaDriverAbi, EveryDeviceAttributeValueMatches) {
  int Count = 0;
#define CUHIP_DEVICE_ATTRIBUTE(Name, Value)                                    \
  EXPECT_EQ(int(::CU_DEVICE_ATTRIBUTE_##Name), Value) << #Name;                \
  ++Count;
#include "cuhip/runtime/DeviceAttributes.def"
#undef CUHIP_DEVICE_ATTRIBUTE
  // Every attribute below CU_DEVICE_ATTRIBUTE_MAX is in the table.
  EXPECT_GE(Count, int(::CU_DEVICE_ATTRIBUTE_MAX) - 1);
}

#define SAME_VALUE(Name) EXPECT_EQ((long long)(::Name), (long long)(cuhip_abi::Name)) << #Name;

TEST(CudaDriverAbi, EnumConstantsMatch) {
  SAME_VALUE(CU_JIT_INFO_LOG_BUFFER)
  SAME_VALUE(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
  SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER)
  SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
  EXPECT_EQ(int(::CU_JIT_NUM_OPTIONS), int(cuhip_abi::CU_JIT_NUM_OPTIONS_CUDA13));
  SAME_VALUE(CU_JIT_INPUT_CUBIN)
  SAME_VALUE(CU_JIT_INPUT_PTX)
  SAME_VALUE(CU_JIT_INPUT_FATBINARY)
  SAME_VALUE(CU_JIT_INPUT_OBJECT)
  SAME_VALUE(CU_JIT_INPUT_LIBRARY)
  SAME_VALUE(CU_JIT_INPUT_NVVM)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_NUM_REGS)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_PTX_VERSION)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_BINARY_VERSION)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE)
  SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_CONTEXT)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_DEVICE_POINTER)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_HOST_POINTER)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_BUFFER_ID)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_IS_MANAGED)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_RANGE_SIZE)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_MAPPED)
  SAME_VALUE(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS)
  SAME_VALUE(CU_MEMORYTYPE_HOST)
  SAME_VALUE(CU_MEMORYTYPE_DEVICE)
  SAME_VALUE(CU_MEMORYTYPE_ARRAY)
  SAME_VALUE(CU_MEMORYTYPE_UNIFIED)
  SAME_VALUE(CU_LIMIT_STACK_SIZE)
  SAME_VALUE(CU_LIMIT_PRINTF_FIFO_SIZE)
  SAME_VALUE(CU_LIMIT_MALLOC_HEAP_SIZE)
  SAME_VALUE(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH)
  SAME_VALUE(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT)
  SAME_VALUE(CU_LIMIT_MAX_L2_FETCH_GRANULARITY)
  SAME_VALUE(CU_LIMIT_PERSISTING_L2_CACHE_SIZE)
  SAME_VALUE(CU_CTX_SCHED_MASK)
  SAME_VALUE(CU_CTX_MAP_HOST)
  SAME_VALUE(CU_CTX_LMEM_RESIZE_TO_MAX)
  SAME_VALUE(CU_CTX_FLAGS_MASK)
  SAME_VALUE(CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
  SAME_VALUE(CU_GET_PROC_ADDRESS_DEFAULT)
  SAME_VALUE(CU_GET_PROC_ADDRESS_LEGACY_STREAM)
  SAME_VALUE(CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
  SAME_VALUE(CU_GET_PROC_ADDRESS_SUCCESS)
  SAME_VALUE(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND)
  SAME_VALUE(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT)
  SAME_VALUE(CU_MODULE_EAGER_LOADING)
  SAME_VALUE(CU_MODULE_LAZY_LOADING)
  SAME_VALUE(CU_MEM_ATTACH_GLOBAL)
  SAME_VALUE(CU_MEM_ATTACH_HOST)
  EXPECT_EQ(CU_LAUNCH_PARAM_END_AS_INT, 0);
  EXPECT_EQ(CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT, 1);
  EXPECT_EQ(CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT, 2);
  // Values cuhip writes as plain numbers.
  EXPECT_EQ(int(::CU_MEM_ALLOCATION_TYPE_PINNED), 1);
  EXPECT_EQ(int(::CU_MEM_LOCATION_TYPE_DEVICE), 1);
  EXPECT_EQ(int(::CU_MEM_ACCESS_FLAGS_PROT_READ), 1);
  EXPECT_EQ(int(::CU_MEM_ACCESS_FLAGS_PROT_READWRITE), 3);
  EXPECT_EQ(int(::CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE), 3);
  EXPECT_EQ(int(::CU_FUNCTION_LOADING_STATE_LOADED), 1);
  EXPECT_EQ(int(::CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE), 1);
  EXPECT_EQ(int(::CU_EVENT_RECORD_EXTERNAL), 1);
  EXPECT_EQ(int(CU_DEVICE_INVALID), -2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(CU_STREAM_LEGACY), 1u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(CU_STREAM_PER_THREAD), 2u);
}

#define SAME_SIZE(T) EXPECT_EQ(sizeof(::T), sizeof(cuhip_abi::T)) << #T;
#define SAME_OFFSET(T, F)                                                      \
  EXPECT_EQ(offsetof(::T, F), offsetof(cuhip_abi::T, F)) << #T "." #F;

TEST(CudaDriverAbi, ScalarAndHandleSizesMatch) {
  SAME_SIZE(CUresult)
  SAME_SIZE(CUdevice)
  SAME_SIZE(CUdeviceptr)
  SAME_SIZE(CUcontext)
  SAME_SIZE(CUmemGenericAllocationHandle)
  SAME_SIZE(CUuuid)
  EXPECT_EQ(sizeof(::CUdevice_attribute), sizeof(cuhip_abi::CUdevice_attribute));
  EXPECT_EQ(sizeof(::CUjit_option), sizeof(cuhip_abi::CUjit_option));
  EXPECT_EQ(sizeof(::CUfunction_attribute), sizeof(cuhip_abi::CUfunction_attribute));
  EXPECT_EQ(sizeof(::CUpointer_attribute), sizeof(cuhip_abi::CUpointer_attribute));
  EXPECT_EQ(sizeof(::CUdriverProcAddressQueryResult),
            sizeof(cuhip_abi::CUdriverProcAddressQueryResult));
}

TEST(CudaDriverAbi, StructLayoutsMatch) {
  SAME_SIZE(CUdevprop)
  SAME_OFFSET(CUdevprop, maxGridSize)
  SAME_OFFSET(CUdevprop, sharedMemPerBlock)
  SAME_OFFSET(CUdevprop, clockRate)
  SAME_OFFSET(CUdevprop, textureAlign)

  SAME_SIZE(CUDA_MEMCPY2D)
  SAME_OFFSET(CUDA_MEMCPY2D, srcMemoryType)
  SAME_OFFSET(CUDA_MEMCPY2D, srcHost)
  SAME_OFFSET(CUDA_MEMCPY2D, srcDevice)
  SAME_OFFSET(CUDA_MEMCPY2D, srcArray)
  SAME_OFFSET(CUDA_MEMCPY2D, srcPitch)
  SAME_OFFSET(CUDA_MEMCPY2D, dstXInBytes)
  SAME_OFFSET(CUDA_MEMCPY2D, dstMemoryType)
  SAME_OFFSET(CUDA_MEMCPY2D, dstHost)
  SAME_OFFSET(CUDA_MEMCPY2D, dstDevice)
  SAME_OFFSET(CUDA_MEMCPY2D, dstPitch)
  SAME_OFFSET(CUDA_MEMCPY2D, WidthInBytes)
  SAME_OFFSET(CUDA_MEMCPY2D, Height)

  SAME_SIZE(CUDA_MEMCPY3D)
  SAME_OFFSET(CUDA_MEMCPY3D, srcZ)
  SAME_OFFSET(CUDA_MEMCPY3D, srcLOD)
  SAME_OFFSET(CUDA_MEMCPY3D, srcMemoryType)
  SAME_OFFSET(CUDA_MEMCPY3D, srcHost)
  SAME_OFFSET(CUDA_MEMCPY3D, srcDevice)
  SAME_OFFSET(CUDA_MEMCPY3D, reserved0)
  SAME_OFFSET(CUDA_MEMCPY3D, srcPitch)
  SAME_OFFSET(CUDA_MEMCPY3D, srcHeight)
  SAME_OFFSET(CUDA_MEMCPY3D, dstXInBytes)
  SAME_OFFSET(CUDA_MEMCPY3D, dstZ)
  SAME_OFFSET(CUDA_MEMCPY3D, dstMemoryType)
  SAME_OFFSET(CUDA_MEMCPY3D, dstDevice)
  SAME_OFFSET(CUDA_MEMCPY3D, reserved1)
  SAME_OFFSET(CUDA_MEMCPY3D, dstPitch)
  SAME_OFFSET(CUDA_MEMCPY3D, dstHeight)
  SAME_OFFSET(CUDA_MEMCPY3D, WidthInBytes)
  SAME_OFFSET(CUDA_MEMCPY3D, Height)
  SAME_OFFSET(CUDA_MEMCPY3D, Depth)

  SAME_SIZE(CUlaunchAttributeValue)
  SAME_SIZE(CUlaunchAttribute)
  SAME_OFFSET(CUlaunchAttribute, value)
  EXPECT_EQ(offsetof(::CUlaunchAttributeValue, cooperative),
            offsetof(cuhip_abi::CUlaunchAttributeValue, cooperative));
  SAME_SIZE(CUlaunchConfig)
  SAME_OFFSET(CUlaunchConfig, sharedMemBytes)
  SAME_OFFSET(CUlaunchConfig, hStream)
  SAME_OFFSET(CUlaunchConfig, attrs)
  SAME_OFFSET(CUlaunchConfig, numAttrs)

  SAME_SIZE(CUctxCreateParams)
  SAME_OFFSET(CUctxCreateParams, numExecAffinityParams)
  SAME_OFFSET(CUctxCreateParams, cigParams)

  SAME_SIZE(CUmemLocation)
  SAME_SIZE(CUmemAllocationProp)
  SAME_OFFSET(CUmemAllocationProp, requestedHandleTypes)
  SAME_OFFSET(CUmemAllocationProp, location)
  SAME_OFFSET(CUmemAllocationProp, win32HandleMetaData)
  SAME_OFFSET(CUmemAllocationProp, allocFlags)
  SAME_SIZE(CUmemAccessDesc)
  SAME_OFFSET(CUmemAccessDesc, flags)
}

} // namespace
