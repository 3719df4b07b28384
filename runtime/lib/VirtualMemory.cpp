//===- VirtualMemory.cpp - cuMemCreate and its family on the HIP backend --===//
//
// CUDA's virtual memory management (physical allocations, address
// reservations, mappings and access rights) is, on the HIP backend, HIP's
// own hipMemCreate family, which mirrors it call for call. What the core
// adds is what CUDA programs rely on beyond HIP's calls: a range becomes a
// device range of the allocation table once it is accessible (so copies
// and launches accept it, and cudaFree refuses it), and stops being one
// when it is unmapped. On the CPU backend libcuda maps host memory itself
// (libcuda_shim/DriverVirtualMemory.cpp); these functions are only for the
// HIP backend and answer cudaErrorNotSupported elsewhere.
//
//===----------------------------------------------------------------------===//
#include "CoreAccess.h"
#include "HipBackend.h"

#include <map>
#include <mutex>
#include <vector>

namespace cuhip::rt {

namespace {
struct HipMappings {
  std::mutex Lock;
  std::map<uintptr_t, size_t> Mapped;   // base -> bytes, as cuMemMap made them
  std::map<uintptr_t, bool> Accessible; // mapping base -> a device range
};

HipMappings &mappings() {
  static HipMappings *M = new HipMappings; // outlives atexit handlers
  return *M;
}
} // namespace

bool Runtime::virtualMemoryOnHip() { return CoreAccess::hip(*this) != nullptr; }

Status Runtime::vmCreate(uint64_t *Handle, size_t Bytes, int Device,
                         unsigned long long Flags) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  return record(Hip->memCreate(Handle, Bytes, Device, Flags));
}

Status Runtime::vmRelease(uint64_t Handle) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  return record(Hip->memRelease(Handle));
}

Status Runtime::vmReserve(void **Ptr, size_t Bytes, size_t Alignment,
                          void *Addr, unsigned long long Flags) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  return record(Hip->memAddressReserve(Ptr, Bytes, Alignment, Addr, Flags));
}

Status Runtime::vmFree(void *Ptr, size_t Bytes) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  return record(Hip->memAddressFree(Ptr, Bytes));
}

Status Runtime::vmMap(void *Ptr, size_t Bytes, size_t Offset, uint64_t Handle,
                      unsigned long long Flags) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  HipMappings &M = mappings();
  std::lock_guard<std::mutex> G(M.Lock);
  if (Status S = Hip->memMap(Ptr, Bytes, Offset, Handle, Flags))
    return record(S);
  M.Mapped[reinterpret_cast<uintptr_t>(Ptr)] = Bytes;
  return cudaSuccess;
}

Status Runtime::vmUnmap(void *Ptr, size_t Bytes) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  HipMappings &M = mappings();
  std::lock_guard<std::mutex> G(M.Lock);
  // CUDA unmaps whole mappings, several side by side in one call; HIP's
  // calls take one mapping each. A range that is not whole mappings is
  // refused before anything changes.
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr), End = A + Bytes;
  std::vector<std::pair<uintptr_t, size_t>> Covered;
  for (uintptr_t At = A; At < End;) {
    auto It = M.Mapped.find(At);
    if (It == M.Mapped.end() || It->second > End - At)
      return record(cudaErrorInvalidValue);
    Covered.push_back(*It);
    At += It->second;
  }
  if (Covered.empty())
    return record(cudaErrorInvalidValue);
  for (auto [Base, Len] : Covered) {
    void *P = reinterpret_cast<void *>(Base);
    if (Status S = Hip->memUnmap(P, Len))
      return record(S);
    if (M.Accessible.erase(Base))
      (void)unregisterDeviceRange(P);
    M.Mapped.erase(Base);
  }
  return cudaSuccess;
}

Status Runtime::vmSetAccess(void *Ptr, size_t Bytes, const VirtualAccess *Desc,
                            size_t Count) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  HipMappings &M = mappings();
  std::lock_guard<std::mutex> G(M.Lock);
  if (Status S = Hip->memSetAccess(Ptr, Bytes, Desc, Count))
    return record(S);
  bool Access = false;
  for (size_t I = 0; I < Count; ++I)
    Access |= Desc[I].Flags != 0;
  // Each mapping in the range becomes (or stops being) a device range.
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr), End = A + Bytes;
  for (auto It = M.Mapped.lower_bound(A);
       It != M.Mapped.end() && It->first < End; ++It) {
    void *Base = reinterpret_cast<void *>(It->first);
    bool Known = M.Accessible.count(It->first);
    if (Access && !Known) {
      if (Status S = registerDeviceRange(Base, It->second))
        return S;
      M.Accessible[It->first] = true;
    } else if (!Access && Known) {
      (void)unregisterDeviceRange(Base);
      M.Accessible.erase(It->first);
    }
  }
  return cudaSuccess;
}

Status Runtime::vmGranularity(size_t *Granularity, int Device,
                              bool Recommended) {
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip)
    return record(cudaErrorNotSupported);
  return record(
      Hip->memGetAllocationGranularity(Granularity, Device, Recommended));
}

} // namespace cuhip::rt
