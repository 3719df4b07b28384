//===- Runtime.h - The runtime core every drop-in library calls -----------===//
//
// Devices, memory, modules, kernels, launches and error state, independent of
// any CUDA header: the libcudart and libcuda layers translate their types
// into these calls. Error values are the CUDA runtime's cudaError_t numbers
// (CudaErrors.def), so the runtime layer passes them through unchanged.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuhip::rt {

enum Status : int {
#define CUHIP_CUDA_ERROR(Name, Value, Desc) Name = Value,
#include "cuhip/runtime/CudaErrors.def"
#undef CUHIP_CUDA_ERROR
};

/// "cudaErrorInvalidValue" / "invalid argument"; nullptr for unknown codes.
const char *statusName(int S);
const char *statusDescription(int S);

struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
};

enum class CopyKind : int {
  HostToHost = 0,
  HostToDevice = 1,
  DeviceToHost = 2,
  DeviceToDevice = 3,
  Default = 4,
};

/// What the device properties report. Values are true for the backend.
struct DeviceInfo {
  std::string Name;
  size_t TotalGlobalMem = 0;
  size_t SharedMemPerBlock = 48 * 1024;
  size_t SharedMemPerBlockOptin = 160 * 1024;
  size_t SharedMemPerMultiprocessor = 160 * 1024;
  size_t TotalConstMem = 64 * 1024;
  int WarpSize = 32;
  int MaxThreadsPerBlock = 1024;
  int MaxThreadsDim[3] = {1024, 1024, 64};
  int MaxGridSize[3] = {0x7fffffff, 65535, 65535};
  int Major = 8, Minor = 0;
  int MultiProcessorCount = 1;
  int MaxThreadsPerMultiProcessor = 2048;
  int MaxBlocksPerMultiProcessor = 32;
  int L2CacheSize = 0;
  int RegsPerBlock = 65536;
  int ClockRateKHz = 0;
  int MemoryClockRateKHz = 0;     // 0: the CPU backend's nominal value
  int MemoryBusWidth = 64;
  bool Integrated = true;         // device memory is host memory
  int AsyncEngineCount = 0;       // copy engines that overlap kernels
  bool ConcurrentKernels = false; // kernels of several streams at once
  bool CooperativeLaunch = false; // cudaLaunchCooperativeKernel works
};

/// cudaFuncAttributes' facts about one kernel (cudaFuncGetAttributes).
struct KernelAttributes {
  size_t StaticSharedBytes = 0;
  size_t ConstBytes = 0;
  size_t LocalBytesPerThread = 0;
  int MaxThreadsPerBlock = 0;
  int NumRegs = 0;
  int PtxVersion = 0;    // the PTX's .target: 80 for sm_80
  int BinaryVersion = 0; // the device's compute capability, as 80
  int MaxDynamicSharedBytes = 0;
  int PreferredShmemCarveout = -1; // -1: no preference
  int ClusterDimMustBeSet = 0;
  int RequiredClusterDim[3] = {0, 0, 0};
  int ClusterSchedulingPolicy = 0;
  int NonPortableClusterSizeAllowed = 0;
  int CacheConfig = 0; // cudaFuncCache
};

/// cudaFuncAttribute values cudaFuncSetAttribute accepts.
enum class KernelAttr : int {
  MaxDynamicSharedMemorySize = 8,
  PreferredSharedMemoryCarveout = 9,
  ClusterDimMustBeSet = 10,
  RequiredClusterWidth = 11,
  RequiredClusterHeight = 12,
  RequiredClusterDepth = 13,
  NonPortableClusterSizeAllowed = 14,
  ClusterSchedulingPolicyPreference = 15,
};

/// cudaLimit values.
enum class DeviceLimit : int {
  StackSize = 0,
  PrintfFifoSize = 1,
  MallocHeapSize = 2,
  DevRuntimeSyncDepth = 3,
  DevRuntimePendingLaunchCount = 4,
  MaxL2FetchGranularity = 5,
  PersistingL2CacheSize = 6,
};

struct Kernel;   // a registered __global__ function
struct Module;   // a registered fatbin

class Runtime {
public:
  static Runtime &get();

  // --- registration (called from program start-up code) -------------------
  void **registerFatBinary(void *Wrapper);
  void registerFunction(void **Handle, const void *HostFun,
                        const char *DeviceName);
  void registerFatBinaryEnd(void **Handle);
  void unregisterFatBinary(void **Handle);

  // --- modules loaded explicitly (the driver API's cuModuleLoadData) --------
  /// Loads and compiles a module from PTX text (NUL-terminated or of Size
  /// bytes) or from a fatbin container. Name appears in diagnostics.
  Status loadModuleData(const void *Image, size_t Size, const std::string &Name,
                        Module **Out);
  Status moduleGetFunction(Module *M, const char *Name, Kernel **Out);

  // --- launches --------------------------------------------------------------
  Status pushCallConfiguration(Dim3 Grid, Dim3 Block, size_t SharedMem,
                               void *Stream);
  Status popCallConfiguration(Dim3 *Grid, Dim3 *Block, size_t *SharedMem,
                              void **Stream);
  /// The kernel registered for a host stub; nullptr if none.
  Kernel *kernelForHostFunction(const void *HostFun);
  /// Is K a kernel handle this runtime handed out?
  bool isKernelHandle(const void *K);
  /// Launches K on Stream. Cooperative launches (cudaLaunchCooperative-
  /// Kernel) need all blocks resident at once; a backend that cannot
  /// promise that refuses them.
  Status launch(Kernel *K, Dim3 Grid, Dim3 Block, void **Args,
                size_t SharedMem, void *Stream, bool Cooperative = false);
  /// How many blocks of K with BlockSize threads and DynamicShared bytes of
  /// dynamic shared memory one multiprocessor keeps resident
  /// (cudaOccupancyMaxActiveBlocksPerMultiprocessor). A cooperative grid
  /// may have that many times MultiProcessorCount blocks.
  Status maxActiveBlocksPerMultiprocessor(Kernel *K, int BlockSize,
                                          size_t DynamicShared, int *Blocks);
  /// The most dynamic shared memory a block of K may use when NumBlocks
  /// blocks of BlockSize threads share one multiprocessor
  /// (cudaOccupancyAvailableDynamicSMemPerBlock).
  Status availableDynamicShared(Kernel *K, int NumBlocks, int BlockSize,
                                size_t *Bytes);

  // --- kernel attributes (cudaFuncGetAttributes, cudaFuncSetAttribute) -----
  // Loads K's module if needed. A launch fails with cudaErrorInvalidValue
  // when its dynamic shared memory exceeds MaxDynamicSharedBytes, which is
  // SharedMemPerBlock minus the static part until raised by
  // setKernelAttribute, up to SharedMemPerBlockOptin minus the static part.
  Status kernelAttributes(Kernel *K, KernelAttributes *Out);
  Status setKernelAttribute(Kernel *K, KernelAttr Attr, int Value);
  Status setKernelCacheConfig(Kernel *K, int Config);
  /// Where parameter Index of K lies in its parameter buffer
  /// (cudaFuncGetParamInfo); cudaErrorInvalidValue past the last one.
  Status kernelParamInfo(Kernel *K, size_t Index, size_t *Offset,
                         size_t *Size);
  /// The kernel's (mangled) name; nullptr for a null kernel.
  const char *kernelName(Kernel *K);

  // --- memory ----------------------------------------------------------------
  Status malloc(void **Ptr, size_t Bytes);
  Status free(void *Ptr);
  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind);
  Status memset(void *Ptr, int Value, size_t Bytes);
  Status memcpyAsync(void *Dst, const void *Src, size_t Bytes, CopyKind Kind,
                     void *Stream);
  Status memsetAsync(void *Ptr, int Value, size_t Bytes, void *Stream);
  /// Is [Ptr, Ptr+Bytes) inside one live allocation?
  bool isDeviceRange(const void *Ptr, size_t Bytes);

  // --- streams and events ----------------------------------------------------
  // Stream arguments are cudaStream_t values: nullptr and cudaStreamLegacy
  // (0x1) name the legacy default stream, cudaStreamPerThread (0x2) the
  // calling thread's default stream, anything else must be a stream
  // streamCreate returned and streamDestroy did not destroy yet
  // (cudaErrorInvalidResourceHandle otherwise). Events likewise. On the CPU
  // backend every operation is complete when the call that enqueues it
  // returns, which CUDA's stream semantics allow; the HIP backend uses HIP's
  // streams and events, so there work is asynchronous.
  Status streamCreate(void **Stream, unsigned Flags, int Priority);
  Status streamDestroy(void *Stream);
  Status streamSynchronize(void *Stream);
  Status streamQuery(void *Stream);
  Status streamGetFlags(void *Stream, unsigned *Flags);
  Status streamGetPriority(void *Stream, int *Priority);
  Status streamWaitEvent(void *Stream, void *Event, unsigned Flags);
  /// Runs Fn(Data) after the stream's earlier work (cudaLaunchHostFunc).
  Status streamAddHostFunc(void *Stream, void (*Fn)(void *), void *Data);
  Status streamPriorityRange(int *Least, int *Greatest);
  /// Is S a stream handle (a default stream or a live created stream)?
  bool isStreamHandle(void *S);
  Status eventCreate(void **Event, unsigned Flags);
  Status eventDestroy(void *Event);
  Status eventRecord(void *Event, void *Stream);
  Status eventQuery(void *Event);
  Status eventSynchronize(void *Event);
  Status eventElapsedTime(float *Ms, void *Start, void *End);

  // --- devices ---------------------------------------------------------------
  /// Devices of the selected backend: 1, or 0 when CUHIP_BACKEND=hip found
  /// no usable AMD GPU.
  int deviceCount();
  /// Why there is no device (cudaErrorNoDevice) or cudaSuccess.
  Status deviceStatus();
  Status setDevice(int Device);
  Status getDevice(int *Device);
  const DeviceInfo &deviceInfo(int Device) const;
  Status synchronize();
  /// cudaDeviceReset: frees every allocation, destroys every stream and
  /// event, forgets kernel attributes, device flags, limits and cache
  /// settings, and clears the sticky error and this thread's last error.
  Status deviceReset();
  /// cudaSetDeviceFlags / cudaGetDeviceFlags (cudaDeviceScheduleMask,
  /// MapHost, LmemResizeToMax, SyncMemops); the getter adds MapHost, which
  /// is always in effect.
  Status setDeviceFlags(unsigned Flags);
  Status getDeviceFlags(unsigned *Flags);
  Status getLimit(DeviceLimit L, size_t *Value);
  Status setLimit(DeviceLimit L, size_t Value);
  /// cudaFuncCache and cudaSharedMemConfig preferences of the device: kept
  /// and reported, with no effect on the CPU backend's caches.
  Status getCacheConfig(int *Config);
  Status setCacheConfig(int Config);
  Status getSharedMemConfig(int *Config);
  Status setSharedMemConfig(int Config);

  // --- errors ----------------------------------------------------------------
  /// Records S as this thread's last error (unless it is cudaSuccess) and
  /// returns it, so API functions can `return rt.fail(...)`.
  Status record(Status S);
  Status getLastError();  // returns and clears (sticky errors stay)
  Status peekLastError(); // returns without clearing
  /// The context's sticky error (a kernel fault), cudaSuccess if none.
  Status stickyError() const;

  int driverVersion() const { return 13000; }

private:
  Runtime();
  ~Runtime();
  struct Impl;
  Impl *P;
};

} // namespace cuhip::rt
