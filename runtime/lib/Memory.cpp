//===- Memory.cpp - Host, managed, pitched and pooled memory --------------===//
//
// The memory family beyond cudaMalloc: page-locked and registered host
// memory, managed memory, pitched 2D/3D copies and sets, peer copies,
// device variables by symbol, memory information and stream-ordered
// allocation from memory pools. On the CPU backend device memory is host
// memory, so page-locked, registered and managed memory all enter the core's
// allocation table (copies, kernels and memcheck accept them) and a table
// here remembers what each one is, which decides what cudaFree may do with
// it. Pools keep freed blocks reserved up to their release threshold and
// hand them out again; cudaFreeAsync waits for the stream's earlier work
// (and cudaFree for the device's), so a block freed on one stream is at once
// free for all. On
// the HIP backend page-locked, registered and managed memory, 2D copies
// and sets, stream-ordered allocation and memory pools are HIP's own calls
// (where the library has them); pool handles are then HIP's, and the
// tables here only remember which ones HIP gave out, so that an unknown
// handle is cudaErrorInvalidValue rather than something HIP dereferences.
//
//===----------------------------------------------------------------------===//
#include "CoreAccess.h"
#include "DeviceArena.h"
#include "HipBackend.h"

#include "cuhip/runtime/Graph.h"
#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cuhip::rt {

namespace {

// cudaHostAlloc* and cudaHostRegister* flags.
constexpr unsigned HostAllocFlagsMask = 0x7;
constexpr unsigned HostRegisterIoMemory = 0x4, HostRegisterFlagsMask = 0xf;
// cudaMemAttachGlobal, cudaMemAttachHost.
constexpr unsigned MemAttachGlobal = 0x1, MemAttachHost = 0x2;
// cudaMemLocationType.
enum : int {
  LocationNone = 0,
  LocationDevice = 1,
  LocationHost = 2,
  LocationHostNuma = 3,
  LocationHostNumaCurrent = 4,
};
// cudaMemPoolAttr.
enum : int {
  PoolReuseFollowEventDependencies = 1,
  PoolReuseAllowOpportunistic = 2,
  PoolReuseAllowInternalDependencies = 3,
  PoolReleaseThreshold = 4,
  PoolReservedMemCurrent = 5,
  PoolReservedMemHigh = 6,
  PoolUsedMemCurrent = 7,
  PoolUsedMemHigh = 8,
};

/// cudaMemHandleTypePosixFileDescriptor: the pools' shareable handle type.
constexpr int HandleTypePosixFd = 1;

/// A descriptor that closes itself; moves, never copies.
struct OwnedFd {
  int Fd = -1;
  OwnedFd() = default;
  explicit OwnedFd(int F) : Fd(F) {}
  OwnedFd(OwnedFd &&O) noexcept : Fd(O.Fd) { O.Fd = -1; }
  OwnedFd &operator=(OwnedFd &&O) noexcept {
    std::swap(Fd, O.Fd);
    return *this;
  }
  ~OwnedFd() {
    if (Fd >= 0)
      close(Fd);
  }
};

struct MemPool {
  MemPoolProps Props;
  bool Destroyed = false;
  /// Pools other processes may import (handle type POSIX file descriptor):
  /// a descriptor of their own that names the pool, which
  /// cudaMemPoolExportToShareableHandle duplicates; its inode tags the
  /// pool's exported pointers. Imported: a pool of another process, which
  /// only imports pointers.
  OwnedFd Share;
  uint64_t ShareIno = 0;
  bool Imported = false;
  uint64_t Threshold = 0;
  uint64_t Reserved = 0, ReservedHigh = 0, Used = 0, UsedHigh = 0;
  int Reuse[3] = {1, 1, 1}; // the three reuse attributes, in order
  /// Freed blocks still reserved, by size.
  std::multimap<size_t, void *> Cached;
};

/// Shared: a pointer imported from another process's pool.
enum class BlockKind { Pinned, Registered, Managed, Pool, Shared };

/// Memory that is not a plain cudaMalloc allocation.
struct Block {
  BlockKind Kind;
  size_t Bytes;
  unsigned Flags = 0;
  MemPool *Pool = nullptr; // BlockKind::Pool
  bool Cached = false;     // a pool block that was freed
  bool Tracked = true;     // in the core's allocation table
};

struct MemoryTables {
  std::mutex Lock; // taken before the core's allocation lock, never after
  std::map<uintptr_t, Block> Blocks; // base -> block
  MemPool DefaultPool;
  MemPool *Current = &DefaultPool;
  std::set<MemPool *> Pools{&DefaultPool};
  /// The HIP backend's pools (hipMemPool_t) that HIP handed out.
  std::set<void *> HipPools;

  /// The block that contains Ptr.
  std::map<uintptr_t, Block>::iterator containing(const void *Ptr) {
    uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
    auto It = Blocks.upper_bound(A);
    if (It == Blocks.begin())
      return Blocks.end();
    --It;
    return A - It->first < std::max<size_t>(It->second.Bytes, 1) ? It
                                                                  : Blocks.end();
  }
  /// Does [Ptr, Ptr+Bytes) overlap a page-locked or registered block?
  bool overlapsHostBlock(const void *Ptr, size_t Bytes) {
    uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
    for (const auto &[Base, B] : Blocks)
      if ((B.Kind == BlockKind::Pinned || B.Kind == BlockKind::Registered) &&
          A < Base + B.Bytes && Base < A + Bytes)
        return true;
    return false;
  }
};

MemoryTables &tables() {
  // Leaked like the runtime: programs free memory from atexit handlers.
  static MemoryTables *T = new MemoryTables;
  return *T;
}


Status checkDevice(int Device, Runtime &R) {
  if (Device < 0 || Device >= R.deviceCount())
    return cudaErrorInvalidDevice;
  return cudaSuccess;
}

/// Releases a pool's cached blocks, largest first, until at most Keep bytes
/// stay reserved. Called with the tables locked.
void shrinkPool(Runtime &R, MemoryTables &T, MemPool &Pool, uint64_t Keep) {
  while (Pool.Reserved > Keep && !Pool.Cached.empty()) {
    auto It = std::prev(Pool.Cached.end());
    void *Ptr = It->second;
    Pool.Reserved -= It->first;
    Pool.Cached.erase(It);
    T.Blocks.erase(reinterpret_cast<uintptr_t>(Ptr));
    CoreAccess::release(R, Ptr);
  }
}

/// Gives a live pool block back to its pool. Called with the tables locked.
void returnToPool(Runtime &R, MemoryTables &T, uintptr_t Base, Block &B) {
  MemPool *Pool = B.Pool;
  Pool->Used -= B.Bytes;
  if (Pool->Destroyed) {
    // The pool went away while this block was live: it goes with it.
    Pool->Reserved -= B.Bytes;
    T.Blocks.erase(Base);
    CoreAccess::release(R, reinterpret_cast<void *>(Base));
    if (Pool->Used == 0)
      delete Pool;
    return;
  }
  B.Cached = true;
  Pool->Cached.emplace(B.Bytes, reinterpret_cast<void *>(Base));
  shrinkPool(R, T, *Pool, Pool->Threshold);
}

/// A HIP pool call that hands out a pool: on success the handle is one the
/// other pool calls accept.
Status hipPoolResult(Runtime &R, Status S, void **Pool) {
  if (S)
    return R.record(S);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  T.HipPools.insert(*Pool);
  return cudaSuccess;
}

MemPool *livePool(MemoryTables &T, void *Handle) {
  auto *Pool = static_cast<MemPool *>(Handle);
  return T.Pools.count(Pool) ? Pool : nullptr;
}

} // namespace

/// Logs once per function that the HIP backend cannot do it yet.
Status notOnHip(Runtime &R, const char *What) {
  static std::mutex Lock;
  static std::set<std::string> Logged;
  std::lock_guard<std::mutex> G(Lock);
  if (Logged.insert(What).second)
    CUHIP_ERROR("%s is not implemented for the HIP backend; use "
                "CUHIP_BACKEND=cpu",
                What);
  return R.record(cudaErrorNotSupported);
}

FreeDecision decideFree(Runtime &R, void *Ptr) {
  // Memory of a graph's allocation node: freed for the graph's accounts,
  // its storage kept while a graph still holds its address.
  switch (graphmem::free(Ptr)) {
  case graphmem::FreeResult::NotGraphMemory:
    break;
  case graphmem::FreeResult::Refuse:
    return FreeDecision::Refuse;
  case graphmem::FreeResult::Kept:
    return FreeDecision::Done;
  case graphmem::FreeResult::Release:
    return FreeDecision::Release;
  }
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.Blocks.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == T.Blocks.end())
    return FreeDecision::Release;
  switch (It->second.Kind) {
  case BlockKind::Managed:
    T.Blocks.erase(It);
    return FreeDecision::Release;
  case BlockKind::Pool:
    if (It->second.Cached)
      return FreeDecision::Refuse; // freed already
    returnToPool(R, T, It->first, It->second);
    return FreeDecision::Done;
  case BlockKind::Shared:
    T.Blocks.erase(It);
    return FreeDecision::CloseShared;
  case BlockKind::Pinned:
  case BlockKind::Registered:
    break;
  }
  return FreeDecision::Refuse;
}

//===----------------------------------------------------------------------===//
// Page-locked, registered and managed memory
//===----------------------------------------------------------------------===//

Status Runtime::hostAlloc(void **Ptr, size_t Bytes, unsigned Flags) {
  if (!Ptr || (Flags & ~HostAllocFlagsMask))
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Status S = deviceStatus())
    return record(S);
  if (Bytes == 0)
    return cudaSuccess;
  MemoryTables &T = tables();
  Block B{BlockKind::Pinned, Bytes, Flags};
  // On the CPU backend page-locked memory is device memory (the device
  // arena's): kernels reach it through mapped pointers, and an overrun from
  // there must not reach the C heap either.
  void *Mem = nullptr;
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    // HIP's own page-locked memory, which HIP's copies know.
    Status S = Hip->hostMalloc(&Mem, Bytes, Flags);
    if (S == cudaErrorNotSupported)
      return notOnHip(*this, "cudaHostAlloc (the HIP library lacks "
                             "hipHostMalloc)");
    if (S)
      return record(S);
    B.Tracked = false;
  } else if (Status S = malloc(&Mem, Bytes)) {
    return S;
  }
  std::lock_guard<std::mutex> G(T.Lock);
  T.Blocks[reinterpret_cast<uintptr_t>(Mem)] = B;
  *Ptr = Mem;
  return cudaSuccess;
}

void resetMemoryTables(Runtime &R) {
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  std::set<MemPool *> Pools(T.Pools.begin(), T.Pools.end());
  for (auto &[Base, B] : T.Blocks) {
    void *Ptr = reinterpret_cast<void *>(Base);
    if (B.Pool)
      Pools.insert(B.Pool);
    HipBackend *Hip = CoreAccess::hip(R);
    switch (B.Kind) {
    case BlockKind::Pinned:
      if (B.Tracked)
        (void)CoreAccess::release(R, Ptr);
      else if (Hip)
        (void)Hip->hostFree(Ptr);
      break;
    case BlockKind::Registered:
      if (B.Tracked)
        CoreAccess::untrackRange(R, Ptr);
      else if (Hip)
        (void)Hip->hostUnregister(Ptr);
      break;
    case BlockKind::Managed:
    case BlockKind::Pool:
      (void)CoreAccess::release(R, Ptr);
      break;
    }
  }
  T.Blocks.clear();
  for (MemPool *P : Pools)
    if (P != &T.DefaultPool)
      delete P;
  T.DefaultPool = MemPool();
  T.Current = &T.DefaultPool;
  T.Pools = {&T.DefaultPool};
}

Status Runtime::freeHost(void *Ptr) {
  if (!Ptr)
    return cudaSuccess;
  if (Status S = deviceStatus())
    return record(S);
  // cudaFreeHost waits for the device, as cudaFree does.
  CoreAccess::waitIdle(*this);
  MemoryTables &T = tables();
  bool Tracked;
  {
    std::lock_guard<std::mutex> G(T.Lock);
    auto It = T.Blocks.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == T.Blocks.end() || It->second.Kind != BlockKind::Pinned) {
      CUHIP_DEBUG("cudaFreeHost(%p): not page-locked memory of "
                  "cudaMallocHost or cudaHostAlloc",
                  Ptr);
      return record(cudaErrorInvalidValue);
    }
    Tracked = It->second.Tracked;
    T.Blocks.erase(It);
  }
  if (!Tracked)
    return record(CoreAccess::hip(*this)->hostFree(Ptr));
  return CoreAccess::release(*this, Ptr);
}

Status Runtime::hostRegister(void *Ptr, size_t Bytes, unsigned Flags) {
  if (!Ptr || Bytes == 0 || (Flags & ~HostRegisterFlagsMask))
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (Flags & HostRegisterIoMemory) {
    CUHIP_ERROR("cudaHostRegister: cudaHostRegisterIoMemory (device I/O "
                "memory) is not supported");
    return record(cudaErrorNotSupported);
  }
  HipBackend *Hip = CoreAccess::hip(*this);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (T.overlapsHostBlock(Ptr, Bytes))
    return record(cudaErrorHostMemoryAlreadyRegistered);
  void *Base;
  size_t Size;
  const char *P = static_cast<const char *>(Ptr);
  if (CoreAccess::findAllocation(*this, P, &Base, &Size) ||
      CoreAccess::findAllocation(*this, P + Bytes - 1, &Base, &Size)) {
    // Device (or managed) memory is not host memory to register.
    return record(cudaErrorInvalidValue);
  }
  Block B{BlockKind::Registered, Bytes, Flags};
  B.Tracked = !Hip;
  if (Hip) {
    Status S = Hip->hostRegister(Ptr, Bytes, Flags);
    if (S == cudaErrorNotSupported)
      return notOnHip(*this, "cudaHostRegister (the HIP library lacks "
                             "hipHostRegister)");
    if (S)
      return record(S);
  } else {
    CoreAccess::trackRange(*this, Ptr, Bytes);
  }
  T.Blocks[reinterpret_cast<uintptr_t>(Ptr)] = B;
  return cudaSuccess;
}

Status Runtime::hostUnregister(void *Ptr) {
  if (!Ptr)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  // Queued work may still read or write the range.
  CoreAccess::waitIdle(*this);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.Blocks.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == T.Blocks.end() || It->second.Kind != BlockKind::Registered)
    return record(cudaErrorHostMemoryNotRegistered);
  bool Tracked = It->second.Tracked;
  T.Blocks.erase(It);
  if (!Tracked)
    return record(CoreAccess::hip(*this)->hostUnregister(Ptr));
  CoreAccess::untrackRange(*this, Ptr);
  return cudaSuccess;
}

Status Runtime::hostGetDevicePointer(void **DevPtr, void *HostPtr,
                                     unsigned Flags) {
  if (!DevPtr || !HostPtr || Flags != 0)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.containing(HostPtr);
  if (It == T.Blocks.end() || (It->second.Kind != BlockKind::Pinned &&
                               It->second.Kind != BlockKind::Registered))
    return record(cudaErrorInvalidValue);
  if (!It->second.Tracked) {
    // HIP maps the whole block; an inner pointer keeps its offset.
    void *Base = nullptr;
    if (Status S = CoreAccess::hip(*this)->hostGetDevicePointer(
            &Base, reinterpret_cast<void *>(It->first)))
      return record(S);
    *DevPtr = static_cast<char *>(Base) +
              (reinterpret_cast<uintptr_t>(HostPtr) - It->first);
    return cudaSuccess;
  }
  // The CPU backend's kernels address host memory directly.
  *DevPtr = HostPtr;
  return cudaSuccess;
}

Status Runtime::hostGetFlags(unsigned *Flags, void *HostPtr) {
  if (!Flags || !HostPtr)
    return record(cudaErrorInvalidValue);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.containing(HostPtr);
  if (It == T.Blocks.end() || (It->second.Kind != BlockKind::Pinned &&
                               It->second.Kind != BlockKind::Registered))
    return record(cudaErrorInvalidValue);
  *Flags = It->second.Flags;
  return cudaSuccess;
}

Status Runtime::mallocManaged(void **Ptr, size_t Bytes, unsigned Flags) {
  if (!Ptr || Bytes == 0 || (Flags != MemAttachGlobal && Flags != MemAttachHost))
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Status S = deviceStatus())
    return record(S);
  void *Mem;
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    Status S = Hip->mallocManaged(&Mem, Bytes, Flags);
    if (S == cudaErrorNotSupported)
      return notOnHip(*this, "cudaMallocManaged (the HIP library lacks "
                             "hipMallocManaged)");
    if (S)
      return record(S);
    // In the allocation table like hipMalloc memory; hipFree frees it.
    CoreAccess::trackRange(*this, Mem, Bytes);
  } else if (Status S = malloc(&Mem, Bytes)) {
    return S;
  }
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  T.Blocks[reinterpret_cast<uintptr_t>(Mem)] = {BlockKind::Managed, Bytes,
                                                Flags};
  *Ptr = Mem;
  return cudaSuccess;
}

/// Is [Ptr, Ptr+Bytes) inside one managed allocation?
static bool isManagedRange(const void *Ptr, size_t Bytes) {
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  auto It = T.containing(Ptr);
  if (It == T.Blocks.end() || It->second.Kind != BlockKind::Managed)
    return false;
  size_t Offset = reinterpret_cast<uintptr_t>(Ptr) - It->first;
  return Bytes <= It->second.Bytes - Offset;
}

/// The checks of a memory location argument (cudaMemLocation).
static Status checkLocation(Runtime &R, int Type, int Id) {
  switch (Type) {
  case LocationDevice:
    return checkDevice(Id, R);
  case LocationHost:
  case LocationHostNuma:
  case LocationHostNumaCurrent:
    return cudaSuccess;
  default:
    return cudaErrorInvalidValue;
  }
}

Status Runtime::memAdvise(const void *Ptr, size_t Bytes, int Advice,
                          int LocationType, int LocationId) {
  if (!Ptr || Bytes == 0 || Advice < 1 || Advice > 6)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  // Setting a preferred location or an accessor names a location.
  bool NamesLocation = Advice == 3 || Advice == 5;
  if (NamesLocation)
    if (Status S = checkLocation(*this, LocationType, LocationId))
      return record(S);
  if (!isManagedRange(Ptr, Bytes))
    return record(cudaErrorInvalidValue);
  return cudaSuccess;
}

Status Runtime::memPrefetchAsync(const void *Ptr, size_t Bytes,
                                 int LocationType, int LocationId,
                                 unsigned Flags, void *Stream) {
  if (!Ptr || Bytes == 0 || Flags != 0)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (Status S = checkLocation(*this, LocationType, LocationId))
    return record(S);
  void *HipStream;
  if (Status S = CoreAccess::resolveStream(*this, Stream, &HipStream))
    return record(S);
  if (!isManagedRange(Ptr, Bytes))
    return record(cudaErrorInvalidValue);
  // Memory never moves, so a captured prefetch is an empty node: it keeps
  // the capture's order and the legacy-stream rules, and does nothing.
  bool Captured = false;
  if (capture::anyActive())
    if (Status S = capture::enqueue(Stream, NodeOp{}, Captured); Captured)
      return record(S);
  return cudaSuccess;
}

Status Runtime::pointerGetAttributes(PointerAttributes *Attr, const void *Ptr) {
  if (!Attr)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  *Attr = PointerAttributes();
  void *P = const_cast<void *>(Ptr);
  {
    MemoryTables &T = tables();
    std::lock_guard<std::mutex> G(T.Lock);
    auto It = T.containing(Ptr);
    if (It != T.Blocks.end() && !It->second.Cached) {
      const Block &B = It->second;
      Attr->Device = 0;
      switch (B.Kind) {
      case BlockKind::Pinned:
      case BlockKind::Registered:
        Attr->Type = MemoryType::Host;
        Attr->HostPointer = P;
        Attr->DevicePointer = B.Tracked ? P : nullptr;
        return cudaSuccess;
      case BlockKind::Managed:
        Attr->Type = MemoryType::Managed;
        Attr->HostPointer = Attr->DevicePointer = P;
        return cudaSuccess;
      case BlockKind::Pool:
        Attr->Type = MemoryType::Device;
        Attr->DevicePointer = P;
        return cudaSuccess;
      }
    }
  }
  void *Base;
  size_t Size;
  if (CoreAccess::findAllocation(*this, Ptr, &Base, &Size)) {
    Attr->Type = MemoryType::Device;
    Attr->Device = 0;
    Attr->DevicePointer = P;
    return cudaSuccess;
  }
  // CUDA 11 and later: memory CUDA does not know is "unregistered", and the
  // host may use the pointer as it is.
  Attr->HostPointer = P;
  return cudaSuccess;
}

Status Runtime::memGetInfo(size_t *Free, size_t *Total) {
  if (!Free || !Total)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    Status S = Hip->memGetInfo(Free, Total);
    if (S != cudaErrorNotSupported)
      return record(S);
  }
  size_t TotalBytes = deviceInfo(0).TotalGlobalMem;
  size_t Used;
  if (CoreAccess::hip(*this)) {
    // A HIP library without hipMemGetInfo: the bytes asked for.
    Used = CoreAccess::trackedBytes(*this);
    MemoryTables &T = tables();
    std::lock_guard<std::mutex> G(T.Lock);
    for (const auto &[Base, B] : T.Blocks)
      if ((B.Kind == BlockKind::Registered || B.Kind == BlockKind::Pinned) &&
          B.Tracked)
        Used -= std::min(Used, B.Bytes);
  } else {
    // What allocations take from the device arena, rounding and slack
    // included, as a GPU counts whole allocation units; page-locked memory
    // is there too but is the host's, not the device's.
    DeviceArena &A = deviceArena();
    Used = A.bytesInUse();
    MemoryTables &T = tables();
    std::lock_guard<std::mutex> G(T.Lock);
    for (const auto &[Base, B] : T.Blocks)
      if (B.Kind == BlockKind::Pinned)
        Used -= std::min(Used, A.footprint(reinterpret_cast<void *>(Base)));
  }
  size_t FreeBytes = TotalBytes - std::min(TotalBytes, Used);
  if (!CoreAccess::hip(*this)) {
    // Device memory is the host's: never promise more than it has free.
    long Pages = sysconf(_SC_AVPHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
    if (Pages > 0 && PageSize > 0)
      FreeBytes = std::min(FreeBytes, size_t(Pages) * size_t(PageSize));
  }
  *Free = FreeBytes;
  *Total = TotalBytes;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Pitched memory, 2D/3D copies and sets, peer copies
//===----------------------------------------------------------------------===//

/// Rows of pitched allocations start 256 bytes apart at least, as cudaMalloc
/// aligns allocations, so each row is as aligned as the allocation.
static constexpr size_t PitchAlignment = 256;

Status Runtime::mallocPitch(void **Ptr, size_t *Pitch, size_t WidthBytes,
                            size_t Height) {
  if (!Ptr || !Pitch)
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  size_t P = (WidthBytes + PitchAlignment - 1) & ~(PitchAlignment - 1);
  if (P < WidthBytes || (Height && P > SIZE_MAX / Height))
    return record(cudaErrorMemoryAllocation);
  *Pitch = P;
  return malloc(Ptr, P * Height);
}

namespace {
/// The bytes a pitched region spans from its first byte.
bool regionSpan(const PitchedSide &S, size_t Width, size_t Height,
                size_t Depth, size_t &Span) {
  // (Depth - 1) slices, (Height - 1) rows, one row of Width.
  __uint128_t Bytes = __uint128_t(Depth - 1) * S.Pitch * S.Height +
                      __uint128_t(Height - 1) * S.Pitch + Width;
  if (Bytes > SIZE_MAX)
    return false;
  Span = size_t(Bytes);
  return true;
}

/// A pitched copy on the CPU backend: one move when the rows follow each
/// other on both sides, else row by row.
void copyPitched(const PitchedSide &Dst, const PitchedSide &Src,
                 size_t WidthBytes, size_t Height, size_t Depth, bool Dense) {
  if (Dense) {
    std::memmove(Dst.Ptr, Src.Ptr, WidthBytes * Height * Depth);
    return;
  }
  for (size_t Z = 0; Z < Depth; ++Z)
    for (size_t Y = 0; Y < Height; ++Y)
      std::memmove(
          static_cast<char *>(Dst.Ptr) + (Z * Dst.Height + Y) * Dst.Pitch,
          static_cast<const char *>(Src.Ptr) + (Z * Src.Height + Y) * Src.Pitch,
          WidthBytes);
}

/// The same for a pitched memset.
void setPitched(const PitchedSide &Dst, int Value, size_t WidthBytes,
                size_t Height, size_t Depth, bool Dense) {
  if (Dense) {
    std::memset(Dst.Ptr, Value, WidthBytes * Height * Depth);
    return;
  }
  for (size_t Z = 0; Z < Depth; ++Z)
    for (size_t Y = 0; Y < Height; ++Y)
      std::memset(static_cast<char *>(Dst.Ptr) +
                      (Z * Dst.Height + Y) * Dst.Pitch,
                  Value, WidthBytes);
}

/// Does a side of a copy that must be device memory lie in one allocation?
/// A side the kind says is host memory is the program's business.
bool deviceSideOk(Runtime &R, const PitchedSide &S, size_t Width,
                  size_t Height, size_t Depth, bool MustBeDevice) {
  size_t Span;
  if (!regionSpan(S, Width, Height, Depth, Span))
    return false;
  if (MustBeDevice)
    return R.isDeviceRange(S.Ptr, Span);
  // cudaMemcpyDefault: a range that starts in an allocation must end in it.
  void *Base;
  size_t Bytes;
  if (CoreAccess::findAllocation(R, S.Ptr, &Base, &Bytes))
    return R.isDeviceRange(S.Ptr, Span);
  return true;
}

/// Enqueues the nodes Make builds for slice 0 .. Slices-1 on a capturing
/// Stream, in order, so they form a chain as the stream would run them.
/// Captured is as capture::enqueue sets it: when the stream is not
/// capturing, nothing is enqueued and the caller does the work.
template <typename MakeFn>
Status enqueueSlices(void *Stream, size_t Slices, MakeFn Make, bool &Captured) {
  Captured = false;
  if (!capture::anyActive())
    return cudaSuccess;
  for (size_t Z = 0; Z < Slices; ++Z) {
    bool Took;
    Status S = capture::enqueue(Stream, Make(Z), Took);
    Captured |= Took;
    if (!Took || S)
      return S;
  }
  return cudaSuccess;
}

/// The capture of an asynchronous 3D copy: one memcpy node for contiguous
/// regions, one 2D memcpy node where the slices follow each other on both
/// sides (every 2D copy), else one 2D node per slice.
Status captureCopy3D(void *Stream, const PitchedSide &Dst,
                     const PitchedSide &Src, size_t Width, size_t Height,
                     size_t Depth, CopyKind Kind, bool Dense, bool &Captured) {
  bool Uniform = Depth == 1 || (Dst.Height == Height && Src.Height == Height);
  size_t Slices = Dense || Uniform ? 1 : Depth;
  size_t Rows = Dense ? 1 : Uniform ? Height * Depth : Height;
  return enqueueSlices(
      Stream, Slices,
      [&](size_t Z) {
        NodeOp Op;
        Op.K = NodeOp::Memcpy;
        Op.Copy = Kind;
        Op.Dst = static_cast<char *>(Dst.Ptr) + Z * Dst.Height * Dst.Pitch;
        Op.Src =
            static_cast<const char *>(Src.Ptr) + Z * Src.Height * Src.Pitch;
        if (Dense) {
          Op.Bytes = Width * Height * Depth;
          return Op;
        }
        Op.Bytes = Width * Rows;
        Op.Width = Width;
        Op.Height = Rows;
        Op.Pitch = Dst.Pitch;
        Op.SrcPitch = Src.Pitch;
        return Op;
      },
      Captured);
}

/// The capture of an asynchronous 3D memset: byte-memset nodes, split as
/// captureCopy3D splits copies.
Status captureSet3D(void *Stream, const PitchedSide &Dst, int Value,
                    size_t Width, size_t Height, size_t Depth, bool Dense,
                    bool &Captured) {
  bool Uniform = Depth == 1 || Dst.Height == Height;
  size_t Slices = Dense || Uniform ? 1 : Depth;
  return enqueueSlices(
      Stream, Slices,
      [&](size_t Z) {
        NodeOp Op;
        Op.K = NodeOp::Memset;
        Op.Dst = static_cast<char *>(Dst.Ptr) + Z * Dst.Height * Dst.Pitch;
        Op.Value = unsigned(Value) & 0xff;
        Op.ElementSize = 1;
        Op.Width = Dense ? Width * Height * Depth : Width;
        Op.Height = Dense ? 1 : Uniform ? Height * Depth : Height;
        Op.Pitch = Dense ? Op.Width : Dst.Pitch;
        return Op;
      },
      Captured);
}

} // namespace

Status Runtime::memcpy3D(PitchedSide Dst, PitchedSide Src, size_t WidthBytes,
                         size_t Height, size_t Depth, CopyKind Kind,
                         void *Stream, bool Async) {
  int K = static_cast<int>(Kind);
  if (K < 0 || K > 4)
    return record(cudaErrorInvalidMemcpyDirection);
  if (Status S = deviceStatus())
    return record(S);
  void *HipStream = nullptr;
  if (Async)
    if (Status S = CoreAccess::resolveStream(*this, Stream, &HipStream))
      return record(S);
  if (WidthBytes == 0 || Height == 0 || Depth == 0)
    return cudaSuccess;
  if (!Dst.Ptr || !Src.Ptr)
    return record(cudaErrorInvalidValue);
  // A pitch narrower than a row, or (where rows are several) wider than
  // cudaDeviceProp::memPitch allows, is an invalid pitch.
  constexpr size_t MaxPitch = 0x7fffffff;
  bool MultiRow = Height > 1 || Depth > 1;
  if (Dst.Pitch < WidthBytes || Src.Pitch < WidthBytes ||
      (MultiRow && (Dst.Pitch > MaxPitch || Src.Pitch > MaxPitch)))
    return record(cudaErrorInvalidPitchValue);
  if (Depth > 1 && (Dst.Height < Height || Src.Height < Height))
    return record(cudaErrorInvalidValue);
  if (Status S = stickyError())
    return record(S);
  bool DstDev = Kind == CopyKind::HostToDevice || Kind == CopyKind::DeviceToDevice;
  bool SrcDev = Kind == CopyKind::DeviceToHost || Kind == CopyKind::DeviceToDevice;
  bool Default = Kind == CopyKind::Default;
  if ((DstDev || Default) &&
      !deviceSideOk(*this, Dst, WidthBytes, Height, Depth, DstDev))
    return record(cudaErrorInvalidValue);
  if ((SrcDev || Default) &&
      !deviceSideOk(*this, Src, WidthBytes, Height, Depth, SrcDev))
    return record(cudaErrorInvalidValue);
  // Rows that follow each other without a gap on both sides are one copy.
  bool DstDense =
      Dst.Pitch == WidthBytes && (Depth == 1 || Dst.Height == Height);
  bool SrcDense =
      Src.Pitch == WidthBytes && (Depth == 1 || Src.Height == Height);
  bool Dense = (DstDense && SrcDense) || !MultiRow;
  if (!Async) {
    // A synchronous copy goes through the legacy stream.
    if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/true))
      return record(S);
  } else {
    bool Captured;
    Status S = captureCopy3D(Stream, Dst, Src, WidthBytes, Height, Depth, Kind,
                             Dense, Captured);
    if (Captured)
      return record(S);
  }

  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip) {
    // One operation in the stream's order; a synchronous copy runs here once
    // the legacy stream's earlier work has finished. With pageable host
    // memory on a side the host waits for it (CUDA stages such copies).
    auto Run = [=] {
      copyPitched(Dst, Src, WidthBytes, Height, Depth, Dense);
    };
    if (!Async) {
      if (Status S = CoreAccess::waitForLegacy(*this))
        return record(S);
      Run();
      return cudaSuccess;
    }
    bool Pageable = !isDeviceRange(Dst.Ptr, 1) || !isDeviceRange(Src.Ptr, 1);
    return record(CoreAccess::enqueueFunction(*this, Stream, Run, Pageable));
  }
  auto copy = [&](char *D, const char *S, size_t N) -> Status {
    return Async ? Hip->memcpyAsync(D, S, N, Kind, HipStream)
                 : CoreAccess::deviceResult(*this, Hip->memcpy(D, S, N, Kind));
  };
  if (Dense)
    return record(copy(static_cast<char *>(Dst.Ptr),
                       static_cast<const char *>(Src.Ptr),
                       WidthBytes * Height * Depth));
  for (size_t Z = 0; Z < Depth; ++Z) {
    char *D = static_cast<char *>(Dst.Ptr) + Z * Dst.Height * Dst.Pitch;
    const char *S =
        static_cast<const char *>(Src.Ptr) + Z * Src.Height * Src.Pitch;
    if (Hip) {
      // A slice is one of HIP's 2D copies where the library has them.
      Status St = Hip->memcpy2D(D, Dst.Pitch, S, Src.Pitch, WidthBytes,
                                Height, Kind, HipStream, Async);
      if (!Async)
        St = CoreAccess::deviceResult(*this, St);
      if (St != cudaErrorNotSupported) {
        if (St)
          return record(St);
        continue;
      }
    }
    for (size_t Y = 0; Y < Height; ++Y) {
      char *D = static_cast<char *>(Dst.Ptr) + (Z * Dst.Height + Y) * Dst.Pitch;
      const char *S =
          static_cast<const char *>(Src.Ptr) + (Z * Src.Height + Y) * Src.Pitch;
      if (Status St = copy(D, S, WidthBytes))
        return record(St);
    }
  }
  return cudaSuccess;
}

Status Runtime::memset3D(PitchedSide Dst, int Value, size_t WidthBytes,
                         size_t Height, size_t Depth, void *Stream,
                         bool Async) {
  if (Status S = deviceStatus())
    return record(S);
  void *HipStream = nullptr;
  if (Async)
    if (Status S = CoreAccess::resolveStream(*this, Stream, &HipStream))
      return record(S);
  if (WidthBytes == 0 || Height == 0 || Depth == 0)
    return cudaSuccess;
  bool MultiRow = Height > 1 || Depth > 1;
  if (!Dst.Ptr || Dst.Pitch < WidthBytes ||
      (Depth > 1 && Dst.Height < Height))
    return record(cudaErrorInvalidValue);
  if (Status S = stickyError())
    return record(S);
  if (!deviceSideOk(*this, Dst, WidthBytes, Height, Depth, true))
    return record(cudaErrorInvalidValue);
  bool Dense = Dst.Pitch == WidthBytes && (Depth == 1 || Dst.Height == Height);
  if (!Async) {
    if (Status S = capture::checkUnsafeCall(/*TouchesLegacy=*/true))
      return record(S);
  } else {
    bool Captured;
    Status S = captureSet3D(Stream, Dst, Value, WidthBytes, Height, Depth,
                            Dense || !MultiRow, Captured);
    if (Captured)
      return record(S);
  }
  HipBackend *Hip = CoreAccess::hip(*this);
  if (!Hip) {
    bool Whole = Dense || !MultiRow;
    auto Run = [=] { setPitched(Dst, Value, WidthBytes, Height, Depth, Whole); };
    if (!Async) {
      if (Status S = CoreAccess::waitForLegacy(*this))
        return record(S);
      Run();
      return cudaSuccess;
    }
    return record(CoreAccess::enqueueFunction(*this, Stream, Run, false));
  }
  auto set = [&](char *D, size_t N) -> Status {
    return Async ? Hip->memsetAsync(D, Value, N, HipStream)
                 : CoreAccess::deviceResult(*this, Hip->memset(D, Value, N));
  };
  if (Dense || !MultiRow)
    return record(set(static_cast<char *>(Dst.Ptr), WidthBytes * Height * Depth));
  for (size_t Z = 0; Z < Depth; ++Z) {
    char *Slice = static_cast<char *>(Dst.Ptr) + Z * Dst.Height * Dst.Pitch;
    if (Hip) {
      Status St = Hip->memset2D(Slice, Dst.Pitch, Value, WidthBytes, Height,
                                HipStream, Async);
      if (!Async)
        St = CoreAccess::deviceResult(*this, St);
      if (St != cudaErrorNotSupported) {
        if (St)
          return record(St);
        continue;
      }
    }
    for (size_t Y = 0; Y < Height; ++Y)
      if (Status St = set(Slice + Y * Dst.Pitch, WidthBytes))
        return record(St);
  }
  return cudaSuccess;
}

Status Runtime::memcpyPeer(void *Dst, int DstDevice, const void *Src,
                           int SrcDevice, size_t Bytes, void *Stream,
                           bool Async) {
  if (Status S = deviceStatus())
    return record(S);
  if (checkDevice(DstDevice, *this) || checkDevice(SrcDevice, *this))
    return record(cudaErrorInvalidDevice);
  PitchedSide D{Dst, Bytes, 1}, S{const_cast<void *>(Src), Bytes, 1};
  return memcpy3D(D, S, Bytes, 1, 1, CopyKind::DeviceToDevice, Stream, Async);
}

//===----------------------------------------------------------------------===//
// Device variables
//===----------------------------------------------------------------------===//

Status Runtime::memcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Bytes, size_t Offset, CopyKind Kind,
                               void *Stream, bool Async) {
  // The source may be host or device memory; the symbol is the device side.
  if (Kind != CopyKind::HostToDevice && Kind != CopyKind::DeviceToDevice &&
      Kind != CopyKind::Default)
    return record(cudaErrorInvalidMemcpyDirection);
  void *Addr;
  size_t Size;
  if (Status S = symbolAddress(Symbol, &Addr, &Size))
    return S;
  if (Offset > Size || Bytes > Size - Offset)
    return record(cudaErrorInvalidValue);
  char *Dst = static_cast<char *>(Addr) + Offset;
  PitchedSide D{Dst, Bytes, 1}, S{const_cast<void *>(Src), Bytes, 1};
  return memcpy3D(D, S, Bytes, 1, 1, Kind, Stream, Async);
}

Status Runtime::memcpyFromSymbol(void *Dst, const void *Symbol, size_t Bytes,
                                 size_t Offset, CopyKind Kind, void *Stream,
                                 bool Async) {
  if (Kind != CopyKind::DeviceToHost && Kind != CopyKind::DeviceToDevice &&
      Kind != CopyKind::Default)
    return record(cudaErrorInvalidMemcpyDirection);
  void *Addr;
  size_t Size;
  if (Status S = symbolAddress(Symbol, &Addr, &Size))
    return S;
  if (Offset > Size || Bytes > Size - Offset)
    return record(cudaErrorInvalidValue);
  const char *Src = static_cast<const char *>(Addr) + Offset;
  PitchedSide D{Dst, Bytes, 1}, S{const_cast<char *>(Src), Bytes, 1};
  return memcpy3D(D, S, Bytes, 1, 1, Kind, Stream, Async);
}

//===----------------------------------------------------------------------===//
// Memory pools and stream-ordered allocation
//===----------------------------------------------------------------------===//

Status Runtime::deviceGetDefaultMemPool(void **Pool, int Device) {
  if (!Pool)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (Status S = checkDevice(Device, *this))
    return record(S);
  if (HipBackend *Hip = CoreAccess::hip(*this))
    return hipPoolResult(*this, Hip->deviceGetDefaultMemPool(Pool, Device),
                         Pool);
  *Pool = &tables().DefaultPool;
  return cudaSuccess;
}

Status Runtime::deviceGetMemPool(void **Pool, int Device) {
  if (!Pool)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (Status S = checkDevice(Device, *this))
    return record(S);
  if (HipBackend *Hip = CoreAccess::hip(*this))
    return hipPoolResult(*this, Hip->deviceGetMemPool(Pool, Device), Pool);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  *Pool = T.Current;
  return cudaSuccess;
}

Status Runtime::deviceSetMemPool(int Device, void *Pool) {
  if (Status S = deviceStatus())
    return record(S);
  if (Status S = checkDevice(Device, *this))
    return record(S);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    if (!T.HipPools.count(Pool))
      return record(cudaErrorInvalidValue);
    return record(Hip->deviceSetMemPool(Device, Pool));
  }
  MemPool *P = livePool(T, Pool);
  if (!P)
    return record(cudaErrorInvalidValue);
  T.Current = P;
  return cudaSuccess;
}

Status Runtime::memPoolCreate(void **Pool, const MemPoolProps &Props) {
  if (!Pool)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  // Device-memory pools of this device; no export handles (no IPC here).
  if (Props.AllocType != 1 || Props.LocationType != LocationDevice)
    return record(cudaErrorInvalidValue);
  if (Status S = checkDevice(Props.LocationId, *this))
    return record(S);
  bool OnHip = CoreAccess::hip(*this) != nullptr;
  if (Props.HandleTypes != 0 &&
      (OnHip || Props.HandleTypes != HandleTypePosixFd)) {
    CUHIP_ERROR("cudaMemPoolCreate: shareable pools with handle types 0x%x "
                "are not supported%s",
                unsigned(Props.HandleTypes),
                OnHip ? " on the HIP backend"
                      : " (POSIX file descriptors are)");
    return record(cudaErrorNotSupported);
  }
  if (HipBackend *Hip = CoreAccess::hip(*this))
    return hipPoolResult(*this, Hip->memPoolCreate(Pool, Props), Pool);
  auto *P = new MemPool;
  P->Props = Props;
  if (Props.HandleTypes == HandleTypePosixFd) {
    struct stat St;
    P->Share = OwnedFd(memfd_create("cuhip-mempool", MFD_CLOEXEC));
    if (P->Share.Fd < 0 || fstat(P->Share.Fd, &St) != 0) {
      CUHIP_ERROR("cudaMemPoolCreate: no descriptor for a shareable pool: %s",
                  std::strerror(errno));
      delete P;
      return record(cudaErrorMemoryAllocation);
    }
    P->ShareIno = uint64_t(St.st_ino);
  }
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  T.Pools.insert(P);
  *Pool = P;
  return cudaSuccess;
}

Status Runtime::memPoolDestroy(void *Pool) {
  if (Status S = deviceStatus())
    return record(S);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    // HIP refuses a device's default pool itself.
    if (!T.HipPools.count(Pool))
      return record(cudaErrorInvalidValue);
    Status S = Hip->memPoolDestroy(Pool);
    if (S == cudaSuccess)
      T.HipPools.erase(Pool);
    return record(S);
  }
  MemPool *P = livePool(T, Pool);
  // A device's default pool cannot be destroyed.
  if (!P || P == &T.DefaultPool)
    return record(cudaErrorInvalidValue);
  T.Pools.erase(P);
  if (T.Current == P)
    T.Current = &T.DefaultPool;
  shrinkPool(*this, T, *P, 0);
  // Live blocks stay usable until they are freed (CUDA's rule); the last
  // one takes the pool with it.
  P->Destroyed = true;
  if (P->Used == 0)
    delete P;
  return cudaSuccess;
}

/// The pool's descriptor, duplicated: another process receives it (over a
/// Unix socket) and imports the pool with it.
Status Runtime::memPoolExportToShareableHandle(void *Handle, void *Pool,
                                               int HandleType, unsigned Flags) {
  if (!Handle || Flags)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (CoreAccess::hip(*this))
    return notOnHip(*this, "cudaMemPoolExportToShareableHandle");
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  MemPool *P = livePool(T, Pool);
  // Only a pool created for this handle type, and not an imported one.
  if (!P || P->Imported || HandleType != HandleTypePosixFd || P->Share.Fd < 0)
    return record(cudaErrorInvalidValue);
  int Fd = dup(P->Share.Fd);
  if (Fd < 0)
    return record(cudaErrorMemoryAllocation);
  *static_cast<int *>(Handle) = Fd;
  return cudaSuccess;
}

Status Runtime::memPoolImportFromShareableHandle(void **Pool, void *OsHandle,
                                                 int HandleType,
                                                 unsigned Flags) {
  if (!Pool || Flags)
    return record(cudaErrorInvalidValue);
  *Pool = nullptr;
  if (Status S = deviceStatus())
    return record(S);
  if (CoreAccess::hip(*this))
    return notOnHip(*this, "cudaMemPoolImportFromShareableHandle");
  if (HandleType != HandleTypePosixFd)
    return record(cudaErrorInvalidValue);
  // The descriptor travels in the pointer's bits; the caller keeps it.
  int Given = int(reinterpret_cast<intptr_t>(OsHandle));
  struct stat St;
  if (Given < 0 || fstat(Given, &St) != 0 || !S_ISREG(St.st_mode)) {
    CUHIP_ERROR("cudaMemPoolImportFromShareableHandle: descriptor %d is not "
                "a pool cudaMemPoolExportToShareableHandle exported",
                Given);
    return record(cudaErrorInvalidValue);
  }
  OwnedFd Own(fcntl(Given, F_DUPFD_CLOEXEC, 0));
  if (Own.Fd < 0)
    return record(cudaErrorMemoryAllocation);
  auto *P = new MemPool;
  P->Props.HandleTypes = HandleTypePosixFd;
  P->Imported = true;
  P->Share = std::move(Own);
  P->ShareIno = uint64_t(St.st_ino);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  T.Pools.insert(P);
  *Pool = P;
  return cudaSuccess;
}

Status Runtime::memPoolExportPointer(void *Data, void *Ptr) {
  if (!Data || !Ptr)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  if (CoreAccess::hip(*this))
    return notOnHip(*this, "cudaMemPoolExportPointer");
  uint64_t Owner = 0;
  {
    MemoryTables &T = tables();
    std::lock_guard<std::mutex> G(T.Lock);
    auto It = T.Blocks.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == T.Blocks.end() || It->second.Kind != BlockKind::Pool ||
        It->second.Cached || It->second.Pool->Share.Fd < 0 ||
        It->second.Pool->Imported) {
      CUHIP_DEBUG("cudaMemPoolExportPointer(%p): not an allocation of a "
                  "shareable pool",
                  Ptr);
      return record(cudaErrorInvalidValue);
    }
    Owner = It->second.Pool->ShareIno;
  }
  return CoreAccess::shareAllocation(*this, Ptr, Data, Owner);
}

Status Runtime::memPoolImportPointer(void **Ptr, void *Pool, const void *Data) {
  if (!Ptr || !Data)
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Status S = deviceStatus())
    return record(S);
  if (CoreAccess::hip(*this))
    return notOnHip(*this, "cudaMemPoolImportPointer");
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  MemPool *P = livePool(T, Pool);
  if (!P || !P->Imported)
    return record(cudaErrorInvalidValue);
  void *Mem = nullptr;
  size_t Bytes = 0;
  if (Status S = CoreAccess::openShared(*this, &Mem, Data, P->ShareIno, &Bytes))
    return S;
  Block B{BlockKind::Shared, Bytes};
  T.Blocks[reinterpret_cast<uintptr_t>(Mem)] = B;
  *Ptr = Mem;
  return cudaSuccess;
}

Status Runtime::mallocFromPoolAsync(void **Ptr, size_t Bytes, void *Pool,
                                    void *Stream) {
  if (!Ptr)
    return record(cudaErrorInvalidValue);
  *Ptr = nullptr;
  if (Bytes == 0)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  void *HipStream;
  if (Status S = CoreAccess::resolveStream(*this, Stream, &HipStream))
    return record(S);
  // On a capturing stream: an allocation node, whose memory is at the
  // address returned from now on.
  if (capture::anyActive()) {
    bool Captured;
    Status S = capture::allocate(Stream, Bytes, MemPoolProps(), Ptr, Captured);
    if (Captured)
      return record(S);
  }
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    // hipMallocAsync takes the device's current pool; memory from either
    // call is device memory of the allocation table, which cudaFree (as
    // hipFree) may also free.
    if (Pool && !T.HipPools.count(Pool))
      return record(cudaErrorInvalidValue);
    void *Mem = nullptr;
    if (Status S = Hip->mallocAsync(&Mem, Bytes, Pool, HipStream))
      return record(S);
    CoreAccess::trackRange(*this, Mem, Bytes);
    *Ptr = Mem;
    return cudaSuccess;
  }
  MemPool *P = Pool ? livePool(T, Pool) : T.Current;
  if (!P)
    return record(cudaErrorInvalidValue);
  if (P->Imported) {
    CUHIP_ERROR("cudaMallocFromPoolAsync: a pool imported from another "
                "process only imports its pointers");
    return record(cudaErrorInvalidValue);
  }
  // Bytes are rounded as cudaMalloc aligns, so blocks are interchangeable.
  size_t Size = (Bytes + 255) & ~size_t(255);
  if (Size < Bytes)
    return record(cudaErrorMemoryAllocation);
  void *Mem = nullptr;
  // Reuse the smallest cached block that fits and wastes at most half.
  auto It = P->Cached.lower_bound(Size);
  if (It != P->Cached.end() && It->first / 2 <= Size) {
    Mem = It->second;
    Size = It->first;
    P->Cached.erase(It);
    T.Blocks[reinterpret_cast<uintptr_t>(Mem)].Cached = false;
  } else {
    if (P->Props.MaxSize && P->Reserved + Size > P->Props.MaxSize) {
      shrinkPool(*this, T, *P, 0);
      if (P->Reserved + Size > P->Props.MaxSize)
        return record(cudaErrorMemoryAllocation);
    }
    if (Status S = malloc(&Mem, Size))
      return S;
    Block B{BlockKind::Pool, Size};
    B.Pool = P;
    T.Blocks[reinterpret_cast<uintptr_t>(Mem)] = B;
    P->Reserved += Size;
    P->ReservedHigh = std::max(P->ReservedHigh, P->Reserved);
  }
  P->Used += Size;
  P->UsedHigh = std::max(P->UsedHigh, P->Used);
  *Ptr = Mem;
  return cudaSuccess;
}

Status Runtime::freeAsync(void *Ptr, void *Stream) {
  if (!Ptr)
    return record(cudaErrorInvalidValue);
  if (Status S = deviceStatus())
    return record(S);
  void *HipStream;
  if (Status S = CoreAccess::resolveStream(*this, Stream, &HipStream))
    return record(S);
  // On a capturing stream: a free node.
  if (capture::anyActive()) {
    bool Captured;
    Status S = capture::free(Stream, Ptr, Captured);
    if (Captured)
      return record(S);
  }
  // In stream order: the stream's earlier work may still use the memory.
  CoreAccess::waitForStream(*this, Stream);
  switch (graphmem::free(Ptr)) {
  case graphmem::FreeResult::NotGraphMemory:
    break;
  case graphmem::FreeResult::Refuse:
    return record(cudaErrorInvalidValue);
  case graphmem::FreeResult::Kept:
    return cudaSuccess;
  case graphmem::FreeResult::Release:
    return record(CoreAccess::release(*this, Ptr));
  }
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    // HIP frees in stream order; the range leaves the allocation table now,
    // as no later call may name it.
    void *Base;
    size_t Size;
    if (!CoreAccess::findAllocation(*this, Ptr, &Base, &Size) || Base != Ptr)
      return record(cudaErrorInvalidValue);
    // Out of the table first: once HIP frees it, the address may come back
    // from another thread's allocation at once.
    CoreAccess::untrackRange(*this, Ptr);
    Status S = Hip->freeAsync(Ptr, HipStream);
    if (S)
      CoreAccess::trackRange(*this, Ptr, Size);
    return record(S);
  }
  // The stream's earlier work is done (CPU: waited for above), so freeing
  // now keeps stream order; cudaMalloc memory may be freed so too.
  return free(Ptr);
}

/// On the HIP backend a pool attribute call goes to HIP, whose attribute
/// numbers are CUDA's, for a pool made through HIP and an attribute CUDA
/// has (HIP would accept numbers CUDA does not define).
static bool validHipPoolAttribute(const MemoryTables &T, void *Pool,
                                  int Attr) {
  return T.HipPools.count(Pool) && Attr >= PoolReuseFollowEventDependencies &&
         Attr <= PoolUsedMemHigh;
}

Status Runtime::memPoolSetAttribute(void *Pool, int Attr, const void *Value) {
  if (!Value)
    return record(cudaErrorInvalidValue);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    if (!validHipPoolAttribute(T, Pool, Attr))
      return record(cudaErrorInvalidValue);
    return record(Hip->memPoolSetAttribute(Pool, Attr, Value));
  }
  MemPool *P = livePool(T, Pool);
  if (!P)
    return record(cudaErrorInvalidValue);
  uint64_t V64;
  switch (Attr) {
  case PoolReuseFollowEventDependencies:
  case PoolReuseAllowOpportunistic:
  case PoolReuseAllowInternalDependencies:
    P->Reuse[Attr - 1] = *static_cast<const int *>(Value) != 0;
    return cudaSuccess;
  case PoolReleaseThreshold:
    std::memcpy(&V64, Value, sizeof V64);
    P->Threshold = V64;
    shrinkPool(*this, T, *P, P->Threshold);
    return cudaSuccess;
  case PoolReservedMemHigh:
  case PoolUsedMemHigh:
    // The high watermarks can only be reset, to the current value.
    std::memcpy(&V64, Value, sizeof V64);
    if (V64 != 0)
      return record(cudaErrorInvalidValue);
    if (Attr == PoolReservedMemHigh)
      P->ReservedHigh = P->Reserved;
    else
      P->UsedHigh = P->Used;
    return cudaSuccess;
  default:
    return record(cudaErrorInvalidValue);
  }
}

Status Runtime::memPoolGetAttribute(void *Pool, int Attr, void *Value) {
  if (!Value)
    return record(cudaErrorInvalidValue);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    if (!validHipPoolAttribute(T, Pool, Attr))
      return record(cudaErrorInvalidValue);
    return record(Hip->memPoolGetAttribute(Pool, Attr, Value));
  }
  MemPool *P = livePool(T, Pool);
  if (!P)
    return record(cudaErrorInvalidValue);
  uint64_t V64;
  switch (Attr) {
  case PoolReuseFollowEventDependencies:
  case PoolReuseAllowOpportunistic:
  case PoolReuseAllowInternalDependencies:
    *static_cast<int *>(Value) = P->Reuse[Attr - 1];
    return cudaSuccess;
  case PoolReleaseThreshold:
    V64 = P->Threshold;
    break;
  case PoolReservedMemCurrent:
    V64 = P->Reserved;
    break;
  case PoolReservedMemHigh:
    V64 = P->ReservedHigh;
    break;
  case PoolUsedMemCurrent:
    V64 = P->Used;
    break;
  case PoolUsedMemHigh:
    V64 = P->UsedHigh;
    break;
  default:
    return record(cudaErrorInvalidValue);
  }
  std::memcpy(Value, &V64, sizeof V64);
  return cudaSuccess;
}

/// The CPU-backend pool whose access Api sets or reads, in Out; the HIP
/// backend's pools are refused with a log line (their access is HIP's).
/// Called with the tables locked.
static Status poolForAccess(Runtime &R, MemoryTables &T, void *Pool,
                            const char *Api, MemPool *&Out) {
  if (CoreAccess::hip(R)) {
    CUHIP_WARN("%s: the access of HIP pools is not handled; returning "
               "cudaErrorNotSupported",
               Api);
    return T.HipPools.count(Pool) ? cudaErrorNotSupported
                                  : cudaErrorInvalidValue;
  }
  Out = livePool(T, Pool);
  return Out ? cudaSuccess : cudaErrorInvalidValue;
}

/// The device whose memory a CPU-backend pool hands out.
static int poolDevice(MemoryTables &T, MemPool *P) {
  return P == &T.DefaultPool ? 0 : P->Props.LocationId;
}

Status Runtime::memPoolSetAccess(void *Pool, const VirtualAccess *Descs,
                                 size_t Count) {
  if (Count && !Descs)
    return record(cudaErrorInvalidValue);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  MemPool *P = nullptr;
  if (Status S = poolForAccess(*this, T, Pool, "cudaMemPoolSetAccess", P))
    return record(S);
  for (size_t I = 0; I < Count; ++I) {
    const VirtualAccess &D = Descs[I];
    if (D.LocationType != LocationDevice ||
        (D.Flags != 0 && D.Flags != 1 && D.Flags != 3))
      return record(cudaErrorInvalidValue);
    if (Status S = checkDevice(D.LocationId, *this))
      return record(S);
    if (D.LocationId == poolDevice(T, P) && D.Flags != 3)
      return record(cudaErrorInvalidDevice);
  }
  return cudaSuccess;
}

Status Runtime::memPoolGetAccess(int *Flags, void *Pool, int LocationType,
                                 int LocationId) {
  if (!Flags || LocationType != LocationDevice)
    return record(cudaErrorInvalidValue);
  if (Status S = checkDevice(LocationId, *this))
    return record(S);
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  MemPool *P = nullptr;
  if (Status S = poolForAccess(*this, T, Pool, "cudaMemPoolGetAccess", P))
    return record(S);
  *Flags = LocationId == poolDevice(T, P) ? 3 : 0;
  return cudaSuccess;
}

Status Runtime::memPoolTrimTo(void *Pool, size_t MinBytesToKeep) {
  MemoryTables &T = tables();
  std::lock_guard<std::mutex> G(T.Lock);
  if (HipBackend *Hip = CoreAccess::hip(*this)) {
    if (!T.HipPools.count(Pool))
      return record(cudaErrorInvalidValue);
    return record(Hip->memPoolTrimTo(Pool, MinBytesToKeep));
  }
  MemPool *P = livePool(T, Pool);
  if (!P)
    return record(cudaErrorInvalidValue);
  shrinkPool(*this, T, *P, MinBytesToKeep);
  return cudaSuccess;
}

} // namespace cuhip::rt
