//===- DriverProcAddress.cpp - The table behind cuGetProcAddress ----------===//
//
// Programs built with the static CUDA runtime find every driver function
// through cuGetProcAddress: a base name ("cuMemAlloc"), the CUDA version the
// caller was built for, and whether it wants the per-thread default stream
// variants. DriverProcTable.def (generated from the toolkit's
// cudaTypedefs.h) says at which version each name's entry point changed;
// the newest row not newer than the request wins. Names the table lacks
// resolve to the exported symbol of that name. This file declares no
// function prototypes of its own, so every symbol's address is taken
// through an assembler name, whatever its C signature.
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

#include <cstring>
#include <string_view>

using namespace cuhip;
using namespace cuhip::cuda;

#define CUHIP_DRIVER_SYMBOL(Name) extern "C" void cuhipSym_##Name() __asm__(#Name);
#include "DriverSymbols.def"
#undef CUHIP_DRIVER_SYMBOL

namespace {

struct Symbol {
  std::string_view Name;
  void (*Fn)();
};

constexpr Symbol Symbols[] = {
#define CUHIP_DRIVER_SYMBOL(Name) {#Name, &cuhipSym_##Name},
#include "DriverSymbols.def"
#undef CUHIP_DRIVER_SYMBOL
};

enum PerThread { none, ptds, ptsz };

struct ProcRow {
  std::string_view Name;
  int Version;
  void (*Fn)();
  PerThread Kind;
};

constexpr ProcRow ProcTable[] = {
#define CUHIP_PROC(Name, Version, Sym, Kind) {#Name, Version, &cuhipSym_##Sym, Kind},
#include "DriverProcTable.def"
#undef CUHIP_PROC
};

enum : int { Found = 0, SymbolNotFound = 1, VersionNotSufficient = 2 };

/// The entry point for Name at Version; Status says why there is none.
void *lookup(std::string_view Name, int Version, bool PerThreadStream,
             int &Status) {
  const ProcRow *Best = nullptr, *BestPerThread = nullptr;
  bool Known = false;
  for (const ProcRow &R : ProcTable) {
    if (R.Name != Name)
      continue;
    Known = true;
    if (R.Version > Version)
      continue;
    const ProcRow *&Slot = R.Kind == none ? Best : BestPerThread;
    if (!Slot || R.Version >= Slot->Version)
      Slot = &R;
  }
  if (Known) {
    if (!Best && !BestPerThread) {
      Status = VersionNotSufficient;
      return nullptr;
    }
    Status = Found;
    // With the per-thread flag a name's _ptds/_ptsz form wins; without a
    // per-thread form the legacy one serves.
    if (PerThreadStream && BestPerThread)
      return reinterpret_cast<void *>(BestPerThread->Fn);
    return reinterpret_cast<void *>((Best ? Best : BestPerThread)->Fn);
  }
  for (const Symbol &S : Symbols)
    if (S.Name == Name) {
      Status = Found;
      return reinterpret_cast<void *>(S.Fn);
    }
  Status = SymbolNotFound;
  return nullptr;
}

} // namespace

CUresult cuhip::cuda::getProcAddress(const char *Symbol, void **Fn, int Version,
                                     cuuint64_t Flags, int *Status) {
  if (!Symbol || !Fn)
    return CUDA_ERROR_INVALID_VALUE;
  *Fn = nullptr;
  if (Flags > (CU_GET_PROC_ADDRESS_LEGACY_STREAM |
               CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ||
      Flags == (CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
    return CUDA_ERROR_INVALID_VALUE;
  if (Version > runtime().driverVersion()) {
    CUHIP_WARN("cuGetProcAddress(%s): CUDA version %d is newer than the "
               "driver version cuhip reports (%d)",
               Symbol, Version, runtime().driverVersion());
    return CUDA_ERROR_INVALID_VALUE;
  }
  // CU_GET_PROC_ADDRESS_DEFAULT means the legacy default stream: the driver
  // cannot see how the caller was compiled.
  bool PerThread = Flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  *Fn = lookup(Symbol, Version, PerThread, *Status);
  if (!*Fn)
    CUHIP_DEBUG("cuGetProcAddress(%s, version %d): %s", Symbol, Version,
                *Status == SymbolNotFound ? "no such symbol"
                                          : "version not sufficient");
  return CUDA_SUCCESS;
}

