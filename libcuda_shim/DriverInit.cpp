//===- DriverInit.cpp - cuInit, versions, devices and error strings -------===//
//
// The libcuda entry points that need no context: initialisation, the driver
// version, device queries (served from the runtime core's device info and
// its shared attribute table) and the error names and strings of every
// CUresult.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {
std::atomic<bool> Initialized{false};
} // namespace

namespace cuhip::cuda {

bool isInitialized() { return Initialized.load(std::memory_order_acquire); }

CUresult checkInit() {
  if (isInitialized())
    return CUDA_SUCCESS;
  // The runtime API initialises the driver on its first call, so a program
  // that used it may call the driver API without cuInit.
  if (rt::Runtime::runtimeApiUsed() && runtime().deviceCount() > 0) {
    Initialized.store(true, std::memory_order_release);
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_NOT_INITIALIZED;
}

bool isDevice(CUdevice Dev) { return Dev >= 0 && Dev < runtime().deviceCount(); }

CUresult toCU(rt::Status S) {
  switch (S) {
  case rt::cudaSuccess:
    return CUDA_SUCCESS;
  case rt::cudaErrorInvalidConfiguration:
  case rt::cudaErrorInvalidMemcpyDirection:
  case rt::cudaErrorInvalidDevicePointer:
  case rt::cudaErrorInvalidHostPointer:
  case rt::cudaErrorInvalidPitchValue:
  case rt::cudaErrorInvalidSymbol:
    return CUDA_ERROR_INVALID_VALUE;
  case rt::cudaErrorInvalidDeviceFunction:
    return CUDA_ERROR_INVALID_HANDLE;
  case rt::cudaErrorMissingConfiguration:
    return CUDA_ERROR_INVALID_VALUE;
  case rt::cudaErrorSymbolNotFound:
    return CUDA_ERROR_NOT_FOUND;
  default:
    break;
  }
  // Every other code the core returns has the same number in both APIs.
  switch (int(S)) {
#define CUHIP_CU_ERROR(Name, Value)                                            \
  case Value:                                                                  \
    return Name;
#include "CudaDriverErrors.def"
#undef CUHIP_CU_ERROR
  }
  return CUDA_ERROR_UNKNOWN;
}

CUresult notSupported(const char *Name) {
  static std::mutex Lock;
  static std::set<std::string> Logged;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!Logged.insert(Name).second)
      return CUDA_ERROR_NOT_SUPPORTED;
  }
  CUHIP_WARN("%s: not implemented by cuhip's libcuda; returning "
             "CUDA_ERROR_NOT_SUPPORTED",
             Name);
  return CUDA_ERROR_NOT_SUPPORTED;
}

} // namespace cuhip::cuda

//===----------------------------------------------------------------------===//
// Initialisation and versions
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuInit(unsigned int Flags) {
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  // Only a missing device fails initialisation; a context's sticky error
  // is reported by the calls that use the context.
  if (runtime().deviceCount() == 0)
    return toCU(runtime().deviceStatus());
  Initialized.store(true, std::memory_order_release);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDriverGetVersion(int *Version) {
  if (!Version)
    return CUDA_ERROR_INVALID_VALUE;
  *Version = runtime().driverVersion();
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuDeviceGet(CUdevice *Device, int Ordinal) {
  if (CUresult R = checkInit())
    return R;
  if (!Device)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Ordinal))
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = Ordinal;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDeviceGetCount(int *Count) {
  if (CUresult R = checkInit())
    return R;
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  *Count = runtime().deviceCount();
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDeviceGetName(char *Name, int Len, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Name || Len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  const std::string &N = runtime().deviceInfo(Dev).Name;
  size_t Copy = std::min(N.size(), size_t(Len) - 1);
  std::memcpy(Name, N.data(), Copy);
  Name[Copy] = 0;
  return CUDA_SUCCESS;
}

static CUresult deviceUuid(CUuuid *Uuid, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Uuid)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  // The same recognisable UUID cudaGetDeviceProperties reports.
  std::memcpy(Uuid->bytes, "cuhip-cpu-device", 16);
  Uuid->bytes[15] = char('0' + Dev);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDeviceGetUuid(CUuuid *Uuid, CUdevice Dev) {
  return deviceUuid(Uuid, Dev);
}

CUHIP_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *Uuid, CUdevice Dev) {
  return deviceUuid(Uuid, Dev);
}

CUHIP_EXPORT CUresult cuDeviceTotalMem_v2(size_t *Bytes, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  *Bytes = runtime().deviceInfo(Dev).TotalGlobalMem;
  return CUDA_SUCCESS;
}

/// CUDA 2's cuDeviceTotalMem, with a 32-bit size.
CUHIP_EXPORT CUresult cuDeviceTotalMem(unsigned int *Bytes, CUdevice Dev) {
  size_t B = 0;
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  CUresult R = cuDeviceTotalMem_v2(&B, Dev);
  if (R == CUDA_SUCCESS)
    *Bytes = unsigned(std::min<size_t>(B, 0xffffffffu));
  return R;
}

CUHIP_EXPORT CUresult cuDeviceGetAttribute(int *Value, CUdevice_attribute Attr,
                                           CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  return toCU(runtime().deviceAttribute(Attr, Dev, Value));
}

CUHIP_EXPORT CUresult cuDeviceComputeCapability(int *Major, int *Minor,
                                                CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Major || !Minor)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  *Major = runtime().deviceInfo(Dev).Major;
  *Minor = runtime().deviceInfo(Dev).Minor;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDeviceGetProperties(CUdevprop *Prop, CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!Prop)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  rt::Runtime &R = runtime();
  auto attr = [&](int A) {
    int V = 0;
    R.deviceAttribute(A, Dev, &V);
    return V;
  };
  // Attribute numbers from DeviceAttributes.def.
  Prop->maxThreadsPerBlock = attr(1);
  for (int I = 0; I < 3; ++I) {
    Prop->maxThreadsDim[I] = attr(2 + I);
    Prop->maxGridSize[I] = attr(5 + I);
  }
  Prop->sharedMemPerBlock = attr(8);
  Prop->totalConstantMemory = attr(9);
  Prop->SIMDWidth = attr(10);
  Prop->memPitch = attr(11);
  Prop->regsPerBlock = attr(12);
  Prop->clockRate = attr(13);
  Prop->textureAlign = attr(14);
  return CUDA_SUCCESS;
}

/// cuDeviceGetDefaultMemPool and cuDeviceGetMemPool: Get is the runtime
/// core's call of the same name.
static CUresult devicePool(CUmemoryPool *Pool, CUdevice Dev,
                           rt::Status (rt::Runtime::*Get)(void **, int)) {
  if (CUresult R = checkInit())
    return R;
  if (!Pool)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  void *P = nullptr;
  CUresult R = toCU((runtime().*Get)(&P, int(Dev)));
  *Pool = static_cast<CUmemoryPool>(P);
  return R;
}

CUHIP_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *Pool,
                                                CUdevice Dev) {
  return devicePool(Pool, Dev, &rt::Runtime::deviceGetDefaultMemPool);
}

CUHIP_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *Pool, CUdevice Dev) {
  return devicePool(Pool, Dev, &rt::Runtime::deviceGetMemPool);
}

CUHIP_EXPORT CUresult cuDeviceSetMemPool(CUdevice Dev, CUmemoryPool Pool) {
  if (CUresult R = checkInit())
    return R;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  return toCU(runtime().deviceSetMemPool(int(Dev), Pool));
}

//===----------------------------------------------------------------------===//
// PCI identity and peers
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuDeviceGetPCIBusId(char *PciBusId, int Len,
                                          CUdevice Dev) {
  if (CUresult R = checkInit())
    return R;
  if (!PciBusId || Len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev))
    return CUDA_ERROR_INVALID_DEVICE;
  runtime().pciBusId(Dev, PciBusId, Len);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDeviceGetByPCIBusId(CUdevice *Dev,
                                            const char *PciBusId) {
  if (CUresult R = checkInit())
    return R;
  if (!Dev || !PciBusId)
    return CUDA_ERROR_INVALID_VALUE;
  int D = 0;
  if (rt::Status S = runtime().deviceByPciBusId(PciBusId, &D))
    return S == rt::cudaErrorInvalidDevice ? CUDA_ERROR_INVALID_DEVICE
                                           : CUDA_ERROR_INVALID_VALUE;
  *Dev = D;
  return CUDA_SUCCESS;
}

// One device, which is not its own peer: no two devices can access each
// other, and there is no link to describe.
CUHIP_EXPORT CUresult cuDeviceCanAccessPeer(int *CanAccess, CUdevice Dev,
                                            CUdevice PeerDev) {
  if (CUresult R = checkInit())
    return R;
  if (!CanAccess)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Dev) || !isDevice(PeerDev))
    return CUDA_ERROR_INVALID_DEVICE;
  *CanAccess = 0;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuDeviceGetP2PAttribute(int *Value,
                                              CUdevice_P2PAttribute Attr,
                                              CUdevice SrcDev,
                                              CUdevice DstDev) {
  if (CUresult R = checkInit())
    return R;
  if (!Value || Attr < CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK ||
      Attr > CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED)
    return CUDA_ERROR_INVALID_VALUE;
  // A link joins two different devices, and cuhip has one: SrcDev and
  // DstDev are either no device or the same one.
  (void)SrcDev;
  (void)DstDev;
  return CUDA_ERROR_INVALID_DEVICE;
}

//===----------------------------------------------------------------------===//
// Error names and strings
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuGetErrorName(CUresult Error, const char **Str) {
  if (!Str)
    return CUDA_ERROR_INVALID_VALUE;
  switch (int(Error)) {
#define CUHIP_CU_ERROR(Name, Value)                                            \
  case Value:                                                                  \
    *Str = #Name;                                                              \
    return CUDA_SUCCESS;
#include "CudaDriverErrors.def"
#undef CUHIP_CU_ERROR
  }
  *Str = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

/// "CUDA_ERROR_INVALID_VALUE" -> "invalid value": the name read as words,
/// built once per code.
static const char *describe(const char *Name) {
  static std::mutex Lock;
  static std::set<std::string> Strings;
  std::string S = Name;
  if (S == "CUDA_SUCCESS")
    return "no error";
  if (S.rfind("CUDA_ERROR_", 0) == 0)
    S = S.substr(11);
  for (char &C : S)
    C = C == '_' ? ' ' : char(std::tolower(static_cast<unsigned char>(C)));
  std::lock_guard<std::mutex> G(Lock);
  return Strings.insert(S).first->c_str();
}

CUHIP_EXPORT CUresult cuGetErrorString(CUresult Error, const char **Str) {
  if (!Str)
    return CUDA_ERROR_INVALID_VALUE;
  const char *Name = nullptr;
  if (cuGetErrorName(Error, &Name) != CUDA_SUCCESS) {
    *Str = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *Str = describe(Name);
  return CUDA_SUCCESS;
}
