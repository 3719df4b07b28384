//===- LowerAmdgpuBarrier.cpp - PTX barriers 0-15 in LDS ------------------===//
//
// AMDGPU has one hardware barrier per workgroup (s_barrier), which only
// waits for *every* wavefront. PTX has sixteen per CTA, which can wait for a
// thread count, be arrived at without waiting (bar.arrive) and reduce a
// predicate (bar.red). Barriers that involve every thread of the block and
// nothing else keep s_barrier: `bar.sync a` / `barrier.sync a` without a
// count, whatever a (the CPU backend also treats them as the block barrier),
// and bar.red without a count (a workgroup atomic sum of each warp's ballot
// count between two s_barriers). The others -- bar.sync/barrier.sync a, b,
// bar.arrive a, b and bar.red with a count -- use one 64-bit word per barrier
// in a module LDS variable, updated by one leader lane per 32-lane warp
// (the lowest active lane; on wave64 each half of the wavefront has its
// own) with a compare-and-swap at workgroup scope. The word holds the
// threads arrived in the current phase, the phase's reduction sum, the sums
// of the last two completed phases and a generation. The arrival that
// reaches the count resets the arrivals and the sum, stores the sum in the
// slot of its generation's parity and bumps the generation in the same
// compare-and-swap, so no arrival of the next phase can be lost or counted
// twice; the other waiting leaders poll the word with s_sleep until the
// generation changes, then read their phase's sum. A release fence precedes
// the arrival and an acquire fence follows the wait, the memory ordering of
// bar.sync. Kernels that reach this state clear it at entry (thread 0, then
// s_barrier): LDS is not zeroed at dispatch. docs/amdgpu.md lists where
// this differs from PTX (wave64 halves waiting at different barriers in
// divergent code, lanes of one warp arriving separately).
//
//===----------------------------------------------------------------------===//
#include "LowerAmdgpuBarrier.h"
#include "LowerAmdgpuWarp.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace cuhip::ptx::amdgpu {

// The PTX AST has its own Module/Function/Instruction; here they are LLVM's.
using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

constexpr unsigned LocalAS = 3;
constexpr unsigned NumBarriers = 16;
constexpr char StateName[] = "cuhip.amdgpu.cta.barriers";

// One barrier's 64-bit word: four 11-bit counters (a block has at most 1024
// threads) and a 20-bit generation that wraps.
constexpr unsigned FieldBits = 11;
constexpr uint64_t FieldMask = (1u << FieldBits) - 1;
constexpr unsigned SumShift = 11;   // this phase's reduction sum
constexpr unsigned ResultShift = 22; // sums of completed phases, by parity
constexpr unsigned GenShift = 44;

/// The module's barrier state: { [16 x i64] words, i32 block-wide bar.red
/// sum }, created on first use.
GlobalVariable *barrierState(Module &M) {
  if (GlobalVariable *GV = M.getNamedGlobal(StateName))
    return GV;
  LLVMContext &Ctx = M.getContext();
  auto *Ty = StructType::get(
      ArrayType::get(Type::getInt64Ty(Ctx), NumBarriers), Type::getInt32Ty(Ctx));
  // LDS cannot be initialised by the loader: poison, cleared at kernel entry.
  auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                                PoisonValue::get(Ty), StateName, nullptr,
                                GlobalValue::NotThreadLocal, LocalAS);
  GV->setAlignment(Align(8));
  return GV;
}

class BarrierLowering {
public:
  BarrierLowering(CallBase &CB, const Target &T)
      : CB(CB), B(&CB), Ctx(CB.getContext()), Wave64(T.WavefrontSize == 64),
        WG(Ctx.getOrInsertSyncScopeID("workgroup")) {}

  bool run();

private:
  CallBase &CB;
  IRBuilder<> B;
  LLVMContext &Ctx;
  bool Wave64;
  SyncScope::ID WG;

  enum class RedOp { None, Popc, And, Or };

  Module &module() { return *CB.getModule(); }
  Value *arg(unsigned I) { return CB.getArgOperand(I); }

  // The lane and ballots over its warp (LowerAmdgpuWarp.cpp).
  Value *laneInWave() { return emitLaneInWave(B, Wave64); }
  Value *warpBallot(Value *P, Value *Base) {
    return emitWarpBallot(B, Wave64, P, Base);
  }

  /// The warp's view of the barrier: its active lanes, its leader and
  /// whether this lane is it, and the warp's contribution to a reduction
  /// (true predicates for popc/or, false ones for and).
  struct Warp {
    Value *Base, *Lane, *Active, *Arrivals, *Leader, *IsLeader, *Contrib;
  };
  Warp warp(RedOp Op, Value *Pred) {
    Warp W;
    Value *WaveLane = laneInWave();
    W.Base = Wave64 ? B.CreateAnd(WaveLane, B.getInt32(32)) : B.getInt32(0);
    W.Lane = Wave64 ? B.CreateAnd(WaveLane, B.getInt32(31)) : WaveLane;
    W.Active = warpBallot(B.getTrue(), W.Base);
    W.Arrivals = B.CreateUnaryIntrinsic(Intrinsic::ctpop, W.Active);
    W.Leader = B.CreateBinaryIntrinsic(Intrinsic::cttz, W.Active, B.getTrue());
    W.IsLeader = B.CreateICmpEQ(W.Lane, W.Leader, "bar.leader");
    W.Contrib = B.getInt32(0);
    if (Op != RedOp::None) {
      Value *Counted = Op == RedOp::And ? B.CreateNot(Pred) : Pred;
      W.Contrib = B.CreateUnaryIntrinsic(Intrinsic::ctpop,
                                         warpBallot(Counted, W.Base));
    }
    return W;
  }

  /// V of the warp's leader, in every lane of the warp.
  Value *fromLeader(const Warp &W, Value *V) {
    Value *Addr = B.CreateShl(B.CreateAdd(W.Base, W.Leader), B.getInt32(2));
    return B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {}, {Addr, V});
  }

  /// The thread count a counted barrier waits for; a count of 0 (never
  /// valid in PTX) means the whole block, as on the CPU backend.
  Value *expectedCount(Value *Count) {
    if (auto *C = dyn_cast<ConstantInt>(Count); C && !C->isZero())
      return Count;
    Value *DP = B.CreateIntrinsic(Intrinsic::amdgcn_dispatch_ptr, {});
    Value *Size = nullptr;
    for (unsigned Dim = 0; Dim < 3; ++Dim) {
      Value *P = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), DP, 4 + 2 * Dim);
      LoadInst *L = B.CreateAlignedLoad(B.getInt16Ty(), P, Align(2));
      L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
      Value *N = B.CreateZExt(L, B.getInt32Ty());
      Size = Size ? B.CreateMul(Size, N) : N;
    }
    return B.CreateSelect(B.CreateICmpEQ(Count, B.getInt32(0)), Size, Count);
  }

  void fence(AtomicOrdering O) { B.CreateFence(O, WG); }
  void blockBarrier() {
    fence(AtomicOrdering::Release);
    B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, {});
    fence(AtomicOrdering::Acquire);
  }
  Value *resultOf(RedOp Op, Value *Sum) {
    switch (Op) {
    case RedOp::Popc:
      return Sum;
    case RedOp::And: // no false predicate
      return B.CreateICmpEQ(Sum, B.getInt32(0));
    case RedOp::Or:
      return B.CreateICmpNE(Sum, B.getInt32(0));
    case RedOp::None:
      break;
    }
    return nullptr;
  }
  void replace(Value *V) {
    if (V)
      CB.replaceAllUsesWith(V);
    CB.eraseFromParent();
  }

  void blockReduction(RedOp Op);
  void counted(RedOp Op, bool Wait, Value *Id, Value *Count, Value *Pred);
};

/// bar.red without a count: every non-exited thread of the block takes
/// part, which is what s_barrier waits for (a wavefront whose lanes all
/// exited has ended). Each warp's leader adds its count to the block sum;
/// after the barrier everyone reads the sum; after a second barrier (all
/// have read it) each leader subtracts its count again, so the sum is 0 for
/// the next bar.red without any thread having to reset it.
void BarrierLowering::blockReduction(RedOp Op) {
  GlobalVariable *State = barrierState(module());
  Value *SumPtr = B.CreateStructGEP(State->getValueType(), State, 1, "bar.blocksum");
  Warp W = warp(Op, arg(1));
  B.SetInsertPoint(SplitBlockAndInsertIfThen(W.IsLeader, &CB, false));
  B.CreateAtomicRMW(AtomicRMWInst::Add, SumPtr, W.Contrib, Align(4),
                    AtomicOrdering::Monotonic, WG);
  B.SetInsertPoint(&CB);
  // The release fence also completes the addition before s_barrier.
  blockBarrier();
  LoadInst *Sum = B.CreateAlignedLoad(B.getInt32Ty(), SumPtr, Align(4), "bar.sum");
  Sum->setAtomic(AtomicOrdering::Monotonic, WG);
  blockBarrier();
  B.SetInsertPoint(SplitBlockAndInsertIfThen(W.IsLeader, &CB, false));
  B.CreateAtomicRMW(AtomicRMWInst::Sub, SumPtr, W.Contrib, Align(4),
                    AtomicOrdering::Monotonic, WG);
  B.SetInsertPoint(&CB);
  replace(resultOf(Op, Sum));
}

/// A barrier with a thread count (bar.sync/barrier.sync a, b; bar.arrive
/// a, b; bar.red with a count) on the LDS word of barrier a.
void BarrierLowering::counted(RedOp Op, bool Wait, Value *Id, Value *Count,
                              Value *Pred) {
  GlobalVariable *State = barrierState(module());
  Type *I64 = B.getInt64Ty();
  Type *I32 = B.getInt32Ty();
  // As on the CPU backend, the barrier number is taken modulo 16.
  Value *Idx = B.CreateAnd(Id, B.getInt32(NumBarriers - 1));
  Value *Word = B.CreateInBoundsGEP(State->getValueType(), State,
                                    {B.getInt32(0), B.getInt32(0), Idx},
                                    "bar.word");
  Value *Expected = expectedCount(Count);
  Warp W = warp(Op, Pred);
  fence(AtomicOrdering::Release);

  BasicBlock *Entry = CB.getParent();
  BasicBlock *Merge = Entry->splitBasicBlock(&CB, "bar.done");
  Function *F = Entry->getParent();
  auto *Arrive = BasicBlock::Create(Ctx, "bar.arrive", F, Merge);
  auto *Cas = BasicBlock::Create(Ctx, "bar.cas", F, Merge);
  auto *Arrived = BasicBlock::Create(Ctx, "bar.arrived", F, Merge);
  Entry->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Entry);
  B.CreateCondBr(W.IsLeader, Arrive, Merge);

  B.SetInsertPoint(Arrive);
  LoadInst *First = B.CreateAlignedLoad(I64, Word, Align(8), "bar.first");
  First->setAtomic(AtomicOrdering::Monotonic, WG);
  B.CreateBr(Cas);

  // Add the warp's arrivals and contribution, or, if that reaches the
  // count, complete the phase in the same compare-and-swap.
  B.SetInsertPoint(Cas);
  PHINode *Old = B.CreatePHI(I64, 2, "bar.old");
  Old->addIncoming(First, Arrive);
  auto field = [&](unsigned Shift) {
    return B.CreateTrunc(
        B.CreateAnd(B.CreateLShr(Old, Shift), B.getInt64(FieldMask)), I32);
  };
  Value *NewArrivals = B.CreateAdd(field(0), W.Arrivals, "bar.arrivals");
  Value *NewSum = B.CreateAdd(field(SumShift), W.Contrib, "bar.newsum");
  Value *Last = B.CreateICmpUGE(NewArrivals, Expected, "bar.last");
  Value *Gen = B.CreateLShr(Old, GenShift, "bar.gen");
  Value *Slot = B.CreateAdd(
      B.getInt64(ResultShift),
      B.CreateMul(B.CreateAnd(Gen, B.getInt64(1)), B.getInt64(FieldBits)),
      "bar.slot");
  // Completed: generation + 1, no arrivals, sum 0, the other slot kept,
  // this generation's slot = the sum.
  Value *OtherSlot = B.CreateAnd(
      Old, B.CreateXor(B.CreateShl(B.getInt64(FieldMask), Slot),
                       B.getInt64(((1ull << (2 * FieldBits)) - 1) << ResultShift)));
  Value *Done = B.CreateOr(
      B.CreateOr(B.CreateShl(B.CreateAdd(Gen, B.getInt64(1)), GenShift),
                 OtherSlot),
      B.CreateShl(B.CreateZExt(NewSum, I64), Slot), "bar.complete");
  Value *Added = B.CreateAdd(
      Old, B.CreateOr(B.CreateZExt(W.Arrivals, I64),
                      B.CreateShl(B.CreateZExt(W.Contrib, I64), SumShift)),
      "bar.add");
  Value *New = B.CreateSelect(Last, Done, Added);
  Value *Pair = B.CreateAtomicCmpXchg(Word, Old, New, Align(8),
                                      AtomicOrdering::Monotonic,
                                      AtomicOrdering::Monotonic, WG);
  Value *Seen = B.CreateExtractValue(Pair, 0);
  Old->addIncoming(Seen, Cas);
  B.CreateCondBr(B.CreateExtractValue(Pair, 1), Arrived, Cas);

  PHINode *Result = nullptr;
  if (!Wait) {
    // bar.arrive: counted, no waiting, nothing to acquire.
    B.SetInsertPoint(Arrived);
    B.CreateBr(Merge);
    B.SetInsertPoint(&CB);
    replace(nullptr);
    return;
  }
  auto *Poll = BasicBlock::Create(Ctx, "bar.poll", F, Merge);
  auto *Sleep = BasicBlock::Create(Ctx, "bar.sleep", F, Merge);
  auto *Woken = BasicBlock::Create(Ctx, "bar.woken", F, Merge);
  B.SetInsertPoint(Arrived);
  B.CreateCondBr(Last, Merge, Poll);

  // Wait for the generation to change; the completer stored this phase's
  // sum in the slot of its parity, which only the phase after next reuses.
  B.SetInsertPoint(Poll);
  LoadInst *Now = B.CreateAlignedLoad(I64, Word, Align(8), "bar.now");
  Now->setAtomic(AtomicOrdering::Monotonic, WG);
  B.CreateCondBr(B.CreateICmpEQ(B.CreateLShr(Now, GenShift), Gen), Sleep,
                 Woken);
  B.SetInsertPoint(Sleep);
  B.CreateIntrinsic(Intrinsic::amdgcn_s_sleep, {}, {B.getInt32(1)});
  B.CreateBr(Poll);
  B.SetInsertPoint(Woken);
  Value *Published = B.CreateTrunc(
      B.CreateAnd(B.CreateLShr(Now, Slot), B.getInt64(FieldMask)), I32);
  B.CreateBr(Merge);

  B.SetInsertPoint(&*Merge->begin());
  Result = B.CreatePHI(I32, 3, "bar.sum");
  Result->addIncoming(B.getInt32(0), Entry);
  Result->addIncoming(NewSum, Arrived);
  Result->addIncoming(Published, Woken);
  B.SetInsertPoint(&CB);
  fence(AtomicOrdering::Acquire);
  if (Op == RedOp::None) {
    replace(nullptr);
    return;
  }
  replace(resultOf(Op, fromLeader(W, Result)));
}

bool BarrierLowering::run() {
  auto *II = dyn_cast<IntrinsicInst>(&CB);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_sync_aligned_all:
  case Intrinsic::nvvm_barrier_cta_sync_all: {
    // Every thread of the block: s_barrier, whatever the number. A
    // constant 0 is LowerToAmdgpu.cpp's plain case.
    auto *Id = dyn_cast<ConstantInt>(arg(0));
    if (Id && Id->isZero() &&
        II->getIntrinsicID() == Intrinsic::nvvm_barrier_cta_sync_aligned_all)
      return false;
    blockBarrier();
    replace(nullptr);
    return true;
  }
  case Intrinsic::nvvm_barrier_cta_sync_aligned_count:
  case Intrinsic::nvvm_barrier_cta_sync_count:
    counted(RedOp::None, true, arg(0), arg(1), nullptr);
    return true;
  case Intrinsic::nvvm_barrier_cta_arrive_aligned_count:
  case Intrinsic::nvvm_barrier_cta_arrive_count:
    counted(RedOp::None, false, arg(0), arg(1), nullptr);
    return true;
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_count:
    counted(RedOp::Popc, true, arg(0), arg(1), arg(2));
    return true;
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_count:
    counted(RedOp::And, true, arg(0), arg(1), arg(2));
    return true;
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_count:
    counted(RedOp::Or, true, arg(0), arg(1), arg(2));
    return true;
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
    blockReduction(RedOp::Popc);
    return true;
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
    blockReduction(RedOp::And);
    return true;
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
    blockReduction(RedOp::Or);
    return true;
  default:
    return false;
  }
}

} // namespace

bool lowerCtaBarrier(CallBase &CB, const Target &T) {
  return BarrierLowering(CB, T).run();
}

void initCtaBarrierState(Module &M) {
  GlobalVariable *State = M.getNamedGlobal(StateName);
  if (!State)
    return;
  // The functions that touch the state, then everything that calls them.
  SetVector<Function *> Users;
  SmallVector<User *, 16> Work(State->users());
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (auto *I = dyn_cast<Instruction>(U))
      Users.insert(I->getFunction());
    else if (isa<ConstantExpr>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  for (unsigned I = 0; I < Users.size(); ++I)
    for (User *U : Users[I]->users())
      if (auto *Call = dyn_cast<CallBase>(U))
        Users.insert(Call->getFunction());

  LLVMContext &Ctx = M.getContext();
  SyncScope::ID WG = Ctx.getOrInsertSyncScopeID("workgroup");
  uint64_t Size = M.getDataLayout().getTypeAllocSize(State->getValueType());
  for (Function *F : Users) {
    if (F->getCallingConv() != CallingConv::AMDGPU_KERNEL)
      continue;
    // After the entry block's allocas, which must stay static.
    BasicBlock &Entry = F->getEntryBlock();
    IRBuilder<> B(&*Entry.getFirstNonPHIOrDbgOrAlloca());
    Value *X = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {});
    Value *Y = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_y, {});
    Value *Z = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_z, {});
    Value *First =
        B.CreateICmpEQ(B.CreateOr(B.CreateOr(X, Y), Z), B.getInt32(0));
    Instruction *At = &*B.GetInsertPoint();
    {
      IRBuilder<> Then(SplitBlockAndInsertIfThen(First, At, false));
      Then.CreateMemSet(State, Then.getInt8(0), Size, Align(8));
    }
    B.SetInsertPoint(At);
    B.CreateFence(AtomicOrdering::Release, WG);
    B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, {});
    B.CreateFence(AtomicOrdering::Acquire, WG);
  }
}

} // namespace cuhip::ptx::amdgpu
