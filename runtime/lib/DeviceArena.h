//===- DeviceArena.h - Device memory apart from the C heap ----------------===//
//
// On the CPU backend device memory is host memory. Taking it from the C heap
// let a kernel that writes a little past its buffer overwrite the heap's
// own bookkeeping (or the program's host buffers) and abort the process
// much later. The arena keeps device memory in address ranges of its own,
// reserved with mmap and never shared with malloc, and keeps inaccessible
// guard pages between allocations, so such a write either lands in slack
// that belongs to no allocation or faults, which a kernel reports as
// cudaErrorIllegalAddress.
//
// Small allocations share slabs: a slab holds equal slots of one size
// class, each slot at least MinSlack bytes longer than the allocation in
// it, and guard pages surround every slab. Large ones get pages of their
// own, with guard pages on both sides. All bookkeeping lives on the C heap,
// never inside the arena, where a kernel could reach it. See
// docs/cpu-backend.md ("Device memory") for the guarantees.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace cuhip::rt {

class DeviceArena {
public:
  /// CUDA aligns every allocation to at least this.
  static constexpr size_t Alignment = 256;
  /// Every allocation is followed by at least this many bytes that belong
  /// to no other allocation.
  static constexpr size_t MinSlack = 256;
  /// Allocations whose size plus MinSlack fits this share slabs.
  static constexpr size_t LargestSlot = 32 << 10;
  static constexpr size_t SlabBytes = 256 << 10;

  struct Options {
    /// Address space a region reserves; a larger allocation gets a region
    /// of its own size.
    size_t RegionBytes = size_t(64) << 30;
    /// The most bytes live allocations may take together (0: no limit),
    /// as a device has only so much memory.
    size_t Capacity = 0;
    /// Freed large allocations of less than 1 MiB stay mapped for reuse,
    /// up to this many bytes, so that allocating and freeing in a loop
    /// makes no system calls.
    size_t CacheBytes = size_t(32) << 20;
  };

  DeviceArena() : DeviceArena(Options()) {}
  explicit DeviceArena(Options O);
  /// Unmaps every region: what is still allocated goes too.
  ~DeviceArena();
  DeviceArena(const DeviceArena &) = delete;
  DeviceArena &operator=(const DeviceArena &) = delete;

  /// Bytes of memory aligned to Alignment; null when memory or address
  /// space runs out (or Capacity would be exceeded).
  void *allocate(size_t Bytes);
  /// Frees what allocate returned; false when Ptr does not start a live
  /// allocation (freed already, an inner pointer, someone else's memory).
  bool release(void *Ptr);

  /// The bytes the live allocation that starts at Ptr takes from the
  /// device (its slot, or its pages); 0 when none starts there.
  size_t footprint(const void *Ptr);
  /// The footprints of all live allocations together.
  size_t bytesInUse();
  /// Makes the pages of the live allocation that contains Ptr shareable with
  /// other processes (cudaIpcGetMemHandle): its body (a slab, or the
  /// allocation's own pages) moves, contents and address unchanged, onto a
  /// memfd, which another process maps through /proc/PID/fd/FD. The arena
  /// owns the descriptor until the body is unmapped. On success *Fd is the
  /// memfd and *Offset Ptr's offset in it. False (errno set) when Ptr is in
  /// no live allocation or the system refuses; the contents stay then.
  /// The caller makes sure nothing writes the body meanwhile.
  bool share(const void *Ptr, int *Fd, size_t *Offset);
  /// Is Ptr inside one of the arena's regions (allocated or not)?
  bool owns(const void *Ptr);
  /// Inaccessible bytes at least between two allocations' pages.
  size_t guardBytes() const { return Guard; }
  size_t regionCount();

private:
  struct Slab;
  struct SizeClass {
    size_t SlotBytes = 0;
    std::vector<Slab *> Partial; // slabs with free slots and live ones
    Slab *Spare = nullptr;       // one empty slab kept for reuse
  };
  /// Pages handed out: a slab, or one large allocation.
  struct Span {
    size_t BodyBytes = 0;
    Slab *S = nullptr;   // null for a large allocation
    bool Cached = false; // a freed large allocation kept mapped
    int Fd = -1;         // a memfd under the body, once share()d
  };

  void *allocateSmall(size_t Bytes);
  void *allocateLarge(size_t Bytes);
  /// Pages of Body bytes, accessible, with guards around them; 0 when
  /// address space or memory runs out.
  uintptr_t mapBody(size_t Body, size_t Align);
  /// Makes a body inaccessible again (returning its memory) and gives its
  /// addresses back; Fd: the memfd under it, closed.
  void unmapBody(uintptr_t Base, size_t Body, int Fd = -1);
  uintptr_t takeFree(size_t Extent, size_t Align);
  void addFree(uintptr_t Base, size_t Bytes);
  void eraseFree(std::map<uintptr_t, size_t>::iterator It);
  bool reserveRegion(size_t Extent);
  /// Unmaps cached large allocations and spare slabs.
  void dropCaches();
  void releaseSlab(Slab *S);

  Options Opts;
  size_t Page = 4096;
  size_t Guard = 64 << 10;
  size_t RegionGuard = size_t(256) << 20;
  std::mutex Lock;
  std::vector<std::pair<uintptr_t, size_t>> Regions; // base, reserved bytes
  std::map<uintptr_t, size_t> FreeByAddress;
  std::set<std::pair<size_t, uintptr_t>> FreeBySize;
  std::map<uintptr_t, Span> Spans;        // body base -> span
  std::multimap<size_t, uintptr_t> Cache; // body bytes -> base
  size_t CachedBytes = 0;
  size_t InUse = 0;
  std::vector<SizeClass> Classes;
  /// The class of an allocation of Bytes, by (Bytes + MinSlack) / 256.
  std::vector<uint8_t> ClassOf;
};

/// The CPU backend's device memory: one arena for the process.
DeviceArena &deviceArena();

} // namespace cuhip::rt
