//===- HipBackend.h - Running kernels on AMD GPUs through HIP -------------===//
//
// The HIP backend loads libamdhip64 with dlopen when the runtime core asks
// for it, so cuhip neither links against ROCm nor needs it installed. open()
// says whether a usable AMD GPU is present and, if not, why (the library is
// missing, lacks an entry point, or HIP reports no device); the core turns
// that into its backend choice. The remaining calls map the core's memory,
// stream, event, module and launch operations onto HIP's module API with
// code objects from the PTX frontend's AMDGPU target. Streams and events are
// HIP's own objects, so work is asynchronous as on a GPU. docs/amdgpu.md
// says exactly what was exercised and how (there is no AMD GPU here).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Lower.h"
#include "cuhip/runtime/Runtime.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cuhip::rt {

/// One kernel of a code object loaded into HIP.
struct HipKernel {
  void *Function = nullptr; // hipFunction_t
  ptx::KernelInfo Info;     // the PTX parameter layout of the kernel
};

class HipBackend {
public:
  /// The library names tried in order, newest ROCm first, unless
  /// CUHIP_HIP_LIBRARY names the library to load instead.
  static std::vector<std::string> libraryCandidates();

  /// Loads libamdhip64, initialises HIP and selects device 0. Returns null
  /// when HIP cannot run kernels here; then Reason says why, e.g. "library
  /// not found (tried ...)" or "no AMD GPU found by HIP: hipErrorNoDevice".
  static std::unique_ptr<HipBackend> open(std::string &Reason);
  ~HipBackend();

  const std::string &libraryPath() const { return LibraryPath; }
  /// The device's gfx architecture without feature suffixes ("gfx942").
  const std::string &arch() const { return Arch; }
  /// Can cuhip's AMDGPU target compile for this device?
  bool isSupportedDevice() const;
  /// The device as CUDA's properties describe it: warpSize 32 and the
  /// target's limits, with HIP's values for what HIP knows (see open()).
  const DeviceInfo &deviceInfo() const { return Info; }
  int deviceCount() const { return Devices; }

  // Memory. Stream arguments are HIP streams (nullptr: the null stream).
  Status malloc(void **Ptr, size_t Bytes);
  Status free(void *Ptr);
  Status memcpy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind);
  Status memset(void *Ptr, int Value, size_t Bytes);
  Status memcpyAsync(void *Dst, const void *Src, size_t Bytes, CopyKind Kind,
                     void *Stream);
  Status memsetAsync(void *Ptr, int Value, size_t Bytes, void *Stream);
  Status synchronize();
  // The rest of the memory family. HIP's flag values for page-locked,
  // registered and managed memory are CUDA's. Each is resolved when the
  // library has it; without it the call is cudaErrorNotSupported.
  Status hostMalloc(void **Ptr, size_t Bytes, unsigned Flags);
  Status hostFree(void *Ptr);
  Status hostRegister(void *Ptr, size_t Bytes, unsigned Flags);
  Status hostUnregister(void *Ptr);
  Status hostGetDevicePointer(void **DevPtr, void *HostPtr);
  Status mallocManaged(void **Ptr, size_t Bytes, unsigned Flags);
  Status memGetInfo(size_t *Free, size_t *Total);
  /// hipMemcpy2D, or hipMemcpy2DAsync on Stream when Async.
  Status memcpy2D(void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                  size_t Width, size_t Height, CopyKind Kind, void *Stream,
                  bool Async);
  Status memset2D(void *Ptr, size_t Pitch, int Value, size_t Width,
                  size_t Height, void *Stream, bool Async);

  // Streams and events: HIP objects, created with CUDA's flag values (HIP
  // uses the same numbers for the flags cuhip passes on).
  Status streamCreate(void **Stream, unsigned Flags, int Priority);
  Status streamDestroy(void *Stream);
  Status streamSynchronize(void *Stream);
  Status streamQuery(void *Stream);
  Status streamWaitEvent(void *Stream, void *Event);
  /// Runs Fn(Data) on a host thread once the stream's earlier work is done.
  Status streamAddHostFunc(void *Stream, void (*Fn)(void *), void *Data);
  Status streamPriorityRange(int *Least, int *Greatest);
  Status eventCreate(void **Event, unsigned Flags);
  Status eventDestroy(void *Event);
  Status eventRecord(void *Event, void *Stream);
  Status eventQuery(void *Event);
  Status eventSynchronize(void *Event);
  Status eventElapsedTime(float *Ms, void *Start, void *End);

  /// Compiles the PTX text of a module for arch() (or takes the code object
  /// from the compile cache in CacheDir) and loads it; Kernels receives one
  /// entry per kernel and Module the hipModule_t. On failure Message says
  /// why.
  Status loadModule(std::string_view Ptx, const std::string &Name,
                    const std::string &CacheDir,
                    std::vector<HipKernel> &Kernels, void **Module,
                    std::string &Message);
  /// hipModuleGetGlobal: where a module variable (a dynamic symbol of the
  /// code object, see LowerToAmdgpu.cpp) lives in device memory, and its
  /// size. cudaErrorSymbolNotFound if the module has no such variable.
  Status moduleGetGlobal(void *Module, const char *Name, void **Ptr,
                         size_t *Bytes);

  // Stream-ordered allocation and memory pools: HIP's own (hipMallocAsync
  // and hipMemPool*), whose attribute numbers and pool properties are
  // CUDA's. Pools are hipMemPool_t handles.
  Status mallocAsync(void **Ptr, size_t Bytes, void *Pool, void *Stream);
  Status freeAsync(void *Ptr, void *Stream);
  Status deviceGetDefaultMemPool(void **Pool, int Device);
  Status deviceGetMemPool(void **Pool, int Device);
  Status deviceSetMemPool(int Device, void *Pool);
  Status memPoolCreate(void **Pool, const MemPoolProps &Props);
  Status memPoolDestroy(void *Pool);
  Status memPoolSetAttribute(void *Pool, int Attr, const void *Value);
  Status memPoolGetAttribute(void *Pool, int Attr, void *Value);
  Status memPoolTrimTo(void *Pool, size_t MinBytesToKeep);

  // Virtual memory management (hipMemCreate and its family). Handles are
  // hipMemGenericAllocationHandle_t values; allocations are pinned device
  // memory of Device, as cuhip's driver API accepts only those.
  Status memCreate(uint64_t *Handle, size_t Bytes, int Device,
                   unsigned long long Flags);
  Status memRelease(uint64_t Handle);
  Status memAddressReserve(void **Ptr, size_t Bytes, size_t Alignment,
                           void *Addr, unsigned long long Flags);
  Status memAddressFree(void *Ptr, size_t Bytes);
  Status memMap(void *Ptr, size_t Bytes, size_t Offset, uint64_t Handle,
                unsigned long long Flags);
  Status memUnmap(void *Ptr, size_t Bytes);
  Status memSetAccess(void *Ptr, size_t Bytes, const VirtualAccess *Desc,
                      size_t Count);
  Status memGetAllocationGranularity(size_t *Granularity, int Device,
                                     bool Recommended);
  /// Enqueues K on Stream with the packed PTX parameter buffer Params; with
  /// Cooperative, all blocks are resident at once (hipModuleLaunch-
  /// CooperativeKernel, which ROCm 5.x lacks: then cudaErrorNotSupported).
  Status launch(const HipKernel &K, Dim3 Grid, Dim3 Block, const void *Params,
                size_t ParamBytes, size_t DynamicShared, void *Stream,
                bool Cooperative, std::string &Message);

  /// The CUDA status for a HIP error code.
  static Status translateError(int HipError);

private:
  HipBackend() = default;
  struct Api;
  std::unique_ptr<Api> Hip;
  void *Library = nullptr;
  std::string LibraryPath, Arch;
  DeviceInfo Info;
  int Devices = 0;
  std::mutex MissingLock;
  std::set<std::string> MissingLogged;
  std::string errorText(int HipError) const;
  Status missing(const char *HipName);
  void readDeviceInfo();
};

} // namespace cuhip::rt
