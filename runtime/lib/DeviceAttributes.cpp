//===- DeviceAttributes.cpp - One table of device attribute values --------===//
//
// cudaDeviceGetAttribute (libcudart) and cuDeviceGetAttribute (libcuda) ask
// for the same numbered attributes, so both are served here from the
// device's DeviceInfo, and libcudart's cudaGetDeviceProperties fills every
// cudaDeviceProp field that has an attribute from here too; a value any of
// them reports is decided in one place. Each attribute says what the
// backend in use really provides: a feature cuhip does not implement there
// (PCI, multicast, mipmaps, GPUDirect, ...)
// reports 0, meaning "not supported", as CUDA does on devices that lack it,
// so programs that check before they use a feature take their fallback
// rather than fail. Numbers CUDA 13 does not define are
// cudaErrorInvalidValue.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <cstdio>
#include <fstream>
#include <string>

namespace cuhip::rt {
namespace {

enum DeviceAttribute : int {
#define CUHIP_DEVICE_ATTRIBUTE(Name, Value) Name = Value,
#include "cuhip/runtime/DeviceAttributes.def"
#undef CUHIP_DEVICE_ATTRIBUTE
};

constexpr int KnownAttributes[] = {
#define CUHIP_DEVICE_ATTRIBUTE(Name, Value) Value,
#include "cuhip/runtime/DeviceAttributes.def"
#undef CUHIP_DEVICE_ATTRIBUTE
};

bool isKnownAttribute(int A) {
  for (int K : KnownAttributes)
    if (K == A)
      return true;
  return false;
}

/// The host CPU's maximum clock in kHz, which is what the clock rate means
/// when the multiprocessors are host cores; never 0, since programs divide
/// by it.
int hostClockRateKHz() {
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
        double MHz =
            Colon == std::string::npos ? 0 : std::stod(Line.substr(Colon + 1));
        if (MHz > 0)
          return int(MHz * 1000);
        break;
      }
    return 1000000;
  }();
  return KHz;
}

/// DDR4-3200's I/O clock: with the CPU backend's 64-bit bus that is one
/// memory channel's 25.6 GB/s (the DIMMs' speed needs privileges to read).
constexpr int NominalMemoryClockKHz = 1600000;

int clampInt(size_t V) { return V > 0x7fffffff ? 0x7fffffff : int(V); }

/// The extents of arrays, textures and surfaces the CPU backend's sampler
/// takes: sm_80's limits, so that programs size their data as they would on
/// a GPU (the sampler itself addresses with 64-bit offsets). Mipmapped
/// resources are not implemented and report 0, and so does every
/// attribute that is not a texture or surface extent.
int textureLimit(int A) {
  switch (A) {
  case MAXIMUM_TEXTURE1D_WIDTH: return 131072;
  case MAXIMUM_TEXTURE2D_WIDTH: return 131072;
  case MAXIMUM_TEXTURE2D_HEIGHT: return 65536;
  case MAXIMUM_TEXTURE3D_WIDTH:
  case MAXIMUM_TEXTURE3D_HEIGHT:
  case MAXIMUM_TEXTURE3D_DEPTH: return 16384;
  case MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE:
  case MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE: return 8192;
  case MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE: return 32768;
  case MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
  case MAXIMUM_TEXTURE2D_LAYERED_HEIGHT: return 32768;
  case MAXIMUM_TEXTURE2D_LAYERED_LAYERS: return 2048;
  case MAXIMUM_TEXTURE1D_LAYERED_WIDTH: return 32768;
  case MAXIMUM_TEXTURE1D_LAYERED_LAYERS: return 2048;
  case CAN_TEX2D_GATHER: return 1;
  case MAXIMUM_TEXTURE2D_GATHER_WIDTH:
  case MAXIMUM_TEXTURE2D_GATHER_HEIGHT: return 32768;
  case MAXIMUM_TEXTURE1D_LINEAR_WIDTH: return 1 << 28;
  case MAXIMUM_TEXTURE2D_LINEAR_WIDTH: return 131072;
  case MAXIMUM_TEXTURE2D_LINEAR_HEIGHT: return 65000;
  case MAXIMUM_TEXTURE2D_LINEAR_PITCH: return 2097120;
  case MAXIMUM_SURFACE1D_WIDTH: return 32768;
  case MAXIMUM_SURFACE2D_WIDTH: return 131072;
  case MAXIMUM_SURFACE2D_HEIGHT: return 65536;
  case MAXIMUM_SURFACE3D_WIDTH:
  case MAXIMUM_SURFACE3D_HEIGHT:
  case MAXIMUM_SURFACE3D_DEPTH: return 16384;
  case MAXIMUM_SURFACE1D_LAYERED_WIDTH: return 32768;
  case MAXIMUM_SURFACE1D_LAYERED_LAYERS: return 2048;
  case MAXIMUM_SURFACE2D_LAYERED_WIDTH:
  case MAXIMUM_SURFACE2D_LAYERED_HEIGHT: return 32768;
  case MAXIMUM_SURFACE2D_LAYERED_LAYERS: return 2048;
  // A layered cube map's layer count is of faces: 341 whole cubes.
  case MAXIMUM_TEXTURECUBEMAP_WIDTH:
  case MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH: return 32768;
  case MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS: return 2046;
  case MAXIMUM_SURFACECUBEMAP_WIDTH:
  case MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH: return 32768;
  case MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS: return 2046;
  default: return 0;
  }
}

} // namespace

Status Runtime::deviceAttribute(int A, int Device, int *Value) {
  if (!Value)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (Device < 0 || Device >= deviceCount())
    return record(cudaErrorInvalidDevice);
  if (!isKnownAttribute(A))
    return record(cudaErrorInvalidValue);
  const DeviceInfo &D = deviceInfo(Device);
  int V = 0;
  switch (A) {
  case MAX_THREADS_PER_BLOCK: V = D.MaxThreadsPerBlock; break;
  case MAX_BLOCK_DIM_X: V = D.MaxThreadsDim[0]; break;
  case MAX_BLOCK_DIM_Y: V = D.MaxThreadsDim[1]; break;
  case MAX_BLOCK_DIM_Z: V = D.MaxThreadsDim[2]; break;
  case MAX_GRID_DIM_X: V = D.MaxGridSize[0]; break;
  case MAX_GRID_DIM_Y: V = D.MaxGridSize[1]; break;
  case MAX_GRID_DIM_Z: V = D.MaxGridSize[2]; break;
  case MAX_SHARED_MEMORY_PER_BLOCK: V = clampInt(D.SharedMemPerBlock); break;
  case TOTAL_CONSTANT_MEMORY: V = clampInt(D.TotalConstMem); break;
  case WARP_SIZE: V = D.WarpSize; break;
  case MAX_PITCH: V = 0x7fffffff; break;
  case MAX_REGISTERS_PER_BLOCK: V = D.RegsPerBlock; break;
  case CLOCK_RATE:
    V = D.ClockRateKHz > 0 ? D.ClockRateKHz : hostClockRateKHz();
    break;
  case TEXTURE_ALIGNMENT: V = 512; break;
  case GPU_OVERLAP: V = D.AsyncEngineCount > 0; break;
  case MULTIPROCESSOR_COUNT: V = D.MultiProcessorCount; break;
  case KERNEL_EXEC_TIMEOUT: V = 0; break; // no watchdog bounds a kernel
  case INTEGRATED: V = D.Integrated; break;
  case CAN_MAP_HOST_MEMORY: V = 1; break;
  case COMPUTE_MODE: V = 0; break; // default: any thread or process
  case SURFACE_ALIGNMENT: V = 512; break;
  case CONCURRENT_KERNELS: V = D.ConcurrentKernels; break;
  case MEMORY_CLOCK_RATE:
    V = D.MemoryClockRateKHz > 0 ? D.MemoryClockRateKHz : NominalMemoryClockKHz;
    break;
  case GLOBAL_MEMORY_BUS_WIDTH: V = D.MemoryBusWidth; break;
  case L2_CACHE_SIZE: V = D.L2CacheSize; break;
  case MAX_THREADS_PER_MULTIPROCESSOR: V = D.MaxThreadsPerMultiProcessor; break;
  case ASYNC_ENGINE_COUNT: V = D.AsyncEngineCount; break;
  case UNIFIED_ADDRESSING: V = 1; break;
  case TEXTURE_PITCH_ALIGNMENT: V = 32; break;
  case COMPUTE_CAPABILITY_MAJOR: V = D.Major; break;
  case COMPUTE_CAPABILITY_MINOR: V = D.Minor; break;
  case STREAM_PRIORITIES_SUPPORTED: {
    int Least = 0, Greatest = 0;
    streamPriorityRange(&Least, &Greatest);
    V = Least != Greatest;
    break;
  }
  case GLOBAL_L1_CACHE_SUPPORTED: V = 1; break;
  case LOCAL_L1_CACHE_SUPPORTED: V = 1; break;
  case MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    V = clampInt(D.SharedMemPerMultiprocessor);
    break;
  case MAX_REGISTERS_PER_MULTIPROCESSOR: V = 65536; break;
  case HOST_NATIVE_ATOMIC_SUPPORTED: V = 1; break;
  case SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: V = 2; break; // SIMD lanes
  // Kernels run as ordinary, preemptible threads (or HIP's queues).
  case COMPUTE_PREEMPTION_SUPPORTED: V = 1; break;
  case COOPERATIVE_LAUNCH: V = D.CooperativeLaunch; break;
  case MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    V = clampInt(D.SharedMemPerBlockOptin);
    break;
  case MAX_BLOCKS_PER_MULTIPROCESSOR: V = D.MaxBlocksPerMultiProcessor; break;
  case MEM_SYNC_DOMAIN_COUNT: V = 1; break; // one domain, never split
  case NUMA_ID: V = -1; break;
  case HOST_NUMA_ID: V = -1; break;
  // cuMemCreate/cuMemMap work where the device reads host memory.
  case VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: V = D.Integrated; break;
  // Host memory as the device sees it. On the CPU backend device pointers
  // are host pointers: registered memory is used at its own address, and
  // managed memory never migrates, so both sides touch it at once.
  case MANAGED_MEMORY: V = D.ManagedMemory; break;
  case CONCURRENT_MANAGED_ACCESS: V = D.ConcurrentManagedAccess; break;
  case PAGEABLE_MEMORY_ACCESS: V = D.PageableMemoryAccess; break;
  case PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES:
  case DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
  case CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
    V = D.Integrated;
    break;
  case HOST_REGISTER_SUPPORTED: V = 1; break;
  case READ_ONLY_HOST_REGISTER_SUPPORTED: V = D.Integrated; break;
  case MEMORY_POOLS_SUPPORTED: V = D.MemoryPools; break;
  // Device memory is host memory: other processes map it from a memfd
  // (cudaIpc*, runtime/lib/Ipc.h), and cuMemCreate's memfd is the POSIX
  // file descriptor cuMemExportToShareableHandle gives.
  case IPC_EVENT_SUPPORTED:
  case HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
    V = D.Integrated;
    break;
  // cudaMemHandleTypePosixFileDescriptor (1) where memory is host memory.
  case MEMPOOL_SUPPORTED_HANDLE_TYPES:
    V = D.Integrated ? 1 : 0;
    break;
  case MAX_PERSISTING_L2_CACHE_SIZE: V = D.MaxPersistingL2CacheSize; break;
  case MAX_ACCESS_POLICY_WINDOW_SIZE: V = D.MaxAccessPolicyWindowSize; break;
  // Kernels call through function pointers the host took (cudaGetFunc-
  // BySymbol): one address space on the CPU backend.
  case UNIFIED_FUNCTION_POINTERS: V = D.Integrated; break;
  // Stream memory operations (cuStreamWaitValue64, the NOR condition) run
  // on the CPU backend's stream workers; the HIP backend has none yet.
  case CAN_USE_64_BIT_STREAM_MEM_OPS:
  case CAN_USE_STREAM_WAIT_VALUE_NOR:
    V = D.Integrated;
    break;
  // The driver reserves no shared memory of a block on either backend.
  case RESERVED_SHARED_MEMORY_PER_BLOCK: V = 0; break;
  default:
    V = D.TextureObjects ? textureLimit(A) : 0;
    break;
  }
  *Value = V;
  return cudaSuccess;
}

void Runtime::pciBusId(int Device, char *Out, int Len) {
  int Domain = 0, Bus = 0, Dev = 0;
  deviceAttribute(PCI_DOMAIN_ID, Device, &Domain);
  deviceAttribute(PCI_BUS_ID, Device, &Bus);
  deviceAttribute(PCI_DEVICE_ID, Device, &Dev);
  std::snprintf(Out, size_t(Len), "%04x:%02x:%02x.0", unsigned(Domain),
                unsigned(Bus), unsigned(Dev));
}

Status Runtime::deviceByPciBusId(const char *Id, int *Device) {
  unsigned Domain = 0, Bus = 0, Dev = 0, Function = 0;
  char Tail = 0;
  bool Parsed =
      std::sscanf(Id, "%x:%x:%x.%x%c", &Domain, &Bus, &Dev, &Function,
                  &Tail) == 4 ||
      std::sscanf(Id, "%x:%x:%x%c", &Domain, &Bus, &Dev, &Tail) == 3 ||
      (Domain = 0,
       std::sscanf(Id, "%x:%x.%x%c", &Bus, &Dev, &Function, &Tail) == 3);
  if (!Parsed)
    return cudaErrorInvalidValue;
  for (int D = 0; D < deviceCount(); ++D) {
    int DDomain = 0, DBus = 0, DDev = 0;
    deviceAttribute(PCI_DOMAIN_ID, D, &DDomain);
    deviceAttribute(PCI_BUS_ID, D, &DBus);
    deviceAttribute(PCI_DEVICE_ID, D, &DDev);
    if (unsigned(DDomain) == Domain && unsigned(DBus) == Bus &&
        unsigned(DDev) == Dev) {
      *Device = D;
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidDevice;
}

} // namespace cuhip::rt
