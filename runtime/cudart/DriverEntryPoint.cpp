//===- DriverEntryPoint.cpp - cudaGetDriverEntryPoint ---------------------===//
//
// The runtime hands out driver functions by asking the driver: it loads
// libcuda.so.1 (cuhip's, which `cuhip run` puts first on the library path)
// and calls its cuGetProcAddress_v2. The flag and status values of the two
// APIs are the same numbers. The plain entry point asks for the runtime's
// own CUDA version, as CUDA's does.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <dlfcn.h>
#include <mutex>

using namespace cuhip;
using namespace cuhip::cudart;

namespace {

using GetProcAddressFn = int (*)(const char *, void **, int,
                                 unsigned long long, int *);

/// cuGetProcAddress_v2 of libcuda.so.1, or null (logged once) if there is
/// no driver library to load.
GetProcAddressFn driverGetProcAddress() {
  static GetProcAddressFn Fn = [] {
    void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    GetProcAddressFn F = nullptr;
    if (Lib)
      F = reinterpret_cast<GetProcAddressFn>(dlsym(Lib, "cuGetProcAddress_v2"));
    if (!F)
      CUHIP_ERROR("cudaGetDriverEntryPoint: cannot load libcuda.so.1's "
                  "cuGetProcAddress_v2 (%s)",
                  Lib ? "symbol missing" : dlerror());
    return F;
  }();
  return Fn;
}

/// CUDART_VERSION of this library's toolkit.
constexpr unsigned RuntimeVersion = CUHIP_CUDART_MAJOR >= 13 ? 13000 : 12080;

cudaError_t entryPoint(const char *Symbol, void **Fn, unsigned Version,
                       unsigned long long Flags,
                       cudaDriverEntryPointQueryResult *Status) {
  if (!Symbol || !Fn)
    return runtime().record(rt::cudaErrorInvalidValue);
  *Fn = nullptr;
  GetProcAddressFn Get = driverGetProcAddress();
  if (!Get)
    return runtime().record(rt::cudaErrorNotSupported);
  int S = 0;
  int R = Get(Symbol, Fn, int(Version), Flags, &S);
  if (R != 0) // CUDA_ERROR_INVALID_VALUE is the only failure it reports
    return runtime().record(rt::cudaErrorInvalidValue);
  if (Status)
    *Status = cudaDriverEntryPointQueryResult(S);
  return rt::cudaSuccess;
}

/// cudaEnablePerThreadDefaultStream for the `_ptsz` forms' default.
unsigned long long perThread(unsigned long long Flags) {
  return Flags ? Flags : 2;
}

} // namespace

CUHIP_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *Symbol,
                                                 void **Fn,
                                                 unsigned long long Flags,
                        cudaDriverEntryPointQueryResult *Status) {
  return entryPoint(Symbol, Fn, RuntimeVersion, Flags, Status);
}

CUHIP_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *Symbol,
                                                      void **Fn,
                                                      unsigned long long Flags,
                             cudaDriverEntryPointQueryResult *Status) {
  return entryPoint(Symbol, Fn, RuntimeVersion, perThread(Flags), Status);
}

CUHIP_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(
    const char *Symbol, void **Fn, unsigned int CudaVersion,
    unsigned long long Flags, cudaDriverEntryPointQueryResult *Status) {
  return entryPoint(Symbol, Fn, CudaVersion, Flags, Status);
}

CUHIP_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char *Symbol, void **Fn, unsigned int CudaVersion,
    unsigned long long Flags, cudaDriverEntryPointQueryResult *Status) {
  return entryPoint(Symbol, Fn, CudaVersion, perThread(Flags), Status);
}
