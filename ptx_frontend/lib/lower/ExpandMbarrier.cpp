//===- ExpandMbarrier.cpp - cuhip.mbarrier.* calls to code on the word ----===//
//
// Turns the neutral IR's mbarrier calls (Mbarrier.h) into loads, stores and
// arithmetic on the object's 64-bit word, for every target:
//
//  * init stores phase 0, pending = expected = count, tx-count 0; inval
//    stores 0 (any later use but init is undefined in PTX).
//  * arrive computes the next word from the old one: the tx-count moves
//    by tx, arrive_drop lowers the expected count by count, the pending
//    count falls by count, and when both the pending count and the
//    tx-count are then zero the phase completes: the parity flips, the
//    pending count is reloaded from the expected count and the tx-count
//    is cleared, in the same update, so no arrival of the next phase can
//    slip in between. The old word is the result.
//  * test_wait/try_wait compare the word's parity with the awaited one.
//
// On a GPU the block's threads update the word at once, so an update is a
// compare-and-swap loop (release unless .relaxed) and a wait an acquire
// load; on the host a block's threads run one after another on one OS
// thread and plain accesses suffice.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/Mbarrier.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace cuhip::ptx::mbarrier {

namespace {

StringRef calleeName(const CallInst &Call) {
  const Function *F = Call.getCalledFunction();
  return F ? F->getName() : StringRef();
}

uint32_t flagsOf(const CallInst &Call, unsigned Idx) {
  // The lowering always passes a constant.
  return uint32_t(cast<ConstantInt>(Call.getArgOperand(Idx))->getZExtValue());
}

/// The word after an arrive-on of Count arrivals and a tx-count change of
/// Tx (sign-extended) on Old.
Value *nextWord(IRBuilderBase &B, Value *Old, Value *Count, Value *Tx,
                bool Drop) {
  Type *I64 = B.getInt64Ty();
  auto field = [&](unsigned Shift, uint64_t Mask) {
    return B.CreateAnd(Shift ? B.CreateLShr(Old, Shift) : Old, Mask);
  };
  Value *Pending = field(PendingShift, CountMask);
  Value *Expected = field(ExpectedShift, CountMask);
  Value *TxCount = field(TxShift, TxMask);
  Value *Phase = B.CreateLShr(Old, PhaseShift);
  Value *N = B.CreateZExt(Count, I64);
  // Two's complement arithmetic modulo 2^21 is the tx-count's own.
  Value *NewTx = B.CreateAnd(B.CreateAdd(TxCount, B.CreateSExt(Tx, I64)), TxMask);
  if (Drop)
    Expected = B.CreateAnd(B.CreateSub(Expected, N), CountMask);
  Value *NewPending = B.CreateAnd(B.CreateSub(Pending, N), CountMask);
  Value *Complete =
      B.CreateAnd(B.CreateICmpEQ(NewPending, B.getInt64(0)),
                  B.CreateICmpEQ(NewTx, B.getInt64(0)), "mbarrier.complete");
  NewPending = B.CreateSelect(Complete, Expected, NewPending);
  NewTx = B.CreateSelect(Complete, B.getInt64(0), NewTx);
  Value *NewPhase = B.CreateXor(Phase, B.CreateZExt(Complete, I64));
  static_assert(PendingShift == 0, "the pending count is the low bits");
  Value *W = B.CreateOr(NewPending, B.CreateShl(Expected, ExpectedShift));
  W = B.CreateOr(W, B.CreateShl(NewTx, TxShift));
  return B.CreateOr(W, B.CreateShl(NewPhase, PhaseShift), "mbarrier.next");
}

class Expander {
public:
  Expander(bool Atomic, function_ref<void(IRBuilderBase &)> Pause)
      : Atomic(Atomic), Pause(Pause) {}

  void expand(CallInst *Call);

private:
  bool Atomic;
  function_ref<void(IRBuilderBase &)> Pause;

  SyncScope::ID blockScope(LLVMContext &C) {
    return C.getOrInsertSyncScopeID("block");
  }
  Value *arrive(CallInst *Call);
  Value *test(IRBuilderBase &B, Value *Obj, Value *Parity, bool Relaxed);
  Value *wait(CallInst *Call, bool Try);
};

Value *Expander::arrive(CallInst *Call) {
  IRBuilder<> B(Call);
  Value *Obj = Call->getArgOperand(0);
  Value *Count = Call->getArgOperand(1);
  Value *Tx = Call->getArgOperand(2);
  uint32_t Flags = flagsOf(*Call, 3);
  bool Drop = Flags & FlagDrop;
  Type *I64 = B.getInt64Ty();
  if (!Atomic) {
    LoadInst *Old = B.CreateAlignedLoad(I64, Obj, Align(8), "mbarrier.old");
    B.CreateAlignedStore(nextWord(B, Old, Count, Tx, Drop), Obj, Align(8));
    return Old;
  }
  // old = *obj; do { new = next(old); } while (!cas(obj, old -> new));
  LLVMContext &C = Call->getContext();
  LoadInst *First = B.CreateAlignedLoad(I64, Obj, Align(8), "mbarrier.old");
  First->setAtomic(AtomicOrdering::Monotonic, blockScope(C));
  BasicBlock *Before = Call->getParent();
  BasicBlock *After = SplitBlock(Before, Call->getIterator());
  BasicBlock *Loop =
      BasicBlock::Create(C, "mbarrier.cas", Before->getParent(), After);
  Before->getTerminator()->setSuccessor(0, Loop);
  IRBuilder<> LB(Loop);
  PHINode *Old = LB.CreatePHI(I64, 2, "mbarrier.old");
  Old->addIncoming(First, Before);
  Value *New = nextWord(LB, Old, Count, Tx, Drop);
  AtomicOrdering Ord = Flags & FlagRelaxed ? AtomicOrdering::Monotonic
                                           : AtomicOrdering::Release;
  AtomicCmpXchgInst *Cas = LB.CreateAtomicCmpXchg(
      Obj, Old, New, MaybeAlign(8), Ord, AtomicOrdering::Monotonic,
      blockScope(C));
  Old->addIncoming(LB.CreateExtractValue(Cas, 0), Loop);
  LB.CreateCondBr(LB.CreateExtractValue(Cas, 1), After, Loop);
  return Old;
}

Value *Expander::test(IRBuilderBase &B, Value *Obj, Value *Parity,
                      bool Relaxed) {
  LoadInst *W = B.CreateAlignedLoad(B.getInt64Ty(), Obj, Align(8), "mbarrier");
  if (Atomic)
    W->setAtomic(Relaxed ? AtomicOrdering::Monotonic : AtomicOrdering::Acquire,
                 blockScope(B.getContext()));
  Value *Current = B.CreateTrunc(B.CreateLShr(W, PhaseShift), B.getInt32Ty());
  return B.CreateICmpNE(Current, B.CreateAnd(Parity, 1), "mbarrier.done");
}

Value *Expander::wait(CallInst *Call, bool Try) {
  IRBuilder<> B(Call);
  Value *Obj = Call->getArgOperand(0), *Parity = Call->getArgOperand(1);
  bool Relaxed = flagsOf(*Call, 2) & FlagRelaxed;
  Value *Done = test(B, Obj, Parity, Relaxed);
  if (!Try || !Pause)
    return Done;
  // try_wait may suspend the thread for a while before it answers false:
  // one pause, then a second test.
  BasicBlock *Before = Call->getParent();
  Instruction *Then = SplitBlockAndInsertIfThen(B.CreateNot(Done),
                                                Call->getIterator(), false);
  IRBuilder<> TB(Then);
  Pause(TB);
  Value *Again = test(TB, Obj, Parity, Relaxed);
  BasicBlock *ThenBB = Then->getParent();
  B.SetInsertPoint(Call);
  PHINode *Phi = B.CreatePHI(B.getInt1Ty(), 2, "mbarrier.done");
  Phi->addIncoming(Done, Before);
  Phi->addIncoming(Again, ThenBB);
  return Phi;
}

void Expander::expand(CallInst *Call) {
  StringRef Name = calleeName(*Call);
  IRBuilder<> B(Call);
  Value *Result = nullptr;
  if (Name == InitName) {
    Value *Count =
        B.CreateAnd(B.CreateZExt(Call->getArgOperand(1), B.getInt64Ty()),
                    CountMask);
    Value *W = B.CreateOr(Count, B.CreateShl(Count, ExpectedShift));
    StoreInst *S = B.CreateAlignedStore(W, Call->getArgOperand(0), Align(8));
    if (Atomic)
      S->setAtomic(AtomicOrdering::Monotonic, blockScope(Call->getContext()));
  } else if (Name == InvalName) {
    StoreInst *S =
        B.CreateAlignedStore(B.getInt64(0), Call->getArgOperand(0), Align(8));
    if (Atomic)
      S->setAtomic(AtomicOrdering::Monotonic, blockScope(Call->getContext()));
  } else if (Name == ArriveName) {
    Result = arrive(Call);
  } else {
    Result = wait(Call, Name == TryWaitName);
  }
  if (Result)
    Call->replaceAllUsesWith(Result);
  Call->eraseFromParent();
}

} // namespace

bool isWait(const CallInst &Call) {
  StringRef N = calleeName(Call);
  return N == TestWaitName || N == TryWaitName;
}

bool isMbarrierCall(const CallInst &Call) {
  StringRef N = calleeName(Call);
  return N == InitName || N == InvalName || N == ArriveName ||
         N == TestWaitName || N == TryWaitName;
}

void expandMbarrierCalls(Function &F, bool Atomic,
                         function_ref<void(IRBuilderBase &)> Pause) {
  SmallVector<CallInst *> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && isMbarrierCall(*CI))
      Calls.push_back(CI);
  Expander E(Atomic, Pause);
  for (CallInst *CI : Calls)
    E.expand(CI);
}

} // namespace cuhip::ptx::mbarrier
