//===- Lower.cpp - PTX AST to target-neutral LLVM IR ------------------------===//
//
// Walks each function of the AST once, in source order, emitting LLVM IR with
// an IRBuilder. PTX registers become allocas (promoted later), labels become
// basic blocks, guarded instructions become a conditional branch around the
// instruction. Every instruction form that is not understood is reported by
// its full name and location instead of being guessed at; see Lower.h for
// the shape of the produced IR.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/Lower.h"
#include "LowerImpl.h"

#include "llvm/ADT/StringSwitch.h"

namespace cuhip::ptx {

bool isSupportedPtxVersion(unsigned Major, unsigned Minor) {
  // ISA 1.x through 9.x; newer major versions may change the syntax.
  return Major >= 1 && Major <= 9;
}

namespace lower {

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

Constant *initConstant(ModuleLowering &ML, const VarDecl &D, Type *ElemTy,
                       uint64_t Count, bool &Ok) {
  LLVMContext &C = ML.Ctx;
  auto elem = [&](const InitValue &V) -> Constant * {
    if (V.K == InitValue::Symbol) {
      auto It = ML.Globals.find(V.SymbolName);
      Constant *Addr = nullptr;
      if (It != ML.Globals.end() && It->second.GV)
        Addr = It->second.GV;
      else if (llvm::Function *F = ML.IR->getFunction(V.SymbolName))
        Addr = F;
      if (!Addr || !ElemTy->isIntegerTy()) {
        ML.Diags.error(D.Loc, "initializer of '" + D.Name +
                                  "' refers to unknown symbol '" +
                                  V.SymbolName + "'");
        Ok = false;
        return Constant::getNullValue(ElemTy);
      }
      Constant *I = ConstantExpr::getPtrToInt(Addr, ElemTy);
      if (V.Offset)
        I = ConstantExpr::getAdd(I, ConstantInt::get(ElemTy, V.Offset));
      return I;
    }
    if (ElemTy->isFloatingPointTy()) {
      if (V.K == InitValue::Float && !V.FloatIsDouble &&
          ElemTy->isFloatTy())
        return ConstantFP::get(C, APFloat(APFloat::IEEEsingle(),
                                          APInt(32, V.Bits)));
      if (V.K == InitValue::Float && V.FloatIsDouble && ElemTy->isDoubleTy())
        return ConstantFP::get(C, APFloat(APFloat::IEEEdouble(),
                                          APInt(64, V.Bits)));
      double X = V.K == InitValue::Float ? V.FloatValue : double(int64_t(V.Bits));
      return ConstantFP::get(ElemTy, X);
    }
    unsigned W = ElemTy->getIntegerBitWidth();
    if (V.K == InitValue::Float)
      return ConstantInt::get(ElemTy, V.Bits);
    return ConstantInt::get(C, APInt(W, V.Bits, false, true));
  };
  if (D.Dims.empty())
    return D.Init.empty() ? Constant::getNullValue(ElemTy) : elem(D.Init[0]);
  std::vector<Constant *> Elems;
  Elems.reserve(Count);
  for (uint64_t I = 0; I < Count; ++I)
    Elems.push_back(I < D.Init.size() ? elem(D.Init[I])
                                      : Constant::getNullValue(ElemTy));
  if (D.Init.size() > Count) {
    ML.Diags.error(D.Loc, "initializer of '" + D.Name + "' has " +
                              std::to_string(D.Init.size()) +
                              " elements but the variable holds " +
                              std::to_string(Count));
    Ok = false;
  }
  return ConstantArray::get(ArrayType::get(ElemTy, Count), Elems);
}

GlobalVariable *ModuleLowering::declareVariable(const VarDecl &D,
                                                StringRef Prefix) {
  Type *ElemTy = llvmType(Ctx, D.Type);
  if (!ElemTy || D.Type == ScalarType::Pred) {
    Diags.error(D.Loc, "variable '" + D.Name + "' has no valid type");
    return nullptr;
  }
  if (D.VectorWidth)
    ElemTy = FixedVectorType::get(ElemTy, D.VectorWidth);
  uint64_t Count = 1;
  bool Unsized = false;
  for (uint64_t Dim : D.Dims) {
    if (Dim == 0)
      Unsized = true;
    Count *= Dim ? Dim : 1;
  }
  if (Unsized)
    Count = 0;
  Type *Ty = D.Dims.empty() ? ElemTy : ArrayType::get(ElemTy, Count);
  unsigned AS = spaceToAddrSpace(D.Space);
  bool Ok = true;
  Constant *Init = nullptr;
  bool External = D.Link == Linkage::Extern;
  if (!External || D.Space == StateSpace::Shared)
    Init = D.HasInit ? initConstant(*this, D, ElemTy, Count, Ok)
                     : (D.Space == StateSpace::Shared ? UndefValue::get(Ty)
                                                      : Constant::getNullValue(Ty));
  if (!Ok)
    return nullptr;
  GlobalValue::LinkageTypes L = GlobalValue::InternalLinkage;
  if (D.Space != StateSpace::Shared && D.Space != StateSpace::Local) {
    if (D.Link == Linkage::Visible)
      L = GlobalValue::ExternalLinkage;
    else if (D.Link == Linkage::Weak)
      L = GlobalValue::WeakAnyLinkage;
    else if (D.Link == Linkage::Common)
      L = GlobalValue::CommonLinkage;
    else if (External)
      L = GlobalValue::ExternalLinkage;
  }
  std::string Name = (Prefix + D.Name).str();
  // .const variables are not IR constants: the host writes them between
  // launches (cudaMemcpyToSymbol), so their initializer is only the start.
  auto *GV = new GlobalVariable(*IR, Ty, /*isConstant=*/false, L,
                                External && D.Space != StateSpace::Shared
                                    ? nullptr
                                    : Init,
                                Name, nullptr, GlobalValue::NotThreadLocal, AS);
  GV->setAlignment(Align(D.Align ? D.Align : std::max<unsigned>(
                                                1, byteSize(D.Type))));
  if (D.Space == StateSpace::Shared && (Unsized || External))
    GV->setMetadata("cuhip.dynamic_shared", MDNode::get(Ctx, {}));
  return GV;
}

std::optional<LoweredModule> ModuleLowering::run() {
  IR = std::make_unique<llvm::Module>(PM.FileName.empty() ? "ptx" : PM.FileName,
                                      Ctx);
  if (!isSupportedPtxVersion(PM.VersionMajor, PM.VersionMinor))
    Diags.error({}, "PTX ISA version " + std::to_string(PM.VersionMajor) +
                        "." + std::to_string(PM.VersionMinor) +
                        " is not supported");
  if (PM.AddressSize != 64)
    Diags.error({}, ".address_size " + std::to_string(PM.AddressSize) +
                        ": 32-bit PTX goes with 32-bit host programs, and "
                        "CUDA (like cuhip) runs only 64-bit ones; rebuild "
                        "the device code for a 64-bit target");

  // Declare functions first so initializers (vtables) can take addresses.
  for (const auto &F : PM.Functions) {
    if (llvm::Function *Prev = IR->getFunction(F.Name)) {
      // A prototype came first; the definition decides the linkage.
      if (!F.IsEntry && F.Link == Linkage::Weak && F.Body)
        Prev->setLinkage(llvm::Function::WeakAnyLinkage);
      continue;
    }
    // Kernels take their parameter buffer; device functions take a buffer
    // for their return values and one for their arguments, each laid out
    // like a PTX parameter list, so direct and indirect calls (through
    // vtables and function pointers) share one signature.
    Type *Ptr = PointerType::get(Ctx, 0);
    FunctionType *FT =
        F.IsEntry ? FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false)
                  : FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
    // A .weak definition may also be in another linked unit (see Link.h).
    auto FnLinkage = F.IsEntry || F.Link != Linkage::Internal || !F.Body
                         ? llvm::Function::ExternalLinkage
                         : llvm::Function::InternalLinkage;
    if (!F.IsEntry && F.Link == Linkage::Weak && F.Body)
      FnLinkage = llvm::Function::WeakAnyLinkage;
    auto *Fn = llvm::Function::Create(FT, FnLinkage, F.Name, *IR);
    if (F.IsEntry)
      Fn->addFnAttr("cuhip-kernel");
  }
  for (const auto &D : PM.Globals) {
    GlobalVariable *GV = declareVariable(D, "");
    if (!GV)
      continue;
    Symbol S;
    S.K = Symbol::Var;
    S.GV = GV;
    S.Type = D.Type;
    S.Space = D.Space;
    Globals[D.Name] = S;
  }
  for (const auto &F : PM.Functions) {
    // A kernel without a body is declared for another linked unit to
    // define (-rdc device code that launches it); linking reports it if
    // none does.
    if (!F.Body)
      continue;
    FunctionLowering(*this, F).run();
  }
  // Drop declarations of .func that nothing references.
  for (auto It = IR->begin(); It != IR->end();) {
    llvm::Function &Fn = *It++;
    if (Fn.isDeclaration() && Fn.use_empty() && !Fn.isIntrinsic())
      Fn.eraseFromParent();
  }
  if (Diags.hasErrors())
    return std::nullopt;
  std::string VerifyMsg;
  raw_string_ostream OS(VerifyMsg);
  if (verifyModule(*IR, &OS)) {
    Diags.error({}, "internal error: lowering produced invalid IR: " +
                        OS.str());
    return std::nullopt;
  }
  LoweredModule LM;
  LM.IR = std::move(IR);
  LM.Kernels = std::move(Kernels);
  return LM;
}

//===----------------------------------------------------------------------===//
// Function level
//===----------------------------------------------------------------------===//

void FunctionLowering::run() {
  Fn = ML.IR->getFunction(PF.Name);
  if (PF.IsEntry) {
    ParamBuf = Fn->getArg(0);
    ParamBuf->setName("params");
    Fn->addParamAttr(0, Attribute::NoAlias);
  } else {
    RetBuf = Fn->getArg(0);
    RetBuf->setName("ret");
    ParamBuf = Fn->getArg(1);
    ParamBuf->setName("args");
  }
  Info.Name = PF.Name;
  for (int D = 0; D < 3; ++D) {
    Info.ReqNTid[D] = PF.ReqNTid[D];
    Info.MaxNTid[D] = PF.MaxNTid[D];
  }

  AllocaBlock = BasicBlock::Create(Ctx, "entry", Fn);
  B.SetInsertPoint(AllocaBlock);
  Scopes.emplace_back();

  // Parameters (and a .func's return values): packed in declaration order,
  // each at its alignment. `.reg` parameters of old-style .func live in
  // registers initialised from the argument buffer.
  auto layOut = [&](const std::vector<ptx::Param> &List, Value *Base,
                    bool IsReturn) {
    uint32_t Offset = 0;
    for (const auto &P : List) {
      if (P.Space != StateSpace::Param &&
          (PF.IsEntry || P.Space != StateSpace::Reg)) {
        error(P.Loc, "parameter '" + P.Name + "' must be in .param space");
        continue;
      }
      ParamLayout PL = paramLayout(P);
      unsigned Al = PL.Alignment;
      if (Al == 0 || (Al & (Al - 1))) {
        error(P.Loc, "parameter '" + P.Name + "' has invalid alignment");
        Al = 1;
      }
      Offset = (Offset + Al - 1) & ~(Al - 1);
      if (Offset + PL.Bytes > 32764 + 4) {
        error(P.Loc, "parameters exceed 32764 bytes at '" + P.Name + "'");
        break;
      }
      if (PF.IsEntry)
        Info.Params.push_back({P.Name, Offset, PL.Bytes, Al});
      Symbol S;
      S.Type = P.Type;
      if (P.Space == StateSpace::Reg && P.VectorWidth) {
        // A vector register parameter: its elements are laid out like the
        // members of a .vN parameter and copied in (or out at `ret`) one by one.
        if (!validVectorRegister(P.Type, P.VectorWidth)) {
          error(P.Loc, "register parameter '" + P.Name + "': " +
                           vectorRegisterRule());
          continue;
        }
        declareVectorRegister(Scopes.back(), P.Name, P.Type, P.VectorWidth);
        unsigned EB = byteSize(P.Type);
        for (unsigned E = 0; E < P.VectorWidth; ++E) {
          AllocaInst *Slot = lookup(vectorElementName(P.Name, E))->Slot;
          uint32_t At = Offset + E * EB;
          if (IsReturn) {
            RegReturns.push_back({Slot, At});
          } else {
            Value *Src = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Base, At);
            B.CreateStore(B.CreateAlignedLoad(Slot->getAllocatedType(), Src,
                                              Align(EB)),
                          Slot);
          }
        }
        Offset += PL.Bytes;
        continue;
      }
      if (P.Space == StateSpace::Reg) {
        Type *Ty = llvmType(Ctx, P.Type);
        if (!Ty || P.ArrayCount) {
          error(P.Loc, "register parameter '" + P.Name + "' has no valid type");
          continue;
        }
        S.K = Symbol::Reg;
        S.Slot = createSlot(Ty, P.Name);
        if (IsReturn) {
          RegReturns.push_back({S.Slot, Offset});
        } else {
          Value *Src = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Base, Offset);
          B.CreateStore(B.CreateAlignedLoad(Ty, Src, Align(Al)), S.Slot);
        }
      } else {
        S.K = Symbol::Param;
        S.ParamOffset = Offset;
        S.ParamBase = Base;
      }
      Scopes.back().Names[P.Name] = S;
      Offset += PL.Bytes;
    }
    return Offset;
  };
  uint32_t Offset = layOut(PF.Params, ParamBuf, false);
  Info.ParamBufferSize = (Offset + 7) & ~7u;
  if (!PF.IsEntry)
    layOut(PF.Returns, RetBuf, true);

  BasicBlock *Body = BasicBlock::Create(Ctx, "body", Fn);
  B.CreateBr(Body);
  B.SetInsertPoint(Body);
  collectLabels(*PF.Body);
  lowerBlock(*PF.Body);
  if (!B.GetInsertBlock()->getTerminator())
    emitReturn();
  // Blocks that nothing branches to (after ret/bra) may be empty.
  for (BasicBlock &BB : *Fn)
    if (!BB.getTerminator()) {
      IRBuilder<> TB(&BB);
      TB.CreateUnreachable();
    }

  if (!PF.IsEntry)
    return;
  for (GlobalVariable &GV : ML.IR->globals())
    if (GV.getAddressSpace() == addrspace::Shared) {
      if (GV.hasMetadata("cuhip.dynamic_shared"))
        Info.UsesDynamicShared = true;
    }
  ML.Kernels.push_back(std::move(Info));
}

void FunctionLowering::emitReturn() {
  for (auto [Slot, Off] : RegReturns) {
    Value *Dst = B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), RetBuf, Off);
    B.CreateStore(B.CreateLoad(Slot->getAllocatedType(), Slot), Dst);
  }
  B.CreateRetVoid();
}

std::string vectorElementName(StringRef Vector, unsigned Index) {
  return (Vector + "." + Twine("xyzw"[Index])).str();
}

bool splitVectorElementName(StringRef Name, StringRef &Vector,
                            unsigned &Index) {
  if (Name.size() < 3 || Name[Name.size() - 2] != '.')
    return false;
  size_t C = StringRef("xyzw").find(Name.back());
  if (C == StringRef::npos)
    return false;
  Vector = Name.drop_back(2);
  Index = unsigned(C);
  return true;
}

bool validVectorRegister(ScalarType T, unsigned Width) {
  return (Width == 2 || Width == 4) && T != ScalarType::Pred &&
         T != ScalarType::None && scalarTypeBits(T) * Width <= 128;
}

const char *vectorRegisterRule() {
  return "vector registers are .v2 or .v4 of a non-predicate type, at most "
         "128 bits in all";
}

Symbol &FunctionLowering::declareVectorRegister(Scope &S, StringRef Name,
                                                ScalarType T, unsigned Width) {
  // Each element is a register of its own, so that element accesses are
  // plain register reads and writes that promote like any other.
  for (unsigned E = 0; E < Width; ++E) {
    std::string EName = vectorElementName(Name, E);
    Symbol Elem;
    Elem.K = Symbol::Reg;
    Elem.Type = T;
    Elem.Slot = createSlot(llvmType(Ctx, T), EName);
    S.Names[EName] = Elem;
  }
  Symbol V;
  V.K = Symbol::Reg;
  V.Type = T;
  V.VectorWidth = Width;
  HasVectorRegisters = true;
  return S.Names[Name] = V;
}

Symbol *FunctionLowering::lookup(StringRef Name) {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto F = It->Names.find(Name);
    if (F != It->Names.end())
      return &F->second;
    // %r17 against a `%r<N>` range of this scope.
    size_t Digits = Name.size();
    while (Digits > 0 && isdigit(static_cast<unsigned char>(Name[Digits - 1])))
      --Digits;
    if (Digits == Name.size() || Digits == 0)
      continue;
    auto R = It->Ranges.find(Name.substr(0, Digits));
    if (R == It->Ranges.end())
      continue;
    StringRef IdxStr = Name.substr(Digits);
    unsigned Idx;
    if ((IdxStr.size() > 1 && IdxStr[0] == '0') || IdxStr.getAsInteger(10, Idx) ||
        Idx >= R->second.Count)
      continue;
    if (R->second.VectorWidth)
      return &declareVectorRegister(*It, Name, R->second.Type,
                                    R->second.VectorWidth);
    Symbol S;
    S.K = Symbol::Reg;
    S.Type = R->second.Type;
    S.Slot = createSlot(llvmType(Ctx, S.Type), Name);
    return &(It->Names[Name] = S);
  }
  // `%q1.x` of a vector register range: naming the vector creates it, and
  // its elements with it.
  StringRef Base;
  unsigned Index;
  if (splitVectorElementName(Name, Base, Index)) {
    Symbol *V = lookup(Base);
    if (V && V->VectorWidth)
      for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
        auto F = It->Names.find(Name);
        if (F != It->Names.end())
          return &F->second;
      }
  }
  auto G = ML.Globals.find(Name);
  if (G != ML.Globals.end())
    return &G->second;
  return nullptr;
}

void FunctionLowering::declare(const VarDecl &D) {
  Scope &S = Scopes.back();
  switch (D.Space) {
  case StateSpace::Reg: {
    if (S.Names.count(D.Name) || S.Ranges.count(D.Name)) {
      error(D.Loc, "redefinition of register '" + D.Name + "' in the same scope");
      return;
    }
    Type *Ty = llvmType(Ctx, D.Type);
    if (!Ty) {
      error(D.Loc, "register '" + D.Name + "' has no valid type");
      return;
    }
    if (!D.Dims.empty()) {
      error(D.Loc, "array registers are not supported ('" + D.Name +
                       "'); use a .local array or separate registers");
      return;
    }
    if (D.VectorWidth && !validVectorRegister(D.Type, D.VectorWidth)) {
      error(D.Loc, "vector register '" + D.Name + "': " + vectorRegisterRule());
      return;
    }
    if (D.RangeCount) {
      S.Ranges[D.Name] = {D.Type, D.RangeCount, D.VectorWidth};
      return;
    }
    if (D.VectorWidth) {
      declareVectorRegister(S, D.Name, D.Type, D.VectorWidth);
      return;
    }
    Symbol Sym;
    Sym.K = Symbol::Reg;
    Sym.Type = D.Type;
    Sym.Slot = createSlot(Ty, D.Name);
    S.Names[D.Name] = Sym;
    return;
  }
  case StateSpace::Shared:
  case StateSpace::Global:
  case StateSpace::Const: {
    // Function-scope variables get the function's name as a prefix so that
    // they stay distinct from other kernels' ones.
    GlobalVariable *GV = ML.declareVariable(D, PF.Name + ".");
    if (!GV) {
      Failed = true;
      return;
    }
    Symbol Sym;
    Sym.K = Symbol::Var;
    Sym.GV = GV;
    Sym.Type = D.Type;
    Sym.Space = D.Space;
    S.Names[D.Name] = Sym;
    return;
  }
  case StateSpace::Param:
  case StateSpace::Local: {
    // .local arrays and the .param variables of call sequences are the
    // thread's own memory.
    Type *ElemTy = llvmType(Ctx, D.Type);
    uint64_t Count = 1;
    for (uint64_t Dim : D.Dims)
      Count *= Dim;
    if (!ElemTy || Count == 0) {
      error(D.Loc, "local variable '" + D.Name + "' has no valid type or size");
      return;
    }
    if (D.VectorWidth)
      ElemTy = FixedVectorType::get(ElemTy, D.VectorWidth);
    Type *Ty = D.Dims.empty() ? ElemTy : ArrayType::get(ElemTy, Count);
    AllocaInst *A = createSlot(Ty, D.Name);
    unsigned Al = D.Align ? D.Align
                          : std::max(1u, byteSize(D.Type)) *
                                std::max(1u, D.VectorWidth);
    A->setAlignment(Align(Al));
    Symbol Sym;
    Sym.K = Symbol::Var;
    Sym.LocalVar = A;
    Sym.Type = D.Type;
    Sym.Space = D.Space;
    Sym.Bytes = uint32_t(Count * std::max(1u, byteSize(D.Type)) *
                         std::max(1u, D.VectorWidth));
    Sym.Alignment = Al;
    S.Names[D.Name] = Sym;
    return;
  }
  default:
    error(D.Loc, "declarations in ." + std::string(stateSpaceName(D.Space)) +
                     " space are not supported inside a function yet ('" +
                     D.Name + "')");
  }
}

void FunctionLowering::collectLabels(const Block &Blk) {
  for (const auto &S : Blk.Body) {
    if (S.K == Statement::Lbl && S.L.IsBranchTargets) {
      BranchTables[S.L.Name] = S.L.Targets;
    } else if (S.K == Statement::Lbl) {
      if (Labels.count(S.L.Name))
        error(S.L.Loc, "label '" + S.L.Name + "' defined twice");
      labelBlock(S.L.Name);
    } else if (S.K == Statement::Scope && S.B) {
      collectLabels(*S.B);
    }
  }
}

void FunctionLowering::lowerBlock(const Block &Blk) {
  for (const auto &S : Blk.Body) {
    switch (S.K) {
    case Statement::Decl:
      declare(S.D);
      break;
    case Statement::Lbl: {
      if (S.L.IsBranchTargets)
        break; // a jump table, not a position in the code
      BasicBlock *BB = labelBlock(S.L.Name);
      if (!B.GetInsertBlock()->getTerminator())
        B.CreateBr(BB);
      B.SetInsertPoint(BB);
      break;
    }
    case Statement::Scope:
      Scopes.emplace_back();
      if (S.B)
        lowerBlock(*S.B);
      Scopes.pop_back();
      break;
    case Statement::Instr: {
      if (B.GetInsertBlock()->getTerminator())
        startDeadBlock();
      // Every instruction lowered from this one carries its line: the new
      // instructions follow the insertion point's last one, or lie in the
      // blocks created meanwhile (appended to the function).
      bool Tag = ML.Options.SourceLines && S.I.Loc.Line;
      BasicBlock *StartBB = B.GetInsertBlock();
      llvm::Instruction *StartLast = StartBB->empty() ? nullptr : &StartBB->back();
      BasicBlock *LastBB = &Fn->back();
      if (!lowerGuarded(S.I))
        lowerInstruction(S.I);
      if (Tag)
        tagSourceLine(S.I.Loc.Line, StartBB, StartLast, LastBB);
      break;
    }
    }
  }
}

void FunctionLowering::tagSourceLine(uint32_t Line, BasicBlock *StartBB,
                                     llvm::Instruction *StartLast,
                                     BasicBlock *LastBB) {
  unsigned Kind = Ctx.getMDKindID(PtxLineMetadata);
  MDNode *MD = MDNode::get(
      Ctx, {MDString::get(Ctx, PF.Name),
            ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), Line))});
  auto tag = [&](llvm::Instruction &I) {
    if (!I.getMetadata(Kind))
      I.setMetadata(Kind, MD);
  };
  for (auto It = StartLast ? std::next(StartLast->getIterator())
                           : StartBB->begin();
       It != StartBB->end(); ++It)
    tag(*It);
  for (auto BB = std::next(LastBB->getIterator()); BB != Fn->end(); ++BB)
    if (&*BB != StartBB)
      for (llvm::Instruction &I : *BB)
        tag(I);
}

/// Guarded instructions: `@%p bra L` is a conditional branch; anything else
/// runs in a block of its own that the guard skips.
bool FunctionLowering::lowerGuarded(const Instruction &I) {
  if (I.Guard.empty())
    return false;
  Symbol *P = lookup(I.Guard);
  if (!P || P->K != Symbol::Reg || P->Type != ScalarType::Pred) {
    error(I.Loc, "guard '" + I.Guard + "' is not a predicate register");
    return true;
  }
  Value *Cond = B.CreateLoad(B.getInt1Ty(), P->Slot);
  if (I.GuardNegated)
    Cond = B.CreateNot(Cond);
  BasicBlock *Cont = BasicBlock::Create(Ctx, "cont", Fn);
  if (I.Opcode == "bra") {
    BasicBlock *Target = branchTarget(I);
    if (!Target)
      return true;
    B.CreateCondBr(Cond, Target, Cont);
    B.SetInsertPoint(Cont);
    return true;
  }
  BasicBlock *Then = BasicBlock::Create(Ctx, "guarded", Fn);
  B.CreateCondBr(Cond, Then, Cont);
  B.SetInsertPoint(Then);
  lowerInstruction(I);
  if (!B.GetInsertBlock()->getTerminator())
    B.CreateBr(Cont);
  B.SetInsertPoint(Cont);
  return true;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// The Nth type modifier of I (instructions like cvt carry two).
ScalarType FunctionLowering::instrType(const Instruction &I, unsigned Nth) {
  for (const auto &M : I.Modifiers) {
    ScalarType T = parseScalarType(M);
    if (T != ScalarType::None && Nth-- == 0)
      return T;
  }
  return ScalarType::None;
}

Value *FunctionLowering::coerce(Value *V, Type *To, bool Signed) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isIntegerTy() && To->isIntegerTy())
    return Signed ? B.CreateSExtOrTrunc(V, To) : B.CreateZExtOrTrunc(V, To);
  unsigned FB = From->getPrimitiveSizeInBits(), TB = To->getPrimitiveSizeInBits();
  if (FB == TB)
    return B.CreateBitCast(V, To);
  if (From->isFloatingPointTy())
    return coerce(B.CreateBitCast(V, B.getIntNTy(FB)), To, Signed);
  // Integer to a float of another size: resize the bits first.
  return B.CreateBitCast(coerce(V, B.getIntNTy(TB), Signed), To);
}

Value *FunctionLowering::symbolAddress(const Operand &O, StringRef Name,
                                       SourceLoc L) {
  Symbol *S = lookup(Name);
  if (!S) {
    if (llvm::Function *F = ML.IR->getFunction(Name))
      return B.CreatePtrToInt(F, B.getInt64Ty());
    error(L, "use of undeclared identifier '" + Name + "'");
    return nullptr;
  }
  switch (S->K) {
  case Symbol::Var:
    if (S->LocalVar)
      return B.CreatePtrToInt(
          B.CreateAddrSpaceCast(S->LocalVar,
                                PointerType::get(Ctx, addrspace::Local)),
          B.getInt64Ty());
    // Addresses of variables are their address in their own state space's
    // window: 32-bit for shared, like nvcc's `mov.u32 %r, smem`.
    return B.CreatePtrToInt(S->GV, S->Space == StateSpace::Shared
                                       ? B.getInt32Ty()
                                       : B.getInt64Ty());
  case Symbol::Param:
    return B.CreatePtrToInt(B.CreateConstInBoundsGEP1_32(
                                B.getInt8Ty(), S->ParamBase, S->ParamOffset),
                            B.getInt64Ty());
  case Symbol::Reg:
    break;
  }
  error(L, "'" + Name + "' is a register, not an addressable symbol");
  return nullptr;
}

Value *FunctionLowering::readSpecial(StringRef Name, SourceLoc L) {
  static const struct {
    const char *Name;
    Intrinsic::ID ID;
  } Table[] = {
      {"%tid.x", Intrinsic::nvvm_read_ptx_sreg_tid_x},
      {"%tid.y", Intrinsic::nvvm_read_ptx_sreg_tid_y},
      {"%tid.z", Intrinsic::nvvm_read_ptx_sreg_tid_z},
      {"%ntid.x", Intrinsic::nvvm_read_ptx_sreg_ntid_x},
      {"%ntid.y", Intrinsic::nvvm_read_ptx_sreg_ntid_y},
      {"%ntid.z", Intrinsic::nvvm_read_ptx_sreg_ntid_z},
      {"%ctaid.x", Intrinsic::nvvm_read_ptx_sreg_ctaid_x},
      {"%ctaid.y", Intrinsic::nvvm_read_ptx_sreg_ctaid_y},
      {"%ctaid.z", Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
      {"%nctaid.x", Intrinsic::nvvm_read_ptx_sreg_nctaid_x},
      {"%nctaid.y", Intrinsic::nvvm_read_ptx_sreg_nctaid_y},
      {"%nctaid.z", Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
      {"%laneid", Intrinsic::nvvm_read_ptx_sreg_laneid},
      {"%warpid", Intrinsic::nvvm_read_ptx_sreg_warpid},
      {"%nwarpid", Intrinsic::nvvm_read_ptx_sreg_nwarpid},
      {"%dynamic_smem_size", Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size},
      {"%total_smem_size", Intrinsic::nvvm_read_ptx_sreg_total_smem_size},
      {"%lanemask_eq", Intrinsic::nvvm_read_ptx_sreg_lanemask_eq},
      {"%lanemask_lt", Intrinsic::nvvm_read_ptx_sreg_lanemask_lt},
      {"%lanemask_le", Intrinsic::nvvm_read_ptx_sreg_lanemask_le},
      {"%lanemask_gt", Intrinsic::nvvm_read_ptx_sreg_lanemask_gt},
      {"%lanemask_ge", Intrinsic::nvvm_read_ptx_sreg_lanemask_ge},
      {"%smid", Intrinsic::nvvm_read_ptx_sreg_smid},
      {"%nsmid", Intrinsic::nvvm_read_ptx_sreg_nsmid},
      {"%clock", Intrinsic::nvvm_read_ptx_sreg_clock},
      {"%clock64", Intrinsic::nvvm_read_ptx_sreg_clock64},
      {"%globaltimer", Intrinsic::nvvm_read_ptx_sreg_globaltimer},
      {"%globaltimer_lo", Intrinsic::nvvm_read_ptx_sreg_globaltimer_lo},
      {"%gridid", Intrinsic::nvvm_read_ptx_sreg_gridid},
      {"%envreg0", Intrinsic::nvvm_read_ptx_sreg_envreg0},
      {"%envreg1", Intrinsic::nvvm_read_ptx_sreg_envreg1},
      {"%envreg2", Intrinsic::nvvm_read_ptx_sreg_envreg2},
      {"%envreg3", Intrinsic::nvvm_read_ptx_sreg_envreg3},
      {"%envreg4", Intrinsic::nvvm_read_ptx_sreg_envreg4},
      {"%envreg5", Intrinsic::nvvm_read_ptx_sreg_envreg5},
      {"%envreg6", Intrinsic::nvvm_read_ptx_sreg_envreg6},
      {"%envreg7", Intrinsic::nvvm_read_ptx_sreg_envreg7},
      {"%envreg8", Intrinsic::nvvm_read_ptx_sreg_envreg8},
      {"%envreg9", Intrinsic::nvvm_read_ptx_sreg_envreg9},
      {"%envreg10", Intrinsic::nvvm_read_ptx_sreg_envreg10},
      {"%envreg11", Intrinsic::nvvm_read_ptx_sreg_envreg11},
      {"%envreg12", Intrinsic::nvvm_read_ptx_sreg_envreg12},
      {"%envreg13", Intrinsic::nvvm_read_ptx_sreg_envreg13},
      {"%envreg14", Intrinsic::nvvm_read_ptx_sreg_envreg14},
      {"%envreg15", Intrinsic::nvvm_read_ptx_sreg_envreg15},
      {"%envreg16", Intrinsic::nvvm_read_ptx_sreg_envreg16},
      {"%envreg17", Intrinsic::nvvm_read_ptx_sreg_envreg17},
      {"%envreg18", Intrinsic::nvvm_read_ptx_sreg_envreg18},
      {"%envreg19", Intrinsic::nvvm_read_ptx_sreg_envreg19},
      {"%envreg20", Intrinsic::nvvm_read_ptx_sreg_envreg20},
      {"%envreg21", Intrinsic::nvvm_read_ptx_sreg_envreg21},
      {"%envreg22", Intrinsic::nvvm_read_ptx_sreg_envreg22},
      {"%envreg23", Intrinsic::nvvm_read_ptx_sreg_envreg23},
      {"%envreg24", Intrinsic::nvvm_read_ptx_sreg_envreg24},
      {"%envreg25", Intrinsic::nvvm_read_ptx_sreg_envreg25},
      {"%envreg26", Intrinsic::nvvm_read_ptx_sreg_envreg26},
      {"%envreg27", Intrinsic::nvvm_read_ptx_sreg_envreg27},
      {"%envreg28", Intrinsic::nvvm_read_ptx_sreg_envreg28},
      {"%envreg29", Intrinsic::nvvm_read_ptx_sreg_envreg29},
      {"%envreg30", Intrinsic::nvvm_read_ptx_sreg_envreg30},
      {"%envreg31", Intrinsic::nvvm_read_ptx_sreg_envreg31},
  };
  for (const auto &E : Table)
    if (Name == E.Name)
      return B.CreateIntrinsic(E.ID, ArrayRef<Type *>{}, ArrayRef<Value *>{});
  if (Name == "WARP_SZ")
    return B.getInt32(32);
  // Thread-block clusters: every launch runs clusters of one block (the
  // runtime refuses larger ones), so each block is its own cluster: the
  // cluster grid is the block grid, and a block's place in its cluster is 0
  // of 1.
  static const struct {
    const char *Name;
    Intrinsic::ID ID;
  } Cluster[] = {
      {"%clusterid.x", Intrinsic::nvvm_read_ptx_sreg_ctaid_x},
      {"%clusterid.y", Intrinsic::nvvm_read_ptx_sreg_ctaid_y},
      {"%clusterid.z", Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
      {"%nclusterid.x", Intrinsic::nvvm_read_ptx_sreg_nctaid_x},
      {"%nclusterid.y", Intrinsic::nvvm_read_ptx_sreg_nctaid_y},
      {"%nclusterid.z", Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
  };
  for (const auto &E : Cluster)
    if (Name == E.Name)
      return B.CreateIntrinsic(E.ID, ArrayRef<Type *>{}, ArrayRef<Value *>{});
  if (Name == "%cluster_ctaid.x" || Name == "%cluster_ctaid.y" ||
      Name == "%cluster_ctaid.z" || Name == "%cluster_ctarank")
    return B.getInt32(0);
  if (Name == "%cluster_nctaid.x" || Name == "%cluster_nctaid.y" ||
      Name == "%cluster_nctaid.z" || Name == "%cluster_nctarank")
    return B.getInt32(1);
  if (Name == "%is_explicit_cluster")
    return B.getFalse();
  // The system's reserved shared memory (cooperative groups keep barrier
  // state there); NVVM has no intrinsic for these, so each target resolves
  // a call to cuhip.sreg.<name>.
  if (Name == "%reserved_smem_offset_begin" ||
      Name == "%reserved_smem_offset_end" ||
      Name == "%reserved_smem_offset_cap" ||
      Name == "%reserved_smem_offset_0" || Name == "%reserved_smem_offset_1") {
    FunctionCallee F = Fn->getParent()->getOrInsertFunction(
        ("cuhip.sreg." + Name.substr(1)).str(),
        FunctionType::get(B.getInt32Ty(), false));
    return B.CreateCall(F);
  }
  return nullptr;
}

/// The byte offset of the array element operand O (`var[%r+1]`): its index
/// times the size of var's elements (of a scalar element even for a vector
/// type, as ptxas counts), as an IntTy.
Value *FunctionLowering::arrayElementOffset(const Operand &O, Type *IntTy) {
  Symbol *S = lookup(O.Name);
  if (!S || S->K == Symbol::Reg) {
    error(O.Loc, S ? "'" + O.Name + "' is a register, not an array"
                   : "use of undeclared identifier '" + O.Name + "'");
    return nullptr;
  }
  Value *Index = ConstantInt::get(IntTy, O.Offset);
  if (!O.IndexRegister.empty()) {
    Symbol *R = lookup(O.IndexRegister);
    if (!R || R->K != Symbol::Reg || R->VectorWidth ||
        R->Type == ScalarType::Pred || isFloat(R->Type)) {
      error(O.Loc, "the index of '" + O.Name + "' must be an integer "
                   "register, not '" + O.IndexRegister + "'");
      return nullptr;
    }
    Value *V = B.CreateLoad(R->Slot->getAllocatedType(), R->Slot);
    Index = B.CreateAdd(coerce(V, IntTy, isSignedInt(R->Type)), Index);
  }
  return B.CreateMul(Index, ConstantInt::get(IntTy, byteSize(S->Type)));
}

Value *FunctionLowering::readOperand(const Operand &O, Type *Want,
                                     bool Signed) {
  if (O.K == Operand::Register && O.Offset) {
    // `%r+4`: the register's value plus the constant, added in the
    // instruction's type (ptxas folds it into the operand the same way).
    if (!Want->isIntegerTy() || Want->isIntegerTy(1)) {
      error(O.Loc, "an offset applies only to an integer register used as "
                   "an integer source ('" + O.Name + "+" +
                   std::to_string(O.Offset) + "')");
      return nullptr;
    }
    Operand Plain = O;
    Plain.Offset = 0;
    Value *V = readOperand(Plain, Want, Signed);
    return V ? B.CreateAdd(V, ConstantInt::get(Want, O.Offset)) : nullptr;
  }
  switch (O.K) {
  case Operand::Register: {
    if (Value *SV = readSpecial(O.Name, O.Loc))
      return coerce(SV, Want, false);
    Symbol *S = lookup(O.Name);
    if (!S) {
      // A function or variable name used as a value is its address.
      if (Value *A = symbolAddress(O, O.Name, O.Loc))
        return coerce(A, Want, false);
      return nullptr;
    }
    if (S->K != Symbol::Reg) {
      Value *A = symbolAddress(O, O.Name, O.Loc);
      return A ? coerce(A, Want, false) : nullptr;
    }
    if (S->VectorWidth) {
      error(O.Loc, "vector register '" + O.Name + "' cannot be used here");
      return nullptr;
    }
    Value *V = B.CreateLoad(S->Slot->getAllocatedType(), S->Slot);
    if (O.Negated) {
      if (!V->getType()->isIntegerTy(1)) {
        error(O.Loc, "'!' applies to predicates only");
        return nullptr;
      }
      V = B.CreateNot(V);
    }
    // A source register narrower than the instruction type extends with the
    // register's own signedness; a wider one truncates.
    return coerce(V, Want, Signed || isSignedInt(S->Type));
  }
  case Operand::IntImm:
    if (Want->isFloatingPointTy()) {
      unsigned W = Want->getPrimitiveSizeInBits();
      return B.CreateBitCast(B.getIntN(W, O.IntValue), Want);
    }
    if (Want->isIntegerTy(1))
      return B.getInt1(O.IntValue != 0);
    return ConstantInt::get(Want, O.IntValue);
  case Operand::FloatImm: {
    if (Want->isFloatingPointTy()) {
      if (O.FloatHasBits) {
        APFloat F = O.FloatIsDouble
                        ? APFloat(APFloat::IEEEdouble(), APInt(64, O.FloatBits))
                        : APFloat(APFloat::IEEEsingle(), APInt(32, O.FloatBits));
        bool Lost;
        F.convert(Want->getFltSemantics(), APFloat::rmNearestTiesToEven, &Lost);
        return ConstantFP::get(Ctx, F);
      }
      return ConstantFP::get(Want, O.FloatValue);
    }
    if (Want->isIntegerTy()) {
      uint64_t Bits = O.FloatBits;
      if (!O.FloatHasBits) {
        double D = O.FloatValue;
        if (Want->isIntegerTy(32)) {
          float F = float(D);
          uint32_t U;
          memcpy(&U, &F, 4);
          Bits = U;
        } else {
          memcpy(&Bits, &D, 8);
        }
      }
      return ConstantInt::get(Want, Bits);
    }
    break;
  }
  case Operand::Symbol: {
    // WARP_SZ is the one predefined identifier without a '%' (nvcc emits it
    // for warpSize), so it parses as a symbol; a declaration shadows it.
    if (O.Name == "WARP_SZ" && !O.Offset && !lookup(O.Name))
      return coerce(readSpecial(O.Name, O.Loc), Want, false);
    Value *A = symbolAddress(O, O.Name, O.Loc);
    if (A && O.Offset)
      A = B.CreateAdd(A, ConstantInt::get(A->getType(), O.Offset));
    return A ? coerce(A, Want, false) : nullptr;
  }
  case Operand::Vector: {
    // {a, b} as a source of a wider scalar: pack, lowest element first.
    if (!Want->isIntegerTy() && !Want->isFloatingPointTy())
      break;
    unsigned Total = Want->getPrimitiveSizeInBits();
    unsigned N = O.Elements.size();
    if (N == 0 || Total % N) {
      error(O.Loc, "vector operand does not divide the instruction type");
      return nullptr;
    }
    unsigned EB = Total / N;
    Value *Acc = B.getIntN(Total, 0);
    for (unsigned I = 0; I < N; ++I) {
      Value *E = readOperand(O.Elements[I], B.getIntNTy(EB), false);
      if (!E)
        return nullptr;
      Acc = B.CreateOr(Acc, B.CreateShl(B.CreateZExt(E, B.getIntNTy(Total)),
                                        I * EB));
    }
    return coerce(Acc, Want, false);
  }
  case Operand::Address:
    if (O.ArrayElement) {
      // mov.u64 %rd, arr[2]: the element's address.
      Value *A = symbolAddress(O, O.Name, O.Loc);
      Value *Off = A ? arrayElementOffset(O, A->getType()) : nullptr;
      return Off ? coerce(B.CreateAdd(A, Off), Want, false) : nullptr;
    }
    break;
  case Operand::Sink:
    break;
  }
  error(O.Loc, "this operand cannot be used as a value here");
  return nullptr;
}

Value *FunctionLowering::read(const Instruction &I, unsigned Idx, Type *Want,
                              bool Signed) {
  if (Idx >= I.Operands.size()) {
    error(I.Loc, "'" + I.fullName() + "' is missing operand " +
                     std::to_string(Idx + 1));
    return nullptr;
  }
  return readOperand(I.Operands[Idx], Want, Signed);
}

void FunctionLowering::write(const Operand &O, Value *V, bool Signed) {
  if (!V)
    return;
  if (O.K == Operand::Sink)
    return;
  if (O.K == Operand::Vector) {
    // Unpack a scalar into {a, b, ...}, lowest element first.
    unsigned Total = V->getType()->getPrimitiveSizeInBits();
    unsigned N = O.Elements.size();
    if (N == 0 || Total % N) {
      error(O.Loc, "vector destination does not divide the instruction type");
      return;
    }
    Value *Bits = coerce(V, B.getIntNTy(Total), false);
    for (unsigned I = 0; I < N; ++I)
      write(O.Elements[I],
            B.CreateTrunc(B.CreateLShr(Bits, I * (Total / N)),
                          B.getIntNTy(Total / N)),
            false);
    return;
  }
  if (O.K != Operand::Register) {
    error(O.Loc, "destination must be a register");
    return;
  }
  if (O.Offset) {
    error(O.Loc, "a destination register cannot have an offset");
    return;
  }
  Symbol *S = lookup(O.Name);
  if (!S || S->K != Symbol::Reg || S->VectorWidth) {
    error(O.Loc, !S ? "use of undeclared register '" + O.Name + "'"
                 : S->VectorWidth
                     ? "vector register '" + O.Name + "' cannot be used here"
                     : "'" + O.Name + "' is not a register");
    return;
  }
  B.CreateStore(coerce(V, S->Slot->getAllocatedType(), Signed), S->Slot);
}

StateSpace FunctionLowering::spaceOf(const Instruction &I) {
  for (const auto &M : I.Modifiers) {
    StateSpace S = parseStateSpace(M);
    if (S != StateSpace::None)
      return S;
  }
  return StateSpace::Generic;
}

/// The pointer an address operand designates in Space, as an LLVM pointer of
/// that address space.
Value *FunctionLowering::addressOf(const Operand &O, StateSpace Space,
                                   Type *&PtrTy) {
  unsigned AS = spaceToAddrSpace(Space);
  PtrTy = PointerType::get(Ctx, AS);
  if (O.K != Operand::Address && O.K != Operand::Symbol &&
      O.K != Operand::Register) {
    error(O.Loc, "expected an address operand");
    return nullptr;
  }
  if (O.ArrayElement) {
    // arr[%r+1]: the array's address, then the element's byte offset.
    Operand Array = O;
    Array.ArrayElement = false;
    Array.Offset = 0;
    Array.IndexRegister.clear();
    Value *P = addressOf(Array, Space, PtrTy);
    Value *Off = P ? arrayElementOffset(O, B.getInt64Ty()) : nullptr;
    return Off ? B.CreateGEP(B.getInt8Ty(), P, Off) : nullptr;
  }
  StringRef Base = O.Name;
  int64_t Off =
      O.K == Operand::Address || O.K == Operand::Register ? O.Offset : 0;
  if (Space == StateSpace::Param && !Base.empty()) {
    Symbol *S = lookup(Base);
    if (S && S->K == Symbol::Param) {
      PtrTy = PointerType::get(Ctx, 0);
      return B.CreateInBoundsGEP(B.getInt8Ty(), S->ParamBase,
                                 B.getInt64(int64_t(S->ParamOffset) + Off));
    }
    if (S && S->K == Symbol::Var && S->LocalVar &&
        S->Space == StateSpace::Param) {
      PtrTy = PointerType::get(Ctx, 0);
      return B.CreateInBoundsGEP(B.getInt8Ty(), S->LocalVar, B.getInt64(Off));
    }
  }
  Value *Addr;
  if (Base.empty()) {
    Addr = B.getInt64(Off);
  } else {
    Symbol *S = lookup(Base);
    if (S && S->K == Symbol::Var && S->LocalVar && Space == StateSpace::Local) {
      return B.CreateAddrSpaceCast(
          B.CreateInBoundsGEP(B.getInt8Ty(), S->LocalVar, B.getInt64(Off)),
          PtrTy);
    }
    Type *IntTy = Space == StateSpace::Shared ? B.getInt32Ty() : B.getInt64Ty();
    if (S && S->K == Symbol::Reg && S->VectorWidth) {
      error(O.Loc, "vector register '" + Base.str() + "' cannot be an address");
      return nullptr;
    }
    if (S && S->K == Symbol::Reg && S->Type != ScalarType::Pred) {
      Value *R = B.CreateLoad(S->Slot->getAllocatedType(), S->Slot);
      IntTy = R->getType()->getIntegerBitWidth() == 64 ? B.getInt64Ty()
                                                       : B.getInt32Ty();
      Addr = coerce(R, IntTy, false);
    } else {
      Addr = symbolAddress(O, Base, O.Loc);
      if (!Addr)
        return nullptr;
      if (S && S->K == Symbol::Var && S->Space != Space &&
          Space != StateSpace::Generic) {
        error(O.Loc, "'" + Base.str() + "' is in ." +
                         std::string(stateSpaceName(S->Space)) +
                         " space, not ." + std::string(stateSpaceName(Space)));
        return nullptr;
      }
      if (S && S->K == Symbol::Var && Space == StateSpace::Generic &&
          S->Space == StateSpace::Shared) {
        // A shared variable used as a generic address: the generic form.
        Value *P = B.CreateAddrSpaceCast(S->GV, PtrTy);
        return Off ? B.CreateInBoundsGEP(B.getInt8Ty(), P, B.getInt64(Off)) : P;
      }
      IntTy = Addr->getType();
    }
    if (Off)
      Addr = B.CreateAdd(Addr, ConstantInt::get(IntTy, Off));
  }
  return B.CreateIntToPtr(Addr, PtrTy);
}


//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

static void lowerArithmetic(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None) {
    L.unsupported(I, "no operand type");
    return;
  }
  if (T == ScalarType::U16x2 || T == ScalarType::S16x2)
    lowerPackedIntArith(L, I);
  else if (isFloat(T))
    lowerFloatArith(L, I);
  else
    lowerIntArith(L, I);
}

static const OpcodeTable &opcodeTable() {
  static const OpcodeTable Table = [] {
    OpcodeTable T;
    registerMovementInstructions(T);
    registerIntegerInstructions(T);
    registerFloatInstructions(T);
    registerMemoryInstructions(T);
    registerControlInstructions(T);
    registerWarpInstructions(T);
    registerMatrixInstructions(T);
    registerTextureInstructions(T);
    registerVideoInstructions(T);
    registerMbarrierInstructions(T);
    for (const char *Op : {"add", "sub", "mul", "mad", "div", "rem", "min",
                           "max", "abs", "neg"})
      T[Op] = lowerArithmetic;
    return T;
  }();
  return Table;
}

/// Checks the register parts that O names (a vector's element, a video
/// selector) and notes in Expand whether a whole vector register stands
/// where the instruction takes a vector operand. Depth is 0 for I's own
/// operands and 1 inside a brace (or call) list.
bool FunctionLowering::checkRegisterParts(const Instruction &I,
                                          const Operand &O, unsigned Depth,
                                          bool &Expand) {
  // Video instructions read their own selectors and vmad its negations.
  if (!O.Selector.empty() && !isVideoInstruction(I.Opcode)) {
    error(O.Loc, "'." + O.Selector + "' selects part of a register only in "
                 "video instructions; use a vector element (.x, .y, .z, .w) "
                 "or extract the part with bfe or prmt");
    return false;
  }
  if (O.Minus && I.Opcode != "vmad") {
    error(O.Loc, "'-" + O.Name + "' negates a source only in vmad; use neg "
                 "first");
    return false;
  }
  for (const Operand &E : O.Elements)
    if (!checkRegisterParts(I, E, Depth + 1, Expand))
      return false;
  if ((O.K != Operand::Register && O.K != Operand::Address) || O.Name.empty())
    return true;
  if (Symbol *S = lookup(O.Name)) {
    if (!S->VectorWidth)
      return true;
    // The instructions that take vector operands (ISA "Vectors as
    // Operands"); a call passes the vector whole (LowerControl.cpp).
    bool IsCall = I.Opcode == "call";
    bool TakesVectors =
        StringSwitch<bool>(I.Opcode)
            .Cases({"mov", "ld", "ldu", "st", "atom", "red", "tex", "tld4",
                    "suld", "sust"},
                   true)
            .Default(false);
    if (O.K == Operand::Register && ((IsCall && Depth == 1) ||
                                     (TakesVectors && Depth == 0))) {
      Expand |= !IsCall;
      return true;
    }
    error(O.Loc, "vector register '" + O.Name + "' cannot be " +
                     (O.K == Operand::Address ? "an address"
                                              : "an operand of '" +
                                                    I.fullName() + "'") +
                     "; name one of its elements ('" + O.Name +
                     ".x') or use it whole with mov, ld, st, atom, red, "
                     "tex or call");
    return false;
  }
  // %tid.x and the like stay special registers even where a register
  // named %tid is declared (nvcc's kernels often do).
  StringRef Base;
  unsigned Index;
  if (splitVectorElementName(O.Name, Base, Index) &&
      !StringSwitch<bool>(Base)
           .Cases({"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid",
                   "%nclusterid", "%cluster_ctaid", "%cluster_nctaid"},
                  true)
           .Default(false))
    if (Symbol *B = lookup(Base); B && B->K == Symbol::Reg) {
      error(O.Loc, B->VectorWidth
                       ? "'" + O.Name + "' is past the last element of the ." +
                             "v" + std::to_string(B->VectorWidth) +
                             " register '" + Base.str() + "'"
                       : "'" + Base.str() + "' is not a vector register, so "
                             "it has no element '" + O.Name + "'");
      return false;
    }
  return true;
}

bool FunctionLowering::expandVectorOperands(const Instruction &I,
                                            Instruction &Out, bool &Changed) {
  Changed = false;
  bool Expand = false;
  for (const Operand &O : I.Operands)
    if (!checkRegisterParts(I, O, 0, Expand))
      return false;
  if (!Expand)
    return true;
  // ld.v4 %q, [p] and the like: the register stands for {%q.x, ..., %q.w},
  // which every instruction family taking a vector operand understands.
  Out = I;
  for (Operand &O : Out.Operands) {
    if (O.K != Operand::Register)
      continue;
    Symbol *S = lookup(O.Name);
    if (!S || !S->VectorWidth)
      continue;
    Operand List;
    List.K = Operand::Vector;
    List.Loc = O.Loc;
    for (unsigned E = 0; E < S->VectorWidth; ++E) {
      Operand Elem;
      Elem.K = Operand::Register;
      Elem.Loc = O.Loc;
      Elem.Name = vectorElementName(O.Name, E);
      List.Elements.push_back(std::move(Elem));
    }
    O = std::move(List);
  }
  Changed = true;
  return true;
}

void FunctionLowering::lowerInstruction(const Instruction &I) {
  const OpcodeTable &T = opcodeTable();
  auto It = T.find(I.Opcode);
  if (It == T.end()) {
    unsupported(I);
    return;
  }
  // Register parts only need a look when the function has vector registers
  // or the instruction names a part.
  bool Look = HasVectorRegisters;
  for (const Operand &O : I.Operands)
    Look |= !O.Selector.empty() || O.Minus ||
            O.Name.find('.') != std::string::npos || !O.Elements.empty();
  if (Look) {
    Instruction Expanded;
    bool Changed;
    if (!expandVectorOperands(I, Expanded, Changed))
      return;
    if (Changed) {
      It->second(*this, Expanded);
      return;
    }
  }
  It->second(*this, I);
}

} // namespace lower

std::optional<LoweredModule> lowerModule(const Module &Mod,
                                         llvm::LLVMContext &Ctx,
                                         DiagnosticEngine &Diags,
                                         const LowerOptions &Options) {
  return lower::ModuleLowering(Mod, Ctx, Diags, Options).run();
}

} // namespace cuhip::ptx
