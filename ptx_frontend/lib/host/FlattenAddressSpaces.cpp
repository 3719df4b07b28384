//===- FlattenAddressSpaces.cpp - State spaces onto host memory -----------===//
//
// On the host every state space is ordinary memory. Global, const and local
// window addresses already are host addresses; a shared-window address,
// though, is an offset into the block's shared arena, which each worker
// thread owns. This pass lays the kernel's shared variables out in that
// arena, rewrites `inttoptr` into addrspace(3) as arena base + offset and
// `ptrtoint` out of it as pointer - base, and finally makes every memory
// instruction use address space 0 so the x86 backend sees plain pointers.
//
//===----------------------------------------------------------------------===//
#include "HostPasses.h"

#include "cuhip/ptx/Lower.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#include <map>

using namespace llvm;

namespace cuhip::ptx::host {

// The AST of ptx:: has Function/Module/Instruction too; here they are LLVM's.
using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

bool isShared(const Value *V) {
  auto *PT = dyn_cast<PointerType>(V->getType());
  return PT && PT->getAddressSpace() == addrspace::Shared;
}

/// Shared variables that F refers to, in module order.
SmallVector<GlobalVariable *> sharedVariablesOf(Function &F) {
  SmallVector<GlobalVariable *> Out;
  for (GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != addrspace::Shared)
      continue;
    SmallVector<const User *, 8> Work(GV.users().begin(), GV.users().end());
    SmallPtrSet<const User *, 8> Seen;
    bool Used = false;
    while (!Work.empty() && !Used) {
      const User *U = Work.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (auto *I = dyn_cast<Instruction>(U))
        Used = I->getFunction() == &F;
      else
        Work.append(U->user_begin(), U->user_end());
    }
    if (Used)
      Out.push_back(&GV);
  }
  return Out;
}

} // namespace

uint32_t flattenAddressSpaces(Function &F, Value *SharedBase,
                              uint32_t &SharedAlign, uint32_t ReservedBytes) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  LLVMContext &Ctx = F.getContext();
  Type *I8 = Type::getInt8Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);

  // 1. Layout: static variables in module order, the dynamic array last.
  SmallVector<GlobalVariable *> Vars = sharedVariablesOf(F);
  std::map<GlobalVariable *, uint64_t> Offsets;
  uint64_t Size = ReservedBytes;
  SharedAlign = 16;
  SmallVector<GlobalVariable *> Dynamic;
  for (GlobalVariable *GV : Vars) {
    if (GV->hasMetadata("cuhip.dynamic_shared")) {
      Dynamic.push_back(GV);
      SharedAlign = std::max<uint32_t>(SharedAlign, GV->getAlign().valueOrOne().value());
      continue;
    }
    uint64_t Al = GV->getAlign().valueOrOne().value();
    SharedAlign = std::max<uint32_t>(SharedAlign, Al);
    Size = alignTo(Size, Al);
    Offsets[GV] = Size;
    Size += DL.getTypeAllocSize(GV->getValueType());
  }
  uint64_t DynamicStart = alignTo(Size, SharedAlign);
  for (GlobalVariable *GV : Dynamic)
    Offsets[GV] = DynamicStart;

  // 2. Uses of each variable: first as instructions, then as pointers into
  //    the arena.
  for (auto &[GV, Off] : Offsets) {
    convertUsersOfConstantsToInstructions({GV}, &F);
    SmallVector<Use *> Uses;
    for (Use &U : GV->uses())
      if (auto *I = dyn_cast<Instruction>(U.getUser()))
        if (I->getFunction() == &F)
          Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *I = cast<Instruction>(U->getUser());
      if (auto *P2I = dyn_cast<PtrToIntInst>(I)) {
        P2I->replaceAllUsesWith(ConstantInt::get(P2I->getType(), Off));
        P2I->eraseFromParent();
        continue;
      }
      IRBuilder<> B(Ctx);
      if (auto *Phi = dyn_cast<PHINode>(I))
        B.SetInsertPoint(Phi->getIncomingBlock(*U)->getTerminator());
      else
        B.SetInsertPoint(I);
      Value *P = B.CreateInBoundsGEP(I8, SharedBase, B.getInt64(Off));
      U->set(B.CreateAddrSpaceCast(P, GV->getType()));
    }
  }

  // 3. Window conversions.
  SmallVector<Instruction *> Work;
  for (Instruction &I : instructions(F))
    if ((isa<IntToPtrInst>(I) && isShared(&I)) ||
        (isa<PtrToIntInst>(I) && isShared(I.getOperand(0))))
      Work.push_back(&I);
  for (Instruction *I : Work) {
    IRBuilder<> B(I);
    if (isa<IntToPtrInst>(I)) {
      Value *Off = B.CreateZExtOrTrunc(I->getOperand(0), I64);
      Value *P = B.CreateInBoundsGEP(I8, SharedBase, Off);
      I->replaceAllUsesWith(B.CreateAddrSpaceCast(P, I->getType()));
    } else {
      Value *P = B.CreatePtrToInt(
          B.CreateAddrSpaceCast(I->getOperand(0), PointerType::get(Ctx, 0)), I64);
      Value *Base = B.CreatePtrToInt(SharedBase, I64);
      I->replaceAllUsesWith(B.CreateZExtOrTrunc(B.CreateSub(P, Base), I->getType()));
    }
    I->eraseFromParent();
  }

  // 4. Every memory access through a flat pointer. Atomics on `.shared`
  // memory are marked (SharedAtomicMD): a block's shared arena is only ever
  // touched by the one host thread that runs the whole block, so they can
  // be plain read-modify-writes once the threads are sequential
  // (lowerSharedAtomics), but not while SIMD lanes run side by side.
  PointerType *Flat = PointerType::get(Ctx, 0);
  SmallVector<Instruction *> SharedAtomics;
  for (Instruction &I : instructions(F)) {
    unsigned Idx;
    if (isa<LoadInst>(I))
      Idx = LoadInst::getPointerOperandIndex();
    else if (isa<StoreInst>(I))
      Idx = StoreInst::getPointerOperandIndex();
    else if (isa<AtomicRMWInst>(I))
      Idx = AtomicRMWInst::getPointerOperandIndex();
    else if (isa<AtomicCmpXchgInst>(I))
      Idx = AtomicCmpXchgInst::getPointerOperandIndex();
    else
      continue;
    Value *P = I.getOperand(Idx);
    if (P->getType() == Flat)
      continue;
    if (isShared(P) && (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)))
      SharedAtomics.push_back(&I);
    IRBuilder<> B(&I);
    I.setOperand(Idx, B.CreateAddrSpaceCast(P, Flat));
  }
  for (Instruction *I : SharedAtomics)
    I->setMetadata(SharedAtomicMD, MDNode::get(Ctx, {}));
  return uint32_t(DynamicStart);
}

void lowerSharedAtomic(Instruction &I) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    lowerAtomicRMWInst(RMW);
  else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    lowerAtomicCmpXchgInst(X);
}

void lowerSharedAtomics(Function &F) {
  SmallVector<Instruction *> Marked;
  for (Instruction &I : instructions(F))
    if (I.getMetadata(SharedAtomicMD))
      Marked.push_back(&I);
  for (Instruction *I : Marked)
    lowerSharedAtomic(*I);
}

} // namespace cuhip::ptx::host
