//===- DriverMemory.cpp - Allocation, copies, memsets, pointer queries ----===//
//
// Device memory is the runtime core's; the driver's CUdeviceptr is its
// address. Page-locked and mapped host memory (cuMemAllocHost,
// cuMemHostAlloc, cuMemHostRegister) and managed memory need a device that
// reads host memory directly: on the CPU backend (an integrated device)
// they are core allocations or plain host ranges noted here, on a discrete
// device they are not supported yet. Pitched (2D) and 3D copies are the
// core's pitched copy, as for cudaMemcpy2D/3D, and peer copies are copies
// within the one device; the patterned memsets run row by row through the
// core's linear operations. Both check every device range. Managed-memory
// hints (cuMemAdvise, cuMemPrefetchAsync) are the core's, as libcudart's.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"
#include "DriverTexture.h"

#include "cuhip/runtime/Graph.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <unistd.h>
#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;
using rt::CopyKind;

namespace {

/// Host memory the driver handed out or registered: base -> size.
struct HostRanges {
  std::mutex Lock;
  std::map<uintptr_t, size_t> Allocated, Registered;
  std::set<uintptr_t> Managed; // core allocations made by cuMemAllocManaged
};

HostRanges &hostRanges() {
  static HostRanges *H = new HostRanges;
  return *H;
}

/// The range of Map that holds P; false if none.
bool findRange(const std::map<uintptr_t, size_t> &Map, uintptr_t P,
               uintptr_t &Base, size_t &Size) {
  auto It = Map.upper_bound(P);
  if (It == Map.begin())
    return false;
  --It;
  if (P - It->first >= std::max<size_t>(It->second, 1))
    return false;
  Base = It->first;
  Size = It->second;
  return true;
}

bool deviceReadsHostMemory() { return runtime().deviceInfo(0).Integrated; }

CUresult hostAlloc(void **Ptr, size_t Bytes, unsigned Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  *Ptr = nullptr;
  if (Flags & ~unsigned(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
                        CU_MEMHOSTALLOC_WRITECOMBINED))
    return CUDA_ERROR_INVALID_VALUE;
  if (!deviceReadsHostMemory())
    return notSupported("cuMemHostAlloc on a discrete device");
  if (Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  // A core allocation: the device reads it, and copies check it.
  if (rt::Status S = runtime().malloc(Ptr, Bytes))
    return S == rt::cudaErrorMemoryAllocation ? CUDA_ERROR_OUT_OF_MEMORY
                                              : toCU(S);
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  H.Allocated[reinterpret_cast<uintptr_t>(*Ptr)] = Bytes;
  return CUDA_SUCCESS;
}

} // namespace

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  if (CUresult R = checkContext())
    return R;
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  *Ptr = 0;
  if (Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = nullptr;
  if (rt::Status S = runtime().malloc(&P, Bytes))
    return toCU(S);
  *Ptr = devptr(P);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemFree_v2(CUdeviceptr Ptr) {
  if (CUresult R = checkContext())
    return R;
  if (!Ptr)
    return CUDA_SUCCESS;
  {
    HostRanges &H = hostRanges();
    std::lock_guard<std::mutex> G(H.Lock);
    if (H.Allocated.count(uintptr_t(Ptr)))
      return CUDA_ERROR_INVALID_VALUE; // cuMemFreeHost's
    H.Managed.erase(uintptr_t(Ptr));
  }
  return toCU(runtime().free(ptr(Ptr)));
}

CUHIP_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *Ptr, size_t *Pitch,
                                         size_t WidthInBytes, size_t Height,
                                         unsigned int ElementSizeBytes) {
  if (CUresult R = checkContext())
    return R;
  if (!Ptr || !Pitch || !WidthInBytes || !Height ||
      (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
       ElementSizeBytes != 16))
    return CUDA_ERROR_INVALID_VALUE;
  // Rows start at the texture alignment, as CUDA's pitched allocations do.
  constexpr size_t Align = 512;
  size_t P = (WidthInBytes + Align - 1) / Align * Align;
  if (Height > SIZE_MAX / P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  CUresult R = cuMemAlloc_v2(Ptr, P * Height);
  if (R == CUDA_SUCCESS)
    *Pitch = P;
  return R;
}

CUHIP_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *Ptr, size_t Bytes,
                                        unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!Ptr || Bytes == 0 ||
      (Flags != CU_MEM_ATTACH_GLOBAL && Flags != CU_MEM_ATTACH_HOST))
    return CUDA_ERROR_INVALID_VALUE;
  *Ptr = 0;
  if (!deviceReadsHostMemory())
    return notSupported("cuMemAllocManaged on a discrete device");
  // The core's managed allocation, which cuMemAdvise and cuMemPrefetchAsync
  // (the core's too) accept.
  void *P = nullptr;
  if (rt::Status S = runtime().mallocManaged(&P, Bytes, Flags))
    return toCU(S);
  *Ptr = devptr(P);
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  H.Managed.insert(uintptr_t(*Ptr));
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemAllocHost_v2(void **Ptr, size_t Bytes) {
  return hostAlloc(Ptr, Bytes, 0);
}

CUHIP_EXPORT CUresult cuMemHostAlloc(void **Ptr, size_t Bytes,
                                     unsigned int Flags) {
  return hostAlloc(Ptr, Bytes, Flags);
}

CUHIP_EXPORT CUresult cuMemFreeHost(void *Ptr) {
  if (CUresult R = checkContext())
    return R;
  {
    HostRanges &H = hostRanges();
    std::lock_guard<std::mutex> G(H.Lock);
    if (!H.Allocated.erase(reinterpret_cast<uintptr_t>(Ptr)))
      return CUDA_ERROR_INVALID_VALUE;
  }
  return toCU(runtime().free(Ptr));
}

CUHIP_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *DPtr, void *P,
                                                   unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!DPtr || !P || Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  uintptr_t Base;
  size_t Size;
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  if (!findRange(H.Allocated, A, Base, Size) &&
      !findRange(H.Registered, A, Base, Size))
    return CUDA_ERROR_INVALID_VALUE;
  *DPtr = CUdeviceptr(A); // the device reads host memory at its address
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemHostGetFlags(unsigned int *Flags, void *P) {
  if (CUresult R = checkContext())
    return R;
  if (!Flags || !P)
    return CUDA_ERROR_INVALID_VALUE;
  uintptr_t Base;
  size_t Size;
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  if (!findRange(H.Allocated, reinterpret_cast<uintptr_t>(P), Base, Size))
    return CUDA_ERROR_INVALID_VALUE;
  *Flags = CU_MEMHOSTALLOC_DEVICEMAP;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemHostRegister_v2(void *P, size_t Bytes,
                                           unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!P || Bytes == 0 ||
      (Flags & ~unsigned(CU_MEMHOSTREGISTER_PORTABLE |
                         CU_MEMHOSTREGISTER_DEVICEMAP |
                         CU_MEMHOSTREGISTER_IOMEMORY |
                         CU_MEMHOSTREGISTER_READ_ONLY)))
    return CUDA_ERROR_INVALID_VALUE;
  if (!deviceReadsHostMemory())
    return notSupported("cuMemHostRegister on a discrete device");
  uintptr_t A = reinterpret_cast<uintptr_t>(P), Base;
  size_t Size;
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  if (findRange(H.Registered, A, Base, Size) ||
      findRange(H.Registered, A + Bytes - 1, Base, Size))
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  H.Registered[A] = Bytes;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemHostRegister(void *P, size_t Bytes,
                                        unsigned int Flags) {
  return cuMemHostRegister_v2(P, Bytes, Flags);
}

CUHIP_EXPORT CUresult cuMemHostUnregister(void *P) {
  if (CUresult R = checkContext())
    return R;
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  if (!H.Registered.erase(reinterpret_cast<uintptr_t>(P)))
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemGetInfo_v2(size_t *Free, size_t *Total) {
  if (CUresult R = checkContext())
    return R;
  if (!Free || !Total)
    return CUDA_ERROR_INVALID_VALUE;
  *Total = runtime().deviceInfo(0).TotalGlobalMem;
  long Pages = sysconf(_SC_AVPHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  size_t Avail = Pages > 0 && PageSize > 0 ? size_t(Pages) * PageSize : 0;
  *Free = std::min(Avail, *Total);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *Base, size_t *Size,
                                              CUdeviceptr Ptr) {
  if (CUresult R = checkContext())
    return R;
  void *B = nullptr;
  size_t S = 0;
  if (runtime().allocationRange(ptr(Ptr), &B, &S) != rt::cudaSuccess)
    return CUDA_ERROR_NOT_FOUND;
  if (Base)
    *Base = devptr(B);
  if (Size)
    *Size = S;
  return CUDA_SUCCESS;
}

bool cuhip::cuda::isDeviceAccessible(CUdeviceptr P, size_t Bytes) {
  if (runtime().isDeviceRange(ptr(P), Bytes))
    return true; // device, managed and cuMemHostAlloc memory
  uintptr_t Base;
  size_t Size;
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  return findRange(H.Registered, uintptr_t(P), Base, Size) &&
         Bytes <= Base + Size - uintptr_t(P);
}

//===----------------------------------------------------------------------===//
// Managed memory hints: the core's, as cudaMemAdvise and
// cudaMemPrefetchAsync. The `_v2` forms (CUDA 13's plain names) take a
// CUmemLocation; the first forms a device, CU_DEVICE_CPU for the host.
//===----------------------------------------------------------------------===//

namespace {
CUmemLocation locationOfDevice(CUdevice Dev) {
  if (Dev == CU_DEVICE_CPU)
    return {CU_MEM_LOCATION_TYPE_HOST, 0};
  if (Dev < 0) // CU_DEVICE_INVALID and the like name no location
    return {CU_MEM_LOCATION_TYPE_INVALID, Dev};
  return {CU_MEM_LOCATION_TYPE_DEVICE, Dev};
}

CUresult advise(CUdeviceptr P, size_t Bytes, CUmem_advise Advice,
                CUmemLocation L) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().memAdvise(ptr(P), Bytes, Advice, L.type, L.id));
}

CUresult prefetch(CUdeviceptr P, size_t Bytes, CUmemLocation L, unsigned Flags,
                  void *Stream) {
  if (CUresult R = checkContext())
    return R;
  return toCU(
      runtime().memPrefetchAsync(ptr(P), Bytes, L.type, L.id, Flags, Stream));
}
} // namespace

CUHIP_EXPORT CUresult cuMemAdvise(CUdeviceptr P, size_t Bytes,
                                  CUmem_advise Advice, CUdevice Dev) {
  return advise(P, Bytes, Advice, locationOfDevice(Dev));
}

CUHIP_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr P, size_t Bytes,
                                     CUmem_advise Advice,
                                     CUmemLocation Location) {
  return advise(P, Bytes, Advice, Location);
}

CUHIP_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr P, size_t Bytes,
                                         CUdevice Dev, CUstream S) {
  return prefetch(P, Bytes, locationOfDevice(Dev), 0, coreStream(S));
}

CUHIP_EXPORT CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr P, size_t Bytes,
                                              CUdevice Dev, CUstream S) {
  return prefetch(P, Bytes, locationOfDevice(Dev), 0, perThreadStream(S));
}

CUHIP_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr P, size_t Bytes,
                                            CUmemLocation Location,
                                            unsigned int Flags, CUstream S) {
  return prefetch(P, Bytes, Location, Flags, coreStream(S));
}

CUHIP_EXPORT CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr P, size_t Bytes,
                                                 CUmemLocation Location,
                                                 unsigned int Flags,
                                                 CUstream S) {
  return prefetch(P, Bytes, Location, Flags, perThreadStream(S));
}

//===----------------------------------------------------------------------===//
// Pointer attributes
//===----------------------------------------------------------------------===//

namespace {
enum class PtrKind { Unknown, Device, Managed, HostAllocated, HostRegistered };

PtrKind classify(CUdeviceptr Ptr, uintptr_t &Base, size_t &Size) {
  {
    HostRanges &H = hostRanges();
    std::lock_guard<std::mutex> G(H.Lock);
    if (findRange(H.Allocated, uintptr_t(Ptr), Base, Size))
      return PtrKind::HostAllocated;
    if (findRange(H.Registered, uintptr_t(Ptr), Base, Size))
      return PtrKind::HostRegistered;
  }
  void *B = nullptr;
  if (runtime().allocationRange(ptr(Ptr), &B, &Size) != rt::cudaSuccess)
    return PtrKind::Unknown;
  Base = reinterpret_cast<uintptr_t>(B);
  HostRanges &H = hostRanges();
  std::lock_guard<std::mutex> G(H.Lock);
  return H.Managed.count(Base) ? PtrKind::Managed : PtrKind::Device;
}

CUresult pointerAttribute(void *Data, CUpointer_attribute Attr,
                          CUdeviceptr Ptr) {
  uintptr_t Base = 0;
  size_t Size = 0;
  PtrKind K = classify(Ptr, Base, Size);
  if (Attr == CU_POINTER_ATTRIBUTE_IS_MANAGED && K == PtrKind::Unknown) {
    *static_cast<int *>(Data) = 0;
    return CUDA_SUCCESS;
  }
  if (K == PtrKind::Unknown)
    return CUDA_ERROR_INVALID_VALUE;
  bool Host = K == PtrKind::HostAllocated || K == PtrKind::HostRegistered;
  switch (Attr) {
  case CU_POINTER_ATTRIBUTE_CONTEXT:
    *static_cast<CUcontext *>(Data) = currentContext();
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    *static_cast<unsigned *>(Data) =
        Host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    *static_cast<CUdeviceptr *>(Data) = Ptr;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    if (!Host && K != PtrKind::Managed)
      return CUDA_ERROR_INVALID_VALUE;
    *static_cast<void **>(Data) = ptr(Ptr);
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
  case CU_POINTER_ATTRIBUTE_MAPPED:
    *static_cast<int *>(Data) = 1;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    *static_cast<unsigned long long *>(Data) = Base;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_IS_MANAGED:
    *static_cast<int *>(Data) = K == PtrKind::Managed;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
    *static_cast<int *>(Data) = 0;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    *static_cast<int *>(Data) = 0;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    *static_cast<CUdeviceptr *>(Data) = Base;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    *static_cast<size_t *>(Data) = Size;
    return CUDA_SUCCESS;
  case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
    *static_cast<int *>(Data) = 3; // CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}
} // namespace

CUHIP_EXPORT CUresult cuPointerGetAttribute(void *Data, CUpointer_attribute Attr,
                                            CUdeviceptr Ptr) {
  if (CUresult R = checkInit())
    return R;
  if (!Data)
    return CUDA_ERROR_INVALID_VALUE;
  return pointerAttribute(Data, Attr, Ptr);
}

CUHIP_EXPORT CUresult cuPointerGetAttributes(unsigned int NumAttributes,
                                             CUpointer_attribute *Attributes,
                                             void **Data, CUdeviceptr Ptr) {
  if (CUresult R = checkInit())
    return R;
  if (!Attributes || !Data)
    return CUDA_ERROR_INVALID_VALUE;
  // Unlike cuPointerGetAttribute, memory cuhip does not know is not an
  // error here: each attribute reads as "not a CUDA pointer".
  for (unsigned I = 0; I < NumAttributes; ++I) {
    if (!Data[I])
      continue;
    CUresult R = pointerAttribute(Data[I], Attributes[I], Ptr);
    if (R == CUDA_ERROR_INVALID_VALUE) {
      switch (Attributes[I]) {
      case CU_POINTER_ATTRIBUTE_CONTEXT:
        *static_cast<CUcontext *>(Data[I]) = nullptr;
        break;
      case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *static_cast<unsigned long long *>(Data[I]) = 0;
        break;
      case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        *static_cast<void **>(Data[I]) = nullptr;
        break;
      case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *static_cast<size_t *>(Data[I]) = 0;
        break;
      case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *static_cast<int *>(Data[I]) = -2; // CU_DEVICE_INVALID
        break;
      default:
        *static_cast<int *>(Data[I]) = 0;
        break;
      }
    }
  }
  return CUDA_SUCCESS;
}

// CU_POINTER_ATTRIBUTE_SYNC_MEMOPS is the only attribute a program sets.
// Every copy and memset here is synchronous where CUDA's would be with it
// set, so the attribute stays 1 (what cuPointerGetAttribute reports) and
// setting it only checks the pointer.
CUHIP_EXPORT CUresult cuPointerSetAttribute(const void *Value,
                                            CUpointer_attribute Attr,
                                            CUdeviceptr Ptr) {
  if (CUresult R = checkContext())
    return R;
  if (!Value || Attr != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
    return CUDA_ERROR_INVALID_VALUE;
  uintptr_t Base = 0;
  size_t Size = 0;
  return classify(Ptr, Base, Size) == PtrKind::Unknown
             ? CUDA_ERROR_INVALID_VALUE
             : CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Linear copies
//===----------------------------------------------------------------------===//

namespace {
/// Stream is NoStream for the synchronous copies.
void *const NoStream = reinterpret_cast<void *>(~uintptr_t(0));

CUresult copy(void *Dst, const void *Src, size_t Bytes, CopyKind Kind,
              void *Stream) {
  if (CUresult R = checkContext())
    return R;
  rt::Runtime &RT = runtime();
  return toCU(Stream == NoStream ? RT.memcpy(Dst, Src, Bytes, Kind)
                                 : RT.memcpyAsync(Dst, Src, Bytes, Kind, Stream));
}
} // namespace

// Each copy direction comes as the plain entry point, the per-thread
// default stream `_ptds` one, and the asynchronous pair.
#define CUHIP_COPY_FAMILY(Sync, Async, DstT, SrcT, DstExpr, SrcExpr, Kind)     \
  CUHIP_EXPORT CUresult Sync(DstT Dst, SrcT Src, size_t Bytes) {               \
    return copy(DstExpr, SrcExpr, Bytes, Kind, NoStream);                      \
  }                                                                            \
  CUHIP_EXPORT CUresult Sync##_ptds(DstT Dst, SrcT Src, size_t Bytes) {        \
    return copy(DstExpr, SrcExpr, Bytes, Kind, NoStream);                      \
  }                                                                            \
  CUHIP_EXPORT CUresult Async(DstT Dst, SrcT Src, size_t Bytes, CUstream S) {  \
    return copy(DstExpr, SrcExpr, Bytes, Kind, coreStream(S));                 \
  }                                                                            \
  CUHIP_EXPORT CUresult Async##_ptsz(DstT Dst, SrcT Src, size_t Bytes,         \
                                     CUstream S) {                             \
    return copy(DstExpr, SrcExpr, Bytes, Kind, perThreadStream(S));            \
  }

CUHIP_COPY_FAMILY(cuMemcpyHtoD_v2, cuMemcpyHtoDAsync_v2, CUdeviceptr,
                  const void *, ptr(Dst), Src, CopyKind::HostToDevice)
CUHIP_COPY_FAMILY(cuMemcpyDtoH_v2, cuMemcpyDtoHAsync_v2, void *, CUdeviceptr,
                  Dst, ptr(Src), CopyKind::DeviceToHost)
CUHIP_COPY_FAMILY(cuMemcpyDtoD_v2, cuMemcpyDtoDAsync_v2, CUdeviceptr,
                  CUdeviceptr, ptr(Dst), ptr(Src), CopyKind::DeviceToDevice)
// Unified addressing: cuMemcpy infers the direction from the pointers.
CUHIP_COPY_FAMILY(cuMemcpy, cuMemcpyAsync, CUdeviceptr, CUdeviceptr, ptr(Dst),
                  ptr(Src), CopyKind::Default)
#undef CUHIP_COPY_FAMILY

//===----------------------------------------------------------------------===//
// 2D and 3D copies
//===----------------------------------------------------------------------===//

namespace {
struct Side {
  uint8_t *Base = nullptr;
  bool Device = false;
};

CUresult side(CUmemorytype Type, const void *Host, CUdeviceptr Dev,
              CUarray Array, Side &Out) {
  switch (Type) {
  case CU_MEMORYTYPE_HOST:
    Out = {static_cast<uint8_t *>(const_cast<void *>(Host)), false};
    return Host ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case CU_MEMORYTYPE_DEVICE:
    Out = {static_cast<uint8_t *>(ptr(Dev)), true};
    return Dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case CU_MEMORYTYPE_UNIFIED:
    Out = {static_cast<uint8_t *>(ptr(Dev)),
           runtime().isDeviceRange(ptr(Dev), 1)};
    return Dev ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  case CU_MEMORYTYPE_ARRAY:
    (void)Array; // copy2D and copy3D hand arrays to copyWithArrays
    return CUDA_ERROR_INVALID_VALUE;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CopyKind kindOf(const Side &Src, const Side &Dst) {
  if (Src.Device)
    return Dst.Device ? CopyKind::DeviceToDevice : CopyKind::DeviceToHost;
  return Dst.Device ? CopyKind::HostToDevice : CopyKind::HostToHost;
}

/// One box copy: Depth slices of Height rows of Width bytes.
CUresult copyBox(const Side &Src, size_t SrcOffset, size_t SrcPitch,
                 size_t SrcSlice, const Side &Dst, size_t DstOffset,
                 size_t DstPitch, size_t DstSlice, size_t Width, size_t Height,
                 size_t Depth, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  if (Width == 0 || Height == 0 || Depth == 0)
    return CUDA_SUCCESS;
  if ((Height > 1 || Depth > 1) && (SrcPitch < Width || DstPitch < Width))
    return CUDA_ERROR_INVALID_VALUE;
  if (Depth > 1 && (SrcSlice < SrcPitch * Height || DstSlice < DstPitch * Height))
    return CUDA_ERROR_INVALID_VALUE;
  // The runtime core's pitched copy (the one cudaMemcpy2D/3D use): range
  // checks, stream capture and the HIP backend's 2D copies come with it. A
  // single row's pitch is never read, and the core wants it at least a row.
  auto pitched = [&](const Side &S, size_t Offset, size_t Pitch,
                     size_t Slice) {
    size_t P = Height == 1 && Depth == 1 ? std::max(Pitch, Width) : Pitch;
    return rt::PitchedSide{S.Base + Offset, P,
                           Depth > 1 && Pitch ? Slice / Pitch : Height};
  };
  bool Async = Stream != NoStream;
  return toCU(runtime().memcpy3D(
      pitched(Dst, DstOffset, DstPitch, DstSlice),
      pitched(Src, SrcOffset, SrcPitch, SrcSlice), Width, Height, Depth,
      kindOf(Src, Dst), Async ? Stream : nullptr, Async));
}

CUresult copy2D(const CUDA_MEMCPY2D *C, void *Stream) {
  if (!C)
    return CUDA_ERROR_INVALID_VALUE;
  if (C->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
      C->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
    CUDA_MEMCPY3D C3{};
    C3.srcXInBytes = C->srcXInBytes;
    C3.srcY = C->srcY;
    C3.srcMemoryType = C->srcMemoryType;
    C3.srcHost = C->srcHost;
    C3.srcDevice = C->srcDevice;
    C3.srcArray = C->srcArray;
    C3.srcPitch = C->srcPitch;
    C3.srcHeight = C->Height;
    C3.dstXInBytes = C->dstXInBytes;
    C3.dstY = C->dstY;
    C3.dstMemoryType = C->dstMemoryType;
    C3.dstHost = C->dstHost;
    C3.dstDevice = C->dstDevice;
    C3.dstArray = C->dstArray;
    C3.dstPitch = C->dstPitch;
    C3.dstHeight = C->Height;
    C3.WidthInBytes = C->WidthInBytes;
    C3.Height = C->Height;
    C3.Depth = 1;
    return copyWithArrays(C3, Stream, Stream != NoStream); // DriverTexture.cpp
  }
  Side Src, Dst;
  if (CUresult R = side(C->srcMemoryType, C->srcHost, C->srcDevice,
                        C->srcArray, Src))
    return R;
  if (CUresult R = side(C->dstMemoryType, C->dstHost, C->dstDevice,
                        C->dstArray, Dst))
    return R;
  return copyBox(Src, C->srcY * C->srcPitch + C->srcXInBytes, C->srcPitch, 0,
                 Dst, C->dstY * C->dstPitch + C->dstXInBytes, C->dstPitch, 0,
                 C->WidthInBytes, C->Height, 1, Stream);
}

CUresult copy3D(const CUDA_MEMCPY3D *C, void *Stream) {
  if (!C)
    return CUDA_ERROR_INVALID_VALUE;
  if (C->srcLOD || C->dstLOD || C->reserved0 || C->reserved1)
    return CUDA_ERROR_INVALID_VALUE;
  if (C->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
      C->dstMemoryType == CU_MEMORYTYPE_ARRAY)
    return copyWithArrays(*C, Stream, Stream != NoStream); // DriverTexture.cpp
  Side Src, Dst;
  if (CUresult R = side(C->srcMemoryType, C->srcHost, C->srcDevice,
                        C->srcArray, Src))
    return R;
  if (CUresult R = side(C->dstMemoryType, C->dstHost, C->dstDevice,
                        C->dstArray, Dst))
    return R;
  size_t SrcSlice = C->srcPitch * C->srcHeight;
  size_t DstSlice = C->dstPitch * C->dstHeight;
  return copyBox(Src,
                 C->srcZ * SrcSlice + C->srcY * C->srcPitch + C->srcXInBytes,
                 C->srcPitch, SrcSlice, Dst,
                 C->dstZ * DstSlice + C->dstY * C->dstPitch + C->dstXInBytes,
                 C->dstPitch, DstSlice, C->WidthInBytes, C->Height, C->Depth,
                 Stream);
}
} // namespace

CUHIP_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *C) {
  return copy2D(C, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *C) {
  return copy2D(C, NoStream);
}
// The copies have no alignment requirement to relax.
CUHIP_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *C) {
  return copy2D(C, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *C) {
  return copy2D(C, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *C, CUstream S) {
  return copy2D(C, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *C,
                                              CUstream S) {
  return copy2D(C, perThreadStream(S));
}
CUHIP_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *C) {
  return copy3D(C, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *C) {
  return copy3D(C, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *C, CUstream S) {
  return copy3D(C, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *C,
                                              CUstream S) {
  return copy3D(C, perThreadStream(S));
}

//===----------------------------------------------------------------------===//
// Peer copies: with one device, copies within it. Each context names its
// device (a null one the current context's); the core checks the devices
// and copies as cudaMemcpyPeer does.
//===----------------------------------------------------------------------===//

namespace {
CUresult copyPeer(CUdeviceptr Dst, CUcontext DstCtx, CUdeviceptr Src,
                  CUcontext SrcCtx, size_t Bytes, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  CUdevice DstDev, SrcDev;
  if (CUresult R = contextDevice(DstCtx, &DstDev))
    return R;
  if (CUresult R = contextDevice(SrcCtx, &SrcDev))
    return R;
  bool Async = Stream != NoStream;
  return toCU(runtime().memcpyPeer(ptr(Dst), DstDev, ptr(Src), SrcDev, Bytes,
                                   Async ? Stream : nullptr, Async));
}

/// cuMemcpy3DPeer: cuMemcpy3D once the contexts are checked (an array side
/// has none).
CUresult copy3DPeer(const CUDA_MEMCPY3D_PEER *P, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  if (!P)
    return CUDA_ERROR_INVALID_VALUE;
  CUdevice Dev;
  if (P->srcMemoryType != CU_MEMORYTYPE_ARRAY)
    if (CUresult R = contextDevice(P->srcContext, &Dev))
      return R;
  if (P->dstMemoryType != CU_MEMORYTYPE_ARRAY)
    if (CUresult R = contextDevice(P->dstContext, &Dev))
      return R;
  CUDA_MEMCPY3D C = {};
  C.srcXInBytes = P->srcXInBytes;
  C.srcY = P->srcY;
  C.srcZ = P->srcZ;
  C.srcLOD = P->srcLOD;
  C.srcMemoryType = P->srcMemoryType;
  C.srcHost = P->srcHost;
  C.srcDevice = P->srcDevice;
  C.srcArray = P->srcArray;
  C.srcPitch = P->srcPitch;
  C.srcHeight = P->srcHeight;
  C.dstXInBytes = P->dstXInBytes;
  C.dstY = P->dstY;
  C.dstZ = P->dstZ;
  C.dstLOD = P->dstLOD;
  C.dstMemoryType = P->dstMemoryType;
  C.dstHost = P->dstHost;
  C.dstDevice = P->dstDevice;
  C.dstArray = P->dstArray;
  C.dstPitch = P->dstPitch;
  C.dstHeight = P->dstHeight;
  C.WidthInBytes = P->WidthInBytes;
  C.Height = P->Height;
  C.Depth = P->Depth;
  return copy3D(&C, Stream);
}
} // namespace

CUHIP_EXPORT CUresult cuMemcpyPeer(CUdeviceptr Dst, CUcontext DstCtx,
                                   CUdeviceptr Src, CUcontext SrcCtx,
                                   size_t Bytes) {
  return copyPeer(Dst, DstCtx, Src, SrcCtx, Bytes, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpyPeer_ptds(CUdeviceptr Dst, CUcontext DstCtx,
                                        CUdeviceptr Src, CUcontext SrcCtx,
                                        size_t Bytes) {
  return copyPeer(Dst, DstCtx, Src, SrcCtx, Bytes, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr Dst, CUcontext DstCtx,
                                        CUdeviceptr Src, CUcontext SrcCtx,
                                        size_t Bytes, CUstream S) {
  return copyPeer(Dst, DstCtx, Src, SrcCtx, Bytes, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr Dst, CUcontext DstCtx,
                                             CUdeviceptr Src, CUcontext SrcCtx,
                                             size_t Bytes, CUstream S) {
  return copyPeer(Dst, DstCtx, Src, SrcCtx, Bytes, perThreadStream(S));
}
CUHIP_EXPORT CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *P) {
  return copy3DPeer(P, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *P) {
  return copy3DPeer(P, NoStream);
}
CUHIP_EXPORT CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *P,
                                          CUstream S) {
  return copy3DPeer(P, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *P,
                                               CUstream S) {
  return copy3DPeer(P, perThreadStream(S));
}

//===----------------------------------------------------------------------===//
// Memsets
//===----------------------------------------------------------------------===//

namespace {
/// Fills Count elements of ElemSize bytes at Dst with Pattern. A pattern of
/// one repeated byte is the core's memset; others are copied from a host
/// buffer of the pattern in chunks, which works on every backend.
CUresult fill(CUdeviceptr Dst, uint32_t Pattern, unsigned ElemSize,
              size_t Count, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  if (Dst % ElemSize)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Runtime &RT = runtime();
  size_t Bytes = Count * ElemSize;
  uint8_t B0 = uint8_t(Pattern);
  bool Uniform = true;
  for (unsigned I = 1; I < ElemSize; ++I)
    Uniform &= uint8_t(Pattern >> (8 * I)) == B0;
  if (Uniform)
    return toCU(Stream == NoStream ? RT.memset(ptr(Dst), B0, Bytes)
                                   : RT.memsetAsync(ptr(Dst), B0, Bytes, Stream));
  if (Bytes && !RT.isDeviceRange(ptr(Dst), Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  // On a capturing stream the buffer below would be gone when the graph
  // runs: the pattern becomes a memset node of ElemSize-byte elements.
  if (Stream != NoStream && rt::capture::anyActive()) {
    rt::NodeOp Op;
    Op.K = rt::NodeOp::Memset;
    Op.Dst = ptr(Dst);
    Op.Value = Pattern;
    Op.ElementSize = ElemSize;
    Op.Width = Count;
    Op.Pitch = Bytes;
    bool Captured;
    rt::Status S = rt::capture::enqueue(Stream, std::move(Op), Captured);
    if (Captured)
      return toCU(RT.record(S));
  }
  constexpr size_t Chunk = 1 << 16;
  std::vector<uint8_t> Buf(std::min(Bytes, Chunk));
  for (size_t I = 0; I < Buf.size(); I += ElemSize)
    std::memcpy(Buf.data() + I, &Pattern, ElemSize);
  // The buffer is pageable host memory, which an asynchronous copy reads
  // before it returns (CUDA stages it), so it may be reused at once and
  // the Async forms stay in their stream's order.
  for (size_t Done = 0; Done < Bytes; Done += Buf.size()) {
    size_t N = std::min(Buf.size(), Bytes - Done);
    rt::Status S =
        Stream == NoStream
            ? RT.memcpy(ptr(Dst + Done), Buf.data(), N, CopyKind::HostToDevice)
            : RT.memcpyAsync(ptr(Dst + Done), Buf.data(), N,
                             CopyKind::HostToDevice, Stream);
    if (S)
      return toCU(S);
  }
  return CUDA_SUCCESS;
}

CUresult fill2D(CUdeviceptr Dst, size_t Pitch, uint32_t Pattern,
                unsigned ElemSize, size_t Width, size_t Height, void *Stream) {
  if (Height > 1 && Pitch < Width * ElemSize)
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t Y = 0; Y < Height; ++Y)
    if (CUresult R = fill(Dst + Y * Pitch, Pattern, ElemSize, Width, Stream))
      return R;
  return Height ? CUDA_SUCCESS : checkContext();
}
} // namespace

#define CUHIP_MEMSET_FAMILY(Bits, T)                                           \
  CUHIP_EXPORT CUresult cuMemsetD##Bits##_v2(CUdeviceptr D, T V, size_t N) {   \
    return fill(D, V, sizeof(T), N, NoStream);                                 \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD##Bits##_v2_ptds(CUdeviceptr D, T V,          \
                                                  size_t N) {                  \
    return fill(D, V, sizeof(T), N, NoStream);                                 \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD##Bits##Async(CUdeviceptr D, T V, size_t N,   \
                                               CUstream S) {                   \
    return fill(D, V, sizeof(T), N, coreStream(S));                            \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD##Bits##Async_ptsz(CUdeviceptr D, T V,        \
                                                    size_t N, CUstream S) {    \
    return fill(D, V, sizeof(T), N, perThreadStream(S));                       \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD2D##Bits##_v2(CUdeviceptr D, size_t P, T V,   \
                                               size_t W, size_t H) {           \
    return fill2D(D, P, V, sizeof(T), W, H, NoStream);                         \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD2D##Bits##_v2_ptds(                           \
      CUdeviceptr D, size_t P, T V, size_t W, size_t H) {                      \
    return fill2D(D, P, V, sizeof(T), W, H, NoStream);                         \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD2D##Bits##Async(                              \
      CUdeviceptr D, size_t P, T V, size_t W, size_t H, CUstream S) {          \
    return fill2D(D, P, V, sizeof(T), W, H, coreStream(S));                    \
  }                                                                            \
  CUHIP_EXPORT CUresult cuMemsetD2D##Bits##Async_ptsz(                         \
      CUdeviceptr D, size_t P, T V, size_t W, size_t H, CUstream S) {          \
    return fill2D(D, P, V, sizeof(T), W, H, perThreadStream(S));               \
  }

CUHIP_MEMSET_FAMILY(8, unsigned char)
CUHIP_MEMSET_FAMILY(16, unsigned short)
CUHIP_MEMSET_FAMILY(32, unsigned int)
#undef CUHIP_MEMSET_FAMILY

//===----------------------------------------------------------------------===//
// Stream-ordered allocation
//===----------------------------------------------------------------------===//

// From the device's current pool, as cudaMallocAsync; on a capturing
// stream they become allocation and free nodes of the graph.
namespace {
CUresult allocAsync(CUdeviceptr *DPtr, size_t Bytes, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  if (!DPtr)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = nullptr;
  CUresult R = toCU(runtime().mallocFromPoolAsync(&P, Bytes, nullptr, Stream));
  *DPtr = devptr(P);
  return R;
}

CUresult freeAsync(CUdeviceptr DPtr, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().freeAsync(ptr(DPtr), Stream));
}
} // namespace

//===----------------------------------------------------------------------===//
// Memory pools: the runtime core's (CUmemPool_attribute numbers are
// cudaMemPoolAttr's)
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *Pool,
                                      const CUmemPoolProps *Props) {
  if (CUresult R = checkContext())
    return R;
  if (!Pool || !Props)
    return CUDA_ERROR_INVALID_VALUE;
  rt::MemPoolProps P;
  P.AllocType = Props->allocType;
  P.HandleTypes = Props->handleTypes;
  P.LocationType = Props->location.type;
  P.LocationId = Props->location.id;
  P.MaxSize = Props->maxSize;
  void *H = nullptr;
  CUresult R = toCU(runtime().memPoolCreate(&H, P));
  *Pool = static_cast<CUmemoryPool>(H);
  return R;
}

CUHIP_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool Pool) {
  if (CUresult R = checkInit())
    return R;
  return toCU(runtime().memPoolDestroy(Pool));
}

CUHIP_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool Pool,
                                            CUmemPool_attribute Attr,
                                            void *Value) {
  if (CUresult R = checkInit())
    return R;
  return toCU(runtime().memPoolSetAttribute(Pool, int(Attr), Value));
}

CUHIP_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool Pool,
                                            CUmemPool_attribute Attr,
                                            void *Value) {
  if (CUresult R = checkInit())
    return R;
  return toCU(runtime().memPoolGetAttribute(Pool, int(Attr), Value));
}

CUHIP_EXPORT CUresult cuMemPoolExportToShareableHandle(
    void *Handle, CUmemoryPool Pool, CUmemAllocationHandleType HandleType,
    unsigned long long Flags) {
  if (CUresult R = checkInit())
    return R;
  if (Flags >> 32)
    return CUDA_ERROR_INVALID_VALUE;
  return toCU(runtime().memPoolExportToShareableHandle(Handle, Pool, HandleType,
                                                       unsigned(Flags)));
}

CUHIP_EXPORT CUresult cuMemPoolImportFromShareableHandle(
    CUmemoryPool *Pool, void *OsHandle, CUmemAllocationHandleType HandleType,
    unsigned long long Flags) {
  if (CUresult R = checkInit())
    return R;
  if (Flags >> 32)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = nullptr;
  CUresult R = toCU(runtime().memPoolImportFromShareableHandle(
      &P, OsHandle, HandleType, unsigned(Flags)));
  if (Pool)
    *Pool = static_cast<CUmemoryPool>(P);
  return R;
}

// Pools belong to devices, not contexts: no context needs to be current.
CUHIP_EXPORT CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *ExportData,
                                             CUdeviceptr Ptr) {
  if (CUresult R = checkInit())
    return R;
  return toCU(runtime().memPoolExportPointer(ExportData, ptr(Ptr)));
}

CUHIP_EXPORT CUresult cuMemPoolImportPointer(
    CUdeviceptr *Ptr, CUmemoryPool Pool, CUmemPoolPtrExportData *ExportData) {
  if (CUresult R = checkInit())
    return R;
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = nullptr;
  CUresult R = toCU(runtime().memPoolImportPointer(&P, Pool, ExportData));
  *Ptr = devptr(P);
  return R;
}

CUHIP_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool Pool,
                                      size_t MinBytesToKeep) {
  if (CUresult R = checkInit())
    return R;
  return toCU(runtime().memPoolTrimTo(Pool, MinBytesToKeep));
}

CUHIP_EXPORT CUresult cuMemPoolSetAccess(CUmemoryPool Pool,
                                         const CUmemAccessDesc *Map,
                                         size_t Count) {
  if (CUresult R = checkInit())
    return R;
  if (Count && !Map)
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<rt::VirtualAccess> A(Count);
  for (size_t I = 0; I < Count; ++I)
    A[I] = {Map[I].location.type, Map[I].location.id, Map[I].flags};
  return toCU(runtime().memPoolSetAccess(Pool, A.data(), Count));
}

CUHIP_EXPORT CUresult cuMemPoolGetAccess(CUmemAccess_flags *Flags,
                                         CUmemoryPool Pool,
                                         CUmemLocation *Location) {
  if (CUresult R = checkInit())
    return R;
  if (!Flags || !Location)
    return CUDA_ERROR_INVALID_VALUE;
  int F = 0;
  CUresult R = toCU(runtime().memPoolGetAccess(&F, Pool, Location->type,
                                               Location->id));
  if (R == CUDA_SUCCESS)
    *Flags = static_cast<CUmemAccess_flags>(F);
  return R;
}

static CUresult allocFromPool(CUdeviceptr *DPtr, size_t Bytes,
                              CUmemoryPool Pool, void *Stream) {
  if (CUresult R = checkContext())
    return R;
  if (!DPtr || !Pool)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = nullptr;
  CUresult R = toCU(runtime().mallocFromPoolAsync(&P, Bytes, Pool, Stream));
  *DPtr = devptr(P);
  return R;
}

CUHIP_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *DPtr, size_t Bytes,
                                              CUmemoryPool Pool, CUstream S) {
  return allocFromPool(DPtr, Bytes, Pool, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *DPtr,
                                                   size_t Bytes,
                                                   CUmemoryPool Pool,
                                                   CUstream S) {
  return allocFromPool(DPtr, Bytes, Pool, perThreadStream(S));
}

CUHIP_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *DPtr, size_t Bytes,
                                      CUstream S) {
  return allocAsync(DPtr, Bytes, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *DPtr, size_t Bytes,
                                           CUstream S) {
  return allocAsync(DPtr, Bytes, perThreadStream(S));
}
CUHIP_EXPORT CUresult cuMemFreeAsync(CUdeviceptr DPtr, CUstream S) {
  return freeAsync(DPtr, coreStream(S));
}
CUHIP_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr DPtr, CUstream S) {
  return freeAsync(DPtr, perThreadStream(S));
}

//===----------------------------------------------------------------------===//
// Interprocess handles (runtime/lib/Ipc.h)
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *Handle,
                                        CUdeviceptr Ptr) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().ipcGetMemHandle(Handle, ptr(Ptr)));
}

CUHIP_EXPORT CUresult cuIpcOpenMemHandle(CUdeviceptr *Ptr,
                                         CUipcMemHandle Handle,
                                         unsigned int Flags) {
  if (CUresult R = checkContext())
    return R;
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = nullptr;
  CUresult R = toCU(runtime().ipcOpenMemHandle(&P, &Handle, Flags));
  *Ptr = devptr(P);
  return R;
}

CUHIP_EXPORT CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *Ptr,
                                            CUipcMemHandle Handle,
                                            unsigned int Flags) {
  return cuIpcOpenMemHandle(Ptr, Handle, Flags);
}

CUHIP_EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr Ptr) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().ipcCloseMemHandle(ptr(Ptr)));
}

CUHIP_EXPORT CUresult cuIpcGetEventHandle(CUipcEventHandle *Handle,
                                          CUevent Event) {
  if (CUresult R = checkContext())
    return R;
  return toCU(runtime().ipcGetEventHandle(Handle, Event));
}

CUHIP_EXPORT CUresult cuIpcOpenEventHandle(CUevent *Event,
                                           CUipcEventHandle Handle) {
  if (CUresult R = checkContext())
    return R;
  if (!Event)
    return CUDA_ERROR_INVALID_VALUE;
  void *E = nullptr;
  CUresult R = toCU(runtime().ipcOpenEventHandle(&E, &Handle));
  *Event = static_cast<CUevent>(E);
  return R;
}
