//===- DriverVirtualMemory.cpp - Virtual memory management (cuMem*) -------===//
//
// CUDA's virtual memory management separates physical allocations
// (cuMemCreate) from address ranges (cuMemAddressReserve) and joins them
// with cuMemMap and cuMemSetAccess. Where the device reads host memory (the
// CPU backend) this is what the host's own virtual memory does: a physical
// allocation is a memfd, a reservation an inaccessible anonymous mapping,
// a map a MAP_FIXED shared mapping of the memfd over part of it, and
// access a protection change, after which the range is a device range of
// the runtime core (copies and kernels accept it). On the HIP backend each
// call goes to the runtime core, which makes it HIP's (hipMemCreate and its
// family, runtime/lib/VirtualMemory.cpp); the granularity is then HIP's.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

#include <algorithm>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {

/// Physical allocations and reservations are rounded to this, as CUDA's
/// are to its granularity (2 MiB, which also suits huge pages).
constexpr size_t Granularity = 2 << 20;

struct Physical {
  int Fd = -1;
  size_t Size = 0;
  int HandleTypes = 0; // CUmemAllocationHandleType bits it may be exported as
};

/// CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR: the memfd itself, which another
/// process receives (over a Unix socket, SCM_RIGHTS) and imports.
constexpr int PosixFd = 1;

struct VmState {
  std::mutex Lock;
  std::map<CUmemGenericAllocationHandle, Physical> Handles;
  std::map<uintptr_t, size_t> Reservations; // base -> size
  std::map<uintptr_t, size_t> Mappings;     // base -> size
  std::map<uintptr_t, bool> Registered;     // mapping base -> in the core
  CUmemGenericAllocationHandle Next = 1;
};

VmState &vm() {
  static VmState *S = new VmState;
  return *S;
}

bool supported() { return runtime().deviceInfo(0).Integrated; }

CUresult checkProp(const CUmemAllocationProp *Prop) {
  // CU_MEM_ALLOCATION_TYPE_PINNED on CU_MEM_LOCATION_TYPE_DEVICE.
  if (!Prop || Prop->type != 1 || Prop->location.type != 1)
    return CUDA_ERROR_INVALID_VALUE;
  if (!isDevice(Prop->location.id))
    return CUDA_ERROR_INVALID_DEVICE;
  return CUDA_SUCCESS;
}

/// Is [A, A+Size) inside one reservation?
bool inReservation(VmState &S, uintptr_t A, size_t Size) {
  auto It = S.Reservations.upper_bound(A);
  if (It == S.Reservations.begin())
    return false;
  --It;
  return A >= It->first && A + Size <= It->first + It->second;
}

/// The mappings that exactly cover [A, A+Size), one after the other (false
/// if a gap, or a mapping that sticks out, leaves it not exactly covered).
bool coveredByMappings(VmState &S, uintptr_t A, size_t Size,
                       std::vector<std::pair<uintptr_t, size_t>> &Covered) {
  uintptr_t End = A + Size;
  while (A < End) {
    auto M = S.Mappings.find(A);
    if (M == S.Mappings.end())
      return false;
    Covered.push_back(*M);
    A += M->second;
  }
  return Size && A == End;
}

} // namespace

CUHIP_EXPORT CUresult cuMemGetAllocationGranularity(
    size_t *Gran, const CUmemAllocationProp *Prop,
    CUmemAllocationGranularity_flags Option) {
  if (CUresult R = checkInit())
    return R;
  if (!Gran || (Option != 0 && Option != 1)) // MINIMUM, RECOMMENDED
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult R = checkProp(Prop))
    return R;
  if (runtime().virtualMemoryOnHip())
    return toCU(runtime().vmGranularity(Gran, Prop->location.id, Option == 1));
  *Gran = Granularity;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *Handle,
                                  size_t Size, const CUmemAllocationProp *Prop,
                                  unsigned long long Flags) {
  // Physical allocations name their device in Prop and need no context.
  if (CUresult R = checkInit())
    return R;
  if (!Handle || !Size || Flags)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult R = checkProp(Prop))
    return R;
  if (runtime().virtualMemoryOnHip()) {
    uint64_t H = 0;
    CUresult R = toCU(runtime().vmCreate(&H, Size, Prop->location.id, Flags));
    if (R == CUDA_SUCCESS)
      *Handle = H;
    return R;
  }
  if (Size % Granularity)
    return CUDA_ERROR_INVALID_VALUE;
  if (!supported())
    return notSupported("cuMemCreate on a discrete device");
  int Fd = memfd_create("cuhip-cuMemCreate", MFD_CLOEXEC);
  if (Fd < 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  if (ftruncate(Fd, off_t(Size)) != 0) {
    close(Fd);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  *Handle = S.Next++;
  S.Handles[*Handle] = {Fd, Size, Prop->requestedHandleTypes};
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemExportToShareableHandle(
    void *Shareable, CUmemGenericAllocationHandle Handle,
    CUmemAllocationHandleType HandleType, unsigned long long Flags) {
  if (CUresult R = checkInit())
    return R;
  if (!Shareable || Flags)
    return CUDA_ERROR_INVALID_VALUE;
  if (runtime().virtualMemoryOnHip())
    return notSupported("cuMemExportToShareableHandle on the HIP backend");
  if (HandleType != PosixFd)
    return notSupported("shareable handles other than POSIX file descriptors");
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  auto It = S.Handles.find(Handle);
  if (It == S.Handles.end())
    return CUDA_ERROR_INVALID_VALUE;
  // CUDA exports only the handle types the allocation was created for.
  if (!(It->second.HandleTypes & PosixFd))
    return CUDA_ERROR_INVALID_VALUE;
  int Fd = dup(It->second.Fd);
  if (Fd < 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *static_cast<int *>(Shareable) = Fd;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemImportFromShareableHandle(
    CUmemGenericAllocationHandle *Handle, void *OsHandle,
    CUmemAllocationHandleType HandleType) {
  if (CUresult R = checkInit())
    return R;
  if (!Handle)
    return CUDA_ERROR_INVALID_VALUE;
  if (runtime().virtualMemoryOnHip())
    return notSupported("cuMemImportFromShareableHandle on the HIP backend");
  if (HandleType != PosixFd)
    return notSupported("shareable handles other than POSIX file descriptors");
  // The descriptor travels in the pointer's bits; the caller keeps it.
  int Given = int(reinterpret_cast<intptr_t>(OsHandle));
  struct stat St;
  if (Given < 0 || fstat(Given, &St) != 0 || !S_ISREG(St.st_mode) ||
      St.st_size <= 0 || size_t(St.st_size) % Granularity) {
    CUHIP_ERROR("cuMemImportFromShareableHandle: descriptor %d is not an "
                "allocation cuMemExportToShareableHandle exported",
                Given);
    return CUDA_ERROR_INVALID_VALUE;
  }
  int Fd = fcntl(Given, F_DUPFD_CLOEXEC, 0);
  if (Fd < 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  *Handle = S.Next++;
  S.Handles[*Handle] = {Fd, size_t(St.st_size), PosixFd};
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle Handle) {
  if (CUresult R = checkInit())
    return R;
  if (runtime().virtualMemoryOnHip())
    return toCU(runtime().vmRelease(Handle));
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  auto It = S.Handles.find(Handle);
  if (It == S.Handles.end())
    return CUDA_ERROR_INVALID_VALUE;
  // Mappings keep the memory: it is freed when the last one is unmapped,
  // as CUDA specifies.
  close(It->second.Fd);
  S.Handles.erase(It);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *Ptr, size_t Size,
                                          size_t Alignment, CUdeviceptr Addr,
                                          unsigned long long Flags) {
  if (CUresult R = checkInit())
    return R;
  if (!Ptr || !Size || Flags || (Alignment & (Alignment - 1)))
    return CUDA_ERROR_INVALID_VALUE;
  if (runtime().virtualMemoryOnHip()) {
    void *Base = nullptr;
    CUresult R =
        toCU(runtime().vmReserve(&Base, Size, Alignment, ptr(Addr), Flags));
    if (R == CUDA_SUCCESS)
      *Ptr = devptr(Base);
    return R;
  }
  if (Size % Granularity)
    return CUDA_ERROR_INVALID_VALUE;
  if (!supported())
    return notSupported("cuMemAddressReserve on a discrete device");
  size_t Align = std::max(Alignment, Granularity);
  size_t Len = Size + Align;
  void *Mem = mmap(ptr(Addr), Len, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Mem == MAP_FAILED)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // Keep the aligned part; give back the rest.
  uintptr_t Base = (uintptr_t(Mem) + Align - 1) & ~(Align - 1);
  if (Base > uintptr_t(Mem))
    munmap(Mem, Base - uintptr_t(Mem));
  uintptr_t End = uintptr_t(Mem) + Len;
  if (End > Base + Size)
    munmap(reinterpret_cast<void *>(Base + Size), End - (Base + Size));
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  S.Reservations[Base] = Size;
  *Ptr = CUdeviceptr(Base);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemAddressFree(CUdeviceptr Ptr, size_t Size) {
  if (CUresult R = checkInit())
    return R;
  if (runtime().virtualMemoryOnHip())
    return toCU(runtime().vmFree(ptr(Ptr), Size));
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  auto It = S.Reservations.find(uintptr_t(Ptr));
  if (It == S.Reservations.end() || It->second != Size)
    return CUDA_ERROR_INVALID_VALUE;
  auto M = S.Mappings.lower_bound(uintptr_t(Ptr));
  if (M != S.Mappings.end() && M->first < uintptr_t(Ptr) + Size)
    return CUDA_ERROR_INVALID_VALUE; // still mapped
  munmap(ptr(Ptr), Size);
  S.Reservations.erase(It);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemMap(CUdeviceptr Ptr, size_t Size, size_t Offset,
                               CUmemGenericAllocationHandle Handle,
                               unsigned long long Flags) {
  if (CUresult R = checkInit())
    return R;
  if (!Ptr || !Size || Flags)
    return CUDA_ERROR_INVALID_VALUE;
  if (runtime().virtualMemoryOnHip())
    return toCU(runtime().vmMap(ptr(Ptr), Size, Offset, Handle, Flags));
  if (Ptr % Granularity || Size % Granularity || Offset % Granularity)
    return CUDA_ERROR_INVALID_VALUE;
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  auto H = S.Handles.find(Handle);
  if (H == S.Handles.end() || Offset + Size > H->second.Size)
    return CUDA_ERROR_INVALID_VALUE;
  if (!inReservation(S, uintptr_t(Ptr), Size))
    return CUDA_ERROR_INVALID_VALUE;
  auto M = S.Mappings.upper_bound(uintptr_t(Ptr));
  if ((M != S.Mappings.end() && M->first < uintptr_t(Ptr) + Size) ||
      (M != S.Mappings.begin() &&
       std::prev(M)->first + std::prev(M)->second > uintptr_t(Ptr)))
    return CUDA_ERROR_INVALID_VALUE; // already mapped there
  void *Mem = mmap(ptr(Ptr), Size, PROT_NONE, MAP_SHARED | MAP_FIXED,
                   H->second.Fd, off_t(Offset));
  if (Mem == MAP_FAILED)
    return CUDA_ERROR_OUT_OF_MEMORY;
  S.Mappings[uintptr_t(Ptr)] = Size;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemUnmap(CUdeviceptr Ptr, size_t Size) {
  if (CUresult R = checkInit())
    return R;
  if (runtime().virtualMemoryOnHip())
    return toCU(runtime().vmUnmap(ptr(Ptr), Size));
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  // One call may unmap several whole mappings side by side, as CUDA's
  // does (a memory pool that grew piece by piece unmaps at once).
  std::vector<std::pair<uintptr_t, size_t>> Covered;
  if (!coveredByMappings(S, uintptr_t(Ptr), Size, Covered))
    return CUDA_ERROR_INVALID_VALUE;
  runtime().synchronize(); // no kernel may still use it
  for (auto [Base, Len] : Covered) {
    if (S.Registered.erase(Base))
      runtime().unregisterDeviceRange(ptr(Base));
    S.Mappings.erase(Base);
  }
  // Back to a reserved, inaccessible range.
  mmap(ptr(Ptr), Size, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuMemSetAccess(CUdeviceptr Ptr, size_t Size,
                                     const CUmemAccessDesc *Desc,
                                     size_t Count) {
  if (CUresult R = checkInit())
    return R;
  if (!Desc || !Count || !Size)
    return CUDA_ERROR_INVALID_VALUE;
  int Prot = PROT_NONE;
  for (size_t I = 0; I < Count; ++I) {
    if (Desc[I].location.type != 1 || !isDevice(Desc[I].location.id))
      return CUDA_ERROR_INVALID_DEVICE;
    // CU_MEM_ACCESS_FLAGS_PROT_NONE 0, _READ 1, _READWRITE 3.
    if (Desc[I].flags == 3)
      Prot = PROT_READ | PROT_WRITE;
    else if (Desc[I].flags == 1)
      Prot = PROT_READ;
    else if (Desc[I].flags != 0)
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (runtime().virtualMemoryOnHip()) {
    std::vector<rt::VirtualAccess> Access(Count);
    for (size_t I = 0; I < Count; ++I)
      Access[I] = {Desc[I].location.type, Desc[I].location.id,
                   int(Desc[I].flags)};
    return toCU(runtime().vmSetAccess(ptr(Ptr), Size, Access.data(), Count));
  }
  VmState &S = vm();
  std::lock_guard<std::mutex> G(S.Lock);
  std::vector<std::pair<uintptr_t, size_t>> Covered;
  if (!coveredByMappings(S, uintptr_t(Ptr), Size, Covered) ||
      mprotect(ptr(Ptr), Size, Prot) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  for (auto [Base, Len] : Covered) {
    bool &Reg = S.Registered[Base];
    if (Prot != PROT_NONE && !Reg) {
      if (rt::Status St = runtime().registerDeviceRange(ptr(Base), Len))
        return toCU(St);
      Reg = true;
    } else if (Prot == PROT_NONE && Reg) {
      runtime().unregisterDeviceRange(ptr(Base));
      S.Registered.erase(Base);
    }
  }
  return CUDA_SUCCESS;
}
