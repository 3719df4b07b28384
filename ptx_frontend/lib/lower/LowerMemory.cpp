//===- LowerMemory.cpp - Loads, stores, atomics, fences, cp.async ---------===//
//
// ld/ldu/st in every state space, cvta between windows, atom/red, membar/
// fence, prefetch and cp.async. Every modifier is classified: performance
// hints (cache operators, eviction priorities, prefetch sizes, cache
// policies) are accepted and have no effect, anything that changes meaning
// is lowered exactly, and everything else is reported by name.
//
// PTX memory semantics map onto LLVM atomics as follows:
//   .weak (the default)        plain load/store
//   .volatile, .mmio.relaxed   volatile monotonic access, system scope (the
//                              memory model treats volatile as relaxed.sys)
//   .relaxed / .acquire /      monotonic / acquire / release / acq_rel, and
//   .release / .acq_rel        seq_cst for fence.sc and membar
//   scope .cta                 syncscope("block")
//   scope .cluster/.gpu/.sys   the system scope: blocks of a grid run on
//                              different OS threads on the CPU, so every
//                              scope wider than a block must order across
//                              threads. A block's threads never run
//                              concurrently there, so "block" may be as weak
//                              as a compiler barrier.
// Vector accesses are sets of element accesses in the memory model, so an
// ordered vector access becomes one ordered access per element.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Reports malformed PTX as "'<instruction>': <why>" at Loc.
static void invalid(FunctionLowering &L, SourceLoc Loc, const Instruction &I,
                    const Twine &Why) {
  std::string Name = I.fullName();
  L.error(Loc, Twine("'") + Name + "': " + Why);
}

static bool isScopeName(StringRef M) {
  return M == "cta" || M == "cluster" || M == "gpu" || M == "sys";
}

/// The LLVM sync scope of a PTX scope (.cta/.cluster/.gpu/.sys, or the membar
/// levels .cta/.gl/.sys); see the file header for why only .cta is narrowed.
static SyncScope::ID syncScopeOf(FunctionLowering &L, StringRef Scope) {
  if (Scope == "cta")
    return L.Ctx.getOrInsertSyncScopeID("block");
  return SyncScope::System;
}

/// The failure ordering of a compare-exchange whose success ordering is Ord.
static AtomicOrdering casFailureOrdering(AtomicOrdering Ord) {
  switch (Ord) {
  case AtomicOrdering::Release:
    return AtomicOrdering::Monotonic;
  case AtomicOrdering::AcquireRelease:
    return AtomicOrdering::Acquire;
  default:
    return Ord;
  }
}

/// Sets S and returns true if M names a state space. `.shared::cluster` is
/// not one here: it reaches other blocks' shared memory, which needs
/// clusters, and the callers report it.
static bool parseSpaceModifier(StringRef M, StateSpace &S) {
  if (M == "global")
    S = StateSpace::Global;
  else if (M == "shared" || M == "shared::cta")
    S = StateSpace::Shared;
  else if (M == "local")
    S = StateSpace::Local;
  else if (M == "const")
    S = StateSpace::Const;
  else if (M == "param" || M == "param::entry" || M == "param::func")
    S = StateSpace::Param;
  else
    return false;
  return true;
}

static bool isHalfType(ScalarType T) {
  return T == ScalarType::F16 || T == ScalarType::BF16 ||
         T == ScalarType::F16x2 || T == ScalarType::BF16x2;
}

/// The base register or variable of an address operand must exist even where
/// the address is never dereferenced (prefetch).
static bool checkAddressOperand(FunctionLowering &L, const Operand &O) {
  if (O.K != Operand::Address) {
    L.error(O.Loc, "expected an address operand [a]");
    return false;
  }
  if (!O.Name.empty() && !L.lookup(O.Name)) {
    L.error(O.Loc, "use of undeclared identifier '" + O.Name + "'");
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// ld, ldu, st
//===----------------------------------------------------------------------===//

namespace {
/// The qualifiers of one ld/ldu/st, classified.
struct AccessForm {
  StateSpace Space = StateSpace::Generic;
  ScalarType Type = ScalarType::None;
  unsigned Vec = 1;
  std::string Sem; // "", weak, volatile, relaxed, acquire, release
  std::string Scope;
  std::string CacheOp;
  bool Mmio = false, NonCoherent = false, CacheHint = false;
  bool PrefetchSize = false, Eviction = false;
};
} // namespace

/// Classifies the modifiers of ld/ldu/st and checks their combinations
/// against the ISA's syntax; reports and returns false on any violation.
static bool parseAccessForm(FunctionLowering &L, const Instruction &I,
                            bool IsLoad, bool IsLdu, AccessForm &F) {
  bool HaveSpace = false;
  auto bad = [&](const Twine &Why) {
    invalid(L, I.Loc, I, Why);
    return false;
  };
  for (const std::string &M : I.Modifiers) {
    StateSpace S;
    ScalarType T = parseScalarType(M);
    if (T != ScalarType::None) {
      if (F.Type != ScalarType::None)
        return bad("more than one type");
      F.Type = T;
    } else if (parseSpaceModifier(M, S)) {
      if (HaveSpace)
        return bad("more than one state space");
      HaveSpace = true;
      F.Space = S;
    } else if (M == "shared::cluster") {
      L.unsupported(I, "cluster shared memory (.shared::cluster) is not "
                       "modelled; kernels run without clusters");
      return false;
    } else if (M == "weak" || M == "volatile" || M == "relaxed" ||
               (IsLoad && M == "acquire") || (!IsLoad && M == "release")) {
      if (!F.Sem.empty())
        return bad("." + F.Sem + " and ." + M + " are mutually exclusive");
      F.Sem = M;
    } else if (M == "mmio") {
      F.Mmio = true;
    } else if (isScopeName(M)) {
      if (!F.Scope.empty())
        return bad("more than one scope");
      F.Scope = M;
    } else if ((IsLoad && (M == "ca" || M == "cg" || M == "cs" || M == "lu" ||
                           M == "cv")) ||
               (!IsLoad &&
                (M == "wb" || M == "cg" || M == "cs" || M == "wt"))) {
      if (!F.CacheOp.empty())
        return bad("more than one cache operator");
      F.CacheOp = M;
    } else if (IsLoad && M == "nc") {
      F.NonCoherent = true;
    } else if (M == "L1::evict_normal" || M == "L1::evict_unchanged" ||
               M == "L1::evict_first" || M == "L1::evict_last" ||
               M == "L1::no_allocate" || M == "L2::evict_normal" ||
               M == "L2::evict_first" || M == "L2::evict_last") {
      F.Eviction = true;
    } else if (M == "L2::cache_hint") {
      F.CacheHint = true;
    } else if (IsLoad &&
               (M == "L2::64B" || M == "L2::128B" || M == "L2::256B")) {
      F.PrefetchSize = true;
    } else if (M == "v2" || M == "v4" || M == "v8") {
      if (F.Vec != 1)
        return bad("more than one vector width");
      F.Vec = M[1] - '0';
    } else {
      L.unsupported(I, "modifier ." + M);
      return false;
    }
  }

  ScalarType T = F.Type;
  if (T == ScalarType::None)
    return bad("missing the data type");
  if (T == ScalarType::Pred || isHalfType(T))
    return bad("." + std::string(scalarTypeName(T)) +
               " is not a data type of " + I.Opcode +
               " (move half-precision data with .b16 or .b32)");
  bool GlobalOrGeneric =
      F.Space == StateSpace::Global || F.Space == StateSpace::Generic;

  if (IsLdu) {
    if (!GlobalOrGeneric)
      return bad("ldu reads the .global space only");
    if (!F.Sem.empty() || F.Mmio || !F.Scope.empty() || !F.CacheOp.empty() ||
        F.NonCoherent || F.CacheHint || F.PrefetchSize || F.Eviction ||
        F.Vec == 8)
      return bad("ldu takes only a state space, .v2/.v4 and a type");
  }

  // Memory-ordering qualifiers.
  bool Ordered = F.Sem == "relaxed" || F.Sem == "acquire" || F.Sem == "release";
  if (F.Mmio) {
    if (F.Sem != "relaxed" || F.Scope != "sys" || !GlobalOrGeneric ||
        F.Vec != 1 || !F.CacheOp.empty() || F.Eviction || F.CacheHint ||
        F.PrefetchSize || F.NonCoherent)
      return bad(".mmio requires .relaxed.sys on the .global space, without "
                 "vectors or cache qualifiers");
  }
  if (Ordered && F.Scope.empty())
    return bad("." + F.Sem + " requires a scope (.cta, .cluster, .gpu, .sys)");
  if (!Ordered && !F.Scope.empty())
    return bad(IsLoad ? "a scope needs .relaxed or .acquire"
                      : "a scope needs .relaxed or .release");
  if ((Ordered || F.Sem == "volatile") && F.Space != StateSpace::Global &&
      F.Space != StateSpace::Shared && F.Space != StateSpace::Generic &&
      // nvcc emits .volatile for volatile automatic variables; .local is
      // private to the thread, so a volatile access is all it can mean.
      !(F.Sem == "volatile" && F.Space == StateSpace::Local))
    return bad("." + F.Sem + " applies to the .global and .shared spaces only");
  if ((Ordered || F.Sem == "volatile") && !F.CacheOp.empty())
    return bad("cache operators are not permitted with ." + F.Sem);
  if (F.Sem == "volatile" && (F.Eviction || F.CacheHint))
    return bad("eviction priorities and cache hints are not permitted with "
               ".volatile");
  if (!F.CacheOp.empty() && F.Eviction)
    return bad("a cache operator and an eviction priority are exclusive");

  if (F.NonCoherent) {
    if (F.Space != StateSpace::Global)
      return bad(".nc loads read the .global space only");
    if (!F.Sem.empty() && F.Sem != "weak")
      return bad(".nc loads are weak");
    if (!F.CacheOp.empty() && F.CacheOp != "ca" && F.CacheOp != "cg" &&
        F.CacheOp != "cs")
      return bad(".nc takes the cache operators .ca, .cg and .cs only");
  }
  if ((F.CacheHint || F.PrefetchSize) && !GlobalOrGeneric)
    return bad(".L2::cache_hint and prefetch sizes apply to .global only");

  // Vector shapes: up to 128 bits, and the 256-bit .v8 (32-bit elements) and
  // .v4 (64-bit elements) forms on .global.
  unsigned Bits = scalarTypeBits(T);
  if (F.Vec != 1) {
    if (T == ScalarType::B128)
      return bad(".b128 cannot be a vector element");
    bool Wide = (F.Vec == 8 && Bits == 32) || (F.Vec == 4 && Bits == 64);
    if (F.Vec == 8 && Bits != 32)
      return bad(".v8 takes 32-bit element types only");
    if (Wide && IsLdu)
      return bad("ldu vectors hold at most 128 bits");
    if (Wide && !GlobalOrGeneric)
      return bad("256-bit vectors are supported on the .global space only");
  }

  if (!IsLoad && F.Space == StateSpace::Const)
    return bad("stores to the .const space are illegal");
  // st.param writes a call's arguments or a .func's return values; both
  // are the thread's own buffers (see lowerCall in LowerControl.cpp).
  if (!IsLoad && F.Space == StateSpace::Param && L.PF.IsEntry &&
      I.Operands[0].K == Operand::Address) {
    Symbol *S = L.lookup(I.Operands[0].Name);
    if (S && S->K == Symbol::Param)
      return bad("a kernel's parameters are read-only");
  }
  if (F.Space == StateSpace::Param && !F.Sem.empty() && F.Sem != "weak")
    return bad(".param accesses are weak");
  return true;
}

/// Checks a data register of ld/st against the ISA's relaxed operand-size
/// rules: the register may be wider than the instruction type (bit-size and
/// integer data are then extended or truncated), never narrower; float
/// registers take only bit-size or same-size float types, and float types
/// take only bit-size or same-size float registers.
static bool checkDataRegister(FunctionLowering &L, const Instruction &I,
                              const Operand &O, ScalarType T) {
  if (O.K != Operand::Register)
    return true;
  Symbol *S = L.lookup(O.Name);
  if (!S || S->K != Symbol::Reg)
    return true; // special registers and addresses: read() handles them
  ScalarType RT = S->Type;
  auto bad = [&](const Twine &Why) {
    invalid(L, O.Loc, I,
            "register '" + O.Name + "' (." + std::string(scalarTypeName(RT)) +
                ") " + Why);
    return false;
  };
  if (RT == ScalarType::Pred)
    return bad("cannot hold memory data");
  if (scalarTypeBits(RT) < scalarTypeBits(T))
    return bad("is narrower than ." + std::string(scalarTypeName(T)));
  bool SameSize = scalarTypeBits(RT) == scalarTypeBits(T);
  if (isFloat(RT) && !isBitType(T) && !(isFloat(T) && SameSize))
    return bad("can hold only bit-size data or ." +
               std::string(scalarTypeName(RT)));
  if (isFloat(T) && !isBitType(RT) && !(isFloat(RT) && SameSize))
    return bad("cannot hold ." + std::string(scalarTypeName(T)) +
               " data; use a bit-size register");
  return true;
}

static void lowerLoadStore(FunctionLowering &L, const Instruction &I,
                           bool IsLoad, bool IsLdu) {
  AccessForm F;
  if (!parseAccessForm(L, I, IsLoad, IsLdu, F))
    return;
  unsigned WantOps = F.CacheHint ? 3 : 2;
  if (I.Operands.size() != WantOps) {
    invalid(L, I.Loc, I,
            "takes " + Twine(WantOps) + " operands" +
                (F.CacheHint ? " (the last is the cache policy)" : ""));
    return;
  }
  // The cache policy is a hint; it is read only to validate it.
  if (F.CacheHint && !L.read(I, 2, L.B.getInt64Ty(), false))
    return;

  ScalarType T = F.Type;
  const Operand &AddrOp = I.Operands[IsLoad ? 1 : 0];
  const Operand &DataOp = I.Operands[IsLoad ? 0 : 1];
  if (AddrOp.K != Operand::Address) {
    invalid(L, AddrOp.Loc, I, "needs an address [a]");
    return;
  }
  SmallVector<const Operand *, 8> Elems;
  if (F.Vec == 1) {
    if (DataOp.K == Operand::Vector || DataOp.K == Operand::Sink) {
      invalid(L, DataOp.Loc, I, "needs a scalar operand");
      return;
    }
    Elems.push_back(&DataOp);
  } else {
    if (DataOp.K != Operand::Vector || DataOp.Elements.size() != F.Vec) {
      invalid(L, DataOp.Loc, I,
              "needs a {...} operand of " + Twine(F.Vec) + " elements");
      return;
    }
    for (const Operand &E : DataOp.Elements)
      Elems.push_back(&E);
  }
  bool HasSink = false;
  for (const Operand *E : Elems) {
    if (E->K == Operand::Sink) {
      HasSink = true;
      continue;
    }
    if (IsLoad && E->K != Operand::Register) {
      invalid(L, E->Loc, I, "loads into registers only");
      return;
    }
    if (!checkDataRegister(L, I, *E, T))
      return;
  }

  // Ordering and the LLVM access it becomes.
  AtomicOrdering Ord = AtomicOrdering::NotAtomic;
  SyncScope::ID SSID = SyncScope::System;
  bool Volatile = F.Sem == "volatile" || F.Mmio;
  if (F.Sem == "relaxed")
    Ord = AtomicOrdering::Monotonic;
  else if (F.Sem == "acquire")
    Ord = AtomicOrdering::Acquire;
  else if (F.Sem == "release")
    Ord = AtomicOrdering::Release;
  else if (Volatile && F.Space != StateSpace::Local)
    Ord = AtomicOrdering::Monotonic;
  if (!F.Scope.empty())
    SSID = syncScopeOf(L, F.Scope);
  // Read-only data: .nc and ldu promise it, and a kernel's parameters and
  // .const memory cannot be written while it runs. The .param variables of
  // call sequences and .func parameters are rewritten for every call.
  bool KernelParam = false;
  if (F.Space == StateSpace::Param && L.PF.IsEntry && !AddrOp.Name.empty()) {
    Symbol *S = L.lookup(AddrOp.Name);
    KernelParam = S && S->K == Symbol::Param;
  }
  bool Invariant =
      F.NonCoherent || IsLdu || KernelParam || F.Space == StateSpace::Const;

  Type *PtrTy;
  Value *Ptr = L.addressOf(AddrOp, F.Space, PtrTy);
  if (!Ptr)
    return;
  Type *ElemTy = llvmType(L.Ctx, T);
  unsigned Bytes = byteSize(T);
  Align VecAlign(uint64_t(Bytes) * F.Vec);
  bool Signed = isSignedInt(T);
  auto markInvariant = [&](LoadInst *Ld) {
    if (Invariant)
      Ld->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(L.Ctx, {}));
  };
  auto *VTy = FixedVectorType::get(ElemTy, F.Vec);
  // A whole vector's elements into their registers (sinks are skipped), and
  // the data registers into one vector (null after an operand error).
  auto unpack = [&](Value *V) {
    for (unsigned E = 0; E < F.Vec; ++E)
      if (Elems[E]->K != Operand::Sink)
        L.write(*Elems[E], L.B.CreateExtractElement(V, E), Signed);
  };
  auto pack = [&]() -> Value * {
    Value *V = PoisonValue::get(VTy);
    for (unsigned E = 0; E < F.Vec; ++E) {
      Value *X = L.readOperand(*Elems[E], ElemTy, Signed);
      if (!X)
        return nullptr;
      V = L.B.CreateInsertElement(V, X, E);
    }
    return V;
  };

  // A weak vector without sinks is one vector access.
  if (F.Vec > 1 && Ord == AtomicOrdering::NotAtomic && !Volatile && !HasSink) {
    if (IsLoad) {
      LoadInst *Ld = L.B.CreateAlignedLoad(VTy, Ptr, VecAlign);
      markInvariant(Ld);
      unpack(Ld);
    } else if (Value *V = pack()) {
      L.B.CreateAlignedStore(V, Ptr, VecAlign);
    }
    return;
  }

  // A relaxed, acquire, release or volatile vector of at most 16 bytes is
  // one access, as the hardware makes it: programs rely on it being
  // single-copy atomic (CUB's decoupled look-back publishes a tile's status
  // and value together with st.relaxed.gpu.v2 and reads them with
  // ld.relaxed.gpu.v2; element by element, a reader could see the new
  // status with the old value). Up to 8 bytes it is an atomic integer
  // access; 16 bytes is one volatile vector access (a single aligned
  // instruction on both targets) with the ordering as fences around it.
  unsigned VecBytes = Bytes * F.Vec;
  // A store with sinks leaves those elements alone, so it stays per element.
  if (F.Vec > 1 && (Ord != AtomicOrdering::NotAtomic || Volatile) &&
      VecBytes <= 16 && isPowerOf2_32(VecBytes) && (IsLoad || !HasSink)) {
    bool Whole = VecBytes <= 8;
    Type *IntTy = L.B.getIntNTy(VecBytes * 8);
    AtomicOrdering AccessOrd =
        Ord == AtomicOrdering::NotAtomic ? AtomicOrdering::Monotonic : Ord;
    if (IsLoad) {
      LoadInst *Ld = L.B.CreateAlignedLoad(Whole ? IntTy : VTy, Ptr, VecAlign,
                                           Volatile || !Whole);
      markInvariant(Ld);
      if (Whole)
        Ld->setAtomic(AccessOrd, SSID);
      else if (Ord == AtomicOrdering::Acquire)
        L.B.CreateFence(AtomicOrdering::Acquire, SSID);
      unpack(Whole ? L.B.CreateBitCast(Ld, VTy) : Ld);
      return;
    }
    Value *V = pack();
    if (!V)
      return;
    if (Whole) {
      StoreInst *St = L.B.CreateAlignedStore(L.B.CreateBitCast(V, IntTy), Ptr,
                                             VecAlign, Volatile);
      St->setAtomic(AccessOrd, SSID);
      return;
    }
    if (Ord == AtomicOrdering::Release)
      L.B.CreateFence(AtomicOrdering::Release, SSID);
    L.B.CreateAlignedStore(V, Ptr, VecAlign, true);
    return;
  }

  // Otherwise one access per element; sinks are neither read nor written.
  for (unsigned E = 0; E < F.Vec; ++E) {
    if (Elems[E]->K == Operand::Sink)
      continue;
    Value *EP = E == 0 ? Ptr
                       : L.B.CreateConstInBoundsGEP1_64(L.B.getInt8Ty(), Ptr,
                                                        uint64_t(E) * Bytes);
    Align A = commonAlignment(VecAlign, uint64_t(E) * Bytes);
    if (IsLoad) {
      LoadInst *Ld = L.B.CreateAlignedLoad(ElemTy, EP, A, Volatile);
      if (Ord != AtomicOrdering::NotAtomic)
        Ld->setAtomic(Ord, SSID);
      markInvariant(Ld);
      L.write(*Elems[E], Ld, Signed);
    } else {
      Value *X = L.readOperand(*Elems[E], ElemTy, Signed);
      if (!X)
        return;
      StoreInst *St = L.B.CreateAlignedStore(X, EP, A, Volatile);
      if (Ord != AtomicOrdering::NotAtomic)
        St->setAtomic(Ord, SSID);
    }
  }
}

//===----------------------------------------------------------------------===//
// cvta
//===----------------------------------------------------------------------===//

/// cvta converts between a state space's window address and a generic one.
/// Global, const and param windows coincide with generic addresses; shared
/// and local go through an addrspacecast so each target can place its
/// windows.
static void lowerCvta(FunctionLowering &L, const Instruction &I) {
  bool ToSpace = false, HaveSpace = false;
  StateSpace Space = StateSpace::Generic;
  ScalarType T = ScalarType::None;
  for (const std::string &M : I.Modifiers) {
    StateSpace S;
    if (M == "to" && !ToSpace) {
      ToSpace = true;
    } else if (parseSpaceModifier(M, S) && !HaveSpace && M != "param::func") {
      Space = S;
      HaveSpace = true;
    } else if ((M == "u32" || M == "u64") && T == ScalarType::None) {
      T = parseScalarType(M);
    } else if (M == "shared::cluster") {
      L.unsupported(I, "cluster shared memory (.shared::cluster) is not "
                       "modelled; kernels run without clusters");
      return;
    } else {
      invalid(L, I.Loc, I,
              "unexpected modifier ." + M +
                  " (expected cvta[.to].space.{u32,u64})");
      return;
    }
  }
  if (!HaveSpace || T == ScalarType::None || I.Operands.size() != 2) {
    invalid(L, I.Loc, I, "expected cvta[.to].space.size d, a");
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
    R = L.B.CreatePtrToInt(
        L.B.CreateAddrSpaceCast(P, PointerType::get(L.Ctx, ToAS)), Ty);
  }
  L.write(I.Operands[0], R, false);
}

//===----------------------------------------------------------------------===//
// atom, red
//===----------------------------------------------------------------------===//

/// Atomically replaces the IntTy-sized word at Ptr by Update(old bits) with a
/// compare-exchange loop; returns the old bits. Used where LLVM has no
/// read-modify-write operation with PTX's exact semantics.
static Value *emitCasLoop(FunctionLowering &L, Value *Ptr, Type *IntTy, Align A,
                          AtomicOrdering Ord, SyncScope::ID SSID,
                          function_ref<Value *(Value *)> Update) {
  IRBuilder<> &B = L.B;
  LoadInst *Init = B.CreateAlignedLoad(IntTy, Ptr, A, "atom.init");
  Init->setAtomic(AtomicOrdering::Monotonic, SSID);
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(L.Ctx, "atom.loop", L.Fn);
  BasicBlock *Done = BasicBlock::Create(L.Ctx, "atom.done", L.Fn);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Old = B.CreatePHI(IntTy, 2, "atom.old");
  Old->addIncoming(Init, Pre);
  Value *New = Update(Old);
  auto *X = B.CreateAtomicCmpXchg(Ptr, Old, New, A, Ord,
                                  casFailureOrdering(Ord), SSID);
  Value *Seen = B.CreateExtractValue(X, 0);
  Old->addIncoming(Seen, B.GetInsertBlock());
  B.CreateCondBr(B.CreateExtractValue(X, 1), Done, Loop);
  B.SetInsertPoint(Done);
  return Seen;
}

/// bf16 <-> f32 by bit manipulation: widening is exact, and narrowing rounds
/// to nearest even in integer arithmetic, so the result does not depend on
/// how the host CPU converts (x86's VCVTNEPS2BF16 treats subnormals as zero).
static Value *bf16BitsToFloat(IRBuilder<> &B, Value *Bits16) {
  return B.CreateBitCast(B.CreateShl(B.CreateZExt(Bits16, B.getInt32Ty()), 16),
                         B.getFloatTy());
}

static Value *floatToBF16Bits(IRBuilder<> &B, Value *F) {
  Value *Bits = B.CreateBitCast(F, B.getInt32Ty());
  Value *Lsb = B.CreateAnd(B.CreateLShr(Bits, 16), 1);
  Value *Rounded =
      B.CreateLShr(B.CreateAdd(B.CreateAdd(Bits, B.getInt32(0x7fff)), Lsb), 16);
  Value *QuietNaN = B.CreateOr(B.CreateLShr(Bits, 16), 0x40);
  Value *R = B.CreateSelect(B.CreateFCmpUNO(F, F), QuietNaN, Rounded);
  return B.CreateTrunc(R, B.getInt16Ty());
}

/// The sum of two bf16 values given as bits, rounded to nearest even. f32
/// has more than twice bf16's precision plus two bits, so rounding the f32
/// sum again gives the correctly rounded bf16 sum.
static Value *addBF16Bits(IRBuilder<> &B, Value *X, Value *Y) {
  return floatToBF16Bits(
      B, B.CreateFAdd(bf16BitsToFloat(B, X), bf16BitsToFloat(B, Y)));
}

/// The sum of two f16 values given as bits; LLVM's half addition rounds to
/// nearest even (directly, or through f32, which is exact for the same
/// reason as above).
static Value *addHalfBits(IRBuilder<> &B, Value *X, Value *Y) {
  Type *H = B.getHalfTy();
  return B.CreateBitCast(
      B.CreateFAdd(B.CreateBitCast(X, H), B.CreateBitCast(Y, H)),
      B.getInt16Ty());
}

/// Element-wise sum of two packed pairs (f16x2 / bf16x2) given as i32 bits.
static Value *addPairBits(IRBuilder<> &B, Value *X, Value *Y, bool IsBF16) {
  Value *R = B.getInt32(0);
  for (unsigned Half = 0; Half < 2; ++Half) {
    auto part = [&](Value *V) {
      return B.CreateTrunc(B.CreateLShr(V, 16 * Half), B.getInt16Ty());
    };
    Value *S = IsBF16 ? addBF16Bits(B, part(X), part(Y))
                      : addHalfBits(B, part(X), part(Y));
    R = B.CreateOr(R, B.CreateShl(B.CreateZExt(S, B.getInt32Ty()), 16 * Half));
  }
  return R;
}

namespace {
struct AtomicForm {
  StateSpace Space = StateSpace::Generic;
  ScalarType Type = ScalarType::None;
  std::string Op, Sem, Scope;
  unsigned Vec = 1;
  bool NoFtz = false, CacheHint = false;
};
} // namespace

/// Whether the ISA defines the scalar operation Op on type T; NeedsNoFtz is
/// set for the half-precision adds, which must say .noftz.
static bool atomicTypeAllowed(StringRef Op, ScalarType T, bool &NeedsNoFtz) {
  using ST = ScalarType;
  NeedsNoFtz = false;
  if (Op == "and" || Op == "or" || Op == "xor")
    return T == ST::B32 || T == ST::B64;
  if (Op == "exch")
    return T == ST::B32 || T == ST::B64 || T == ST::B128;
  if (Op == "cas")
    return T == ST::B16 || T == ST::B32 || T == ST::B64 || T == ST::B128;
  if (Op == "inc" || Op == "dec")
    return T == ST::U32;
  if (Op == "min" || Op == "max")
    return T == ST::U32 || T == ST::S32 || T == ST::U64 || T == ST::S64;
  if (Op == "add") {
    NeedsNoFtz = isHalfType(T);
    return T == ST::U32 || T == ST::S32 || T == ST::U64 || T == ST::F32 ||
           T == ST::F64 || NeedsNoFtz;
  }
  return false;
}

/// Lowers one element of atom/red: *Ptr = Op(*Ptr, V[, C]), returning the
/// old value (as the instruction type's LLVM type), or null after a
/// diagnostic.
static Value *emitAtomicElement(FunctionLowering &L, const Instruction &I,
                                const AtomicForm &F, Value *Ptr, Value *V,
                                Value *C, AtomicOrdering Ord,
                                SyncScope::ID SSID) {
  IRBuilder<> &B = L.B;
  ScalarType T = F.Type;
  Type *Ty = llvmType(L.Ctx, T);
  Align A(byteSize(T));
  const std::string &Op = F.Op;
  if (Op == "cas") {
    auto *X =
        B.CreateAtomicCmpXchg(Ptr, V, C, A, Ord, casFailureOrdering(Ord), SSID);
    return B.CreateExtractValue(X, 0);
  }
  // The ISA: atom/red.add.f32 on global memory flushes subnormal inputs and
  // results to sign-preserving zero, on shared memory it keeps them. Vector
  // forms address global memory whatever their space says. A scalar generic
  // address could be either, and the host cannot tell which without an
  // isspacep query, so it gets the ISA's plain round-to-nearest addition.
  bool GlobalMemory = F.Space == StateSpace::Global || F.Vec > 1;
  if (T == ScalarType::F32 && Op == "add" && GlobalMemory) {
    Value *Bf = L.flush(V);
    Value *Old =
        emitCasLoop(L, Ptr, B.getInt32Ty(), A, Ord, SSID, [&](Value *OldBits) {
          Value *O = L.flush(B.CreateBitCast(OldBits, B.getFloatTy()));
          return B.CreateBitCast(L.flush(B.CreateFAdd(O, Bf)), B.getInt32Ty());
        });
    return B.CreateBitCast(Old, Ty);
  }
  if (T == ScalarType::F16 || T == ScalarType::BF16) {
    Value *VBits = B.CreateBitCast(V, B.getInt16Ty());
    bool IsBF16 = T == ScalarType::BF16;
    Value *Old =
        emitCasLoop(L, Ptr, B.getInt16Ty(), A, Ord, SSID, [&](Value *OldBits) {
          return IsBF16 ? addBF16Bits(B, OldBits, VBits)
                        : addHalfBits(B, OldBits, VBits);
        });
    return B.CreateBitCast(Old, Ty);
  }
  if (T == ScalarType::F16x2 || T == ScalarType::BF16x2) {
    bool IsBF16 = T == ScalarType::BF16x2;
    return emitCasLoop(
        L, Ptr, B.getInt32Ty(), A, Ord, SSID,
        [&](Value *OldBits) { return addPairBits(B, OldBits, V, IsBF16); });
  }
  bool Signed = isSignedInt(T);
  AtomicRMWInst::BinOp BO;
  if (Op == "add")
    BO = isFloat(T) ? AtomicRMWInst::FAdd : AtomicRMWInst::Add;
  else if (Op == "min")
    BO = Signed ? AtomicRMWInst::Min : AtomicRMWInst::UMin;
  else if (Op == "max")
    BO = Signed ? AtomicRMWInst::Max : AtomicRMWInst::UMax;
  else if (Op == "and")
    BO = AtomicRMWInst::And;
  else if (Op == "or")
    BO = AtomicRMWInst::Or;
  else if (Op == "xor")
    BO = AtomicRMWInst::Xor;
  else if (Op == "exch")
    BO = AtomicRMWInst::Xchg;
  else if (Op == "inc") // (old >= b) ? 0 : old + 1
    BO = AtomicRMWInst::UIncWrap;
  else if (Op == "dec") // (old == 0 || old > b) ? b : old - 1
    BO = AtomicRMWInst::UDecWrap;
  else {
    L.unsupported(I);
    return nullptr;
  }
  return B.CreateAtomicRMW(BO, Ptr, V, A, Ord, SSID);
}

static void lowerAtomic(FunctionLowering &L, const Instruction &I, bool IsRed) {
  static const char *const Ops[] = {"and", "or",  "xor", "cas", "exch",
                                    "add", "inc", "dec", "min", "max"};
  AtomicForm F;
  bool HaveSpace = false;
  auto bad = [&](const Twine &Why) { invalid(L, I.Loc, I, Why); };
  for (const std::string &M : I.Modifiers) {
    StateSpace S;
    ScalarType T = parseScalarType(M);
    if (T != ScalarType::None) {
      if (F.Type != ScalarType::None)
        return bad("more than one type");
      F.Type = T;
    } else if (parseSpaceModifier(M, S) && !HaveSpace) {
      if (S != StateSpace::Global && S != StateSpace::Shared)
        return bad(I.Opcode + " works on the .global and .shared spaces only");
      F.Space = S;
      HaveSpace = true;
    } else if (M == "shared::cluster") {
      L.unsupported(I, "cluster shared memory (.shared::cluster) is not "
                       "modelled; kernels run without clusters");
      return;
    } else if (M == "relaxed" || M == "release" || M == "acquire" ||
               M == "acq_rel") {
      if (IsRed && (M == "acquire" || M == "acq_rel"))
        return bad("red has no result to acquire; it takes .relaxed or "
                   ".release");
      if (!F.Sem.empty())
        return bad("more than one memory order");
      F.Sem = M;
    } else if (isScopeName(M)) {
      if (!F.Scope.empty())
        return bad("more than one scope");
      F.Scope = M;
    } else if (llvm::is_contained(Ops, StringRef(M)) && F.Op.empty()) {
      F.Op = M;
    } else if (M == "noftz") {
      F.NoFtz = true;
    } else if (M == "L2::cache_hint") {
      F.CacheHint = true;
    } else if ((M == "v2" || M == "v4" || M == "v8") && F.Vec == 1) {
      F.Vec = M[1] - '0';
    } else {
      L.unsupported(I, "modifier ." + M);
      return;
    }
  }
  if (F.Op.empty() || F.Type == ScalarType::None)
    return bad("expected an operation and a type");
  ScalarType T = F.Type;
  bool NeedsNoFtz;
  if (F.Vec == 1) {
    if (!atomicTypeAllowed(F.Op, T, NeedsNoFtz) || (IsRed && F.Op == "cas") ||
        (IsRed && F.Op == "exch"))
      return bad("the ISA does not define ." + F.Op + " on ." +
                 std::string(scalarTypeName(T)) + " for " + I.Opcode);
  } else {
    // sm_90 vector forms, .global only: add.f32 (.v2/.v4), and .noftz
    // add/min/max on f16/bf16 (.v2/.v4/.v8) and f16x2/bf16x2 (.v2/.v4).
    bool Half = T == ScalarType::F16 || T == ScalarType::BF16;
    bool Packed = T == ScalarType::F16x2 || T == ScalarType::BF16x2;
    bool Ok = (T == ScalarType::F32 && F.Op == "add" && F.Vec <= 4) ||
              (Half && (F.Op == "add" || F.Op == "min" || F.Op == "max")) ||
              (Packed && F.Vec <= 4 &&
               (F.Op == "add" || F.Op == "min" || F.Op == "max"));
    if (!Ok)
      return bad("the ISA defines no vector form ." + F.Op + ".v" +
                 std::to_string(F.Vec) + "." + std::string(scalarTypeName(T)));
    if (F.Space == StateSpace::Shared)
      return bad("vector " + I.Opcode + " works on the .global space only");
    NeedsNoFtz = Half || Packed;
    if (F.Op != "add") {
      L.unsupported(I, "the ISA does not state how vector atomic min/max "
                       "treat NaN and signed zeros");
      return;
    }
  }
  if (NeedsNoFtz != F.NoFtz)
    return bad(NeedsNoFtz ? "half-precision adds require .noftz"
                          : ".noftz applies to half-precision adds only");
  // Operands: [d,] [a], b [, c] [, cache-policy].
  unsigned First = IsRed ? 0 : 1;
  unsigned Want = First + 2 + (F.Op == "cas" ? 1 : 0) + (F.CacheHint ? 1 : 0);
  if (I.Operands.size() != Want) {
    bad("expected " + std::to_string(Want) + " operands");
    return;
  }
  if (F.CacheHint && !L.read(I, Want - 1, L.B.getInt64Ty(), false))
    return;
  const Operand &AddrOp = I.Operands[First];
  if (AddrOp.K != Operand::Address)
    return bad("expected an address [a]");

  AtomicOrdering Ord = AtomicOrdering::Monotonic;
  if (F.Sem == "acquire")
    Ord = AtomicOrdering::Acquire;
  else if (F.Sem == "release")
    Ord = AtomicOrdering::Release;
  else if (F.Sem == "acq_rel")
    Ord = AtomicOrdering::AcquireRelease;
  SyncScope::ID SSID = syncScopeOf(L, F.Scope.empty() ? "gpu" : F.Scope);

  Type *PtrTy;
  Value *Ptr = L.addressOf(AddrOp, F.Space, PtrTy);
  if (!Ptr)
    return;
  Type *Ty = llvmType(L.Ctx, T);
  bool Signed = isSignedInt(T);
  unsigned Bytes = byteSize(T);

  if (F.Vec == 1) {
    Value *V = L.read(I, First + 1, Ty, Signed);
    Value *C = F.Op == "cas" ? L.read(I, First + 2, Ty, Signed) : nullptr;
    if (!V || (F.Op == "cas" && !C))
      return;
    Value *Old = emitAtomicElement(L, I, F, Ptr, V, C, Ord, SSID);
    if (Old && !IsRed)
      L.write(I.Operands[0], Old, Signed);
    return;
  }
  // Vector forms are atomic per element (the ISA guarantees no more).
  const Operand &BOp = I.Operands[First + 1];
  if (BOp.K != Operand::Vector || BOp.Elements.size() != F.Vec ||
      (!IsRed && (I.Operands[0].K != Operand::Vector ||
                  I.Operands[0].Elements.size() != F.Vec)))
    return bad("the data operands must be {...} vectors of " +
               std::to_string(F.Vec) + " elements");
  for (unsigned E = 0; E < F.Vec; ++E) {
    Value *V = L.readOperand(BOp.Elements[E], Ty, false);
    if (!V)
      return;
    Value *EP = E == 0 ? Ptr
                       : L.B.CreateConstInBoundsGEP1_64(L.B.getInt8Ty(), Ptr,
                                                        uint64_t(E) * Bytes);
    Value *Old = emitAtomicElement(L, I, F, EP, V, nullptr, Ord, SSID);
    if (!Old)
      return;
    if (!IsRed)
      L.write(I.Operands[0].Elements[E], Old, false);
  }
}

//===----------------------------------------------------------------------===//
// membar, fence
//===----------------------------------------------------------------------===//

/// membar.{cta,gl,sys} is fence.sc at the matching scope (sm_70 and later).
/// Thread fences become LLVM fences. Proxy fences order accesses made
/// through different proxies (virtual aliases, the async and tensormap
/// proxies); on the host all of them are the same coherent memory seen in
/// program order, so a bi-directional proxy fence only has to keep the
/// compiler from moving this thread's accesses across it, and the
/// uni-directional .release/.acquire forms are release/acquire fences.
static void lowerFence(FunctionLowering &L, const Instruction &I) {
  bool IsMembar = I.Opcode == "membar";
  auto bad = [&](const Twine &Why) { invalid(L, I.Loc, I, Why); };
  if (I.hasModifier("proxy")) {
    std::string Sem, Scope, Kind;
    bool Uni = false;
    for (size_t N = 0; N < I.Modifiers.size(); ++N) {
      const std::string &M = I.Modifiers[N];
      if (M == "proxy")
        continue;
      if (M == "alias" || M == "async") {
        Kind = M;
      } else if (Kind == "async" && (M == "global" || M == "shared::cta" ||
                                     M == "shared::cluster")) {
        // .async.{global,shared::cta,shared::cluster}: limits the ordering
        // to one state space.
      } else if (M == "tensormap::generic" || M == "async::generic") {
        Kind = M;
        Uni = true;
      } else if (M == "release" || M == "acquire") {
        Sem = M;
      } else if (isScopeName(M)) {
        Scope = M;
      } else if (M == "sync_restrict::shared::cluster" ||
                 M == "sync_restrict::shared::cta") {
        // Narrows the effect to shared memory; a full fence is stronger.
      } else {
        L.unsupported(I, "modifier ." + M);
        return;
      }
    }
    if (Kind.empty())
      return bad("expected a proxy kind");
    if (Uni != !Sem.empty() || Uni != !Scope.empty())
      return bad(Uni ? "uni-directional proxy fences need .release or "
                       ".acquire and a scope"
                     : "bi-directional proxy fences take no order or scope");
    if (IsMembar && Uni)
      return bad("membar.proxy takes a bi-directional proxy kind");
    // fence.proxy.tensormap::generic.acquire.scope [addr], 128.
    if (!I.Operands.empty()) {
      if (Kind != "tensormap::generic" || Sem != "acquire" ||
          I.Operands.size() != 2 || !checkAddressOperand(L, I.Operands[0]) ||
          I.Operands[1].K != Operand::IntImm || I.Operands[1].IntValue != 128)
        return bad("only the tensormap acquire fence takes operands, "
                   "[addr], 128");
    }
    if (!Uni) {
      L.B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                      SyncScope::SingleThread);
      return;
    }
    L.B.CreateFence(Sem == "release" ? AtomicOrdering::Release
                                     : AtomicOrdering::Acquire,
                    syncScopeOf(L, Scope));
    return;
  }

  if (!I.Operands.empty())
    return bad("takes no operands");
  if (IsMembar) {
    if (I.Modifiers.size() != 1 ||
        (I.Modifiers[0] != "cta" && I.Modifiers[0] != "gl" &&
         I.Modifiers[0] != "sys"))
      return bad("expected membar.{cta,gl,sys}");
    L.B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                    syncScopeOf(L, I.Modifiers[0]));
    return;
  }
  // fence{.sem}.scope, fence.{acquire,release}.sync_restrict::...cluster,
  // fence.mbarrier_init.release.cluster.
  std::string Sem, Scope;
  for (const std::string &M : I.Modifiers) {
    if ((M == "sc" || M == "acq_rel" || M == "acquire" || M == "release") &&
        Sem.empty())
      Sem = M;
    else if (isScopeName(M) && Scope.empty())
      Scope = M;
    else if (M == "sync_restrict::shared::cta" ||
             M == "sync_restrict::shared::cluster" || M == "mbarrier_init")
      ; // restrictions of the fence's effect; a full fence is stronger
    else {
      L.unsupported(I, "modifier ." + M);
      return;
    }
  }
  if (Scope.empty())
    return bad("a fence needs a scope (.cta, .cluster, .gpu, .sys)");
  AtomicOrdering Ord = AtomicOrdering::AcquireRelease; // the default .sem
  if (Sem == "sc")
    Ord = AtomicOrdering::SequentiallyConsistent;
  else if (Sem == "acquire")
    Ord = AtomicOrdering::Acquire;
  else if (Sem == "release")
    Ord = AtomicOrdering::Release;
  L.B.CreateFence(Ord, syncScopeOf(L, Scope));
}

//===----------------------------------------------------------------------===//
// prefetch, prefetchu
//===----------------------------------------------------------------------===//

/// Prefetches only move data between cache levels; on the host they do
/// nothing, but their form and operand are still checked.
static void lowerPrefetch(FunctionLowering &L, const Instruction &I) {
  bool IsU = I.Opcode == "prefetchu";
  std::string Space, Level;
  for (const std::string &M : I.Modifiers) {
    if (!IsU && Space.empty() &&
        (M == "global" || M == "local" || M == "const" || M == "param"))
      Space = M;
    else if (Level.empty() &&
             (M == "L1" ||
              (!IsU && (M == "L2" || M == "L2::evict_last" ||
                        M == "L2::evict_normal" || M == "tensormap"))))
      Level = M;
    else {
      L.unsupported(I, "modifier ." + M);
      return;
    }
  }
  bool Ok = !Level.empty();
  if (Level == "tensormap")
    Ok = Space.empty() || Space == "const" || Space == "param";
  else if (Level == "L2::evict_last" || Level == "L2::evict_normal")
    Ok = Space == "global";
  else if (Ok)
    Ok = Space.empty() || Space == "global" || Space == "local";
  if (!Ok || I.Operands.size() != 1) {
    invalid(L, I.Loc, I,
            "expected prefetch{.global,.local}"
            ".{L1,L2} [a], prefetch.global.L2::evict_{last,normal} [a], "
            "prefetch{.const,.param}.tensormap [a] or prefetchu.L1 [a]");
    return;
  }
  checkAddressOperand(L, I.Operands[0]);
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

/// cp.async copies 4, 8 or 16 bytes from global to shared memory. The ISA
/// makes the copy's completion observable only through cp.async.wait_group,
/// cp.async.wait_all or an mbarrier, and lets it happen at any time before,
/// so the host performs it right here; commit and wait then have nothing
/// left to do, and cp.async.mbarrier.arrive finds the copies complete.
/// With src-size, only that many bytes are read and the rest of the
/// destination is zero-filled; a true ignore-src predicate reads nothing
/// and writes zeros.
static void lowerCpAsync(FunctionLowering &L, const Instruction &I) {
  IRBuilder<> &B = L.B;
  auto bad = [&](const Twine &Why) { invalid(L, I.Loc, I, Why); };
  if (I.Modifiers.empty() || I.Modifiers[0] != "async") {
    L.unsupported(I);
    return;
  }
  const std::string Kind = I.Modifiers.size() > 1 ? I.Modifiers[1] : "";
  if (Kind == "commit_group" || Kind == "wait_all") {
    if (I.Modifiers.size() != 2 || !I.Operands.empty())
      return bad("takes no operands or modifiers");
    return;
  }
  if (Kind == "wait_group") {
    if (I.Modifiers.size() != 2 || I.Operands.size() != 1 ||
        I.Operands[0].K != Operand::IntImm)
      return bad("expected cp.async.wait_group N with an integer constant N");
    return;
  }
  if (Kind == "mbarrier") {
    lowerCpAsyncMbarrierArrive(L, I); // LowerMbarrier.cpp
    return;
  }
  if (Kind == "bulk") {
    lowerCpAsyncBulk(L, I); // LowerMbarrier.cpp
    return;
  }
  if (Kind != "ca" && Kind != "cg") {
    L.unsupported(I, "only cp.async.{ca,cg}.shared.global, the group "
                     "operations, cp.async.mbarrier.arrive and "
                     "cp.async.bulk are implemented");
    return;
  }
  bool HaveDst = false, HaveSrc = false, CacheHint = false;
  for (size_t N = 2; N < I.Modifiers.size(); ++N) {
    const std::string &M = I.Modifiers[N];
    if ((M == "shared" || M == "shared::cta") && !HaveDst)
      HaveDst = true;
    else if (M == "global" && HaveDst && !HaveSrc)
      HaveSrc = true;
    else if (M == "L2::cache_hint")
      CacheHint = true;
    else if (M == "L2::64B" || M == "L2::128B" || M == "L2::256B")
      ; // prefetch size: a hint
    else {
      L.unsupported(I, "modifier ." + M);
      return;
    }
  }
  if (!HaveDst || !HaveSrc)
    return bad("expected cp.async." + Kind + ".shared{::cta}.global");
  size_t NOps = I.Operands.size();
  size_t Fixed = 3 + (CacheHint ? 1 : 0);
  if (NOps != Fixed && NOps != Fixed + 1)
    return bad("expected [dst], [src], cp-size{, src-size | ignore-src}" +
               Twine(CacheHint ? ", cache-policy" : ""));
  const Operand &SizeOp = I.Operands[2];
  if (SizeOp.K != Operand::IntImm ||
      (SizeOp.IntValue != 4 && SizeOp.IntValue != 8 && SizeOp.IntValue != 16))
    return bad("cp-size must be the constant 4, 8 or 16");
  uint64_t CpSize = SizeOp.IntValue;
  if (Kind == "cg" && CpSize != 16)
    return bad("cp.async.cg copies 16 bytes");
  if (CacheHint && !L.read(I, NOps - 1, B.getInt64Ty(), false))
    return;

  Type *DstTy, *SrcTy;
  if (I.Operands[0].K != Operand::Address ||
      I.Operands[1].K != Operand::Address)
    return bad("expected [dst], [src] addresses");
  Value *Dst = L.addressOf(I.Operands[0], StateSpace::Shared, DstTy);
  Value *Src = L.addressOf(I.Operands[1], StateSpace::Global, SrcTy);
  if (!Dst || !Src)
    return;
  Align A(CpSize);
  if (NOps == Fixed) {
    B.CreateMemCpy(Dst, A, Src, A, CpSize);
    return;
  }
  // The optional fourth operand: a predicate is ignore-src, anything else
  // the 32-bit src-size.
  const Operand &Extra = I.Operands[3];
  Value *Len;
  Symbol *S = Extra.K == Operand::Register ? L.lookup(Extra.Name) : nullptr;
  if (S && S->K == Symbol::Reg && S->Type == ScalarType::Pred) {
    Value *Ignore = L.readOperand(Extra, B.getInt1Ty(), false);
    if (!Ignore)
      return;
    Len = B.CreateSelect(Ignore, B.getInt64(0), B.getInt64(CpSize));
  } else {
    Value *SrcSize = L.readOperand(Extra, B.getInt32Ty(), false);
    if (!SrcSize)
      return;
    // src-size > cp-size is undefined; clamping keeps the host's memory safe.
    Len = B.CreateZExt(B.CreateBinaryIntrinsic(Intrinsic::umin, SrcSize,
                                               B.getInt32(uint32_t(CpSize))),
                       B.getInt64Ty());
  }
  B.CreateMemCpy(Dst, A, Src, A, Len);
  Value *Tail = B.CreateInBoundsGEP(B.getInt8Ty(), Dst, Len);
  B.CreateMemSet(Tail, B.getInt8(0), B.CreateSub(B.getInt64(CpSize), Len),
                 Align(1));
}

/// createpolicy: a cache-eviction policy for the .L2::cache_hint forms.
/// The descriptor is opaque to the program, and on the CPU backend (where
/// the hints have no effect) it is simply 0; the operands are checked.
static void lowerCreatePolicy(FunctionLowering &L, const Instruction &I) {
  bool Fractional = I.hasModifier("fractional");
  bool Range = I.hasModifier("range");
  if ((!Fractional && !Range && !I.hasModifier("cvt")) ||
      L.instrType(I) != ScalarType::B64 || I.Operands.empty()) {
    L.unsupported(I, "expected createpolicy.{fractional,range,cvt}...b64");
    return;
  }
  size_t Want = Fractional ? 2 : Range ? 4 : 2;
  if (I.Operands.size() != Want && !(Fractional && I.Operands.size() == 1)) {
    L.unsupported(I, "wrong number of operands");
    return;
  }
  for (size_t K = 1; K < I.Operands.size(); ++K)
    if (I.Operands[K].K == Operand::Register &&
        !L.readOperand(I.Operands[K], L.B.getInt64Ty(), false))
      return;
  L.write(I.Operands[0], L.B.getInt64(0), false);
}

void registerMemoryInstructions(OpcodeTable &T) {
  T["createpolicy"] = lowerCreatePolicy;
  T["ld"] = [](FunctionLowering &L, const Instruction &I) {
    lowerLoadStore(L, I, /*IsLoad=*/true, /*IsLdu=*/false);
  };
  T["ldu"] = [](FunctionLowering &L, const Instruction &I) {
    lowerLoadStore(L, I, /*IsLoad=*/true, /*IsLdu=*/true);
  };
  T["st"] = [](FunctionLowering &L, const Instruction &I) {
    lowerLoadStore(L, I, /*IsLoad=*/false, /*IsLdu=*/false);
  };
  T["atom"] = [](FunctionLowering &L, const Instruction &I) {
    lowerAtomic(L, I, /*IsRed=*/false);
  };
  T["red"] = [](FunctionLowering &L, const Instruction &I) {
    lowerAtomic(L, I, /*IsRed=*/true);
  };
  T["cvta"] = lowerCvta;
  T["membar"] = lowerFence;
  T["fence"] = lowerFence;
  T["prefetch"] = lowerPrefetch;
  T["prefetchu"] = lowerPrefetch;
  T["cp"] = lowerCpAsync;
}

} // namespace cuhip::ptx::lower
