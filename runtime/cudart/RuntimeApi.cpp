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

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaLaunchKernel(const void *Func, dim3 GridDim,
                                          dim3 BlockDim, void **Args,
                                          size_t SharedMem,
                                          cudaStream_t Stream) {
  return launchFunction(Func, GridDim, BlockDim, Args, SharedMem, Stream,
                        /*Cooperative=*/false);
}

CUHIP_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize,
    unsigned int Flags) {
  // cudaOccupancyDefault (0) and cudaOccupancyDisableCachingOverride (1).
  if (Flags > 1)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return runtime().maxActiveBlocksPerMultiprocessor(K, BlockSize,
                                                    DynamicSMemSize, NumBlocks);
}

CUHIP_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      NumBlocks, Func, BlockSize, DynamicSMemSize, 0);
}

CUHIP_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *Func, dim3 GridDim,
                                               dim3 BlockDim, void **Args,
                                               size_t SharedMem,
                                               cudaStream_t Stream) {
  return cudaLaunchKernel(Func, GridDim, BlockDim, Args, SharedMem,
                          perThreadStream(Stream));
}
