//===- DeviceApi.cpp - Devices, errors and versions of the runtime API ----===//
//
// Device management (selection, flags, limits, cache preferences, reset,
// PCI identity, peers and IPC), the error state and the version queries.
// cuhip has one device, so every peer query names the device itself and
// gets CUDA's answer for that; IPC needs a second process to share device
// memory with, which neither backend offers, so those calls report
// cudaErrorNotSupported. Each function checks its arguments and calls the
// runtime core once; properties and attributes are in DeviceProperties.cpp.
//
//===----------------------------------------------------------------------===//
#include "Export.h"
#include "Unsupported.h"

#include <cstdlib>
#include <cstring>

using namespace cuhip;
using namespace cuhip::cudart;

/// cudaErrorInvalidDevice unless Device names a device.
static cudaError_t checkDevice(int Device) {
  if (Device < 0 || Device >= runtime().deviceCount())
    return runtime().record(rt::cudaErrorInvalidDevice);
  return rt::cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGetLastError(void) {
  return runtime().getLastError();
}

CUHIP_EXPORT cudaError_t cudaPeekAtLastError(void) {
  return runtime().peekLastError();
}

CUHIP_EXPORT const char *cudaGetErrorName(cudaError_t Error) {
  const char *N = rt::statusName(Error);
  return N ? N : "unrecognized error code";
}

CUHIP_EXPORT const char *cudaGetErrorString(cudaError_t Error) {
  const char *D = rt::statusDescription(Error);
  return D ? D : "unrecognized error code";
}

//===----------------------------------------------------------------------===//
// Versions
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaRuntimeGetVersion(int *Version) {
  if (!Version)
    return runtime().record(rt::cudaErrorInvalidValue);
  *Version = CUHIP_CUDART_MAJOR * 1000;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDriverGetVersion(int *Version) {
  if (!Version)
    return runtime().record(rt::cudaErrorInvalidValue);
  *Version = runtime().driverVersion();
  return rt::cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Selection and initialisation
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGetDeviceCount(int *Count) {
  if (!Count)
    return runtime().record(rt::cudaErrorInvalidValue);
  *Count = runtime().deviceCount();
  // CUDA reports a machine without devices as an error, with a count of 0.
  if (*Count == 0)
    return runtime().record(runtime().deviceStatus());
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaSetDevice(int Device) {
  return runtime().setDevice(Device);
}

CUHIP_EXPORT cudaError_t cudaGetDevice(int *Device) {
  return runtime().getDevice(Device);
}

CUHIP_EXPORT cudaError_t cudaInitDevice(int Device, unsigned DeviceFlags,
                                        unsigned Flags) {
  // cudaInitDeviceFlagsAreValid (0x1): DeviceFlags are to be applied.
  if (Flags & ~1u)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = runtime().deviceStatus())
    return runtime().record(static_cast<rt::Status>(S));
  if (cudaError_t S = checkDevice(Device))
    return S;
  if (Flags & 1u)
    return runtime().setDeviceFlags(DeviceFlags);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaSetValidDevices(int *Devices, int Len) {
  // A null list of length 0 restores the default order.
  if (Len < 0 || (!Devices && Len > 0))
    return runtime().record(rt::cudaErrorInvalidValue);
  for (int I = 0; I < Len; ++I)
    if (cudaError_t S = checkDevice(Devices[I]))
      return S;
  // With one device every valid list orders the same single device.
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaChooseDevice(int *Device,
                                          const cudaDeviceProp *Prop) {
  if (!Device || !Prop)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (runtime().deviceCount() == 0)
    return runtime().record(runtime().deviceStatus());
  // The best match among one device is that device.
  *Device = 0;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  return runtime().synchronize();
}

CUHIP_EXPORT cudaError_t cudaDeviceReset(void) {
  return runtime().deviceReset();
}

CUHIP_EXPORT cudaError_t cudaSetDeviceFlags(unsigned Flags) {
  return runtime().setDeviceFlags(Flags);
}

CUHIP_EXPORT cudaError_t cudaGetDeviceFlags(unsigned *Flags) {
  return runtime().getDeviceFlags(Flags);
}

//===----------------------------------------------------------------------===//
// Limits and cache preferences
//===----------------------------------------------------------------------===//

static bool isLimit(cudaLimit Limit) {
  return int(Limit) >= cudaLimitStackSize &&
         int(Limit) <= cudaLimitPersistingL2CacheSize;
}

CUHIP_EXPORT cudaError_t cudaDeviceGetLimit(size_t *Value, cudaLimit Limit) {
  if (!isLimit(Limit))
    return runtime().record(rt::cudaErrorUnsupportedLimit);
  return runtime().getLimit(static_cast<rt::DeviceLimit>(Limit), Value);
}

CUHIP_EXPORT cudaError_t cudaDeviceSetLimit(cudaLimit Limit, size_t Value) {
  if (!isLimit(Limit))
    return runtime().record(rt::cudaErrorUnsupportedLimit);
  return runtime().setLimit(static_cast<rt::DeviceLimit>(Limit), Value);
}

CUHIP_EXPORT cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *Config) {
  int C = 0;
  if (!Config)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = runtime().getCacheConfig(&C))
    return S;
  *Config = static_cast<cudaFuncCache>(C);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache Config) {
  return runtime().setCacheConfig(int(Config));
}

CUHIP_EXPORT cudaError_t
cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *Config) {
  int C = 0;
  if (!Config)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = runtime().getSharedMemConfig(&C))
    return S;
  *Config = static_cast<cudaSharedMemConfig>(C);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t
cudaDeviceSetSharedMemConfig(cudaSharedMemConfig Config) {
  return runtime().setSharedMemConfig(int(Config));
}

//===----------------------------------------------------------------------===//
// PCI identity
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *PciBusId, int Len,
                                               int Device) {
  if (!PciBusId || Len <= 0)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(Device))
    return S;
  runtime().pciBusId(Device, PciBusId, Len);
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int *Device,
                                                 const char *PciBusId) {
  if (!Device || !PciBusId)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (rt::Status S = runtime().deviceByPciBusId(PciBusId, Device))
    return runtime().record(S);
  return rt::cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Peers
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *CanAccess, int Device,
                                                 int PeerDevice) {
  if (!CanAccess)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(Device))
    return S;
  if (cudaError_t S = checkDevice(PeerDevice))
    return S;
  // The only possible peer is the device itself, which is not its own peer.
  *CanAccess = 0;
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int PeerDevice,
                                                    unsigned Flags) {
  if (Flags != 0)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(PeerDevice))
    return S;
  // The current device cannot be its own peer.
  return runtime().record(rt::cudaErrorInvalidDevice);
}

CUHIP_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int PeerDevice) {
  if (cudaError_t S = checkDevice(PeerDevice))
    return S;
  return runtime().record(rt::cudaErrorPeerAccessNotEnabled);
}

CUHIP_EXPORT cudaError_t cudaDeviceGetP2PAttribute(int *Value,
                                                   cudaDeviceP2PAttr Attr,
                                                   int SrcDevice,
                                                   int DstDevice) {
  if (!Value)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(SrcDevice))
    return S;
  if (cudaError_t S = checkDevice(DstDevice))
    return S;
  if (int(Attr) < cudaDevP2PAttrPerformanceRank ||
      int(Attr) > cudaDevP2PAttrOnlyPartialNativeAtomicSupported)
    return runtime().record(rt::cudaErrorInvalidValue);
  // A link needs two different devices.
  return runtime().record(rt::cudaErrorInvalidDevice);
}

CUHIP_EXPORT cudaError_t cudaDeviceGetP2PAtomicCapabilities(
    unsigned *Capabilities, const cudaAtomicOperation *Operations,
    unsigned Count, int SrcDevice, int DstDevice) {
  if (!Capabilities || !Operations || !Count)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(SrcDevice))
    return S;
  if (cudaError_t S = checkDevice(DstDevice))
    return S;
  // A link needs two different devices.
  return runtime().record(rt::cudaErrorInvalidDevice);
}

CUHIP_EXPORT cudaError_t cudaDeviceGetHostAtomicCapabilities(
    unsigned *Capabilities, const cudaAtomicOperation *Operations,
    unsigned Count, int Device) {
  if (!Capabilities || !Operations || !Count)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(Device))
    return S;
  CUHIP_RETURN_NOT_SUPPORTED("cudaDeviceGetHostAtomicCapabilities",
                             "per-operation atomic capabilities are not "
                             "reported; see cudaDevAttrHostNativeAtomicSupported");
}

//===----------------------------------------------------------------------===//
// Features the backends do not have
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t
cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTarget Target,
                                   cudaFlushGPUDirectRDMAWritesScope Scope) {
  if (Target != cudaFlushGPUDirectRDMAWritesTargetCurrentDevice ||
      (Scope != cudaFlushGPUDirectRDMAWritesToOwner &&
       Scope != cudaFlushGPUDirectRDMAWritesToAllDevices))
    return runtime().record(rt::cudaErrorInvalidValue);
  // cudaDevAttrGPUDirectRDMAFlushWritesOptions is 0, which CUDA answers
  // with cudaErrorNotSupported.
  CUHIP_RETURN_NOT_SUPPORTED("cudaDeviceFlushGPUDirectRDMAWrites",
                             "the device has no GPUDirect RDMA");
}

CUHIP_EXPORT cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(
    size_t *MaxWidth, const cudaChannelFormatDesc *Desc, int Device) {
  if (!MaxWidth || !Desc)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(Device))
    return S;
  CUHIP_RETURN_NOT_SUPPORTED("cudaDeviceGetTexture1DLinearMaxWidth",
                             "textures are not provided");
}

CUHIP_EXPORT cudaError_t cudaDeviceRegisterAsyncNotification(
    int Device, cudaAsyncCallback Callback, void *UserData,
    cudaAsyncCallbackHandle_t *Handle) {
  if (!Callback || !Handle)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (cudaError_t S = checkDevice(Device))
    return S;
  CUHIP_RETURN_NOT_SUPPORTED("cudaDeviceRegisterAsyncNotification",
                             "the device sends no asynchronous notifications");
}

CUHIP_EXPORT cudaError_t
cudaDeviceUnregisterAsyncNotification(int Device,
                                      cudaAsyncCallbackHandle_t Handle) {
  if (cudaError_t S = checkDevice(Device))
    return S;
  // No callback can have been registered.
  return runtime().record(rt::cudaErrorInvalidValue);
}

//===----------------------------------------------------------------------===//
// Interprocess sharing
//===----------------------------------------------------------------------===//

// Memory and events shared with other processes: runtime/lib/Ipc.h.

CUHIP_EXPORT cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *Handle,
                                             void *DevPtr) {
  return runtime().ipcGetMemHandle(Handle, DevPtr);
}

CUHIP_EXPORT cudaError_t cudaIpcOpenMemHandle(void **DevPtr,
                                              cudaIpcMemHandle_t Handle,
                                              unsigned Flags) {
  return runtime().ipcOpenMemHandle(DevPtr, &Handle, Flags);
}

CUHIP_EXPORT cudaError_t cudaIpcCloseMemHandle(void *DevPtr) {
  return runtime().ipcCloseMemHandle(DevPtr);
}

CUHIP_EXPORT cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *Handle,
                                               cudaEvent_t Event) {
  return runtime().ipcGetEventHandle(Handle, Event);
}

CUHIP_EXPORT cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *Event,
                                                cudaIpcEventHandle_t Handle) {
  void *E = nullptr;
  cudaError_t R = runtime().ipcOpenEventHandle(&E, &Handle);
  if (Event)
    *Event = static_cast<cudaEvent_t>(E);
  return R;
}

//===----------------------------------------------------------------------===//
// Profiler control
//===----------------------------------------------------------------------===//

// No profiling tool attaches to cuhip: starting and stopping collection
// succeed and change nothing, as in CUDA when no tool is active.
CUHIP_EXPORT cudaError_t cudaProfilerStart(void) { return rt::cudaSuccess; }

CUHIP_EXPORT cudaError_t cudaProfilerStop(void) { return rt::cudaSuccess; }
