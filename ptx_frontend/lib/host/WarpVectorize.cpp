//===- WarpVectorize.cpp - Threads of a block as SIMD lanes ---------------===//
//
// Whole-function vectorization of a thread function: W consecutive threads
// of a block (W = the host's natural vector width for 32-bit lanes) run as
// the W lanes of one SIMD program, with an execution mask.
//
// 1. A copy of the thread function gets one return (mergereturn), no
//    switches, simplified loops, and LLVM's StructurizeCFG, after which
//    every conditional branch is either a loop's latch (continue or leave)
//    or an `if` whose other successor post-dominates the branch (the join).
// 2. Uniformity: a value is *varying* if it depends on %tid.x (the lane), on
//    another varying value, or is a phi merging paths of a divergent branch
//    (an `if` join or a loop's exit block). %tid.y and %tid.z are uniform,
//    because the caller only takes this path when ntid.x is a multiple of W,
//    so a group of W threads is one row of the block. Uniform values stay
//    scalar; varying ones become <W x T>. An integer that is
//    `base + lane * stride` (from %tid.x through add, sub, mul and shifts by
//    uniform values) is also remembered as such, so loads and stores at
//    consecutive addresses become masked vector loads and stores instead of
//    gathers and scatters.
// 3. Control flow: uniform branches stay branches. A divergent `if` becomes
//    a branch taken when any lane takes it, with the lanes that skip it
//    waiting at the join: the join's mask and phis merge both groups per
//    lane. A loop with a divergent exit runs while any lane continues; each
//    lane's values at its own exit are kept in per-lane accumulators, which
//    the loop's exit block (LCSSA) reads.
// 4. Memory: masked loads, stores, gathers and scatters under the block's
//    mask; an access at a uniform address is one scalar access (a store of
//    a varying value keeps the highest active lane's value, one of the
//    values PTX allows). Atomics and division run lane by lane, so inactive
//    lanes never trap or touch memory.
//
// Anything else (allocas, calls other than vectorizable intrinsics,
// aggregates, irreducible control flow, shapes StructurizeCFG leaves
// differently) makes the vectorizer decline; the caller then keeps the
// scalar thread loop. Nothing here changes what a kernel computes.
//
//===----------------------------------------------------------------------===//
#include "HostPasses.h"
#include "cuhip/ptx/MatrixLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Scalar/StructurizeCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"

#include <cstdlib>
#include <cstring>

#define DEBUG_TYPE "cuhip-warp-vectorize"

using namespace llvm;

namespace cuhip::ptx::host {

using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {


/// A varying integer or pointer known to be Base + lane * Stride (bytes for
/// pointers), Base uniform. Check, when set, is a uniform i1 that is true
/// when no lane's value wrapped in a narrower type before it was widened
/// (the affine form is exact modulo 2^n, not across a sign or zero
/// extension); consecutive accesses test it before they trust the form.
struct Affine {
  Value *Base = nullptr;
  int64_t Stride = 0;
  Value *Check = nullptr;
};

class Vectorizer {
public:
  Vectorizer(Function &F, unsigned W, std::string &Why)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), W(W), Why(Why),
        I32(Type::getInt32Ty(Ctx)) {}

  Function *run(StringRef Name);

private:
  Function &F; // the prepared copy of the thread function
  Module &M;
  LLVMContext &Ctx;
  unsigned W;
  std::string &Why;
  Type *I32;

  Function *VF = nullptr;
  DominatorTree DT;
  PostDominatorTree PDT;
  LoopInfo LI;
  DenseSet<const Value *> Varying;
  DenseMap<const Value *, Value *> Map;    // new counterpart (scalar/vector)
  DenseMap<const Value *, Affine> Affines; // varying values known affine
  /// For a value X, the largest constant C in [0, 2^16) that some `add X, C`
  /// of the function adds to it.
  DenseMap<const Value *, uint64_t> LargestAddend;
  DenseMap<const Value *, std::pair<Value *, Value *>> CmpXchgParts;
  /// A matrix instruction's results, one vector per element of its struct.
  DenseMap<const Value *, SmallVector<Value *, 8>> MatrixParts;
  /// The MatrixLanes record matrix instructions pass to the runtime
  /// (created on first use).
  AllocaInst *MatrixRecord = nullptr;
  DenseMap<BasicBlock *, BasicBlock *> BlockMap;
  DenseMap<BasicBlock *, BasicBlock *> BlockEnd; // last new block of a block
  DenseMap<BasicBlock *, PHINode *> MaskPhi;     // lanes on entry
  Value *Iota = nullptr;

  /// A divergent `if` whose skipped lanes wait at its join.
  struct Pending {
    BasicBlock *Branch; // original block of the branch
    Value *Lanes;       // the lanes that skipped the body (new IR)
  };
  DenseMap<BasicBlock *, SmallVector<Pending, 2>> PendingAt; // join -> ifs
  /// One edge of the new CFG, its arriving lanes and, for a divergent
  /// loop exit, the accumulated live-out values to use for the exit's phis.
  struct Edge {
    Edge(BasicBlock *From, BasicBlock *To, Value *Lanes)
        : From(From), To(To), Lanes(Lanes) {}
    BasicBlock *From, *To; // original blocks
    Value *Lanes;
    DenseMap<Value *, Value *> LiveOut;
  };
  SmallVector<Edge, 16> Edges;
  /// Per divergent loop (by header): the exited-lanes accumulator and the
  /// live-out accumulators, phis of the new header.
  struct LoopAcc {
    PHINode *Exited = nullptr;
    DenseMap<Value *, PHINode *> LiveOut;
  };
  DenseMap<BasicBlock *, LoopAcc> LoopAccs;
  /// Varying induction variables `i = lane-affine start; i += uniform step`
  /// (the `for (i = lane; i < n; i += 32)` of warp-strided loops): the
  /// scalar phi of their affine base, and the step.
  struct Induction {
    PHINode *Base;
    Value *Start; // new IR, from the preheader
    Value *Step;  // original uniform value
  };
  DenseMap<PHINode *, Induction> Inductions;

  bool fail(const Twine &What) {
    if (Why.empty())
      Why = What.str();
    return false;
  }
  bool isVarying(const Value *V) const { return Varying.count(V); }
  const DataLayout &DL() const { return M.getDataLayout(); }
  VectorType *vecTy(Type *T) { return FixedVectorType::get(T, W); }
  Type *maskTy() { return vecTy(Type::getInt1Ty(Ctx)); }
  Constant *splat(Constant *C) {
    return ConstantVector::getSplat(ElementCount::getFixed(W), C);
  }

  bool check();
  void computeUniformity();
  bool emitBlock(BasicBlock *BB);
  bool emitInstruction(IRBuilder<> &B, Instruction &I, Value *Mask);
  bool emitMemory(IRBuilder<> &B, Instruction &I, Value *Mask);
  bool emitPerLane(IRBuilder<> &B, Instruction &I, Value *Mask);
  bool emitCall(IRBuilder<> &B, CallInst &CI);
  bool emitCollective(IRBuilder<> &B, CallInst &CI, Value *Mask);
  bool emitMatrix(IRBuilder<> &B, CallInst &CI, const MatrixCollective &MC,
                  Value *Mask);
  Value *gatherLanes(IRBuilder<> &B, Value *V, Value *Idx);
  Value *divideByUniform(IRBuilder<> &B, BinaryOperator &BO);
  bool emitBlockReduction(IRBuilder<> &B, CallInst &CI, WarpOp Op, Value *Mask);
  bool emitTerminator(IRBuilder<> &B, BasicBlock *BB);
  void finishPhis();
  void noteAffine(IRBuilder<> &B, Instruction &I);

  /// The new-IR value of a uniform operand (constants, metadata and
  /// blocks are their own).
  Value *scalar(Value *V) {
    if (!isa<Instruction>(V) && !isa<Argument>(V))
      return V;
    return Map.lookup(V);
  }
  Value *vec(IRBuilder<> &B, Value *V) {
    if (auto *C = dyn_cast<Constant>(V))
      return splat(C);
    Value *N = Map.lookup(V);
    return N->getType()->isVectorTy() ? N : B.CreateVectorSplat(W, N);
  }
  Value *lanesToInt(IRBuilder<> &B, Value *Mask) {
    return B.CreateBitCast(Mask, B.getIntNTy(W));
  }
};

/// The warp collectives the vector program computes in registers, with a
/// group of 32 lanes being one CUDA warp.
bool isWarpCollective(const Instruction &I) {
  switch (collectiveOp(I)) {
  case WarpOp::ShflUp:
  case WarpOp::ShflDown:
  case WarpOp::ShflBfly:
  case WarpOp::ShflIdx:
  case WarpOp::VoteAll:
  case WarpOp::VoteAny:
  case WarpOp::VoteUni:
  case WarpOp::VoteBallot:
  case WarpOp::ReduxAdd:
  case WarpOp::ReduxMin:
  case WarpOp::ReduxMax:
  case WarpOp::ReduxUMin:
  case WarpOp::ReduxUMax:
  case WarpOp::ReduxAnd:
  case WarpOp::ReduxOr:
  case WarpOp::ReduxXor:
  case WarpOp::WarpSync:
  case WarpOp::ActiveMask:
  case WarpOp::Elect:
    return true;
  default: // match, block-wide and matrix collectives, named barriers
    return false;
  }
}

/// A collective that returns {i32, i1} (shfl with its predicate, elect).
bool isPairCollective(const Value *V) {
  auto *CI = dyn_cast<CallInst>(V);
  return CI && CI->getType()->isAggregateType() &&
         isWarpCollective(*CI);
}

/// Matrix instructions in the copy being vectorized are calls to functions
/// named MatrixLanesPrefix + the original callee, with 32-bit integers
/// where the original takes or returns packed vectors (<2 x half> and the
/// like): see packMatrixCalls.
constexpr StringLiteral MatrixLanesPrefix = "cuhip.lanes.";

std::optional<MatrixCollective> matrixLanesCall(const Value *V) {
  auto *CI = dyn_cast<CallInst>(V);
  Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F || !F->getName().starts_with(MatrixLanesPrefix))
    return std::nullopt;
  return decodeMatrixCollective(F->getName().drop_front(MatrixLanesPrefix.size()));
}

/// The 32- or 64-bit integer a packed vector type travels as.
Type *unpackedType(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return IntegerType::get(T->getContext(),
                            unsigned(VT->getPrimitiveSizeInBits()));
  return T;
}

/// Replaces every matrix instruction of F by a call to a function that
/// takes and returns integers where it has packed vectors, with bitcasts
/// around it; the bitcast pairs this leaves fold away, so the vectorizer
/// never sees a packed vector.
void packMatrixCalls(Function &F) {
  SmallVector<CallInst *> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction();
          Callee && decodeMatrixCollective(Callee->getName()))
        Calls.push_back(CI);
  Module &M = *F.getParent();
  for (CallInst *CI : Calls) {
    Function *Callee = CI->getCalledFunction();
    FunctionType *FT = Callee->getFunctionType();
    SmallVector<Type *> Params;
    for (Type *T : FT->params())
      Params.push_back(unpackedType(T));
    Type *RT = FT->getReturnType();
    Type *NewRT = RT;
    if (auto *ST = dyn_cast<StructType>(RT)) {
      SmallVector<Type *> Elems;
      for (Type *E : ST->elements())
        Elems.push_back(unpackedType(E));
      NewRT = StructType::get(F.getContext(), Elems);
    } else {
      NewRT = unpackedType(RT);
    }
    FunctionCallee New = M.getOrInsertFunction(
        (MatrixLanesPrefix + Callee->getName()).str(),
        FunctionType::get(NewRT, Params, false));
    IRBuilder<> B(CI);
    // A packed operand is usually a bitcast of the integer register.
    auto asType = [&](Value *V, Type *T) -> Value * {
      if (V->getType() == T)
        return V;
      if (auto *BC = dyn_cast<BitCastInst>(V); BC && BC->getSrcTy() == T)
        return BC->getOperand(0);
      return B.CreateBitCast(V, T);
    };
    // A packed result usually goes back to an integer register.
    auto replacePacked = [&](Value *Old, Value *Int) {
      for (User *U : make_early_inc_range(Old->users()))
        if (auto *BC = dyn_cast<BitCastInst>(U);
            BC && BC->getDestTy() == Int->getType()) {
          BC->replaceAllUsesWith(Int);
          BC->eraseFromParent();
        }
      if (!Old->use_empty())
        Old->replaceAllUsesWith(B.CreateBitCast(Int, Old->getType()));
    };
    SmallVector<Value *> Args;
    for (unsigned A = 0; A < CI->arg_size(); ++A)
      Args.push_back(asType(CI->getArgOperand(A), Params[A]));
    CallInst *NC = B.CreateCall(New, Args);
    if (auto *ST = dyn_cast<StructType>(RT)) {
      for (User *U : make_early_inc_range(CI->users())) {
        auto *EV = dyn_cast<ExtractValueInst>(U);
        if (!EV || EV->getNumIndices() != 1)
          continue;
        B.SetInsertPoint(EV);
        Value *Part = B.CreateExtractValue(NC, EV->getIndices()[0]);
        replacePacked(EV, Part);
        EV->eraseFromParent();
      }
      if (!CI->use_empty()) {
        B.SetInsertPoint(CI);
        Value *Result = PoisonValue::get(RT);
        for (unsigned E = 0; E < ST->getNumElements(); ++E)
          Result = B.CreateInsertValue(
              Result, asType(B.CreateExtractValue(NC, E), ST->getElementType(E)),
              E);
        CI->replaceAllUsesWith(Result);
      }
    } else if (!RT->isVoidTy()) {
      if (RT == NewRT)
        CI->replaceAllUsesWith(NC);
      else
        replacePacked(CI, NC);
    }
    CI->eraseFromParent();
  }
}

/// `bar.sync 0` (__syncthreads): the whole block's barrier, which a vector
/// program executes once for its active lanes; other barriers (numbered,
/// counted, reducing) stay with the scalar path.
bool isBlockBarrier(const CallInst &CI) {
  if (CI.getIntrinsicID() != Intrinsic::nvvm_barrier_cta_sync_aligned_all)
    return false;
  auto *Id = dyn_cast<ConstantInt>(CI.getArgOperand(0));
  return Id && Id->isZero();
}

/// `bar.red.{popc,and,or}` with barrier 0 and all threads
/// (__syncthreads_count/_and/_or): the block's barrier with a reduction of
/// every thread's predicate. A vector program reduces its active lanes,
/// adds that to the block's accumulator (BarRedContributePrefix), passes
/// the barrier, and reads the block's result (BarRedResultPrefix); the
/// block function keeps both (WorkGroupLowering's buildBlockFunction).
std::optional<WarpOp> blockReduction(const CallInst &CI) {
  WarpOp Op;
  switch (CI.getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
    Op = WarpOp::BarRedPopc;
    break;
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
    Op = WarpOp::BarRedAnd;
    break;
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
    Op = WarpOp::BarRedOr;
    break;
  default:
    return std::nullopt;
  }
  auto *Id = dyn_cast<ConstantInt>(CI.getArgOperand(0));
  if (!Id || !Id->isZero())
    return std::nullopt;
  return Op;
}

/// More matrix instructions than this keep a kernel on the scalar path:
/// their fragments, vectors of the 32 lanes' registers, would be live all
/// at once (fully unrolled tensor-core GEMMs hold dozens of fragments and
/// run thousands of instructions), and register allocation of such a
/// vector program takes minutes and gigabytes where the scalar path's
/// regions, which keep fragments in the frame, take seconds.
constexpr unsigned MaxMatrixInstructions = 256;

bool Vectorizer::check() {
  {
    unsigned Matrix = 0;
    for (const Instruction &I : instructions(F))
      Matrix += matrixLanesCall(&I).has_value();
    if (Matrix > MaxMatrixInstructions)
      return fail(Twine(Matrix) + " matrix instructions (more than " +
                  Twine(MaxMatrixInstructions) + ")");
  }
  {
    ReversePostOrderTraversal<const Function *> RPOT(&F);
    if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI))
      return fail("irreducible control flow");
  }
  for (Instruction &I : instructions(F)) {
    if (isa<AllocaInst>(I))
      return fail("a .local array or a register kept in memory");
    if (isa<SwitchInst>(I) || isa<IndirectBrInst>(I) || isa<CallBrInst>(I) ||
        isa<InvokeInst>(I) || isa<UnreachableInst>(I))
      return fail("control flow other than branches");
    if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
      Value *Agg = EV->getAggregateOperand();
      if (!isa<AtomicCmpXchgInst>(Agg) && !isPairCollective(Agg) &&
          !matrixLanesCall(Agg))
        return fail("aggregate values");
    } else if (I.getType()->isAggregateType() && !isa<AtomicCmpXchgInst>(I) &&
               !isPairCollective(&I) && !matrixLanesCall(&I)) {
      return fail("aggregate values");
    }
    if (isa<InsertValueInst>(I) || isa<ExtractElementInst>(I) ||
        isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I) ||
        I.getType()->isVectorTy())
      return fail("vector values");
    if (isa<VAArgInst>(I) || isa<LandingPadInst>(I) || isa<FreezeInst>(I))
      return fail("an instruction the vectorizer does not handle");
    if (auto *CI = dyn_cast<CallInst>(&I)) {
      Function *Callee = CI->getCalledFunction();
      if (!Callee)
        return fail("an indirect call");
      Intrinsic::ID ID = Callee->getIntrinsicID();
      if (ID == Intrinsic::assume || ID == Intrinsic::lifetime_start ||
          ID == Intrinsic::lifetime_end || ID == Intrinsic::donothing)
        continue;
      if (isBlockBarrier(*CI) || blockReduction(*CI))
        continue;
      if (matrixLanesCall(CI)) {
        if (W != 32)
          return fail("matrix instructions need groups of 32 lanes");
        continue;
      }
      if (isWarpCollective(*CI)) {
        if (W != 32)
          return fail("warp collectives need groups of 32 lanes");
        continue;
      }
      // The clocks: the lanes of a warp read the same counter at the same
      // instruction, so one read serves the whole group (a uniform call).
      if (ID == Intrinsic::readcyclecounter ||
          Callee->getName() == "cuhip_globaltimer")
        continue;
      // A polling loop's yield to the block's fiber (cooperative launches):
      // uniform, and the block's state, vectors included, is on the fiber's
      // stack. Not in a loop that takes a lock (PollLockMD): lanes of one
      // program contending for it would wait for each other forever.
      if (Callee->getName() == "cuhip_block_yield") {
        if (CI->getMetadata(PollLockMD))
          return fail("a polling loop that takes a lock");
        continue;
      }
      if (ID == Intrinsic::not_intrinsic || !isTriviallyVectorizable(ID))
        return fail("a call to " + Callee->getName());
      if (CI->getType()->isAggregateType())
        return fail("a call returning an aggregate");
    }
    for (Value *Op : I.operands())
      if (Op == F.getArg(ArgFrame))
        return fail("per-thread frame memory");
  }
  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (!isa<BranchInst>(T) && !isa<ReturnInst>(T))
      return fail("control flow other than branches");
  }
  return true;
}

/// Varying: depends on %tid.x, on a varying value, or merges the paths of a
/// divergent branch. Iterated to a fixed point, since a divergent branch
/// makes phis varying, which can make more branches divergent.
void Vectorizer::computeUniformity() {
  Varying.insert(F.getArg(ArgTidX));
  for (bool Changed = true; Changed;) {
    Changed = false;
    auto mark = [&](const Value *V) {
      if (Varying.insert(V).second)
        Changed = true;
    };
    for (BasicBlock &BB : F) {
      for (Instruction &I : BB) {
        if (isVarying(&I) || I.getType()->isVoidTy())
          continue;
        bool Var = isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
        // A shuffle or elect result differs per lane whatever its operands.
        if (auto *CI = dyn_cast<CallInst>(&I)) {
          Var |= isPairCollective(CI) ||
                 (isWarpCollective(*CI) && CI->arg_size() == 4) ||
                 matrixLanesCall(CI).has_value();
          // A block reduction's result is the whole block's.
          if (blockReduction(*CI))
            continue;
        }
        for (Value *Op : I.operands())
          Var |= isVarying(Op);
        if (Var)
          mark(&I);
      }
      auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
      if (!Br || !Br->isConditional() || !isVarying(Br->getCondition()))
        continue;
      Loop *L = LI.getLoopFor(&BB);
      if (L && L->getLoopLatch() == &BB && L->getExitBlock()) {
        for (PHINode &P : L->getExitBlock()->phis())
          mark(&P);
        continue;
      }
      if (DomTreeNode *N = PDT.getNode(&BB); N && N->getIDom())
        if (BasicBlock *Join = N->getIDom()->getBlock())
          for (PHINode &P : Join->phis())
            mark(&P);
    }
  }
}

void Vectorizer::noteAffine(IRBuilder<> &B, Instruction &I) {
  // Copies (a null Base: none): inserting into Affines may move its
  // entries.
  auto aff = [&](Value *V) -> Affine {
    auto It = Affines.find(V);
    return It == Affines.end() ? Affine() : It->second;
  };
  auto both = [&](Value *C1, Value *C2) -> Value * {
    if (!C1)
      return C2;
    if (!C2)
      return C1;
    return B.CreateAnd(C1, C2);
  };
  auto constInt = [](Value *V) -> std::optional<int64_t> {
    if (auto *C = dyn_cast<ConstantInt>(V))
      if (C->getBitWidth() <= 64)
        return C->getSExtValue();
    return std::nullopt;
  };
  Value *A = I.getNumOperands() > 0 ? I.getOperand(0) : nullptr;
  Value *Bv = I.getNumOperands() > 1 ? I.getOperand(1) : nullptr;
  Affine FA = A ? aff(A) : Affine(), FB = Bv ? aff(Bv) : Affine();
  switch (I.getOpcode()) {
  case Instruction::Add:
    if (FA.Base && !isVarying(Bv))
      Affines[&I] = {B.CreateAdd(FA.Base, scalar(Bv)), FA.Stride, FA.Check};
    else if (FB.Base && !isVarying(A))
      Affines[&I] = {B.CreateAdd(scalar(A), FB.Base), FB.Stride, FB.Check};
    else if (FA.Base && FB.Base)
      Affines[&I] = {B.CreateAdd(FA.Base, FB.Base), FA.Stride + FB.Stride,
                     both(FA.Check, FB.Check)};
    return;
  case Instruction::Sub:
    if (FA.Base && !isVarying(Bv))
      Affines[&I] = {B.CreateSub(FA.Base, scalar(Bv)), FA.Stride, FA.Check};
    return;
  case Instruction::Or:
    // A disjoint or adds.
    if (FA.Base && !isVarying(Bv) && cast<PossiblyDisjointInst>(I).isDisjoint())
      Affines[&I] = {B.CreateOr(FA.Base, scalar(Bv)), FA.Stride, FA.Check};
    return;
  case Instruction::Mul:
    if (FA.Base)
      if (std::optional<int64_t> C = constInt(Bv))
        Affines[&I] = {B.CreateMul(FA.Base, Bv), FA.Stride * *C, FA.Check};
    if (FB.Base)
      if (std::optional<int64_t> C = constInt(A))
        Affines[&I] = {B.CreateMul(A, FB.Base), FB.Stride * *C, FB.Check};
    return;
  case Instruction::Shl:
    if (FA.Base)
      if (std::optional<int64_t> C = constInt(Bv); C && *C >= 0 && *C < 32)
        Affines[&I] = {B.CreateShl(FA.Base, Bv), FA.Stride << *C, FA.Check};
    return;
  case Instruction::SExt:
  case Instruction::ZExt: {
    if (!FA.Base)
      return;
    // Exact if Base + (W-1) * Stride stays inside the narrow type's range.
    unsigned Bits = A->getType()->getIntegerBitWidth();
    bool Signed = I.getOpcode() == Instruction::SExt;
    APInt Span(64, (uint64_t)(W - 1) * (uint64_t)std::abs(FA.Stride));
    if (Span.getActiveBits() >= Bits)
      return;
    APInt Limit = FA.Stride >= 0
                      ? (Signed ? APInt::getSignedMaxValue(Bits)
                                : APInt::getMaxValue(Bits)) -
                            Span.trunc(Bits)
                      : (Signed ? APInt::getSignedMinValue(Bits)
                                : APInt::getZero(Bits)) +
                            Span.trunc(Bits);
    // X + C with a small constant C tests X against the largest such
    // constant added to X instead: a stronger condition, but one that the
    // accesses at X + 0, X + 64, X + 128, ... (an unrolled loop over a
    // shared tile) share, so that one branch covers them all.
    // X itself does the same when such sums of X exist.
    Value *Tested = FA.Base;
    if (FA.Stride >= 0) {
      Value *X = A;
      if (auto *Add = dyn_cast<BinaryOperator>(A);
          Add && Add->getOpcode() == Instruction::Add &&
          isa<ConstantInt>(Add->getOperand(1)) &&
          cast<ConstantInt>(Add->getOperand(1))->getValue().ult(1u << 16))
        X = Add->getOperand(0);
      auto XIt = Affines.find(X);
      auto MIt = LargestAddend.find(X);
      if (XIt != Affines.end() && XIt->second.Stride == FA.Stride &&
          MIt != LargestAddend.end() && MIt->second) {
        APInt Reduced = Limit - APInt(Bits, MIt->second);
        if (Reduced.ule(Limit) && (!Signed || !Reduced.isNegative())) {
          Tested = XIt->second.Base;
          Limit = Reduced;
        }
      }
    }
    Value *L = ConstantInt::get(A->getType(), Limit);
    Value *Ok = FA.Stride >= 0
                    ? (Signed ? B.CreateICmpSLE(Tested, L)
                              : B.CreateICmpULE(Tested, L))
                    : (Signed ? B.CreateICmpSGE(FA.Base, L)
                              : B.CreateICmpUGE(FA.Base, L));
    Affines[&I] = {Signed ? B.CreateSExt(FA.Base, I.getType())
                          : B.CreateZExt(FA.Base, I.getType()),
                   FA.Stride, both(FA.Check, Ok)};
    return;
  }
  case Instruction::IntToPtr:
  case Instruction::PtrToInt:
    if (FA.Base && DL().getTypeSizeInBits(I.getType()) ==
                  DL().getTypeSizeInBits(A->getType()))
      Affines[&I] = {B.CreateCast(cast<CastInst>(I).getOpcode(), FA.Base,
                                  I.getType()),
                     FA.Stride, FA.Check};
    return;
  case Instruction::AddrSpaceCast:
    if (FA.Base)
      Affines[&I] = {B.CreateAddrSpaceCast(FA.Base, I.getType()), FA.Stride,
                     FA.Check};
    return;
  case Instruction::GetElementPtr: {
    auto *GEP = cast<GetElementPtrInst>(&I);
    if (isVarying(GEP->getPointerOperand()))
      return;
    int64_t Stride = 0;
    Value *Check = nullptr;
    SmallVector<Value *> BaseIdx;
    for (auto GTI = gep_type_begin(GEP), E = gep_type_end(GEP); GTI != E;
         ++GTI) {
      Value *Idx = GTI.getOperand();
      if (!isVarying(Idx)) {
        BaseIdx.push_back(scalar(Idx));
        continue;
      }
      Affine FI = aff(Idx);
      if (!FI.Base || GTI.isStruct())
        return;
      TypeSize Size = GTI.getSequentialElementStride(DL());
      if (Size.isScalable())
        return;
      Stride += FI.Stride * (int64_t)Size.getFixedValue();
      Check = both(Check, FI.Check);
      BaseIdx.push_back(FI.Base);
    }
    Value *Base = B.CreateGEP(GEP->getSourceElementType(),
                              scalar(GEP->getPointerOperand()), BaseIdx, "",
                              GEP->getNoWrapFlags());
    Affines[&I] = {Base, Stride, Check};
    return;
  }
  default:
    return;
  }
}

/// A 32-bit division or remainder of varying dividends by one uniform
/// divisor (`i % n` with a kernel parameter n): x86 has no vector integer
/// division, so the backend would divide lane by lane. Instead the divisor's
/// reciprocal is worked out once, in scalar code that LICM can hoist, and
/// each lane multiplies (Granlund and Montgomery, "Division by Invariant
/// Integers using Multiplication", 1994, the round-up method): with
/// l = ceil(log2 d) and m = floor(2^32 (2^l - d) / d) + 1,
///   t = mulhi(n, m),  n / d = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0)
/// exactly for every 32-bit n and every d >= 1. Signed forms divide the
/// magnitudes and give the quotient the sign of n * d and the remainder
/// the sign of n, as sdiv and srem do (INT_MIN / -1, poison in IR, wraps).
/// Null when BO is not such a division (other widths, varying divisors).
Value *Vectorizer::divideByUniform(IRBuilder<> &B, BinaryOperator &BO) {
  Instruction::BinaryOps Op = BO.getOpcode();
  bool Signed = Op == Instruction::SDiv || Op == Instruction::SRem;
  bool IsRem = Op == Instruction::URem || Op == Instruction::SRem;
  if (Op != Instruction::UDiv && Op != Instruction::URem && !Signed)
    return nullptr;
  if (!BO.getType()->isIntegerTy(32) || isVarying(BO.getOperand(1)) ||
      !isVarying(BO.getOperand(0)))
    return nullptr;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  // The scalar part: the divisor's magnitude, kept nonzero (a zero divisor
  // is undefined in IR; umax keeps the hoisted division safe to speculate).
  Value *D = scalar(BO.getOperand(1));
  if (Signed)
    D = B.CreateBinaryIntrinsic(Intrinsic::abs, D, B.getFalse());
  D = B.CreateBinaryIntrinsic(Intrinsic::umax, D, B.getInt32(1));
  Value *Lg = B.CreateSub(B.getInt32(32),
                          B.CreateBinaryIntrinsic(Intrinsic::ctlz,
                                                  B.CreateSub(D, B.getInt32(1)),
                                                  B.getFalse()));
  Value *D64 = B.CreateZExt(D, I64);
  Value *Pow = B.CreateShl(B.getInt64(1), B.CreateZExt(Lg, I64));
  Value *Magic = B.CreateAdd(
      B.CreateTrunc(B.CreateUDiv(B.CreateShl(B.CreateSub(Pow, D64), 32), D64),
                    I32),
      B.getInt32(1), "div.magic");
  Value *Sh1 = B.CreateBinaryIntrinsic(Intrinsic::umin, Lg, B.getInt32(1));
  Value *Sh2 = B.CreateSub(Lg, Sh1);
  // The lanes.
  Value *N = vec(B, BO.getOperand(0));
  Value *AbsN =
      Signed ? B.CreateBinaryIntrinsic(Intrinsic::abs, N, B.getFalse()) : N;
  Value *T = B.CreateTrunc(
      B.CreateLShr(
          B.CreateMul(B.CreateZExt(AbsN, vecTy(I64)),
                      B.CreateVectorSplat(W, B.CreateZExt(Magic, I64))),
          splat(B.getInt64(32))),
      vecTy(I32));
  Value *Q =
      B.CreateLShr(B.CreateAdd(T, B.CreateLShr(B.CreateSub(AbsN, T),
                                               B.CreateVectorSplat(W, Sh1))),
                   B.CreateVectorSplat(W, Sh2), "div.q");
  Value *R = Q;
  if (IsRem)
    R = B.CreateSub(AbsN, B.CreateMul(Q, B.CreateVectorSplat(W, D)));
  if (Signed) {
    Value *NNeg = B.CreateICmpSLT(N, splat(B.getInt32(0)));
    Value *Neg = NNeg;
    if (!IsRem)
      Neg = B.CreateXor(
          NNeg, B.CreateVectorSplat(W, B.CreateICmpSLT(scalar(BO.getOperand(1)),
                                                       B.getInt32(0))));
    R = B.CreateSelect(Neg, B.CreateNeg(R), R);
  }
  R->setName(BO.getName());
  return R;
}

/// bar.red on a group of lanes: this group's part of the reduction goes to
/// the block's accumulator, the block barrier follows, and after it every
/// lane reads the block's result (see blockReduction).
bool Vectorizer::emitBlockReduction(IRBuilder<> &B, CallInst &CI, WarpOp Op,
                                    Value *Mask) {
  Type *I32 = B.getInt32Ty();
  Value *Pred = isVarying(CI.getArgOperand(1))
                    ? vec(B, CI.getArgOperand(1))
                    : B.CreateVectorSplat(W, scalar(CI.getArgOperand(1)));
  Value *Part;
  StringRef Name;
  switch (Op) {
  case WarpOp::BarRedPopc:
    Part = B.CreateZExtOrTrunc(
        B.CreateUnaryIntrinsic(Intrinsic::ctpop,
                               lanesToInt(B, B.CreateAnd(Pred, Mask))),
        I32);
    Name = "popc";
    break;
  case WarpOp::BarRedAnd:
    // Every active lane's predicate holds (inactive lanes do not count).
    Part = B.CreateZExt(B.CreateAndReduce(B.CreateOr(Pred, B.CreateNot(Mask))),
                        I32);
    Name = "and";
    break;
  default:
    Part = B.CreateZExt(B.CreateOrReduce(B.CreateAnd(Pred, Mask)), I32);
    Name = "or";
    break;
  }
  Type *VoidT = B.getVoidTy();
  FunctionCallee Contribute =
      M.getOrInsertFunction((BarRedContributePrefix + Name).str(),
                            FunctionType::get(VoidT, {I32}, false));
  FunctionCallee Result = M.getOrInsertFunction(
      (BarRedResultPrefix + Name).str(), FunctionType::get(I32, false));
  B.CreateCall(Contribute, {Part});
  B.CreateCall(Intrinsic::getOrInsertDeclaration(
                   &M, Intrinsic::nvvm_barrier_cta_sync_aligned_all),
               {B.getInt32(0)});
  Value *R = B.CreateCall(Result, {}, "bar.red");
  if (!CI.getType()->isIntegerTy(32))
    R = B.CreateICmpNE(R, B.getInt32(0));
  Map[&CI] = R;
  return true;
}

bool Vectorizer::emitCall(IRBuilder<> &B, CallInst &CI) {
  Intrinsic::ID ID = CI.getIntrinsicID();
  if (ID == Intrinsic::assume || ID == Intrinsic::lifetime_start ||
      ID == Intrinsic::lifetime_end || ID == Intrinsic::donothing)
    return true; // dropped: nothing they say is needed here
  SmallVector<Value *> Args;
  SmallVector<Type *> Tys;
  if (isVectorIntrinsicWithOverloadTypeAtArg(ID, -1, nullptr))
    Tys.push_back(vecTy(CI.getType()));
  for (unsigned A = 0; A < CI.arg_size(); ++A) {
    Value *Op = CI.getArgOperand(A);
    if (isVectorIntrinsicWithScalarOpAtArg(ID, A, nullptr)) {
      if (isVarying(Op))
        return fail("a varying operand where an intrinsic takes a scalar");
      Args.push_back(scalar(Op));
    } else {
      Args.push_back(vec(B, Op));
      if (isVectorIntrinsicWithOverloadTypeAtArg(ID, A, nullptr))
        Tys.push_back(vecTy(Op->getType()));
    }
  }
  Function *Decl = Intrinsic::getOrInsertDeclaration(&M, ID, Tys);
  CallInst *New = B.CreateCall(Decl, Args);
  if (isa<FPMathOperator>(New))
    New->copyFastMathFlags(&CI);
  Map[&CI] = New;
  return true;
}

/// Warp collectives on a group of 32 lanes, which is one CUDA warp: the
/// lanes taking part are the active ones (the mask), intersected with each
/// lane's member mask, with the CPU backend's results (WarpRuntime.cpp)
/// for everything PTX leaves open (a shuffle from a lane not taking part
/// gives 0; an empty reduction gives 0).
bool Vectorizer::emitCollective(IRBuilder<> &B, CallInst &CI, Value *Mask) {
  Intrinsic::ID ID = CI.getIntrinsicID();
  Type *I32T = B.getInt32Ty();
  Value *Active = lanesToInt(B, Mask); // i32: W == 32
  auto bits = [&](Value *V) { return vec(B, V); };
  auto splat32 = [&](uint32_t C) { return splat(B.getInt32(C)); };
  switch (ID) {
  case Intrinsic::nvvm_bar_warp_sync:
    // Lanes run in lockstep; memory accesses stay in program order.
    return true;
  case Intrinsic::nvvm_activemask:
    Map[&CI] = Active;
    return true;
  case Intrinsic::nvvm_elect_sync: {
    // Leader: lowest lane taking part (the lane itself if none does).
    Value *Set = B.CreateAnd(B.CreateFreeze(bits(CI.getArgOperand(0))),
                             B.CreateVectorSplat(W, Active));
    Value *Low = B.CreateBinaryIntrinsic(Intrinsic::cttz, Set, B.getFalse());
    Value *Leader = B.CreateSelect(B.CreateICmpEQ(Set, splat32(0)), Iota, Low);
    CmpXchgParts[&CI] = {Leader, B.CreateICmpEQ(Iota, Leader)};
    return true;
  }
  case Intrinsic::nvvm_vote_all_sync:
  case Intrinsic::nvvm_vote_any_sync:
  case Intrinsic::nvvm_vote_uni_sync:
  case Intrinsic::nvvm_vote_ballot_sync: {
    Value *Set = B.CreateAnd(B.CreateFreeze(bits(CI.getArgOperand(0))),
                             B.CreateVectorSplat(W, Active));
    Value *P = B.CreateAnd(B.CreateFreeze(vec(B, CI.getArgOperand(1))), Mask);
    Value *Ballot = B.CreateAnd(B.CreateVectorSplat(W, lanesToInt(B, P)), Set);
    Value *R;
    if (ID == Intrinsic::nvvm_vote_all_sync)
      R = B.CreateICmpEQ(Ballot, Set);
    else if (ID == Intrinsic::nvvm_vote_any_sync)
      R = B.CreateICmpNE(Ballot, splat32(0));
    else if (ID == Intrinsic::nvvm_vote_uni_sync)
      R = B.CreateOr(B.CreateICmpEQ(Ballot, splat32(0)),
                     B.CreateICmpEQ(Ballot, Set));
    else
      R = Ballot;
    Map[&CI] = isVarying(&CI) ? R : B.CreateExtractElement(R, uint64_t(0));
    return true;
  }
  case Intrinsic::nvvm_redux_sync_add:
  case Intrinsic::nvvm_redux_sync_min:
  case Intrinsic::nvvm_redux_sync_max:
  case Intrinsic::nvvm_redux_sync_umin:
  case Intrinsic::nvvm_redux_sync_umax:
  case Intrinsic::nvvm_redux_sync_and:
  case Intrinsic::nvvm_redux_sync_or:
  case Intrinsic::nvvm_redux_sync_xor: {
    // One reduction over the lanes taking part; a varying member mask
    // would need one per lane.
    Value *Member = CI.getArgOperand(1);
    if (isVarying(Member))
      return fail("a warp reduction with a member mask that differs by lane");
    Value *Set = B.CreateAnd(scalar(Member), Active);
    Value *In = B.CreateAnd(
        B.CreateICmpNE(
            B.CreateAnd(B.CreateVectorSplat(W, Set),
                        B.CreateShl(splat32(1), Iota)),
            splat32(0)),
        Mask);
    Value *V = vec(B, CI.getArgOperand(0));
    Value *R;
    auto masked = [&](uint32_t Identity) {
      return B.CreateSelect(In, V, splat32(Identity));
    };
    switch (ID) {
    case Intrinsic::nvvm_redux_sync_add:
      R = B.CreateAddReduce(masked(0));
      break;
    case Intrinsic::nvvm_redux_sync_min:
      R = B.CreateIntMinReduce(masked(0x7fffffff), /*IsSigned=*/true);
      break;
    case Intrinsic::nvvm_redux_sync_max:
      R = B.CreateIntMaxReduce(masked(0x80000000u), /*IsSigned=*/true);
      break;
    case Intrinsic::nvvm_redux_sync_umin:
      R = B.CreateIntMinReduce(masked(0xffffffffu), /*IsSigned=*/false);
      break;
    case Intrinsic::nvvm_redux_sync_umax:
      R = B.CreateIntMaxReduce(masked(0), /*IsSigned=*/false);
      break;
    case Intrinsic::nvvm_redux_sync_and:
      R = B.CreateAndReduce(masked(0xffffffffu));
      break;
    case Intrinsic::nvvm_redux_sync_or:
      R = B.CreateOrReduce(masked(0));
      break;
    default:
      R = B.CreateXorReduce(masked(0));
      break;
    }
    R = B.CreateSelect(B.CreateICmpEQ(Set, B.getInt32(0)), B.getInt32(0), R);
    Map[&CI] = isVarying(&CI) ? B.CreateVectorSplat(W, R) : R;
    return true;
  }
  default:
    break;
  }
  // shfl.sync.{up,down,bfly,idx}(member, a, b, c) per the ISA: the source
  // lane j from b, the clamp c[4:0] and the segment mask c[12:8].
  Value *A = vec(B, CI.getArgOperand(1));
  Value *Bv = B.CreateAnd(vec(B, CI.getArgOperand(2)), splat32(31));
  Value *Cv = vec(B, CI.getArgOperand(3));
  Value *Clamp = B.CreateAnd(Cv, splat32(31));
  Value *Seg = B.CreateAnd(B.CreateLShr(Cv, splat32(8)), splat32(31));
  Value *NotSeg = B.CreateXor(Seg, splat32(31));
  Value *MaxLane = B.CreateOr(B.CreateAnd(Iota, Seg), B.CreateAnd(Clamp, NotSeg));
  Value *MinLane = B.CreateAnd(Iota, Seg);
  Value *J, *P;
  switch (ID) {
  case Intrinsic::nvvm_shfl_sync_up_i32:
  case Intrinsic::nvvm_shfl_sync_up_i32p:
    J = B.CreateSub(Iota, Bv);
    P = B.CreateICmpSGE(J, MaxLane);
    break;
  case Intrinsic::nvvm_shfl_sync_down_i32:
  case Intrinsic::nvvm_shfl_sync_down_i32p:
    J = B.CreateAdd(Iota, Bv);
    P = B.CreateICmpSLE(J, MaxLane);
    break;
  case Intrinsic::nvvm_shfl_sync_bfly_i32:
  case Intrinsic::nvvm_shfl_sync_bfly_i32p:
    J = B.CreateXor(Iota, Bv);
    P = B.CreateICmpSLE(J, MaxLane);
    break;
  default:
    J = B.CreateOr(MinLane, B.CreateAnd(Bv, NotSeg));
    P = B.CreateICmpSLE(J, MaxLane);
    break;
  }
  J = B.CreateSelect(P, J, Iota);
  // Lane j's value, if j takes part (it is active). PTX leaves the value of
  // a lane that does not undefined; it is 0, as an H200 gave for a lane
  // that had exited (WarpRuntime.cpp). Out of range, j is the lane itself.
  Value *InRange = B.CreateICmpULT(J, splat32(32));
  Value *Jc = B.CreateAnd(J, splat32(31));
  Value *JActive = B.CreateICmpNE(
      B.CreateAnd(B.CreateLShr(B.CreateVectorSplat(W, Active), Jc),
                  splat32(1)),
      splat32(0));
  Value *From = gatherLanes(B, A, Jc);
  Value *R = B.CreateSelect(B.CreateAnd(InRange, JActive), From,
                            Constant::getNullValue(A->getType()));
  if (CI.getType()->isAggregateType())
    CmpXchgParts[&CI] = {R, P};
  else
    Map[&CI] = R;
  (void)I32T;
  return true;
}

/// A matrix instruction (ldmatrix, stmatrix, mma, wmma) on a warp whose
/// lanes are the vector's: the operands go to a MatrixLanes record, one
/// vector store per fragment register (word-major, so no scatter),
/// cuhip_matrix_lanes runs the instruction for the active lanes with the
/// scalar path's code, and each result register comes back with one
/// vector load.
bool Vectorizer::emitMatrix(IRBuilder<> &B, CallInst &CI,
                            const MatrixCollective &MC, Value *Mask) {
  Type *I8 = B.getInt8Ty(), *I64 = B.getInt64Ty();
  if (!MatrixRecord) {
    IRBuilder<> EB(&*VF->getEntryBlock().getFirstInsertionPt());
    MatrixRecord = EB.CreateAlloca(ArrayType::get(I8, sizeof(MatrixLanes)),
                                   nullptr, "matrix.lanes");
    // The alloca may become a slice of the thread's frame, which is only
    // 8-byte aligned: the accesses below assume no more.
    MatrixRecord->setAlignment(Align(8));
  }
  auto at = [&](unsigned Off) {
    return B.CreateConstInBoundsGEP1_32(I8, MatrixRecord, Off);
  };
  auto wordAt = [&](unsigned Word) {
    return at(offsetof(MatrixLanes, Words) + Word * 4 * 32);
  };
  Type *V32 = vecTy(I32);
  // Fragment registers are 32 bits, or 64 (two words: low, then high).
  auto putWords = [&](Value *V, unsigned &Word) {
    Value *Vec = vec(B, V);
    unsigned Bits = unsigned(V->getType()->getPrimitiveSizeInBits());
    if (Bits == 32) {
      B.CreateAlignedStore(B.CreateBitCast(Vec, V32), wordAt(Word++), Align(4));
      return true;
    }
    if (Bits != 64)
      return false;
    Word = alignTo(Word, 2);
    Value *Int = B.CreateBitCast(Vec, vecTy(I64));
    B.CreateAlignedStore(B.CreateTrunc(Int, V32), wordAt(Word++), Align(4));
    B.CreateAlignedStore(B.CreateTrunc(B.CreateLShr(Int, splat(B.getInt64(32))), V32),
                         wordAt(Word++), Align(4));
    return true;
  };
  unsigned NumArgs = CI.arg_size() - (MC.HasStride ? 1 : 0);
  // No stride operand: the fragment's default (0 tells the runtime).
  B.CreateAlignedStore(
      MC.HasStride ? vec(B, CI.getArgOperand(NumArgs)) : splat(B.getInt32(0)),
      at(offsetof(MatrixLanes, Stride)), Align(4));
  unsigned Word = 0;
  for (unsigned A = 0; A < NumArgs; ++A) {
    Value *V = CI.getArgOperand(A);
    if (V->getType()->isPointerTy()) {
      Value *Addr = B.CreatePtrToInt(
          B.CreateAddrSpaceCast(
              vec(B, V), VectorType::get(PointerType::get(Ctx, 0),
                                         ElementCount::getFixed(W))),
          vecTy(I64));
      B.CreateAlignedStore(Addr, at(offsetof(MatrixLanes, Address)), Align(8));
      continue;
    }
    if (!putWords(V, Word))
      return fail("a matrix operand that is not 32 or 64 bits wide");
  }
  unsigned WordsIn = Word;
  Type *RT = CI.getType();
  auto *ST = dyn_cast<StructType>(RT);
  SmallVector<Type *, 8> Elems;
  if (ST)
    Elems.append(ST->element_begin(), ST->element_end());
  else if (!RT->isVoidTy())
    Elems.push_back(RT);
  unsigned WordsOut = 0;
  for (Type *E : Elems) {
    unsigned Bits = unsigned(E->getPrimitiveSizeInBits());
    if (Bits != 32 && Bits != 64)
      return fail("a matrix result that is not 32 or 64 bits wide");
    WordsOut = (Bits == 64 ? alignTo(WordsOut, 2) : WordsOut) + Bits / 32;
  }
  uint64_t Desc;
  static_assert(sizeof(Desc) == sizeof(MatrixDesc));
  std::memcpy(&Desc, &MC.Desc, sizeof(Desc));
  Type *PtrT = PointerType::get(Ctx, 0);
  FunctionCallee Run = M.getOrInsertFunction(
      "cuhip_matrix_lanes",
      FunctionType::get(Type::getVoidTy(Ctx), {PtrT, I32, I32, I32, I32, I64},
                        false));
  B.CreateCall(Run, {MatrixRecord, B.getInt32(WordsIn), B.getInt32(WordsOut),
                     lanesToInt(B, Mask), B.getInt32(uint32_t(MC.Op)),
                     B.getInt64(Desc)});
  if (Elems.empty())
    return true;
  SmallVector<Value *, 8> Parts;
  Word = 0;
  for (Type *E : Elems) {
    Value *R;
    if (E->getPrimitiveSizeInBits() == 32) {
      R = B.CreateAlignedLoad(V32, wordAt(Word++), Align(4));
    } else {
      Word = alignTo(Word, 2);
      Value *Lo = B.CreateZExt(B.CreateAlignedLoad(V32, wordAt(Word++), Align(4)),
                               vecTy(I64));
      Value *Hi = B.CreateZExt(B.CreateAlignedLoad(V32, wordAt(Word++), Align(4)),
                               vecTy(I64));
      R = B.CreateOr(Lo, B.CreateShl(Hi, splat(B.getInt64(32))));
    }
    Parts.push_back(B.CreateBitCast(R, vecTy(E)));
  }
  if (ST)
    MatrixParts[&CI] = std::move(Parts);
  else
    Map[&CI] = Parts[0];
  return true;
}

/// Lane Idx[l]'s element of V for every lane l (a cross-lane permute): a
/// shufflevector when Idx is constant, else a stack copy read back with a
/// gather.
Value *Vectorizer::gatherLanes(IRBuilder<> &B, Value *V, Value *Idx) {
  // Constant source lanes (a shuffle by a constant offset, the usual
  // reduction tree): one shufflevector.
  if (auto *C = dyn_cast<Constant>(Idx)) {
    SmallVector<int, 32> Lanes;
    for (unsigned L = 0; L < W; ++L) {
      auto *E = dyn_cast_or_null<ConstantInt>(C->getAggregateElement(L));
      if (!E)
        break;
      Lanes.push_back(int(E->getZExtValue()));
    }
    if (Lanes.size() == W)
      return B.CreateShuffleVector(V, Lanes);
  }
  Type *ElTy = cast<VectorType>(V->getType())->getElementType();
  IRBuilder<> EB(&*VF->getEntryBlock().getFirstInsertionPt());
  AllocaInst *Tmp = EB.CreateAlloca(V->getType(), nullptr, "lanes.copy");
  B.CreateStore(V, Tmp);
  Value *Ptrs = B.CreateGEP(ElTy, Tmp, Idx);
  return B.CreateMaskedGather(V->getType(), Ptrs,
                              DL().getABITypeAlign(ElTy),
                              Constant::getAllOnesValue(maskTy()));
}

/// Runs I (an atomic, or a volatile or atomic load or store) once per active
/// lane, in lane order, with that lane's operands: a loop over the W lanes
/// that skips inactive ones, so they never touch memory.
bool Vectorizer::emitPerLane(IRBuilder<> &B, Instruction &I, Value *Mask) {
  BasicBlock *Pre = B.GetInsertBlock();
  Function *Fn = Pre->getParent();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "lane.loop", Fn);
  BasicBlock *Do = BasicBlock::Create(Ctx, "lane.do", Fn);
  BasicBlock *Next = BasicBlock::Create(Ctx, "lane.next", Fn);
  BasicBlock *After = BasicBlock::Create(Ctx, "lane.after", Fn);
  // Operands as vectors, read per lane inside the loop.
  SmallVector<Value *> Ops;
  for (Value *Op : I.operands())
    Ops.push_back(isVarying(Op) ? Map.lookup(Op) : scalar(Op));
  B.CreateBr(Loop);

  B.SetInsertPoint(Loop);
  PHINode *Lane = B.CreatePHI(I32, 2, "lane");
  Lane->addIncoming(B.getInt32(0), Pre);
  Type *RT = I.getType();
  Type *ValTy = isa<AtomicCmpXchgInst>(I)
                    ? cast<AtomicCmpXchgInst>(I).getNewValOperand()->getType()
                    : RT;
  bool HasResult = !RT->isVoidTy();
  PHINode *Acc = nullptr, *AccOk = nullptr;
  if (HasResult) {
    Acc = B.CreatePHI(vecTy(ValTy), 2, "lane.acc");
    Acc->addIncoming(PoisonValue::get(vecTy(ValTy)), Pre);
    if (isa<AtomicCmpXchgInst>(I)) {
      AccOk = B.CreatePHI(maskTy(), 2, "lane.ok");
      AccOk->addIncoming(PoisonValue::get(maskTy()), Pre);
    }
  }
  B.CreateCondBr(B.CreateExtractElement(Mask, Lane), Do, Next);

  B.SetInsertPoint(Do);
  Instruction *C = I.clone();
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    Value *Op = Ops[K];
    C->setOperand(K, Op->getType()->isVectorTy()
                         ? B.CreateExtractElement(Op, Lane)
                         : Op);
  }
  B.Insert(C);
  Value *R = nullptr, *Ok = nullptr;
  if (HasResult) {
    if (isa<AtomicCmpXchgInst>(I)) {
      R = B.CreateInsertElement(Acc, B.CreateExtractValue(C, 0), Lane);
      Ok = B.CreateInsertElement(AccOk, B.CreateExtractValue(C, 1), Lane);
    } else {
      R = B.CreateInsertElement(Acc, C, Lane);
    }
  }
  B.CreateBr(Next);

  B.SetInsertPoint(Next);
  if (HasResult) {
    PHINode *RP = B.CreatePHI(Acc->getType(), 2);
    RP->addIncoming(Acc, Loop);
    RP->addIncoming(R, Do);
    Acc->addIncoming(RP, Next);
    if (AccOk) {
      PHINode *OP = B.CreatePHI(maskTy(), 2);
      OP->addIncoming(AccOk, Loop);
      OP->addIncoming(Ok, Do);
      AccOk->addIncoming(OP, Next);
      CmpXchgParts[&I] = {RP, OP};
    } else {
      Map[&I] = RP;
    }
  }
  // One lane at a time on one host thread: a `.shared` atomic needs no
  // atomic instruction here (see lowerSharedAtomics).
  if (C->getMetadata(SharedAtomicMD))
    lowerSharedAtomic(*C);
  Value *L1 = B.CreateAdd(Lane, B.getInt32(1));
  Lane->addIncoming(L1, Next);
  B.CreateCondBr(B.CreateICmpULT(L1, B.getInt32(W)), Loop, After);
  B.SetInsertPoint(After);
  return true;
}

/// Loads and stores. A uniform address is one scalar access; a consecutive
/// one (Base + lane * size) a masked vector access, after the affine form's
/// wrap check where there is one; any other a masked gather or scatter.
bool Vectorizer::emitMemory(IRBuilder<> &B, Instruction &I, Value *Mask) {
  auto *LdI = dyn_cast<LoadInst>(&I);
  auto *StI = dyn_cast<StoreInst>(&I);
  Value *Ptr = LdI ? LdI->getPointerOperand() : StI->getPointerOperand();
  bool Special = LdI ? (LdI->isVolatile() || LdI->isAtomic())
                     : (StI->isVolatile() || StI->isAtomic());
  Value *Val = StI ? StI->getValueOperand() : nullptr;
  Type *Ty = LdI ? LdI->getType() : Val->getType();
  Align A = LdI ? LdI->getAlign() : StI->getAlign();
  if (!isVarying(Ptr)) {
    if (LdI) {
      Instruction *C = I.clone();
      C->setOperand(0, scalar(Ptr));
      B.Insert(C);
      Map[&I] = C;
      return true;
    }
    if (!isVarying(Val)) {
      Instruction *C = I.clone();
      C->setOperand(0, scalar(Val));
      C->setOperand(1, scalar(Ptr));
      B.Insert(C);
      return true;
    }
    if (Special)
      return emitPerLane(B, I, Mask);
    // Several lanes store to one address: the highest active lane's value
    // is the one left, which is one of the outcomes PTX allows.
    Value *Bits = lanesToInt(B, Mask);
    Value *Lz = B.CreateBinaryIntrinsic(Intrinsic::ctlz, Bits, B.getTrue());
    Value *Last = B.CreateSub(B.getIntN(W, W - 1), Lz);
    Value *V = B.CreateExtractElement(Map.lookup(Val),
                                      B.CreateZExtOrTrunc(Last, I32));
    Instruction *C = I.clone();
    C->setOperand(0, V);
    C->setOperand(1, scalar(Ptr));
    B.Insert(C);
    return true;
  }
  if (Special)
    return emitPerLane(B, I, Mask);
  Value *Ptrs = Map.lookup(Ptr);
  auto gatherOrScatter = [&](IRBuilder<> &GB) -> Value * {
    if (LdI)
      return GB.CreateMaskedGather(vecTy(Ty), Ptrs, A, Mask);
    GB.CreateMaskedScatter(vec(GB, Val), Ptrs, A, Mask);
    return nullptr;
  };
  // The masked vector access at Base when Cond holds, the gather or
  // scatter otherwise; a load's result is the phi of the two.
  auto branched = [&](Value *Cond, Value *Base, const char *FastName) {
    Function *Fn = B.GetInsertBlock()->getParent();
    BasicBlock *Fast = BasicBlock::Create(Ctx, FastName, Fn);
    BasicBlock *Slow = BasicBlock::Create(Ctx, "gather", Fn);
    BasicBlock *Join = BasicBlock::Create(Ctx, "access.done", Fn);
    B.CreateCondBr(Cond, Fast, Slow);
    IRBuilder<> FB(Fast), SB(Slow);
    Value *RF = nullptr;
    if (LdI)
      RF = FB.CreateMaskedLoad(vecTy(Ty), Base, A, Mask);
    else
      FB.CreateMaskedStore(vec(FB, Val), Base, A, Mask);
    Value *RS = gatherOrScatter(SB);
    FB.CreateBr(Join);
    SB.CreateBr(Join);
    B.SetInsertPoint(Join);
    if (LdI) {
      PHINode *P = B.CreatePHI(vecTy(Ty), 2);
      P->addIncoming(RF, Fast);
      P->addIncoming(RS, Slow);
      Map[&I] = P;
    }
  };
  auto It = Affines.find(Ptr);
  TypeSize Size = DL().getTypeStoreSize(Ty);
  bool Consecutive = It != Affines.end() && !Size.isScalable() &&
                     It->second.Stride == (int64_t)Size.getFixedValue() &&
                     DL().getTypeAllocSize(Ty) == Size;
  if (!Consecutive) {
    // Not known to be consecutive, but often is at run time (a loop that
    // nvcc unrolled continues from its remainder loop's per-lane exit
    // values): when every active lane's address is the first active lane's
    // plus its distance in elements, one masked vector access does.
    uint64_t Bytes = Size.getFixedValue();
    if (Size.isScalable() || DL().getTypeAllocSize(Ty) != Size ||
        Ptr->getType()->getPointerAddressSpace() != 0) {
      if (Value *R = gatherOrScatter(B))
        Map[&I] = R;
      return true;
    }
    Type *I64 = B.getInt64Ty();
    Value *Addr = B.CreatePtrToInt(Ptrs, vecTy(I64));
    Value *First = B.CreateZExt(
        B.CreateBinaryIntrinsic(Intrinsic::cttz, lanesToInt(B, Mask),
                                B.getTrue()),
        I64);
    Value *Base = B.CreateSub(B.CreateExtractElement(Addr, First),
                              B.CreateMul(First, B.getInt64(Bytes)));
    Value *Expected = B.CreateAdd(
        B.CreateVectorSplat(W, Base),
        B.CreateMul(B.CreateZExt(Iota, vecTy(I64)),
                    splat(ConstantInt::get(I64, Bytes))));
    Value *Ok = B.CreateAndReduce(
        B.CreateOr(B.CreateICmpEQ(Addr, Expected), B.CreateNot(Mask)));
    Value *BasePtr = B.CreateIntToPtr(Base, Ptr->getType()->getScalarType());
    branched(Ok, BasePtr, "found.consecutive");
    return true;
  }
  const Affine &Af = It->second;
  if (!Af.Check) {
    if (LdI)
      Map[&I] = B.CreateMaskedLoad(vecTy(Ty), Af.Base, A, Mask);
    else
      B.CreateMaskedStore(vec(B, Val), Af.Base, A, Mask);
    return true;
  }
  branched(Af.Check, Af.Base, "consecutive");
  return true;
}

bool Vectorizer::emitInstruction(IRBuilder<> &B, Instruction &I,
                                 Value *Mask) {
  if (isa<LoadInst>(I) || isa<StoreInst>(I))
    return emitMemory(B, I, Mask);
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return emitPerLane(B, I, Mask);
  if (auto *CI = dyn_cast<CallInst>(&I); CI && isWarpCollective(*CI))
    return emitCollective(B, *CI, Mask);
  if (auto *CI = dyn_cast<CallInst>(&I))
    if (std::optional<WarpOp> Op = blockReduction(*CI))
      return emitBlockReduction(B, *CI, *Op, Mask);
  if (auto *CI = dyn_cast<CallInst>(&I))
    if (std::optional<MatrixCollective> MC = matrixLanesCall(CI))
      return emitMatrix(B, *CI, *MC, Mask);
  if (auto *EV = dyn_cast<ExtractValueInst>(&I);
      EV && MatrixParts.count(EV->getAggregateOperand())) {
    Map[&I] = MatrixParts[EV->getAggregateOperand()][EV->getIndices()[0]];
    return true;
  }
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    auto [Old, Ok] = CmpXchgParts.lookup(EV->getAggregateOperand());
    Map[&I] = EV->getIndices()[0] == 0 ? Old : Ok;
    return true;
  }
  if (auto *CI = dyn_cast<CallInst>(&I)) {
    bool AnyVarying = false;
    for (Value *Op : CI->args())
      AnyVarying |= isVarying(Op);
    if (AnyVarying)
      return emitCall(B, *CI);
  }
  if (!isVarying(&I)) {
    // Uniform: the same instruction on the uniform operands.
    Instruction *C = I.clone();
    for (unsigned K = 0; K < I.getNumOperands(); ++K)
      if (!isa<BasicBlock>(I.getOperand(K)) && !isa<Function>(I.getOperand(K)))
        C->setOperand(K, scalar(I.getOperand(K)));
    B.Insert(C);
    C->setName(I.getName());
    Map[&I] = C;
    return true;
  }
  noteAffine(B, I);
  Value *R = nullptr;
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    if (Value *D = divideByUniform(B, *BO)) {
      Map[&I] = D;
      return true;
    }
    Value *L = vec(B, BO->getOperand(0)), *Rv = vec(B, BO->getOperand(1));
    // Inactive lanes must not divide by zero or overflow a division.
    switch (BO->getOpcode()) {
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::URem:
    case Instruction::SRem:
      Rv = B.CreateSelect(Mask, Rv, splat(ConstantInt::get(I.getType(), 1)));
      break;
    default:
      break;
    }
    R = B.CreateBinOp(BO->getOpcode(), L, Rv);
  } else if (auto *UO = dyn_cast<UnaryOperator>(&I)) {
    R = B.CreateUnOp(UO->getOpcode(), vec(B, UO->getOperand(0)));
  } else if (auto *CI = dyn_cast<CastInst>(&I)) {
    R = B.CreateCast(CI->getOpcode(), vec(B, CI->getOperand(0)),
                     vecTy(CI->getDestTy()));
  } else if (auto *Cmp = dyn_cast<CmpInst>(&I)) {
    R = B.CreateCmp(Cmp->getPredicate(), vec(B, Cmp->getOperand(0)),
                    vec(B, Cmp->getOperand(1)));
  } else if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    Value *C = isVarying(Sel->getCondition()) ? vec(B, Sel->getCondition())
                                              : scalar(Sel->getCondition());
    R = B.CreateSelect(C, vec(B, Sel->getTrueValue()),
                       vec(B, Sel->getFalseValue()));
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    SmallVector<Value *> Idx;
    for (auto GTI = gep_type_begin(GEP), E = gep_type_end(GEP); GTI != E;
         ++GTI) {
      Value *Op = GTI.getOperand();
      Idx.push_back(isVarying(Op) ? Map.lookup(Op) : scalar(Op));
    }
    Value *Base = GEP->getPointerOperand();
    R = B.CreateGEP(GEP->getSourceElementType(),
                    isVarying(Base) ? Map.lookup(Base) : scalar(Base), Idx, "",
                    GEP->getNoWrapFlags());
    if (!R->getType()->isVectorTy())
      R = B.CreateVectorSplat(W, R);
  } else {
    return fail(Twine("instruction '") + I.getOpcodeName() + "'");
  }
  if (auto *RI = dyn_cast<Instruction>(R)) {
    RI->copyIRFlags(&I);
    RI->setName(I.getName());
  }
  Map[&I] = R;
  return true;
}

bool Vectorizer::emitBlock(BasicBlock *BB) {
  BasicBlock *NB = BlockMap[BB];
  IRBuilder<> B(NB);
  PHINode *Mask = B.CreatePHI(maskTy(), 2, "lanes");
  MaskPhi[BB] = Mask;
  for (PHINode &P : BB->phis())
    Map[&P] = B.CreatePHI(isVarying(&P) ? vecTy(P.getType()) : P.getType(),
                          P.getNumIncomingValues(), P.getName());
  // A varying phi that starts lane-affine and steps by a uniform amount
  // stays lane-affine: its base is a scalar phi of its own.
  if (Loop *L = LI.getLoopFor(BB); L && L->getHeader() == BB &&
                                    L->getLoopPreheader() && L->getLoopLatch())
    for (PHINode &P : BB->phis()) {
      if (!isVarying(&P) || !P.getType()->isIntegerTy() ||
          P.getNumIncomingValues() != 2)
        continue;
      Value *Start = P.getIncomingValueForBlock(L->getLoopPreheader());
      auto *Next = dyn_cast<BinaryOperator>(
          P.getIncomingValueForBlock(L->getLoopLatch()));
      auto StartAff = Affines.find(Start);
      if (!Next || Next->getOpcode() != Instruction::Add ||
          StartAff == Affines.end())
        continue;
      Value *Step = Next->getOperand(0) == &P ? Next->getOperand(1)
                    : Next->getOperand(1) == &P ? Next->getOperand(0)
                                                : nullptr;
      if (!Step || isVarying(Step))
        continue;
      PHINode *Base = B.CreatePHI(P.getType(), 2, P.getName() + ".base");
      Inductions[&P] = {Base, StartAff->second.Base, Step};
      // The start's wrap check (taken before the loop) still applies: the
      // steps add the same amount to every lane.
      Affines[&P] = {Base, StartAff->second.Stride, StartAff->second.Check};
    }
  // A loop whose latch is divergent keeps the lanes that left it so far.
  if (Loop *L = LI.getLoopFor(BB); L && L->getHeader() == BB) {
    BasicBlock *Latch = L->getLoopLatch();
    auto *Br = cast<BranchInst>(Latch->getTerminator());
    if (Br->isConditional() && isVarying(Br->getCondition())) {
      LoopAcc &LA = LoopAccs[BB];
      LA.Exited = B.CreatePHI(maskTy(), 2, "exited");
      for (PHINode &P : L->getExitBlock()->phis()) {
        Value *V = P.getIncomingValueForBlock(Latch);
        auto *VI = dyn_cast<Instruction>(V);
        if (!VI || !L->contains(VI))
          continue; // loop-invariant: the same at every exit
        if (!LA.LiveOut.count(V))
          LA.LiveOut[V] = B.CreatePHI(vecTy(V->getType()), 2, "liveout");
      }
    }
  }
  for (Instruction &I : *BB) {
    if (isa<PHINode>(I) || I.isTerminator())
      continue;
    if (!emitInstruction(B, I, Mask))
      return false;
  }
  BlockEnd[BB] = B.GetInsertBlock();
  return emitTerminator(B, BB);
}

bool Vectorizer::emitTerminator(IRBuilder<> &B, BasicBlock *BB) {
  Value *Mask = MaskPhi[BB];
  Instruction *T = BB->getTerminator();
  if (isa<ReturnInst>(T)) {
    B.CreateRetVoid();
    return true;
  }
  auto *Br = cast<BranchInst>(T);
  if (!Br->isConditional()) {
    Edges.emplace_back(BB, Br->getSuccessor(0), Mask);
    B.CreateBr(BlockMap[Br->getSuccessor(0)]);
    return true;
  }
  BasicBlock *S0 = Br->getSuccessor(0), *S1 = Br->getSuccessor(1);
  Value *C = Br->getCondition();
  if (!isVarying(C)) {
    Edges.emplace_back(BB, S0, Mask);
    Edges.emplace_back(BB, S1, Mask);
    B.CreateCondBr(scalar(C), BlockMap[S0], BlockMap[S1]);
    return true;
  }
  // Inactive lanes may hold poison (a masked load's lanes that were not
  // read); frozen, they cannot make the mask arithmetic or the branch on
  // any lane poison.
  Value *VC = B.CreateFreeze(Map.lookup(C));
  Loop *L = LI.getLoopFor(BB);
  if (L && L->getLoopLatch() == BB &&
      (S0 == L->getHeader() || S1 == L->getHeader())) {
    // The latch of a loop with a divergent exit: lanes whose condition says
    // leave are done; the loop goes on while any lane continues.
    bool ContOnTrue = S0 == L->getHeader();
    BasicBlock *Exit = ContOnTrue ? S1 : S0;
    if (Exit != L->getExitBlock())
      return fail("a loop with several exits");
    Value *Cont = B.CreateAnd(Mask, ContOnTrue ? VC : B.CreateNot(VC));
    Value *Leave = B.CreateAnd(Mask, ContOnTrue ? B.CreateNot(VC) : VC);
    LoopAcc &LA = LoopAccs[L->getHeader()];
    Value *Exited = B.CreateOr(LA.Exited, Leave);
    BasicBlock *NB = B.GetInsertBlock();
    LA.Exited->addIncoming(Exited, NB);
    Edge E{BB, Exit, Exited};
    for (auto &[V, Acc] : LA.LiveOut) {
      Value *New = B.CreateSelect(Leave, vec(B, V), Acc);
      Acc->addIncoming(New, NB);
      E.LiveOut[V] = New;
    }
    Edges.emplace_back(BB, L->getHeader(), Cont);
    Edges.push_back(std::move(E));
    Value *Any = B.CreateOrReduce(Cont);
    B.CreateCondBr(Any, BlockMap[L->getHeader()], BlockMap[Exit]);
    return true;
  }
  // A divergent `if`: the successor that post-dominates the branch is the
  // join; lanes that skip the body wait there.
  BasicBlock *Join = nullptr, *Body = nullptr;
  Value *Taken = nullptr;
  DomTreeNode *PN = PDT.getNode(BB);
  BasicBlock *IPDom = PN && PN->getIDom() ? PN->getIDom()->getBlock() : nullptr;
  if (IPDom && S1 == IPDom) {
    Join = S1, Body = S0, Taken = VC;
  } else if (IPDom && S0 == IPDom) {
    Join = S0, Body = S1, Taken = B.CreateNot(VC);
  } else {
    return fail("a divergent branch that is not an if or a loop latch");
  }
  Value *In = B.CreateAnd(Mask, Taken);
  Value *Out = B.CreateAnd(Mask, B.CreateNot(Taken));
  PendingAt[Join].push_back({BB, Out});
  Edges.emplace_back(BB, Body, In);
  Edges.emplace_back(BB, Join, Out);
  Value *Any = B.CreateOrReduce(In);
  if (Body == S0)
    B.CreateCondBr(Any, BlockMap[Body], BlockMap[Join]);
  else
    B.CreateCondBr(B.CreateNot(Any), BlockMap[Join], BlockMap[Body]);
  return true;
}

/// Fills every phi of the new function: the masks and values arriving along
/// each edge, merged per lane with the lanes that skipped an `if` and wait
/// at its join (taking the value they had at the branch).
void Vectorizer::finishPhis() {
  for (Edge &E : Edges) {
    BasicBlock *From = BlockEnd[E.From];
    IRBuilder<> B(From->getTerminator());
    // The ifs whose skipped lanes join here, arriving with this edge: those
    // whose branch dominates the edge's source (and is not its source).
    SmallVector<Pending *> Waiting;
    for (Pending &P : PendingAt[E.To])
      if (P.Branch != E.From && DT.dominates(P.Branch, E.From))
        Waiting.push_back(&P);
    Value *Lanes = E.Lanes;
    for (Pending *P : Waiting)
      Lanes = B.CreateOr(Lanes, P->Lanes);
    MaskPhi[E.To]->addIncoming(Lanes, From);
    for (auto &[P, Ind] : Inductions) {
      if (P->getParent() != E.To)
        continue;
      Loop *L = LI.getLoopFor(E.To);
      Ind.Base->addIncoming(E.From == L->getLoopLatch()
                                ? B.CreateAdd(Ind.Base, scalar(Ind.Step))
                                : Ind.Start,
                            From);
    }
    for (PHINode &P : E.To->phis()) {
      auto *NP = cast<PHINode>(Map[&P]);
      Value *V = P.getIncomingValueForBlock(E.From);
      Value *NV;
      if (auto It = E.LiveOut.find(V); It != E.LiveOut.end())
        NV = It->second;
      else
        NV = isVarying(&P) ? vec(B, V) : scalar(V);
      for (Pending *Pd : Waiting)
        NV = B.CreateSelect(Pd->Lanes,
                            vec(B, P.getIncomingValueForBlock(Pd->Branch)), NV);
      NP->addIncoming(NV, From);
    }
  }
}

Function *Vectorizer::run(StringRef Name) {
  DT.recalculate(F);
  PDT.recalculate(F);
  LI.analyze(DT);
  if (!check())
    return nullptr;
  computeUniformity();
  for (Instruction &I : instructions(F))
    if (I.getOpcode() == Instruction::Add && I.getType()->isIntegerTy())
      if (auto *C = dyn_cast<ConstantInt>(I.getOperand(1));
          C && C->getValue().ult(1u << 16)) {
        uint64_t &Most = LargestAddend[I.getOperand(0)];
        Most = std::max(Most, C->getZExtValue());
      }
  // A loop with a divergent latch must have one exit, from its latch.
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch)
      return fail("a loop without a single latch"), nullptr;
    auto *Br = cast<BranchInst>(Latch->getTerminator());
    if (Br->isConditional() && isVarying(Br->getCondition()) &&
        (!L->getExitBlock() || L->getExitingBlock() != Latch))
      return fail("a loop with a divergent exit that is not its latch"),
             nullptr;
  }

  // The thread function's signature, with the first thread t0 of the group
  // in %tid.x's place (the frame, %tid.y and %tid.z are not used).
  VF = Function::Create(F.getFunctionType(), GlobalValue::InternalLinkage,
                        Name, M);
  VF->addFnAttr(Attribute::AlwaysInline);
  // As on the scalar block function: the parameter buffer and the block
  // context are reached through these pointers only. The shared arena is
  // not: a generic pointer into it may have been stored and reloaded.
  for (unsigned A : {ArgParams, ArgCtx})
    VF->addParamAttr(A, Attribute::NoAlias);
  Argument *Params = VF->getArg(ArgParams), *CtxArg = VF->getArg(ArgCtx),
           *T0 = VF->getArg(ArgTidX), *Shared = VF->getArg(ArgShared);
  Params->setName("params");
  CtxArg->setName("ctx");
  T0->setName("t0");
  Shared->setName("shared");
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", VF);
  IRBuilder<> B(Entry);
  auto ctxU32 = [&](unsigned Off, const char *N) {
    LoadInst *L = B.CreateAlignedLoad(
        I32, B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), CtxArg, Off),
        Align(4), N);
    L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    return L;
  };
  Value *NX = ctxU32(24, "ntid.x"), *NY = ctxU32(28, "ntid.y"),
        *NZ = ctxU32(32, "ntid.z");
  Value *NThreads = B.CreateMul(B.CreateMul(NX, NY), NZ, "nthreads");
  SmallVector<Constant *> Lanes;
  for (unsigned L = 0; L < W; ++L)
    Lanes.push_back(B.getInt32(L));
  Iota = ConstantVector::get(Lanes);
  Value *T = B.CreateAdd(B.CreateVectorSplat(W, T0), Iota, "t");
  Value *Mask0 = B.CreateICmpULT(T, B.CreateVectorSplat(W, NThreads), "lanes");
  // ntid.x is a multiple of W (the caller checks), so the W threads are one
  // row of the block: consecutive %tid.x, one %tid.y and %tid.z.
  Value *TX0 = B.CreateURem(T0, NX, "tid.x0");
  Value *TidX = B.CreateAdd(B.CreateVectorSplat(W, TX0), Iota, "tid.x");
  Value *TidY = B.CreateURem(B.CreateUDiv(T0, NX), NY, "tid.y");
  Value *TidZ = B.CreateUDiv(T0, B.CreateMul(NX, NY), "tid.z");
  Map[F.getArg(ArgParams)] = Params;
  Map[F.getArg(ArgCtx)] = CtxArg;
  Map[F.getArg(ArgShared)] = Shared;
  Map[F.getArg(ArgTidX)] = TidX;
  Map[F.getArg(ArgTidY)] = TidY;
  Map[F.getArg(ArgTidZ)] = TidZ;
  Affines[F.getArg(ArgTidX)] = {TX0, 1, nullptr};

  ReversePostOrderTraversal<Function *> RPO(&F);
  for (BasicBlock *BB : RPO)
    BlockMap[BB] = BasicBlock::Create(Ctx, BB->getName(), VF);
  BasicBlock *FirstNew = BlockMap[&F.getEntryBlock()];
  B.CreateBr(FirstNew);
  for (BasicBlock *BB : RPO)
    if (!emitBlock(BB)) {
      VF->eraseFromParent();
      return nullptr;
    }
  MaskPhi[&F.getEntryBlock()]->addIncoming(Mask0, Entry);
  finishPhis();
  // Loop accumulators start empty.
  for (auto &[Header, LA] : LoopAccs) {
    BasicBlock *NH = BlockMap[Header];
    for (BasicBlock *Pred : predecessors(NH)) {
      if (LA.Exited->getBasicBlockIndex(Pred) >= 0)
        continue;
      LA.Exited->addIncoming(Constant::getNullValue(maskTy()), Pred);
      for (auto &[V, Acc] : LA.LiveOut)
        Acc->addIncoming(PoisonValue::get(Acc->getType()), Pred);
    }
  }
  std::string Err;
  raw_string_ostream OS(Err);
  if (verifyFunction(*VF, &OS)) {
    fail("internal error: " + OS.str());
    VF->eraseFromParent();
    return nullptr;
  }
  return VF;
}

} // namespace

unsigned warpVectorWidth(const TargetMachine *TM) {
  if (const char *E = std::getenv("CUHIP_CPU_VECTORIZE"); E && !std::strcmp(E, "0"))
    return 0;
  // Without a target machine (unoptimized dumps), the host CPU the JIT
  // would compile for.
  bool Avx512 = TM ? TM->getTargetFeatureString().contains("+avx512f")
                   : sys::getHostCPUFeatures().lookup("avx512f");
  return Avx512 ? 16 : 8;
}

Function *vectorizeThreadFunction(Function &Thread, unsigned W,
                                  const Twine &Name, std::string &WhyNot) {
  // Work on a copy: the scalar path still needs the thread function.
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Thread, VMap);
  Copy->setName(Thread.getName() + ".vectorizing");
  packMatrixCalls(*Copy);
  {
    FunctionAnalysisManager FAM;
    PassBuilder PB;
    PB.registerFunctionAnalyses(FAM);
    FunctionPassManager FPM;
    // Folded constants and merged expressions first: the neutral IR's
    // operand checks (e.g. a shift's range select) would hide addresses'
    // affine form.
    // PTX's vector registers (ld.v4 and friends) become their elements: a
    // lane's <4 x float> would be a vector of vectors.
    ScalarizerPassOptions SO;
    SO.ScalarizeLoadStore = true;
    FPM.addPass(ScalarizerPass(SO));
    FPM.addPass(InstSimplifyPass());
    FPM.addPass(EarlyCSEPass());
    FPM.addPass(SimplifyCFGPass());
    FPM.addPass(UnifyFunctionExitNodesPass());
    FPM.addPass(LowerSwitchPass());
    FPM.addPass(LoopSimplifyPass());
    FPM.addPass(LCSSAPass());
    FPM.addPass(StructurizeCFGPass());
    FPM.addPass(LoopSimplifyPass());
    FPM.addPass(LCSSAPass());
    FPM.run(*Copy, FAM);
  }
  Function *VF = Vectorizer(*Copy, W, WhyNot).run(Name.str());
  Copy->eraseFromParent();
  // The copy's matrix declarations (packMatrixCalls) are used no more.
  Module &M = *Thread.getParent();
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        F.getName().starts_with(MatrixLanesPrefix))
      F.eraseFromParent();
  return VF;
}

} // namespace cuhip::ptx::host
