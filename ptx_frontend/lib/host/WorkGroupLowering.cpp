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
//===----------------------------------------------------------------------===//
#include "HostPasses.h"

#include "cuhip/ptx/HostTarget.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
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
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#define DEBUG_TYPE "cuhip-workgroup"

using namespace llvm;

namespace cuhip::ptx::host {

// The AST of ptx:: has Function/Module/Instruction too; here they are LLVM's.
using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

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
  WorkGroupBuilder(Module &M, Function &Kernel, HostKernelLayout &Layout)
      : M(M), Ctx(M.getContext()), Kernel(Kernel), Layout(Layout) {}

  Error run();

private:
  Module &M;
  LLVMContext &Ctx;
  Function &Kernel;
  HostKernelLayout &Layout;
  Function *Thread = nullptr;
  Function *BlockFn = nullptr;
  SmallVector<BasicBlock *> RegionEntries; // [0] = entry
  DenseMap<BasicBlock *, int> BarrierId;   // barrier block -> region id
  uint32_t ExitFlagOffset = 0;

  Error makeThreadFunction();
  void replaceSpecialRegisters();
  void promoteRegisters();
  Error splitAtBarriers();
  bool liveIntoBarrier(Instruction &V);
  void demoteCrossBarrierValues();
  void buildFrame();
  void buildBlockFunction();
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
    case Intrinsic::nvvm_read_ptx_sreg_nwarpid: {
      Value *N = B.CreateMul(B.CreateMul(ntid(0), ntid(1)), ntid(2));
      R = B.CreateLShr(B.CreateAdd(N, B.getInt32(31)), 5);
      break;
    }
    default:
      continue;
    }
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
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

Error WorkGroupBuilder::splitAtBarriers() {
  SmallVector<Instruction *> Barriers;
  for (Instruction &I : instructions(Thread))
    if (isBarrier(I))
      Barriers.push_back(&I);
  RegionEntries.push_back(&Thread->getEntryBlock());
  for (Instruction *Bar : Barriers) {
    if (cast<IntrinsicInst>(Bar)->getIntrinsicID() ==
        Intrinsic::nvvm_barrier_cta_sync_aligned_count)
      return createStringError(
          "kernel '%s': barriers with a thread count (bar.sync id, count) "
          "are not supported by the CPU backend yet",
          Kernel.getName().str().c_str());
    BasicBlock *BB = Bar->getParent();
    if (&BB->front() != Bar || BB == &Thread->getEntryBlock())
      BB = SplitBlock(BB, Bar->getIterator());
    BarrierId[BB] = RegionEntries.size();
    RegionEntries.push_back(BB);
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
/// a slice of the thread's frame; the frame's last byte says whether the
/// thread has exited.
void WorkGroupBuilder::buildFrame() {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<AllocaInst *> Allocas;
  for (Instruction &I : instructions(Thread))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(AI);
  uint64_t Size = 0;
  Value *Frame = Thread->getArg(ArgFrame);
  for (AllocaInst *AI : Allocas) {
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
  ExitFlagOffset = uint32_t(Size);
  Size += 1;
  Layout.FrameBytesPerThread = uint32_t(alignTo(Size, 16));
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

  for (size_t R = 0; R < RegionEntries.size(); ++R) {
    // Blocks of the region: reachable from its entry without entering a
    // barrier block.
    SetVector<BasicBlock *> Blocks;
    Blocks.insert(RegionEntries[R]);
    for (size_t I = 0; I < Blocks.size(); ++I)
      for (BasicBlock *S : successors(Blocks[I]))
        if (!BarrierId.count(S))
          Blocks.insert(S);

    BasicBlock *Header = Headers[R];
    BasicBlock *Loop = BasicBlock::Create(Ctx, "region" + Twine(R) + ".thread", BlockFn);
    BasicBlock *Latch = BasicBlock::Create(Ctx, "region" + Twine(R) + ".next", BlockFn);
    BasicBlock *After = BasicBlock::Create(Ctx, "region" + Twine(R) + ".end", BlockFn);
    IRBuilder<> HB(Header);
    HB.CreateBr(Loop);

    IRBuilder<> LB(Loop);
    PHINode *T = LB.CreatePHI(I32, 2, "t");
    PHINode *Agg = LB.CreatePHI(I32, 2, "barrier");
    T->addIncoming(LB.getInt32(0), Header);
    Agg->addIncoming(LB.getInt32(NoneCode), Header);
    Value *TX = LB.CreateURem(T, NX, "tid.x");
    Value *TYZ = LB.CreateUDiv(T, NX);
    Value *TY = LB.CreateURem(TYZ, NY, "tid.y");
    Value *TZ = LB.CreateUDiv(T, NXY, "tid.z");
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
    for (BasicBlock *BB : Blocks) {
      BasicBlock *C = CloneBasicBlock(BB, VMap, ".r" + Twine(R), BlockFn);
      VMap[BB] = C;
      Clones.push_back(C);
    }
    BasicBlock *EntryClone = cast<BasicBlock>(VMap[RegionEntries[R]]);
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

    for (size_t I = 0; I < Clones.size(); ++I) {
      BasicBlock *C = Clones[I];
      // Phis: only edges inside the region remain.
      for (PHINode &Phi : make_early_inc_range(C->phis())) {
        for (int K = Phi.getNumIncomingValues() - 1; K >= 0; --K)
          if (!Blocks.contains(Phi.getIncomingBlock(K)))
            Phi.removeIncomingValue(K, /*DeletePHIIfEmpty=*/false);
      }
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
    for (BasicBlock *C : Clones)
      for (Instruction &I : *C)
        RemapInstruction(&I, VMap,
                         RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    // The barrier itself is the region boundary; drop it from the copy.
    if (R != 0) {
      Instruction &Bar = EntryClone->front();
      if (isBarrier(Bar))
        Bar.eraseFromParent();
    }

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
}

Error WorkGroupBuilder::run() {
  if (Error E = makeThreadFunction())
    return E;
  replaceSpecialRegisters();
  Layout.StaticSharedBytes =
      flattenAddressSpaces(*Thread, Thread->getArg(ArgShared), Layout.SharedAlign);
  promoteRegisters();
  if (Error E = splitAtBarriers())
    return E;
  demoteCrossBarrierValues();
  buildFrame();
  buildBlockFunction();
  Thread->eraseFromParent();
  return Error::success();
}

} // namespace

Error prepareHostModule(Module &M, const std::vector<KernelInfo> &Kernels,
                        std::vector<HostKernelLayout> &Layouts,
                        TargetMachine *TM) {
  for (const KernelInfo &K : Kernels) {
    Function *F = M.getFunction(K.Name);
    if (!F)
      return createStringError("kernel '%s' is missing from the module",
                               K.Name.c_str());
    HostKernelLayout L;
    L.KernelName = K.Name;
    L.BlockFunctionName = "cuhip.block." + K.Name;
    if (Error E = WorkGroupBuilder(M, *F, L).run())
      return E;
    Layouts.push_back(std::move(L));
  }
  for (const KernelInfo &K : Kernels)
    if (Function *F = M.getFunction(K.Name))
      F->eraseFromParent();
  // Shared variables have become arena offsets; drop what is left of them.
  for (GlobalVariable &GV : make_early_inc_range(M.globals()))
    if (GV.getAddressSpace() == addrspace::Shared) {
      GV.removeDeadConstantUsers();
      if (GV.use_empty())
        GV.eraseFromParent();
    }

  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(M, &OS))
    return createStringError("internal error: host lowering produced invalid "
                             "IR: %s",
                             OS.str().c_str());
  if (!TM)
    return Error::success();

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = true;
  PTO.SLPVectorization = true;
  PassBuilder PB(TM, PTO);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  MPM.run(M, MAM);
  return Error::success();
}

} // namespace cuhip::ptx::host
