//===- LowerMbarrier.cpp - mbarrier and cp.async.mbarrier.arrive ----------===//
//
// Every mbarrier instruction becomes one call to a cuhip.mbarrier.*
// function (Mbarrier.h) with a generic pointer to the object: init, inval,
// arrive (arrive, arrive_drop, their .noComplete and .expect_tx forms,
// expect_tx and complete_tx, which arrive zero times), test_wait and
// try_wait (with the awaited phase's parity: a `state` operand's phase bit,
// or the .parity operand). pending_count reads the state's count field
// directly. The targets expand the calls (ExpandMbarrier.cpp), the host
// target after making every wait a point where the other threads of the
// block run.
//
// cp.async copies at the instruction (LowerMemory.cpp), so by the time a
// cp.async.mbarrier.arrive executes, all of the thread's earlier copies
// have completed: with .noinc it is one arrival, and without, the ISA's
// increment of the pending count and the copies' arrival cancel out.
//
// Clusters are not modelled (a block is its own cluster): .cluster scope
// is accepted, .shared::cluster addresses are reported.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

#include "cuhip/ptx/Mbarrier.h"

namespace cuhip::ptx::lower {

namespace {

using namespace cuhip::ptx::mbarrier;

/// The modifiers after the operation, classified.
struct MbarrierForm {
  bool Shared = false;    // .shared / .shared::cta; otherwise generic
  std::string Sem;        // "", release, acquire, relaxed
  bool NoComplete = false;
  bool ExpectTx = false;
  bool Parity = false;
  bool HasType = false;   // .b64
};

void invalid(FunctionLowering &L, SourceLoc Loc, const Instruction &I,
             const Twine &Why) {
  L.error(Loc, Twine("'") + I.fullName() + "': " + Why);
}

/// Parses I's modifiers after the operation; reports and returns false on
/// one that does not belong to Op.
bool parseForm(FunctionLowering &L, const Instruction &I, StringRef Op,
               MbarrierForm &F) {
  bool IsArrive = Op == "arrive" || Op == "arrive_drop";
  bool IsWait = Op == "test_wait" || Op == "try_wait";
  bool IsTx = Op == "expect_tx" || Op == "complete_tx";
  bool Scope = false;
  for (size_t N = 1; N < I.Modifiers.size(); ++N) {
    StringRef M = I.Modifiers[N];
    if (M == "b64" && !F.HasType) {
      F.HasType = true;
    } else if (parseScalarType(M) != ScalarType::None) {
      invalid(L, I.Loc, I, "mbarrier operations take the type .b64");
      return false;
    } else if ((M == "shared" || M == "shared::cta") && !F.Shared &&
               Op != "pending_count") {
      F.Shared = true;
    } else if (M == "shared::cluster") {
      L.unsupported(I, "cluster shared memory (.shared::cluster) is not "
                       "modelled; kernels run without clusters");
      return false;
    } else if ((M == "cta" || M == "cluster") && !Scope &&
               (IsArrive || IsWait || IsTx)) {
      Scope = true;
    } else if (F.Sem.empty() &&
               ((IsArrive && (M == "release" || M == "relaxed")) ||
                (IsWait && (M == "acquire" || M == "relaxed")) ||
                (IsTx && M == "relaxed"))) {
      F.Sem = M.str();
    } else if (IsArrive && M == "noComplete" && !F.NoComplete) {
      F.NoComplete = true;
    } else if (IsArrive && M == "expect_tx" && !F.ExpectTx) {
      F.ExpectTx = true;
    } else if (IsWait && M == "parity" && !F.Parity) {
      F.Parity = true;
    } else {
      L.unsupported(I, "modifier ." + M.str());
      return false;
    }
  }
  if (!F.HasType) {
    invalid(L, I.Loc, I, "mbarrier operations take the type .b64");
    return false;
  }
  if (F.NoComplete && F.ExpectTx) {
    invalid(L, I.Loc, I, ".noComplete and .expect_tx do not combine");
    return false;
  }
  return true;
}

/// Is O the sink or a register of a kind the instruction can write? Wide:
/// a 64-bit register (a state); otherwise a predicate.
bool checkDestination(FunctionLowering &L, const Instruction &I,
                      const Operand &O, bool Wide, bool SinkOk) {
  if (O.K == Operand::Sink && SinkOk)
    return true;
  Symbol *S = O.K == Operand::Register ? L.lookup(O.Name) : nullptr;
  if (S && S->K == Symbol::Reg &&
      (Wide ? scalarTypeBits(S->Type) == 64 && !isFloat(S->Type)
            : S->Type == ScalarType::Pred))
    return true;
  invalid(L, O.Loc, I,
          Wide ? "the state destination is a 64-bit register or _"
               : "waitComplete is a predicate register");
  return false;
}

/// The object's address as a generic pointer.
Value *objectAddress(FunctionLowering &L, const Instruction &I, unsigned Idx,
                     const MbarrierForm &F) {
  if (Idx >= I.Operands.size() || I.Operands[Idx].K != Operand::Address) {
    invalid(L, Idx < I.Operands.size() ? I.Operands[Idx].Loc : I.Loc, I,
            "expected the mbarrier object's address in brackets");
    return nullptr;
  }
  Type *PtrTy;
  Value *P = L.addressOf(I.Operands[Idx],
                         F.Shared ? StateSpace::Shared : StateSpace::Generic,
                         PtrTy);
  if (!P)
    return nullptr;
  return L.B.CreateAddrSpaceCast(P, L.B.getPtrTy(addrspace::Generic));
}

FunctionCallee mbarrierFunction(FunctionLowering &L, StringRef Name,
                                Type *Ret, ArrayRef<Type *> Params) {
  return L.Fn->getParent()->getOrInsertFunction(
      Name, FunctionType::get(Ret, Params, false));
}

void emitArrive(FunctionLowering &L, Value *Obj, Value *Count, Value *Tx,
                uint32_t Flags, const Operand *Dst) {
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty();
  FunctionCallee Fn = mbarrierFunction(L, ArriveName, B.getInt64Ty(),
                                       {B.getPtrTy(), I32, I32, I32});
  Value *State = B.CreateCall(Fn, {Obj, Count, Tx, B.getInt32(Flags)});
  if (Dst)
    L.write(*Dst, State, false);
}

void lowerMbarrier(FunctionLowering &L, const Instruction &I) {
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  if (I.Modifiers.empty()) {
    L.unsupported(I);
    return;
  }
  StringRef Op = I.Modifiers[0];
  MbarrierForm F;
  auto operands = [&](size_t Min, size_t Max, const char *Form) {
    if (I.Operands.size() >= Min && I.Operands.size() <= Max)
      return true;
    invalid(L, I.Loc, I, Twine("expected ") + Form);
    return false;
  };

  if (Op == "init" || Op == "inval") {
    bool Init = Op == "init";
    if (!parseForm(L, I, Op, F) ||
        !operands(Init ? 2 : 1, Init ? 2 : 1,
                  Init ? "[addr], count" : "[addr]"))
      return;
    Value *Obj = objectAddress(L, I, 0, F);
    if (!Obj)
      return;
    if (!Init) {
      B.CreateCall(mbarrierFunction(L, InvalName, B.getVoidTy(), {B.getPtrTy()}),
                   {Obj});
      return;
    }
    Value *Count = L.read(I, 1, I32, false);
    if (Count)
      B.CreateCall(
          mbarrierFunction(L, InitName, B.getVoidTy(), {B.getPtrTy(), I32}),
          {Obj, Count});
    return;
  }

  if (Op == "arrive" || Op == "arrive_drop") {
    // mbarrier.arrive{.sem}{.scope}{.shared{::cta}}.b64 state, [addr]{, count};
    // mbarrier.arrive.expect_tx... state, [addr], txCount;
    // mbarrier.arrive.noComplete... state, [addr], count;
    // (arrive_drop likewise; state may be the sink _)
    if (!parseForm(L, I, Op, F))
      return;
    bool NeedsThird = F.ExpectTx || F.NoComplete;
    if (!operands(NeedsThird ? 3 : 2, 3,
                  F.ExpectTx     ? "state, [addr], txCount"
                  : F.NoComplete ? "state, [addr], count"
                                 : "state, [addr]{, count}"))
      return;
    const Operand &Dst = I.Operands[0];
    if (!checkDestination(L, I, Dst, /*Wide=*/true, /*SinkOk=*/true))
      return;
    Value *Obj = objectAddress(L, I, 1, F);
    if (!Obj)
      return;
    Value *Count = B.getInt32(1), *Tx = B.getInt32(0);
    if (I.Operands.size() == 3) {
      Value *V = L.read(I, 2, I32, false);
      if (!V)
        return;
      (F.ExpectTx ? Tx : Count) = V;
    }
    uint32_t Flags = (Op == "arrive_drop" ? FlagDrop : 0) |
                     (F.NoComplete ? FlagNoComplete : 0) |
                     (F.Sem == "relaxed" ? FlagRelaxed : 0);
    emitArrive(L, Obj, Count, Tx, Flags, &Dst);
    return;
  }

  if (Op == "expect_tx" || Op == "complete_tx") {
    // mbarrier.{expect,complete}_tx{.relaxed}{.scope}{.space}.b64 [addr], txCount;
    if (!parseForm(L, I, Op, F) || !operands(2, 2, "[addr], txCount"))
      return;
    Value *Obj = objectAddress(L, I, 0, F);
    Value *N = Obj ? L.read(I, 1, I32, false) : nullptr;
    if (!N)
      return;
    // A change of the tx-count alone: no arrival, no memory ordering.
    if (Op == "complete_tx")
      N = B.CreateNeg(N);
    emitArrive(L, Obj, B.getInt32(0), N, FlagRelaxed, nullptr);
    return;
  }

  if (Op == "test_wait" || Op == "try_wait") {
    // mbarrier.test_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64
    //     waitComplete, [addr], state | phaseParity;
    // mbarrier.try_wait... likewise, {, suspendTimeHint}
    bool Try = Op == "try_wait";
    if (!parseForm(L, I, Op, F) ||
        !operands(3, Try ? 4 : 3,
                  F.Parity ? (Try ? "waitComplete, [addr], phaseParity{, "
                                    "suspendTimeHint}"
                                  : "waitComplete, [addr], phaseParity")
                           : (Try ? "waitComplete, [addr], state{, "
                                    "suspendTimeHint}"
                                  : "waitComplete, [addr], state")))
      return;
    if (!checkDestination(L, I, I.Operands[0], /*Wide=*/false,
                          /*SinkOk=*/false))
      return;
    Value *Obj = objectAddress(L, I, 1, F);
    if (!Obj)
      return;
    Value *Parity;
    if (F.Parity) {
      Parity = L.read(I, 2, I32, false);
      if (!Parity)
        return;
      Parity = B.CreateAnd(Parity, 1);
    } else {
      Value *State = L.read(I, 2, I64, false);
      if (!State)
        return;
      Parity = B.CreateTrunc(B.CreateLShr(State, PhaseShift), I32);
    }
    // The time hint only bounds how long a try_wait may suspend; the
    // targets choose their own (shorter) bound.
    if (I.Operands.size() == 4 && !L.read(I, 3, I32, false))
      return;
    FunctionCallee Fn =
        mbarrierFunction(L, Try ? TryWaitName : TestWaitName, B.getInt1Ty(),
                         {B.getPtrTy(), I32, I32});
    Value *Done = B.CreateCall(
        Fn, {Obj, Parity, B.getInt32(F.Sem == "relaxed" ? FlagRelaxed : 0)});
    L.write(I.Operands[0], Done, false);
    return;
  }

  if (Op == "pending_count") {
    // mbarrier.pending_count.b64 count, state;
    if (!parseForm(L, I, Op, F) || !operands(2, 2, "count, state"))
      return;
    Value *State = L.read(I, 1, I64, false);
    if (!State)
      return;
    static_assert(PendingShift == 0, "the count is the state's low bits");
    Value *Pending = B.CreateAnd(State, CountMask);
    L.write(I.Operands[0], B.CreateTrunc(Pending, I32), false);
    return;
  }

  L.unsupported(I, "unknown mbarrier operation");
}

} // namespace

void lowerCpAsyncMbarrierArrive(FunctionLowering &L, const Instruction &I) {
  // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr];
  MbarrierForm F;
  bool NoInc = false, Arrive = false;
  for (size_t N = 2; N < I.Modifiers.size(); ++N) {
    StringRef M = I.Modifiers[N];
    if (M == "arrive" && !Arrive)
      Arrive = true;
    else if (M == "noinc" && Arrive && !NoInc)
      NoInc = true;
    else if ((M == "shared" || M == "shared::cta") && Arrive && !F.Shared)
      F.Shared = true;
    else if (M == "b64" && Arrive && !F.HasType)
      F.HasType = true;
    else if (parseScalarType(M) != ScalarType::None)
      return invalid(L, I.Loc, I, "cp.async.mbarrier.arrive takes the type .b64");
    else {
      L.unsupported(I, "modifier ." + M.str());
      return;
    }
  }
  if (!Arrive || !F.HasType || I.Operands.size() != 1) {
    invalid(L, I.Loc, I,
            "expected cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 "
            "[addr]");
    return;
  }
  Value *Obj = objectAddress(L, I, 0, F);
  if (!Obj || !NoInc)
    return; // the increment and the copies' arrival cancel out
  emitArrive(L, Obj, L.B.getInt32(1), L.B.getInt32(0), 0, nullptr);
}

/// cp.async.bulk, sm_90's bulk copies, with clusters of one block (a
/// .shared::cluster address is then one of the block's own shared memory):
///
///   cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes
///       {.L2::cache_hint} [dst], [src], size, [mbar]{, policy}
///   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
///       [dst], [src], size, [mbar]
///   cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}
///       [dst], [src], size{, policy}
///   cp.async.bulk.commit_group;  cp.async.bulk.wait_group{.read} N;
///   cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [src], size{, policy}
///
/// The copy happens right here, as cp.async's do; the mbarrier forms then
/// complete `size` bytes of the barrier's transaction count with release
/// semantics, so a thread that sees the phase complete sees the data, and
/// the bulk-group waits have nothing left to wait for. Multicast to several
/// blocks and the tensor forms (tensor maps) are refused.
void lowerCpAsyncBulk(FunctionLowering &L, const Instruction &I) {
  IRBuilder<> &B = L.B;
  auto bad = [&](const Twine &Why) { invalid(L, I.Loc, I, Why); };
  const std::vector<std::string> &M = I.Modifiers;
  std::string Op = M.size() > 2 ? M[2] : "";
  if (Op == "commit_group") {
    if (M.size() != 3 || !I.Operands.empty())
      return bad("takes no operands or modifiers");
    return;
  }
  if (Op == "wait_group") {
    if (M.size() > 4 || (M.size() == 4 && M[3] != "read") ||
        I.Operands.size() != 1 || I.Operands[0].K != Operand::IntImm)
      return bad("expected cp.async.bulk.wait_group{.read} N with an integer "
                 "constant N");
    return;
  }
  if (Op == "tensor") {
    L.unsupported(I, "bulk tensor copies (tensor maps) are not implemented");
    return;
  }
  bool CacheHint = false;
  if (Op == "prefetch") {
    for (size_t N = 3; N < M.size(); ++N)
      if (M[N] == "L2::cache_hint")
        CacheHint = true;
      else if (M[N] != "L2" && M[N] != "global") {
        L.unsupported(I, "modifier ." + M[N]);
        return;
      }
    if (I.Operands.size() != 2 + (CacheHint ? 1 : 0) ||
        I.Operands[0].K != Operand::Address)
      return bad("expected [src], size" + Twine(CacheHint ? ", policy" : ""));
    return; // a hint
  }
  // A copy: destination and source spaces, then how it completes.
  auto space = [](const std::string &S) {
    if (S == "shared::cluster" || S == "shared::cta")
      return StateSpace::Shared;
    if (S == "global")
      return StateSpace::Global;
    return StateSpace::Generic; // not a space
  };
  if (M.size() < 5)
    return bad("expected cp.async.bulk.dst.src.completion");
  StateSpace Dst = space(M[2]), Src = space(M[3]);
  bool Mbar = false, Group = false;
  for (size_t N = 4; N < M.size(); ++N) {
    if (M[N] == "mbarrier::complete_tx::bytes" && !Mbar && !Group)
      Mbar = true;
    else if (M[N] == "bulk_group" && !Mbar && !Group)
      Group = true;
    else if (M[N] == "L2::cache_hint" && !CacheHint)
      CacheHint = true;
    else if (M[N] == "multicast::cluster") {
      L.unsupported(I, "multicast to several blocks of a cluster (clusters "
                       "are one block here)");
      return;
    } else {
      L.unsupported(I, "modifier ." + M[N]);
      return;
    }
  }
  bool ToShared = Dst == StateSpace::Shared && Mbar &&
                  (Src == StateSpace::Global ||
                   (Src == StateSpace::Shared && M[2] == "shared::cluster" &&
                    M[3] == "shared::cta"));
  bool ToGlobal = Dst == StateSpace::Global && M[3] == "shared::cta" && Group;
  if (!ToShared && !ToGlobal)
    return bad("expected cp.async.bulk.shared::{cluster,cta}.global or "
               ".shared::cluster.shared::cta with .mbarrier::complete_tx::"
               "bytes, or cp.async.bulk.global.shared::cta.bulk_group");
  size_t Want = (Mbar ? 4 : 3) + (CacheHint ? 1 : 0);
  if (I.Operands.size() != Want || I.Operands[0].K != Operand::Address ||
      I.Operands[1].K != Operand::Address ||
      (Mbar && I.Operands[3].K != Operand::Address))
    return bad(Mbar ? "expected [dst], [src], size, [mbar]" +
                          Twine(CacheHint ? ", policy" : "")
                    : "expected [dst], [src], size" +
                          Twine(CacheHint ? ", policy" : ""));
  Type *DstTy, *SrcTy;
  Value *D = L.addressOf(I.Operands[0], Dst, DstTy);
  Value *S = L.addressOf(I.Operands[1], Src, SrcTy);
  Value *Size = L.read(I, 2, B.getInt32Ty(), false);
  if (!D || !S || !Size)
    return;
  if (CacheHint && !L.read(I, Want - 1, B.getInt64Ty(), false))
    return;
  // Sizes are multiples of 16 and both addresses 16-byte aligned.
  B.CreateMemCpy(D, Align(16), S, Align(16),
                 B.CreateZExt(Size, B.getInt64Ty()));
  if (!Mbar)
    return;
  MbarrierForm F;
  F.Shared = true;
  Value *Obj = objectAddress(L, I, 3, F);
  if (!Obj)
    return;
  emitArrive(L, Obj, B.getInt32(0), B.CreateNeg(Size), 0, nullptr);
}

void registerMbarrierInstructions(OpcodeTable &T) {
  T["mbarrier"] = lowerMbarrier;
}

} // namespace cuhip::ptx::lower
