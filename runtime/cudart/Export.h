//===- Export.h - Shared bits of the libcudart drop-in --------------------===//
#pragma once

#include "CudaRuntimeTypes.h"

#include <cstdint>

#include "cuhip/runtime/Runtime.h"

#define CUHIP_EXPORT extern "C" __attribute__((visibility("default")))

namespace cuhip::cudart {

/// The runtime core, for a runtime-API call (which makes this thread one
/// that uses the runtime API: see Runtime::noteRuntimeApiCall).
/// Registration, which runs before main and initialises nothing in CUDA,
/// uses rt::Runtime::get() instead.
inline rt::Runtime &runtime() {
  rt::Runtime::noteRuntimeApiCall();
  return rt::Runtime::get();
}
inline rt::Dim3 toDim3(dim3 D) { return {D.x, D.y, D.z}; }

/// The kernel a launch names: a registered host stub, or (CUDA 12+) a
/// cudaKernel_t cast to the function pointer. Null if neither.
inline rt::Kernel *kernelFor(const void *Func) {
  rt::Runtime &R = runtime();
  if (R.isKernelHandle(Func))
    return reinterpret_cast<rt::Kernel *>(const_cast<void *>(Func));
  return R.kernelForHostFunction(Func);
}

/// The stream a `_ptsz` entry point means by Stream: programs built with
/// `--default-stream per-thread` mean cudaStreamPerThread by 0.
/// cudaLaunchKernel and cudaLaunchCooperativeKernel: a host stub or kernel
/// handle to its kernel, then the launch.
inline cudaError_t launchFunction(const void *Func, dim3 GridDim,
                                  dim3 BlockDim, void **Args, size_t SharedMem,
                                  cudaStream_t Stream, bool Cooperative) {
  rt::Kernel *K = kernelFor(Func);
  if (!K)
    return runtime().record(rt::cudaErrorInvalidDeviceFunction);
  return runtime().launch(K, toDim3(GridDim), toDim3(BlockDim), Args,
                          SharedMem, Stream, Cooperative);
}

inline cudaStream_t perThreadStream(cudaStream_t Stream) {
  return Stream ? Stream : reinterpret_cast<cudaStream_t>(uintptr_t(2));
}

} // namespace cuhip::cudart

/// Exports Name, which calls Name_impl, and Name_ptsz, which does the same
/// with a null StreamArg meaning the calling thread's default stream.
#define CUHIP_STREAM_API(Name, Params, Args, StreamArg)                       \
  CUHIP_EXPORT cudaError_t Name Params { return Name##_impl Args; }           \
  CUHIP_EXPORT cudaError_t Name##_ptsz Params {                               \
    StreamArg = cuhip::cudart::perThreadStream(StreamArg);                    \
    return Name##_impl Args;                                                  \
  }
