//===- DeviceProperties.cpp - cudaGetDeviceProperties for each ABI --------===//
//
// cudaDeviceProp changed layout between CUDA 12 and 13. libcudart.so.13
// exports cudaGetDeviceProperties with the CUDA 13 structure;
// libcudart.so.12 exports cudaGetDeviceProperties_v2 (what CUDA 12 headers
// call) with the CUDA 12 structure, plus the unsuffixed legacy entry point,
// which writes only the CUDA 11 part of it. All are filled from the runtime
// core's DeviceInfo by one filler, so the two libraries cannot disagree.
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
