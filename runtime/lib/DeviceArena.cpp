//===- DeviceArena.cpp - Device memory apart from the C heap --------------===//
//
// Regions are large inaccessible mappings (PROT_NONE, so they cost address
// space only) with RegionGuard bytes at each end that are never handed out.
// Inside them, bodies (a slab, or one large allocation) are made accessible
// with mprotect and are always followed by Guard inaccessible bytes: the
// free-range allocator hands out a body together with its trailing guard,
// and a region's usable part starts after its leading guard, so there is a
// guard before and after every body. Freeing a body maps fresh
// inaccessible pages over it, which returns its memory to the system at
// once. The capacity check and kernel commit accounting (bodies become
// writable with mprotect, which charges them like any other private
// memory) keep cudaMalloc from promising what the machine cannot give.
//
//===----------------------------------------------------------------------===//
#include "DeviceArena.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace cuhip::rt {

namespace {
constexpr size_t NotPartial = ~size_t(0);
/// Large allocations from this size on are aligned for huge pages.
constexpr size_t HugeAlign = 2 << 20;
/// Freed large allocations below this size may stay mapped for reuse.
constexpr size_t CacheableBody = 1 << 20;

size_t roundUp(size_t V, size_t To) { return (V + To - 1) / To * To; }
} // namespace

struct DeviceArena::Slab {
  uintptr_t Base = 0;
  uint32_t Class = 0;
  uint32_t Slots = 0;
  uint32_t Live = 0;
  uint32_t Fresh = 0;          // slots [Fresh, Slots) were never handed out
  std::vector<uint32_t> Freed; // freed slots, the latest last
  std::vector<uint64_t> Used;  // a bit per slot
  size_t PartialAt = NotPartial;

  bool used(uint32_t I) const { return Used[I / 64] >> (I % 64) & 1; }
  void setUsed(uint32_t I, bool On) {
    if (On)
      Used[I / 64] |= uint64_t(1) << (I % 64);
    else
      Used[I / 64] &= ~(uint64_t(1) << (I % 64));
  }
};

DeviceArena::DeviceArena(Options O) : Opts(O) {
  long P = sysconf(_SC_PAGESIZE);
  if (P > 0)
    Page = size_t(P);
  // Sixteen pages: 64 KiB with 4 KiB pages. Address space is all a guard
  // costs, and a wider one catches writes further past the end.
  Guard = 16 * Page;
  RegionGuard = std::max(RegionGuard, Guard);
  // Slots grow by 256 bytes up to 2 KiB, then by a quarter of the size at
  // most, so the slack (beyond MinSlack) stays under about a quarter.
  std::vector<size_t> Sizes;
  for (size_t S = 512; S <= 2048; S += 256)
    Sizes.push_back(S);
  for (size_t Pow = 2048; Pow < LargestSlot; Pow *= 2)
    for (size_t Q = 1; Q <= 4; ++Q)
      Sizes.push_back(Pow + Q * Pow / 4);
  for (size_t S : Sizes) {
    SizeClass C;
    C.SlotBytes = S;
    Classes.push_back(C);
  }
  ClassOf.resize(LargestSlot / 256 + 1);
  size_t C = 0;
  for (size_t Units = 0; Units < ClassOf.size(); ++Units) {
    while (Classes[C].SlotBytes < Units * 256)
      ++C;
    ClassOf[Units] = uint8_t(C);
  }
}

DeviceArena::~DeviceArena() {
  for (auto &[Base, Sp] : Spans) { // every slab, full or not, has its span
    delete Sp.S;
    if (Sp.Fd >= 0)
      close(Sp.Fd);
  }
  for (auto [Base, Bytes] : Regions)
    munmap(reinterpret_cast<void *>(Base), Bytes);
}

void *DeviceArena::allocate(size_t Bytes) {
  if (Bytes == 0 || Bytes > SIZE_MAX / 2)
    return nullptr;
  if (Bytes + MinSlack <= LargestSlot)
    return allocateSmall(Bytes);
  return allocateLarge(Bytes);
}

void *DeviceArena::allocateSmall(size_t Bytes) {
  SizeClass &C = Classes[ClassOf[(Bytes + MinSlack + 255) / 256]];
  std::lock_guard<std::mutex> G(Lock);
  if (Opts.Capacity && InUse + C.SlotBytes > Opts.Capacity)
    return nullptr;
  Slab *S;
  if (!C.Partial.empty()) {
    S = C.Partial.back();
  } else {
    if (C.Spare) {
      S = C.Spare;
      C.Spare = nullptr;
    } else {
      uintptr_t Base = mapBody(SlabBytes, Page);
      if (!Base) {
        dropCaches();
        Base = mapBody(SlabBytes, Page);
      }
      if (!Base)
        return nullptr;
      S = new Slab;
      S->Base = Base;
      S->Class = uint32_t(&C - Classes.data());
      S->Slots = uint32_t(SlabBytes / C.SlotBytes);
      S->Used.assign((S->Slots + 63) / 64, 0);
      Span &Sp = Spans[Base];
      Sp.BodyBytes = SlabBytes;
      Sp.S = S;
    }
    S->PartialAt = C.Partial.size();
    C.Partial.push_back(S);
  }
  uint32_t Slot;
  if (!S->Freed.empty()) {
    Slot = S->Freed.back();
    S->Freed.pop_back();
  } else {
    Slot = S->Fresh++;
  }
  S->setUsed(Slot, true);
  ++S->Live;
  InUse += C.SlotBytes;
  if (S->Freed.empty() && S->Fresh == S->Slots) {
    // Full: out of the list until a slot comes back.
    Slab *Last = C.Partial.back();
    C.Partial[S->PartialAt] = Last;
    Last->PartialAt = S->PartialAt;
    C.Partial.pop_back();
    S->PartialAt = NotPartial;
  }
  return reinterpret_cast<void *>(S->Base + Slot * C.SlotBytes);
}

void *DeviceArena::allocateLarge(size_t Bytes) {
  size_t Body = roundUp(Bytes + MinSlack, Page);
  size_t Align = Body >= HugeAlign ? HugeAlign : Page;
  std::lock_guard<std::mutex> G(Lock);
  // The smallest cached body that fits and wastes at most half of itself.
  auto Hit = Cache.lower_bound(Body);
  if (Hit != Cache.end() && Hit->first / 2 <= Body) {
    size_t Got = Hit->first;
    if (Opts.Capacity && InUse + Got > Opts.Capacity)
      return nullptr;
    uintptr_t Base = Hit->second;
    Cache.erase(Hit);
    CachedBytes -= Got;
    Spans[Base].Cached = false;
    InUse += Got;
    return reinterpret_cast<void *>(Base);
  }
  if (Opts.Capacity && (Body > Opts.Capacity || InUse > Opts.Capacity - Body))
    return nullptr;
  uintptr_t Base = mapBody(Body, Align);
  if (!Base) {
    dropCaches();
    Base = mapBody(Body, Align);
  }
  if (!Base)
    return nullptr;
  if (Body >= HugeAlign)
    madvise(reinterpret_cast<void *>(Base), Body, MADV_HUGEPAGE);
  Span &Sp = Spans[Base];
  Sp.BodyBytes = Body;
  InUse += Body;
  return reinterpret_cast<void *>(Base);
}

bool DeviceArena::release(void *Ptr) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(Lock);
  auto It = Spans.upper_bound(A);
  if (It == Spans.begin())
    return false;
  --It;
  uintptr_t Base = It->first;
  Span &Sp = It->second;
  if (A - Base >= Sp.BodyBytes)
    return false;
  if (!Sp.S) {
    if (A != Base || Sp.Cached)
      return false;
    size_t Body = Sp.BodyBytes;
    InUse -= Body;
    if (Body < CacheableBody && CachedBytes + Body <= Opts.CacheBytes &&
        Sp.Fd < 0) {
      Sp.Cached = true;
      Cache.emplace(Body, Base);
      CachedBytes += Body;
      return true;
    }
    int Fd = Sp.Fd;
    Spans.erase(It);
    unmapBody(Base, Body, Fd);
    return true;
  }
  Slab *S = Sp.S;
  SizeClass &C = Classes[S->Class];
  size_t Offset = A - Base;
  if (Offset % C.SlotBytes)
    return false;
  uint32_t Slot = uint32_t(Offset / C.SlotBytes);
  if (Slot >= S->Fresh || !S->used(Slot))
    return false;
  S->setUsed(Slot, false);
  S->Freed.push_back(Slot);
  --S->Live;
  InUse -= C.SlotBytes;
  if (S->Live == 0) {
    if (S->PartialAt != NotPartial) {
      Slab *Last = C.Partial.back();
      C.Partial[S->PartialAt] = Last;
      Last->PartialAt = S->PartialAt;
      C.Partial.pop_back();
      S->PartialAt = NotPartial;
    }
    if (C.Spare) {
      releaseSlab(S);
    } else {
      // Kept whole, and handed out from its lowest slot again.
      S->Fresh = 0;
      S->Freed.clear();
      C.Spare = S;
    }
  } else if (S->PartialAt == NotPartial) {
    S->PartialAt = C.Partial.size();
    C.Partial.push_back(S);
  }
  return true;
}

size_t DeviceArena::footprint(const void *Ptr) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(Lock);
  auto It = Spans.upper_bound(A);
  if (It == Spans.begin())
    return 0;
  --It;
  const Span &Sp = It->second;
  if (A - It->first >= Sp.BodyBytes)
    return 0;
  if (!Sp.S)
    return A == It->first && !Sp.Cached ? Sp.BodyBytes : 0;
  size_t Size = Classes[Sp.S->Class].SlotBytes;
  size_t Offset = A - It->first;
  if (Offset % Size || Offset / Size >= Sp.S->Fresh ||
      !Sp.S->used(uint32_t(Offset / Size)))
    return 0;
  return Size;
}

size_t DeviceArena::bytesInUse() {
  std::lock_guard<std::mutex> G(Lock);
  return InUse;
}

bool DeviceArena::owns(const void *Ptr) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(Lock);
  for (auto [Base, Bytes] : Regions)
    if (A - Base < Bytes)
      return true;
  return false;
}

size_t DeviceArena::regionCount() {
  std::lock_guard<std::mutex> G(Lock);
  return Regions.size();
}

uintptr_t DeviceArena::mapBody(size_t Body, size_t Align) {
  size_t Extent = Body + Guard;
  uintptr_t Base = takeFree(Extent, Align);
  if (!Base) {
    if (!reserveRegion(Extent + Align))
      return 0;
    Base = takeFree(Extent, Align);
    if (!Base)
      return 0;
  }
  if (mprotect(reinterpret_cast<void *>(Base), Body, PROT_READ | PROT_WRITE)) {
    // Out of memory to commit, or of mappings (vm.max_map_count): every
    // body is a mapping of its own between guards.
    CUHIP_DEBUG("device memory: cannot map %zu bytes: %s", Body,
                std::strerror(errno));
    addFree(Base, Extent);
    return 0;
  }
  return Base;
}

void DeviceArena::unmapBody(uintptr_t Base, size_t Body, int Fd) {
  void *P = reinterpret_cast<void *>(Base);
  // Fresh inaccessible pages over the body: its memory goes back to the
  // system, and a late access (use after free) faults.
  if (mmap(P, Body, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
           0) == MAP_FAILED) {
    madvise(P, Body, MADV_DONTNEED);
    mprotect(P, Body, PROT_NONE);
  }
  if (Fd >= 0)
    close(Fd); // other processes' mappings keep its pages
  addFree(Base, Body + Guard);
}

bool DeviceArena::share(const void *Ptr, int *Fd, size_t *Offset) {
  uintptr_t A = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> G(Lock);
  auto It = Spans.upper_bound(A);
  if (It == Spans.begin()) {
    errno = EINVAL;
    return false;
  }
  --It;
  uintptr_t Base = It->first;
  Span &Sp = It->second;
  if (A - Base >= Sp.BodyBytes || Sp.Cached) {
    errno = EINVAL;
    return false;
  }
  if (Sp.Fd < 0) {
    // The body's contents go into a memfd of its size, which then replaces
    // the private pages at the same address.
    int M = memfd_create("cuhip-device-memory", MFD_CLOEXEC);
    if (M < 0)
      return false;
    void *P = reinterpret_cast<void *>(Base);
    size_t Done = 0;
    bool Ok = ftruncate(M, off_t(Sp.BodyBytes)) == 0;
    while (Ok && Done < Sp.BodyBytes) {
      ssize_t N = pwrite(M, static_cast<char *>(P) + Done, Sp.BodyBytes - Done,
                         off_t(Done));
      if (N < 0 && errno == EINTR)
        continue;
      Ok = N > 0;
      Done += Ok ? size_t(N) : 0;
    }
    if (!Ok || mmap(P, Sp.BodyBytes, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_FIXED, M, 0) == MAP_FAILED) {
      int E = errno;
      close(M);
      errno = E;
      return false;
    }
    Sp.Fd = M;
  }
  *Fd = Sp.Fd;
  *Offset = A - Base;
  return true;
}

uintptr_t DeviceArena::takeFree(size_t Extent, size_t Align) {
  // The smallest free range that holds Extent bytes at an aligned start.
  for (auto It = FreeBySize.lower_bound({Extent, 0}); It != FreeBySize.end();
       ++It) {
    auto [Bytes, Base] = *It;
    uintptr_t Start = (Base + Align - 1) / Align * Align;
    if (Start + Extent > Base + Bytes)
      continue;
    eraseFree(FreeByAddress.find(Base));
    if (Start > Base)
      addFree(Base, Start - Base);
    if (Start + Extent < Base + Bytes)
      addFree(Start + Extent, Base + Bytes - Start - Extent);
    return Start;
  }
  return 0;
}

void DeviceArena::eraseFree(std::map<uintptr_t, size_t>::iterator It) {
  FreeBySize.erase({It->second, It->first});
  FreeByAddress.erase(It);
}

void DeviceArena::addFree(uintptr_t Base, size_t Bytes) {
  auto Next = FreeByAddress.lower_bound(Base);
  if (Next != FreeByAddress.end() && Next->first == Base + Bytes) {
    Bytes += Next->second;
    Next = std::next(Next);
    eraseFree(std::prev(Next));
  }
  if (Next != FreeByAddress.begin()) {
    auto Prev = std::prev(Next);
    if (Prev->first + Prev->second == Base) {
      Base = Prev->first;
      Bytes += Prev->second;
      eraseFree(Prev);
    }
  }
  FreeByAddress.emplace(Base, Bytes);
  FreeBySize.emplace(Bytes, Base);
}

bool DeviceArena::reserveRegion(size_t Extent) {
  size_t Need = roundUp(Extent, Page);
  size_t Usable = std::max(Opts.RegionBytes, Need);
  for (;;) {
    size_t Total = Usable + 2 * RegionGuard;
    // Inaccessible, so neither memory nor commit is charged until a body
    // inside becomes writable.
    void *M =
        mmap(nullptr, Total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (M != MAP_FAILED) {
      uintptr_t Base = reinterpret_cast<uintptr_t>(M);
      Regions.emplace_back(Base, Total);
      addFree(Base + RegionGuard, Usable);
      CUHIP_DEBUG("device memory: reserved %zu MiB of address space at %p",
                  Total >> 20, M);
      return true;
    }
    // Less address space to be had (ulimit -v, sanitizers): take less.
    if (Usable == Need)
      return false;
    Usable = std::max(roundUp(Usable / 2, Page), Need);
  }
}

void DeviceArena::releaseSlab(Slab *S) {
  int Fd = Spans[S->Base].Fd;
  Spans.erase(S->Base);
  unmapBody(S->Base, SlabBytes, Fd);
  delete S;
}

void DeviceArena::dropCaches() {
  for (auto [Body, Base] : Cache) {
    Spans.erase(Base);
    unmapBody(Base, Body);
  }
  Cache.clear();
  CachedBytes = 0;
  for (SizeClass &C : Classes)
    if (C.Spare) {
      releaseSlab(C.Spare);
      C.Spare = nullptr;
    }
}

DeviceArena &deviceArena() {
  // Leaked like the runtime: programs free memory from atexit handlers.
  static DeviceArena *A = [] {
    DeviceArena::Options O;
    long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
    if (Pages > 0 && PageSize > 0)
      O.Capacity = size_t(Pages) * size_t(PageSize);
    return new DeviceArena(O);
  }();
  return *A;
}

} // namespace cuhip::rt
