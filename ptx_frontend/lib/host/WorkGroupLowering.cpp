//===- WorkGroupLowering.cpp - Kernels to block functions -----------------===//
//
// A CUDA kernel is written for one thread; the host runs a whole block per
// call. This file builds that block function with continuation-based
// synchronisation (CBS):
//
//  1. The kernel is cloned into a *thread function* whose special registers
//     (%tid, %ntid, %ctaid, ...) are arguments or context loads, and whose
//     shared memory is flattened onto the block's arena.
//  2. Each barrier starts a block of its own. The entry block and every
//     barrier block start a *region*: the blocks reachable from it without
//     crossing another barrier. Regions may share blocks (a loop containing
//     a barrier); each region gets its own copy.
//  3. Every SSA value that is live into a barrier block is demoted to a
//     stack slot; every stack slot then becomes a slice of the thread's
//     *frame*, so values survive from one region to the next per thread.
//  4. The block function runs region 0 for every thread, each thread
//     leaving its region at a barrier (recording which) or at its exit.
//     The barrier that all non-exited threads reached selects the next
//     region; exited threads are skipped from then on, as on the GPU where
//     exited threads no longer take part in barriers.
//
// This is correct for barriers anywhere in reducible control flow that CUDA
// allows (uniform across the block), including inside loops.
//
// Kernels with warp-level collectives (shfl, vote, match, redux, ...) or
// mbarrier waits are cut at each of them too, and their block function
// *schedules* lanes:
// each warp's lanes run one at a time up to their next cut; when none can
// run, cuhip_warp_step evaluates the collective the waiting lanes are at and
// releases them; when every warp has stopped, cuhip_barrier_step releases
// the block barrier everyone reached. A warp is exactly 32 lanes, warps are
// independent between barriers, and collectives in code that only some
// warps (or some lanes) execute behave as on the GPU. Warp-level matrix
// instructions are such collectives as well, with their fragments passed
// through a MatrixExchange after the WarpExchange. A lane at an mbarrier
// test_wait/try_wait stops like one at a block barrier and runs on once
// the phase it waits for has completed, so the threads it waits for run
// meanwhile (a wait in a spin loop would otherwise never end).
//
//===----------------------------------------------------------------------===//
#include "HostPasses.h"
#include "../Pipelines.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/MatrixLayout.h"
#include "cuhip/ptx/Mbarrier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <cstring>

#define DEBUG_TYPE "cuhip-workgroup"

using namespace llvm;

namespace cuhip::ptx::host {

// The AST of ptx:: has Function/Module/Instruction too; here they are LLVM's.
using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

// Block functions with more instructions than this skip the O3 passes
// whose cost grows with the square of a loop's size.
constexpr unsigned LargeBlockFunction = 20000;

// Shared memory the system reserves per block (CUDA reserves 1 KB on
// sm_80 and later); only kernels that ask for it get it.
constexpr uint32_t ReservedSharedBytes = 1024;

// Region exit codes recorded per thread.
constexpr int ExitCode = -1;  // the thread returned
constexpr int NoneCode = -2;  // no thread has reached a barrier yet
constexpr int ConflictCode = -3;

bool isBarrier(const Instruction &I) {
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->getIntrinsicID() == Intrinsic::nvvm_barrier_cta_sync_aligned_all ||
           II->getIntrinsicID() ==
               Intrinsic::nvvm_barrier_cta_sync_aligned_count;
  return false;
}

constexpr const char *WarpCutName = "cuhip.warp.cut";
// On a shared-memory access before which the lanes of a warp wait for each
// other (markLockstepAccesses).
constexpr const char *LockstepMD = "cuhip.lockstep";
// A block barrier that also runs a block-wide collective (bar.red).
constexpr const char *BlockCutName = "cuhip.block.cut";

bool isMarker(const Instruction &I, StringRef Name) {
  if (auto *CI = dyn_cast<CallInst>(&I))
    if (Function *F = CI->getCalledFunction())
      return F->getName() == Name;
  return false;
}
bool isWarpCut(const Instruction &I) { return isMarker(I, WarpCutName); }
bool isBlockCut(const Instruction &I) { return isMarker(I, BlockCutName); }

bool isCut(const Instruction &I) {
  return isBarrier(I) || isWarpCut(I) || isBlockCut(I);
}

/// How a collective intrinsic passes its operands and gets its result.
struct CollectiveInfo {
  Intrinsic::ID ID;
  WarpOp Op;
  enum Form { Shfl, Vote, Match, Redux, Mask, None, BarRed, NamedBarrier } F;
};

const CollectiveInfo *collectiveInfo(const Instruction &I) {
  static const CollectiveInfo Table[] = {
      {Intrinsic::nvvm_shfl_sync_up_i32, WarpOp::ShflUp, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_up_i32p, WarpOp::ShflUp, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_down_i32, WarpOp::ShflDown, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_down_i32p, WarpOp::ShflDown, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_bfly_i32, WarpOp::ShflBfly, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_bfly_i32p, WarpOp::ShflBfly, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_idx_i32, WarpOp::ShflIdx, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_shfl_sync_idx_i32p, WarpOp::ShflIdx, CollectiveInfo::Shfl},
      {Intrinsic::nvvm_vote_all_sync, WarpOp::VoteAll, CollectiveInfo::Vote},
      {Intrinsic::nvvm_vote_any_sync, WarpOp::VoteAny, CollectiveInfo::Vote},
      {Intrinsic::nvvm_vote_uni_sync, WarpOp::VoteUni, CollectiveInfo::Vote},
      {Intrinsic::nvvm_vote_ballot_sync, WarpOp::VoteBallot, CollectiveInfo::Vote},
      {Intrinsic::nvvm_match_any_sync_i32, WarpOp::MatchAny32, CollectiveInfo::Match},
      {Intrinsic::nvvm_match_any_sync_i64, WarpOp::MatchAny64, CollectiveInfo::Match},
      {Intrinsic::nvvm_match_all_sync_i32p, WarpOp::MatchAll32, CollectiveInfo::Match},
      {Intrinsic::nvvm_match_all_sync_i64p, WarpOp::MatchAll64, CollectiveInfo::Match},
      {Intrinsic::nvvm_redux_sync_add, WarpOp::ReduxAdd, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_min, WarpOp::ReduxMin, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_max, WarpOp::ReduxMax, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_umin, WarpOp::ReduxUMin, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_umax, WarpOp::ReduxUMax, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_and, WarpOp::ReduxAnd, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_or, WarpOp::ReduxOr, CollectiveInfo::Redux},
      {Intrinsic::nvvm_redux_sync_xor, WarpOp::ReduxXor, CollectiveInfo::Redux},
      {Intrinsic::nvvm_bar_warp_sync, WarpOp::WarpSync, CollectiveInfo::Mask},
      {Intrinsic::nvvm_activemask, WarpOp::ActiveMask, CollectiveInfo::None},
      {Intrinsic::nvvm_elect_sync, WarpOp::Elect, CollectiveInfo::Mask},
      {Intrinsic::nvvm_barrier_cta_sync_aligned_count, WarpOp::BarSyncCount,
       CollectiveInfo::NamedBarrier},
      {Intrinsic::nvvm_barrier_cta_sync_count, WarpOp::BarSyncCount,
       CollectiveInfo::NamedBarrier},
      {Intrinsic::nvvm_barrier_cta_arrive_aligned_count, WarpOp::BarArrive,
       CollectiveInfo::NamedBarrier},
      {Intrinsic::nvvm_barrier_cta_arrive_count, WarpOp::BarArrive,
       CollectiveInfo::NamedBarrier},
      {Intrinsic::nvvm_barrier_cta_red_popc_aligned_count, WarpOp::BarRedPopc,
       CollectiveInfo::BarRed},
      {Intrinsic::nvvm_barrier_cta_red_and_aligned_count, WarpOp::BarRedAnd,
       CollectiveInfo::BarRed},
      {Intrinsic::nvvm_barrier_cta_red_or_aligned_count, WarpOp::BarRedOr,
       CollectiveInfo::BarRed},
      {Intrinsic::nvvm_barrier_cta_red_popc_aligned_all, WarpOp::BarRedPopc,
       CollectiveInfo::BarRed},
      {Intrinsic::nvvm_barrier_cta_red_and_aligned_all, WarpOp::BarRedAnd,
       CollectiveInfo::BarRed},
      {Intrinsic::nvvm_barrier_cta_red_or_aligned_all, WarpOp::BarRedOr,
       CollectiveInfo::BarRed},
  };
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return nullptr;
  for (const auto &E : Table)
    if (E.ID == II->getIntrinsicID())
      return &E;
  return nullptr;
}

// Field offsets of WarpExchange, at the start of every frame.
constexpr unsigned XValue = offsetof(WarpExchange, Value);
constexpr unsigned XMask = offsetof(WarpExchange, Mask);
constexpr unsigned XB = offsetof(WarpExchange, B);
constexpr unsigned XC = offsetof(WarpExchange, C);
constexpr unsigned XPred = offsetof(WarpExchange, Pred);
constexpr unsigned XResult = offsetof(WarpExchange, Result);

// Field offsets of MatrixExchange, right after the WarpExchange in the
// frames of kernels with matrix instructions.
constexpr unsigned MBase = sizeof(WarpExchange);
constexpr unsigned MDesc = MBase + offsetof(MatrixExchange, Desc);
constexpr unsigned MAddress = MBase + offsetof(MatrixExchange, Address);
constexpr unsigned MStride = MBase + offsetof(MatrixExchange, Stride);
constexpr unsigned MWords = MBase + offsetof(MatrixExchange, Words);
constexpr unsigned MNumWords = sizeof(MatrixExchange::Words) / 4;

std::optional<MatrixCollective> matrixCollective(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  const Function *F = Call ? Call->getCalledFunction() : nullptr;
  if (!F)
    return std::nullopt;
  return decodeMatrixCollective(F->getName());
}

Value *loadCtxU32(IRBuilder<> &B, Value *Ctx, unsigned Offset,
                  const Twine &Name) {
  Value *P = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Ctx, Offset);
  LoadInst *L = B.CreateAlignedLoad(B.getInt32Ty(), P, Align(4), Name);
  L->setMetadata(LLVMContext::MD_invariant_load,
                 MDNode::get(B.getContext(), {}));
  return L;
}

class WorkGroupBuilder {
public:
  WorkGroupBuilder(Module &M, Function &Kernel, HostKernelLayout &Layout,
                   unsigned WarpWidth, bool Memcheck)
      : M(M), Ctx(M.getContext()), Kernel(Kernel), Layout(Layout),
        WarpWidth(WarpWidth), Memcheck(Memcheck) {}

  Error run();

private:
  Module &M;
  LLVMContext &Ctx;
  Function &Kernel;
  HostKernelLayout &Layout;
  unsigned WarpWidth; // threads per SIMD program; 0: no vector path
  /// 1, or the width of the SIMD lane groups when the block function runs
  /// a vectorized thread function (one "thread" of the loops is a group).
  unsigned GroupWidth = 1;
  bool Memcheck;
  Function *Thread = nullptr;
  Function *WarpFn = nullptr; // the vectorized thread function, if any
  Function *BlockFn = nullptr;
  SmallVector<BasicBlock *> RegionEntries; // [0] = entry
  DenseMap<BasicBlock *, int> BarrierId;   // cut block -> region id
  SmallVector<uint32_t> RegionOp;          // WarpOp per region
  SmallVector<bool> RegionAtBarrier;       // region starts after a block barrier
  bool HasWarpOps = false;
  bool HasNamedBarriers = false;
  bool HasMbarrierWaits = false;
  // Named-barrier arrival counts and the mbarrier stall count (thread 0's
  // frame).
  uint32_t CounterOffset = 0;
  bool HasMatrixOps = false;               // frames hold a MatrixExchange
  uint32_t ExitFlagOffset = 0;             // barrier-only block functions
  uint32_t ResumeOffset = 0, StateOffset = 0; // scheduled block functions

  Error makeThreadFunction();
  void replaceSpecialRegisters();
  void bindDeviceLibraryCalls();
  void promoteRegisters();
  void cutAtLockstepAccesses();
  void cutAtCollectives();
  void cutAtMatrixCollective(CallInst *Call, const MatrixCollective &MC,
                             FunctionCallee Cut);
  Error splitAtCuts();
  bool liveIntoBarrier(Instruction &V);
  void demoteCrossBarrierValues();
  void buildFrame();
  void buildBlockFunction();
  void buildScheduledBlockFunction();
  void addVectorPath(Function *Lanes, bool IsBlockFunction);
  void lowerBlockReductions(BasicBlock *Entry, ArrayRef<BasicBlock *> Ends);
  Function *buildVectorRegions(Function *VF);
  /// Clones region R's blocks into BlockFn with VMap's argument mapping;
  /// returns the clones and the clone of the region's entry.
  BasicBlock *cloneRegion(size_t R, ValueToValueMapTy &VMap,
                          SmallVectorImpl<BasicBlock *> &Clones,
                          SetVector<BasicBlock *> &Blocks);
};

Error WorkGroupBuilder::makeThreadFunction() {
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx),
                                       {Ptr, Ptr, Ptr, I32, I32, I32, Ptr},
                                       false);
  Thread = Function::Create(FT, GlobalValue::InternalLinkage,
                            Kernel.getName() + ".thread", M);
  ValueToValueMapTy VMap;
  VMap[Kernel.getArg(0)] = Thread->getArg(ArgParams);
  SmallVector<ReturnInst *> Returns;
  CloneFunctionInto(Thread, &Kernel, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Thread->removeFnAttr("cuhip-kernel");
  static const char *Names[] = {"params", "ctx",  "frame", "tid.x",
                                "tid.y",  "tid.z", "shared"};
  for (unsigned I = 0; I < NumThreadArgs; ++I)
    Thread->getArg(I)->setName(Names[I]);
  return Error::success();
}

/// Special registers become arguments (thread indices) or loads from the
/// block context at the point of use, so that no uniform value has to be
/// carried across barriers.
void WorkGroupBuilder::replaceSpecialRegisters() {
  SmallVector<IntrinsicInst *> Calls;
  for (Instruction &I : instructions(Thread))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      Calls.push_back(II);
  Value *CtxArg = Thread->getArg(ArgCtx);
  for (IntrinsicInst *II : Calls) {
    IRBuilder<> B(II);
    Value *R = nullptr;
    auto ntid = [&](unsigned D) { return loadCtxU32(B, CtxArg, 24 + 4 * D, "ntid"); };
    auto linearTid = [&]() {
      Value *X = Thread->getArg(ArgTidX), *Y = Thread->getArg(ArgTidY),
            *Z = Thread->getArg(ArgTidZ);
      Value *NX = ntid(0), *NY = ntid(1);
      return B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))));
    };
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x: R = Thread->getArg(ArgTidX); break;
    case Intrinsic::nvvm_read_ptx_sreg_tid_y: R = Thread->getArg(ArgTidY); break;
    case Intrinsic::nvvm_read_ptx_sreg_tid_z: R = Thread->getArg(ArgTidZ); break;
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: R = loadCtxU32(B, CtxArg, 0, "ctaid.x"); break;
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: R = loadCtxU32(B, CtxArg, 4, "ctaid.y"); break;
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: R = loadCtxU32(B, CtxArg, 8, "ctaid.z"); break;
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x: R = loadCtxU32(B, CtxArg, 12, "nctaid.x"); break;
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_y: R = loadCtxU32(B, CtxArg, 16, "nctaid.y"); break;
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: R = loadCtxU32(B, CtxArg, 20, "nctaid.z"); break;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x: R = ntid(0); break;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_y: R = ntid(1); break;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_z: R = ntid(2); break;
    case Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size:
      R = loadCtxU32(B, CtxArg, 36, "dynsmem");
      break;
    case Intrinsic::nvvm_read_ptx_sreg_laneid:
      R = B.CreateAnd(linearTid(), 31);
      break;
    case Intrinsic::nvvm_read_ptx_sreg_warpid:
      R = B.CreateLShr(linearTid(), 5);
      break;
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_eq:
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_lt:
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_le:
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_gt:
    case Intrinsic::nvvm_read_ptx_sreg_lanemask_ge: {
      Value *Lane = B.CreateAnd(linearTid(), 31);
      Value *Bit = B.CreateShl(B.getInt32(1), Lane);
      Value *Lt = B.CreateSub(Bit, B.getInt32(1));
      switch (II->getIntrinsicID()) {
      case Intrinsic::nvvm_read_ptx_sreg_lanemask_eq: R = Bit; break;
      case Intrinsic::nvvm_read_ptx_sreg_lanemask_lt: R = Lt; break;
      case Intrinsic::nvvm_read_ptx_sreg_lanemask_le: R = B.CreateOr(Lt, Bit); break;
      case Intrinsic::nvvm_read_ptx_sreg_lanemask_gt: R = B.CreateNot(B.CreateOr(Lt, Bit)); break;
      default: R = B.CreateNot(Lt); break;
      }
      break;
    }
    case Intrinsic::nvvm_read_ptx_sreg_smid:
      R = loadCtxU32(B, CtxArg, 60, "smid");
      break;
    case Intrinsic::nvvm_read_ptx_sreg_nsmid:
      R = loadCtxU32(B, CtxArg, 64, "nsmid");
      break;
    case Intrinsic::nvvm_read_ptx_sreg_total_smem_size:
      R = B.CreateAdd(loadCtxU32(B, CtxArg, 36, "dynsmem"),
                      B.getInt32(Layout.StaticSharedBytes));
      break;
    case Intrinsic::nvvm_read_ptx_sreg_clock:
    case Intrinsic::nvvm_read_ptx_sreg_clock64: {
      Value *C = B.CreateIntrinsic(Intrinsic::readcyclecounter, ArrayRef<Type *>{},
                                   ArrayRef<Value *>{});
      R = B.CreateZExtOrTrunc(C, II->getType());
      break;
    }
    case Intrinsic::nvvm_read_ptx_sreg_globaltimer:
    case Intrinsic::nvvm_read_ptx_sreg_globaltimer_lo: {
      FunctionCallee Timer = M.getOrInsertFunction(
          "cuhip_globaltimer", FunctionType::get(B.getInt64Ty(), false));
      R = B.CreateZExtOrTrunc(B.CreateCall(Timer), II->getType());
      break;
    }
    case Intrinsic::nvvm_read_ptx_sreg_gridid:
      R = ConstantInt::get(II->getType(), 0);
      break;
    case Intrinsic::nvvm_read_ptx_sreg_nwarpid: {
      Value *N = B.CreateMul(B.CreateMul(ntid(0), ntid(1)), ntid(2));
      R = B.CreateLShr(B.CreateAdd(N, B.getInt32(31)), 5);
      break;
    }
    default: {
      // %envreg0..3 come from the block context (%envreg1:%envreg2 is the
      // cooperative grid workspace); the driver puts nothing in the others.
      StringRef Name = II->getCalledFunction()->getName();
      unsigned Env = 0;
      if (!Name.consume_front("llvm.nvvm.read.ptx.sreg.envreg") ||
          Name.getAsInteger(10, Env))
        continue;
      R = Env < std::size(BlockContext{}.EnvReg)
              ? loadCtxU32(B, CtxArg, offsetof(BlockContext, EnvReg) + 4 * Env,
                           "envreg")
              : B.getInt32(0);
      break;
    }
    }
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
  // The reserved shared memory: two slots in the arena's first bytes.
  SmallVector<CallInst *> Reserved;
  for (Instruction &I : instructions(Thread))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *F = CI->getCalledFunction())
        if (F->getName().starts_with("cuhip.sreg.reserved_smem"))
          Reserved.push_back(CI);
  for (CallInst *CI : Reserved) {
    StringRef N = CI->getCalledFunction()->getName();
    uint32_t V = N.ends_with("_1")                          ? ReservedSharedBytes / 2
                 : N.ends_with("_end") || N.ends_with("_cap") ? ReservedSharedBytes
                                                            : 0;
    CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), V));
    CI->eraseFromParent();
  }
}

/// Calls to the device library (printf, assert, malloc, free) in F get the
/// thread's context (Ctx and the thread index, or null and zeros where F
/// runs without it), and `exit` inside inlined device functions ends the
/// thread like a return from the kernel.
static void bindDeviceLibraryCalls(Function &F, Value *Ctx, Value *X, Value *Y,
                                   Value *Z) {
  SmallVector<CallInst *> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction())
        if ((Callee->isDeclaration() &&
             deviceLibraryFunction(Callee->getName().str())) ||
            Callee->getIntrinsicID() == Intrinsic::nvvm_exit)
          Calls.push_back(CI);
  LLVMContext &C = F.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C);
  for (CallInst *CI : Calls) {
    Function *Callee = CI->getCalledFunction();
    if (Callee->getIntrinsicID() == Intrinsic::nvvm_exit) {
      Instruction *Next = CI->getNextNode();
      ReturnInst::Create(C, nullptr, CI->getIterator());
      CI->eraseFromParent();
      if (Next && isa<UnreachableInst>(Next))
        Next->eraseFromParent();
      continue;
    }
    FunctionCallee Impl = F.getParent()->getOrInsertFunction(
        ("cuhip_device_" + Callee->getName()).str(),
        FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, I32, I32, I32},
                          false));
    IRBuilder<> B(CI);
    B.CreateCall(Impl, {CI->getArgOperand(0), CI->getArgOperand(1), Ctx, X, Y, Z});
    CI->eraseFromParent();
  }
}

void WorkGroupBuilder::bindDeviceLibraryCalls() {
  host::bindDeviceLibraryCalls(*Thread, Thread->getArg(ArgCtx),
                               Thread->getArg(ArgTidX), Thread->getArg(ArgTidY),
                               Thread->getArg(ArgTidZ));
}

void WorkGroupBuilder::promoteRegisters() {
  SmallVector<AllocaInst *> Allocas;
  for (Instruction &I : Thread->getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Allocas.push_back(AI);
  if (Allocas.empty())
    return;
  DominatorTree DT(*Thread);
  PromoteMemToReg(Allocas, DT);
}

/// The accesses markLockstepAccesses chose get a warp cut in front of them.
void WorkGroupBuilder::cutAtLockstepAccesses() {
  SmallVector<Instruction *> Marked;
  for (Instruction &I : instructions(Thread))
    if (I.getMetadata(LockstepMD))
      Marked.push_back(&I);
  if (Marked.empty())
    return;
  FunctionCallee Cut = M.getOrInsertFunction(
      WarpCutName, FunctionType::get(Type::getVoidTy(Ctx),
                                     {Type::getInt32Ty(Ctx)}, false));
  for (Instruction *I : Marked) {
    IRBuilder<> B(I);
    B.CreateCall(Cut, {B.getInt32(uint32_t(WarpOp::Converge))});
    I->setMetadata(LockstepMD, nullptr);
  }
}

/// Replaces each collective call with: its operands stored to the frame's
/// WarpExchange, a cut marker (the scheduler takes over there), and its
/// result loaded back from the exchange.
void WorkGroupBuilder::cutAtCollectives() {
  SmallVector<std::pair<IntrinsicInst *, const CollectiveInfo *>> Calls;
  SmallVector<std::pair<CallInst *, MatrixCollective>> MatrixCalls;
  SmallVector<CallInst *> Waits;
  for (Instruction &I : instructions(Thread))
    if (const CollectiveInfo *CI = collectiveInfo(I))
      Calls.push_back({cast<IntrinsicInst>(&I), CI});
    else if (std::optional<MatrixCollective> MC = matrixCollective(I))
      MatrixCalls.push_back({cast<CallInst>(&I), *MC});
    else if (auto *Call = dyn_cast<CallInst>(&I);
             Call && mbarrier::isWait(*Call))
      Waits.push_back(Call);
  if (Calls.empty() && MatrixCalls.empty() && Waits.empty())
    return;
  HasWarpOps = true;
  HasMatrixOps = !MatrixCalls.empty();
  HasMbarrierWaits = !Waits.empty();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Cut = M.getOrInsertFunction(
      WarpCutName, FunctionType::get(Type::getVoidTy(Ctx), {I32}, false));
  FunctionCallee BlockCut = M.getOrInsertFunction(
      BlockCutName, FunctionType::get(Type::getVoidTy(Ctx), {I32}, false));
  Value *Frame = Thread->getArg(ArgFrame);
  // An mbarrier wait: the lane leaves the object's address and the awaited
  // parity, stops, and tests the object when it runs again (the call stays;
  // expandMbarrierCalls makes it a load later).
  for (CallInst *Wait : Waits) {
    IRBuilder<> B(Wait);
    B.CreateAlignedStore(
        B.CreatePtrToInt(Wait->getArgOperand(0), I64),
        B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame, XValue), Align(8));
    B.CreateAlignedStore(
        B.CreateAnd(Wait->getArgOperand(1), 1),
        B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame, XB), Align(4));
    B.CreateCall(BlockCut, {B.getInt32(uint32_t(WarpOp::MbarrierWait))});
  }
  for (auto [Call, CI] : Calls) {
    IRBuilder<> B(Call);
    auto field = [&](unsigned Off) {
      return B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame, Off);
    };
    auto store32 = [&](Value *V, unsigned Off) {
      B.CreateAlignedStore(B.CreateZExtOrTrunc(V, I32), field(Off), Align(4));
    };
    auto storeValue = [&](Value *V) {
      B.CreateAlignedStore(B.CreateZExt(V, I64), field(XValue), Align(8));
    };
    switch (CI->F) {
    case CollectiveInfo::Shfl: // (mask, a, b, c)
      store32(Call->getArgOperand(0), XMask);
      storeValue(Call->getArgOperand(1));
      store32(Call->getArgOperand(2), XB);
      store32(Call->getArgOperand(3), XC);
      break;
    case CollectiveInfo::Vote:  // (mask, pred)
    case CollectiveInfo::Match: // (mask, value)
      store32(Call->getArgOperand(0), XMask);
      storeValue(Call->getArgOperand(1));
      break;
    case CollectiveInfo::Redux: // (value, mask)
      storeValue(Call->getArgOperand(0));
      store32(Call->getArgOperand(1), XMask);
      break;
    case CollectiveInfo::Mask: // (mask)
      store32(Call->getArgOperand(0), XMask);
      break;
    case CollectiveInfo::BarRed:
      // (id[, count], pred): a barrier that reduces; no count means every
      // thread of the block.
      store32(Call->getArgOperand(0), XMask);
      if (Call->arg_size() == 3) {
        store32(Call->getArgOperand(1), XB);
        storeValue(Call->getArgOperand(2));
      } else {
        store32(B.getInt32(0), XB);
        storeValue(Call->getArgOperand(1));
      }
      HasNamedBarriers = true;
      break;
    case CollectiveInfo::NamedBarrier: // (id, thread count)
      store32(Call->getArgOperand(0), XMask);
      store32(Call->getArgOperand(1), XB);
      HasNamedBarriers = true;
      break;
    case CollectiveInfo::None:
      break;
    }
    B.CreateCall(CI->F == CollectiveInfo::BarRed ||
                         CI->F == CollectiveInfo::NamedBarrier
                     ? BlockCut
                     : Cut,
                 {B.getInt32(uint32_t(CI->Op))});
    // The result, after the cut.
    Type *RT = Call->getType();
    Value *Result = nullptr;
    if (!RT->isVoidTy()) {
      Value *Raw = B.CreateAlignedLoad(I64, field(XResult), Align(8));
      if (auto *ST = dyn_cast<StructType>(RT)) {
        Value *Pred = B.CreateICmpNE(
            B.CreateAlignedLoad(I32, field(XPred), Align(4)), B.getInt32(0));
        Result = UndefValue::get(ST);
        Result = B.CreateInsertValue(
            Result, B.CreateTrunc(Raw, ST->getElementType(0)), 0);
        Result = B.CreateInsertValue(Result, Pred, 1);
      } else if (RT->isIntegerTy(1)) {
        Result = B.CreateICmpNE(Raw, B.getInt64(0));
      } else {
        Result = B.CreateTrunc(Raw, RT);
      }
      Call->replaceAllUsesWith(Result);
    }
    Call->eraseFromParent();
  }
  for (auto &[Call, MC] : MatrixCalls)
    cutAtMatrixCollective(Call, MC, Cut);
}

/// A matrix instruction: the lane stores its form, its address operand (its
/// row for ldmatrix/stmatrix, the matrix for wmma.load/store), wmma's
/// stride and its fragment registers word by word to the frame's
/// MatrixExchange, the scheduler runs the whole warp's operation, and the
/// lane loads its result fragment back.
void WorkGroupBuilder::cutAtMatrixCollective(CallInst *Call,
                                             const MatrixCollective &MC,
                                             FunctionCallee Cut) {
  IRBuilder<> B(Call);
  Value *Frame = Thread->getArg(ArgFrame);
  Type *I64 = B.getInt64Ty();
  auto field = [&](unsigned Off) {
    return B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Frame, Off);
  };
  uint64_t Desc;
  static_assert(sizeof(Desc) == sizeof(MatrixDesc));
  std::memcpy(&Desc, &MC.Desc, sizeof(Desc));
  B.CreateAlignedStore(B.getInt64(Desc), field(MDesc), Align(8));
  unsigned NumArgs = Call->arg_size() - (MC.HasStride ? 1 : 0);
  B.CreateAlignedStore(MC.HasStride ? Call->getArgOperand(NumArgs)
                                    : B.getInt32(0),
                       field(MStride), Align(4));
  // 64-bit values take two words, starting at an even one.
  auto wordOf = [](unsigned &Word, unsigned Bits) {
    if (Bits == 64)
      Word = alignTo(Word, 2);
    unsigned At = Word;
    Word += Bits / 32;
    assert(Word <= MNumWords && "matrix fragments overflow the exchange");
    return MWords + 4 * At;
  };
  unsigned Word = 0;
  for (unsigned A = 0; A < NumArgs; ++A) {
    Value *V = Call->getArgOperand(A);
    if (V->getType()->isPointerTy()) {
      Value *Flat = B.CreateAddrSpaceCast(V, PointerType::get(Ctx, 0));
      B.CreateAlignedStore(B.CreatePtrToInt(Flat, I64), field(MAddress),
                           Align(8));
      continue;
    }
    unsigned Bits = unsigned(V->getType()->getPrimitiveSizeInBits());
    unsigned Off = wordOf(Word, Bits);
    B.CreateAlignedStore(B.CreateBitCast(V, B.getIntNTy(Bits)), field(Off),
                         Align(Bits == 64 ? 8 : 4));
  }
  B.CreateCall(Cut, {B.getInt32(uint32_t(MC.Op))});
  Type *RT = Call->getType();
  if (!RT->isVoidTy()) {
    auto *ST = dyn_cast<StructType>(RT);
    ArrayRef<Type *> Elems = ST ? ST->elements() : ArrayRef<Type *>(RT);
    Value *Result = PoisonValue::get(RT);
    Word = 0;
    for (unsigned E = 0; E < Elems.size(); ++E) {
      unsigned Bits = unsigned(Elems[E]->getPrimitiveSizeInBits());
      unsigned Off = wordOf(Word, Bits);
      Value *V = B.CreateBitCast(
          B.CreateAlignedLoad(B.getIntNTy(Bits), field(Off),
                              Align(Bits == 64 ? 8 : 4)),
          Elems[E]);
      Result = ST ? B.CreateInsertValue(Result, V, E) : V;
    }
    Call->replaceAllUsesWith(Result);
  }
  Call->eraseFromParent();
}

Error WorkGroupBuilder::splitAtCuts() {
  SmallVector<Instruction *> Cuts;
  for (Instruction &I : instructions(Thread))
    if (isCut(I))
      Cuts.push_back(&I);
  RegionEntries.push_back(&Thread->getEntryBlock());
  RegionOp.push_back(uint32_t(WarpOp::None));
  RegionAtBarrier.push_back(false);
  // Split from the last cut back, so that each split moves only the
  // instructions up to the next cut: in program order every split would
  // move the rest of the block again, quadratic in a fully unrolled kernel
  // with thousands of cuts in one block.
  SmallVector<BasicBlock *> CutBlocks(Cuts.size());
  for (size_t I = Cuts.size(); I-- > 0;) {
    Instruction *C = Cuts[I];
    BasicBlock *BB = C->getParent();
    if (&BB->front() != C || BB == &Thread->getEntryBlock())
      BB = SplitBlock(BB, C->getIterator());
    CutBlocks[I] = BB;
  }
  for (size_t I = 0; I < Cuts.size(); ++I) {
    Instruction *C = Cuts[I];
    BasicBlock *BB = CutBlocks[I];
    BarrierId[BB] = RegionEntries.size();
    RegionEntries.push_back(BB);
    RegionOp.push_back(
        isWarpCut(*C) || isBlockCut(*C)
            ? uint32_t(cast<ConstantInt>(cast<CallInst>(C)->getArgOperand(0))
                           ->getZExtValue())
            : uint32_t(WarpOp::None));
    RegionAtBarrier.push_back(!isWarpCut(*C));
  }
  Layout.NumRegions = RegionEntries.size();
  return Error::success();
}

/// Is V live on entry to some barrier block? Backward walk from its uses
/// to its definition (V is in SSA form, so the walk stops there).
bool WorkGroupBuilder::liveIntoBarrier(Instruction &V) {
  BasicBlock *Def = V.getParent();
  SmallVector<BasicBlock *> Work;
  SmallPtrSet<BasicBlock *, 16> Seen;
  for (Use &U : V.uses()) {
    auto *UI = cast<Instruction>(U.getUser());
    BasicBlock *UB = UI->getParent();
    if (auto *Phi = dyn_cast<PHINode>(UI)) {
      // Used at the end of the incoming block: live into it unless defined
      // there, and live out of it anyway.
      UB = Phi->getIncomingBlock(U);
      if (UB == Def)
        continue;
    } else if (UB == Def) {
      continue;
    }
    if (Seen.insert(UB).second)
      Work.push_back(UB);
  }
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BarrierId.count(BB))
      return true;
    for (BasicBlock *Pred : predecessors(BB))
      if (Pred != Def && Seen.insert(Pred).second)
        Work.push_back(Pred);
  }
  return false;
}

void WorkGroupBuilder::demoteCrossBarrierValues() {
  if (RegionEntries.size() == 1)
    return;
  BasicBlock::iterator AllocaPoint = Thread->getEntryBlock().begin();
  for (bool Changed = true; Changed;) {
    Changed = false;
    SmallVector<Instruction *> Demote;
    for (Instruction &I : instructions(Thread))
      if (!isa<AllocaInst>(I) && !I.getType()->isVoidTy() && !I.use_empty() &&
          liveIntoBarrier(I))
        Demote.push_back(&I);
    for (Instruction *I : Demote) {
      if (auto *Phi = dyn_cast<PHINode>(I))
        DemotePHIToStack(Phi, AllocaPoint);
      else
        DemoteRegToStack(*I, false, AllocaPoint);
      Changed = true;
    }
  }
}

/// Every remaining stack slot (PTX .local arrays and demoted values) becomes
/// a slice of the thread's frame. Kernels with collectives keep their
/// WarpExchange at the frame's start and the lane's scheduling state at its
/// end; the others keep one byte at the end that says the thread exited.
void WorkGroupBuilder::buildFrame() {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<AllocaInst *> Allocas;
  for (Instruction &I : instructions(Thread))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(AI);
  uint64_t Size = HasWarpOps ? sizeof(WarpExchange) : 0;
  if (HasMatrixOps)
    Size += sizeof(MatrixExchange);
  Value *Frame = Thread->getArg(ArgFrame);
  for (AllocaInst *AI : Allocas) {
    // Lifetime markers only apply to allocas; a frame slot lives as long
    // as the thread.
    for (User *U : make_early_inc_range(AI->users()))
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd())
          II->eraseFromParent();
    // Frames are only promised 16-byte alignment (BlockContext): wider
    // slots (SIMD lane groups' vectors) are accessed at that alignment.
    if (AI->getAlign() > Align(16)) {
      AI->setAlignment(Align(16));
      for (User *U : AI->users()) {
        if (auto *LI = dyn_cast<LoadInst>(U))
          LI->setAlignment(std::min(LI->getAlign(), Align(16)));
        else if (auto *SI = dyn_cast<StoreInst>(U))
          SI->setAlignment(std::min(SI->getAlign(), Align(16)));
      }
    }
    uint64_t Al = AI->getAlign().value();
    std::optional<TypeSize> Bytes = AI->getAllocationSize(DL);
    Size = alignTo(Size, Al);
    uint64_t Off = Size;
    Size += Bytes ? Bytes->getFixedValue() : 0;
    SmallVector<Use *> Uses;
    for (Use &U : AI->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *UI = cast<Instruction>(U->getUser());
      IRBuilder<> B(Ctx);
      if (auto *Phi = dyn_cast<PHINode>(UI))
        B.SetInsertPoint(Phi->getIncomingBlock(*U)->getTerminator());
      else
        B.SetInsertPoint(UI);
      Value *P = B.CreateInBoundsGEP(B.getInt8Ty(), Frame, B.getInt64(Off),
                                     AI->getName() + ".slot");
      if (P->getType() != AI->getType())
        P = B.CreateAddrSpaceCast(P, AI->getType());
      U->set(P);
    }
    AI->eraseFromParent();
  }
  if (HasNamedBarriers || HasMbarrierWaits) {
    Size = alignTo(Size, 4);
    CounterOffset = uint32_t(Size);
    Size += 4 * NumBlockCounters;
  }
  if (HasWarpOps) {
    Size = alignTo(Size, 4);
    ResumeOffset = uint32_t(Size);
    StateOffset = ResumeOffset + 4;
    Size += 5;
  } else {
    ExitFlagOffset = uint32_t(Size);
    Size += 1;
  }
  // A group of SIMD lanes keeps whole vectors in its frame: 64-byte slots
  // at 64-byte frame boundaries (the frame area itself is 64-aligned).
  Layout.FrameBytesPerThread = uint32_t(alignTo(Size, GroupWidth > 1 ? 64 : 16));
}

BasicBlock *WorkGroupBuilder::cloneRegion(size_t R, ValueToValueMapTy &VMap,
                                          SmallVectorImpl<BasicBlock *> &Clones,
                                          SetVector<BasicBlock *> &Blocks) {
  // Blocks of the region: reachable from its entry without entering another
  // cut block.
  Blocks.insert(RegionEntries[R]);
  for (size_t I = 0; I < Blocks.size(); ++I)
    for (BasicBlock *S : successors(Blocks[I]))
      if (!BarrierId.count(S))
        Blocks.insert(S);
  for (BasicBlock *BB : Blocks) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".r" + Twine(R), BlockFn);
    VMap[BB] = C;
    Clones.push_back(C);
  }
  // Phis: only edges inside the region remain.
  for (BasicBlock *C : Clones)
    for (PHINode &Phi : C->phis())
      for (int K = Phi.getNumIncomingValues() - 1; K >= 0; --K)
        if (!Blocks.contains(Phi.getIncomingBlock(K)))
          Phi.removeIncomingValue(K, /*DeletePHIIfEmpty=*/false);
  return cast<BasicBlock>(VMap[RegionEntries[R]]);
}

/// Finishes the clones of a region once their exits are redirected: remaps
/// operands to the clones and drops the cut marker the region starts with.
static void remapRegion(ArrayRef<BasicBlock *> Clones, BasicBlock *EntryClone,
                        ValueToValueMapTy &VMap, bool StartsAtCut) {
  for (BasicBlock *C : Clones)
    for (Instruction &I : *C)
      RemapInstruction(&I, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  if (!StartsAtCut)
    return;
  // The cut heads its block, unless an operand of it (a barrier number in a
  // register) was demoted to the frame: its reload then comes first.
  for (Instruction &I : *EntryClone)
    if (isCut(I)) {
      I.eraseFromParent();
      return;
    }
}

void WorkGroupBuilder::buildScheduledBlockFunction() {
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *I8 = Type::getInt8Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  BlockFn = Function::Create(FT, GlobalValue::ExternalLinkage,
                             Layout.BlockFunctionName, M);
  Argument *Params = BlockFn->getArg(0), *CtxArg = BlockFn->getArg(1);
  Params->setName("params");
  CtxArg->setName("ctx");
  BlockFn->addParamAttr(0, Attribute::NoAlias);
  BlockFn->addParamAttr(1, Attribute::NoAlias);
  const uint64_t FB = Layout.FrameBytesPerThread;

  // The schedule the runtime helpers read: frame layout and the collective
  // each region starts with.
  auto *OpsTy = ArrayType::get(I32, RegionOp.size());
  auto *Ops = new GlobalVariable(M, OpsTy, true, GlobalValue::InternalLinkage,
                                 ConstantDataArray::get(Ctx, RegionOp),
                                 Layout.BlockFunctionName + ".ops");
  auto *SchedTy = StructType::get(Ctx, {I32, I32, I32, I32, Ptr, I32});
  auto *Sched = new GlobalVariable(
      M, SchedTy, true, GlobalValue::InternalLinkage,
      ConstantStruct::get(SchedTy, {ConstantInt::get(I32, FB),
                                    ConstantInt::get(I32, ResumeOffset),
                                    ConstantInt::get(I32, StateOffset),
                                    ConstantInt::get(I32, RegionOp.size()), Ops,
                                    ConstantInt::get(I32, CounterOffset)}),
      Layout.BlockFunctionName + ".schedule");
  FunctionCallee WarpStep = M.getOrInsertFunction(
      "cuhip_warp_step", FunctionType::get(I32, {Ptr, I32, Ptr}, false));
  FunctionCallee BarrierStep = M.getOrInsertFunction(
      "cuhip_barrier_step", FunctionType::get(I32, {Ptr, I32, Ptr}, false));

  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", BlockFn);
  BasicBlock *Init = BasicBlock::Create(Ctx, "init", BlockFn);
  BasicBlock *WarpHead = BasicBlock::Create(Ctx, "warp", BlockFn);
  BasicBlock *LaneHead = BasicBlock::Create(Ctx, "lane", BlockFn);
  BasicBlock *LaneRun = BasicBlock::Create(Ctx, "lane.run", BlockFn);
  BasicBlock *LaneNext = BasicBlock::Create(Ctx, "lane.next", BlockFn);
  BasicBlock *Step = BasicBlock::Create(Ctx, "warp.step", BlockFn);
  BasicBlock *WarpDone = BasicBlock::Create(Ctx, "warp.done", BlockFn);
  BasicBlock *BlockStep = BasicBlock::Create(Ctx, "block.step", BlockFn);
  BasicBlock *Divergent = BasicBlock::Create(Ctx, "divergent.barrier", BlockFn);
  BasicBlock *Deadlock = BasicBlock::Create(Ctx, "mbarrier.deadlock", BlockFn);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", BlockFn);
  ReturnInst::Create(Ctx, Done);

  IRBuilder<> B(Entry);
  Value *NX = loadCtxU32(B, CtxArg, 24, "ntid.x");
  Value *NY = loadCtxU32(B, CtxArg, 28, "ntid.y");
  Value *NZ = loadCtxU32(B, CtxArg, 32, "ntid.z");
  Value *NThreads = B.CreateMul(B.CreateMul(NX, NY), NZ, "nthreads");
  Value *NXY = B.CreateMul(NX, NY);
  Value *NWarps = B.CreateLShr(B.CreateAdd(NThreads, B.getInt32(31)), 5, "nwarps");
  LoadInst *Shared = B.CreateAlignedLoad(
      Ptr, B.CreateConstInBoundsGEP1_32(I8, CtxArg, 40), Align(8), "shared");
  LoadInst *Frames = B.CreateAlignedLoad(
      Ptr, B.CreateConstInBoundsGEP1_32(I8, CtxArg, 48), Align(8), "frames");
  auto frameOf = [&](IRBuilder<> &IB, Value *T) {
    return IB.CreateInBoundsGEP(
        I8, Frames, IB.CreateMul(IB.CreateZExt(T, I64), IB.getInt64(FB)), "frame");
  };
  B.CreateBr(Init);

  // Every lane starts runnable at region 0.
  {
    IRBuilder<> IB(Init);
    PHINode *T = IB.CreatePHI(I32, 2, "t");
    T->addIncoming(IB.getInt32(0), Entry);
    Value *F = frameOf(IB, T);
    IB.CreateAlignedStore(IB.getInt32(0),
                          IB.CreateConstInBoundsGEP1_32(I8, F, ResumeOffset), Align(4));
    IB.CreateStore(IB.getInt8(LaneRunnable),
                   IB.CreateConstInBoundsGEP1_32(I8, F, StateOffset));
    if (CounterOffset)
      IB.CreateMemSet(IB.CreateConstInBoundsGEP1_32(I8, F, CounterOffset),
                      IB.getInt8(0), 4 * NumBlockCounters, Align(4));
    Value *T1 = IB.CreateAdd(T, IB.getInt32(1));
    T->addIncoming(T1, Init);
    IB.CreateCondBr(IB.CreateICmpULT(T1, NThreads), Init, WarpHead);
  }

  // Warps take turns: each runs its runnable lanes to their next cut and
  // has its collective evaluated, then the next warp does; rounds repeat
  // while any warp moved, and the block barrier step comes when none can.
  // So warps go through their collectives together, as on a GPU, and code
  // that races benignly between warps of a region (a warp reading a shared
  // value another warp overwrites after its next shuffles) sees what it
  // would there.
  BasicBlock *RoundEnd = BasicBlock::Create(Ctx, "round.end", BlockFn);
  IRBuilder<> WB(WarpHead);
  PHINode *W = WB.CreatePHI(I32, 3, "w");
  W->addIncoming(WB.getInt32(0), Init);
  PHINode *Moved = WB.CreatePHI(WB.getInt1Ty(), 3, "moved");
  Moved->addIncoming(WB.getFalse(), Init);
  Value *WarpBase = WB.CreateMul(W, WB.getInt32(32));
  Value *Lanes = WB.CreateBinaryIntrinsic(
      Intrinsic::umin, WB.CreateSub(NThreads, WarpBase), WB.getInt32(32), nullptr,
      "lanes");
  Value *WarpFrames = frameOf(WB, WarpBase);
  WB.CreateBr(LaneHead);

  IRBuilder<> LB(LaneHead);
  PHINode *Lane = LB.CreatePHI(I32, 3, "l");
  Lane->addIncoming(LB.getInt32(0), WarpHead);
  Value *T = LB.CreateAdd(WarpBase, Lane, "t");
  Value *Frame = frameOf(LB, T);
  Value *StatePtr = LB.CreateConstInBoundsGEP1_32(I8, Frame, StateOffset);
  Value *ResumePtr = LB.CreateConstInBoundsGEP1_32(I8, Frame, ResumeOffset);
  LB.CreateCondBr(LB.CreateICmpEQ(LB.CreateLoad(I8, StatePtr),
                                  LB.getInt8(LaneRunnable)),
                  LaneRun, LaneNext);

  IRBuilder<> RB(LaneRun);
  Value *TX = RB.CreateURem(T, NX, "tid.x");
  Value *TY = RB.CreateURem(RB.CreateUDiv(T, NX), NY, "tid.y");
  Value *TZ = RB.CreateUDiv(T, NXY, "tid.z");
  Value *Resume = RB.CreateAlignedLoad(I32, ResumePtr, Align(4), "resume");
  SwitchInst *Dispatch = RB.CreateSwitch(Resume, LaneNext, RegionEntries.size());

  for (size_t R = 0; R < RegionEntries.size(); ++R) {
    ValueToValueMapTy VMap;
    VMap[Thread->getArg(ArgParams)] = Params;
    VMap[Thread->getArg(ArgCtx)] = CtxArg;
    VMap[Thread->getArg(ArgFrame)] = Frame;
    VMap[Thread->getArg(ArgTidX)] = TX;
    VMap[Thread->getArg(ArgTidY)] = TY;
    VMap[Thread->getArg(ArgTidZ)] = TZ;
    VMap[Thread->getArg(ArgShared)] = Shared;
    SmallVector<BasicBlock *> Clones;
    SetVector<BasicBlock *> Blocks;
    BasicBlock *EntryClone = cloneRegion(R, VMap, Clones, Blocks);
    Dispatch->addCase(RB.getInt32(R), EntryClone);
    for (BasicBlock *C : Clones) {
      Instruction *Term = C->getTerminator();
      if (isa<ReturnInst>(Term)) {
        IRBuilder<> TB(Term);
        TB.CreateStore(TB.getInt8(LaneExited), StatePtr);
        TB.CreateBr(LaneNext);
        Term->eraseFromParent();
        continue;
      }
      for (unsigned S = 0; S < Term->getNumSuccessors(); ++S) {
        BasicBlock *Succ = Term->getSuccessor(S);
        auto It = BarrierId.find(Succ);
        if (It == BarrierId.end())
          continue;
        // Leaving the region at a cut: remember where to resume and why.
        bool Warp = !RegionAtBarrier[It->second];
        BasicBlock *Edge = BasicBlock::Create(
            Ctx, (Warp ? "to.warp" : "to.barrier") + Twine(It->second), BlockFn);
        IRBuilder<> EB(Edge);
        EB.CreateAlignedStore(EB.getInt32(It->second), ResumePtr, Align(4));
        EB.CreateStore(EB.getInt8(Warp ? LaneAtWarpOp : LaneAtBarrier), StatePtr);
        EB.CreateBr(LaneNext);
        Term->setSuccessor(S, Edge);
      }
    }
    remapRegion(Clones, EntryClone, VMap, R != 0);
  }

  IRBuilder<> NB(LaneNext);
  Value *Lane1 = NB.CreateAdd(Lane, NB.getInt32(1));
  Lane->addIncoming(Lane1, LaneNext);
  NB.CreateCondBr(NB.CreateICmpULT(Lane1, Lanes), LaneHead, Step);

  IRBuilder<> SB(Step);
  Value *More = SB.CreateCall(WarpStep, {WarpFrames, Lanes, Sched});
  Value *MovedNow =
      SB.CreateOr(Moved, SB.CreateICmpNE(More, SB.getInt32(0)), "moved.now");
  SB.CreateBr(WarpDone);

  IRBuilder<> DB(WarpDone);
  Value *W1 = DB.CreateAdd(W, DB.getInt32(1));
  W->addIncoming(W1, WarpDone);
  Moved->addIncoming(MovedNow, WarpDone);
  DB.CreateCondBr(DB.CreateICmpULT(W1, NWarps), WarpHead, RoundEnd);

  IRBuilder<> EB(RoundEnd);
  W->addIncoming(EB.getInt32(0), RoundEnd);
  Moved->addIncoming(EB.getFalse(), RoundEnd);
  EB.CreateCondBr(MovedNow, WarpHead, BlockStep);

  IRBuilder<> BB(BlockStep);
  Value *Next = BB.CreateCall(BarrierStep, {Frames, NThreads, Sched});
  W->addIncoming(BB.getInt32(0), BlockStep);
  Moved->addIncoming(BB.getFalse(), BlockStep);
  SwitchInst *SW = BB.CreateSwitch(Next, Done, 3);
  SW->addCase(BB.getInt32(0), WarpHead);
  SW->addCase(BB.getInt32(2), Divergent);
  SW->addCase(BB.getInt32(3), Deadlock);

  for (auto [Block, Status] : {std::pair(Divergent, BlockDivergentBarrier),
                               std::pair(Deadlock, BlockMbarrierDeadlock)}) {
    IRBuilder<> VB(Block);
    VB.CreateAlignedStore(VB.getInt32(Status),
                          VB.CreateConstInBoundsGEP1_32(I8, CtxArg, 56),
                          Align(4));
    VB.CreateBr(Done);
  }
}

void WorkGroupBuilder::buildBlockFunction() {
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *I8 = Type::getInt8Ty(Ctx);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  BlockFn = Function::Create(FT, GlobalValue::ExternalLinkage,
                             Layout.BlockFunctionName, M);
  Argument *Params = BlockFn->getArg(0), *CtxArg = BlockFn->getArg(1);
  Params->setName("params");
  CtxArg->setName("ctx");
  BlockFn->addParamAttr(0, Attribute::NoAlias);
  BlockFn->addParamAttr(1, Attribute::NoAlias);
  bool MultiRegion = RegionEntries.size() > 1;

  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", BlockFn);
  IRBuilder<> B(Entry);
  Value *NX = loadCtxU32(B, CtxArg, 24, "ntid.x");
  Value *NY = loadCtxU32(B, CtxArg, 28, "ntid.y");
  Value *NZ = loadCtxU32(B, CtxArg, 32, "ntid.z");
  Value *NThreads = B.CreateMul(B.CreateMul(NX, NY), NZ, "nthreads");
  if (GroupWidth > 1) // groups of lanes; ntid.x is a multiple of the width
    NThreads = B.CreateUDiv(NThreads, B.getInt32(GroupWidth), "ngroups");
  LoadInst *Shared = B.CreateAlignedLoad(
      Ptr, B.CreateConstInBoundsGEP1_32(I8, CtxArg, 40), Align(8), "shared");
  LoadInst *Frames = B.CreateAlignedLoad(
      Ptr, B.CreateConstInBoundsGEP1_32(I8, CtxArg, 48), Align(8), "frames");
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", BlockFn);
  ReturnInst::Create(Ctx, Done);
  Value *NXY = B.CreateMul(NX, NY);

  // Headers first so regions can branch to each other.
  SmallVector<BasicBlock *> Headers;
  for (size_t R = 0; R < RegionEntries.size(); ++R)
    Headers.push_back(
        BasicBlock::Create(Ctx, "region" + Twine(R), BlockFn));
  B.CreateBr(Headers[0]);

  SmallVector<BasicBlock *> Ends; // where every group has run the region
  for (size_t R = 0; R < RegionEntries.size(); ++R) {
    BasicBlock *Header = Headers[R];
    BasicBlock *Loop = BasicBlock::Create(Ctx, "region" + Twine(R) + ".thread", BlockFn);
    BasicBlock *Latch = BasicBlock::Create(Ctx, "region" + Twine(R) + ".next", BlockFn);
    BasicBlock *After = BasicBlock::Create(Ctx, "region" + Twine(R) + ".end", BlockFn);
    Ends.push_back(After);
    IRBuilder<> HB(Header);
    HB.CreateBr(Loop);

    IRBuilder<> LB(Loop);
    PHINode *T = LB.CreatePHI(I32, 2, "t");
    PHINode *Agg = LB.CreatePHI(I32, 2, "barrier");
    T->addIncoming(LB.getInt32(0), Header);
    Agg->addIncoming(LB.getInt32(NoneCode), Header);
    Value *TX, *TY, *TZ;
    if (GroupWidth > 1) {
      // A group of SIMD lanes: the vector program takes its first thread
      // in %tid.x's place and derives the rest itself.
      TX = LB.CreateMul(T, LB.getInt32(GroupWidth), "t0");
      TY = TZ = LB.getInt32(0);
    } else {
      TX = LB.CreateURem(T, NX, "tid.x");
      Value *TYZ = LB.CreateUDiv(T, NX);
      TY = LB.CreateURem(TYZ, NY, "tid.y");
      TZ = LB.CreateUDiv(T, NXY, "tid.z");
    }
    Value *Frame = LB.CreateInBoundsGEP(
        I8, Frames,
        LB.CreateMul(LB.CreateZExt(T, LB.getInt64Ty()),
                     LB.getInt64(Layout.FrameBytesPerThread)),
        "frame");
    Value *ExitFlag = LB.CreateInBoundsGEP(I8, Frame, LB.getInt64(ExitFlagOffset));

    PHINode *Next = PHINode::Create(I32, 4, "reached", Latch);
    ValueToValueMapTy VMap;
    VMap[Thread->getArg(ArgParams)] = Params;
    VMap[Thread->getArg(ArgCtx)] = CtxArg;
    VMap[Thread->getArg(ArgFrame)] = Frame;
    VMap[Thread->getArg(ArgTidX)] = TX;
    VMap[Thread->getArg(ArgTidY)] = TY;
    VMap[Thread->getArg(ArgTidZ)] = TZ;
    VMap[Thread->getArg(ArgShared)] = Shared;

    SmallVector<BasicBlock *> Clones;
    SetVector<BasicBlock *> Blocks;
    BasicBlock *EntryClone = cloneRegion(R, VMap, Clones, Blocks);
    if (R == 0) {
      if (MultiRegion)
        LB.CreateStore(LB.getInt8(0), ExitFlag);
      LB.CreateBr(EntryClone);
    } else {
      // Threads that exited in an earlier region stay out.
      Value *Exited = LB.CreateICmpNE(LB.CreateLoad(I8, ExitFlag), LB.getInt8(0));
      BasicBlock *Skip = BasicBlock::Create(Ctx, "exited", BlockFn);
      BranchInst::Create(Latch, Skip);
      Next->addIncoming(LB.getInt32(ExitCode), Skip);
      LB.CreateCondBr(Exited, Skip, EntryClone);
    }

    for (BasicBlock *C : Clones) {
      // Edges into barrier blocks end this thread's turn in the region.
      Instruction *Term = C->getTerminator();
      if (isa<ReturnInst>(Term)) {
        IRBuilder<> TB(Term);
        if (MultiRegion)
          TB.CreateStore(TB.getInt8(1), ExitFlag);
        BasicBlock *Edge = BasicBlock::Create(Ctx, "exit", BlockFn);
        TB.CreateBr(Edge);
        BranchInst::Create(Latch, Edge);
        Next->addIncoming(TB.getInt32(ExitCode), Edge);
        Term->eraseFromParent();
        continue;
      }
      for (unsigned S = 0; S < Term->getNumSuccessors(); ++S) {
        BasicBlock *Succ = Term->getSuccessor(S);
        auto It = BarrierId.find(Succ);
        if (It == BarrierId.end())
          continue;
        BasicBlock *Edge = BasicBlock::Create(Ctx, "to.barrier" + Twine(It->second), BlockFn);
        BranchInst::Create(Latch, Edge);
        Next->addIncoming(ConstantInt::get(I32, It->second), Edge);
        Term->setSuccessor(S, Edge);
      }
    }
    remapRegion(Clones, EntryClone, VMap, R != 0);

    // Latch: fold this thread's barrier into the block's.
    IRBuilder<> XB(Latch);
    Value *Left = XB.CreateICmpEQ(Next, XB.getInt32(ExitCode));
    Value *First = XB.CreateICmpEQ(Agg, XB.getInt32(NoneCode));
    Value *Same = XB.CreateICmpEQ(Agg, Next);
    Value *Merged = XB.CreateSelect(
        Left, Agg,
        XB.CreateSelect(First, Next,
                        XB.CreateSelect(Same, Agg, XB.getInt32(ConflictCode))));
    Agg->addIncoming(Merged, Latch);
    Value *T1 = XB.CreateAdd(T, XB.getInt32(1));
    T->addIncoming(T1, Latch);
    XB.CreateCondBr(XB.CreateICmpULT(T1, NThreads), Loop, After);

    IRBuilder<> AB(After);
    if (!MultiRegion) {
      AB.CreateBr(Done);
      continue;
    }
    BasicBlock *Conflict = BasicBlock::Create(Ctx, "divergent.barrier", BlockFn);
    {
      IRBuilder<> CB(Conflict);
      CB.CreateAlignedStore(CB.getInt32(BlockDivergentBarrier),
                            CB.CreateConstInBoundsGEP1_32(I8, CtxArg, 56),
                            Align(4));
      CB.CreateBr(Done);
    }
    SwitchInst *SW = AB.CreateSwitch(Merged, Done, RegionEntries.size());
    SW->addCase(AB.getInt32(ConflictCode), Conflict);
    for (size_t J = 1; J < RegionEntries.size(); ++J)
      SW->addCase(AB.getInt32(J), Headers[J]);
  }
  lowerBlockReductions(Entry, Ends);
}

/// The SIMD path's bar.red (WarpVectorize's emitBlockReduction): each kind
/// of reduction has an accumulator and a result in the block function.
/// Groups of lanes add their parts to the accumulator before the barrier;
/// once every group has run the region (its end, where the block function
/// runs alone), the accumulator becomes the result and starts over, and
/// the groups read the result in the next region. So a reduction that
/// follows in that region adds to a fresh accumulator while the groups
/// still read the last result.
void WorkGroupBuilder::lowerBlockReductions(BasicBlock *Entry,
                                            ArrayRef<BasicBlock *> Ends) {
  struct Kind {
    StringRef Name;
    uint32_t Identity;
    AllocaInst *Acc = nullptr, *Res = nullptr;
  };
  Kind Kinds[] = {{"popc", 0}, {"and", 1}, {"or", 0}};
  SmallVector<CallInst *> Calls;
  for (Instruction &I : instructions(BlockFn))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *F = CI->getCalledFunction();
          F && (F->getName().starts_with(BarRedContributePrefix) ||
                F->getName().starts_with(BarRedResultPrefix)))
        Calls.push_back(CI);
  if (Calls.empty())
    return;
  Type *I32 = Type::getInt32Ty(Ctx);
  auto kindOf = [&](CallInst *CI) -> Kind & {
    StringRef Name = CI->getCalledFunction()->getName();
    if (!Name.consume_front(BarRedResultPrefix))
      Name.consume_front(BarRedContributePrefix);
    for (Kind &C : Kinds)
      if (C.Name == Name)
        return C;
    llvm_unreachable("a bar.red kind the vectorizer does not make");
  };
  // Accumulators only for the kinds the kernel uses.
  IRBuilder<> EB(Entry->getTerminator());
  for (CallInst *CI : Calls) {
    Kind &K = kindOf(CI);
    if (K.Acc)
      continue;
    K.Acc = EB.CreateAlloca(I32, nullptr, "barred.acc." + K.Name);
    K.Res = EB.CreateAlloca(I32, nullptr, "barred.res." + K.Name);
    EB.CreateStore(EB.getInt32(K.Identity), K.Acc);
    EB.CreateStore(EB.getInt32(K.Identity), K.Res);
  }
  for (BasicBlock *End : Ends) {
    IRBuilder<> B(End->getTerminator());
    for (Kind &K : Kinds) {
      if (!K.Acc)
        continue;
      B.CreateStore(B.CreateLoad(I32, K.Acc), K.Res);
      B.CreateStore(B.getInt32(K.Identity), K.Acc);
    }
  }
  for (CallInst *CI : Calls) {
    bool IsResult =
        CI->getCalledFunction()->getName().starts_with(BarRedResultPrefix);
    Kind *K = &kindOf(CI);
    IRBuilder<> B(CI);
    if (IsResult) {
      CI->replaceAllUsesWith(B.CreateLoad(I32, K->Res, "bar.red"));
    } else {
      Value *Old = B.CreateLoad(I32, K->Acc);
      Value *Part = CI->getArgOperand(0);
      Value *New = K->Name == "popc"  ? B.CreateAdd(Old, Part)
                   : K->Name == "and" ? B.CreateAnd(Old, Part)
                                      : B.CreateOr(Old, Part);
      B.CreateStore(New, K->Acc);
    }
    CI->eraseFromParent();
  }
  for (StringRef Prefix : {BarRedContributePrefix, BarRedResultPrefix})
    for (Kind &K : Kinds)
      if (Function *F = M.getFunction((Prefix + K.Name).str());
          F && F->use_empty())
        F->eraseFromParent();
}

/// Warps of a block run one after another between cuts (the SIMD path
/// runs a region for one warp, then the next). On a GPU they go through a
/// region together, and kernels rely on it without knowing: a region that
/// reads a shared word, reduces across the warp and then has lane 0
/// overwrite that word (reusing one scratch array for two reductions
/// between the same barriers) races between warps, yet on a GPU every warp
/// reads before any warp's shuffles are done. Such a region gets a block
/// barrier before its first collective that every thread entering it
/// reaches once (it post-dominates the region's start, in the same loop),
/// that a shared-memory load can reach and from which a shared-memory store
/// of the region can be reached. Every thread reaches the added barrier as often as the region's
/// start, so it changes no result of a race-free kernel.
static void holdWarpsTogether(Function &F) {
  auto isWarpCollective = [](const Instruction &I) {
    const CollectiveInfo *CI = collectiveInfo(I);
    return CI && CI->F != CollectiveInfo::NamedBarrier &&
           CI->F != CollectiveInfo::BarRed &&
           CI->F != CollectiveInfo::None;
  };
  auto isShared = [](const Value *Ptr) {
    return Ptr->getType()->getPointerAddressSpace() == 3;
  };
  DominatorTree DT(F);
  PostDominatorTree PDT(F);
  LoopInfo LI(DT);
  // Block barriers, bar.red included, bound the regions.
  auto endsRegion = [](const Instruction &I) {
    const CollectiveInfo *CI = collectiveInfo(I);
    return isBarrier(I) || (CI && CI->F == CollectiveInfo::BarRed);
  };
  SmallVector<Instruction *> Starts = {&*F.getEntryBlock().begin()};
  for (Instruction &I : instructions(F))
    if (endsRegion(I) && I.getNextNode())
      Starts.push_back(I.getNextNode());
  SmallVector<Instruction *> Cuts;
  for (Instruction *Start : Starts) {
    // The region: what Start reaches without crossing a barrier.
    SmallVector<Instruction *> Loads, Collectives, Stores;
    SmallPtrSet<BasicBlock *, 16> Seen;
    SmallVector<std::pair<BasicBlock *, Instruction *>> Work = {
        {Start->getParent(), Start}};
    bool Bounded = true;
    while (!Work.empty()) {
      auto [BB, From] = Work.pop_back_val();
      bool Stopped = false;
      for (auto It = From->getIterator(); It != BB->end(); ++It) {
        Instruction &I = *It;
        if (endsRegion(I)) {
          Stopped = true;
          break;
        }
        if (auto *L = dyn_cast<LoadInst>(&I); L && isShared(L->getPointerOperand()))
          Loads.push_back(L);
        else if (auto *S = dyn_cast<StoreInst>(&I);
                 S && isShared(S->getPointerOperand()))
          Stores.push_back(S);
        else if (isWarpCollective(I))
          Collectives.push_back(&I);
      }
      if (Stopped)
        continue;
      for (BasicBlock *Succ : successors(BB))
        if (Seen.insert(Succ).second)
          Work.push_back({Succ, &*Succ->begin()});
      Bounded &= Seen.size() < 4096;
    }
    if (!Bounded || Loads.empty() || Stores.empty())
      continue;
    for (Instruction *C : Collectives) {
      if (!PDT.dominates(C->getParent(), Start->getParent()) ||
          (C->getParent() == Start->getParent() && C->comesBefore(Start)) ||
          LI.getLoopFor(C->getParent()) != LI.getLoopFor(Start->getParent()))
        continue;
      // A read on some path to C (often guarded: `if (tid < n) x = s[0];`).
      bool ReadBefore = llvm::any_of(Loads, [&](Instruction *L) {
        return !DT.dominates(C, L) &&
               isPotentiallyReachable(L, C, nullptr, &DT, &LI);
      });
      // A write after C, before the region's end (across a loop's back edge
      // too: the next iteration's write before its barrier).
      bool WrittenAfter = llvm::any_of(Stores, [&](Instruction *S) {
        return isPotentiallyReachable(C, S, nullptr, &DT, &LI);
      });
      if (ReadBefore && WrittenAfter) {
        Cuts.push_back(C);
        break;
      }
    }
  }
  for (Instruction *C : Cuts) {
    IRBuilder<> B(C);
    B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                      {B.getInt32(0)});
  }
}

/// Can P address `.shared` memory? Follows address arithmetic back to a
/// pointer in the shared window, also through `cvta` to a generic address,
/// integer offsets added to it and the registers (stack slots) holding it.
static bool mayAddressShared(const Value *P) {
  SmallPtrSet<const Value *, 16> Seen;
  SmallVector<const Value *> Work = {P};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > 256)
      return false;
    if (V->getType()->isPointerTy() && V->getType()->getPointerAddressSpace() == 3)
      return true;
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (const Value *In : Phi->incoming_values())
        Work.push_back(In);
      continue;
    }
    // PTX registers are still stack slots here: whatever is stored to one.
    if (auto *L = dyn_cast<LoadInst>(V)) {
      if (auto *Slot = dyn_cast<AllocaInst>(L->getPointerOperand()))
        for (const User *U : Slot->users())
          if (auto *S = dyn_cast<StoreInst>(U); S && S->getPointerOperand() == Slot)
            Work.push_back(S->getValueOperand());
      continue;
    }
    auto *O = dyn_cast<Operator>(V);
    if (!O)
      continue;
    switch (O->getOpcode()) {
    case Instruction::GetElementPtr:
    case Instruction::AddrSpaceCast:
    case Instruction::BitCast:
    case Instruction::IntToPtr:
    case Instruction::PtrToInt:
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Trunc:
      Work.push_back(O->getOperand(0));
      break;
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Or:
      Work.push_back(O->getOperand(0));
      Work.push_back(O->getOperand(1));
      break;
    case Instruction::Select:
      Work.push_back(O->getOperand(1));
      Work.push_back(O->getOperand(2));
      break;
    default:
      break;
    }
  }
  return false;
}

/// The scheduled block function runs each lane of a warp from one cut to
/// the next before the next lane starts. On a GPU the lanes of a converged
/// warp go through those instructions together, and warp-synchronous code
/// relies on it without a `__syncwarp`: lanes store their part of a tile
/// to shared memory and read each other's parts straight after (llama.cpp's
/// single-warp matrix kernels gather mma.sync results this way), or read
/// a word that the next step overwrites. In a kernel with warp collectives
/// or matrix instructions, a shared-memory access that can follow a
/// conflicting one (a load after a store or atomic, a store or atomic after
/// a load) with no cut in between gets LockstepMD: the lanes waiting there
/// go on together, so every lane's earlier access is done before any
/// lane's later one, as in lockstep. Consecutive stores, consecutive loads
/// and consecutive atomics stay in one region. The SIMD path runs a warp's
/// lanes in lockstep anyway and does not need this.
static void markLockstepAccesses(Function &F) {
  bool WarpCode = false;
  for (Instruction &I : instructions(F)) {
    const CollectiveInfo *CI = collectiveInfo(I);
    WarpCode |= (CI && CI->F != CollectiveInfo::NamedBarrier &&
                 CI->F != CollectiveInfo::BarRed) ||
                matrixCollective(I).has_value();
  }
  if (!WarpCode)
    return;
  enum : uint8_t { Load = 1, Store = 2, Atomic = 4 };
  auto kindOf = [](const Instruction &I) -> uint8_t {
    if (auto *L = dyn_cast<LoadInst>(&I))
      return mayAddressShared(L->getPointerOperand()) ? Load : 0;
    if (auto *S = dyn_cast<StoreInst>(&I))
      return mayAddressShared(S->getPointerOperand()) ? Store : 0;
    if (auto *A = dyn_cast<AtomicRMWInst>(&I))
      return mayAddressShared(A->getPointerOperand()) ? Atomic : 0;
    if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      return mayAddressShared(X->getPointerOperand()) ? Atomic : 0;
    return 0;
  };
  auto conflicts = [](uint8_t Seen, uint8_t Kind) {
    return (Kind == Load && (Seen & (Store | Atomic))) ||
           (Kind == Store && (Seen & (Load | Atomic))) ||
           (Kind == Atomic && (Seen & (Load | Store)));
  };
  auto isCutHere = [](const Instruction &I) {
    return isBarrier(I) || collectiveInfo(I) || matrixCollective(I) ||
           (isa<CallInst>(I) && mbarrier::isWait(cast<CallInst>(I)));
  };
  DenseMap<const Instruction *, uint8_t> Kinds;
  for (Instruction &I : instructions(F))
    if (uint8_t K = kindOf(I))
      Kinds[&I] = K;
  if (Kinds.empty())
    return;
  SmallPtrSet<const Instruction *, 16> Marked;
  // Which accesses a block's end can follow since the last cut, given the
  // marks so far; marking resets that set.
  auto transfer = [&](BasicBlock &BB, uint8_t Seen,
                      SmallVectorImpl<Instruction *> *NewMarks) {
    for (Instruction &I : BB) {
      if (isCutHere(I) || Marked.contains(&I)) {
        Seen = 0;
      }
      auto It = Kinds.find(&I);
      if (It == Kinds.end())
        continue;
      if (conflicts(Seen, It->second)) {
        if (NewMarks)
          NewMarks->push_back(&I);
        Seen = It->second;
      } else {
        Seen |= It->second;
      }
    }
    return Seen;
  };
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (;;) {
    DenseMap<BasicBlock *, uint8_t> Out;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (BasicBlock *BB : RPOT) {
        uint8_t In = 0;
        for (BasicBlock *P : predecessors(BB))
          In |= Out.lookup(P);
        uint8_t O = transfer(*BB, In, nullptr);
        if (O != Out.lookup(BB)) {
          Out[BB] = O;
          Changed = true;
        }
      }
    }
    SmallVector<Instruction *> NewMarks;
    for (BasicBlock *BB : RPOT) {
      uint8_t In = 0;
      for (BasicBlock *P : predecessors(BB))
        In |= Out.lookup(P);
      transfer(*BB, In, &NewMarks);
    }
    if (NewMarks.empty())
      break;
    Marked.insert(NewMarks.begin(), NewMarks.end());
  }
  for (const Instruction *I : Marked)
    const_cast<Instruction *>(I)->setMetadata(LockstepMD,
                                              MDNode::get(F.getContext(), {}));
}

Error WorkGroupBuilder::run() {
  if (Error E = makeThreadFunction())
    return E;
  // Kernels that read %reserved_smem_offset_* get the system's reserved
  // shared memory at the start of their arena.
  bool UsesReserved = false;
  for (Instruction &I : instructions(Thread))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *F = CI->getCalledFunction())
        UsesReserved |= F->getName().starts_with("cuhip.sreg.reserved_smem");
  // Before flattening, while each access still names its state space.
  holdWarpsTogether(*Thread);
  markLockstepAccesses(*Thread);
  if (Memcheck)
    instrumentMemoryAccesses(*Thread, Thread->getArg(ArgCtx),
                             Thread->getArg(ArgTidX), Thread->getArg(ArgTidY),
                             Thread->getArg(ArgTidZ), Thread->getArg(ArgParams),
                             Kernel.getName());
  Layout.StaticSharedBytes = flattenAddressSpaces(
      *Thread, Thread->getArg(ArgShared), Layout.SharedAlign,
      UsesReserved ? ReservedSharedBytes : 0);
  replaceSpecialRegisters();
  bindDeviceLibraryCalls();
  promoteRegisters();
  // Before the collectives are cut: their exchange stores would hide the
  // polling loops around them.
  insertPollLoopYields(*Thread, Thread->getArg(ArgCtx));
  // The vector program is made after the yields, which it keeps (blocks
  // of cooperative launches yield to each other on either path); a kernel
  // whose polling loop takes a lock keeps the scalar path.
  if (!WarpWidth) {
    Layout.ScalarReason = "vectorization is off (CUHIP_CPU_VECTORIZE=0)";
  } else {
    // A kernel with warp collectives runs whole warps as one vector
    // program, so that shuffles and votes stay in registers.
    bool Collectives = false;
    for (Instruction &I : instructions(Thread)) {
      if (const CollectiveInfo *CI = collectiveInfo(I))
        Collectives |= CI->F != CollectiveInfo::NamedBarrier &&
                       CI->F != CollectiveInfo::BarRed;
      Collectives |= matrixCollective(I).has_value();
    }
    if (Collectives)
      WarpWidth = 32;
    std::string WhyNot;
    WarpFn = vectorizeThreadFunction(*Thread, WarpWidth,
                                     Layout.BlockFunctionName + ".lanes",
                                     WhyNot);
    if (WarpFn)
      Layout.VectorLanes = WarpWidth;
    else
      Layout.ScalarReason = WhyNot;
  }
  // The scalar path runs the block's threads one at a time.
  cutAtLockstepAccesses();
  lowerSharedAtomics(*Thread);
  cutAtCollectives();
  if (Error E = splitAtCuts())
    return E;
  demoteCrossBarrierValues();
  buildFrame();
  if (HasWarpOps)
    buildScheduledBlockFunction();
  else
    buildBlockFunction();
  if (WarpFn) {
    bool HasBarrier = false;
    for (Instruction &I : instructions(WarpFn))
      HasBarrier |= isBarrier(I);
    if (!HasBarrier)
      addVectorPath(WarpFn, /*IsBlockFunction=*/false);
    else if (Function *Lanes = buildVectorRegions(WarpFn))
      addVectorPath(Lanes, /*IsBlockFunction=*/true);
  }
  Thread->eraseFromParent();
  return Error::success();
}

/// The vector program of a kernel with block barriers gets the same
/// region treatment as the scalar thread function, with a group of SIMD
/// lanes where the scalar block function has a thread: values live across
/// a barrier (vectors and masks included) go to the group's frame, and the
/// block function runs each region for every group. The kernel's frame
/// size becomes large enough for both block functions.
Function *WorkGroupBuilder::buildVectorRegions(Function *VF) {
  HostKernelLayout Sub;
  Sub.BlockFunctionName = Layout.BlockFunctionName + ".groups";
  WorkGroupBuilder G(M, Kernel, Sub, 0, false);
  G.Thread = VF;
  G.GroupWidth = WarpWidth;
  if (Error E = G.splitAtCuts()) {
    consumeError(std::move(E));
    VF->eraseFromParent();
    Layout.VectorLanes = 0;
    Layout.ScalarReason = "the vector program could not be cut at barriers";
    return nullptr;
  }
  G.demoteCrossBarrierValues();
  G.buildFrame();
  G.buildBlockFunction();
  VF->eraseFromParent();
  G.BlockFn->setLinkage(GlobalValue::InternalLinkage);
  G.BlockFn->addFnAttr(Attribute::AlwaysInline);
  uint32_t PerThread = uint32_t(divideCeil(Sub.FrameBytesPerThread, WarpWidth));
  Layout.FrameBytesPerThread =
      std::max(Layout.FrameBytesPerThread, uint32_t(alignTo(PerThread, 16)));
  return G.BlockFn;
}

/// A barrier-free kernel whose thread function vectorized gets a block
/// function that runs the block WarpWidth threads at a time as SIMD lanes
/// when ntid.x is a multiple of WarpWidth (then each group of threads is
/// one row of the block), and the scalar thread loop otherwise.
void WorkGroupBuilder::addVectorPath(Function *Lanes, bool IsBlockFunction) {
  Function *Scalar = BlockFn;
  Scalar->setName(Layout.BlockFunctionName + ".scalar");
  Scalar->setLinkage(GlobalValue::InternalLinkage);
  Scalar->addFnAttr(Attribute::AlwaysInline);
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  BlockFn = Function::Create(Scalar->getFunctionType(),
                             GlobalValue::ExternalLinkage,
                             Layout.BlockFunctionName, M);
  Argument *Params = BlockFn->getArg(0), *CtxArg = BlockFn->getArg(1);
  Params->setName("params");
  CtxArg->setName("ctx");
  BlockFn->addParamAttr(0, Attribute::NoAlias);
  BlockFn->addParamAttr(1, Attribute::NoAlias);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", BlockFn);
  BasicBlock *Vector = BasicBlock::Create(Ctx, "lanes", BlockFn);
  BasicBlock *Loop = BasicBlock::Create(Ctx, "lanes.loop", BlockFn);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", BlockFn);
  BasicBlock *Fallback = BasicBlock::Create(Ctx, "scalar", BlockFn);
  IRBuilder<> B(Entry);
  Value *NX = loadCtxU32(B, CtxArg, 24, "ntid.x");
  Value *NY = loadCtxU32(B, CtxArg, 28, "ntid.y");
  Value *NZ = loadCtxU32(B, CtxArg, 32, "ntid.z");
  Value *NThreads = B.CreateMul(B.CreateMul(NX, NY), NZ, "nthreads");
  Value *Rows = B.CreateICmpEQ(B.CreateURem(NX, B.getInt32(WarpWidth)),
                               B.getInt32(0));
  B.CreateCondBr(Rows, Vector, Fallback);
  IRBuilder<> VB(Vector);
  if (IsBlockFunction) {
    // Regions over groups of lanes: one call runs the block.
    VB.CreateCall(Lanes, {Params, CtxArg});
    VB.CreateBr(Done);
    Loop->eraseFromParent();
    ReturnInst::Create(Ctx, Done);
    IRBuilder<> FB(Fallback);
    FB.CreateCall(Scalar, {Params, CtxArg});
    FB.CreateRetVoid();
    return;
  }
  LoadInst *Shared = VB.CreateAlignedLoad(
      Ptr, VB.CreateConstInBoundsGEP1_32(VB.getInt8Ty(), CtxArg, 40), Align(8),
      "shared");
  VB.CreateBr(Loop);
  IRBuilder<> LB(Loop);
  PHINode *T0 = LB.CreatePHI(I32, 2, "t0");
  T0->addIncoming(LB.getInt32(0), Vector);
  LB.CreateCall(Lanes, {Params, CtxArg, ConstantPointerNull::get(
                                            PointerType::get(Ctx, 0)),
                         T0, LB.getInt32(0), LB.getInt32(0), Shared});
  Value *Next = LB.CreateAdd(T0, LB.getInt32(WarpWidth));
  T0->addIncoming(Next, Loop);
  LB.CreateCondBr(LB.CreateICmpULT(Next, NThreads), Loop, Done);
  ReturnInst::Create(Ctx, Done);
  IRBuilder<> FB(Fallback);
  FB.CreateCall(Scalar, {Params, CtxArg});
  FB.CreateRetVoid();
}

} // namespace

WarpOp collectiveOp(const Instruction &I) {
  const CollectiveInfo *CI = collectiveInfo(I);
  return CI ? CI->Op : WarpOp::None;
}

/// Device functions are inlined into the kernels that call them, so their
/// barriers, collectives and special registers become the kernel's own.
/// External device functions must be ones the device library provides.
static Error inlineDeviceFunctions(Module &M) {
  for (Function &F : M) {
    if (F.isIntrinsic() || F.hasFnAttribute("cuhip-kernel") ||
        F.getName().starts_with("cuhip_") ||
        F.getName().starts_with("cuhip."))
      continue;
    if (F.isDeclaration()) {
      if (!F.use_empty() && !deviceLibraryFunction(F.getName().str()))
        return createStringError(
            "device function '%s' is declared but not defined in the module; "
            "the CPU backend provides only vprintf, __assertfail, malloc, "
            "free and the device runtime (separately compiled device code is "
            "not linked yet)",
            F.getName().str().c_str());
      continue;
    }
    F.addFnAttr(Attribute::AlwaysInline);
  }
  runModulePipeline(M, nullptr, PipelineTuningOptions(), [](PassBuilder &) {
    ModulePassManager MPM;
    MPM.addPass(AlwaysInlinerPass());
    return MPM;
  });
  // Device functions nothing calls any more (all inlined) go; the host
  // could not compile the thread-level intrinsics left in them.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (!F.isDeclaration() && !F.hasFnAttribute("cuhip-kernel") &&
          !F.getName().starts_with("cuhip") && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
  }
  // trap and brkpt end the block; nanosleep has nothing to wait for.
  SmallVector<CallInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getIntrinsicID() == Intrinsic::trap ||
            II->getIntrinsicID() == Intrinsic::debugtrap ||
            II->getIntrinsicID() == Intrinsic::nvvm_nanosleep)
          Calls.push_back(II);
  FunctionCallee Trap = M.getOrInsertFunction(
      "cuhip_trap", FunctionType::get(Type::getVoidTy(M.getContext()),
                                      {Type::getInt32Ty(M.getContext())}, false));
  for (CallInst *CI : Calls) {
    if (CI->getIntrinsicID() != Intrinsic::nvvm_nanosleep) {
      IRBuilder<> B(CI);
      CallInst *T = B.CreateCall(
          Trap, {B.getInt32(CI->getIntrinsicID() == Intrinsic::trap
                                ? TrapInstruction
                                : TrapBreakpoint)});
      T->setDoesNotReturn();
    }
    CI->eraseFromParent();
  }
  return Error::success();
}

/// A device function that was not inlined (called through a pointer, or
/// recursively) runs without the thread's context; it must not need it.
static Error checkStandaloneFunctions(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration() || F.getName().starts_with("cuhip.block."))
      continue;
    for (Instruction &I : instructions(F)) {
      const char *What = nullptr;
      if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        if (II->getCalledFunction()->getName().starts_with("llvm.nvvm."))
          What = "special registers, barriers or warp collectives";
      } else if (matrixCollective(I)) {
        What = "warp-level matrix instructions";
      } else if (auto *Call = dyn_cast<CallInst>(&I);
                 Call && mbarrier::isWait(*Call)) {
        // A wait there could not let the threads it waits for run.
        What = "mbarrier waits";
      }
      for (Value *Op : I.operands())
        if (auto *PT = dyn_cast<PointerType>(Op->getType()))
          if (PT->getAddressSpace() == addrspace::Shared)
            What = "shared memory";
      if (What)
        return createStringError(
            "device function '%s' is called through a pointer or recursively "
            "and uses %s; the CPU backend cannot run that yet",
            F.getName().str().c_str(), What);
    }
  }
  return Error::success();
}

Error prepareHostModule(Module &M, const std::vector<KernelInfo> &Kernels,
                        std::vector<HostKernelLayout> &Layouts,
                        TargetMachine *TM, const HostCompileOptions &Options) {
  if (Error E = inlineDeviceFunctions(M))
    return E;
  for (const KernelInfo &K : Kernels) {
    Function *F = M.getFunction(K.Name);
    if (!F)
      return createStringError("kernel '%s' is missing from the module",
                               K.Name.c_str());
    HostKernelLayout L;
    L.KernelName = K.Name;
    L.BlockFunctionName = "cuhip.block." + K.Name;
    if (Error E = WorkGroupBuilder(M, *F, L, warpVectorWidth(TM),
                                  Options.Memcheck)
                      .run())
      return E;
    Layouts.push_back(std::move(L));
  }
  // A kernel whose address is taken (mov %rd, kernel) now stands for its
  // block function.
  for (size_t I = 0; I < Kernels.size(); ++I)
    if (Function *F = M.getFunction(Kernels[I].Name)) {
      F->replaceAllUsesWith(M.getFunction(Layouts[I].BlockFunctionName));
      F->eraseFromParent();
    }
  // Shared variables have become arena offsets; drop what is left of them.
  for (const char *Marker : {WarpCutName, BlockCutName})
    if (Function *Cut = M.getFunction(Marker))
      Cut->eraseFromParent();
  // Matrix instructions have all become collectives.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        decodeMatrixCollective(F.getName()))
      F.eraseFromParent();
  if (Error E = checkStandaloneFunctions(M))
    return E;
  // The waits have become cuts; every mbarrier operation is now plain
  // code on the object's word (one OS thread runs a block).
  for (Function &F : M)
    if (!F.isDeclaration())
      mbarrier::expandMbarrierCalls(F, /*Atomic=*/false, nullptr);
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        F.getName().starts_with("cuhip.mbarrier."))
      F.eraseFromParent();
  // Device functions that stayed functions reach the device library
  // without a thread context.
  for (Function &F : M)
    if (!F.isDeclaration() && !F.getName().starts_with("cuhip.block."))
      bindDeviceLibraryCalls(
          F, ConstantPointerNull::get(PointerType::get(M.getContext(), 0)),
          ConstantInt::get(Type::getInt32Ty(M.getContext()), 0),
          ConstantInt::get(Type::getInt32Ty(M.getContext()), 0),
          ConstantInt::get(Type::getInt32Ty(M.getContext()), 0));
  for (GlobalVariable &GV : make_early_inc_range(M.globals()))
    if (GV.getAddressSpace() == addrspace::Shared) {
      GV.removeDeadConstantUsers();
      if (GV.use_empty())
        GV.eraseFromParent();
    }
  if (Options.Memcheck)
    addMemcheckGlobalsTable(M);

  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(M, &OS))
    return createStringError("internal error: host lowering produced invalid "
                             "IR: %s",
                             OS.str().c_str());
  if (!TM)
    return Error::success();

  // Vectorize across the thread loops of the block functions.
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = true;
  PTO.SLPVectorization = true;
  // Loop load elimination analyses every pair of accesses of a loop: on a
  // scheduled block function whose lane loop holds thousands of regions
  // (a fully unrolled tensor-core GEMM) that was two thirds of the whole
  // O3 time, for a transformation that seldom applies to such loops.
  PassInstrumentationCallbacks PIC;
  PIC.registerShouldRunOptionalPassCallback([](StringRef Pass, Any IR) {
    if (Pass != "LoopLoadEliminationPass")
      return true;
    const auto *F = any_cast<const Function *>(&IR);
    return !F || (*F)->getInstructionCount() < LargeBlockFunction;
  });
  runO3(M, TM, PTO, &PIC);
  return Error::success();
}

} // namespace cuhip::ptx::host
