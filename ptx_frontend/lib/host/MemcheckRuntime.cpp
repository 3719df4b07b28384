//===- MemcheckRuntime.cpp - The access check memcheck mode calls ---------===//
//
// Instrumented kernels (MemcheckInstrumentation.cpp) call cuhip_memcheck
// before each global, generic and shared access. A shared access must lie
// inside the block's shared memory (static + dynamic). A global or generic
// one must lie inside one live device allocation: the runtime publishes a
// sorted snapshot of them for each launch (MemcheckLaunch), searched
// without locks; generic addresses may also be the block's shared arena,
// its thread frames (where every stack slot of a kernel lives) or the
// parameter buffer, but never host memory, the launching thread's stack
// included. Only when all of that fails are module variables and
// in-kernel malloc blocks looked up (under a lock). A bad access prints one report in the style of
// compute-sanitizer's memcheck and ends the kernel like a trap, with
// cudaErrorIllegalAddress.
//
//===----------------------------------------------------------------------===//
#include "DeviceLibrary.h"

#include "cuhip/ptx/HostTarget.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>


namespace cuhip::ptx::host {

namespace {

/// The range of Ranges (sorted by Base) that contains Address, or null.
const MemRange *find(const MemRange *Ranges, size_t N, uint64_t Address) {
  const MemRange *End = Ranges + N;
  const MemRange *It = std::upper_bound(
      Ranges, End, Address,
      [](uint64_t A, const MemRange &R) { return A < R.Base; });
  if (It == Ranges)
    return nullptr;
  --It;
  return Address - It->Base < It->Size ? It : nullptr;
}

bool inside(uint64_t Address, uint64_t Size, uint64_t Base, uint64_t Bytes) {
  return Address - Base < Bytes && Size <= Bytes - (Address - Base);
}

/// Generic addresses may point at what the block itself owns.
bool isBlockPrivate(uint64_t A, uint64_t Size, const BlockContext *Ctx,
                    const MemcheckLaunch &L) {
  if (inside(A, Size, reinterpret_cast<uint64_t>(Ctx->Shared), L.SharedBytes) ||
      inside(A, Size, reinterpret_cast<uint64_t>(Ctx->Frames), L.FrameBytes) ||
      inside(A, Size, reinterpret_cast<uint64_t>(L.Params), L.ParamBytes))
    return true;
  // Not the thread's native stack: every stack slot of a kernel is a slice
  // of its frame, and the launching thread's stack is host memory.
  return false;
}

const char *opName(uint32_t Kind) {
  switch (Kind & AccessOpMask) {
  case AccessRead:
    return "read";
  case AccessWrite:
    return "write";
  default:
    return "atomic";
  }
}

/// Where A lies relative to the live allocation nearest to it.
void describeNearest(uint64_t A, const MemcheckLaunch &L) {
  const MemRange *End = L.Live + L.NumLive;
  const MemRange *Next = std::upper_bound(
      L.Live, End, A, [](uint64_t V, const MemRange &R) { return V < R.Base; });
  const MemRange *Prev = Next == L.Live ? nullptr : Next - 1;
  uint64_t PrevGap = Prev ? A - std::min(A, Prev->Base + Prev->Size) : UINT64_MAX;
  uint64_t NextGap = Next != End ? Next->Base - A : UINT64_MAX;
  if (!Prev && Next == End) {
    std::fprintf(stderr, "=========     and there is no live allocation\n");
    return;
  }
  const MemRange *Near = PrevGap <= NextGap ? Prev : Next;
  if (Near == Prev && A < Prev->Base + Prev->Size)
    std::fprintf(stderr,
                 "=========     and overlaps the end of the allocation at "
                 "0x%" PRIx64 " of size %" PRIu64 " bytes\n",
                 Prev->Base, Prev->Size);
  else
    std::fprintf(stderr,
                 "=========     and is %" PRIu64 " bytes %s the nearest "
                 "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes\n",
                 Near == Prev ? PrevGap : NextGap,
                 Near == Prev ? "after" : "before", Near->Base, Near->Size);
}

[[noreturn]] void report(uint64_t A, uint32_t Kind, const BlockContext *Ctx,
                         uint32_t X, uint32_t Y, uint32_t Z, const char *Site,
                         const MemcheckLaunch &L) {
  bool Shared = (Kind & AccessSpaceMask) == AccessShared;
  // Shared addresses are reported as offsets in the block's shared window.
  uint64_t Reported = Shared ? A - reinterpret_cast<uint64_t>(Ctx->Shared) : A;
  // Blocks on other workers may fail too before the grid stops; the first
  // one reports.
  if (L.Reported.exchange(true))
    trapIllegalAddress(Reported);
  uint64_t Size = Kind & AccessSizeMask;
  {
    std::lock_guard<std::mutex> G(deviceOutputLock());
    std::fflush(stdout);
    std::fprintf(stderr, "========= Invalid %s %s of size %" PRIu64 " bytes\n",
                 Shared ? "__shared__" : "__global__", opName(Kind), Size);
    std::fprintf(stderr, "=========     at %s\n", Site ? Site : "?");
    std::fprintf(stderr,
                 "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", X,
                 Y, Z, Ctx->CtaId[0], Ctx->CtaId[1], Ctx->CtaId[2]);
    if (Shared) {
      uint64_t Off = Reported;
      std::fprintf(stderr, "=========     Address 0x%" PRIx64
                           " is out of bounds\n",
                   Off);
      std::fprintf(stderr,
                   "=========     and is %" PRIu64 " bytes after the end of "
                   "the block's %" PRIu64 " bytes of shared memory\n",
                   Off >= L.SharedBytes ? Off - L.SharedBytes : 0,
                   L.SharedBytes);
    } else if (const MemRange *F = find(L.Freed, L.NumFreed, A)) {
      std::fprintf(stderr,
                   "=========     Address 0x%" PRIx64 " is in freed memory "
                   "(use after free)\n",
                   A);
      std::fprintf(stderr,
                   "=========     and is %" PRIu64 " bytes inside a freed "
                   "allocation at 0x%" PRIx64 " of size %" PRIu64 " bytes\n",
                   A - F->Base, F->Base, F->Size);
    } else {
      std::fprintf(stderr,
                   "=========     Address 0x%" PRIx64 " is out of bounds\n", A);
      describeNearest(A, L);
    }
    std::fflush(stderr);
  }
  trapIllegalAddress(Reported);
}

} // namespace

extern "C" void cuhip_memcheck(uint64_t Address, uint32_t Kind,
                               const BlockContext *Ctx, uint32_t TidX,
                               uint32_t TidY, uint32_t TidZ,
                               const char *Site) {
  const MemcheckLaunch *L = Ctx ? Ctx->Memcheck : nullptr;
  if (!L) // launched without a snapshot: nothing to check against
    return;
  uint64_t Size = Kind & AccessSizeMask;
  uint32_t Space = Kind & AccessSpaceMask;
  if (Size == 0) // a copy of nothing (cp.async with src-size 0) reads nothing
    return;
  if (Space == AccessShared) {
    if (inside(Address, Size, reinterpret_cast<uint64_t>(Ctx->Shared),
               L->SharedBytes))
      return;
  } else {
    if (const MemRange *R = find(L->Live, L->NumLive, Address))
      if (inside(Address, Size, R->Base, R->Size))
        return;
    if (Space == AccessGeneric && isBlockPrivate(Address, Size, Ctx, *L))
      return;
    if (isDeviceHeapOrModuleRange(Address, Size))
      return;
    if (inside(Address, Size, reinterpret_cast<uint64_t>(L->GridWorkspace),
               L->GridWorkspaceBytes))
      return;
  }
  report(Address, Kind, Ctx, TidX, TidY, TidZ, Site, *L);
}

} // namespace cuhip::ptx::host
