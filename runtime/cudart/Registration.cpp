//===- Registration.cpp - The entry points nvcc's host code calls ---------===//
//
// Start-up registration of fatbins, kernels and variables, and the launch
// sequence `<<<>>>` compiles to (push/pop of the call configuration, then
// __cudaGetKernel and __cudaLaunchKernel in CUDA 13). Each function checks
// its arguments and makes one call into the runtime core.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include "cuhip/runtime/Log.h"

using namespace cuhip;
using namespace cuhip::cudart;

CUHIP_EXPORT void **__cudaRegisterFatBinary(void *FatCubin) {
  return rt::Runtime::get().registerFatBinary(FatCubin);
}

CUHIP_EXPORT void __cudaRegisterFatBinaryEnd(void **Handle) {
  rt::Runtime::get().registerFatBinaryEnd(Handle);
}

CUHIP_EXPORT void __cudaUnregisterFatBinary(void **Handle) {
  rt::Runtime::get().unregisterFatBinary(Handle);
}

CUHIP_EXPORT void __cudaRegisterFunction(void **Handle, const char *HostFun,
                                         char *DeviceFun,
                                         const char *DeviceName,
                                         int ThreadLimit, void *Tid, void *Bid,
                                         dim3 *BlockDim, dim3 *GridDim,
                                         int *WarpSize) {
  rt::Runtime::get().registerFunction(Handle, HostFun, DeviceName);
}

CUHIP_EXPORT void __cudaRegisterVar(void **Handle, char *HostVar,
                                    char *DeviceAddress,
                                    const char *DeviceName, int Ext,
                                    size_t Size, int Constant, int Global) {
  rt::Runtime::get().registerVar(Handle, HostVar, DeviceName, Size,
                                 Constant != 0);
}

CUHIP_EXPORT void __cudaRegisterManagedVar(void **Handle, void **HostVarPtr,
                                           char *DeviceAddress,
                                           const char *DeviceName, int Ext,
                                           size_t Size, int Constant,
                                           int Global) {
  rt::Runtime::get().registerManagedVar(Handle, HostVarPtr, DeviceName, Size);
}

CUHIP_EXPORT char __cudaInitModule(void **Handle) {
  return rt::Runtime::get().initModule(Handle) == rt::cudaSuccess ? 1 : 0;
}

CUHIP_EXPORT unsigned __cudaPushCallConfiguration(dim3 GridDim, dim3 BlockDim,
                                                  size_t SharedMem,
                                                  cudaStream_t Stream) {
  return runtime().pushCallConfiguration(toDim3(GridDim), toDim3(BlockDim),
                                         SharedMem, Stream);
}

CUHIP_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *GridDim,
                                                    dim3 *BlockDim,
                                                    size_t *SharedMem,
                                                    void *Stream) {
  rt::Dim3 G, B;
  cudaError_t S = runtime().popCallConfiguration(&G, &B, SharedMem,
                                                 static_cast<void **>(Stream));
  if (S == rt::cudaSuccess) {
    if (GridDim)
      *GridDim = {G.X, G.Y, G.Z};
    if (BlockDim)
      *BlockDim = {B.X, B.Y, B.Z};
  }
  return S;
}

CUHIP_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *Kernel,
                                         const void *HostFun) {
  if (!Kernel)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::Kernel *K = runtime().kernelForHostFunction(HostFun);
  if (!K) {
    *Kernel = nullptr;
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  }
  *Kernel = reinterpret_cast<cudaKernel_t>(K);
  return rt::cudaSuccess;
}

static cudaError_t launchHandle(cudaKernel_t Kernel, dim3 Grid, dim3 Block,
                                void **Args, size_t SharedMem,
                                cudaStream_t Stream) {
  if (!Kernel || !runtime().isKernelHandle(Kernel))
    return runtime().record(rt::cudaErrorInvalidResourceHandle);
  return runtime().launch(reinterpret_cast<rt::Kernel *>(Kernel),
                          toDim3(Grid), toDim3(Block), Args, SharedMem, Stream);
}

CUHIP_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t Kernel, dim3 Grid,
                                            dim3 Block, void **Args,
                                            size_t SharedMem,
                                            cudaStream_t Stream) {
  return launchHandle(Kernel, Grid, Block, Args, SharedMem, Stream);
}

CUHIP_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t Kernel,
                                                 dim3 Grid, dim3 Block,
                                                 void **Args, size_t SharedMem,
                                                 cudaStream_t Stream) {
  return launchHandle(Kernel, Grid, Block, Args, SharedMem,
                      perThreadStream(Stream));
}
