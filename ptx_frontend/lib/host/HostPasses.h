//===- HostPasses.h - The transformations of the host target --------------===//
#pragma once

#include <cstdint>

namespace llvm {
class Function;
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

/// Gives every loop of F that only polls memory (atomic or volatile loads,
/// lock attempts) a call to cuhip_block_yield on its back edges, taken when
/// the block context Ctx has a fiber. Returns the number of back edges.
unsigned insertPollLoopYields(llvm::Function &F, llvm::Value *Ctx);

} // namespace cuhip::ptx::host
