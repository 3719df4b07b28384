//===- FunctionApi.cpp - Kernel attributes, occupancy and extended launches ===//
//
// cudaFuncGetAttributes and the setters that change how a kernel launches
// (the dynamic shared memory a launch may ask for, cache and carveout
// preferences), the occupancy calculators, and cudaLaunchKernelExC with its
// launch attributes. A kernel is named by its host stub or by a
// cudaKernel_t / cudaFunction_t, which cuhip hands out as the runtime core's
// kernel handle. Each function checks its arguments and calls the core.
//
//===----------------------------------------------------------------------===//
#include "Export.h"
#include "Unsupported.h"

#include <algorithm>
#include <cstring>

using namespace cuhip;
using namespace cuhip::cudart;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attr,
                                               const void *Func) {
  if (!Attr)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  rt::KernelAttributes A;
  if (cudaError_t S = runtime().kernelAttributes(K, &A))
    return S;
  std::memset(Attr, 0, sizeof(*Attr));
  Attr->sharedSizeBytes = A.StaticSharedBytes;
  Attr->constSizeBytes = A.ConstBytes;
  Attr->localSizeBytes = A.LocalBytesPerThread;
  Attr->maxThreadsPerBlock = A.MaxThreadsPerBlock;
  Attr->numRegs = A.NumRegs;
  Attr->ptxVersion = A.PtxVersion;
  Attr->binaryVersion = A.BinaryVersion;
  Attr->cacheModeCA = 0; // global loads are not cached apart from L2
  Attr->maxDynamicSharedSizeBytes = A.MaxDynamicSharedBytes;
  Attr->preferredShmemCarveout = A.PreferredShmemCarveout;
  Attr->clusterDimMustBeSet = A.ClusterDimMustBeSet;
  Attr->requiredClusterWidth = A.RequiredClusterDim[0];
  Attr->requiredClusterHeight = A.RequiredClusterDim[1];
  Attr->requiredClusterDepth = A.RequiredClusterDim[2];
  Attr->clusterSchedulingPolicyPreference = A.ClusterSchedulingPolicy;
  Attr->nonPortableClusterSizeAllowed = A.NonPortableClusterSizeAllowed;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaFuncSetAttribute(const void *Func,
                                              cudaFuncAttribute Attr,
                                              int Value) {
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  if (int(Attr) < cudaFuncAttributeMaxDynamicSharedMemorySize ||
      int(Attr) >= cudaFuncAttributeMax)
    return runtime().record(rt::cudaErrorInvalidValue);
  return runtime().setKernelAttribute(K, static_cast<rt::KernelAttr>(Attr),
                                      Value);
}

CUHIP_EXPORT cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t Kernel,
                                                         cudaFuncAttribute Attr,
                                                         int Value,
                                                         int Device) {
  if (Device < 0 || Device >= runtime().deviceCount())
    return runtime().record(rt::cudaErrorInvalidDevice);
  if (!Kernel || !runtime().isKernelHandle(Kernel))
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return cudaFuncSetAttribute(Kernel, Attr, Value);
}

CUHIP_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *Func,
                                                cudaFuncCache Config) {
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return runtime().setKernelCacheConfig(K, int(Config));
}

CUHIP_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *Func,
                                                    cudaSharedMemConfig Config) {
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  if (int(Config) < cudaSharedMemBankSizeDefault ||
      int(Config) > cudaSharedMemBankSizeEightByte)
    return runtime().record(rt::cudaErrorInvalidValue);
  // Bank width only changes the speed of shared memory on a GPU; since
  // CUDA 12 it is ignored there too.
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaFuncGetName(const char **Name, const void *Func) {
  if (!Name)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  *Name = runtime().kernelName(K);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaFuncGetParamInfo(const void *Func,
                                              size_t ParamIndex,
                                              size_t *ParamOffset,
                                              size_t *ParamSize) {
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return runtime().kernelParamInfo(K, ParamIndex, ParamOffset, ParamSize);
}

CUHIP_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *Function,
                                             const void *Symbol) {
  if (!Function || !Symbol)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = kernelFor(Symbol);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  // The driver API's CUfunction is the core's kernel handle, as is
  // cudaKernel_t.
  *Function = reinterpret_cast<cudaFunction_t>(K);
  return rt::cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize,
    unsigned int Flags) {
  // cudaOccupancyDefault (0) and cudaOccupancyDisableCachingOverride (1).
  if (Flags > 1)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return runtime().maxActiveBlocksPerMultiprocessor(K, BlockSize,
                                                    DynamicSMemSize, NumBlocks);
}

CUHIP_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      NumBlocks, Func, BlockSize, DynamicSMemSize, 0);
}

CUHIP_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *DynamicSmemSize, const void *Func, int NumBlocks, int BlockSize) {
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return runtime().availableDynamicShared(K, NumBlocks, BlockSize,
                                          DynamicSmemSize);
}

/// The cluster a launch configuration asks for: 1x1x1 unless it carries
/// cudaLaunchAttributeClusterDimension.
static bool clusterOf(const cudaLaunchConfig_t &Config, dim3 &Cluster) {
  Cluster = {1, 1, 1};
  if (Config.numAttrs && !Config.attrs)
    return false;
  for (unsigned I = 0; I < Config.numAttrs; ++I)
    if (Config.attrs[I].id == cudaLaunchAttributeClusterDimension) {
      const auto &C = Config.attrs[I].val.clusterDim;
      Cluster = {C.x, C.y, C.z};
    }
  return true;
}

static bool isSingleBlockCluster(dim3 C) {
  // 0 in every dimension means "no cluster"; 1x1x1 is a cluster of one.
  return (C.x <= 1 && C.y <= 1 && C.z <= 1);
}

CUHIP_EXPORT cudaError_t cudaOccupancyMaxPotentialClusterSize(
    int *ClusterSize, const void *Func, const cudaLaunchConfig_t *Config) {
  if (!ClusterSize || !Config)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (!kernelFor(Func))
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  // A cluster shares one multiprocessor's distributed shared memory on a
  // GPU; the backends have no such grouping, so a cluster is one block.
  *ClusterSize = 1;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaOccupancyMaxActiveClusters(
    int *NumClusters, const void *Func, const cudaLaunchConfig_t *Config) {
  if (!NumClusters || !Config)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  dim3 Cluster;
  if (!clusterOf(*Config, Cluster))
    return runtime().record(rt::cudaErrorInvalidValue);
  if (!isSingleBlockCluster(Cluster))
    return runtime().record(rt::cudaErrorInvalidClusterSize);
  const dim3 &B = Config->blockDim;
  uint64_t Threads = uint64_t(B.x) * B.y * B.z;
  if (!Threads || Threads > 0x7fffffff)
    return runtime().record(rt::cudaErrorInvalidValue);
  int PerMultiprocessor = 0;
  if (cudaError_t S = runtime().maxActiveBlocksPerMultiprocessor(
          K, int(Threads), Config->dynamicSmemBytes, &PerMultiprocessor))
    return S;
  *NumClusters =
      PerMultiprocessor * runtime().deviceInfo(0).MultiProcessorCount;
  return rt::cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Extended launches
//===----------------------------------------------------------------------===//

static cudaError_t launchKernelExC(const cudaLaunchConfig_t *Config,
                                   const void *Func, void **Args,
                                   bool PerThread) {
  if (!Config || (Config->numAttrs && !Config->attrs))
    return runtime().record(rt::cudaErrorInvalidValue);
  bool Cooperative = false;
  cudaEvent_t CompletionEvents[2] = {nullptr, nullptr};
  for (unsigned I = 0; I < Config->numAttrs; ++I) {
    const cudaLaunchAttribute &A = Config->attrs[I];
    switch (A.id) {
    case cudaLaunchAttributeIgnore:
      break;
    case cudaLaunchAttributeCooperative:
      Cooperative = A.val.cooperative != 0;
      break;
    case cudaLaunchAttributeClusterDimension: {
      const auto &C = A.val.clusterDim;
      if (!isSingleBlockCluster({C.x, C.y, C.z})) {
        CUHIP_ERROR("cudaLaunchKernelExC: clusters of %ux%ux%u blocks are not "
                    "supported (only clusters of one block)",
                    C.x, C.y, C.z);
        return runtime().record(rt::cudaErrorNotSupported);
      }
      break;
    }
    case cudaLaunchAttributeProgrammaticEvent:
      // Triggered once every block has run: the kernel's end is such a
      // point, and recording after the launch reaches it.
      CompletionEvents[0] = A.val.programmaticEvent.event;
      break;
    case cudaLaunchAttributeLaunchCompletionEvent:
      CompletionEvents[1] = A.val.programmaticEvent.event;
      break;
    case cudaLaunchAttributeDeviceUpdatableKernelNode:
      // Meaningful only while a graph is captured.
      return runtime().record(rt::cudaErrorInvalidValue);
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeProgrammaticStreamSerialization:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePreferredClusterDimension:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
    case cudaLaunchAttributeNvlinkUtilCentricScheduling:
      // Performance hints: a launch that ignores them computes the same.
      CUHIP_DEBUG("cudaLaunchKernelExC: launch attribute %d is a hint and "
                  "has no effect",
                  int(A.id));
      break;
    default:
      return runtime().record(rt::cudaErrorInvalidValue);
    }
  }
  cudaStream_t Stream =
      PerThread ? perThreadStream(Config->stream) : Config->stream;
  if (cudaError_t S =
          launchFunction(Func, Config->gridDim, Config->blockDim, Args,
                         Config->dynamicSmemBytes, Stream, Cooperative))
    return S;
  for (cudaEvent_t E : CompletionEvents)
    if (E)
      if (cudaError_t S = runtime().eventRecord(E, Stream))
        return S;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                             const void *Func, void **Args) {
  return launchKernelExC(Config, Func, Args, /*PerThread=*/false);
}

CUHIP_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(
    const cudaLaunchConfig_t *Config, const void *Func, void **Args) {
  return launchKernelExC(Config, Func, Args, /*PerThread=*/true);
}

#if CUHIP_CUDART_MAJOR < 13
struct cudaLaunchParams;
/// CUDA 12 only (CUDA 13 removed it): one cooperative grid spread over
/// several devices.
CUHIP_EXPORT cudaError_t
cudaLaunchCooperativeKernelMultiDevice(cudaLaunchParams *LaunchParamsList,
                                       unsigned NumDevices, unsigned Flags) {
  if (!LaunchParamsList || !NumDevices)
    return runtime().record(rt::cudaErrorInvalidValue);
  CUHIP_RETURN_NOT_SUPPORTED("cudaLaunchCooperativeKernelMultiDevice",
                             "deprecated multi-device cooperative launches "
                             "are not provided; use "
                             "cudaLaunchCooperativeKernel");
}
#endif
