//===- DeviceProperties.cpp - cudaGetDeviceProperties for each ABI --------===//
//
// cudaDeviceProp changed layout between CUDA 12 and 13. libcudart.so.13
// exports cudaGetDeviceProperties with the CUDA 13 structure;
// libcudart.so.12 exports cudaGetDeviceProperties_v2 (what CUDA 12 headers
// call) with the CUDA 12 structure, plus the unsuffixed legacy entry point,
// which writes only the CUDA 11 part of it. All are filled from the runtime
// core's DeviceInfo by one filler, so the two libraries cannot disagree.
// cudaDeviceGetAttribute reads the same filled structures through a table
// with one row per cudaDeviceAttr of the CUDA 13 headers, so an attribute
// and its property always agree.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

using namespace cuhip;
using namespace cuhip::cudart;

/// memoryClockRate for CUDA 12, in kHz. Declared rather than measured: the
/// DIMMs' speed is only readable with privileges. It goes with the 64-bit
/// 64-bit memoryBusWidth of the CPU backend's DeviceInfo (one DDR channel): 1.6 GHz is DDR4-3200's
/// I/O clock, so the bandwidth programs derive, 2 * clock * width / 8, is
/// 25.6 GB/s, the peak of one such channel.
static constexpr int NominalMemoryClockKHz = 1600000;

/// The host CPU's maximum clock in kHz, which is what clockRate means when
/// the multiprocessors are host cores. Read once: cpufreq reports kHz; where
/// it is missing (many VMs), /proc/cpuinfo's "cpu MHz" still is there.
static int hostClockRateKHz() {
  static const int KHz = [] {
    long MaxFreq = 0;
    std::ifstream("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq") >>
        MaxFreq;
    if (MaxFreq > 0)
      return int(MaxFreq);
    std::ifstream Info("/proc/cpuinfo");
    for (std::string Line; std::getline(Info, Line);)
      if (Line.rfind("cpu MHz", 0) == 0) {
        size_t Colon = Line.find(':');
        double MHz = Colon == std::string::npos
                         ? 0
                         : std::strtod(Line.c_str() + Colon + 1, nullptr);
        if (MHz > 0)
          return int(MHz * 1000);
        break;
      }
    // Programs divide by clockRate (cycles to time), so never report 0.
    return 1000000;
  }();
  return KHz;
}

/// The fields CUDA 12 and CUDA 13 share by name, whatever their offsets.
/// Both layouts are filled through this one template so that every value
/// both ABIs report is written in exactly one place.
template <typename PropT>
static void fillSharedFields(PropT &P, const rt::DeviceInfo &D, int Device) {
  std::memset(&P, 0, sizeof(P));
  std::strncpy(P.name, D.Name.c_str(), sizeof(P.name) - 1);
  // A stable, recognisable UUID: "cuhip" then the device ordinal.
  std::memcpy(P.uuid.bytes, "cuhip-cpu-device", 16);
  P.uuid.bytes[15] = char('0' + Device);
  P.totalGlobalMem = D.TotalGlobalMem;
  P.sharedMemPerBlock = D.SharedMemPerBlock;
  P.regsPerBlock = D.RegsPerBlock;
  P.warpSize = D.WarpSize;
  P.memPitch = 0x7fffffff;
  P.maxThreadsPerBlock = D.MaxThreadsPerBlock;
  std::copy(D.MaxThreadsDim, D.MaxThreadsDim + 3, P.maxThreadsDim);
  std::copy(D.MaxGridSize, D.MaxGridSize + 3, P.maxGridSize);
  P.totalConstMem = D.TotalConstMem;
  P.major = D.Major;
  P.minor = D.Minor;
  P.textureAlignment = 512;
  P.texturePitchAlignment = 32;
  P.multiProcessorCount = D.MultiProcessorCount;
  P.integrated = D.Integrated;
  P.canMapHostMemory = 1;
  P.surfaceAlignment = 512;
  P.concurrentKernels = D.ConcurrentKernels;
  P.asyncEngineCount = D.AsyncEngineCount;
  P.unifiedAddressing = 1;
  P.memoryBusWidth = D.MemoryBusWidth;
  P.l2CacheSize = D.L2CacheSize;
  P.maxThreadsPerMultiProcessor = D.MaxThreadsPerMultiProcessor;
  P.globalL1CacheSupported = 1;
  P.localL1CacheSupported = 1;
  P.sharedMemPerMultiprocessor = D.SharedMemPerMultiprocessor;
  P.regsPerMultiprocessor = 65536;
  P.managedMemory = 0;
  P.hostNativeAtomicSupported = 1;
  P.pageableMemoryAccess = 0;
  P.concurrentManagedAccess = 0;
  P.cooperativeLaunch = D.CooperativeLaunch;
  P.sharedMemPerBlockOptin = D.SharedMemPerBlockOptin;
  P.maxBlocksPerMultiProcessor = D.MaxBlocksPerMultiProcessor;
  P.hostRegisterSupported = 0;
  // A single device on no PCI bus: domain, bus and device 0, which is also
  // what cudaDeviceGetPCIBusId reports ("0000:00:00.0").
  P.pciBusID = P.pciDeviceID = P.pciDomainID = 0;
  P.ECCEnabled = 0;
  P.tccDriver = 0;
  P.isMultiGpuBoard = 0;
  P.multiGpuBoardGroupID = 0;
  int Least = 0, Greatest = 0;
  runtime().streamPriorityRange(&Least, &Greatest);
  P.streamPrioritiesSupported = Least != Greatest;
  // Kernels run as ordinary, preemptible threads (or HIP's queues).
  P.computePreemptionSupported = 1;
  // No part of the L2 can be set aside for persisting accesses.
  P.persistingL2CacheMaxSize = 0;
  P.accessPolicyMaxWindowSize = 0;
  P.reservedSharedMemPerBlock = 0; // the runtime keeps none for itself
  // Textures, surfaces, memory pools, IPC, clusters of more than one block
  // and external semaphores are not provided: their limits and flags stay 0.
}

// Each library calls one of the two fillers below. Both are compiled into
// both libraries, so a field renamed in either structure fails either build.
[[maybe_unused]] static void
fillDeviceProp(cudaDeviceProp &P, const rt::DeviceInfo &D, int Device) {
  fillSharedFields(P, D, Device);
  // Fields CUDA 12's structure lacks: no NUMA node is tied to the device.
  P.deviceNumaId = -1;
  P.hostNumaId = -1;
}

[[maybe_unused]] static void
fillDeviceProp(cudaDeviceProp12 &P, const rt::DeviceInfo &D, int Device) {
  fillSharedFields(P, D, Device);
  // Fields CUDA 13 removed (it serves them through cudaDeviceGetAttribute).
  P.clockRate = D.ClockRateKHz > 0 ? D.ClockRateKHz : hostClockRateKHz();
  // Defined as asyncEngineCount > 0 (on the CPU backend copies run on the
  // calling thread, so there is no engine to overlap them with kernels).
  P.deviceOverlap = P.asyncEngineCount > 0;
  P.kernelExecTimeoutEnabled = 0; // no watchdog bounds a kernel's run time
  P.computeMode = 0; // cudaComputeModeDefault: any thread or process may use it
  P.memoryClockRate =
      D.MemoryClockRateKHz > 0 ? D.MemoryClockRateKHz : NominalMemoryClockKHz;
  // A SIMD register holds twice as many floats as doubles.
  P.singleToDoublePrecisionPerfRatio = 2;
  P.cooperativeMultiDeviceLaunch = 0; // one device only
  // maxTexture1DLinear stays 0 like every other texture limit: no textures.
}

template <typename PropT>
static cudaError_t getDeviceProperties(PropT *Prop, int Device) {
  if (!Prop)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (Device < 0 || Device >= runtime().deviceCount())
    return runtime().record(rt::cudaErrorInvalidDevice);
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

namespace {
/// Both layouts filled for one device: the CUDA 13 structure has most
/// fields, the CUDA 12 one those CUDA 13 moved to attributes only.
struct FilledProps {
  cudaDeviceProp P;
  cudaDeviceProp12 Q;
};

struct AttributeRow {
  int Attr;
  int (*Value)(const FilledProps &);
};

#define ATTR(Num, Expr)                                                        \
  {Num, [](const FilledProps &F) {                                             \
     [[maybe_unused]] const cudaDeviceProp &P = F.P;                           \
     [[maybe_unused]] const cudaDeviceProp12 &Q = F.Q;                         \
     return int(Expr);                                                         \
   }}

/// One row per cudaDeviceAttr of the CUDA 13 headers, in their order; the
/// numbers are the enumerators' values (named in the comments). Reserved
/// values read 0.
const AttributeRow AttributeTable[] = {
    ATTR(1, P.maxThreadsPerBlock),            // MaxThreadsPerBlock
    ATTR(2, P.maxThreadsDim[0]),              // MaxBlockDimX
    ATTR(3, P.maxThreadsDim[1]),              // MaxBlockDimY
    ATTR(4, P.maxThreadsDim[2]),              // MaxBlockDimZ
    ATTR(5, P.maxGridSize[0]),                // MaxGridDimX
    ATTR(6, P.maxGridSize[1]),                // MaxGridDimY
    ATTR(7, P.maxGridSize[2]),                // MaxGridDimZ
    ATTR(8, P.sharedMemPerBlock),             // MaxSharedMemoryPerBlock
    ATTR(9, P.totalConstMem),                 // TotalConstantMemory
    ATTR(10, P.warpSize),                     // WarpSize
    ATTR(11, P.memPitch),                     // MaxPitch
    ATTR(12, P.regsPerBlock),                 // MaxRegistersPerBlock
    ATTR(13, Q.clockRate),                    // ClockRate
    ATTR(14, P.textureAlignment),             // TextureAlignment
    ATTR(15, Q.deviceOverlap),                // GpuOverlap
    ATTR(16, P.multiProcessorCount),          // MultiProcessorCount
    ATTR(17, Q.kernelExecTimeoutEnabled),     // KernelExecTimeout
    ATTR(18, P.integrated),                   // Integrated
    ATTR(19, P.canMapHostMemory),             // CanMapHostMemory
    ATTR(20, Q.computeMode),                  // ComputeMode
    ATTR(21, P.maxTexture1D),                 // MaxTexture1DWidth
    ATTR(22, P.maxTexture2D[0]),              // MaxTexture2DWidth
    ATTR(23, P.maxTexture2D[1]),              // MaxTexture2DHeight
    ATTR(24, P.maxTexture3D[0]),              // MaxTexture3DWidth
    ATTR(25, P.maxTexture3D[1]),              // MaxTexture3DHeight
    ATTR(26, P.maxTexture3D[2]),              // MaxTexture3DDepth
    ATTR(27, P.maxTexture2DLayered[0]),       // MaxTexture2DLayeredWidth
    ATTR(28, P.maxTexture2DLayered[1]),       // MaxTexture2DLayeredHeight
    ATTR(29, P.maxTexture2DLayered[2]),       // MaxTexture2DLayeredLayers
    ATTR(30, P.surfaceAlignment),             // SurfaceAlignment
    ATTR(31, P.concurrentKernels),            // ConcurrentKernels
    ATTR(32, P.ECCEnabled),                   // EccEnabled
    ATTR(33, P.pciBusID),                     // PciBusId
    ATTR(34, P.pciDeviceID),                  // PciDeviceId
    ATTR(35, P.tccDriver),                    // TccDriver
    ATTR(36, Q.memoryClockRate),              // MemoryClockRate
    ATTR(37, P.memoryBusWidth),               // GlobalMemoryBusWidth
    ATTR(38, P.l2CacheSize),                  // L2CacheSize
    ATTR(39, P.maxThreadsPerMultiProcessor),  // MaxThreadsPerMultiProcessor
    ATTR(40, P.asyncEngineCount),             // AsyncEngineCount
    ATTR(41, P.unifiedAddressing),            // UnifiedAddressing
    ATTR(42, P.maxTexture1DLayered[0]),       // MaxTexture1DLayeredWidth
    ATTR(43, P.maxTexture1DLayered[1]),       // MaxTexture1DLayeredLayers
    ATTR(45, P.maxTexture2DGather[0]),        // MaxTexture2DGatherWidth
    ATTR(46, P.maxTexture2DGather[1]),        // MaxTexture2DGatherHeight
    ATTR(47, P.maxTexture3DAlt[0]),           // MaxTexture3DWidthAlt
    ATTR(48, P.maxTexture3DAlt[1]),           // MaxTexture3DHeightAlt
    ATTR(49, P.maxTexture3DAlt[2]),           // MaxTexture3DDepthAlt
    ATTR(50, P.pciDomainID),                  // PciDomainId
    ATTR(51, P.texturePitchAlignment),        // TexturePitchAlignment
    ATTR(52, P.maxTextureCubemap),            // MaxTextureCubemapWidth
    ATTR(53, P.maxTextureCubemapLayered[0]),  // MaxTextureCubemapLayeredWidth
    ATTR(54, P.maxTextureCubemapLayered[1]),  // MaxTextureCubemapLayeredLayers
    ATTR(55, P.maxSurface1D),                 // MaxSurface1DWidth
    ATTR(56, P.maxSurface2D[0]),              // MaxSurface2DWidth
    ATTR(57, P.maxSurface2D[1]),              // MaxSurface2DHeight
    ATTR(58, P.maxSurface3D[0]),              // MaxSurface3DWidth
    ATTR(59, P.maxSurface3D[1]),              // MaxSurface3DHeight
    ATTR(60, P.maxSurface3D[2]),              // MaxSurface3DDepth
    ATTR(61, P.maxSurface1DLayered[0]),       // MaxSurface1DLayeredWidth
    ATTR(62, P.maxSurface1DLayered[1]),       // MaxSurface1DLayeredLayers
    ATTR(63, P.maxSurface2DLayered[0]),       // MaxSurface2DLayeredWidth
    ATTR(64, P.maxSurface2DLayered[1]),       // MaxSurface2DLayeredHeight
    ATTR(65, P.maxSurface2DLayered[2]),       // MaxSurface2DLayeredLayers
    ATTR(66, P.maxSurfaceCubemap),            // MaxSurfaceCubemapWidth
    ATTR(67, P.maxSurfaceCubemapLayered[0]),  // MaxSurfaceCubemapLayeredWidth
    ATTR(68, P.maxSurfaceCubemapLayered[1]),  // MaxSurfaceCubemapLayeredLayers
    ATTR(69, Q.maxTexture1DLinear),           // MaxTexture1DLinearWidth
    ATTR(70, P.maxTexture2DLinear[0]),        // MaxTexture2DLinearWidth
    ATTR(71, P.maxTexture2DLinear[1]),        // MaxTexture2DLinearHeight
    ATTR(72, P.maxTexture2DLinear[2]),        // MaxTexture2DLinearPitch
    ATTR(73, P.maxTexture2DMipmap[0]),        // MaxTexture2DMipmappedWidth
    ATTR(74, P.maxTexture2DMipmap[1]),        // MaxTexture2DMipmappedHeight
    ATTR(75, P.major),                        // ComputeCapabilityMajor
    ATTR(76, P.minor),                        // ComputeCapabilityMinor
    ATTR(77, P.maxTexture1DMipmap),           // MaxTexture1DMipmappedWidth
    ATTR(78, P.streamPrioritiesSupported),    // StreamPrioritiesSupported
    ATTR(79, P.globalL1CacheSupported),       // GlobalL1CacheSupported
    ATTR(80, P.localL1CacheSupported),        // LocalL1CacheSupported
    ATTR(81, P.sharedMemPerMultiprocessor),   // MaxSharedMemoryPerMultiprocessor
    ATTR(82, P.regsPerMultiprocessor),        // MaxRegistersPerMultiprocessor
    ATTR(83, P.managedMemory),                // ManagedMemory
    ATTR(84, P.isMultiGpuBoard),              // IsMultiGpuBoard
    ATTR(85, P.multiGpuBoardGroupID),         // MultiGpuBoardGroupID
    ATTR(86, P.hostNativeAtomicSupported),    // HostNativeAtomicSupported
    ATTR(87, Q.singleToDoublePrecisionPerfRatio), // SingleToDoublePrecisionPerfRatio
    ATTR(88, P.pageableMemoryAccess),         // PageableMemoryAccess
    ATTR(89, P.concurrentManagedAccess),      // ConcurrentManagedAccess
    ATTR(90, P.computePreemptionSupported),   // ComputePreemptionSupported
    ATTR(91, P.canUseHostPointerForRegisteredMem), // CanUseHostPointerForRegisteredMem
    ATTR(92, 0),                              // Reserved92
    ATTR(93, 0),                              // Reserved93
    ATTR(94, 0),                              // Reserved94
    ATTR(95, P.cooperativeLaunch),            // CooperativeLaunch
    ATTR(96, Q.cooperativeMultiDeviceLaunch), // Reserved96 (CUDA 12: multi-device)
    ATTR(97, P.sharedMemPerBlockOptin),       // MaxSharedMemoryPerBlockOptin
    ATTR(98, 0),                              // CanFlushRemoteWrites
    ATTR(99, P.hostRegisterSupported),        // HostRegisterSupported
    ATTR(100, P.pageableMemoryAccessUsesHostPageTables), // PageableMemoryAccessUsesHostPageTables
    ATTR(101, P.directManagedMemAccessFromHost), // DirectManagedMemAccessFromHost
    ATTR(106, P.maxBlocksPerMultiProcessor),  // MaxBlocksPerMultiprocessor
    ATTR(108, P.persistingL2CacheMaxSize),    // MaxPersistingL2CacheSize
    ATTR(109, P.accessPolicyMaxWindowSize),   // MaxAccessPolicyWindowSize
    ATTR(111, P.reservedSharedMemPerBlock),   // ReservedSharedMemoryPerBlock
    ATTR(112, P.sparseCudaArraySupported),    // SparseCudaArraySupported
    ATTR(113, P.hostRegisterReadOnlySupported), // HostRegisterReadOnlySupported
    ATTR(114, P.timelineSemaphoreInteropSupported), // TimelineSemaphoreInteropSupported
    ATTR(115, P.memoryPoolsSupported),        // MemoryPoolsSupported
    ATTR(116, P.gpuDirectRDMASupported),      // GPUDirectRDMASupported
    ATTR(117, P.gpuDirectRDMAFlushWritesOptions), // GPUDirectRDMAFlushWritesOptions
    ATTR(118, P.gpuDirectRDMAWritesOrdering), // GPUDirectRDMAWritesOrdering
    ATTR(119, P.memoryPoolSupportedHandleTypes), // MemoryPoolSupportedHandleTypes
    ATTR(120, P.clusterLaunch),               // ClusterLaunch
    ATTR(121, P.deferredMappingCudaArraySupported), // DeferredMappingCudaArraySupported
    ATTR(122, 0),                             // Reserved122
    ATTR(123, 0),                             // Reserved123
    ATTR(124, 0),                             // Reserved124
    ATTR(125, P.ipcEventSupported),           // IpcEventSupport
    ATTR(126, 1),                             // MemSyncDomainCount: one domain
    ATTR(127, 0),                             // Reserved127
    ATTR(128, 0),                             // Reserved128
    ATTR(129, 0),                             // Reserved129
    ATTR(130, P.deviceNumaConfig),            // NumaConfig
    ATTR(131, P.deviceNumaId),                // NumaId
    ATTR(132, 0),                             // Reserved132
    ATTR(133, P.mpsEnabled),                  // MpsEnabled
    ATTR(134, P.hostNumaId),                  // HostNumaId
    ATTR(135, 0),                             // D3D12CigSupported
    ATTR(138, 0),                             // VulkanCigSupported
    ATTR(139, P.gpuPciDeviceID),              // GpuPciDeviceId
    ATTR(140, P.gpuPciSubsystemID),           // GpuPciSubsystemId
    ATTR(141, 0),                             // Reserved141
    ATTR(142, 0),                             // HostNumaMemoryPoolsSupported
    ATTR(143, P.hostNumaMultinodeIpcSupported), // HostNumaMultinodeIpcSupported
    ATTR(144, 0),                             // HostMemoryPoolsSupported
    ATTR(145, 0),                             // Reserved145
    ATTR(147, 0),                             // OnlyPartialHostNativeAtomicSupported
};
#undef ATTR
} // namespace

CUHIP_EXPORT cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                                int Device) {
  if (!Value)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (Device < 0 || Device >= runtime().deviceCount())
    return runtime().record(rt::cudaErrorInvalidDevice);
  const AttributeRow *Row = nullptr;
  for (const AttributeRow &R : AttributeTable)
    if (R.Attr == int(Attr))
      Row = &R;
  if (!Row)
    return runtime().record(rt::cudaErrorInvalidValue);
  // Programs call this in loops (occupancy calculators do): the filled
  // structures are cheap compared with a kernel, and always current.
  FilledProps F;
  const rt::DeviceInfo &D = runtime().deviceInfo(Device);
  fillDeviceProp(F.P, D, Device);
  fillDeviceProp(F.Q, D, Device);
  *Value = Row->Value(F);
  return rt::cudaSuccess;
}
