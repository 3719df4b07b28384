//===- MemoryApi.cpp - The CUDA runtime's memory functions ----------------===//
//
// cudaMalloc and its family: device, page-locked, registered, managed and
// pitched memory, copies and sets in one to three dimensions, device
// variables by symbol, pointer attributes, memory information and memory
// pools. Thin: each function converts CUDA's structures into the core's and
// calls it once. The `_ptds` and `_ptsz` names are what programs built with
// `--default-stream per-thread` import; for the asynchronous calls a null
// stream then means the calling thread's default stream. cudaMemcpyAsync
// and cudaMemsetAsync live with the stream functions (StreamApi.cpp).
//
//===----------------------------------------------------------------------===//
#include "ArrayCopy.h"
#include "CudaGraphTypes.h"
#include "Export.h"

#include "cuhip/runtime/Log.h"

#include <cstring>
#include <vector>

using namespace cuhip;
using namespace cuhip::cudart;

namespace {

rt::CopyKind kindOf(cudaMemcpyKind Kind) {
  return static_cast<rt::CopyKind>(Kind);
}

/// One side of a cudaMemcpy3DParms: the pitched pointer moved to the
/// position (x in bytes, as for linear memory).
rt::PitchedSide sideOf(const cudaPitchedPtr &P, const cudaPos &Pos) {
  rt::PitchedSide S;
  S.Pitch = P.pitch;
  S.Height = P.ysize;
  S.Ptr = P.ptr ? static_cast<char *>(P.ptr) + Pos.z * P.pitch * P.ysize +
                      Pos.y * P.pitch + Pos.x
                : nullptr;
  return S;
}

cudaError_t memcpy3D(const cudaMemcpy3DParms *P, cudaStream_t Stream,
                     bool Async) {
  if (!P)
    return runtime().record(rt::cudaErrorInvalidValue);
  // An array and a pointer for the same side is an error.
  if ((P->srcArray && P->srcPtr.ptr) || (P->dstArray && P->dstPtr.ptr))
    return runtime().record(rt::cudaErrorInvalidValue);
  if (P->srcArray || P->dstArray)
    return memcpy3DWithArrays(P, Stream, Async);
  return runtime().memcpy3D(sideOf(P->dstPtr, P->dstPos),
                            sideOf(P->srcPtr, P->srcPos), P->extent.width,
                            P->extent.height, P->extent.depth, kindOf(P->kind),
                            Stream, Async);
}

rt::PitchedSide rows(void *Ptr, size_t Pitch, size_t Height) {
  rt::PitchedSide S;
  S.Ptr = Ptr;
  S.Pitch = Pitch;
  S.Height = Height;
  return S;
}

} // namespace

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaMalloc(void **DevPtr, size_t Size) {
  return runtime().malloc(DevPtr, Size);
}

CUHIP_EXPORT cudaError_t cudaFree(void *DevPtr) {
  return runtime().free(DevPtr);
}

CUHIP_EXPORT cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  return runtime().hostAlloc(Ptr, Size, 0);
}

CUHIP_EXPORT cudaError_t cudaHostAlloc(void **Ptr, size_t Size,
                                       unsigned int Flags) {
  return runtime().hostAlloc(Ptr, Size, Flags);
}

CUHIP_EXPORT cudaError_t cudaFreeHost(void *Ptr) {
  return runtime().freeHost(Ptr);
}

CUHIP_EXPORT cudaError_t cudaHostRegister(void *Ptr, size_t Size,
                                          unsigned int Flags) {
  return runtime().hostRegister(Ptr, Size, Flags);
}

CUHIP_EXPORT cudaError_t cudaHostUnregister(void *Ptr) {
  return runtime().hostUnregister(Ptr);
}

CUHIP_EXPORT cudaError_t cudaHostGetDevicePointer(void **DevPtr, void *Host,
                                                  unsigned int Flags) {
  return runtime().hostGetDevicePointer(DevPtr, Host, Flags);
}

CUHIP_EXPORT cudaError_t cudaHostGetFlags(unsigned int *Flags, void *Host) {
  return runtime().hostGetFlags(Flags, Host);
}

CUHIP_EXPORT cudaError_t cudaMallocManaged(void **DevPtr, size_t Size,
                                           unsigned int Flags) {
  return runtime().mallocManaged(DevPtr, Size, Flags);
}

CUHIP_EXPORT cudaError_t cudaMallocPitch(void **DevPtr, size_t *Pitch,
                                         size_t Width, size_t Height) {
  return runtime().mallocPitch(DevPtr, Pitch, Width, Height);
}

CUHIP_EXPORT cudaError_t cudaMalloc3D(cudaPitchedPtr *PitchedDevPtr,
                                      cudaExtent Extent) {
  if (!PitchedDevPtr)
    return runtime().record(rt::cudaErrorInvalidValue);
  void *Ptr = nullptr;
  size_t Pitch = 0;
  // Depth slices of Height rows each, one allocation.
  size_t Rows = Extent.height * Extent.depth;
  if (Extent.depth && Rows / Extent.depth != Extent.height)
    return runtime().record(rt::cudaErrorMemoryAllocation);
  cudaError_t S = runtime().mallocPitch(&Ptr, &Pitch, Extent.width, Rows);
  if (S != rt::cudaSuccess)
    return S;
  *PitchedDevPtr = {Ptr, Pitch, Extent.width, Extent.height};
  return rt::cudaSuccess;
}

CUHIP_EXPORT cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  return runtime().memGetInfo(Free, Total);
}

CUHIP_EXPORT cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *Attr,
                                                  const void *Ptr) {
  if (!Attr)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::PointerAttributes A;
  cudaError_t S = runtime().pointerGetAttributes(&A, Ptr);
  if (S != rt::cudaSuccess)
    return S;
  std::memset(Attr, 0, sizeof(*Attr));
  Attr->type = static_cast<cudaMemoryType>(A.Type);
  Attr->device = A.Device;
  Attr->devicePointer = A.DevicePointer;
  Attr->hostPointer = A.HostPointer;
  return rt::cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Managed memory hints. CUDA 13 names a location; CUDA 12 a device
// (cudaCpuDeviceId, -1, for the host) and calls the location form `_v2`.
//===----------------------------------------------------------------------===//

static cudaError_t memAdvise(const void *DevPtr, size_t Count,
                             cudaMemoryAdvise Advice, cudaMemLocation L) {
  return runtime().memAdvise(DevPtr, Count, Advice, L.type, L.id);
}

static cudaError_t memPrefetch(const void *DevPtr, size_t Count,
                               cudaMemLocation L, unsigned Flags,
                               cudaStream_t Stream) {
  return runtime().memPrefetchAsync(DevPtr, Count, L.type, L.id, Flags, Stream);
}

CUHIP_EXPORT cudaError_t cudaMemAdvise_v2(const void *DevPtr, size_t Count,
                                          cudaMemoryAdvise Advice,
                                          cudaMemLocation Location) {
  return memAdvise(DevPtr, Count, Advice, Location);
}

CUHIP_EXPORT cudaError_t cudaMemPrefetchAsync_v2(const void *DevPtr,
                                                 size_t Count,
                                                 cudaMemLocation Location,
                                                 unsigned int Flags,
                                                 cudaStream_t Stream) {
  return memPrefetch(DevPtr, Count, Location, Flags, Stream);
}

CUHIP_EXPORT cudaError_t cudaMemPrefetchAsync_v2_ptsz(const void *DevPtr,
                                                      size_t Count,
                                                      cudaMemLocation Location,
                                                      unsigned int Flags,
                                                      cudaStream_t Stream) {
  return memPrefetch(DevPtr, Count, Location, Flags, perThreadStream(Stream));
}

#if CUHIP_CUDART_MAJOR >= 13
CUHIP_EXPORT cudaError_t cudaMemAdvise(const void *DevPtr, size_t Count,
                                       cudaMemoryAdvise Advice,
                                       cudaMemLocation Location) {
  return memAdvise(DevPtr, Count, Advice, Location);
}

CUHIP_EXPORT cudaError_t cudaMemPrefetchAsync(const void *DevPtr, size_t Count,
                                              cudaMemLocation Location,
                                              unsigned int Flags,
                                              cudaStream_t Stream) {
  return memPrefetch(DevPtr, Count, Location, Flags, Stream);
}

CUHIP_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void *DevPtr,
                                                   size_t Count,
                                                   cudaMemLocation Location,
                                                   unsigned int Flags,
                                                   cudaStream_t Stream) {
  return memPrefetch(DevPtr, Count, Location, Flags, perThreadStream(Stream));
}
#else
static cudaMemLocation locationOfDevice(int Device) {
  // cudaCpuDeviceId is -1; other negative numbers are no location at all.
  if (Device == -1)
    return {cudaMemLocationTypeHost, 0};
  if (Device < 0)
    return {cudaMemLocationTypeInvalid, Device};
  return {cudaMemLocationTypeDevice, Device};
}

CUHIP_EXPORT cudaError_t cudaMemAdvise(const void *DevPtr, size_t Count,
                                       cudaMemoryAdvise Advice, int Device) {
  return memAdvise(DevPtr, Count, Advice, locationOfDevice(Device));
}

CUHIP_EXPORT cudaError_t cudaMemPrefetchAsync(const void *DevPtr, size_t Count,
                                              int DstDevice,
                                              cudaStream_t Stream) {
  return memPrefetch(DevPtr, Count, locationOfDevice(DstDevice), 0, Stream);
}

CUHIP_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void *DevPtr,
                                                   size_t Count, int DstDevice,
                                                   cudaStream_t Stream) {
  return memPrefetch(DevPtr, Count, locationOfDevice(DstDevice), 0,
                     perThreadStream(Stream));
}
#endif

//===----------------------------------------------------------------------===//
// Copies and sets. Each synchronous function also has its `_ptds` name and
// each asynchronous one its `_ptsz` name.
//===----------------------------------------------------------------------===//

#define CUHIP_SYNC_API(Name, Params, Args)                                     \
  CUHIP_EXPORT cudaError_t Name Params { return Name##_impl Args; }            \
  CUHIP_EXPORT cudaError_t Name##_ptds Params { return Name##_impl Args; }

#define CUHIP_ASYNC_API(Name, Params, Args, StreamArg)                         \
  CUHIP_EXPORT cudaError_t Name Params { return Name##_impl Args; }            \
  CUHIP_EXPORT cudaError_t Name##_ptsz Params {                                \
    StreamArg = perThreadStream(StreamArg);                                    \
    return Name##_impl Args;                                                   \
  }

static cudaError_t cudaMemcpy_impl(void *Dst, const void *Src, size_t Count,
                                   cudaMemcpyKind Kind) {
  return runtime().memcpy(Dst, Src, Count, kindOf(Kind));
}
CUHIP_SYNC_API(cudaMemcpy,
               (void *Dst, const void *Src, size_t Count, cudaMemcpyKind Kind),
               (Dst, Src, Count, Kind))

static cudaError_t cudaMemset_impl(void *DevPtr, int Value, size_t Count) {
  return runtime().memset(DevPtr, Value, Count);
}
CUHIP_SYNC_API(cudaMemset, (void *DevPtr, int Value, size_t Count),
               (DevPtr, Value, Count))

static cudaError_t cudaMemcpy2D_impl(void *Dst, size_t DPitch, const void *Src,
                                     size_t SPitch, size_t Width, size_t Height,
                                     cudaMemcpyKind Kind) {
  return runtime().memcpy3D(rows(Dst, DPitch, Height),
                            rows(const_cast<void *>(Src), SPitch, Height),
                            Width, Height, 1, kindOf(Kind), nullptr, false);
}
CUHIP_SYNC_API(cudaMemcpy2D,
               (void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                size_t Width, size_t Height, cudaMemcpyKind Kind),
               (Dst, DPitch, Src, SPitch, Width, Height, Kind))

static cudaError_t cudaMemcpy2DAsync_impl(void *Dst, size_t DPitch,
                                          const void *Src, size_t SPitch,
                                          size_t Width, size_t Height,
                                          cudaMemcpyKind Kind,
                                          cudaStream_t Stream) {
  return runtime().memcpy3D(rows(Dst, DPitch, Height),
                            rows(const_cast<void *>(Src), SPitch, Height),
                            Width, Height, 1, kindOf(Kind), Stream, true);
}
CUHIP_ASYNC_API(cudaMemcpy2DAsync,
                (void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                 size_t Width, size_t Height, cudaMemcpyKind Kind,
                 cudaStream_t Stream),
                (Dst, DPitch, Src, SPitch, Width, Height, Kind, Stream), Stream)

static cudaError_t cudaMemcpy3D_impl(const cudaMemcpy3DParms *P) {
  return memcpy3D(P, nullptr, false);
}
CUHIP_SYNC_API(cudaMemcpy3D, (const cudaMemcpy3DParms *P), (P))

static cudaError_t cudaMemcpy3DAsync_impl(const cudaMemcpy3DParms *P,
                                          cudaStream_t Stream) {
  return memcpy3D(P, Stream, true);
}
CUHIP_ASYNC_API(cudaMemcpy3DAsync,
                (const cudaMemcpy3DParms *P, cudaStream_t Stream), (P, Stream),
                Stream)

static cudaError_t cudaMemset2D_impl(void *DevPtr, size_t Pitch, int Value,
                                     size_t Width, size_t Height) {
  return runtime().memset3D(rows(DevPtr, Pitch, Height), Value, Width, Height,
                            1, nullptr, false);
}
CUHIP_SYNC_API(cudaMemset2D,
               (void *DevPtr, size_t Pitch, int Value, size_t Width,
                size_t Height),
               (DevPtr, Pitch, Value, Width, Height))

static cudaError_t cudaMemset2DAsync_impl(void *DevPtr, size_t Pitch,
                                          int Value, size_t Width,
                                          size_t Height, cudaStream_t Stream) {
  return runtime().memset3D(rows(DevPtr, Pitch, Height), Value, Width, Height,
                            1, Stream, true);
}
CUHIP_ASYNC_API(cudaMemset2DAsync,
                (void *DevPtr, size_t Pitch, int Value, size_t Width,
                 size_t Height, cudaStream_t Stream),
                (DevPtr, Pitch, Value, Width, Height, Stream), Stream)

static cudaError_t cudaMemset3D_impl(cudaPitchedPtr P, int Value,
                                     cudaExtent Extent) {
  return runtime().memset3D(rows(P.ptr, P.pitch, P.ysize), Value, Extent.width,
                            Extent.height, Extent.depth, nullptr, false);
}
CUHIP_SYNC_API(cudaMemset3D, (cudaPitchedPtr P, int Value, cudaExtent Extent),
               (P, Value, Extent))

static cudaError_t cudaMemset3DAsync_impl(cudaPitchedPtr P, int Value,
                                          cudaExtent Extent,
                                          cudaStream_t Stream) {
  return runtime().memset3D(rows(P.ptr, P.pitch, P.ysize), Value, Extent.width,
                            Extent.height, Extent.depth, Stream, true);
}
CUHIP_ASYNC_API(cudaMemset3DAsync,
                (cudaPitchedPtr P, int Value, cudaExtent Extent,
                 cudaStream_t Stream),
                (P, Value, Extent, Stream), Stream)

CUHIP_EXPORT cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice,
                                        const void *Src, int SrcDevice,
                                        size_t Count) {
  return runtime().memcpyPeer(Dst, DstDevice, Src, SrcDevice, Count, nullptr,
                              false);
}

CUHIP_EXPORT cudaError_t cudaMemcpyPeerAsync(void *Dst, int DstDevice,
                                             const void *Src, int SrcDevice,
                                             size_t Count,
                                             cudaStream_t Stream) {
  return runtime().memcpyPeer(Dst, DstDevice, Src, SrcDevice, Count, Stream,
                              true);
}

//===----------------------------------------------------------------------===//
// Device variables
//===----------------------------------------------------------------------===//

static cudaError_t cudaMemcpyToSymbol_impl(const void *Symbol, const void *Src,
                                           size_t Count, size_t Offset,
                                           cudaMemcpyKind Kind) {
  return runtime().memcpyToSymbol(Symbol, Src, Count, Offset, kindOf(Kind),
                                  nullptr, false);
}
CUHIP_SYNC_API(cudaMemcpyToSymbol,
               (const void *Symbol, const void *Src, size_t Count,
                size_t Offset, cudaMemcpyKind Kind),
               (Symbol, Src, Count, Offset, Kind))

static cudaError_t cudaMemcpyFromSymbol_impl(void *Dst, const void *Symbol,
                                             size_t Count, size_t Offset,
                                             cudaMemcpyKind Kind) {
  return runtime().memcpyFromSymbol(Dst, Symbol, Count, Offset, kindOf(Kind),
                                    nullptr, false);
}
CUHIP_SYNC_API(cudaMemcpyFromSymbol,
               (void *Dst, const void *Symbol, size_t Count, size_t Offset,
                cudaMemcpyKind Kind),
               (Dst, Symbol, Count, Offset, Kind))

static cudaError_t cudaMemcpyToSymbolAsync_impl(const void *Symbol,
                                                const void *Src, size_t Count,
                                                size_t Offset,
                                                cudaMemcpyKind Kind,
                                                cudaStream_t Stream) {
  return runtime().memcpyToSymbol(Symbol, Src, Count, Offset, kindOf(Kind),
                                  Stream, true);
}
CUHIP_ASYNC_API(cudaMemcpyToSymbolAsync,
                (const void *Symbol, const void *Src, size_t Count,
                 size_t Offset, cudaMemcpyKind Kind, cudaStream_t Stream),
                (Symbol, Src, Count, Offset, Kind, Stream), Stream)

static cudaError_t cudaMemcpyFromSymbolAsync_impl(void *Dst,
                                                  const void *Symbol,
                                                  size_t Count, size_t Offset,
                                                  cudaMemcpyKind Kind,
                                                  cudaStream_t Stream) {
  return runtime().memcpyFromSymbol(Dst, Symbol, Count, Offset, kindOf(Kind),
                                    Stream, true);
}
CUHIP_ASYNC_API(cudaMemcpyFromSymbolAsync,
                (void *Dst, const void *Symbol, size_t Count, size_t Offset,
                 cudaMemcpyKind Kind, cudaStream_t Stream),
                (Dst, Symbol, Count, Offset, Kind, Stream), Stream)

CUHIP_EXPORT cudaError_t cudaGetSymbolAddress(void **DevPtr,
                                              const void *Symbol) {
  if (!DevPtr)
    return runtime().record(rt::cudaErrorInvalidValue);
  return runtime().symbolAddress(Symbol, DevPtr, nullptr);
}

CUHIP_EXPORT cudaError_t cudaGetSymbolSize(size_t *Size, const void *Symbol) {
  if (!Size)
    return runtime().record(rt::cudaErrorInvalidValue);
  return runtime().symbolAddress(Symbol, nullptr, Size);
}

//===----------------------------------------------------------------------===//
// Memory pools and stream-ordered allocation
//===----------------------------------------------------------------------===//

CUHIP_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *Pool,
                                                     int Device) {
  return runtime().deviceGetDefaultMemPool(reinterpret_cast<void **>(Pool),
                                           Device);
}

CUHIP_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *Pool,
                                              int Device) {
  return runtime().deviceGetMemPool(reinterpret_cast<void **>(Pool), Device);
}

CUHIP_EXPORT cudaError_t cudaDeviceSetMemPool(int Device, cudaMemPool_t Pool) {
  return runtime().deviceSetMemPool(Device, Pool);
}

CUHIP_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *Pool,
                                           const cudaMemPoolProps *Props) {
  if (!Props)
    return runtime().record(rt::cudaErrorInvalidValue);
  rt::MemPoolProps P;
  P.AllocType = Props->allocType;
  P.HandleTypes = Props->handleTypes;
  P.LocationType = Props->location.type;
  P.LocationId = Props->location.id;
  P.MaxSize = Props->maxSize;
  return runtime().memPoolCreate(reinterpret_cast<void **>(Pool), P);
}

CUHIP_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t Pool) {
  return runtime().memPoolDestroy(Pool);
}

CUHIP_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t Pool,
                                                 cudaMemPoolAttr Attr,
                                                 void *Value) {
  return runtime().memPoolSetAttribute(Pool, Attr, Value);
}

CUHIP_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t Pool,
                                                 cudaMemPoolAttr Attr,
                                                 void *Value) {
  return runtime().memPoolGetAttribute(Pool, Attr, Value);
}

CUHIP_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t Pool,
                                           size_t MinBytesToKeep) {
  return runtime().memPoolTrimTo(Pool, MinBytesToKeep);
}

// Pools shared between processes (POSIX file descriptors): Memory.cpp.
CUHIP_EXPORT cudaError_t cudaMemPoolExportToShareableHandle(
    void *Handle, cudaMemPool_t Pool,
    enum cudaMemAllocationHandleType HandleType, unsigned int Flags) {
  return runtime().memPoolExportToShareableHandle(Handle, Pool, HandleType,
                                                  Flags);
}

CUHIP_EXPORT cudaError_t cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t *Pool, void *OsHandle,
    enum cudaMemAllocationHandleType HandleType, unsigned int Flags) {
  return runtime().memPoolImportFromShareableHandle(
      reinterpret_cast<void **>(Pool), OsHandle, HandleType, Flags);
}

CUHIP_EXPORT cudaError_t cudaMemPoolExportPointer(
    struct cudaMemPoolPtrExportData *ExportData, void *Ptr) {
  return runtime().memPoolExportPointer(ExportData, Ptr);
}

CUHIP_EXPORT cudaError_t
cudaMemPoolImportPointer(void **Ptr, cudaMemPool_t Pool,
                         struct cudaMemPoolPtrExportData *ExportData) {
  return runtime().memPoolImportPointer(Ptr, Pool, ExportData);
}

CUHIP_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t Pool,
                                              const cudaMemAccessDesc *Descs,
                                              size_t Count) {
  if (Count && !Descs)
    return runtime().record(rt::cudaErrorInvalidValue);
  std::vector<rt::VirtualAccess> A(Count);
  for (size_t I = 0; I < Count; ++I) {
    A[I].LocationType = Descs[I].location.type;
    A[I].LocationId = Descs[I].location.id;
    A[I].Flags = Descs[I].flags;
  }
  return runtime().memPoolSetAccess(Pool, A.data(), Count);
}

CUHIP_EXPORT cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags *Flags,
                                              cudaMemPool_t Pool,
                                              cudaMemLocation *Location) {
  if (!Flags || !Location)
    return runtime().record(rt::cudaErrorInvalidValue);
  int F = 0;
  if (rt::Status E = runtime().memPoolGetAccess(&F, Pool, Location->type,
                                                 Location->id))
    return E;
  *Flags = static_cast<cudaMemAccessFlags>(F);
  return rt::cudaSuccess;
}

static cudaError_t cudaMallocAsync_impl(void **DevPtr, size_t Size,
                                        cudaStream_t Stream) {
  return runtime().mallocFromPoolAsync(DevPtr, Size, nullptr, Stream);
}
CUHIP_ASYNC_API(cudaMallocAsync,
                (void **DevPtr, size_t Size, cudaStream_t Stream),
                (DevPtr, Size, Stream), Stream)

static cudaError_t cudaMallocFromPoolAsync_impl(void **DevPtr, size_t Size,
                                                cudaMemPool_t Pool,
                                                cudaStream_t Stream) {
  // A pool is required here; a null one is not "the current pool".
  if (!Pool)
    return runtime().record(rt::cudaErrorInvalidValue);
  return runtime().mallocFromPoolAsync(DevPtr, Size, Pool, Stream);
}
CUHIP_ASYNC_API(cudaMallocFromPoolAsync,
                (void **DevPtr, size_t Size, cudaMemPool_t Pool,
                 cudaStream_t Stream),
                (DevPtr, Size, Pool, Stream), Stream)

static cudaError_t cudaFreeAsync_impl(void *DevPtr, cudaStream_t Stream) {
  return runtime().freeAsync(DevPtr, Stream);
}
CUHIP_ASYNC_API(cudaFreeAsync, (void *DevPtr, cudaStream_t Stream),
                (DevPtr, Stream), Stream)
