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

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

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
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
};

// hipModuleLaunchKernel's `extra` markers (the same values as CUDA's).
void *const LaunchParamBufferPointer = reinterpret_cast<void *>(0x01);
void *const LaunchParamBufferSize = reinterpret_cast<void *>(0x02);
void *const LaunchParamEnd = reinterpret_cast<void *>(0x03);

// Larger than hipDeviceProp_t in any ROCm release (about 1.5 KiB in 6.x).
constexpr size_t DevicePropBytes = 16 * 1024;
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
  int (*ModuleLoadData)(void **, const void *);
  int (*ModuleGetFunction)(void **, void *, const char *);
  int (*ModuleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                            unsigned, unsigned, unsigned, void *, void **,
                            void **);
  int (*Malloc)(void **, size_t);
  int (*Free)(void *);
  int (*Memcpy)(void *, const void *, size_t, int);
  int (*Memset)(void *, int, size_t);
  int (*DeviceSynchronize)();
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
  if (!Missing.empty()) {
    Reason = B->LibraryPath + " lacks " + Missing;
    return nullptr;
  }
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
  DeviceInfo &D = B->Info;
  int Dev = 0;
  char Name[256] = {0};
  if (A.DeviceGet(&Dev, 0) == hipSuccess &&
      A.DeviceGetName(Name, sizeof(Name) - 1, Dev) == hipSuccess && *Name)
    D.Name = Name;
  else
    D.Name = "AMD GPU";
  if (!B->Arch.empty())
    D.Name += " (" + B->Arch + ")";
  size_t Mem = 0;
  if (A.DeviceTotalMem(&Mem, Dev) == hipSuccess)
    D.TotalGlobalMem = Mem;
  // A CUDA warp is 32 lanes on every target (a half wavefront on CDNA).
  D.WarpSize = 32;
  // AMD GPUs have 64 KiB of LDS per workgroup on every supported target.
  D.SharedMemPerBlock = D.SharedMemPerBlockOptin = 64 * 1024;
  D.SharedMemPerMultiprocessor = 64 * 1024;
  return B;
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

Status HipBackend::synchronize() {
  return translateError(Hip->DeviceSynchronize());
}

Status HipBackend::loadModule(std::unique_ptr<llvm::LLVMContext> Ctx,
                              ptx::LoweredModule Lowered,
                              const std::string &Name,
                              std::vector<HipKernel> &Kernels,
                              std::string &Message) {
  const ptx::amdgpu::Target *T = ptx::amdgpu::findTarget(Arch);
  if (!T) {
    Message = Name + ": cuhip cannot compile for " +
              (Arch.empty() ? std::string("this AMD GPU") : Arch);
    return cudaErrorNoKernelImageForDevice;
  }
  auto TM = ptx::amdgpu::createTargetMachine(*T);
  if (!TM) {
    Message = Name + ": " + llvm::toString(TM.takeError());
    return cudaErrorJitCompilerNotFound;
  }
  llvm::SmallVector<char, 0> Object, CodeObject;
  if (llvm::Error E = ptx::amdgpu::lowerToAmdgpu(*Lowered.IR, Lowered.Kernels,
                                                 *T, **TM)) {
    Message = Name + ": --arch " + Arch + ": " + llvm::toString(std::move(E));
    return cudaErrorInvalidPtx;
  }
  if (llvm::Error E = ptx::amdgpu::emitObject(*Lowered.IR, **TM, Object)) {
    Message = Name + ": " + llvm::toString(std::move(E));
    return cudaErrorInvalidPtx;
  }
  if (llvm::Error E = ptx::amdgpu::linkCodeObject(Object, CodeObject)) {
    Message = Name + ": " + llvm::toString(std::move(E));
    return cudaErrorJitCompilerNotFound;
  }
  void *Mod = nullptr;
  if (int E = Hip->ModuleLoadData(&Mod, CodeObject.data())) {
    Message = Name + ": hipModuleLoadData: " + errorText(E);
    return translateError(E);
  }
  for (ptx::KernelInfo &KI : Lowered.Kernels) {
    HipKernel K;
    if (int E = Hip->ModuleGetFunction(&K.Function, Mod, KI.Name.c_str())) {
      Message = Name + ": hipModuleGetFunction(" + KI.Name +
                "): " + errorText(E);
      return translateError(E);
    }
    K.Info = std::move(KI);
    Kernels.push_back(std::move(K));
  }
  return cudaSuccess;
}

Status HipBackend::launch(const HipKernel &K, Dim3 Grid, Dim3 Block,
                          const void *Params, size_t ParamBytes,
                          size_t DynamicShared, std::string &Message) {
  // The kernarg segment is byte for byte the PTX parameter buffer (see
  // docs/amdgpu.md), so the packed buffer is passed as it is.
  size_t Size = ParamBytes;
  void *Extra[] = {LaunchParamBufferPointer, const_cast<void *>(Params),
                   LaunchParamBufferSize, &Size, LaunchParamEnd};
  int E = Hip->ModuleLaunchKernel(K.Function, Grid.X, Grid.Y, Grid.Z, Block.X,
                                  Block.Y, Block.Z, unsigned(DynamicShared),
                                  nullptr, nullptr, Extra);
  if (E == hipSuccess)
    E = Hip->DeviceSynchronize();
  if (E != hipSuccess) {
    Message = "launch of '" + K.Info.Name + "' on " + Arch + ": " +
              errorText(E);
    return translateError(E);
  }
  return cudaSuccess;
}

} // namespace cuhip::rt
