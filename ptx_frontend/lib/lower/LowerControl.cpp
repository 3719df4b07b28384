//===- LowerControl.cpp - Branches, returns and barriers --------------------===//
//
// bra, ret/exit and block barriers. Guards (@p) are handled for every
// instruction in Lower.cpp; a guarded bra becomes a conditional branch.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

static void lowerBarrier(FunctionLowering &L, const Instruction &I) {
  // bar.sync a{, b}; barrier.sync[.aligned] a{, b}; bar{.cta}.sync …
  bool Sync = I.hasModifier("sync") || (I.Opcode == "barrier" &&
                                        I.Modifiers.empty());
  if (I.hasModifier("warp")) {
    lowerWarpSync(L, I);
    return;
  }
  if (I.Opcode == "barrier" && I.hasModifier("cluster")) {
    // barrier.cluster.arrive{.release,.relaxed}{.aligned};
    // barrier.cluster.wait{.acquire}{.aligned}: clusters are one block
    // here (the runtime refuses larger ones), so the cluster barrier is the
    // block's. The arrival is implied by the wait, which is a full block
    // barrier: a thread leaves it once every thread has reached its wait,
    // which covers "every thread has arrived" and orders memory at least as
    // strongly as release/acquire.
    if (!I.Operands.empty() ||
        (I.hasModifier("arrive") == I.hasModifier("wait"))) {
      L.unsupported(I, "expected barrier.cluster.arrive or "
                       "barrier.cluster.wait, without operands");
      return;
    }
    if (I.hasModifier("wait"))
      L.B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all,
                          ArrayRef<Type *>{}, {L.B.getInt32(0)});
    return;
  }
  if (I.hasModifier("red")) {
    // bar.red.popc.u32 d, a{, b}, {!}c;  bar.red.{and,or}.pred p, a{, b}, {!}c;
    bool Popc = I.hasModifier("popc");
    bool Counted = I.Operands.size() == 4;
    Intrinsic::ID ID = Intrinsic::not_intrinsic;
    if (Popc)
      ID = Counted ? Intrinsic::nvvm_barrier_cta_red_popc_aligned_count
                   : Intrinsic::nvvm_barrier_cta_red_popc_aligned_all;
    else if (I.hasModifier("and"))
      ID = Counted ? Intrinsic::nvvm_barrier_cta_red_and_aligned_count
                   : Intrinsic::nvvm_barrier_cta_red_and_aligned_all;
    else if (I.hasModifier("or"))
      ID = Counted ? Intrinsic::nvvm_barrier_cta_red_or_aligned_count
                   : Intrinsic::nvvm_barrier_cta_red_or_aligned_all;
    if (ID == Intrinsic::not_intrinsic ||
        (I.Operands.size() != 3 && I.Operands.size() != 4)) {
      L.unsupported(I, "expected bar.red.{popc,and,or} d, a{, b}, {!}c");
      return;
    }
    Value *Id = L.read(I, 1, L.B.getInt32Ty(), false);
    Value *Cnt = Counted ? L.read(I, 2, L.B.getInt32Ty(), false) : nullptr;
    Value *P = L.read(I, Counted ? 3 : 2, L.B.getInt1Ty(), false);
    if (!Id || !P || (Counted && !Cnt))
      return;
    Value *R = Counted
                   ? L.B.CreateIntrinsic(ID, ArrayRef<Type *>{}, {Id, Cnt, P})
                   : L.B.CreateIntrinsic(ID, ArrayRef<Type *>{}, {Id, P});
    L.write(I.Operands[0], R, false);
    return;
  }
  if (I.hasModifier("arrive")) {
    // bar.arrive a, b: count this warp's arrival at barrier a, don't wait.
    if (I.Operands.size() != 2) {
      L.unsupported(I, "expected bar.arrive a, b");
      return;
    }
    Value *Id = L.read(I, 0, L.B.getInt32Ty(), false);
    Value *Cnt = L.read(I, 1, L.B.getInt32Ty(), false);
    if (Id && Cnt)
      L.B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_arrive_aligned_count,
                          ArrayRef<Type *>{}, {Id, Cnt});
    return;
  }
  if (!Sync || I.Operands.empty() || I.Operands.size() > 2) {
    L.unsupported(I);
    return;
  }
  Value *Id = L.read(I, 0, L.B.getInt32Ty(), false);
  if (!Id)
    return;
  if (I.Operands.size() == 2) {
    Value *Cnt = L.read(I, 1, L.B.getInt32Ty(), false);
    if (!Cnt)
      return;
    L.B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_count,
                      ArrayRef<Type *>{}, {Id, Cnt});
  } else {
    L.B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all,
                      ArrayRef<Type *>{}, {Id});
  }
}

static void lowerBranch(FunctionLowering &L, const Instruction &I) {
  if (BasicBlock *Target = L.branchTarget(I))
    L.B.CreateBr(Target);
}

/// brx.idx{.uni} index, tlist: jumps to the index-th label of a
/// .branchtargets list; an index past its end is undefined in PTX and traps
/// here.
static void lowerIndexedBranch(FunctionLowering &L, const Instruction &I) {
  if (I.Operands.size() != 2) {
    L.unsupported(I, "expected brx.idx index, tlist");
    return;
  }
  auto Table = L.BranchTables.find(I.Operands[1].Name);
  if (Table == L.BranchTables.end()) {
    L.error(I.Operands[1].Loc, "'" + I.Operands[1].Name +
                                   "' is not a .branchtargets list");
    return;
  }
  Value *Index = L.read(I, 0, L.B.getInt32Ty(), false);
  if (!Index)
    return;
  SmallVector<BasicBlock *> Targets;
  for (const std::string &Name : Table->second) {
    auto It = L.Labels.find(Name);
    if (It == L.Labels.end()) {
      L.error(I.Operands[1].Loc, "unknown label '" + Name + "' in '" +
                                     I.Operands[1].Name + "'");
      return;
    }
    Targets.push_back(It->second);
  }
  BasicBlock *OutOfRange = BasicBlock::Create(L.Ctx, "brx.out.of.range", L.Fn);
  {
    IRBuilder<> TB(OutOfRange);
    TB.CreateIntrinsic(Intrinsic::trap, ArrayRef<Type *>{}, ArrayRef<Value *>{});
    TB.CreateUnreachable();
  }
  SwitchInst *SW = L.B.CreateSwitch(Index, OutOfRange, Targets.size());
  for (size_t K = 0; K < Targets.size(); ++K)
    SW->addCase(L.B.getInt32(K), Targets[K]);
}

static void lowerReturn(FunctionLowering &L, const Instruction &I) {
  if (I.Opcode == "exit" && !L.PF.IsEntry) {
    // exit ends the thread even from inside a device function.
    L.B.CreateIntrinsic(Intrinsic::nvvm_exit, ArrayRef<Type *>{},
                        ArrayRef<Value *>{});
    L.B.CreateUnreachable();
    return;
  }
  L.emitReturn();
}

namespace {
/// One argument or return value of a call: the .param variable or register
/// that holds it, and where it sits in the packed buffer.
struct CallSlot {
  const Operand *Op;
  Symbol *Sym;
  uint32_t Offset, Bytes;
};

/// Lays out a call's argument (or return) list the way PTX lays out a
/// parameter list, which is how the callee reads it.
bool layOutCallList(FunctionLowering &L, const Operand *List,
                    SmallVectorImpl<CallSlot> &Out, uint32_t &Total,
                    uint32_t &MaxAlign) {
  Total = 0;
  MaxAlign = 8;
  if (!List)
    return true;
  for (const Operand &E : List->Elements) {
    Symbol *S = (E.K == Operand::Register || E.K == Operand::Symbol)
                    ? L.lookup(E.Name)
                    : nullptr;
    uint32_t Bytes, Al;
    if (S && S->K == Symbol::Var && S->LocalVar &&
        S->Space == StateSpace::Param) {
      Bytes = S->Bytes;
      Al = S->Alignment;
    } else if (S && S->K == Symbol::Reg) {
      // A vector register goes as a .vN value: its elements side by side.
      Bytes = std::max(1u, byteSize(S->Type)) * std::max(1u, S->VectorWidth);
      Al = Bytes;
    } else {
      L.error(E.Loc, "call arguments and results must be .param variables or "
                     "registers ('" + E.Name + "')");
      return false;
    }
    Total = (Total + Al - 1) & ~(Al - 1);
    Out.push_back({&E, S, Total, Bytes});
    Total += Bytes;
    MaxAlign = std::max(MaxAlign, Al);
  }
  return true;
}
} // namespace

/// call[.uni] [(rets),] callee[, (args)][, prototype]. The callee is a
/// function symbol or, for indirect calls, a register holding its address.
static void lowerCall(FunctionLowering &L, const Instruction &I) {
  const auto &Ops = I.Operands;
  const Operand *Rets = nullptr, *Callee = nullptr, *Args = nullptr;
  size_t Idx = 0;
  if (Ops.size() >= 2 && Ops[0].K == Operand::Vector &&
      Ops[1].K != Operand::Vector) {
    Rets = &Ops[0];
    Idx = 1;
  }
  if (Idx >= Ops.size() || Ops[Idx].K == Operand::Vector) {
    L.error(I.Loc, "call without a callee");
    return;
  }
  Callee = &Ops[Idx++];
  if (Idx < Ops.size() && Ops[Idx].K == Operand::Vector)
    Args = &Ops[Idx++];

  Type *Ptr = PointerType::get(L.Ctx, 0);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(L.Ctx), {Ptr, Ptr}, false);
  Value *Target = nullptr;
  Symbol *CS = L.lookup(Callee->Name);
  if (CS && CS->K == Symbol::Reg) {
    Value *Addr = L.readOperand(*Callee, L.B.getInt64Ty(), false);
    if (!Addr)
      return;
    Target = L.B.CreateIntToPtr(Addr, Ptr);
  } else if (llvm::Function *F = L.ML.IR->getFunction(Callee->Name)) {
    if (F->hasFnAttribute("cuhip-kernel")) {
      L.error(Callee->Loc, "'" + Callee->Name + "' is a kernel and cannot be called");
      return;
    }
    Target = F;
  } else {
    L.error(Callee->Loc, "call to undeclared function '" + Callee->Name + "'");
    return;
  }

  SmallVector<CallSlot> ArgSlots, RetSlots;
  uint32_t ArgBytes, ArgAlign, RetBytes, RetAlign;
  if (!layOutCallList(L, Args, ArgSlots, ArgBytes, ArgAlign) ||
      !layOutCallList(L, Rets, RetSlots, RetBytes, RetAlign))
    return;
  auto buffer = [&](uint32_t Bytes, uint32_t Al, const char *Name) {
    AllocaInst *A = L.createSlot(
        ArrayType::get(L.B.getInt8Ty(), std::max(8u, Bytes)), Name);
    A->setAlignment(Align(Al));
    return A;
  };
  AllocaInst *ArgBuf = buffer(ArgBytes, ArgAlign, "call.args");
  AllocaInst *RetBuf = buffer(RetBytes, RetAlign, "call.ret");
  // The registers a slot holds: the register itself, or a vector's
  // elements at their offsets.
  auto registersOf = [&](const CallSlot &S) {
    SmallVector<std::pair<AllocaInst *, uint32_t>, 4> Regs;
    if (!S.Sym->VectorWidth) {
      Regs.push_back({S.Sym->Slot, S.Offset});
      return Regs;
    }
    for (unsigned E = 0; E < S.Sym->VectorWidth; ++E)
      Regs.push_back({L.lookup(vectorElementName(S.Op->Name, E))->Slot,
                      S.Offset + E * std::max(1u, byteSize(S.Sym->Type))});
    return Regs;
  };
  for (const CallSlot &S : ArgSlots) {
    if (S.Sym->K == Symbol::Reg) {
      for (auto [Slot, Off] : registersOf(S))
        L.B.CreateStore(
            L.B.CreateLoad(Slot->getAllocatedType(), Slot),
            L.B.CreateConstInBoundsGEP1_32(L.B.getInt8Ty(), ArgBuf, Off));
      continue;
    }
    Value *Dst = L.B.CreateConstInBoundsGEP1_32(L.B.getInt8Ty(), ArgBuf, S.Offset);
    L.B.CreateMemCpy(Dst, Align(1), S.Sym->LocalVar, Align(1), S.Bytes);
  }
  L.B.CreateCall(FT, Target, {RetBuf, ArgBuf});
  for (const CallSlot &S : RetSlots) {
    if (S.Sym->K == Symbol::Reg) {
      for (auto [Slot, Off] : registersOf(S))
        L.B.CreateStore(
            L.B.CreateLoad(Slot->getAllocatedType(),
                           L.B.CreateConstInBoundsGEP1_32(L.B.getInt8Ty(),
                                                          RetBuf, Off)),
            Slot);
      continue;
    }
    Value *Src = L.B.CreateConstInBoundsGEP1_32(L.B.getInt8Ty(), RetBuf, S.Offset);
    L.B.CreateMemCpy(S.Sym->LocalVar, Align(1), Src, Align(1), S.Bytes);
  }
}

/// trap and brkpt end the kernel with an error; nanosleep only promises a
/// delay of at most its operand.
static void lowerTrap(FunctionLowering &L, const Instruction &I) {
  L.B.CreateIntrinsic(I.Opcode == "brkpt" ? Intrinsic::debugtrap : Intrinsic::trap,
                      ArrayRef<Type *>{}, ArrayRef<Value *>{});
}

static void lowerNanosleep(FunctionLowering &L, const Instruction &I) {
  Value *T = L.read(I, 0, L.B.getInt32Ty(), false);
  if (T)
    L.B.CreateIntrinsic(Intrinsic::nvvm_nanosleep, ArrayRef<Type *>{}, {T});
}

/// griddepcontrol.wait / griddepcontrol.launch_dependents (programmatic
/// dependent launch, sm_90): a launch here starts only once the stream's
/// earlier grids have completed and their memory is visible, so waiting for
/// the prerequisite grids has nothing left to wait for, and letting
/// dependents start early is a hint with nothing to act on.
static void lowerGridDepControl(FunctionLowering &L, const Instruction &I) {
  bool Wait = I.hasModifier("wait");
  if (!I.Operands.empty() ||
      Wait == I.hasModifier("launch_dependents") || I.Modifiers.size() != 1)
    L.unsupported(I, "expected griddepcontrol.wait or "
                     "griddepcontrol.launch_dependents");
}

void registerControlInstructions(OpcodeTable &T) {
  T["bar"] = lowerBarrier;
  T["barrier"] = lowerBarrier;
  T["bra"] = lowerBranch;
  T["ret"] = lowerReturn;
  T["exit"] = lowerReturn;
  T["call"] = lowerCall;
  T["brx"] = lowerIndexedBranch;
  T["trap"] = lowerTrap;
  T["brkpt"] = lowerTrap;
  T["nanosleep"] = lowerNanosleep;
  T["griddepcontrol"] = lowerGridDepControl;
}

} // namespace cuhip::ptx::lower
