//===- HostPasses.h - The transformations of the host target --------------===//
#pragma once

#include <cstdint>

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Module;
class Value;
} // namespace llvm

namespace cuhip::ptx::host {

/// Gives every shared variable a fixed offset in the block's shared arena
/// and turns shared-window addresses into real pointers computed from
/// SharedBase (an argument of F); afterwards
/// every memory access in F uses address space 0. Returns the number of
/// static shared bytes; the dynamic shared array starts there, aligned to
/// SharedAlign. ReservedBytes at the arena's start are kept for the system
/// (%reserved_smem_offset_*), before every variable.
uint32_t flattenAddressSpaces(llvm::Function &F, llvm::Value *SharedBase,
                              uint32_t &SharedAlign, uint32_t ReservedBytes);

/// Memcheck mode: calls cuhip_memcheck before every global, generic and
/// shared access of F, a kernel's thread function whose memory accesses
/// still use PTX's address spaces, with Ctx and the thread index as the
/// block and thread to report. Returns the number of accesses instrumented.
unsigned instrumentMemoryAccesses(llvm::Function &F, llvm::Value *Ctx,
                                  llvm::Value *TidX, llvm::Value *TidY,
                                  llvm::Value *TidZ, llvm::Value *Params,
                                  llvm::StringRef KernelName);

/// Memcheck mode: adds MemcheckGlobalsSymbol, the table of M's `.global`
/// and `.const` variables, `{ i64 count, [count x { ptr, i64 size }] }`.
void addMemcheckGlobalsTable(llvm::Module &M);

} // namespace cuhip::ptx::host
