//===- LowerAmdgpuWarp.cpp - Warp collectives on wave32 and wave64 --------===//
//
// A CUDA warp is 32 lanes. On wave32 targets it is the whole wavefront; on
// wave64 targets it is the half of the wavefront the lane is in (lanes 0-31
// or 32-63), and every collective acts on that half only. The results are
// those of the CPU backend's WarpRuntime.cpp, which implements the PTX ISA:
// the lanes "waiting at the collective" there are the active lanes (EXEC)
// here, and the lanes taking part for a lane L are those active lanes named
// by L's own member mask. Lanes past the end of a block whose size is not a
// multiple of the wave size are never active, so ballots never count them.
//
//  * shfl.sync: the source lane j is computed per lane with the ISA's
//    formula (clamp value c[4:0], segment mask c[12:8]); when the predicate
//    is false j is the lane itself. The value is fetched with ds_bpermute
//    (byte address 4 * absolute lane, +32 lanes in the upper half on
//    wave64); a source lane that is not active gives the lane its own value
//    (PTX leaves it undefined, the CPU backend does this).
//  * vote.sync, activemask, elect.sync: ballots of the lane's half (ballot.i32
//    on wave32; ballot.i64 shifted right by 32 in the upper half on wave64)
//    intersected with the member mask.
//  * redux.sync, match.sync: a wave-uniform loop over the active lanes that
//    reads each one's value with readlane and combines it in the lanes whose
//    participating set contains it. Exact for any (even per-lane different)
//    member masks, at up to 32 (wave32) or 64 (wave64) iterations.
//  * bar.warp.sync: wave-scope fences around a wave barrier (see
//    lowerWarpSync for why that suffices and what it does not cover).
//
//===----------------------------------------------------------------------===//
#include "LowerAmdgpuWarp.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace cuhip::ptx::amdgpu {
namespace {

class WarpLowering {
public:
  WarpLowering(CallBase &CB, const Target &T)
      : CB(CB), B(&CB), Wave64(T.WavefrontSize == 64) {}

  bool run();

private:
  CallBase &CB;
  IRBuilder<> B;
  bool Wave64;

  Value *arg(unsigned I) { return CB.getArgOperand(I); }
  Type *waveMaskTy() { return Wave64 ? B.getInt64Ty() : B.getInt32Ty(); }

  /// The lane's index in the wavefront (0-31 or 0-63).
  Value *laneInWave() { return emitLaneInWave(B, Wave64); }
  /// The first wavefront lane of the lane's warp: 0, or 32 in the upper
  /// half on wave64.
  Value *warpBase(Value *WaveLane) {
    return Wave64 ? B.CreateAnd(WaveLane, B.getInt32(32)) : B.getInt32(0);
  }
  /// The lane's index in its 32-lane warp.
  Value *laneInWarp(Value *WaveLane) {
    return Wave64 ? B.CreateAnd(WaveLane, B.getInt32(31)) : WaveLane;
  }
  /// The ballot of P over the active lanes of the lane's warp, as a 32-bit
  /// mask (bit i = lane i of the warp).
  Value *warpBallot(Value *P, Value *Base) {
    return emitWarpBallot(B, Wave64, P, Base);
  }
  Value *warpActive(Value *Base) { return warpBallot(B.getTrue(), Base); }

  void replace(Value *V) {
    CB.replaceAllUsesWith(V);
    CB.eraseFromParent();
  }
  Value *pair(Value *V, Value *P) {
    Value *R = PoisonValue::get(CB.getType());
    R = B.CreateInsertValue(R, V, 0);
    return B.CreateInsertValue(R, P, 1);
  }

  void shuffle(Intrinsic::ID Mode, bool WithPred);
  void vote(Intrinsic::ID ID);
  void elect();
  void warpSync();
  void acrossLanes(Intrinsic::ID ID);
};

void WarpLowering::shuffle(Intrinsic::ID Mode, bool WithPred) {
  // Operands: (membermask, a, b, c). The member mask only names the lanes
  // that must take part; PTX computes the source lane without it.
  Value *A = arg(1);
  Value *WaveLane = laneInWave();
  Value *Base = warpBase(WaveLane);
  Value *L = laneInWarp(WaveLane);
  Value *BVal = B.CreateAnd(arg(2), B.getInt32(31));
  Value *C = arg(3);
  Value *CVal = B.CreateAnd(C, B.getInt32(31));
  Value *Seg = B.CreateAnd(B.CreateLShr(C, B.getInt32(8)), B.getInt32(31));
  Value *NotSeg = B.CreateNot(Seg);
  Value *MinLane = B.CreateAnd(L, Seg);
  Value *MaxLane = B.CreateOr(MinLane, B.CreateAnd(CVal, NotSeg));
  Value *J, *P;
  switch (Mode) {
  case Intrinsic::nvvm_shfl_sync_up_i32:
    // Signed: lane - b may be negative, and is then below any maxLane >= 0.
    J = B.CreateSub(L, BVal);
    P = B.CreateICmpSGE(J, MaxLane);
    break;
  case Intrinsic::nvvm_shfl_sync_down_i32:
    J = B.CreateAdd(L, BVal);
    P = B.CreateICmpSLE(J, MaxLane);
    break;
  case Intrinsic::nvvm_shfl_sync_bfly_i32:
    J = B.CreateXor(L, BVal);
    P = B.CreateICmpSLE(J, MaxLane);
    break;
  default: // idx
    J = B.CreateOr(MinLane, B.CreateAnd(BVal, NotSeg));
    P = B.CreateICmpSLE(J, MaxLane);
    break;
  }
  // With P true, j is within 0..31 in every mode; otherwise the lane reads
  // its own value.
  J = B.CreateSelect(P, J, L, "shfl.src");
  Value *AbsLane = Wave64 ? B.CreateAdd(J, Base) : J;
  Value *Addr = B.CreateShl(AbsLane, B.getInt32(2), "shfl.addr");
  Value *V = B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {}, {Addr, A});
  // ds_bpermute does not read inactive lanes; the CPU backend gives the
  // lane its own value then.
  Value *SrcActive = B.CreateTrunc(B.CreateLShr(warpActive(Base), J), B.getInt1Ty());
  Value *R = B.CreateSelect(SrcActive, V, A, "shfl");
  replace(WithPred ? pair(R, P) : R);
}

void WarpLowering::vote(Intrinsic::ID ID) {
  // Operands: (membermask, p). Set = active lanes of the warp in the mask;
  // the ballot counts p over Set only.
  Value *Mask = arg(0);
  Value *Base = warpBase(laneInWave());
  Value *Set = B.CreateAnd(warpActive(Base), Mask);
  Value *Ballot = B.CreateAnd(warpBallot(arg(1), Base), Mask);
  Value *R;
  switch (ID) {
  case Intrinsic::nvvm_vote_all_sync:
    R = B.CreateICmpEQ(Ballot, Set);
    break;
  case Intrinsic::nvvm_vote_any_sync:
    R = B.CreateICmpNE(Ballot, B.getInt32(0));
    break;
  case Intrinsic::nvvm_vote_uni_sync:
    R = B.CreateOr(B.CreateICmpEQ(Ballot, B.getInt32(0)),
                   B.CreateICmpEQ(Ballot, Set));
    break;
  default: // ballot
    R = Ballot;
    break;
  }
  replace(R);
}

void WarpLowering::elect() {
  // The leader is the lowest lane of Set; with an empty Set (the lane is
  // not in its own mask: undefined in PTX) the CPU backend elects the lane.
  Value *WaveLane = laneInWave();
  Value *L = laneInWarp(WaveLane);
  Value *Set = B.CreateAnd(warpActive(warpBase(WaveLane)), arg(0));
  Value *Lowest = B.CreateBinaryIntrinsic(Intrinsic::cttz, Set, B.getTrue());
  Value *Leader = B.CreateSelect(B.CreateICmpEQ(Set, B.getInt32(0)), L, Lowest);
  replace(pair(Leader, B.CreateICmpEQ(L, Leader)));
}

void WarpLowering::warpSync() {
  // The lanes of a wavefront execute each instruction together, so lanes
  // that reach bar.warp.sync converged (all of the mask active at this
  // instruction, which is what PTX requires of a correct program on
  // hardware without independent thread scheduling) are already
  // synchronized: s_wave_barrier only keeps the backend from moving code
  // across this point. The wavefront-scope release/acquire fences give
  // bar.warp.sync's memory ordering among the lanes and stop LLVM from
  // moving memory accesses across it (wave.barrier itself touches no
  // memory). Not handled: lanes of the mask that arrive at *different*
  // bar.warp.sync instructions, or that rely on Volta-style independent
  // scheduling (e.g. one lane spinning on a flag another lane of the same
  // warp sets after a divergent branch); on AMDGPU divergent paths run one
  // after the other and only reconverge where the branches join. The mask is
  // not checked against the active lanes.
  SyncScope::ID Wave = CB.getContext().getOrInsertSyncScopeID("wavefront");
  B.CreateFence(AtomicOrdering::Release, Wave);
  B.CreateIntrinsic(Intrinsic::amdgcn_wave_barrier, {});
  B.CreateFence(AtomicOrdering::Acquire, Wave);
  CB.eraseFromParent();
}

void WarpLowering::acrossLanes(Intrinsic::ID ID) {
  // redux.sync (a, membermask) and match.sync (membermask, a): loop over
  // every active lane k of the wavefront (a wave-uniform loop, the lane set
  // comes from a ballot), read its value with readlane, and combine it in
  // each lane whose participating set (active lanes of its warp named by
  // its mask) contains k.
  bool IsRedux = ID != Intrinsic::nvvm_match_any_sync_i32 &&
                 ID != Intrinsic::nvvm_match_any_sync_i64 &&
                 ID != Intrinsic::nvvm_match_all_sync_i32p &&
                 ID != Intrinsic::nvvm_match_all_sync_i64p;
  Value *A = IsRedux ? arg(0) : arg(1);
  Value *Mask = IsRedux ? arg(1) : arg(0);
  Type *I32 = B.getInt32Ty();
  Type *WTy = waveMaskTy();

  Value *WaveLane = laneInWave();
  Value *Base = warpBase(WaveLane);
  Value *Set = B.CreateAnd(warpActive(Base), Mask, "set");
  Value *WaveActive =
      B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {WTy}, {B.getTrue()});

  // Redux starts from the operation's identity (an empty Set is fixed up
  // below); match accumulates the mask of lanes holding the same value.
  Value *Init = B.getInt32(0);
  switch (ID) {
  case Intrinsic::nvvm_redux_sync_and:
  case Intrinsic::nvvm_redux_sync_umin:
    Init = B.getInt32(~0u);
    break;
  case Intrinsic::nvvm_redux_sync_min:
    Init = B.getInt32(0x7fffffffu);
    break;
  case Intrinsic::nvvm_redux_sync_max:
    Init = B.getInt32(0x80000000u);
    break;
  default:
    break;
  }

  BasicBlock *Pre = CB.getParent();
  BasicBlock *Exit = Pre->splitBasicBlock(&CB, "warp.done");
  Pre->getTerminator()->eraseFromParent();
  LLVMContext &Ctx = CB.getContext();
  BasicBlock *Loop =
      BasicBlock::Create(Ctx, "warp.lanes", Pre->getParent(), Exit);
  B.SetInsertPoint(Pre);
  B.CreateBr(Loop);

  B.SetInsertPoint(Loop);
  PHINode *Rem = B.CreatePHI(WTy, 2, "lanes.left");
  PHINode *Acc = B.CreatePHI(I32, 2, "acc");
  Rem->addIncoming(WaveActive, Pre);
  Acc->addIncoming(Init, Pre);
  // The loop is entered by at least this lane, so Rem is never zero here.
  Value *K = B.CreateTrunc(B.CreateBinaryIntrinsic(Intrinsic::cttz, Rem, B.getTrue()),
                           I32, "lane");
  Value *V = B.CreateIntrinsic(Intrinsic::amdgcn_readlane, {A->getType()}, {A, K});
  Value *KInWarp = B.CreateAnd(K, B.getInt32(31));
  Value *Take = B.CreateTrunc(B.CreateLShr(Set, KInWarp), B.getInt1Ty());
  if (Wave64)
    Take = B.CreateAnd(Take,
                       B.CreateICmpEQ(B.CreateAnd(K, B.getInt32(32)), Base));
  Value *Next;
  switch (ID) {
  case Intrinsic::nvvm_redux_sync_add:
    Next = B.CreateAdd(Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_min:
    Next = B.CreateBinaryIntrinsic(Intrinsic::smin, Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_max:
    Next = B.CreateBinaryIntrinsic(Intrinsic::smax, Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_umin:
    Next = B.CreateBinaryIntrinsic(Intrinsic::umin, Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_umax:
    Next = B.CreateBinaryIntrinsic(Intrinsic::umax, Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_and:
    Next = B.CreateAnd(Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_or:
    Next = B.CreateOr(Acc, V);
    break;
  case Intrinsic::nvvm_redux_sync_xor:
    Next = B.CreateXor(Acc, V);
    break;
  default: // match: record lane k if its value equals ours
    Take = B.CreateAnd(Take, B.CreateICmpEQ(V, A));
    Next = B.CreateOr(Acc, B.CreateShl(B.getInt32(1), KInWarp));
    break;
  }
  Value *NewAcc = B.CreateSelect(Take, Next, Acc);
  Value *NewRem = B.CreateAnd(Rem, B.CreateSub(Rem, ConstantInt::get(WTy, 1)));
  Rem->addIncoming(NewRem, Loop);
  Acc->addIncoming(NewAcc, Loop);
  B.CreateCondBr(B.CreateICmpEQ(NewRem, ConstantInt::get(WTy, 0)), Exit, Loop);

  // The result is the accumulator after the last iteration (the phi holds
  // the one before it).
  Value *Result = NewAcc;
  B.SetInsertPoint(&CB);
  if (IsRedux) {
    // An empty set (the lane is not in its own mask: undefined in PTX)
    // gives 0, as on the CPU backend.
    replace(B.CreateSelect(B.CreateICmpEQ(Set, B.getInt32(0)), B.getInt32(0),
                           Result));
    return;
  }
  if (ID == Intrinsic::nvvm_match_any_sync_i32 ||
      ID == Intrinsic::nvvm_match_any_sync_i64) {
    replace(Result);
    return;
  }
  // match.all: the set when every lane of it holds the same value, else 0.
  Value *All = B.CreateICmpEQ(Result, Set);
  replace(pair(B.CreateSelect(All, Set, B.getInt32(0)), All));
}

bool WarpLowering::run() {
  llvm::Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return false;
  switch (Intrinsic::ID ID = Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_shfl_sync_up_i32:
  case Intrinsic::nvvm_shfl_sync_down_i32:
  case Intrinsic::nvvm_shfl_sync_bfly_i32:
  case Intrinsic::nvvm_shfl_sync_idx_i32:
    shuffle(ID, false);
    return true;
  case Intrinsic::nvvm_shfl_sync_up_i32p:
    shuffle(Intrinsic::nvvm_shfl_sync_up_i32, true);
    return true;
  case Intrinsic::nvvm_shfl_sync_down_i32p:
    shuffle(Intrinsic::nvvm_shfl_sync_down_i32, true);
    return true;
  case Intrinsic::nvvm_shfl_sync_bfly_i32p:
    shuffle(Intrinsic::nvvm_shfl_sync_bfly_i32, true);
    return true;
  case Intrinsic::nvvm_shfl_sync_idx_i32p:
    shuffle(Intrinsic::nvvm_shfl_sync_idx_i32, true);
    return true;
  case Intrinsic::nvvm_vote_all_sync:
  case Intrinsic::nvvm_vote_any_sync:
  case Intrinsic::nvvm_vote_uni_sync:
  case Intrinsic::nvvm_vote_ballot_sync:
    vote(ID);
    return true;
  case Intrinsic::nvvm_activemask:
    replace(warpActive(warpBase(laneInWave())));
    return true;
  case Intrinsic::nvvm_elect_sync:
    elect();
    return true;
  case Intrinsic::nvvm_bar_warp_sync:
    warpSync();
    return true;
  case Intrinsic::nvvm_redux_sync_add:
  case Intrinsic::nvvm_redux_sync_min:
  case Intrinsic::nvvm_redux_sync_max:
  case Intrinsic::nvvm_redux_sync_umin:
  case Intrinsic::nvvm_redux_sync_umax:
  case Intrinsic::nvvm_redux_sync_and:
  case Intrinsic::nvvm_redux_sync_or:
  case Intrinsic::nvvm_redux_sync_xor:
  case Intrinsic::nvvm_match_any_sync_i32:
  case Intrinsic::nvvm_match_any_sync_i64:
  case Intrinsic::nvvm_match_all_sync_i32p:
  case Intrinsic::nvvm_match_all_sync_i64p:
    acrossLanes(ID);
    return true;
  default:
    return false;
  }
}

} // namespace

Value *emitLaneInWave(IRBuilderBase &B, bool Wave64) {
  Value *Lane = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                  {B.getInt32(~0u), B.getInt32(0)});
  if (Wave64)
    Lane = B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_hi, {},
                             {B.getInt32(~0u), Lane});
  return Lane;
}

Value *emitWarpBallot(IRBuilderBase &B, bool Wave64, Value *P, Value *Base) {
  Type *MaskTy = Wave64 ? B.getInt64Ty() : B.getInt32Ty();
  Value *W = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {MaskTy}, {P});
  if (!Wave64)
    return W;
  return B.CreateTrunc(B.CreateLShr(W, B.CreateZExt(Base, B.getInt64Ty())),
                       B.getInt32Ty());
}

bool lowerWarpCollective(CallBase &CB, const Target &T) {
  return WarpLowering(CB, T).run();
}

} // namespace cuhip::ptx::amdgpu
