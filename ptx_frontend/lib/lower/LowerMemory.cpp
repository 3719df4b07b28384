//===- LowerMemory.cpp - Loads, stores, atomics, address conversion ---------===//
//
// ld/ldu/st in every state space with PTX's memory-order qualifiers, cvta
// between windows, atom/red, and fences.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

static void lowerLoadStore(FunctionLowering &L, const Instruction &I, bool IsLoad) {
  ScalarType T = L.instrType(I);
  StateSpace Space = L.spaceOf(I);
  if (T == ScalarType::None || I.Operands.size() != 2) {
    L.unsupported(I, "expected a typed access with two operands");
    return;
  }
  unsigned Vec = 0;
  for (const auto &M : I.Modifiers)
    if (M == "v2" || M == "v4" || M == "v8")
      Vec = M[1] - '0';
  AtomicOrdering Ord = AtomicOrdering::NotAtomic;
  bool Volatile = I.hasModifier("volatile");
  if (I.hasModifier("relaxed"))
    Ord = AtomicOrdering::Monotonic;
  else if (I.hasModifier("acquire"))
    Ord = AtomicOrdering::Acquire;
  else if (I.hasModifier("release"))
    Ord = AtomicOrdering::Release;
  if (Ord != AtomicOrdering::NotAtomic && Vec) {
    L.unsupported(I, "vector accesses cannot carry memory-order qualifiers");
    return;
  }
  if (Space != StateSpace::Global && Space != StateSpace::Shared &&
      Space != StateSpace::Local && Space != StateSpace::Const &&
      Space != StateSpace::Param && Space != StateSpace::Generic) {
    L.unsupported(I, "state space");
    return;
  }
  const Operand &AddrOp = I.Operands[IsLoad ? 1 : 0];
  const Operand &ValOp = I.Operands[IsLoad ? 0 : 1];
  Type *PtrTy;
  Value *Ptr = L.addressOf(AddrOp, Space, PtrTy);
  if (!Ptr)
    return;
  Type *ElemTy = llvmType(L.Ctx, T);
  bool Signed = isSignedInt(T);
  unsigned Bytes = byteSize(T);
  if (T == ScalarType::Pred) {
    L.unsupported(I, "predicate type");
    return;
  }
  if (Vec) {
    if (ValOp.K != Operand::Vector || ValOp.Elements.size() != Vec) {
      L.error(ValOp.Loc, "'" + I.fullName() + "' needs a {…} operand of " +
                           std::to_string(Vec) + " elements");
      return;
    }
    for (unsigned E = 0; E < Vec; ++E) {
      Value *EP = L.B.CreateConstInBoundsGEP1_64(ElemTy, Ptr, E);
      if (IsLoad) {
        LoadInst *Ld = L.B.CreateAlignedLoad(
            ElemTy, EP, Align(E == 0 ? Bytes * Vec : Bytes), Volatile);
        if (Space == StateSpace::Global && I.hasModifier("nc"))
          Ld->setMetadata(LLVMContext::MD_invariant_load,
                         MDNode::get(L.Ctx, {}));
        L.write(ValOp.Elements[E], Ld, Signed);
      } else {
        Value *V = L.readOperand(ValOp.Elements[E], ElemTy, Signed);
        if (!V)
          return;
        L.B.CreateAlignedStore(V, EP, Align(E == 0 ? Bytes * Vec : Bytes),
                             Volatile);
      }
    }
    return;
  }
  if (IsLoad) {
    LoadInst *Ld = L.B.CreateAlignedLoad(ElemTy, Ptr, Align(Bytes), Volatile);
    if (Ord != AtomicOrdering::NotAtomic)
      Ld->setAtomic(Ord);
    if ((Space == StateSpace::Global && I.hasModifier("nc")) ||
        Space == StateSpace::Param)
      Ld->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(L.Ctx, {}));
    L.write(ValOp, Ld, Signed);
  } else {
    if (Space == StateSpace::Param || Space == StateSpace::Const) {
      L.unsupported(I, "stores to ." + std::string(stateSpaceName(Space)));
      return;
    }
    Value *V = L.readOperand(ValOp, ElemTy, Signed);
    if (!V)
      return;
    StoreInst *S = L.B.CreateAlignedStore(V, Ptr, Align(Bytes), Volatile);
    if (Ord != AtomicOrdering::NotAtomic)
      S->setAtomic(Ord);
  }
}


/// cvta converts between a state space's window address and a generic one.
/// Global and const windows coincide with generic addresses; shared and local
/// go through an addrspacecast so each target can place its windows.
static void lowerCvta(FunctionLowering &L, const Instruction &I) {
  bool ToSpace = I.hasModifier("to");
  StateSpace Space = L.spaceOf(I);
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None || I.Operands.size() != 2 ||
      Space == StateSpace::Generic) {
    L.unsupported(I, "expected cvta[.to].space.size d, a");
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false);
  if (!A)
    return;
  Value *R;
  if (Space == StateSpace::Global || Space == StateSpace::Const ||
      Space == StateSpace::Param) {
    R = A;
  } else {
    unsigned AS = spaceToAddrSpace(Space);
    unsigned FromAS = ToSpace ? addrspace::Generic : AS;
    unsigned ToAS = ToSpace ? AS : addrspace::Generic;
    Value *P = L.B.CreateIntToPtr(A, PointerType::get(L.Ctx, FromAS));
    R = L.B.CreatePtrToInt(L.B.CreateAddrSpaceCast(P, PointerType::get(L.Ctx, ToAS)),
                         Ty);
  }
  L.write(I.Operands[0], R, false);
}

static void lowerAtomic(FunctionLowering &L, const Instruction &I, bool IsRed) {
  ScalarType T = L.instrType(I);
  StateSpace Space = L.spaceOf(I);
  if (T == ScalarType::None) {
    L.unsupported(I);
    return;
  }
  static const char *Ops[] = {"add", "min", "max", "inc", "dec", "and",
                              "or",  "xor", "exch", "cas"};
  std::string Op;
  for (const auto &M : I.Modifiers)
    for (const char *O : Ops)
      if (M == O)
        Op = O;
  if (Op.empty() || I.hasModifier("v2") || I.hasModifier("v4") ||
      (isFloat(T) && T != ScalarType::F32 && T != ScalarType::F64) ||
      Op == "inc" || Op == "dec") {
    L.unsupported(I);
    return;
  }
  unsigned First = IsRed ? 0 : 1;
  if (I.Operands.size() < First + 2) {
    L.unsupported(I, "missing operands");
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  bool Signed = isSignedInt(T);
  Type *PtrTy;
  Value *Ptr = L.addressOf(I.Operands[First], Space, PtrTy);
  Value *V = L.read(I, First + 1, Ty, Signed);
  if (!Ptr || !V)
    return;
  AtomicOrdering Ord = AtomicOrdering::Monotonic;
  if (I.hasModifier("acquire"))
    Ord = AtomicOrdering::Acquire;
  else if (I.hasModifier("release"))
    Ord = AtomicOrdering::Release;
  else if (I.hasModifier("acq_rel"))
    Ord = AtomicOrdering::AcquireRelease;
  Value *R;
  if (Op == "cas") {
    Value *New = L.read(I, First + 2, Ty, Signed);
    if (!New)
      return;
    Value *CmpV = V, *NewV = New;
    if (Ty->isFloatingPointTy()) {
      Type *ITy = L.B.getIntNTy(Ty->getPrimitiveSizeInBits());
      CmpV = L.B.CreateBitCast(CmpV, ITy);
      NewV = L.B.CreateBitCast(NewV, ITy);
    }
    auto *X = L.B.CreateAtomicCmpXchg(
        Ptr, CmpV, NewV, MaybeAlign(byteSize(T)), Ord,
        Ord == AtomicOrdering::Release || Ord == AtomicOrdering::AcquireRelease
            ? AtomicOrdering::Monotonic
            : Ord);
    R = L.B.CreateExtractValue(X, 0);
  } else {
    AtomicRMWInst::BinOp BO;
    bool IsF = isFloat(T);
    if (Op == "add")
      BO = IsF ? AtomicRMWInst::FAdd : AtomicRMWInst::Add;
    else if (Op == "min")
      BO = IsF ? AtomicRMWInst::FMin : (Signed ? AtomicRMWInst::Min
                                              : AtomicRMWInst::UMin);
    else if (Op == "max")
      BO = IsF ? AtomicRMWInst::FMax : (Signed ? AtomicRMWInst::Max
                                              : AtomicRMWInst::UMax);
    else if (Op == "and")
      BO = AtomicRMWInst::And;
    else if (Op == "or")
      BO = AtomicRMWInst::Or;
    else if (Op == "xor")
      BO = AtomicRMWInst::Xor;
    else
      BO = AtomicRMWInst::Xchg;
    if (IsF && BO != AtomicRMWInst::FAdd && BO != AtomicRMWInst::Xchg) {
      L.unsupported(I);
      return;
    }
    R = L.B.CreateAtomicRMW(BO, Ptr, V, MaybeAlign(byteSize(T)), Ord);
  }
  if (!IsRed)
    L.write(I.Operands[0], R, Signed);
}

static void lowerFence(FunctionLowering &L, const Instruction &I) {
  if (I.hasModifier("proxy")) {
    L.unsupported(I);
    return;
  }
  L.B.CreateFence(AtomicOrdering::SequentiallyConsistent);
}

void registerMemoryInstructions(OpcodeTable &T) {
  T["ld"] = [](FunctionLowering &L, const Instruction &I) {
    lowerLoadStore(L, I, true);
  };
  T["ldu"] = T["ld"];
  T["st"] = [](FunctionLowering &L, const Instruction &I) {
    lowerLoadStore(L, I, false);
  };
  T["atom"] = [](FunctionLowering &L, const Instruction &I) {
    lowerAtomic(L, I, false);
  };
  T["red"] = [](FunctionLowering &L, const Instruction &I) {
    lowerAtomic(L, I, true);
  };
  T["cvta"] = lowerCvta;
  T["membar"] = lowerFence;
  T["fence"] = lowerFence;
}

} // namespace cuhip::ptx::lower
