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
#include <vector>

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
  /// Copies the arguments of a launch of K (Args[i] points at argument i)
  /// into Buffer by K's parameter layout, Offsets[i] being where argument i
  /// lies: what graph kernel nodes keep. Compiles K's module if needed.
  Status packKernelArgs(Kernel *K, void **Args, std::vector<uint8_t> &Buffer,
                        std::vector<uint32_t> &Offsets);
  /// How many blocks of K with BlockSize threads and DynamicShared bytes of
  /// dynamic shared memory one multiprocessor keeps resident
  /// (cudaOccupancyMaxActiveBlocksPerMultiprocessor). A cooperative grid
  /// may have that many times MultiProcessorCount blocks.
  Status maxActiveBlocksPerMultiprocessor(Kernel *K, int BlockSize,
                                          size_t DynamicShared, int *Blocks);

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
  /// A number no other stream of the process has (cudaStreamGetId).
  Status streamGetId(void *Stream, unsigned long long *Id);
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
