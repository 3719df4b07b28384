//===- DriverExport.h - Shared bits of the libcuda drop-in ----------------===//
//
// The exported driver functions check their arguments, translate types and
// error codes, and make one call into the runtime core. What they share is
// here: the initialisation and current-context checks every call makes,
// the mapping from the core's cudaError_t numbers to CUresult, and the
// once-per-name log line of an unimplemented entry point.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CudaDriverTypes.h"

#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Runtime.h"

#include <cstdint>

#define CUHIP_EXPORT extern "C" __attribute__((visibility("default")))

namespace cuhip::cuda {

inline rt::Runtime &runtime() { return rt::Runtime::get(); }

/// The core's cudaError_t as a CUresult. CUDA numbered the two so that the
/// errors both APIs have share their values; the runtime-only codes the core
/// returns are mapped to the driver's nearest code.
CUresult toCU(rt::Status S);

/// Has cuInit(0) succeeded in this process?
bool isInitialized();

/// CUDA_ERROR_NOT_INITIALIZED before cuInit, else the device's status.
CUresult checkInit();

/// checkInit, then CUDA_ERROR_INVALID_CONTEXT unless the calling thread has
/// a live current context. Calls that work on "the current context" (memory,
/// modules, launches, streams, events) start with this.
CUresult checkContext();

/// The calling thread's current context if it is live, else null.
CUcontext currentContext();

/// Is Dev a device ordinal of this process?
bool isDevice(CUdevice Dev);

/// The device of Ctx, or of the current context when Ctx is null;
/// CUDA_ERROR_INVALID_CONTEXT if that is not a live context.
CUresult contextDevice(CUcontext Ctx, CUdevice *Dev);

/// Streams belong to the context current when they were created
/// (cuStreamGetCtx). cuStreamCreate and cuStreamDestroy note them; the
/// default streams belong to the calling thread's current context, and a
/// stream libcudart created to the primary context. Stream is a core stream
/// handle (coreStream / perThreadStream). streamContext answers
/// CUDA_ERROR_INVALID_HANDLE for what is no stream, and
/// CUDA_ERROR_INVALID_CONTEXT for a stream whose context is gone or a
/// default stream on a thread without a current context.
void noteStreamCreated(void *Stream);
void noteStreamDestroyed(void *Stream);
CUresult streamContext(void *Stream, CUcontext *Ctx);

/// Can the device read and write [P, P+Bytes): device memory of the core,
/// or host memory cuMemHostAlloc gave out or cuMemHostRegister registered?
bool isDeviceAccessible(CUdeviceptr P, size_t Bytes);

/// A stream handle as the core takes it; the `_ptsz`/`_ptds` entry points
/// mean the per-thread default stream by 0 (CU_STREAM_PER_THREAD is 0x2,
/// as cudaStreamPerThread).
inline void *coreStream(CUstream S) { return S; }
inline void *perThreadStream(CUstream S) {
  return S ? static_cast<void *>(S) : reinterpret_cast<void *>(uintptr_t(2));
}

inline void *ptr(CUdeviceptr P) { return reinterpret_cast<void *>(uintptr_t(P)); }
inline CUdeviceptr devptr(const void *P) { return CUdeviceptr(uintptr_t(P)); }

/// cuGetProcAddress_v2's lookup: CUDA_ERROR_INVALID_VALUE for bad
/// arguments, else CUDA_SUCCESS with *Fn null or not and *Status one of
/// CU_GET_PROC_ADDRESS_SUCCESS / _SYMBOL_NOT_FOUND / _VERSION_NOT_SUFFICIENT.
CUresult getProcAddress(const char *Symbol, void **Fn, int Version,
                        cuuint64_t Flags, int *Status);

/// Logs, once per name, that an entry point is not implemented, and returns
/// CUDA_ERROR_NOT_SUPPORTED.
CUresult notSupported(const char *Name);

} // namespace cuhip::cuda
