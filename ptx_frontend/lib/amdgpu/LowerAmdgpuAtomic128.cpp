//===- LowerAmdgpuAtomic128.cpp - 128-bit atomics under a lock table -------===//
//
// AMD GPUs have 32- and 64-bit atomics only, so a 128-bit compare-and-swap
// or exchange runs as a critical section: the lane takes one of 1024 spin
// locks in global memory, chosen by its 16-byte-aligned address, reads the
// old value, writes the new one (cas: only when the old value equals the
// compared one, as the ISA's cas does) and releases the lock. Every 128-bit
// atomic of a code object takes the lock of its address, so these atomics
// are atomic with respect to each other, which is what PTX promises for
// them; a 32- or 64-bit atomic on part of the same 16 bytes does not take
// the lock and is not ordered with them (docs/amdgpu.md).
//
// The lanes of a wavefront run in lockstep, so a lane must never wait for a
// lock another lane of its own wavefront holds: each lane tries the lock,
// and a lane that got it does its whole critical section and releases it in
// the same iteration; lanes that did not get it try again in the next one.
// Lock operations use the atomic's own scope (a `.cta` atomic contends only
// with its block), with acquire on taking the lock and release on freeing
// it, which is at least the ordering any PTX atomic asks for.
//
//===----------------------------------------------------------------------===//
#include "LowerAmdgpuAtomic128.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace cuhip::ptx::amdgpu {

namespace {
constexpr unsigned NumLocks = 1024;
constexpr unsigned GlobalAS = 1;

GlobalVariable *lockTable(Module &M) {
  const char *Name = "cuhip.atomic128.locks";
  if (GlobalVariable *G = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return G;
  auto *Ty = ArrayType::get(Type::getInt32Ty(M.getContext()), NumLocks);
  auto *G = new GlobalVariable(M, Ty, /*isConstant=*/false,
                               GlobalValue::InternalLinkage,
                               ConstantAggregateZero::get(Ty), Name, nullptr,
                               GlobalValue::NotThreadLocal, GlobalAS);
  G->setAlignment(Align(4));
  return G;
}

/// Replaces I (a 128-bit cmpxchg, or atomicrmw xchg when Cmp is null) at
/// Ptr with new value New by the locked sequence; returns the old value.
Value *emitLocked(Instruction &I, Value *Ptr, Value *Cmp, Value *New,
                  SyncScope::ID Scope) {
  Function &F = *I.getFunction();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I128 = Type::getInt128Ty(Ctx);
  BasicBlock *Before = I.getParent();
  BasicBlock *After = Before->splitBasicBlock(I.getIterator(), "atomic128.done");
  BasicBlock *Try = BasicBlock::Create(Ctx, "atomic128.try", &F, After);
  BasicBlock *Locked = BasicBlock::Create(Ctx, "atomic128.locked", &F, After);
  BasicBlock *Retry = BasicBlock::Create(Ctx, "atomic128.retry", &F, After);
  Before->getTerminator()->eraseFromParent();

  IRBuilder<> B(Before);
  // The lock of the 16-byte slot: (address >> 4) mod NumLocks.
  Value *Addr = B.CreatePtrToInt(Ptr, B.getInt64Ty());
  Value *Slot = B.CreateAnd(B.CreateLShr(Addr, 4), NumLocks - 1);
  GlobalVariable *Locks = lockTable(M);
  Value *Lock = B.CreateInBoundsGEP(Locks->getValueType(), Locks,
                                    {B.getInt64(0), Slot}, "atomic128.lock");
  B.CreateBr(Try);

  B.SetInsertPoint(Try);
  auto *Take = B.CreateAtomicCmpXchg(Lock, B.getInt32(0), B.getInt32(1),
                                     Align(4), AtomicOrdering::Acquire,
                                     AtomicOrdering::Monotonic, Scope);
  B.CreateCondBr(B.CreateExtractValue(Take, 1), Locked, Retry);

  // Another lane holds the lock: back off briefly, try again.
  B.SetInsertPoint(Retry);
  B.CreateIntrinsic(Intrinsic::amdgcn_s_sleep, {}, {B.getInt32(1)});
  B.CreateBr(Try);

  B.SetInsertPoint(Locked);
  // Inside the critical section the value is read and written with plain
  // accesses: the lock's acquire and release order them with every other
  // holder's, and keep the compiler from moving them out of the section.
  LoadInst *Old = B.CreateAlignedLoad(I128, Ptr, Align(16), "atomic128.old");
  if (Cmp) {
    BasicBlock *Write = BasicBlock::Create(Ctx, "atomic128.write", &F, After);
    BasicBlock *Release =
        BasicBlock::Create(Ctx, "atomic128.release", &F, After);
    B.CreateCondBr(B.CreateICmpEQ(Old, Cmp), Write, Release);
    B.SetInsertPoint(Write);
    B.CreateAlignedStore(New, Ptr, Align(16));
    B.CreateBr(Release);
    B.SetInsertPoint(Release);
  } else {
    B.CreateAlignedStore(New, Ptr, Align(16));
  }
  StoreInst *Unlock = B.CreateAlignedStore(B.getInt32(0), Lock, Align(4));
  Unlock->setAtomic(AtomicOrdering::Release, Scope);
  B.CreateBr(After);
  return Old;
}
} // namespace

unsigned lowerAtomics128(Function &F) {
  std::vector<Instruction *> Work;
  for (Instruction &I : instructions(F)) {
    if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (X->getNewValOperand()->getType()->isIntegerTy(128))
        Work.push_back(X);
    } else if (auto *R = dyn_cast<AtomicRMWInst>(&I)) {
      if (R->getOperation() == AtomicRMWInst::Xchg &&
          R->getValOperand()->getType()->isIntegerTy(128))
        Work.push_back(R);
    }
  }
  for (Instruction *I : Work) {
    if (auto *X = dyn_cast<AtomicCmpXchgInst>(I)) {
      Value *Old = emitLocked(*X, X->getPointerOperand(), X->getCompareOperand(),
                              X->getNewValOperand(), X->getSyncScopeID());
      // {old, success} as cmpxchg returns it.
      IRBuilder<> B(X);
      Value *Pair = PoisonValue::get(X->getType());
      Pair = B.CreateInsertValue(Pair, Old, 0);
      Pair = B.CreateInsertValue(
          Pair, B.CreateICmpEQ(Old, X->getCompareOperand()), 1);
      X->replaceAllUsesWith(Pair);
      X->eraseFromParent();
    } else {
      auto *R = cast<AtomicRMWInst>(I);
      Value *Old = emitLocked(*R, R->getPointerOperand(), nullptr,
                              R->getValOperand(), R->getSyncScopeID());
      R->replaceAllUsesWith(Old);
      R->eraseFromParent();
    }
  }
  return Work.size();
}

} // namespace cuhip::ptx::amdgpu
