//===- PollLoopYield.cpp - Let polling loops give the worker away ---------===//
//
// A loop that only reads memory with atomic or volatile loads (or tries to
// take a lock with cmpxchg/exchange), and whose exit depends on what it
// read, waits for another thread to write.
// When that thread is another block of a cooperative grid running as a
// fiber on the same worker (grid.sync()'s arrival counter, flags between
// blocks), spinning would never let it run. Each back edge of such a loop
// therefore gets a check of the block context's fiber and, when there is
// one, a call to cuhip_block_yield. Outside cooperative launches the fiber
// is null and the loop costs one extra load and branch per iteration, and
// only loops that do nothing but poll are touched, so ordinary kernels are
// unchanged. A yield in a loop that tries to take a lock is marked
// (PollLockMD): the SIMD path takes kernels whose polling loops only read.
//
//===----------------------------------------------------------------------===//
#include "HostPasses.h"

#include "cuhip/ptx/HostTarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstddef>

#define DEBUG_TYPE "cuhip-poll-yield"

using namespace llvm;

namespace cuhip::ptx::host {

// The AST of ptx:: has Function/Module/Instruction too; here they are LLVM's.
using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

/// Does I observe another thread's write (the thing a poll waits for)?
bool isPollingRead(const Instruction &I) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return L->isAtomic() || L->isVolatile();
  if (isa<AtomicCmpXchgInst>(I))
    return true; // a lock: while (atomicCAS(&l, 0, 1) != 0);
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getOperation() == AtomicRMWInst::Xchg;
  return false;
}

/// Does leaving L depend on a polling read inside it? A loop that reads
/// volatile data but stops after a count (summing a volatile array) does
/// not wait for anybody.
bool exitDependsOnPollingRead(const Loop &L) {
  SmallVector<BasicBlock *> Exiting;
  L.getExitingBlocks(Exiting);
  SmallVector<const Value *> Work;
  SmallPtrSet<const Value *, 32> Seen;
  for (BasicBlock *BB : Exiting) {
    const Instruction *T = BB->getTerminator();
    if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
      Work.push_back(Br->getCondition());
    else if (auto *Sw = dyn_cast<SwitchInst>(T))
      Work.push_back(Sw->getCondition());
  }
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (isPollingRead(*I))
      return true;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

/// Memcheck mode checks each access with a call before it; the check
/// writes nothing the kernel can see, so a polling loop stays one.
bool isMemcheckCall(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == "cuhip_memcheck";
}

/// Does L try to take a lock (cmpxchg or exchange) rather than only read?
bool takesLock(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isPollingRead(I) && !isa<LoadInst>(I))
        return true;
  return false;
}

/// A loop polls when whether it ends depends on memory another thread
/// writes, and it writes nothing itself except through its lock attempts:
/// a loop that also stores or adds does work of its own and is not a wait.
bool isPollingLoop(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (isPollingRead(I) || isa<FenceInst>(I) ||
          (isa<IntrinsicInst>(I) && !I.mayWriteToMemory()) || isMemcheckCall(I))
        continue;
      if (I.mayWriteToMemory() || isa<CallBase>(I))
        return false;
    }
  return exitDependsOnPollingRead(L);
}

} // namespace

unsigned insertPollLoopYields(Function &F, Value *Ctx) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  struct BackEdge {
    BasicBlock *Latch, *Header;
    bool Lock;
  };
  SmallVector<BackEdge> BackEdges;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!isPollingLoop(*L))
      continue;
    SmallVector<BasicBlock *> Latches;
    L->getLoopLatches(Latches);
    for (BasicBlock *Latch : Latches)
      BackEdges.push_back({Latch, L->getHeader(), takesLock(*L)});
  }
  if (BackEdges.empty())
    return 0;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  FunctionCallee Yield = M.getOrInsertFunction(
      "cuhip_block_yield",
      FunctionType::get(Type::getVoidTy(C), {PointerType::get(C, 0)}, false));
  unsigned Inserted = 0;
  for (auto [Latch, Header, Lock] : BackEdges) {
    // An edge of an outer polling loop may already have been split for an
    // inner one that shares its latch; the split block is a latch too.
    if (!is_contained(successors(Latch), Header))
      continue;
    BasicBlock *Edge = SplitEdge(Latch, Header);
    IRBuilder<> B(Edge->getTerminator());
    Value *FiberSlot = B.CreateConstInBoundsGEP1_32(
        B.getInt8Ty(), Ctx, offsetof(BlockContext, Fiber));
    Value *Fiber =
        B.CreateAlignedLoad(B.getPtrTy(), FiberSlot, Align(8), "fiber");
    Value *IsFiber = B.CreateIsNotNull(Fiber, "is.fiber");
    Instruction *Then =
        SplitBlockAndInsertIfThen(IsFiber, Edge->getTerminator(), false);
    IRBuilder<> TB(Then);
    CallInst *Call = TB.CreateCall(Yield, {Ctx});
    // Lanes of one SIMD program that contend for a lock would wait for
    // each other forever (the loop runs while any lane spins, and the lane
    // holding the lock waits at the loop's exit): such loops keep the
    // scalar path (WarpVectorize). A loop that only reads waits for other
    // blocks (a look-back) and may run as lanes.
    if (Lock)
      Call->setMetadata(PollLockMD, MDNode::get(C, {}));
    ++Inserted;
  }
  return Inserted;
}

} // namespace cuhip::ptx::host
