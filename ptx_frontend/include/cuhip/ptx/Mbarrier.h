//===- Mbarrier.h - mbarrier objects in the target-neutral IR -------------===//
//
// A PTX mbarrier is an opaque 64-bit object in shared memory that counts
// arrivals (and asynchronous transactions, the tx-count) phase by phase.
// The lowering keeps every mbarrier instruction as one call to a
// `cuhip.mbarrier.*` function (below), so that a target can tell the waits
// from the rest: the host target makes each wait a point where the block's
// other threads run (WorkGroupLowering.cpp). expandMbarrierCalls then turns
// the calls into code on the object's word, whose encoding is ours to
// choose because the ISA leaves it opaque.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace llvm {
class CallInst;
class Function;
class IRBuilderBase;
template <typename Fn> class function_ref;
} // namespace llvm

namespace cuhip::ptx::mbarrier {

// The object's word. The ISA bounds the expected and pending arrival counts
// to [0, 2^20 - 1] and the tx-count to [-(2^20 - 1), 2^20 - 1], so:
//   bits  0..19  pending arrivals of the current phase
//   bits 20..39  expected arrivals per phase (arrive_drop lowers it)
//   bits 40..60  tx-count, a 21-bit two's complement number
//   bit  63      the current phase's parity
// The state an arrive returns is the word before the arrival, so
// pending_count reads bits 0..19 of it and a wait on it tests bit 63.
inline constexpr unsigned CountBits = 20;
inline constexpr uint64_t CountMask = (uint64_t(1) << CountBits) - 1;
inline constexpr unsigned PendingShift = 0;
inline constexpr unsigned ExpectedShift = 20;
inline constexpr unsigned TxShift = 40;
inline constexpr unsigned TxBits = 21;
inline constexpr uint64_t TxMask = (uint64_t(1) << TxBits) - 1;
inline constexpr unsigned PhaseShift = 63;

/// Has the phase of parity Parity completed? A wait names the current phase
/// or the one before it (the ISA allows nothing else), so it has completed
/// exactly when the current phase has the other parity.
inline constexpr bool phaseCompleted(uint64_t Word, uint32_t Parity) {
  return (Word >> PhaseShift) != (Parity & 1);
}

// The calls of the neutral IR; every address is a generic pointer to the
// object (a .shared form's address is cast to generic).
/// void (ptr %obj, i32 %count): phase 0, expected = pending = count, tx 0.
inline constexpr const char InitName[] = "cuhip.mbarrier.init";
/// void (ptr %obj): the object is no longer one.
inline constexpr const char InvalName[] = "cuhip.mbarrier.inval";
/// i64 (ptr %obj, i32 %count, i32 %tx, i32 %flags): adds tx to the
/// tx-count, counts `count` arrivals (0 for expect_tx/complete_tx), and
/// completes the phase when no arrival and no transaction is pending.
/// Returns the word before the operation (the PTX `state`).
inline constexpr const char ArriveName[] = "cuhip.mbarrier.arrive";
/// i1 (ptr %obj, i32 %parity, i32 %flags): has the phase of that parity
/// completed? test_wait answers at once; try_wait may wait a while first.
inline constexpr const char TestWaitName[] = "cuhip.mbarrier.test_wait";
inline constexpr const char TryWaitName[] = "cuhip.mbarrier.try_wait";

/// The %flags operand (a constant).
enum Flags : uint32_t {
  FlagDrop = 1,       // arrive_drop: the expected count falls by count too
  FlagNoComplete = 2, // .noComplete (completing is undefined behaviour)
  FlagRelaxed = 4,    // .relaxed: no release (arrive) or acquire (wait)
};

/// Is Call a test_wait or try_wait?
bool isWait(const llvm::CallInst &Call);
/// Is Call any cuhip.mbarrier.* call?
bool isMbarrierCall(const llvm::CallInst &Call);

/// Replaces F's cuhip.mbarrier.* calls with code on the object's word.
/// Atomic: updates are compare-and-swap loops, with the release and acquire
/// orderings of the instructions at syncscope("block") (a GPU, where the
/// block's threads run at once); otherwise plain loads and stores (the host,
/// where one OS thread runs a whole block and the object lives in that
/// block's shared memory). Pause, when given, is emitted once between two
/// tests of a try_wait whose phase has not completed yet.
void expandMbarrierCalls(
    llvm::Function &F, bool Atomic,
    llvm::function_ref<void(llvm::IRBuilderBase &)> Pause);

} // namespace cuhip::ptx::mbarrier
