//===- RuntimeApi.cpp - The public CUDA runtime API -----------------------===//
//
// Thin: each function checks and converts its arguments and calls the
// runtime core once. Signatures are those of cuda_runtime_api.h. Devices,
// errors and versions are in DeviceApi.cpp; memory in MemoryApi.cpp; kernel
// attributes, occupancy and cudaLaunchKernelExC in FunctionApi.cpp.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cstring>

using namespace cuhip;
using namespace cuhip::cudart;

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

CUHIP_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *Func, dim3 GridDim,
                                               dim3 BlockDim, void **Args,
                                               size_t SharedMem,
                                               cudaStream_t Stream) {
  return cudaLaunchKernel(Func, GridDim, BlockDim, Args, SharedMem,
                          perThreadStream(Stream));
}
