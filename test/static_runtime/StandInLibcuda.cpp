//===- StandInLibcuda.cpp - A minimal libcuda.so.1 for the export tables --===//
//
// Test stand-in, not the product: just enough of the driver API, over the
// runtime core, for NVIDIA's static CUDA runtime to start, load its fatbins
// through the export tables, allocate, copy and launch. It exists so that
// programs built with plain `nvcc` can exercise runtime/cuda/ExportTables.cpp
// before the real libcuda.so.1 drop-in is linked with it. With
// CUHIP_STANDIN_TRACE=1 it logs to stderr every name the runtime resolves
// through cuGetProcAddress and every table it asks for — the instrument
// docs/static-runtime.md describes. Driver functions it does not implement
// resolve to a stub that logs the name and returns CUDA_ERROR_NOT_SUPPORTED.
//
//===----------------------------------------------------------------------===//
#include "ExportTables.h"

#include "cuhip/runtime/Runtime.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

using cuhip::rt::Runtime;

namespace {

bool tracing() {
  static bool On = [] {
    const char *E = std::getenv("CUHIP_STANDIN_TRACE");
    return E && *E && *E != '0';
  }();
  return On;
}
#define TRACE(...)                                                             \
  do {                                                                         \
    if (tracing()) {                                                           \
      std::fprintf(stderr, "[standin-libcuda] " __VA_ARGS__);                  \
      std::fputc('\n', stderr);                                                \
    }                                                                          \
  } while (0)

// The runtime core's errors are cudaError_t values; the few that differ in
// number from CUresult are translated, the rest pass (approximate, a stand-in).
int toCu(int S) {
  switch (S) {
  case 0:
    return 0;
  case 3: // cudaErrorInitializationError
    return 3;
  case 100: // cudaErrorNoDevice
    return 100;
  case 101: // cudaErrorInvalidDevice
    return 101;
  case 200: // cudaErrorInvalidKernelImage
  case 209: // cudaErrorNoKernelImageForDevice
    return 200;
  case 98: // cudaErrorInvalidDeviceFunction
    return 500;
  case 400:
    return 400;
  default:
    return S < 100 ? S : 999;
  }
}

char PrimaryContext[64]; // the one device's primary context
thread_local void *Current = nullptr;
bool PrimaryActive = false;

} // namespace

extern "C" {

int cuInit(unsigned) { return toCu(Runtime::get().deviceStatus()); }
int cuDriverGetVersion(int *V) {
  if (!V)
    return 1;
  *V = Runtime::get().driverVersion();
  return 0;
}
int cuDeviceGetCount(int *N) {
  if (!N)
    return 1;
  *N = Runtime::get().deviceCount();
  return 0;
}
int cuDeviceGet(int *D, int Ordinal) {
  if (!D)
    return 1;
  if (Ordinal < 0 || Ordinal >= Runtime::get().deviceCount())
    return 101;
  *D = Ordinal;
  return 0;
}
int cuDeviceGetName(char *Name, int Len, int Dev) {
  if (!Name || Len <= 0)
    return 1;
  std::snprintf(Name, Len, "%s", Runtime::get().deviceInfo(Dev).Name.c_str());
  return 0;
}
int cuDeviceTotalMem_v2(size_t *Bytes, int Dev) {
  if (!Bytes)
    return 1;
  *Bytes = Runtime::get().deviceInfo(Dev).TotalGlobalMem;
  return 0;
}
int cuDeviceGetUuid(CUuuid *U, int) {
  if (!U)
    return 1;
  std::memcpy(U->bytes, "cuhip-stand-in-0", 16);
  return 0;
}
int cuDeviceGetAttribute(int *V, int Attr, int Dev) {
  if (!V)
    return 1;
  const auto &I = Runtime::get().deviceInfo(Dev);
  int R = 0;
  switch (Attr) {
  case 1:
    R = I.MaxThreadsPerBlock;
    break;
  case 2:
    R = I.MaxThreadsDim[0];
    break;
  case 3:
    R = I.MaxThreadsDim[1];
    break;
  case 4:
    R = I.MaxThreadsDim[2];
    break;
  case 5:
    R = I.MaxGridSize[0];
    break;
  case 6:
    R = I.MaxGridSize[1];
    break;
  case 7:
    R = I.MaxGridSize[2];
    break;
  case 8:
    R = static_cast<int>(I.SharedMemPerBlock);
    break;
  case 9:
    R = static_cast<int>(I.TotalConstMem);
    break;
  case 10:
    R = I.WarpSize;
    break;
  case 12:
    R = I.RegsPerBlock;
    break;
  case 13:
    R = I.ClockRateKHz;
    break;
  case 16:
    R = I.MultiProcessorCount;
    break;
  case 18:
    R = I.Integrated;
    break;
  case 19:
    R = 1;
    break; // can map host memory
  case 31:
    R = I.ConcurrentKernels;
    break;
  case 39:
    R = I.MaxThreadsPerMultiProcessor;
    break;
  case 41:
    R = 1;
    break; // unified addressing
  case 75:
    R = I.Major;
    break;
  case 76:
    R = I.Minor;
    break;
  case 81:
    R = static_cast<int>(I.SharedMemPerMultiprocessor);
    break;
  case 82:
    R = I.RegsPerBlock;
    break;
  case 95:
    R = I.CooperativeLaunch;
    break;
  case 97:
    R = static_cast<int>(I.SharedMemPerBlockOptin);
    break;
  case 106:
    R = I.MaxBlocksPerMultiProcessor;
    break;
  default:
    R = 0;
    break;
  }
  *V = R;
  return 0;
}
int cuDevicePrimaryCtxRetain(void **Ctx, int Dev) {
  if (!Ctx)
    return 1;
  if (Dev != 0)
    return 101;
  PrimaryActive = true;
  *Ctx = PrimaryContext;
  return 0;
}
int cuDevicePrimaryCtxRelease_v2(int) { return 0; }
int cuDevicePrimaryCtxGetState_v2(int, unsigned *Flags, int *Active) {
  if (Flags)
    *Flags = 0;
  if (Active)
    *Active = PrimaryActive;
  return 0;
}
int cuDevicePrimaryCtxSetFlags_v2(int, unsigned) { return 0; }
// cudaDeviceReset: the runtime's per-context state goes with the context, via
// the destructor it registered in the context-local-storage table.
int cuDevicePrimaryCtxReset_v2(int Dev) {
  if (Dev != 0)
    return 101;
  cuhipExportTablesContextDestroyed(PrimaryContext);
  PrimaryActive = false;
  return toCu(Runtime::get().synchronize());
}
int cuCtxGetCurrent(void **Ctx) {
  if (!Ctx)
    return 1;
  *Ctx = Current;
  return 0;
}
int cuCtxSetCurrent(void *Ctx) {
  Current = Ctx;
  return 0;
}
int cuCtxGetDevice(int *D) {
  if (!D)
    return 1;
  *D = 0;
  return 0;
}
int cuCtxGetApiVersion(void *Ctx, unsigned *Version) {
  TRACE("cuCtxGetApiVersion(%p)", Ctx);
  if (!Version)
    return 1;
  *Version = 3020; // what NVIDIA's driver reports for every context
  return 0;
}
int cuCtxSynchronize() { return toCu(Runtime::get().synchronize()); }
int cuModuleLoadData(void **Mod, const void *Image) {
  if (!Mod || !Image)
    return 1;
  cuhip::rt::Module *M = nullptr;
  int S = Runtime::get().loadModuleData(Image, 0, "fatbin", &M);
  *Mod = M;
  return toCu(S);
}
int cuModuleUnload(void *) { return 0; }
int cuModuleGetLoadingMode(int *Mode) {
  if (!Mode)
    return 1;
  *Mode = 1; // CU_MODULE_EAGER_LOADING
  return 0;
}
// CUDA 13.0's static runtime loads each fatbin it registered with
// cuLibraryLoadData, passing the registration wrapper (magic 0x466243B1)
// itself as the image. CUlibrary and CUkernel are the core's Module and
// Kernel here, so cuLaunchKernel takes either a CUfunction or a CUkernel.
int cuLibraryLoadData(void **Lib, const void *Code, void *, void *, unsigned,
                      void *, void *, unsigned) {
  if (!Lib || !Code)
    return 1;
  uint32_t Magic = 0;
  std::memcpy(&Magic, Code, 4);
  if (Magic == 0x466243B1u)
    std::memcpy(&Code, static_cast<const char *>(Code) + 8, 8);
  TRACE("cuLibraryLoadData(%p, magic 0x%08x)", Code, Magic);
  return cuModuleLoadData(Lib, Code);
}
int cuLibraryUnload(void *) { return 0; }
int cuModuleGetFunction(void **F, void *Mod, const char *Name);
int cuLibraryGetKernel(void **K, void *Lib, const char *Name) {
  return cuModuleGetFunction(K, Lib, Name);
}
int cuhipDevicePrimaryContext(void **Ctx, int Dev) {
  if (!Ctx)
    return 1;
  if (Dev != 0)
    return 101;
  *Ctx = PrimaryContext;
  return 0;
}
int cuModuleGetFunction(void **F, void *Mod, const char *Name) {
  if (!F || !Mod || !Name)
    return 1;
  cuhip::rt::Kernel *K = nullptr;
  int S = Runtime::get().moduleGetFunction(
      static_cast<cuhip::rt::Module *>(Mod), Name, &K);
  *F = K;
  TRACE("cuModuleGetFunction(%s) -> %d", Name, S);
  return toCu(S);
}
int cuLaunchKernel(void *F, unsigned Gx, unsigned Gy, unsigned Gz, unsigned Bx,
                   unsigned By, unsigned Bz, unsigned Shared, void *Stream,
                   void **Params, void **) {
  TRACE("cuLaunchKernel(%p, grid %u,%u,%u, block %u,%u,%u)", F, Gx, Gy, Gz, Bx,
        By, Bz);
  return toCu(Runtime::get().launch(static_cast<cuhip::rt::Kernel *>(F),
                                    {Gx, Gy, Gz}, {Bx, By, Bz}, Params, Shared,
                                    Stream));
}
int cuMemAlloc_v2(unsigned long long *P, size_t N) {
  if (!P)
    return 1;
  void *Ptr = nullptr;
  int S = Runtime::get().malloc(&Ptr, N);
  *P = reinterpret_cast<unsigned long long>(Ptr);
  return toCu(S);
}
int cuMemFree_v2(unsigned long long P) {
  return toCu(Runtime::get().free(reinterpret_cast<void *>(P)));
}
int cuMemcpyHtoD_v2(unsigned long long D, const void *S, size_t N) {
  return toCu(Runtime::get().memcpy(reinterpret_cast<void *>(D), S, N,
                                    cuhip::rt::CopyKind::HostToDevice));
}
int cuMemcpyDtoH_v2(void *D, unsigned long long S, size_t N) {
  return toCu(Runtime::get().memcpy(D, reinterpret_cast<void *>(S), N,
                                    cuhip::rt::CopyKind::DeviceToHost));
}
int cuMemcpyDtoD_v2(unsigned long long D, unsigned long long S, size_t N) {
  return toCu(Runtime::get().memcpy(reinterpret_cast<void *>(D),
                                    reinterpret_cast<void *>(S), N,
                                    cuhip::rt::CopyKind::DeviceToDevice));
}
int cuMemcpy(unsigned long long D, unsigned long long S, size_t N) {
  return toCu(Runtime::get().memcpy(reinterpret_cast<void *>(D),
                                    reinterpret_cast<void *>(S), N,
                                    cuhip::rt::CopyKind::Default));
}
int cuMemsetD8_v2(unsigned long long D, unsigned char V, size_t N) {
  return toCu(Runtime::get().memset(reinterpret_cast<void *>(D), V, N));
}
int cuStreamSynchronize(void *S) {
  return toCu(Runtime::get().streamSynchronize(S));
}
int cuGetErrorString(int, const char **S) {
  if (S)
    *S = "error (cuhip stand-in libcuda)";
  return 0;
}
int cuGetErrorName(int, const char **S) {
  if (S)
    *S = "CUDA_ERROR (cuhip stand-in libcuda)";
  return 0;
}

int cuGetExportTable(const void **Table, const CUuuid *Id) {
  int R = cuhipExportTable(Table, Id);
  if (tracing() && Id) {
    const auto *B = reinterpret_cast<const unsigned char *>(Id->bytes);
    std::fprintf(stderr,
                 "[standin-libcuda] cuGetExportTable "
                 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                 "%02x%02x%02x%02x%02x%02x -> %d\n",
                 B[0], B[1], B[2], B[3], B[4], B[5], B[6], B[7], B[8], B[9],
                 B[10], B[11], B[12], B[13], B[14], B[15], R);
  }
  return R;
}

int cuGetProcAddress_v2(const char *Name, void **Fn, int Version,
                        unsigned long long Flags, int *Status);
int cuGetProcAddress(const char *Name, void **Fn, int Version,
                     unsigned long long Flags) {
  return cuGetProcAddress_v2(Name, Fn, Version, Flags, nullptr);
}

} // extern "C"

namespace {

// A stub per unimplemented name, so the log says which one was called.
constexpr int MaxStubs = 1024;
const char *StubNames[MaxStubs];
int NumStubs = 0;
std::mutex StubMutex;

int stubCalled(int I) {
  std::fprintf(stderr,
               "[standin-libcuda] %s is not implemented by the stand-in\n",
               StubNames[I]);
  return 801; // CUDA_ERROR_NOT_SUPPORTED
}
template <int I> int stub() { return stubCalled(I); }
template <size_t... I>
std::array<void *, sizeof...(I)> makeStubs(std::index_sequence<I...>) {
  return {reinterpret_cast<void *>(&stub<I>)...};
}

struct Impl {
  const char *Name;
  void *Fn;
};
#define IMPL(N)                                                                \
  { #N, reinterpret_cast < void *>(&N) }
#define IMPL_AS(N, F)                                                          \
  { #N, reinterpret_cast < void *>(&F) }
const Impl Impls[] = {
    IMPL(cuInit),
    IMPL(cuDriverGetVersion),
    IMPL(cuDeviceGetCount),
    IMPL(cuDeviceGet),
    IMPL(cuDeviceGetName),
    IMPL_AS(cuDeviceTotalMem, cuDeviceTotalMem_v2),
    IMPL(cuDeviceGetUuid),
    IMPL(cuDeviceGetAttribute),
    IMPL(cuDevicePrimaryCtxRetain),
    IMPL_AS(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2),
    IMPL_AS(cuDevicePrimaryCtxGetState, cuDevicePrimaryCtxGetState_v2),
    IMPL_AS(cuDevicePrimaryCtxSetFlags, cuDevicePrimaryCtxSetFlags_v2),
    IMPL_AS(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset_v2),
    IMPL(cuCtxGetCurrent),
    IMPL(cuCtxSetCurrent),
    IMPL(cuCtxGetDevice),
    IMPL(cuCtxGetApiVersion),
    IMPL(cuCtxSynchronize),
    IMPL(cuModuleLoadData),
    IMPL(cuModuleUnload),
    IMPL(cuModuleGetLoadingMode),
    IMPL(cuLibraryLoadData),
    IMPL(cuLibraryUnload),
    IMPL(cuLibraryGetKernel),
    IMPL(cuModuleGetFunction),
    IMPL(cuLaunchKernel),
    IMPL_AS(cuMemAlloc, cuMemAlloc_v2),
    IMPL_AS(cuMemFree, cuMemFree_v2),
    IMPL_AS(cuMemcpyHtoD, cuMemcpyHtoD_v2),
    IMPL_AS(cuMemcpyDtoH, cuMemcpyDtoH_v2),
    IMPL_AS(cuMemcpyDtoD, cuMemcpyDtoD_v2),
    IMPL(cuMemcpy),
    IMPL_AS(cuMemsetD8, cuMemsetD8_v2),
    IMPL(cuStreamSynchronize),
    IMPL(cuGetErrorString),
    IMPL(cuGetErrorName),
    IMPL(cuGetExportTable),
    IMPL(cuGetProcAddress),
};

} // namespace

extern "C" int cuGetProcAddress_v2(const char *Name, void **Fn, int Version,
                                   unsigned long long Flags, int *Status) {
  static const auto Stubs = makeStubs(std::make_index_sequence<MaxStubs>());
  if (!Name || !Fn)
    return 1;
  for (const Impl &I : Impls) {
    if (std::strcmp(I.Name, Name) == 0) {
      TRACE("cuGetProcAddress(%s, %d, %llu) -> implemented", Name, Version,
            Flags);
      *Fn = I.Fn;
      if (Status)
        *Status = 0;
      return 0;
    }
  }
  std::lock_guard<std::mutex> Lock(StubMutex);
  int K = 0;
  while (K < NumStubs && std::strcmp(StubNames[K], Name) != 0)
    ++K;
  if (K == NumStubs) {
    if (NumStubs == MaxStubs || !*Name) {
      *Fn = nullptr;
      if (Status)
        *Status = 1; // CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
      TRACE("cuGetProcAddress(\"%s\", %d, %llu) -> not found", Name, Version,
            Flags);
      return 500;
    }
    StubNames[NumStubs++] = strdup(Name);
  }
  TRACE("cuGetProcAddress(%s, %d, %llu) -> stub", Name, Version, Flags);
  *Fn = Stubs[K];
  if (Status)
    *Status = 0;
  return 0;
}
