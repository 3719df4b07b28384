//===- DriverStream.cpp - Streams, events and host callbacks --------------===//
//
// The driver's CUstream and CUevent are the runtime core's stream and event
// handles, with the same special streams (0, CU_STREAM_LEGACY 0x1,
// CU_STREAM_PER_THREAD 0x2) and flag values as the runtime API. The `_ptsz`
// entry points mean the per-thread default stream by 0. The context a
// created stream belongs to is noted (DriverContext.cpp) for cuStreamGetCtx
// and cuStreamGetDevice.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

using namespace cuhip;
using namespace cuhip::cuda;

namespace {
/// The core's cudaErrorInvalidResourceHandle is the driver's
/// CUDA_ERROR_INVALID_HANDLE (both 400).
CUresult streamCall(rt::Status S) { return toCU(S); }
} // namespace

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuStreamCreateWithPriority(CUstream *Stream,
                                                 unsigned int Flags,
                                                 int Priority) {
  if (CUresult R = checkContext())
    return R;
  if (!Stream)
    return CUDA_ERROR_INVALID_VALUE;
  void *S = nullptr;
  CUresult R = streamCall(runtime().streamCreate(&S, Flags, Priority));
  *Stream = static_cast<CUstream>(S);
  if (R == CUDA_SUCCESS)
    noteStreamCreated(S);
  return R;
}

CUHIP_EXPORT CUresult cuStreamCreate(CUstream *Stream, unsigned int Flags) {
  return cuStreamCreateWithPriority(Stream, Flags, 0);
}

static CUresult streamDestroy(CUstream S) {
  if (CUresult R = checkContext())
    return R;
  if (!S || uintptr_t(S) <= 2) // the default streams cannot be destroyed
    return CUDA_ERROR_INVALID_HANDLE;
  CUresult R = streamCall(runtime().streamDestroy(S));
  if (R == CUDA_SUCCESS)
    noteStreamDestroyed(S);
  return R;
}

CUHIP_EXPORT CUresult cuStreamDestroy(CUstream S) { return streamDestroy(S); }
CUHIP_EXPORT CUresult cuStreamDestroy_v2(CUstream S) { return streamDestroy(S); }

#define CUHIP_STREAM_PAIR(Name, Params, Call)                                  \
  CUHIP_EXPORT CUresult Name Params {                                          \
    if (CUresult R = checkContext())                                           \
      return R;                                                                \
    void *Stream = coreStream(S);                                              \
    return streamCall(Call);                                                   \
  }                                                                            \
  CUHIP_EXPORT CUresult Name##_ptsz Params {                                   \
    if (CUresult R = checkContext())                                           \
      return R;                                                                \
    void *Stream = perThreadStream(S);                                         \
    return streamCall(Call);                                                   \
  }

CUHIP_STREAM_PAIR(cuStreamSynchronize, (CUstream S),
                  runtime().streamSynchronize(Stream))
CUHIP_STREAM_PAIR(cuStreamQuery, (CUstream S), runtime().streamQuery(Stream))
CUHIP_STREAM_PAIR(cuStreamGetFlags, (CUstream S, unsigned int *Flags),
                  Flags ? runtime().streamGetFlags(Stream, Flags)
                        : rt::cudaErrorInvalidValue)
CUHIP_STREAM_PAIR(cuStreamGetPriority, (CUstream S, int *Priority),
                  Priority ? runtime().streamGetPriority(Stream, Priority)
                           : rt::cudaErrorInvalidValue)
CUHIP_STREAM_PAIR(cuStreamWaitEvent, (CUstream S, CUevent E, unsigned int Flags),
                  E ? runtime().streamWaitEvent(Stream, E, Flags)
                    : rt::cudaErrorInvalidResourceHandle)
CUHIP_STREAM_PAIR(cuStreamAttachMemAsync,
                  (CUstream S, CUdeviceptr Ptr, size_t Length,
                   unsigned int Flags),
                  runtime().streamAttachMem(
                      Stream, reinterpret_cast<void *>(Ptr), Length, Flags))
CUHIP_STREAM_PAIR(cuLaunchHostFunc, (CUstream S, CUhostFn Fn, void *Data),
                  Fn ? runtime().streamAddHostFunc(Stream, Fn, Data)
                     : rt::cudaErrorInvalidValue)
// CUstreamAttrID is CUlaunchAttributeID, with the runtime's numbers and
// value layout (a 64-byte union).
CUHIP_STREAM_PAIR(cuStreamSetAttribute,
                  (CUstream S, CUstreamAttrID Attr,
                   const CUstreamAttrValue *Value),
                  runtime().streamSetAttribute(Stream, int(Attr), Value))
CUHIP_STREAM_PAIR(cuStreamGetAttribute,
                  (CUstream S, CUstreamAttrID Attr, CUstreamAttrValue *Value),
                  runtime().streamGetAttribute(Stream, int(Attr), Value))

CUHIP_EXPORT CUresult cuStreamCopyAttributes(CUstream Dst, CUstream Src) {
  if (CUresult R = checkContext())
    return R;
  return streamCall(
      runtime().streamCopyAttributes(coreStream(Dst), coreStream(Src)));
}
CUHIP_EXPORT CUresult cuStreamCopyAttributes_ptsz(CUstream Dst, CUstream Src) {
  if (CUresult R = checkContext())
    return R;
  return streamCall(runtime().streamCopyAttributes(perThreadStream(Dst),
                                                   perThreadStream(Src)));
}

// Queries that need no current context: a created stream carries its own.
#define CUHIP_STREAM_QUERY(Name, Params, Call)                                 \
  CUHIP_EXPORT CUresult Name Params {                                          \
    if (CUresult R = checkInit())                                              \
      return R;                                                                \
    return Call(coreStream(S));                                                \
  }                                                                            \
  CUHIP_EXPORT CUresult Name##_ptsz Params {                                   \
    if (CUresult R = checkInit())                                              \
      return R;                                                                \
    return Call(perThreadStream(S));                                           \
  }

CUHIP_STREAM_QUERY(cuStreamGetId, (CUstream S, unsigned long long *Id),
                   [&](void *Stream) {
                     return streamCall(runtime().streamGetId(Stream, Id));
                   })
CUHIP_STREAM_QUERY(cuStreamGetCtx, (CUstream S, CUcontext *Ctx),
                   [&](void *Stream) {
                     return Ctx ? streamContext(Stream, Ctx)
                                : CUDA_ERROR_INVALID_VALUE;
                   })
// No stream belongs to a green context: there are none.
CUHIP_STREAM_QUERY(cuStreamGetCtx_v2,
                   (CUstream S, CUcontext *Ctx, CUgreenCtx *Green),
                   [&](void *Stream) {
                     if (!Ctx || !Green)
                       return CUDA_ERROR_INVALID_VALUE;
                     *Green = nullptr;
                     return streamContext(Stream, Ctx);
                   })
CUHIP_STREAM_QUERY(cuStreamGetDevice, (CUstream S, CUdevice *Dev),
                   [&](void *Stream) {
                     CUcontext C = nullptr;
                     if (!Dev)
                       return CUDA_ERROR_INVALID_VALUE;
                     if (CUresult R = streamContext(Stream, &C))
                       return R;
                     return contextDevice(C, Dev);
                   })
#undef CUHIP_STREAM_QUERY

// Persisting lines go back to normal: nothing to undo on the host caches.
CUHIP_EXPORT CUresult cuCtxResetPersistingL2Cache() { return checkContext(); }

namespace {
/// A cuStreamAddCallback callback as a host function of the core.
struct Callback {
  CUstreamCallback Fn;
  CUstream Stream;
  void *Data;
  static void run(void *P) {
    Callback *C = static_cast<Callback *>(P);
    // Work before the callback either succeeded or left a sticky error,
    // which is what the status reports; it runs in either case.
    C->Fn(C->Stream, toCU(runtime().stickyError()), C->Data);
    delete C;
  }
};

rt::Status addCallback(void *Stream, CUstream S, CUstreamCallback Fn,
                       void *Data, unsigned Flags) {
  if (!Fn || Flags != 0)
    return rt::cudaErrorInvalidValue;
  auto *C = new Callback{Fn, S, Data};
  rt::Status St = runtime().streamAddHostFunc(Stream, &Callback::run, C,
                                              /*RunsAfterFault=*/true);
  if (St)
    delete C;
  return St;
}
} // namespace

CUHIP_STREAM_PAIR(cuStreamAddCallback,
                  (CUstream S, CUstreamCallback Fn, void *Data,
                   unsigned int Flags),
                  addCallback(Stream, S, Fn, Data, Flags))
#undef CUHIP_STREAM_PAIR

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuEventCreate(CUevent *Event, unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!Event)
    return CUDA_ERROR_INVALID_VALUE;
  void *E = nullptr;
  CUresult R = toCU(runtime().eventCreate(&E, Flags));
  *Event = static_cast<CUevent>(E);
  return R;
}

static CUresult eventDestroy(CUevent E) {
  if (CUresult R = checkContext())
    return R;
  if (!E)
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().eventDestroy(E));
}

CUHIP_EXPORT CUresult cuEventDestroy(CUevent E) { return eventDestroy(E); }
CUHIP_EXPORT CUresult cuEventDestroy_v2(CUevent E) { return eventDestroy(E); }

static CUresult eventRecord(CUevent E, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  if (!E)
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().eventRecord(E, Stream));
}

CUHIP_EXPORT CUresult cuEventRecord(CUevent E, CUstream S) {
  return eventRecord(E, coreStream(S));
}
CUHIP_EXPORT CUresult cuEventRecord_ptsz(CUevent E, CUstream S) {
  return eventRecord(E, perThreadStream(S));
}
// CU_EVENT_RECORD_DEFAULT (0) and CU_EVENT_RECORD_EXTERNAL (1, for graphs).
CUHIP_EXPORT CUresult cuEventRecordWithFlags(CUevent E, CUstream S,
                                             unsigned int Flags) {
  return Flags > 1 ? CUDA_ERROR_INVALID_VALUE : eventRecord(E, coreStream(S));
}
CUHIP_EXPORT CUresult cuEventRecordWithFlags_ptsz(CUevent E, CUstream S,
                                                  unsigned int Flags) {
  return Flags > 1 ? CUDA_ERROR_INVALID_VALUE
                   : eventRecord(E, perThreadStream(S));
}

CUHIP_EXPORT CUresult cuEventQuery(CUevent E) {
  if (CUresult R = checkContext())
    return R;
  if (!E)
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().eventQuery(E));
}

CUHIP_EXPORT CUresult cuEventSynchronize(CUevent E) {
  if (CUresult R = checkContext())
    return R;
  if (!E)
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().eventSynchronize(E));
}

static CUresult elapsed(float *Ms, CUevent Start, CUevent End) {
  if (CUresult R = checkContext())
    return R;
  if (!Ms)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Start || !End)
    return CUDA_ERROR_INVALID_HANDLE;
  return toCU(runtime().eventElapsedTime(Ms, Start, End));
}

CUHIP_EXPORT CUresult cuEventElapsedTime(float *Ms, CUevent Start, CUevent End) {
  return elapsed(Ms, Start, End);
}
CUHIP_EXPORT CUresult cuEventElapsedTime_v2(float *Ms, CUevent Start,
                                            CUevent End) {
  return elapsed(Ms, Start, End);
}
