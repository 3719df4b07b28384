//===- RuntimeApi.cpp - The public CUDA runtime API -----------------------===//
//
// Thin: each function checks and converts its arguments and calls the
// runtime core once. Signatures are those of cuda_runtime_api.h.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cstring>

using namespace cuhip;
using namespace cuhip::cudart;

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
// Devices and versions
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaGetDeviceCount(int *Count) {
  if (!Count)
    return runtime().record(rt::cudaErrorInvalidValue);
  *Count = runtime().deviceCount();
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaSetDevice(int Device) {
  return runtime().setDevice(Device);
}

CUHIP_EXPORT cudaError_t cudaGetDevice(int *Device) {
  return runtime().getDevice(Device);
}

CUHIP_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  return runtime().synchronize();
}

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

static void fillDeviceProp(cudaDeviceProp &P, const rt::DeviceInfo &D,
                           int Device) {
  std::memset(&P, 0, sizeof(P));
  std::strncpy(P.name, D.Name.c_str(), sizeof(P.name) - 1);
  // A stable, recognisable UUID: "cuhip" then the device ordinal.
  std::memcpy(P.uuid.bytes, "cuhip-cpu-device", 16);
  P.uuid.bytes[15] = char('0' + Device);
  P.totalGlobalMem = D.TotalGlobalMem;
  P.sharedMemPerBlock = D.SharedMemPerBlock;
  P.regsPerBlock = D.RegsPerBlock;
  P.warpSize = D.WarpSize;
  P.memPitch = 0x7fffffff;
  P.maxThreadsPerBlock = D.MaxThreadsPerBlock;
  std::copy(D.MaxThreadsDim, D.MaxThreadsDim + 3, P.maxThreadsDim);
  std::copy(D.MaxGridSize, D.MaxGridSize + 3, P.maxGridSize);
  P.totalConstMem = D.TotalConstMem;
  P.major = D.Major;
  P.minor = D.Minor;
  P.textureAlignment = 512;
  P.texturePitchAlignment = 32;
  P.multiProcessorCount = D.MultiProcessorCount;
  P.integrated = 1; // device memory is host memory
  P.canMapHostMemory = 1;
  P.surfaceAlignment = 512;
  P.concurrentKernels = 0;
  P.asyncEngineCount = 0;
  P.unifiedAddressing = 1;
  P.memoryBusWidth = 64;
  P.l2CacheSize = D.L2CacheSize;
  P.maxThreadsPerMultiProcessor = D.MaxThreadsPerMultiProcessor;
  P.globalL1CacheSupported = 1;
  P.localL1CacheSupported = 1;
  P.sharedMemPerMultiprocessor = D.SharedMemPerMultiprocessor;
  P.regsPerMultiprocessor = 65536;
  P.managedMemory = 0;
  P.hostNativeAtomicSupported = 1;
  P.pageableMemoryAccess = 0;
  P.concurrentManagedAccess = 0;
  P.cooperativeLaunch = 0;
  P.sharedMemPerBlockOptin = D.SharedMemPerBlockOptin;
  P.maxBlocksPerMultiProcessor = D.MaxBlocksPerMultiProcessor;
  P.hostRegisterSupported = 0;
  P.deviceNumaId = -1;
  P.hostNumaId = -1;
}

#if CUHIP_CUDART_MAJOR >= 13
CUHIP_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                                 int Device) {
  if (!Prop)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (Device < 0 || Device >= runtime().deviceCount())
    return runtime().record(rt::cudaErrorInvalidDevice);
  fillDeviceProp(*Prop, runtime().deviceInfo(Device), Device);
  return rt::cudaSuccess;
}
#endif

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaMalloc(void **DevPtr, size_t Size) {
  return runtime().malloc(DevPtr, Size);
}

CUHIP_EXPORT cudaError_t cudaFree(void *DevPtr) {
  return runtime().free(DevPtr);
}

CUHIP_EXPORT cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                                    cudaMemcpyKind Kind) {
  return runtime().memcpy(Dst, Src, Count, static_cast<rt::CopyKind>(Kind));
}

CUHIP_EXPORT cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count) {
  return runtime().memset(DevPtr, Value, Count);
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaLaunchKernel(const void *Func, dim3 GridDim,
                                          dim3 BlockDim, void **Args,
                                          size_t SharedMem,
                                          cudaStream_t Stream) {
  rt::Runtime &R = runtime();
  // CUDA 12+ accepts a cudaKernel_t cast to the function pointer too.
  rt::Kernel *K = R.isKernelHandle(Func)
                      ? reinterpret_cast<rt::Kernel *>(const_cast<void *>(Func))
                      : R.kernelForHostFunction(Func);
  if (!K)
    return R.record(rt::cudaErrorInvalidDeviceFunction);
  return R.launch(K, toDim3(GridDim), toDim3(BlockDim), Args, SharedMem,
                  Stream);
}

CUHIP_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *Func, dim3 GridDim,
                                               dim3 BlockDim, void **Args,
                                               size_t SharedMem,
                                               cudaStream_t Stream) {
  return cudaLaunchKernel(Func, GridDim, BlockDim, Args, SharedMem, Stream);
}
