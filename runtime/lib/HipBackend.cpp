//===- HipBackend.cpp - Running kernels on AMD GPUs through HIP -----------===//
//
// Everything HIP-specific lives here, resolved with dlsym from libamdhip64 so
// that no ROCm header or library is needed to build cuhip. The few HIP types
// are declared below from HIP's documented ABI: error codes and memcpy kinds
// are plain ints, handles are pointers. Device properties are not read
// through hipDeviceProp_t field offsets, whose layout changed between ROCm 5
// and 6; the architecture name is taken from the properties block by its
// "gfx" prefix and everything else from calls whose signatures are stable.
//
//===----------------------------------------------------------------------===//
#include "HipBackend.h"

#include "cuhip/runtime/HipLibrary.h"

#include "cuhip/ptx/AmdgpuTarget.h"
#include "cuhip/runtime/Log.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <set>

namespace cuhip::rt {

namespace {
// HIP's hipError_t values that the translation distinguishes.
enum : int {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInsufficientDriver = 35,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorAssert = 710,
  hipErrorLaunchFailure = 719,
  hipErrorCooperativeLaunchTooLarge = 720,
  hipErrorNotSupported = 801,
};

// hipModuleLaunchKernel's `extra` markers (the same values as CUDA's).
void *const LaunchParamBufferPointer = reinterpret_cast<void *>(0x01);
void *const LaunchParamBufferSize = reinterpret_cast<void *>(0x02);
void *const LaunchParamEnd = reinterpret_cast<void *>(0x03);

// Larger than hipDeviceProp_t in any ROCm release (about 1.5 KiB in 6.x).
constexpr size_t DevicePropBytes = 16 * 1024;

// hipMemLocation: a hipMemLocationType (hipMemLocationTypeDevice is 1, as
// CUDA's) and the device ordinal.
struct HipMemLocation {
  int Type;
  int Id;
};

// hipMemPoolProps as HIP's API reference (hip_runtime_api.h, "hipMemPoolProps
// Struct Reference") documents it: ROCm 6 has maxSize and 56 reserved
// bytes where ROCm 5 had 64 reserved bytes, so the size (88 bytes) and the
// offsets of the fields before them are the same in both, and a zero
// maxSize (no limit) reads the same to either. It mirrors cudaMemPoolProps.
struct HipMemPoolProps {
  int AllocType;   // hipMemAllocationTypePinned 1
  int HandleTypes; // hipMemHandleTypeNone 0
  HipMemLocation Location;
  void *Win32SecurityAttributes;
  size_t MaxSize;
  unsigned char Reserved[56];
};
static_assert(sizeof(HipMemPoolProps) == 88, "hipMemPoolProps is 88 bytes");

// hipMemAllocationProp as HIP's API reference ("hipMemAllocationProp Struct
// Reference", ROCm 5.3 and later) documents it: type, requested handle
// type, location, the Win32 metadata pointer and the allocFlags bytes, in
// the order and with the types of CUDA's CUmemAllocationProp.
struct HipMemAllocationProp {
  int Type;                // hipMemAllocationTypePinned 1
  int RequestedHandleType; // hipMemHandleTypeNone 0
  HipMemLocation Location;
  void *Win32HandleMetaData;
  unsigned char CompressionType;
  unsigned char GpuDirectRdmaCapable;
  unsigned short Usage;
};

// hipMemAccessDesc: a location and hipMemAccessFlags (ProtNone 0, Read 1,
// ReadWrite 3, as CUDA's).
struct HipMemAccessDesc {
  HipMemLocation Location;
  int Flags;
};
} // namespace

struct HipBackend::Api {
  int (*Init)(unsigned);
  int (*GetDeviceCount)(int *);
  const char *(*GetErrorString)(int);
  int (*SetDevice)(int);
  int (*GetDeviceProperties)(void *, int);
  int (*DeviceGet)(int *, int);
  int (*DeviceGetName)(char *, int, int);
  int (*DeviceTotalMem)(size_t *, int);
  int (*DeviceGetAttribute)(int *, int, int);
  int (*ModuleLoadData)(void **, const void *);
  int (*ModuleGetFunction)(void **, void *, const char *);
  int (*ModuleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                            unsigned, unsigned, unsigned, void *, void **,
                            void **);
  int (*Malloc)(void **, size_t);
  int (*Free)(void *);
  int (*Memcpy)(void *, const void *, size_t, int);
  int (*Memset)(void *, int, size_t);
  int (*MemcpyAsync)(void *, const void *, size_t, int, void *);
  int (*MemsetAsync)(void *, int, size_t, void *);
  int (*DeviceSynchronize)();
  int (*StreamCreateWithPriority)(void **, unsigned, int);
  int (*StreamDestroy)(void *);
  int (*StreamSynchronize)(void *);
  int (*StreamQuery)(void *);
  int (*StreamWaitEvent)(void *, void *, unsigned);
  int (*StreamAddCallback)(void *, void (*)(void *, int, void *), void *,
                           unsigned);
  int (*DeviceGetStreamPriorityRange)(int *, int *);
  int (*EventCreateWithFlags)(void **, unsigned);
  int (*EventDestroy)(void *);
  int (*EventRecord)(void *, void *);
  int (*EventQuery)(void *);
  int (*EventSynchronize)(void *);
  int (*EventElapsedTime)(float *, void *, void *);
  // Optional: the memory family beyond hipMalloc (null where missing).
  int (*HostMalloc)(void **, size_t, unsigned) = nullptr;
  int (*HostFree)(void *) = nullptr;
  int (*HostRegister)(void *, size_t, unsigned) = nullptr;
  int (*HostUnregister)(void *) = nullptr;
  int (*HostGetDevicePointer)(void **, void *, unsigned) = nullptr;
  int (*MallocManaged)(void **, size_t, unsigned) = nullptr;
  int (*MemGetInfo)(size_t *, size_t *) = nullptr;
  int (*Memcpy2D)(void *, size_t, const void *, size_t, size_t, size_t,
                  int) = nullptr;
  int (*Memcpy2DAsync)(void *, size_t, const void *, size_t, size_t, size_t,
                       int, void *) = nullptr;
  int (*Memset2D)(void *, size_t, int, size_t, size_t) = nullptr;
  int (*Memset2DAsync)(void *, size_t, int, size_t, size_t, void *) = nullptr;
  // Optional: module variables, stream-ordered allocation and pools
  // (ROCm 5.2 and later), virtual memory management (ROCm 5.3 and later).
  int (*ModuleGetGlobal)(void **, size_t *, void *, const char *) = nullptr;
  int (*MallocAsync)(void **, size_t, void *) = nullptr;
  int (*MallocFromPoolAsync)(void **, size_t, void *, void *) = nullptr;
  int (*FreeAsync)(void *, void *) = nullptr;
  int (*DeviceGetDefaultMemPool)(void **, int) = nullptr;
  int (*DeviceGetMemPool)(void **, int) = nullptr;
  int (*DeviceSetMemPool)(int, void *) = nullptr;
  int (*MemPoolCreate)(void **, const HipMemPoolProps *) = nullptr;
  int (*MemPoolDestroy)(void *) = nullptr;
  int (*MemPoolSetAttribute)(void *, int, void *) = nullptr;
  int (*MemPoolGetAttribute)(void *, int, void *) = nullptr;
  int (*MemPoolTrimTo)(void *, size_t) = nullptr;
  // hipMemGenericAllocationHandle_t is a pointer; it travels as the 64-bit
  // integer CUmemGenericAllocationHandle is (the same registers on x86-64).
  int (*MemCreate)(uint64_t *, size_t, const HipMemAllocationProp *,
                   unsigned long long) = nullptr;
  int (*MemRelease)(uint64_t) = nullptr;
  int (*MemAddressReserve)(void **, size_t, size_t, void *,
                           unsigned long long) = nullptr;
  int (*MemAddressFree)(void *, size_t) = nullptr;
  int (*MemMap)(void *, size_t, size_t, uint64_t, unsigned long long) = nullptr;
  int (*MemUnmap)(void *, size_t) = nullptr;
  int (*MemSetAccess)(void *, size_t, const HipMemAccessDesc *,
                      size_t) = nullptr;
  int (*MemGetAllocationGranularity)(size_t *, const HipMemAllocationProp *,
                                     int) = nullptr;
  // Optional: ROCm 6 and later only.
  int (*ModuleLaunchCooperativeKernel)(void *, unsigned, unsigned, unsigned,
                                       unsigned, unsigned, unsigned, unsigned,
                                       void *, void **) = nullptr;
};

std::vector<std::string> HipBackend::libraryCandidates() {
  return hipLibraryCandidates();
}

Status HipBackend::translateError(int E) {
  switch (E) {
  case hipSuccess:
    return cudaSuccess;
  case hipErrorInvalidValue:
    return cudaErrorInvalidValue;
  case hipErrorOutOfMemory:
    return cudaErrorMemoryAllocation;
  case hipErrorNotInitialized:
    return cudaErrorInitializationError;
  case hipErrorInvalidConfiguration:
    return cudaErrorInvalidConfiguration;
  case hipErrorInvalidDevicePointer:
    return cudaErrorInvalidDevicePointer;
  case hipErrorInvalidMemcpyDirection:
    return cudaErrorInvalidMemcpyDirection;
  case hipErrorInsufficientDriver:
    return cudaErrorInsufficientDriver;
  case hipErrorNoDevice:
    return cudaErrorNoDevice;
  case hipErrorInvalidDevice:
    return cudaErrorInvalidDevice;
  case hipErrorInvalidImage:
    return cudaErrorInvalidKernelImage;
  case hipErrorNoBinaryForGpu:
    return cudaErrorNoKernelImageForDevice;
  case hipErrorInvalidHandle:
    return cudaErrorInvalidResourceHandle;
  case hipErrorNotFound:
    return cudaErrorSymbolNotFound;
  case hipErrorNotReady:
    return cudaErrorNotReady;
  case hipErrorIllegalAddress:
    return cudaErrorIllegalAddress;
  case hipErrorLaunchOutOfResources:
    return cudaErrorLaunchOutOfResources;
  case hipErrorLaunchFailure:
    return cudaErrorLaunchFailure;
  case hipErrorAssert:
    return cudaErrorAssert;
  case hipErrorCooperativeLaunchTooLarge:
    return cudaErrorCooperativeLaunchTooLarge;
  case hipErrorNotSupported:
    return cudaErrorNotSupported;
  }
  return cudaErrorUnknown;
}

std::string HipBackend::errorText(int E) const {
  const char *S = Hip && Hip->GetErrorString ? Hip->GetErrorString(E) : nullptr;
  return S ? std::string(S) : "HIP error " + std::to_string(E);
}

/// The gfx name in a hipDeviceProp_t block: gcnArchName, e.g.
/// "gfx90a:sramecc+:xnack-", is the only field holding such a string; the
/// feature suffixes are dropped.
static std::string findArchName(const char *Props, size_t Size) {
  for (size_t I = 0; I + 4 < Size; ++I) {
    if (std::memcmp(Props + I, "gfx", 3) != 0 || (I && Props[I - 1] != 0))
      continue;
    size_t E = I + 3;
    while (E < Size && std::isxdigit(static_cast<unsigned char>(Props[E])))
      ++E;
    if (E > I + 3 && E < Size && (Props[E] == 0 || Props[E] == ':'))
      return std::string(Props + I, E - I);
  }
  return "";
}

std::unique_ptr<HipBackend> HipBackend::open(std::string &Reason) {
  std::unique_ptr<HipBackend> B(new HipBackend);
  std::vector<std::string> Names = libraryCandidates();
  for (const std::string &N : Names) {
    B->Library = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (B->Library) {
      B->LibraryPath = N;
      break;
    }
  }
  if (!B->Library) {
    std::string Tried;
    for (const std::string &N : Names)
      Tried += (Tried.empty() ? "" : ", ") + N;
    Reason = "HIP library not found (tried " + Tried +
             "); install ROCm's libamdhip64 or set CUHIP_HIP_LIBRARY";
    return nullptr;
  }
  B->Hip = std::make_unique<Api>();
  Api &A = *B->Hip;
  std::string Missing;
  auto resolve = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
        dlsym(B->Library, Name));
    if (!Fn)
      Missing += (Missing.empty() ? "" : ", ") + std::string(Name);
  };
  resolve(A.Init, "hipInit");
  resolve(A.GetDeviceCount, "hipGetDeviceCount");
  resolve(A.GetErrorString, "hipGetErrorString");
  resolve(A.SetDevice, "hipSetDevice");
  resolve(A.GetDeviceProperties, "hipGetDeviceProperties");
  resolve(A.DeviceGet, "hipDeviceGet");
  resolve(A.DeviceGetName, "hipDeviceGetName");
  resolve(A.DeviceTotalMem, "hipDeviceTotalMem");
  resolve(A.ModuleLoadData, "hipModuleLoadData");
  resolve(A.ModuleGetFunction, "hipModuleGetFunction");
  resolve(A.ModuleLaunchKernel, "hipModuleLaunchKernel");
  resolve(A.Malloc, "hipMalloc");
  resolve(A.Free, "hipFree");
  resolve(A.Memcpy, "hipMemcpy");
  resolve(A.Memset, "hipMemset");
  resolve(A.DeviceSynchronize, "hipDeviceSynchronize");
  resolve(A.DeviceGetAttribute, "hipDeviceGetAttribute");
  resolve(A.MemcpyAsync, "hipMemcpyAsync");
  resolve(A.MemsetAsync, "hipMemsetAsync");
  resolve(A.StreamCreateWithPriority, "hipStreamCreateWithPriority");
  resolve(A.StreamDestroy, "hipStreamDestroy");
  resolve(A.StreamSynchronize, "hipStreamSynchronize");
  resolve(A.StreamQuery, "hipStreamQuery");
  resolve(A.StreamWaitEvent, "hipStreamWaitEvent");
  resolve(A.StreamAddCallback, "hipStreamAddCallback");
  resolve(A.DeviceGetStreamPriorityRange, "hipDeviceGetStreamPriorityRange");
  resolve(A.EventCreateWithFlags, "hipEventCreateWithFlags");
  resolve(A.EventDestroy, "hipEventDestroy");
  resolve(A.EventRecord, "hipEventRecord");
  resolve(A.EventQuery, "hipEventQuery");
  resolve(A.EventSynchronize, "hipEventSynchronize");
  resolve(A.EventElapsedTime, "hipEventElapsedTime");
  if (!Missing.empty()) {
    Reason = B->LibraryPath + " lacks " + Missing;
    return nullptr;
  }
  A.ModuleLaunchCooperativeKernel =
      reinterpret_cast<decltype(A.ModuleLaunchCooperativeKernel)>(
          dlsym(B->Library, "hipModuleLaunchCooperativeKernel"));
  auto optional = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
        dlsym(B->Library, Name));
  };
  optional(A.HostMalloc, "hipHostMalloc");
  optional(A.HostFree, "hipHostFree");
  optional(A.HostRegister, "hipHostRegister");
  optional(A.HostUnregister, "hipHostUnregister");
  optional(A.HostGetDevicePointer, "hipHostGetDevicePointer");
  optional(A.MallocManaged, "hipMallocManaged");
  optional(A.MemGetInfo, "hipMemGetInfo");
  optional(A.Memcpy2D, "hipMemcpy2D");
  optional(A.Memcpy2DAsync, "hipMemcpy2DAsync");
  optional(A.Memset2D, "hipMemset2D");
  optional(A.Memset2DAsync, "hipMemset2DAsync");
  optional(A.ModuleGetGlobal, "hipModuleGetGlobal");
  optional(A.MallocAsync, "hipMallocAsync");
  optional(A.MallocFromPoolAsync, "hipMallocFromPoolAsync");
  optional(A.FreeAsync, "hipFreeAsync");
  optional(A.DeviceGetDefaultMemPool, "hipDeviceGetDefaultMemPool");
  optional(A.DeviceGetMemPool, "hipDeviceGetMemPool");
  optional(A.DeviceSetMemPool, "hipDeviceSetMemPool");
  optional(A.MemPoolCreate, "hipMemPoolCreate");
  optional(A.MemPoolDestroy, "hipMemPoolDestroy");
  optional(A.MemPoolSetAttribute, "hipMemPoolSetAttribute");
  optional(A.MemPoolGetAttribute, "hipMemPoolGetAttribute");
  optional(A.MemPoolTrimTo, "hipMemPoolTrimTo");
  optional(A.MemCreate, "hipMemCreate");
  optional(A.MemRelease, "hipMemRelease");
  optional(A.MemAddressReserve, "hipMemAddressReserve");
  optional(A.MemAddressFree, "hipMemAddressFree");
  optional(A.MemMap, "hipMemMap");
  optional(A.MemUnmap, "hipMemUnmap");
  optional(A.MemSetAccess, "hipMemSetAccess");
  optional(A.MemGetAllocationGranularity, "hipMemGetAllocationGranularity");
  // Without a GPU, ROCm 5.2's hipInit fails (hipErrorInvalidDevice) and
  // hipGetDeviceCount gives the telling code (hipErrorNoDevice): report both.
  int InitErr = A.Init(0);
  int Count = 0;
  int CountErr = A.GetDeviceCount(&Count);
  if (CountErr != hipSuccess || Count <= 0) {
    Reason = "no AMD GPU found by HIP (" + B->LibraryPath + "): ";
    Reason += CountErr != hipSuccess
                  ? "hipGetDeviceCount: " + B->errorText(CountErr)
                  : "hipGetDeviceCount reports 0 devices";
    if (InitErr != hipSuccess)
      Reason += ", hipInit: " + B->errorText(InitErr);
    return nullptr;
  }
  if (InitErr != hipSuccess) {
    Reason = "HIP failed to initialise (" + B->LibraryPath +
             "): hipInit: " + B->errorText(InitErr);
    return nullptr;
  }
  B->Devices = Count;
  if (int E = A.SetDevice(0)) {
    Reason = "hipSetDevice(0): " + B->errorText(E);
    return nullptr;
  }

  std::vector<char> Props(DevicePropBytes, 0);
  if (A.GetDeviceProperties(Props.data(), 0) == hipSuccess)
    B->Arch = findArchName(Props.data(), Props.size());
  if (const char *E = std::getenv("CUHIP_HIP_ARCH"); E && *E)
    B->Arch = E;
  B->readDeviceInfo();
  return B;
}

namespace {
// hipDeviceAttribute_t values (the CUDA-compatible block of the enum, whose
// numbering is the same in ROCm 5.x and 6.x: later releases only append).
enum : int {
  hipDeviceAttributeAccessPolicyMaxWindowSize = 1,
  hipDeviceAttributeAsyncEngineCount = 2,
  hipDeviceAttributeClockRate = 5,
  hipDeviceAttributeConcurrentKernels = 8,
  hipDeviceAttributeCooperativeLaunch = 10,
  hipDeviceAttributeConcurrentManagedAccess = 9,
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeManagedMemory = 24,
  hipDeviceAttributeMaxBlocksPerMultiProcessor = 25,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMaxThreadsPerMultiProcessor = 57,
  hipDeviceAttributeMemoryBusWidth = 59,
  hipDeviceAttributeMemoryClockRate = 60,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributePageableMemoryAccess = 65,
  hipDeviceAttributePersistingL2CacheMaxSize = 70,
  hipDeviceAttributeMaxRegistersPerBlock = 71,
  hipDeviceAttributeTotalConstantMemory = 83,
  hipDeviceAttributeMemoryPoolsSupported = 88,
};
} // namespace

/// Fills Info: the name and memory from HIP's stable calls, the counts and
/// rates HIP reports through hipDeviceGetAttribute, and what CUDA code must
/// see whatever the hardware says: a 32-lane warp (half a wavefront on
/// CDNA) and the shared-memory limit of the target table.
void HipBackend::readDeviceInfo() {
  Api &A = *Hip;
  DeviceInfo &D = Info;
  int Dev = 0;
  char Name[256] = {0};
  if (A.DeviceGet(&Dev, 0) == hipSuccess &&
      A.DeviceGetName(Name, sizeof(Name) - 1, Dev) == hipSuccess && *Name)
    D.Name = Name;
  else
    D.Name = "AMD GPU";
  if (!Arch.empty())
    D.Name += " (" + Arch + ")";
  size_t Mem = 0;
  if (A.DeviceTotalMem(&Mem, Dev) == hipSuccess)
    D.TotalGlobalMem = Mem;
  auto attribute = [&](int Attr, auto &Field) {
    int V = 0;
    if (A.DeviceGetAttribute(&V, Attr, Dev) == hipSuccess && V > 0)
      Field = static_cast<std::remove_reference_t<decltype(Field)>>(V);
  };
  attribute(hipDeviceAttributeMultiprocessorCount, D.MultiProcessorCount);
  attribute(hipDeviceAttributeClockRate, D.ClockRateKHz);
  attribute(hipDeviceAttributeL2CacheSize, D.L2CacheSize);
  attribute(hipDeviceAttributeMaxThreadsPerMultiProcessor,
            D.MaxThreadsPerMultiProcessor);
  attribute(hipDeviceAttributeMaxBlocksPerMultiProcessor,
            D.MaxBlocksPerMultiProcessor);
  attribute(hipDeviceAttributeMaxRegistersPerBlock, D.RegsPerBlock);
  attribute(hipDeviceAttributeTotalConstantMemory, D.TotalConstMem);
  attribute(hipDeviceAttributeMemoryClockRate, D.MemoryClockRateKHz);
  attribute(hipDeviceAttributeMemoryBusWidth, D.MemoryBusWidth);
  D.Integrated = false;
  D.AsyncEngineCount = 0;
  attribute(hipDeviceAttributeAsyncEngineCount, D.AsyncEngineCount);
  int Concurrent = 0;
  attribute(hipDeviceAttributeConcurrentKernels, Concurrent);
  D.ConcurrentKernels = Concurrent != 0;
  int Coop = 0;
  attribute(hipDeviceAttributeCooperativeLaunch, Coop);
  D.CooperativeLaunch = Coop && Hip->ModuleLaunchCooperativeKernel;
  // What the GPU reaches of host memory, and pools, as HIP reports them
  // (an attribute HIP does not answer reads as absent).
  auto flag = [&](int Attr) {
    int V = 0;
    attribute(Attr, V);
    return V != 0;
  };
  D.ManagedMemory = flag(hipDeviceAttributeManagedMemory);
  D.ConcurrentManagedAccess = flag(hipDeviceAttributeConcurrentManagedAccess);
  D.PageableMemoryAccess = flag(hipDeviceAttributePageableMemoryAccess);
  D.MemoryPools = flag(hipDeviceAttributeMemoryPoolsSupported) &&
                  Hip->MallocAsync && Hip->MemPoolCreate;
  // Texture and surface objects are the CPU backend's sampler.
  D.TextureObjects = false;
  D.MaxPersistingL2CacheSize = 0;
  attribute(hipDeviceAttributePersistingL2CacheMaxSize,
            D.MaxPersistingL2CacheSize);
  D.MaxAccessPolicyWindowSize = 0;
  attribute(hipDeviceAttributeAccessPolicyMaxWindowSize,
            D.MaxAccessPolicyWindowSize);
  int Threads = 0;
  attribute(hipDeviceAttributeMaxThreadsPerBlock, Threads);
  // CUDA's limit is 1024 threads per block; AMD GPUs have the same one.
  D.MaxThreadsPerBlock = Threads > 0 ? std::min(Threads, 1024) : 1024;
  // A CUDA warp is 32 lanes on every target (a half wavefront on CDNA).
  D.WarpSize = 32;
  // Shared memory: the target's LDS per workgroup, all of it usable by one
  // block without opting in, and as much per CU (a larger CU-wide LDS, as
  // RDNA's WGPs have, still gives one block no more).
  size_t Lds = 64 * 1024;
  if (const ptx::amdgpu::Target *T = ptx::amdgpu::findTarget(Arch))
    Lds = T->LdsBytesPerWorkgroup;
  D.SharedMemPerBlock = D.SharedMemPerBlockOptin = Lds;
  D.SharedMemPerMultiprocessor = Lds;
}

HipBackend::~HipBackend() {
  // libamdhip64 stays loaded: unloading ROCm's runtime at exit is not safe.
}

bool HipBackend::isSupportedDevice() const {
  return !Arch.empty() && ptx::amdgpu::findTarget(Arch) != nullptr;
}

Status HipBackend::malloc(void **Ptr, size_t Bytes) {
  return translateError(Hip->Malloc(Ptr, Bytes));
}

Status HipBackend::free(void *Ptr) { return translateError(Hip->Free(Ptr)); }

Status HipBackend::memcpy(void *Dst, const void *Src, size_t Bytes,
                          CopyKind Kind) {
  // hipMemcpyKind has CUDA's numbering (HostToHost 0 ... Default 4).
  return translateError(Hip->Memcpy(Dst, Src, Bytes, static_cast<int>(Kind)));
}

Status HipBackend::memset(void *Ptr, int Value, size_t Bytes) {
  return translateError(Hip->Memset(Ptr, Value, Bytes));
}

// A missing optional entry point: the operation is not supported here.
#define CUHIP_HIP_OPTIONAL(Fn, ...)                                            \
  (Hip->Fn ? translateError(Hip->Fn(__VA_ARGS__)) : cudaErrorNotSupported)

Status HipBackend::hostMalloc(void **Ptr, size_t Bytes, unsigned Flags) {
  return CUHIP_HIP_OPTIONAL(HostMalloc, Ptr, Bytes, Flags);
}

Status HipBackend::hostFree(void *Ptr) {
  return CUHIP_HIP_OPTIONAL(HostFree, Ptr);
}

Status HipBackend::hostRegister(void *Ptr, size_t Bytes, unsigned Flags) {
  return CUHIP_HIP_OPTIONAL(HostRegister, Ptr, Bytes, Flags);
}

Status HipBackend::hostUnregister(void *Ptr) {
  return CUHIP_HIP_OPTIONAL(HostUnregister, Ptr);
}

Status HipBackend::hostGetDevicePointer(void **DevPtr, void *HostPtr) {
  return CUHIP_HIP_OPTIONAL(HostGetDevicePointer, DevPtr, HostPtr, 0);
}

Status HipBackend::mallocManaged(void **Ptr, size_t Bytes, unsigned Flags) {
  return CUHIP_HIP_OPTIONAL(MallocManaged, Ptr, Bytes, Flags);
}

Status HipBackend::memGetInfo(size_t *Free, size_t *Total) {
  return CUHIP_HIP_OPTIONAL(MemGetInfo, Free, Total);
}

Status HipBackend::memcpy2D(void *Dst, size_t DPitch, const void *Src,
                            size_t SPitch, size_t Width, size_t Height,
                            CopyKind Kind, void *Stream, bool Async) {
  int K = static_cast<int>(Kind);
  if (Async)
    return CUHIP_HIP_OPTIONAL(Memcpy2DAsync, Dst, DPitch, Src, SPitch, Width,
                              Height, K, Stream);
  return CUHIP_HIP_OPTIONAL(Memcpy2D, Dst, DPitch, Src, SPitch, Width, Height,
                            K);
}

Status HipBackend::memset2D(void *Ptr, size_t Pitch, int Value, size_t Width,
                            size_t Height, void *Stream, bool Async) {
  if (Async)
    return CUHIP_HIP_OPTIONAL(Memset2DAsync, Ptr, Pitch, Value, Width, Height,
                              Stream);
  return CUHIP_HIP_OPTIONAL(Memset2D, Ptr, Pitch, Value, Width, Height);
}

/// The status of a call to an entry point the library may lack: a missing
/// one is logged once, by name, and the operation is not supported.
Status HipBackend::missing(const char *HipName) {
  std::lock_guard<std::mutex> G(MissingLock);
  if (MissingLogged.insert(HipName).second)
    CUHIP_ERROR("%s lacks %s: the CUDA call that needs it is not supported "
                "on the HIP backend (ROCm 6 has it; or use CUHIP_BACKEND=cpu)",
                LibraryPath.c_str(), HipName);
  return cudaErrorNotSupported;
}

// Calls an optional entry point, or reports it missing.
#define CUHIP_HIP_CALL(Fn, HipName, ...)                                       \
  (Hip->Fn ? translateError(Hip->Fn(__VA_ARGS__)) : missing(HipName))

//===----------------------------------------------------------------------===//
// Module variables, stream-ordered allocation and pools
//===----------------------------------------------------------------------===//

Status HipBackend::moduleGetGlobal(void *Module, const char *Name, void **Ptr,
                                   size_t *Bytes) {
  void *P = nullptr;
  size_t N = 0;
  Status S = CUHIP_HIP_CALL(ModuleGetGlobal, "hipModuleGetGlobal", &P, &N,
                            Module, Name);
  if (S == cudaSuccess) {
    *Ptr = P;
    *Bytes = N;
  }
  return S;
}

Status HipBackend::mallocAsync(void **Ptr, size_t Bytes, void *Pool,
                               void *Stream) {
  if (!Pool)
    return CUHIP_HIP_CALL(MallocAsync, "hipMallocAsync", Ptr, Bytes, Stream);
  return CUHIP_HIP_CALL(MallocFromPoolAsync, "hipMallocFromPoolAsync", Ptr,
                        Bytes, Pool, Stream);
}

Status HipBackend::freeAsync(void *Ptr, void *Stream) {
  return CUHIP_HIP_CALL(FreeAsync, "hipFreeAsync", Ptr, Stream);
}

Status HipBackend::deviceGetDefaultMemPool(void **Pool, int Device) {
  return CUHIP_HIP_CALL(DeviceGetDefaultMemPool, "hipDeviceGetDefaultMemPool",
                        Pool, Device);
}

Status HipBackend::deviceGetMemPool(void **Pool, int Device) {
  return CUHIP_HIP_CALL(DeviceGetMemPool, "hipDeviceGetMemPool", Pool, Device);
}

Status HipBackend::deviceSetMemPool(int Device, void *Pool) {
  return CUHIP_HIP_CALL(DeviceSetMemPool, "hipDeviceSetMemPool", Device, Pool);
}

Status HipBackend::memPoolCreate(void **Pool, const MemPoolProps &Props) {
  HipMemPoolProps P{};
  P.AllocType = Props.AllocType;
  P.HandleTypes = Props.HandleTypes;
  P.Location = {Props.LocationType, Props.LocationId};
  P.MaxSize = Props.MaxSize;
  return CUHIP_HIP_CALL(MemPoolCreate, "hipMemPoolCreate", Pool, &P);
}

Status HipBackend::memPoolDestroy(void *Pool) {
  return CUHIP_HIP_CALL(MemPoolDestroy, "hipMemPoolDestroy", Pool);
}

// hipMemPoolAttr numbers the attributes as cudaMemPoolAttr does (HIP's API
// reference, enum hipMemPoolAttr: hipMemPoolReuseFollowEventDependencies
// 0x1 ... hipMemPoolAttrUsedMemHigh 0x8), with the same value types (int
// for the reuse flags, uint64_t for the rest), so both pass through.
Status HipBackend::memPoolSetAttribute(void *Pool, int Attr,
                                       const void *Value) {
  return CUHIP_HIP_CALL(MemPoolSetAttribute, "hipMemPoolSetAttribute", Pool,
                        Attr, const_cast<void *>(Value));
}

Status HipBackend::memPoolGetAttribute(void *Pool, int Attr, void *Value) {
  return CUHIP_HIP_CALL(MemPoolGetAttribute, "hipMemPoolGetAttribute", Pool,
                        Attr, Value);
}

Status HipBackend::memPoolTrimTo(void *Pool, size_t MinBytesToKeep) {
  return CUHIP_HIP_CALL(MemPoolTrimTo, "hipMemPoolTrimTo", Pool,
                        MinBytesToKeep);
}

//===----------------------------------------------------------------------===//
// Virtual memory management
//===----------------------------------------------------------------------===//

/// Pinned device memory of Device, the only kind cuMemCreate takes here.
static HipMemAllocationProp devicePinned(int Device) {
  HipMemAllocationProp P{};
  P.Type = 1;
  P.Location = {1, Device};
  return P;
}

Status HipBackend::memCreate(uint64_t *Handle, size_t Bytes, int Device,
                             unsigned long long Flags) {
  HipMemAllocationProp P = devicePinned(Device);
  return CUHIP_HIP_CALL(MemCreate, "hipMemCreate", Handle, Bytes, &P, Flags);
}

Status HipBackend::memRelease(uint64_t Handle) {
  return CUHIP_HIP_CALL(MemRelease, "hipMemRelease", Handle);
}

Status HipBackend::memAddressReserve(void **Ptr, size_t Bytes, size_t Alignment,
                                     void *Addr, unsigned long long Flags) {
  return CUHIP_HIP_CALL(MemAddressReserve, "hipMemAddressReserve", Ptr, Bytes,
                        Alignment, Addr, Flags);
}

Status HipBackend::memAddressFree(void *Ptr, size_t Bytes) {
  return CUHIP_HIP_CALL(MemAddressFree, "hipMemAddressFree", Ptr, Bytes);
}

Status HipBackend::memMap(void *Ptr, size_t Bytes, size_t Offset,
                          uint64_t Handle, unsigned long long Flags) {
  return CUHIP_HIP_CALL(MemMap, "hipMemMap", Ptr, Bytes, Offset, Handle, Flags);
}

Status HipBackend::memUnmap(void *Ptr, size_t Bytes) {
  return CUHIP_HIP_CALL(MemUnmap, "hipMemUnmap", Ptr, Bytes);
}

Status HipBackend::memSetAccess(void *Ptr, size_t Bytes,
                                const VirtualAccess *Desc, size_t Count) {
  std::vector<HipMemAccessDesc> D(Count);
  for (size_t I = 0; I < Count; ++I)
    D[I] = {{Desc[I].LocationType, Desc[I].LocationId}, Desc[I].Flags};
  return CUHIP_HIP_CALL(MemSetAccess, "hipMemSetAccess", Ptr, Bytes, D.data(),
                        Count);
}

Status HipBackend::memGetAllocationGranularity(size_t *Granularity, int Device,
                                               bool Recommended) {
  // hipMemAllocationGranularityMinimum 0, ...Recommended 1, as CUDA's.
  HipMemAllocationProp P = devicePinned(Device);
  return CUHIP_HIP_CALL(MemGetAllocationGranularity,
                        "hipMemGetAllocationGranularity", Granularity, &P,
                        Recommended ? 1 : 0);
}

#undef CUHIP_HIP_CALL
#undef CUHIP_HIP_OPTIONAL

Status HipBackend::synchronize() {
  return translateError(Hip->DeviceSynchronize());
}

Status HipBackend::memcpyAsync(void *Dst, const void *Src, size_t Bytes,
                               CopyKind Kind, void *Stream) {
  return translateError(
      Hip->MemcpyAsync(Dst, Src, Bytes, static_cast<int>(Kind), Stream));
}

Status HipBackend::memsetAsync(void *Ptr, int Value, size_t Bytes,
                               void *Stream) {
  return translateError(Hip->MemsetAsync(Ptr, Value, Bytes, Stream));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

Status HipBackend::streamCreate(void **Stream, unsigned Flags, int Priority) {
  // cudaStreamNonBlocking and hipStreamNonBlocking are both 0x1.
  return translateError(Hip->StreamCreateWithPriority(Stream, Flags, Priority));
}

Status HipBackend::streamDestroy(void *Stream) {
  return translateError(Hip->StreamDestroy(Stream));
}

Status HipBackend::streamSynchronize(void *Stream) {
  return translateError(Hip->StreamSynchronize(Stream));
}

Status HipBackend::streamQuery(void *Stream) {
  return translateError(Hip->StreamQuery(Stream));
}

Status HipBackend::streamWaitEvent(void *Stream, void *Event) {
  return translateError(Hip->StreamWaitEvent(Stream, Event, 0));
}

namespace {
/// A host function queued through hipStreamAddCallback, whose callbacks
/// also receive the stream and a status; CUDA's host functions take only
/// their data. Owned by the callback, which runs exactly once.
struct HostFunc {
  void (*Fn)(void *);
  void *Data;
};
void runHostFunc(void *, int, void *P) {
  std::unique_ptr<HostFunc> H(static_cast<HostFunc *>(P));
  H->Fn(H->Data);
}
} // namespace

Status HipBackend::streamAddHostFunc(void *Stream, void (*Fn)(void *),
                                     void *Data) {
  auto *H = new HostFunc{Fn, Data};
  int E = Hip->StreamAddCallback(Stream, runHostFunc, H, 0);
  if (E != hipSuccess)
    delete H;
  return translateError(E);
}

Status HipBackend::streamPriorityRange(int *Least, int *Greatest) {
  return translateError(Hip->DeviceGetStreamPriorityRange(Least, Greatest));
}

Status HipBackend::eventCreate(void **Event, unsigned Flags) {
  // cudaEventBlockingSync 0x1, DisableTiming 0x2 and Interprocess 0x4 have
  // the same values in HIP.
  return translateError(Hip->EventCreateWithFlags(Event, Flags));
}

Status HipBackend::eventDestroy(void *Event) {
  return translateError(Hip->EventDestroy(Event));
}

Status HipBackend::eventRecord(void *Event, void *Stream) {
  return translateError(Hip->EventRecord(Event, Stream));
}

Status HipBackend::eventQuery(void *Event) {
  return translateError(Hip->EventQuery(Event));
}

Status HipBackend::eventSynchronize(void *Event) {
  return translateError(Hip->EventSynchronize(Event));
}

Status HipBackend::eventElapsedTime(float *Ms, void *Start, void *End) {
  return translateError(Hip->EventElapsedTime(Ms, Start, End));
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

Status HipBackend::loadModule(std::string_view Ptx, const std::string &Name,
                              const std::string &CacheDir,
                              std::vector<HipKernel> &Kernels, void **Module,
                              std::string &Message) {
  const ptx::amdgpu::Target *T = ptx::amdgpu::findTarget(Arch);
  if (!T) {
    Message = Name + ": cuhip cannot compile for " +
              (Arch.empty() ? std::string("this AMD GPU") : Arch);
    return cudaErrorNoKernelImageForDevice;
  }
  auto CO = ptx::amdgpu::compilePtx(
      Ptx, Name, *T, CacheDir, [](bool Warning, const std::string &Msg) {
        if (Warning)
          CUHIP_WARN("%s", Msg.c_str());
        else
          CUHIP_DEBUG("%s", Msg.c_str());
      });
  if (!CO) {
    Message = llvm::toString(CO.takeError());
    return cudaErrorInvalidPtx;
  }
  if (CO->FromCache)
    CUHIP_INFO("%s: code object for %s loaded from the compile cache",
               Name.c_str(), Arch.c_str());
  void *Mod = nullptr;
  if (int E = Hip->ModuleLoadData(&Mod, CO->Bytes.data())) {
    Message = Name + ": hipModuleLoadData: " + errorText(E);
    return translateError(E);
  }
  for (ptx::KernelInfo &KI : CO->Kernels) {
    HipKernel K;
    if (int E = Hip->ModuleGetFunction(&K.Function, Mod, KI.Name.c_str())) {
      Message = Name + ": hipModuleGetFunction(" + KI.Name +
                "): " + errorText(E);
      return translateError(E);
    }
    K.Info = std::move(KI);
    Kernels.push_back(std::move(K));
  }
  *Module = Mod;
  return cudaSuccess;
}

Status HipBackend::launch(const HipKernel &K, Dim3 Grid, Dim3 Block,
                          const void *Params, size_t ParamBytes,
                          size_t DynamicShared, void *Stream, bool Cooperative,
                          std::string &Message) {
  // A kernel that reads %dynamic_smem_size takes the dynamic shared size as
  // a u32 kernel argument after the PTX parameters (AmdgpuTarget.h).
  std::vector<char> WithSize;
  if (K.Info.DynamicSharedSizeArgOffset >= 0) {
    size_t Off = size_t(K.Info.DynamicSharedSizeArgOffset);
    WithSize.assign(Off + 4, 0);
    std::memcpy(WithSize.data(), Params, std::min(ParamBytes, Off));
    uint32_t Size = uint32_t(DynamicShared);
    std::memcpy(WithSize.data() + Off, &Size, 4);
    Params = WithSize.data();
    ParamBytes = WithSize.size();
  }
  int E;
  if (Cooperative) {
    if (!Hip->ModuleLaunchCooperativeKernel) {
      Message = "cooperative launch of '" + K.Info.Name + "': " + LibraryPath +
                " has no hipModuleLaunchCooperativeKernel (ROCm 6 or later "
                "is needed)";
      return cudaErrorNotSupported;
    }
    // This entry point takes one pointer per argument, not a buffer: point
    // into the packed buffer at each PTX parameter's offset.
    std::vector<void *> Args;
    for (const ptx::KernelParamInfo &P : K.Info.Params)
      Args.push_back(const_cast<char *>(static_cast<const char *>(Params)) +
                     P.Offset);
    if (K.Info.DynamicSharedSizeArgOffset >= 0)
      Args.push_back(const_cast<char *>(static_cast<const char *>(Params)) +
                     K.Info.DynamicSharedSizeArgOffset);
    E = Hip->ModuleLaunchCooperativeKernel(
        K.Function, Grid.X, Grid.Y, Grid.Z, Block.X, Block.Y, Block.Z,
        unsigned(DynamicShared), Stream, Args.empty() ? nullptr : Args.data());
  } else {
    // The kernarg segment is byte for byte the PTX parameter buffer (see
    // docs/amdgpu.md), so the packed buffer is passed as it is; HIP copies
    // it before the call returns.
    size_t Size = ParamBytes;
    void *Extra[] = {LaunchParamBufferPointer, const_cast<void *>(Params),
                     LaunchParamBufferSize, &Size, LaunchParamEnd};
    E = Hip->ModuleLaunchKernel(K.Function, Grid.X, Grid.Y, Grid.Z, Block.X,
                                Block.Y, Block.Z, unsigned(DynamicShared),
                                Stream, nullptr, Extra);
  }
  if (E != hipSuccess) {
    Message = "launch of '" + K.Info.Name + "' on " + Arch + ": " +
              errorText(E);
    return translateError(E);
  }
  return cudaSuccess;
}

} // namespace cuhip::rt
