//===- AbiTest.cpp - cuhip's CUDA types against the real CUDA headers -----===//
//
// libcudart is built without the CUDA toolkit, from its own declarations of
// the CUDA ABI types. This test compiles those declarations next to the
// toolkit's headers and checks sizes, every field offset of cudaDeviceProp,
// and every cudaError_t value. Built only when the toolkit is present.
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include "cuhip/runtime/Texture.h"

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

// CUDA 12's cudaDeviceProp, whose headers are not installed here, against
// numbers taken from the public CUDA 12 headers. Every offset below is the
// one recorded by bindgen's compiler-checked layout assertions for CUDA
// 12.8's driver_types.h (coreylowman/cudarc, src/runtime/sys/sys_12080.rs),
// and each agrees with a count over the fields of CUDA 12.4's driver_types.h
// on LP64 (8-byte size_t). CUDA 12.0-12.9 share this layout; they differ only
// in how the 63 trailing reserved ints are split and named.
namespace cuda12 {
using Prop = cuhip_abi::cudaDeviceProp12;
static_assert(sizeof(Prop) == 1032, "CUDA 12 cudaDeviceProp is 1032 bytes");
static_assert(alignof(Prop) == 8, "CUDA 12 cudaDeviceProp is 8-aligned");
static_assert(offsetof(Prop, totalGlobalMem) == 288, "totalGlobalMem");
static_assert(offsetof(Prop, maxGridSize) == 336, "maxGridSize");
static_assert(offsetof(Prop, clockRate) == 348, "clockRate");
static_assert(offsetof(Prop, totalConstMem) == 352, "totalConstMem");
static_assert(offsetof(Prop, texturePitchAlignment) == 376,
              "texturePitchAlignment");
static_assert(offsetof(Prop, deviceOverlap) == 384, "deviceOverlap");
static_assert(offsetof(Prop, multiProcessorCount) == 388,
              "multiProcessorCount");
static_assert(offsetof(Prop, kernelExecTimeoutEnabled) == 392,
              "kernelExecTimeoutEnabled");
static_assert(offsetof(Prop, computeMode) == 404, "computeMode");
static_assert(offsetof(Prop, maxTexture1DLinear) == 416, "maxTexture1DLinear");
static_assert(offsetof(Prop, maxSurfaceCubemapLayered) == 560,
              "maxSurfaceCubemapLayered");
static_assert(offsetof(Prop, surfaceAlignment) == 568, "surfaceAlignment");
static_assert(offsetof(Prop, memoryClockRate) == 608, "memoryClockRate");
static_assert(offsetof(Prop, l2CacheSize) == 616, "l2CacheSize");
static_assert(offsetof(Prop, sharedMemPerMultiprocessor) == 640,
              "sharedMemPerMultiprocessor");
static_assert(offsetof(Prop, singleToDoublePrecisionPerfRatio) == 668,
              "singleToDoublePrecisionPerfRatio");
static_assert(offsetof(Prop, cooperativeMultiDeviceLaunch) == 692,
              "cooperativeMultiDeviceLaunch");
static_assert(offsetof(Prop, sharedMemPerBlockOptin) == 696,
              "sharedMemPerBlockOptin");
static_assert(offsetof(Prop, reservedSharedMemPerBlock) == 720,
              "reservedSharedMemPerBlock");
// 728 is also sizeof(cudaDeviceProp) in CUDA 11.x, whose structure ends at
// reservedSharedMemPerBlock (same bindgen source, sys_11080.rs field list).
static_assert(offsetof(Prop, hostRegisterSupported) == 728,
              "hostRegisterSupported");
static_assert(offsetof(Prop, memoryPoolsSupported) == 744,
              "memoryPoolsSupported");
static_assert(offsetof(Prop, clusterLaunch) == 772, "clusterLaunch");
static_assert(offsetof(Prop, unifiedFunctionPointers) == 776,
              "unifiedFunctionPointers");
static_assert(offsetof(Prop, reserved) == 780, "reserved");
static_assert(sizeof(Prop::reserved) == 63 * sizeof(int), "reserved[63]");
} // namespace cuda12

// The leading fields CUDA 13 kept in place must sit where the real CUDA 13
// header puts them in the CUDA 12 structure too; the first field CUDA 13
// dropped (clockRate) is where they start to diverge, and from
// multiProcessorCount on CUDA 12 has deviceOverlap in front of it.
#define FIELD_OFFSET_SAME_IN_12(Field)                                         \
  EXPECT_EQ(offsetof(::cudaDeviceProp, Field),                                 \
            offsetof(cuhip_abi::cudaDeviceProp12, Field))                      \
      << #Field;

TEST(CudaAbi, DeviceProp12SharesCuda13sLeadingFields) {
  FIELD_OFFSET_SAME_IN_12(name)
  FIELD_OFFSET_SAME_IN_12(uuid)
  FIELD_OFFSET_SAME_IN_12(luid)
  FIELD_OFFSET_SAME_IN_12(luidDeviceNodeMask)
  FIELD_OFFSET_SAME_IN_12(totalGlobalMem)
  FIELD_OFFSET_SAME_IN_12(sharedMemPerBlock)
  FIELD_OFFSET_SAME_IN_12(regsPerBlock)
  FIELD_OFFSET_SAME_IN_12(warpSize)
  FIELD_OFFSET_SAME_IN_12(memPitch)
  FIELD_OFFSET_SAME_IN_12(maxThreadsPerBlock)
  FIELD_OFFSET_SAME_IN_12(maxThreadsDim)
  FIELD_OFFSET_SAME_IN_12(maxGridSize)
  FIELD_OFFSET_SAME_IN_12(totalConstMem)
  FIELD_OFFSET_SAME_IN_12(major)
  FIELD_OFFSET_SAME_IN_12(minor)
  FIELD_OFFSET_SAME_IN_12(textureAlignment)
  FIELD_OFFSET_SAME_IN_12(texturePitchAlignment)
  EXPECT_EQ(offsetof(::cudaDeviceProp, multiProcessorCount) + sizeof(int),
            offsetof(cuhip_abi::cudaDeviceProp12, multiProcessorCount));
  EXPECT_GT(sizeof(cuhip_abi::cudaDeviceProp12), sizeof(::cudaDeviceProp));
}

TEST(CudaAbi, SmallTypes) {
  EXPECT_EQ(sizeof(::dim3), sizeof(cuhip_abi::dim3));
  EXPECT_EQ(sizeof(::cudaError_t), sizeof(cuhip_abi::cudaError_t));
  EXPECT_EQ(sizeof(::cudaMemcpyKind), sizeof(cuhip_abi::cudaMemcpyKind));
  EXPECT_EQ(int(::cudaMemcpyDefault), int(cuhip_abi::cudaMemcpyDefault));
  EXPECT_EQ(int(::cudaMemcpyDeviceToHost), int(cuhip_abi::cudaMemcpyDeviceToHost));
}

#define SAME_LAYOUT(Type, Field)                                               \
  EXPECT_EQ(offsetof(::Type, Field), offsetof(cuhip_abi::Type, Field))         \
      << #Type "::" #Field;
#define SAME_VALUE(Enumerator)                                                 \
  EXPECT_EQ(int(::Enumerator), int(cuhip_abi::Enumerator)) << #Enumerator;

TEST(CudaAbi, MemoryStructuresAreCuda13s) {
  EXPECT_EQ(sizeof(::cudaPitchedPtr), sizeof(cuhip_abi::cudaPitchedPtr));
  SAME_LAYOUT(cudaPitchedPtr, ptr)
  SAME_LAYOUT(cudaPitchedPtr, pitch)
  SAME_LAYOUT(cudaPitchedPtr, xsize)
  SAME_LAYOUT(cudaPitchedPtr, ysize)
  EXPECT_EQ(sizeof(::cudaExtent), sizeof(cuhip_abi::cudaExtent));
  SAME_LAYOUT(cudaExtent, width)
  SAME_LAYOUT(cudaExtent, height)
  SAME_LAYOUT(cudaExtent, depth)
  EXPECT_EQ(sizeof(::cudaPos), sizeof(cuhip_abi::cudaPos));
  SAME_LAYOUT(cudaPos, x)
  SAME_LAYOUT(cudaPos, y)
  SAME_LAYOUT(cudaPos, z)
  EXPECT_EQ(sizeof(::cudaMemcpy3DParms), sizeof(cuhip_abi::cudaMemcpy3DParms));
  SAME_LAYOUT(cudaMemcpy3DParms, srcArray)
  SAME_LAYOUT(cudaMemcpy3DParms, srcPos)
  SAME_LAYOUT(cudaMemcpy3DParms, srcPtr)
  SAME_LAYOUT(cudaMemcpy3DParms, dstArray)
  SAME_LAYOUT(cudaMemcpy3DParms, dstPos)
  SAME_LAYOUT(cudaMemcpy3DParms, dstPtr)
  SAME_LAYOUT(cudaMemcpy3DParms, extent)
  SAME_LAYOUT(cudaMemcpy3DParms, kind)
  EXPECT_EQ(sizeof(::cudaPointerAttributes),
            sizeof(cuhip_abi::cudaPointerAttributes));
  SAME_LAYOUT(cudaPointerAttributes, type)
  SAME_LAYOUT(cudaPointerAttributes, device)
  SAME_LAYOUT(cudaPointerAttributes, devicePointer)
  SAME_LAYOUT(cudaPointerAttributes, hostPointer)
  SAME_LAYOUT(cudaPointerAttributes, reserved)
  EXPECT_EQ(sizeof(::cudaMemLocation), sizeof(cuhip_abi::cudaMemLocation));
  SAME_LAYOUT(cudaMemLocation, type)
  SAME_LAYOUT(cudaMemLocation, id)
  EXPECT_EQ(sizeof(::cudaMemPoolProps), sizeof(cuhip_abi::cudaMemPoolProps));
  SAME_LAYOUT(cudaMemPoolProps, allocType)
  SAME_LAYOUT(cudaMemPoolProps, handleTypes)
  SAME_LAYOUT(cudaMemPoolProps, location)
  SAME_LAYOUT(cudaMemPoolProps, win32SecurityAttributes)
  SAME_LAYOUT(cudaMemPoolProps, maxSize)
  SAME_LAYOUT(cudaMemPoolProps, usage)
  SAME_LAYOUT(cudaMemPoolProps, reserved)
  EXPECT_EQ(sizeof(::cudaMemPool_t), sizeof(cuhip_abi::cudaMemPool_t));
  EXPECT_EQ(sizeof(::cudaArray_t), sizeof(cuhip_abi::cudaArray_t));
}

TEST(CudaAbi, MemoryEnumsHaveTheToolkitsValues) {
  SAME_VALUE(cudaMemoryTypeUnregistered)
  SAME_VALUE(cudaMemoryTypeHost)
  SAME_VALUE(cudaMemoryTypeDevice)
  SAME_VALUE(cudaMemoryTypeManaged)
  SAME_VALUE(cudaMemAdviseSetReadMostly)
  SAME_VALUE(cudaMemAdviseUnsetReadMostly)
  SAME_VALUE(cudaMemAdviseSetPreferredLocation)
  SAME_VALUE(cudaMemAdviseUnsetPreferredLocation)
  SAME_VALUE(cudaMemAdviseSetAccessedBy)
  SAME_VALUE(cudaMemAdviseUnsetAccessedBy)
  SAME_VALUE(cudaMemPoolReuseFollowEventDependencies)
  SAME_VALUE(cudaMemPoolReuseAllowOpportunistic)
  SAME_VALUE(cudaMemPoolReuseAllowInternalDependencies)
  SAME_VALUE(cudaMemPoolAttrReleaseThreshold)
  SAME_VALUE(cudaMemPoolAttrReservedMemCurrent)
  SAME_VALUE(cudaMemPoolAttrReservedMemHigh)
  SAME_VALUE(cudaMemPoolAttrUsedMemCurrent)
  SAME_VALUE(cudaMemPoolAttrUsedMemHigh)
  SAME_VALUE(cudaMemLocationTypeInvalid)
  SAME_VALUE(cudaMemLocationTypeDevice)
  SAME_VALUE(cudaMemLocationTypeHost)
  SAME_VALUE(cudaMemLocationTypeHostNuma)
  SAME_VALUE(cudaMemLocationTypeHostNumaCurrent)
  SAME_VALUE(cudaMemAllocationTypeInvalid)
  SAME_VALUE(cudaMemAllocationTypePinned)
  SAME_VALUE(cudaMemAllocationTypeManaged)
  SAME_VALUE(cudaMemHandleTypeNone)
  SAME_VALUE(cudaMemHandleTypePosixFileDescriptor)
  SAME_VALUE(cudaMemHandleTypeFabric)
  EXPECT_EQ(sizeof(::cudaMemoryType), sizeof(cuhip_abi::cudaMemoryType));
  EXPECT_EQ(sizeof(::cudaMemPoolAttr), sizeof(cuhip_abi::cudaMemPoolAttr));
  // The flag values the core checks (Memory.cpp) are CUDA's.
  EXPECT_EQ(cudaHostAllocPortable | cudaHostAllocMapped |
                cudaHostAllocWriteCombined,
            0x7);
  EXPECT_EQ(cudaHostRegisterPortable | cudaHostRegisterMapped |
                cudaHostRegisterIoMemory | cudaHostRegisterReadOnly,
            0xf);
  EXPECT_EQ(cudaHostRegisterIoMemory, 0x4);
  EXPECT_EQ(cudaMemAttachGlobal, 0x1);
  EXPECT_EQ(cudaMemAttachHost, 0x2);
}

TEST(CudaAbi, FunctionAndLaunchTypes) {
  EXPECT_EQ(sizeof(::cudaFuncAttributes), sizeof(cuhip_abi::cudaFuncAttributes));
  SAME_LAYOUT(cudaFuncAttributes, sharedSizeBytes)
  SAME_LAYOUT(cudaFuncAttributes, constSizeBytes)
  SAME_LAYOUT(cudaFuncAttributes, localSizeBytes)
  SAME_LAYOUT(cudaFuncAttributes, maxThreadsPerBlock)
  SAME_LAYOUT(cudaFuncAttributes, numRegs)
  SAME_LAYOUT(cudaFuncAttributes, ptxVersion)
  SAME_LAYOUT(cudaFuncAttributes, binaryVersion)
  SAME_LAYOUT(cudaFuncAttributes, cacheModeCA)
  SAME_LAYOUT(cudaFuncAttributes, maxDynamicSharedSizeBytes)
  SAME_LAYOUT(cudaFuncAttributes, preferredShmemCarveout)
  SAME_LAYOUT(cudaFuncAttributes, clusterDimMustBeSet)
  SAME_LAYOUT(cudaFuncAttributes, requiredClusterWidth)
  SAME_LAYOUT(cudaFuncAttributes, requiredClusterDepth)
  SAME_LAYOUT(cudaFuncAttributes, clusterSchedulingPolicyPreference)
  SAME_LAYOUT(cudaFuncAttributes, nonPortableClusterSizeAllowed)
  SAME_LAYOUT(cudaFuncAttributes, reserved)

  EXPECT_EQ(sizeof(::cudaLaunchAttributeValue),
            sizeof(cuhip_abi::cudaLaunchAttributeValue));
  EXPECT_EQ(alignof(::cudaLaunchAttributeValue),
            alignof(cuhip_abi::cudaLaunchAttributeValue));
  SAME_LAYOUT(cudaLaunchAttributeValue, cooperative)
  SAME_LAYOUT(cudaLaunchAttributeValue, clusterDim)
  SAME_LAYOUT(cudaLaunchAttributeValue, programmaticEvent)
  SAME_LAYOUT(cudaLaunchAttributeValue, priority)
  SAME_LAYOUT(cudaLaunchAttributeValue, sharedMemCarveout)
  EXPECT_EQ(sizeof(::cudaLaunchAttribute), sizeof(cuhip_abi::cudaLaunchAttribute));
  SAME_LAYOUT(cudaLaunchAttribute, id)
  SAME_LAYOUT(cudaLaunchAttribute, val)
  EXPECT_EQ(sizeof(::cudaLaunchConfig_t), sizeof(cuhip_abi::cudaLaunchConfig_t));
  SAME_LAYOUT(cudaLaunchConfig_t, gridDim)
  SAME_LAYOUT(cudaLaunchConfig_t, blockDim)
  SAME_LAYOUT(cudaLaunchConfig_t, dynamicSmemBytes)
  SAME_LAYOUT(cudaLaunchConfig_t, stream)
  SAME_LAYOUT(cudaLaunchConfig_t, attrs)
  SAME_LAYOUT(cudaLaunchConfig_t, numAttrs)
  EXPECT_EQ(sizeof(::cudaIpcMemHandle_t), sizeof(cuhip_abi::cudaIpcMemHandle_t));
  EXPECT_EQ(sizeof(::cudaIpcEventHandle_t),
            sizeof(cuhip_abi::cudaIpcEventHandle_t));
}

TEST(CudaAbi, EnumeratorValues) {
  SAME_VALUE(cudaFuncAttributeMaxDynamicSharedMemorySize)
  SAME_VALUE(cudaFuncAttributePreferredSharedMemoryCarveout)
  SAME_VALUE(cudaFuncAttributeClusterDimMustBeSet)
  SAME_VALUE(cudaFuncAttributeRequiredClusterWidth)
  SAME_VALUE(cudaFuncAttributeRequiredClusterHeight)
  SAME_VALUE(cudaFuncAttributeRequiredClusterDepth)
  SAME_VALUE(cudaFuncAttributeNonPortableClusterSizeAllowed)
  SAME_VALUE(cudaFuncAttributeClusterSchedulingPolicyPreference)
  SAME_VALUE(cudaFuncAttributeMax)
  SAME_VALUE(cudaFuncCachePreferNone)
  SAME_VALUE(cudaFuncCachePreferEqual)
  SAME_VALUE(cudaSharedMemBankSizeDefault)
  SAME_VALUE(cudaSharedMemBankSizeEightByte)
  SAME_VALUE(cudaLimitStackSize)
  SAME_VALUE(cudaLimitPrintfFifoSize)
  SAME_VALUE(cudaLimitMallocHeapSize)
  SAME_VALUE(cudaLimitDevRuntimeSyncDepth)
  SAME_VALUE(cudaLimitDevRuntimePendingLaunchCount)
  SAME_VALUE(cudaLimitMaxL2FetchGranularity)
  SAME_VALUE(cudaLimitPersistingL2CacheSize)
  SAME_VALUE(cudaDevAttrMaxThreadsPerBlock)
  SAME_VALUE(cudaDevP2PAttrPerformanceRank)
  SAME_VALUE(cudaDevP2PAttrOnlyPartialNativeAtomicSupported)
  SAME_VALUE(cudaLaunchAttributeIgnore)
  SAME_VALUE(cudaLaunchAttributeAccessPolicyWindow)
  SAME_VALUE(cudaLaunchAttributeCooperative)
  SAME_VALUE(cudaLaunchAttributeSynchronizationPolicy)
  SAME_VALUE(cudaLaunchAttributeClusterDimension)
  SAME_VALUE(cudaLaunchAttributeClusterSchedulingPolicyPreference)
  SAME_VALUE(cudaLaunchAttributeProgrammaticStreamSerialization)
  SAME_VALUE(cudaLaunchAttributeProgrammaticEvent)
  SAME_VALUE(cudaLaunchAttributePriority)
  SAME_VALUE(cudaLaunchAttributeMemSyncDomainMap)
  SAME_VALUE(cudaLaunchAttributeMemSyncDomain)
  SAME_VALUE(cudaLaunchAttributePreferredClusterDimension)
  SAME_VALUE(cudaLaunchAttributeLaunchCompletionEvent)
  SAME_VALUE(cudaLaunchAttributeDeviceUpdatableKernelNode)
  SAME_VALUE(cudaLaunchAttributePreferredSharedMemoryCarveout)
  SAME_VALUE(cudaLaunchAttributeNvlinkUtilCentricScheduling)
}

TEST(CudaAbi, TextureStructuresAreCuda13s) {
  EXPECT_EQ(sizeof(::cudaChannelFormatDesc),
            sizeof(cuhip_abi::cudaChannelFormatDesc));
  SAME_LAYOUT(cudaChannelFormatDesc, x)
  SAME_LAYOUT(cudaChannelFormatDesc, w)
  SAME_LAYOUT(cudaChannelFormatDesc, f)
  EXPECT_EQ(sizeof(::cudaResourceDesc), sizeof(cuhip_abi::cudaResourceDesc));
  SAME_LAYOUT(cudaResourceDesc, resType)
  SAME_LAYOUT(cudaResourceDesc, res.array.array)
  SAME_LAYOUT(cudaResourceDesc, res.mipmap.mipmap)
  SAME_LAYOUT(cudaResourceDesc, res.linear.devPtr)
  SAME_LAYOUT(cudaResourceDesc, res.linear.desc)
  SAME_LAYOUT(cudaResourceDesc, res.linear.sizeInBytes)
  SAME_LAYOUT(cudaResourceDesc, res.pitch2D.devPtr)
  SAME_LAYOUT(cudaResourceDesc, res.pitch2D.desc)
  SAME_LAYOUT(cudaResourceDesc, res.pitch2D.width)
  SAME_LAYOUT(cudaResourceDesc, res.pitch2D.height)
  SAME_LAYOUT(cudaResourceDesc, res.pitch2D.pitchInBytes)
  SAME_LAYOUT(cudaResourceDesc, flags)
  EXPECT_EQ(sizeof(::cudaResourceViewDesc),
            sizeof(cuhip_abi::cudaResourceViewDesc));
  SAME_LAYOUT(cudaResourceViewDesc, width)
  SAME_LAYOUT(cudaResourceViewDesc, firstMipmapLevel)
  SAME_LAYOUT(cudaResourceViewDesc, lastLayer)
  SAME_LAYOUT(cudaResourceViewDesc, reserved)
  EXPECT_EQ(sizeof(::cudaTextureDesc), sizeof(cuhip_abi::cudaTextureDesc));
  SAME_LAYOUT(cudaTextureDesc, addressMode)
  SAME_LAYOUT(cudaTextureDesc, filterMode)
  SAME_LAYOUT(cudaTextureDesc, readMode)
  SAME_LAYOUT(cudaTextureDesc, sRGB)
  SAME_LAYOUT(cudaTextureDesc, borderColor)
  SAME_LAYOUT(cudaTextureDesc, normalizedCoords)
  SAME_LAYOUT(cudaTextureDesc, maxAnisotropy)
  SAME_LAYOUT(cudaTextureDesc, mipmapFilterMode)
  SAME_LAYOUT(cudaTextureDesc, mipmapLevelBias)
  SAME_LAYOUT(cudaTextureDesc, minMipmapLevelClamp)
  SAME_LAYOUT(cudaTextureDesc, maxMipmapLevelClamp)
  SAME_LAYOUT(cudaTextureDesc, disableTrilinearOptimization)
  SAME_LAYOUT(cudaTextureDesc, seamlessCubemap)
  EXPECT_EQ(sizeof(::cudaTextureObject_t),
            sizeof(cuhip_abi::cudaTextureObject_t));
  EXPECT_EQ(sizeof(::cudaSurfaceObject_t),
            sizeof(cuhip_abi::cudaSurfaceObject_t));
  SAME_VALUE(cudaChannelFormatKindSigned)
  SAME_VALUE(cudaChannelFormatKindUnsigned)
  SAME_VALUE(cudaChannelFormatKindFloat)
  SAME_VALUE(cudaChannelFormatKindNone)
  SAME_VALUE(cudaResourceTypeArray)
  SAME_VALUE(cudaResourceTypeMipmappedArray)
  SAME_VALUE(cudaResourceTypeLinear)
  SAME_VALUE(cudaResourceTypePitch2D)
  SAME_VALUE(cudaResViewFormatNone)
  SAME_VALUE(cudaAddressModeWrap)
  SAME_VALUE(cudaAddressModeClamp)
  SAME_VALUE(cudaAddressModeMirror)
  SAME_VALUE(cudaAddressModeBorder)
  SAME_VALUE(cudaFilterModePoint)
  SAME_VALUE(cudaFilterModeLinear)
  SAME_VALUE(cudaReadModeElementType)
  SAME_VALUE(cudaReadModeNormalizedFloat)
  SAME_VALUE(cudaBoundaryModeZero)
  SAME_VALUE(cudaBoundaryModeClamp)
  SAME_VALUE(cudaBoundaryModeTrap)
  EXPECT_EQ(unsigned(cudaArrayLayered), cuhip::rt::ArrayLayered);
  EXPECT_EQ(unsigned(cudaArraySurfaceLoadStore), cuhip::rt::ArraySurfaceLoadStore);
  EXPECT_EQ(unsigned(cudaArrayCubemap), cuhip::rt::ArrayCubemap);
  EXPECT_EQ(unsigned(cudaArrayTextureGather), cuhip::rt::ArrayTextureGather);
}

TEST(CudaAbi, EveryErrorCodeHasTheToolkitsValue) {
#define CUHIP_CUDA_ERROR(Name, Value, Desc) EXPECT_EQ(int(::Name), Value) << #Name;
#include "cuhip/runtime/CudaErrors.def"
#undef CUHIP_CUDA_ERROR
}

} // namespace
