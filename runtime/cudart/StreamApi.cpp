//===- StreamApi.cpp - Streams, events and asynchronous operations --------===//
//
// The stream-ordered part of the CUDA runtime API. Each function converts
// its arguments and calls the runtime core once. The `_ptsz` entry points
// are what programs compiled with `--default-stream per-thread` call: in
// them the null stream means the calling thread's default stream
// (cudaStreamPerThread) instead of the legacy one.
//
//===----------------------------------------------------------------------===//
#include "Export.h"

#include "cuhip/runtime/Graph.h"

#include <cstdint>
#include <memory>

using namespace cuhip;
using namespace cuhip::cudart;

namespace {
/// cudaStreamAddCallback's callback, which also receives the stream and a
/// status: cudaSuccess, or the sticky error of a fault in work before it
/// (callbacks run even then, unlike cudaLaunchHostFunc's functions). Owned
/// by the host function that runs it once.
struct StreamCallback {
  cudaStreamCallback_t Fn;
  cudaStream_t Stream;
  void *Data;
};
void runStreamCallback(void *P) {
  std::unique_ptr<StreamCallback> C(static_cast<StreamCallback *>(P));
  C->Fn(C->Stream, static_cast<cudaError_t>(runtime().stickyError()),
        C->Data);
}
} // namespace

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Stream,
                                                      unsigned Flags,
                                                      int Priority) {
  return runtime().streamCreate(reinterpret_cast<void **>(Stream), Flags,
                                Priority);
}

CUHIP_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                                   unsigned Flags) {
  return cudaStreamCreateWithPriority(Stream, Flags, 0);
}

CUHIP_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *Stream) {
  return cudaStreamCreateWithPriority(Stream, 0, 0);
}

CUHIP_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  return runtime().streamDestroy(Stream);
}

CUHIP_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *Least,
                                                          int *Greatest) {
  return runtime().streamPriorityRange(Least, Greatest);
}

static cudaError_t cudaStreamSynchronize_impl(cudaStream_t Stream) {
  return runtime().streamSynchronize(Stream);
}
CUHIP_STREAM_API(cudaStreamSynchronize, (cudaStream_t Stream), (Stream),
                 Stream)

static cudaError_t cudaStreamQuery_impl(cudaStream_t Stream) {
  return runtime().streamQuery(Stream);
}
CUHIP_STREAM_API(cudaStreamQuery, (cudaStream_t Stream), (Stream), Stream)

static cudaError_t cudaStreamGetFlags_impl(cudaStream_t Stream,
                                           unsigned *Flags) {
  return runtime().streamGetFlags(Stream, Flags);
}
CUHIP_STREAM_API(cudaStreamGetFlags, (cudaStream_t Stream, unsigned *Flags),
                 (Stream, Flags), Stream)

static cudaError_t cudaStreamGetPriority_impl(cudaStream_t Stream,
                                              int *Priority) {
  return runtime().streamGetPriority(Stream, Priority);
}
CUHIP_STREAM_API(cudaStreamGetPriority, (cudaStream_t Stream, int *Priority),
                 (Stream, Priority), Stream)

static cudaError_t cudaStreamSetAttribute_impl(cudaStream_t Stream,
                                               cudaLaunchAttributeID Attr,
                                               const cudaLaunchAttributeValue *V) {
  return runtime().streamSetAttribute(Stream, int(Attr), V);
}
CUHIP_STREAM_API(cudaStreamSetAttribute,
                 (cudaStream_t Stream, cudaLaunchAttributeID Attr,
                  const cudaLaunchAttributeValue *V),
                 (Stream, Attr, V), Stream)

static cudaError_t cudaStreamGetAttribute_impl(cudaStream_t Stream,
                                               cudaLaunchAttributeID Attr,
                                               cudaLaunchAttributeValue *V) {
  return runtime().streamGetAttribute(Stream, int(Attr), V);
}
CUHIP_STREAM_API(cudaStreamGetAttribute,
                 (cudaStream_t Stream, cudaLaunchAttributeID Attr,
                  cudaLaunchAttributeValue *V),
                 (Stream, Attr, V), Stream)

static cudaError_t cudaStreamCopyAttributes_impl(cudaStream_t Dst,
                                                 cudaStream_t Src) {
  return runtime().streamCopyAttributes(Dst, Src);
}
CUHIP_EXPORT cudaError_t cudaStreamCopyAttributes(cudaStream_t Dst,
                                                  cudaStream_t Src) {
  return cudaStreamCopyAttributes_impl(Dst, Src);
}
CUHIP_EXPORT cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t Dst,
                                                       cudaStream_t Src) {
  return cudaStreamCopyAttributes_impl(perThreadStream(Dst),
                                       perThreadStream(Src));
}

// Lines set aside for persisting accesses go back to normal: a hint the
// host caches have nothing to undo for.
CUHIP_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void) {
  if (rt::Status S = runtime().deviceStatus())
    return runtime().record(S);
  return rt::cudaSuccess;
}

static cudaError_t cudaStreamWaitEvent_impl(cudaStream_t Stream,
                                            cudaEvent_t Event,
                                            unsigned Flags) {
  return runtime().streamWaitEvent(Stream, Event, Flags);
}
CUHIP_STREAM_API(cudaStreamWaitEvent,
                 (cudaStream_t Stream, cudaEvent_t Event, unsigned Flags),
                 (Stream, Event, Flags), Stream)

static cudaError_t cudaLaunchHostFunc_impl(cudaStream_t Stream, cudaHostFn_t Fn,
                                           void *Data) {
  return runtime().streamAddHostFunc(Stream, Fn, Data);
}
CUHIP_STREAM_API(cudaLaunchHostFunc,
                 (cudaStream_t Stream, cudaHostFn_t Fn, void *Data),
                 (Stream, Fn, Data), Stream)

static cudaError_t cudaStreamAddCallback_impl(cudaStream_t Stream,
                                              cudaStreamCallback_t Fn,
                                              void *Data, unsigned Flags) {
  // CUDA reserves Flags for the future and requires 0.
  if (!Fn || Flags != 0)
    return runtime().record(rt::cudaErrorInvalidValue);
  if (!runtime().isStreamHandle(Stream))
    return runtime().record(rt::cudaErrorInvalidResourceHandle);
  // Callbacks cannot become graph nodes (they take a stream and a status);
  // CUDA refuses them during capture.
  rt::CaptureStatus Capturing = rt::CaptureStatus::None;
  if (rt::capture::anyActive() &&
      rt::streamIsCapturing(Stream, &Capturing) == rt::cudaSuccess &&
      Capturing != rt::CaptureStatus::None)
    return runtime().record(rt::cudaErrorStreamCaptureUnsupported);
  auto *C = new StreamCallback{Fn, Stream, Data};
  cudaError_t E = runtime().streamAddHostFunc(Stream, runStreamCallback, C,
                                              /*RunsAfterFault=*/true);
  if (E != rt::cudaSuccess)
    delete C;
  return E;
}
CUHIP_STREAM_API(cudaStreamAddCallback,
                 (cudaStream_t Stream, cudaStreamCallback_t Fn, void *Data,
                  unsigned Flags),
                 (Stream, Fn, Data, Flags), Stream)

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event,
                                                  unsigned Flags) {
  return runtime().eventCreate(reinterpret_cast<void **>(Event), Flags);
}

CUHIP_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  return cudaEventCreateWithFlags(Event, 0);
}

CUHIP_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  return runtime().eventDestroy(Event);
}

static cudaError_t cudaEventRecord_impl(cudaEvent_t Event,
                                        cudaStream_t Stream) {
  return runtime().eventRecord(Event, Stream);
}
CUHIP_STREAM_API(cudaEventRecord, (cudaEvent_t Event, cudaStream_t Stream),
                 (Event, Stream), Stream)

static cudaError_t cudaEventRecordWithFlags_impl(cudaEvent_t Event,
                                                 cudaStream_t Stream,
                                                 unsigned Flags) {
  // cudaEventRecordDefault (0); cudaEventRecordExternal (0x1) only changes
  // how a graph being captured records the event.
  if (Flags & ~1u)
    return runtime().record(rt::cudaErrorInvalidValue);
  return runtime().eventRecord(Event, Stream);
}
CUHIP_STREAM_API(cudaEventRecordWithFlags,
                 (cudaEvent_t Event, cudaStream_t Stream, unsigned Flags),
                 (Event, Stream, Flags), Stream)

CUHIP_EXPORT cudaError_t cudaEventQuery(cudaEvent_t Event) {
  return runtime().eventQuery(Event);
}

CUHIP_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  return runtime().eventSynchronize(Event);
}

CUHIP_EXPORT cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                              cudaEvent_t End) {
  return runtime().eventElapsedTime(Ms, Start, End);
}

//===----------------------------------------------------------------------===//
// Asynchronous copies and launches
//===----------------------------------------------------------------------===//

static cudaError_t cudaMemcpyAsync_impl(void *Dst, const void *Src,
                                        size_t Count, cudaMemcpyKind Kind,
                                        cudaStream_t Stream) {
  return runtime().memcpyAsync(Dst, Src, Count,
                               static_cast<rt::CopyKind>(Kind), Stream);
}
CUHIP_STREAM_API(cudaMemcpyAsync,
                 (void *Dst, const void *Src, size_t Count,
                  cudaMemcpyKind Kind, cudaStream_t Stream),
                 (Dst, Src, Count, Kind, Stream), Stream)

static cudaError_t cudaMemsetAsync_impl(void *DevPtr, int Value, size_t Count,
                                        cudaStream_t Stream) {
  return runtime().memsetAsync(DevPtr, Value, Count, Stream);
}
CUHIP_STREAM_API(cudaMemsetAsync,
                 (void *DevPtr, int Value, size_t Count, cudaStream_t Stream),
                 (DevPtr, Value, Count, Stream), Stream)

static cudaError_t cudaLaunchCooperativeKernel_impl(const void *Func,
                                                    dim3 GridDim, dim3 BlockDim,
                                                    void **Args,
                                                    size_t SharedMem,
                                                    cudaStream_t Stream) {
  return launchFunction(Func, GridDim, BlockDim, Args, SharedMem, Stream,
                        /*Cooperative=*/true);
}
CUHIP_STREAM_API(cudaLaunchCooperativeKernel,
                 (const void *Func, dim3 GridDim, dim3 BlockDim, void **Args,
                  size_t SharedMem, cudaStream_t Stream),
                 (Func, GridDim, BlockDim, Args, SharedMem, Stream), Stream)

static cudaError_t cudaStreamGetId_impl(cudaStream_t Stream,
                                        unsigned long long *Id) {
  return runtime().streamGetId(Stream, Id);
}
CUHIP_STREAM_API(cudaStreamGetId,
                 (cudaStream_t Stream, unsigned long long *Id), (Stream, Id),
                 Stream)

static cudaError_t cudaStreamAttachMemAsync_impl(cudaStream_t Stream,
                                                 void *DevPtr, size_t Length,
                                                 unsigned Flags) {
  return runtime().streamAttachMem(Stream, DevPtr, Length, Flags);
}
CUHIP_STREAM_API(cudaStreamAttachMemAsync,
                 (cudaStream_t Stream, void *DevPtr, size_t Length,
                  unsigned Flags),
                 (Stream, DevPtr, Length, Flags), Stream)
