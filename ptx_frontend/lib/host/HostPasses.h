//===- HostPasses.h - The transformations of the host target --------------===//
#pragma once

#include <cstdint>

#include "cuhip/ptx/HostTarget.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class Instruction;
class Module;
class TargetMachine;
class Twine;
class Value;
} // namespace llvm

namespace cuhip::ptx::host {

/// The arguments of a kernel's thread function (WorkGroupLowering.cpp):
/// one thread's view of the kernel, before it becomes a block function.
enum ThreadArg : unsigned {
  ArgParams,
  ArgCtx,
  ArgFrame,
  ArgTidX,
  ArgTidY,
  ArgTidZ,
  ArgShared,
  NumThreadArgs
};

/// The warp or block collective the intrinsic call I performs, from the
/// table WorkGroupLowering.cpp lowers them by; WarpOp::None for anything
/// else.
WarpOp collectiveOp(const llvm::Instruction &I);

/// The SIMD path's bar.red: a group of lanes calls
/// BarRedContributePrefix + "popc"/"and"/"or" with its part of the block's
/// reduction (an i32) before the block barrier, and
/// BarRedResultPrefix + the same after it for the block's result; the
/// block function that runs the groups keeps the accumulators.
inline constexpr llvm::StringLiteral BarRedContributePrefix =
    "cuhip.barred.contribute.";
inline constexpr llvm::StringLiteral BarRedResultPrefix =
    "cuhip.barred.result.";

/// Metadata on the cuhip_block_yield call of a polling loop that tries to
/// take a lock (insertPollLoopYields); yields without it are in loops that
/// only read, which the SIMD path accepts.
inline constexpr const char *PollLockMD = "cuhip.poll.lock";

/// Metadata flattenAddressSpaces puts on atomics of `.shared` memory.
inline constexpr const char *SharedAtomicMD = "cuhip.shared.atomic";

/// The marked `.shared` atomics of F (or just I) as plain read-modify-write
/// sequences: right for code that runs the block's threads one at a time
/// on one host thread, which is what the scalar block functions do.
void lowerSharedAtomics(llvm::Function &F);
void lowerSharedAtomic(llvm::Instruction &I);

/// Gives every shared variable a fixed offset in the block's shared arena
/// and turns shared-window addresses into real pointers computed from
/// SharedBase (an argument of F); afterwards
/// every memory access in F uses address space 0. Returns the number of
/// static shared bytes; the dynamic shared array starts there, aligned to
/// SharedAlign. ReservedBytes at the arena's start are kept for the system
/// (%reserved_smem_offset_*), before every variable.
uint32_t flattenAddressSpaces(llvm::Function &F, llvm::Value *SharedBase,
                              uint32_t &SharedAlign, uint32_t ReservedBytes);

/// The number of threads the host runs as SIMD lanes of one vector program
/// (16 with AVX-512, else 8), or 0 when CUHIP_CPU_VECTORIZE=0 turns the
/// warp vectorizer off.
unsigned warpVectorWidth(const llvm::TargetMachine *TM);

/// Vectorizes a thread function (WorkGroupLowering.cpp's argument layout)
/// into a function of the same signature that runs threads t0 .. t0+W-1 of
/// the block as W SIMD lanes, t0 taking %tid.x's place; valid when ntid.x is
/// a multiple of W. Block barriers (`bar.sync 0`) stay in it as they are,
/// for the caller to cut into regions. Returns null, with WhyNot saying what
/// stopped it, when the function uses something the vectorizer does not
/// handle (WarpVectorize.cpp).
llvm::Function *vectorizeThreadFunction(llvm::Function &Thread, unsigned W,
                                        const llvm::Twine &Name,
                                        std::string &WhyNot);

/// Gives every loop of F that only polls memory (atomic or volatile loads,
/// lock attempts) a call to cuhip_block_yield on its back edges, taken when
/// the block context Ctx has a fiber. Returns the number of back edges.
unsigned insertPollLoopYields(llvm::Function &F, llvm::Value *Ctx);

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
