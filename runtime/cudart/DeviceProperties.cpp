//===- DeviceProperties.cpp - cudaGetDeviceProperties for each ABI --------===//
//
// cudaDeviceProp changed layout between CUDA 12 and 13. libcudart.so.13
// exports cudaGetDeviceProperties with the CUDA 13 structure;
// libcudart.so.12 exports cudaGetDeviceProperties_v2 (what CUDA 12 headers
// call) with the CUDA 12 structure, plus the unsuffixed legacy entry point,
// which writes only the CUDA 11 part of it. All are filled by one filler
// from the runtime core's attribute table (Runtime::deviceAttribute, which
// also answers libcuda's cuDeviceGetAttribute), and cudaDeviceGetAttribute
// is that table, so the libraries cannot disagree and an attribute always
// equals its property.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include <cstddef>
#include <cstring>

using namespace cuhip;
using namespace cuhip::cudart;

namespace {
/// The attribute numbers, shared by CUdevice_attribute and cudaDeviceAttr.
enum DeviceAttribute : int {
#define CUHIP_DEVICE_ATTRIBUTE(Name, Value) Name = Value,
#include "cuhip/runtime/DeviceAttributes.def"
#undef CUHIP_DEVICE_ATTRIBUTE
};

/// One device's attributes as the core's table answers them. Every
/// property with an attribute is read through this, so the two cannot
/// disagree.
struct AttributeReader {
  int Device;
  int operator()(DeviceAttribute A) const {
    int V = 0;
    runtime().deviceAttribute(A, Device, &V);
    return V;
  }
};
} // namespace

/// The fields CUDA 12 and CUDA 13 share by name, whatever their offsets.
/// Both layouts are filled through this one template so that every value
/// both ABIs report is written in exactly one place.
template <typename PropT>
static void fillSharedFields(PropT &P, const rt::DeviceInfo &D, int Device) {
  AttributeReader A{Device};
  std::memset(&P, 0, sizeof(P));
  std::strncpy(P.name, D.Name.c_str(), sizeof(P.name) - 1);
  // A stable, recognisable UUID: "cuhip" then the device ordinal.
  std::memcpy(P.uuid.bytes, "cuhip-cpu-device", 16);
  P.uuid.bytes[15] = char('0' + Device);
  // The sizes below are size_t fields whose attributes are ints; read them
  // from DeviceInfo where an int could not hold them.
  P.totalGlobalMem = D.TotalGlobalMem;
  P.sharedMemPerBlock = D.SharedMemPerBlock;
  P.totalConstMem = D.TotalConstMem;
  P.sharedMemPerMultiprocessor = D.SharedMemPerMultiprocessor;
  P.sharedMemPerBlockOptin = D.SharedMemPerBlockOptin;
  P.memPitch = size_t(A(MAX_PITCH));
  P.regsPerBlock = A(MAX_REGISTERS_PER_BLOCK);
  P.warpSize = A(WARP_SIZE);
  P.maxThreadsPerBlock = A(MAX_THREADS_PER_BLOCK);
  P.maxThreadsDim[0] = A(MAX_BLOCK_DIM_X);
  P.maxThreadsDim[1] = A(MAX_BLOCK_DIM_Y);
  P.maxThreadsDim[2] = A(MAX_BLOCK_DIM_Z);
  P.maxGridSize[0] = A(MAX_GRID_DIM_X);
  P.maxGridSize[1] = A(MAX_GRID_DIM_Y);
  P.maxGridSize[2] = A(MAX_GRID_DIM_Z);
  P.major = A(COMPUTE_CAPABILITY_MAJOR);
  P.minor = A(COMPUTE_CAPABILITY_MINOR);
  P.textureAlignment = size_t(A(TEXTURE_ALIGNMENT));
  P.texturePitchAlignment = size_t(A(TEXTURE_PITCH_ALIGNMENT));
  P.multiProcessorCount = A(MULTIPROCESSOR_COUNT);
  P.integrated = A(INTEGRATED);
  P.canMapHostMemory = A(CAN_MAP_HOST_MEMORY);
  P.maxTexture1D = A(MAXIMUM_TEXTURE1D_WIDTH);
  P.maxTexture1DMipmap = A(MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH);
  P.maxTexture2D[0] = A(MAXIMUM_TEXTURE2D_WIDTH);
  P.maxTexture2D[1] = A(MAXIMUM_TEXTURE2D_HEIGHT);
  P.maxTexture2DMipmap[0] = A(MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH);
  P.maxTexture2DMipmap[1] = A(MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT);
  P.maxTexture2DLinear[0] = A(MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
  P.maxTexture2DLinear[1] = A(MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
  P.maxTexture2DLinear[2] = A(MAXIMUM_TEXTURE2D_LINEAR_PITCH);
  P.maxTexture2DGather[0] = A(MAXIMUM_TEXTURE2D_GATHER_WIDTH);
  P.maxTexture2DGather[1] = A(MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
  P.maxTexture3D[0] = A(MAXIMUM_TEXTURE3D_WIDTH);
  P.maxTexture3D[1] = A(MAXIMUM_TEXTURE3D_HEIGHT);
  P.maxTexture3D[2] = A(MAXIMUM_TEXTURE3D_DEPTH);
  P.maxTexture3DAlt[0] = A(MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE);
  P.maxTexture3DAlt[1] = A(MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE);
  P.maxTexture3DAlt[2] = A(MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE);
  P.maxTextureCubemap = A(MAXIMUM_TEXTURECUBEMAP_WIDTH);
  P.maxTexture1DLayered[0] = A(MAXIMUM_TEXTURE1D_LAYERED_WIDTH);
  P.maxTexture1DLayered[1] = A(MAXIMUM_TEXTURE1D_LAYERED_LAYERS);
  P.maxTexture2DLayered[0] = A(MAXIMUM_TEXTURE2D_LAYERED_WIDTH);
  P.maxTexture2DLayered[1] = A(MAXIMUM_TEXTURE2D_LAYERED_HEIGHT);
  P.maxTexture2DLayered[2] = A(MAXIMUM_TEXTURE2D_LAYERED_LAYERS);
  P.maxTextureCubemapLayered[0] = A(MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH);
  P.maxTextureCubemapLayered[1] = A(MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS);
  P.maxSurface1D = A(MAXIMUM_SURFACE1D_WIDTH);
  P.maxSurface2D[0] = A(MAXIMUM_SURFACE2D_WIDTH);
  P.maxSurface2D[1] = A(MAXIMUM_SURFACE2D_HEIGHT);
  P.maxSurface3D[0] = A(MAXIMUM_SURFACE3D_WIDTH);
  P.maxSurface3D[1] = A(MAXIMUM_SURFACE3D_HEIGHT);
  P.maxSurface3D[2] = A(MAXIMUM_SURFACE3D_DEPTH);
  P.maxSurface1DLayered[0] = A(MAXIMUM_SURFACE1D_LAYERED_WIDTH);
  P.maxSurface1DLayered[1] = A(MAXIMUM_SURFACE1D_LAYERED_LAYERS);
  P.maxSurface2DLayered[0] = A(MAXIMUM_SURFACE2D_LAYERED_WIDTH);
  P.maxSurface2DLayered[1] = A(MAXIMUM_SURFACE2D_LAYERED_HEIGHT);
  P.maxSurface2DLayered[2] = A(MAXIMUM_SURFACE2D_LAYERED_LAYERS);
  P.maxSurfaceCubemap = A(MAXIMUM_SURFACECUBEMAP_WIDTH);
  P.maxSurfaceCubemapLayered[0] = A(MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH);
  P.maxSurfaceCubemapLayered[1] = A(MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS);
  P.surfaceAlignment = size_t(A(SURFACE_ALIGNMENT));
  P.concurrentKernels = A(CONCURRENT_KERNELS);
  P.ECCEnabled = A(ECC_ENABLED);
  P.pciBusID = A(PCI_BUS_ID);
  P.pciDeviceID = A(PCI_DEVICE_ID);
  P.pciDomainID = A(PCI_DOMAIN_ID);
  P.tccDriver = A(TCC_DRIVER);
  P.asyncEngineCount = A(ASYNC_ENGINE_COUNT);
  P.unifiedAddressing = A(UNIFIED_ADDRESSING);
  P.memoryBusWidth = A(GLOBAL_MEMORY_BUS_WIDTH);
  P.l2CacheSize = A(L2_CACHE_SIZE);
  P.persistingL2CacheMaxSize = A(MAX_PERSISTING_L2_CACHE_SIZE);
  P.maxThreadsPerMultiProcessor = A(MAX_THREADS_PER_MULTIPROCESSOR);
  P.streamPrioritiesSupported = A(STREAM_PRIORITIES_SUPPORTED);
  P.globalL1CacheSupported = A(GLOBAL_L1_CACHE_SUPPORTED);
  P.localL1CacheSupported = A(LOCAL_L1_CACHE_SUPPORTED);
  P.regsPerMultiprocessor = A(MAX_REGISTERS_PER_MULTIPROCESSOR);
  P.managedMemory = A(MANAGED_MEMORY);
  P.isMultiGpuBoard = A(MULTI_GPU_BOARD);
  P.multiGpuBoardGroupID = A(MULTI_GPU_BOARD_GROUP_ID);
  P.hostNativeAtomicSupported = A(HOST_NATIVE_ATOMIC_SUPPORTED);
  P.pageableMemoryAccess = A(PAGEABLE_MEMORY_ACCESS);
  P.concurrentManagedAccess = A(CONCURRENT_MANAGED_ACCESS);
  P.computePreemptionSupported = A(COMPUTE_PREEMPTION_SUPPORTED);
  P.canUseHostPointerForRegisteredMem =
      A(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
  P.cooperativeLaunch = A(COOPERATIVE_LAUNCH);
  P.pageableMemoryAccessUsesHostPageTables =
      A(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
  P.directManagedMemAccessFromHost = A(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
  P.maxBlocksPerMultiProcessor = A(MAX_BLOCKS_PER_MULTIPROCESSOR);
  P.accessPolicyMaxWindowSize = A(MAX_ACCESS_POLICY_WINDOW_SIZE);
  P.reservedSharedMemPerBlock = size_t(A(RESERVED_SHARED_MEMORY_PER_BLOCK));
  P.hostRegisterSupported = A(HOST_REGISTER_SUPPORTED);
  P.sparseCudaArraySupported = A(SPARSE_CUDA_ARRAY_SUPPORTED);
  P.hostRegisterReadOnlySupported = A(READ_ONLY_HOST_REGISTER_SUPPORTED);
  P.timelineSemaphoreInteropSupported = A(TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
  P.memoryPoolsSupported = A(MEMORY_POOLS_SUPPORTED);
  P.gpuDirectRDMASupported = A(GPU_DIRECT_RDMA_SUPPORTED);
  P.gpuDirectRDMAFlushWritesOptions =
      unsigned(A(GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS));
  P.gpuDirectRDMAWritesOrdering = A(GPU_DIRECT_RDMA_WRITES_ORDERING);
  P.memoryPoolSupportedHandleTypes =
      unsigned(A(MEMPOOL_SUPPORTED_HANDLE_TYPES));
  P.deferredMappingCudaArraySupported =
      A(DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
  P.ipcEventSupported = A(IPC_EVENT_SUPPORTED);
  P.clusterLaunch = A(CLUSTER_LAUNCH);
  P.unifiedFunctionPointers = A(UNIFIED_FUNCTION_POINTERS);
}

// Each library calls one of the two fillers below. Both are compiled into
// both libraries, so a field renamed in either structure fails either build.
[[maybe_unused]] static void
fillDeviceProp(cudaDeviceProp &P, const rt::DeviceInfo &D, int Device) {
  fillSharedFields(P, D, Device);
  AttributeReader A{Device};
  // Fields CUDA 12's structure lacks.
  P.deviceNumaConfig = A(NUMA_CONFIG);
  P.deviceNumaId = A(NUMA_ID);
  P.mpsEnabled = A(MPS_ENABLED);
  P.hostNumaId = A(HOST_NUMA_ID);
  P.gpuPciDeviceID = unsigned(A(GPU_PCI_DEVICE_ID));
  P.gpuPciSubsystemID = unsigned(A(GPU_PCI_SUBSYSTEM_ID));
  P.hostNumaMultinodeIpcSupported = A(HOST_NUMA_MULTINODE_IPC_SUPPORTED);
}

[[maybe_unused]] static void
fillDeviceProp(cudaDeviceProp12 &P, const rt::DeviceInfo &D, int Device) {
  fillSharedFields(P, D, Device);
  AttributeReader A{Device};
  // Fields CUDA 13 removed (it serves them through cudaDeviceGetAttribute).
  P.clockRate = A(CLOCK_RATE);
  P.deviceOverlap = A(GPU_OVERLAP);
  P.kernelExecTimeoutEnabled = A(KERNEL_EXEC_TIMEOUT);
  P.computeMode = A(COMPUTE_MODE);
  P.memoryClockRate = A(MEMORY_CLOCK_RATE);
  P.singleToDoublePrecisionPerfRatio = A(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO);
  P.cooperativeMultiDeviceLaunch = A(COOPERATIVE_MULTI_DEVICE_LAUNCH);
  P.maxTexture1DLinear = A(MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
}

template <typename PropT>
static cudaError_t getDeviceProperties(PropT *Prop, int Device) {
  if (!Prop)
    return runtime().record(rt::cudaErrorInvalidValue);
  // The core's answer for one attribute carries its device checks (no
  // device, an invalid ordinal, a sticky error) and records them.
  int Probe = 0;
  if (cudaError_t Err = runtime().deviceAttribute(1, Device, &Probe))
    return Err;
  fillDeviceProp(*Prop, runtime().deviceInfo(Device), Device);
  return rt::cudaSuccess;
}

#if CUHIP_CUDART_MAJOR >= 13
CUHIP_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                                 int Device) {
  return getDeviceProperties(Prop, Device);
}
#else
CUHIP_EXPORT cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp12 *Prop,
                                                    int Device) {
  return getDeviceProperties(Prop, Device);
}

/// CUDA 11's cudaDeviceProp is exactly the CUDA 12 one cut off after
/// reservedSharedMemPerBlock. CUDA 12.0 appended fields in the same release
/// that pointed its headers at a new name, _v2, which suggests the old name
/// must keep serving buffers of only this size.
static constexpr size_t Cuda11DevicePropSize =
    offsetof(cudaDeviceProp12, hostRegisterSupported);
static_assert(Cuda11DevicePropSize == 728, "CUDA 11 cudaDeviceProp is 728 B");

/// The unsuffixed name, which libcudart.so.12 keeps beside _v2. CUDA 12
/// headers never reach it (they rename the call to _v2); callers that bind
/// the plain name themselves (dlsym, foreign-function bindings) may have
/// allocated only the CUDA 11 structure. Writing just that prefix is right
/// for such a buffer and cannot overrun a CUDA 12 one.
CUHIP_EXPORT cudaError_t cudaGetDeviceProperties(void *Prop, int Device) {
  if (!Prop)
    return runtime().record(rt::cudaErrorInvalidValue);
  cudaDeviceProp12 Full;
  cudaError_t Err = getDeviceProperties(&Full, Device);
  if (Err == rt::cudaSuccess)
    std::memcpy(Prop, &Full, Cuda11DevicePropSize);
  return Err;
}
#endif

//===----------------------------------------------------------------------===//
// cudaDeviceGetAttribute
//===----------------------------------------------------------------------===//

/// cudaDeviceAttr has every CUdevice_attribute number except these, which
/// only the driver API names (texture gather, the handle-type and
/// compression flags, decompression limits, ...); the runtime API treats
/// them as unknown values.
static bool isDriverOnlyAttribute(int A) {
  switch (A) {
  case CAN_TEX2D_GATHER:
  case VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
  case HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
  case HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
  case HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED:
  case GENERIC_COMPRESSION_SUPPORTED:
  case GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED:
  case MEM_DECOMPRESS_ALGORITHM_MASK:
  case MEM_DECOMPRESS_MAXIMUM_LENGTH:
  case HOST_ALLOC_DMA_BUF_SUPPORTED:
    return true;
  default:
    return false;
  }
}

CUHIP_EXPORT cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                                int Device) {
  if (isDriverOnlyAttribute(int(Attr)))
    return runtime().record(rt::cudaErrorInvalidValue);
  return runtime().deviceAttribute(int(Attr), Device, Value);
}
