//===- Lower.cpp - PTX AST to target-neutral LLVM IR ----------------------===//
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

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <map>

using namespace llvm;

namespace cuhip::ptx {

bool isSupportedPtxVersion(unsigned Major, unsigned Minor) {
  // ISA 1.x through 9.x; newer major versions may change the syntax.
  return Major >= 1 && Major <= 9;
}

namespace {

Type *llvmType(LLVMContext &C, ScalarType T) {
  switch (T) {
  case ScalarType::Pred: return Type::getInt1Ty(C);
  case ScalarType::B8: case ScalarType::U8: case ScalarType::S8:
    return Type::getInt8Ty(C);
  case ScalarType::B16: case ScalarType::U16: case ScalarType::S16:
    return Type::getInt16Ty(C);
  case ScalarType::B32: case ScalarType::U32: case ScalarType::S32:
  case ScalarType::F16x2: case ScalarType::BF16x2:
    return Type::getInt32Ty(C);
  case ScalarType::B64: case ScalarType::U64: case ScalarType::S64:
    return Type::getInt64Ty(C);
  case ScalarType::B128: return Type::getInt128Ty(C);
  case ScalarType::F16: return Type::getHalfTy(C);
  case ScalarType::BF16: return Type::getBFloatTy(C);
  case ScalarType::F32: return Type::getFloatTy(C);
  case ScalarType::F64: return Type::getDoubleTy(C);
  case ScalarType::None: break;
  }
  return nullptr;
}

unsigned byteSize(ScalarType T) {
  unsigned Bits = scalarTypeBits(T);
  return Bits <= 8 ? 1 : Bits / 8;
}

unsigned spaceToAddrSpace(StateSpace S) {
  switch (S) {
  case StateSpace::Global: return addrspace::Global;
  case StateSpace::Shared: return addrspace::Shared;
  case StateSpace::Const: return addrspace::Const;
  case StateSpace::Local: return addrspace::Local;
  default: return addrspace::Generic;
  }
}

/// What a name in an operand refers to.
struct Symbol {
  enum Kind { Reg, Var, Param, Func } K = Reg;
  AllocaInst *Slot = nullptr;      // Reg
  ScalarType Type = ScalarType::None;
  GlobalVariable *GV = nullptr;    // Var in global/shared/const
  AllocaInst *LocalVar = nullptr;  // Var in .local
  StateSpace Space = StateSpace::None;
  uint32_t ParamOffset = 0;        // Param
};

/// Rounding and flushing modifiers that an instruction carries.
struct FloatMods {
  std::string Rounding; // "", "rn", "rz", "rm", "rp", "rni", ...
  bool Ftz = false, Sat = false, Approx = false, Full = false;
};

class FunctionLowering;

class ModuleLowering {
public:
  ModuleLowering(const Module &M, LLVMContext &C, DiagnosticEngine &D)
      : PM(M), Ctx(C), Diags(D) {}

  std::optional<LoweredModule> run();

  const Module &PM;
  LLVMContext &Ctx;
  DiagnosticEngine &Diags;
  std::unique_ptr<llvm::Module> IR;
  StringMap<Symbol> Globals;
  std::vector<KernelInfo> Kernels;

  GlobalVariable *declareVariable(const VarDecl &D, StringRef Prefix);
};

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &ML, const ptx::Function &F)
      : ML(ML), PF(F), Ctx(ML.Ctx), B(ML.Ctx) {}

  void run();

private:
  ModuleLowering &ML;
  const ptx::Function &PF;
  LLVMContext &Ctx;
  IRBuilder<> B;
  llvm::Function *Fn = nullptr;
  Argument *ParamBuf = nullptr;
  BasicBlock *AllocaBlock = nullptr;
  KernelInfo Info;

  // Scopes: innermost last. Register ranges resolve lazily.
  struct RangeDecl {
    ScalarType Type;
    unsigned Count;
  };
  struct Scope {
    StringMap<Symbol> Names;
    StringMap<RangeDecl> Ranges;
  };
  std::vector<Scope> Scopes;
  StringMap<BasicBlock *> Labels;
  bool Failed = false;

  // --- diagnostics --------------------------------------------------------
  void error(SourceLoc L, const Twine &Msg) {
    ML.Diags.error(L, Msg.str());
    Failed = true;
  }
  void unsupported(const Instruction &I, const Twine &Why = "") {
    std::string Msg = "unsupported PTX instruction '" + I.fullName() + "'";
    if (!Why.isTriviallyEmpty())
      Msg += " (" + Why.str() + ")";
    Msg += " in function '" + PF.Name + "'";
    error(I.Loc, Msg);
  }

  // --- names --------------------------------------------------------------
  Symbol *lookup(StringRef Name);
  AllocaInst *createSlot(Type *Ty, const Twine &Name) {
    IRBuilder<> AB(AllocaBlock, AllocaBlock->begin());
    return AB.CreateAlloca(Ty, nullptr, Name);
  }
  void declare(const VarDecl &D);
  BasicBlock *labelBlock(StringRef Name) {
    BasicBlock *&BB = Labels[Name];
    if (!BB)
      BB = BasicBlock::Create(Ctx, Name, Fn);
    return BB;
  }

  // --- body ---------------------------------------------------------------
  void collectLabels(const Block &Blk);
  void lowerBlock(const Block &Blk);
  void lowerInstruction(const Instruction &I);
  bool lowerGuarded(const Instruction &I);
  BasicBlock *branchTarget(const Instruction &I) {
    if (I.Operands.size() != 1 || (I.Operands[0].K != Operand::Symbol &&
                                   I.Operands[0].K != Operand::Register)) {
      error(I.Loc, "'" + I.fullName() + "' expects one label operand");
      return nullptr;
    }
    auto It = Labels.find(I.Operands[0].Name);
    if (It == Labels.end()) {
      error(I.Operands[0].Loc, "unknown label '" + I.Operands[0].Name + "'");
      return nullptr;
    }
    return It->second;
  }
  void startDeadBlock() {
    B.SetInsertPoint(BasicBlock::Create(Ctx, "after", Fn));
  }

  // --- operands -----------------------------------------------------------
  ScalarType instrType(const Instruction &I, unsigned Nth = 0);
  Value *coerce(Value *V, Type *To, bool Signed);
  Value *read(const Instruction &I, unsigned Idx, Type *Want, bool Signed);
  Value *readOperand(const Operand &O, Type *Want, bool Signed);
  void write(const Operand &O, Value *V, bool Signed);
  Value *symbolAddress(const Operand &O, StringRef Name, SourceLoc L);
  Value *addressOf(const Operand &O, StateSpace Space, Type *&PtrTy);
  StateSpace spaceOf(const Instruction &I);
  Value *readSpecial(StringRef Name, SourceLoc L);
  FloatMods floatMods(const Instruction &I);
  Value *flush(Value *V);
  Value *saturate(Value *V);
  bool checkRounding(const Instruction &I, const FloatMods &M);

  Value *callIntrinsic(Intrinsic::ID ID, ArrayRef<Type *> Tys,
                       ArrayRef<Value *> Args) {
    return B.CreateIntrinsic(ID, Tys, Args);
  }

  // --- instruction families -------------------------------------------------
  void lowerMov(const Instruction &I);
  void lowerLoadStore(const Instruction &I, bool IsLoad);
  void lowerIntArith(const Instruction &I);
  void lowerFloatArith(const Instruction &I);
  void lowerSetp(const Instruction &I);
  void lowerSelp(const Instruction &I);
  void lowerCvt(const Instruction &I);
  void lowerCvta(const Instruction &I);
  void lowerBarrier(const Instruction &I);
  void lowerAtomic(const Instruction &I, bool IsRed);
  void lowerLogic(const Instruction &I);
  void lowerShift(const Instruction &I);
  void lowerBitCount(const Instruction &I);
};

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
  auto *GV = new GlobalVariable(*IR, Ty, D.Space == StateSpace::Const, L,
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
                        " is not supported yet (only 64)");

  // Declare functions first so initializers (vtables) can take addresses.
  for (const auto &F : PM.Functions) {
    if (IR->getFunction(F.Name))
      continue;
    FunctionType *FT = FunctionType::get(
        Type::getVoidTy(Ctx), {PointerType::get(Ctx, 0)}, false);
    auto *Fn = llvm::Function::Create(FT, llvm::Function::ExternalLinkage,
                                      F.Name, *IR);
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
    if (!F.IsEntry) {
      if (F.Body)
        Diags.error(F.Loc, "device function '" + F.Name +
                               "': .func definitions are not supported yet");
      continue;
    }
    if (!F.Body) {
      Diags.error(F.Loc, "kernel '" + F.Name + "' has no body");
      continue;
    }
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
  ParamBuf = Fn->getArg(0);
  ParamBuf->setName("params");
  Fn->addParamAttr(0, Attribute::NoAlias);
  Info.Name = PF.Name;
  for (int D = 0; D < 3; ++D) {
    Info.ReqNTid[D] = PF.ReqNTid[D];
    Info.MaxNTid[D] = PF.MaxNTid[D];
  }

  AllocaBlock = BasicBlock::Create(Ctx, "entry", Fn);
  B.SetInsertPoint(AllocaBlock);
  Scopes.emplace_back();

  // Parameters: packed in declaration order, each at its alignment.
  uint32_t Offset = 0;
  for (const auto &P : PF.Params) {
    if (P.Space != StateSpace::Param) {
      error(P.Loc, "kernel parameter '" + P.Name + "' must be in .param space");
      continue;
    }
    unsigned ElemBytes = byteSize(P.Type) * std::max(1u, P.VectorWidth);
    uint64_t Size = uint64_t(ElemBytes) * std::max<uint64_t>(1, P.ArrayCount);
    unsigned Al = P.Align ? P.Align : ElemBytes;
    if (Al == 0 || (Al & (Al - 1))) {
      error(P.Loc, "parameter '" + P.Name + "' has invalid alignment");
      Al = 1;
    }
    Offset = (Offset + Al - 1) & ~(Al - 1);
    if (Offset + Size > 32764 + 4) {
      error(P.Loc, "kernel parameters exceed 32764 bytes at '" + P.Name + "'");
      break;
    }
    Info.Params.push_back({P.Name, Offset, uint32_t(Size), Al});
    Symbol S;
    S.K = Symbol::Param;
    S.Type = P.Type;
    S.ParamOffset = Offset;
    Scopes.back().Names[P.Name] = S;
    Offset += Size;
  }
  Info.ParamBufferSize = (Offset + 7) & ~7u;

  BasicBlock *Body = BasicBlock::Create(Ctx, "body", Fn);
  B.CreateBr(Body);
  B.SetInsertPoint(Body);
  collectLabels(*PF.Body);
  lowerBlock(*PF.Body);
  if (!B.GetInsertBlock()->getTerminator())
    B.CreateRetVoid();
  // Blocks that nothing branches to (after ret/bra) may be empty.
  for (BasicBlock &BB : *Fn)
    if (!BB.getTerminator()) {
      IRBuilder<> TB(&BB);
      TB.CreateUnreachable();
    }

  for (GlobalVariable &GV : ML.IR->globals())
    if (GV.getAddressSpace() == addrspace::Shared) {
      if (GV.hasMetadata("cuhip.dynamic_shared"))
        Info.UsesDynamicShared = true;
    }
  ML.Kernels.push_back(std::move(Info));
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
    Symbol S;
    S.K = Symbol::Reg;
    S.Type = R->second.Type;
    S.Slot = createSlot(llvmType(Ctx, S.Type), Name);
    return &(It->Names[Name] = S);
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
    Type *Ty = llvmType(Ctx, D.Type);
    if (!Ty) {
      error(D.Loc, "register '" + D.Name + "' has no valid type");
      return;
    }
    if (D.VectorWidth || !D.Dims.empty()) {
      error(D.Loc, "vector and array registers are not supported yet ('" +
                       D.Name + "')");
      return;
    }
    if (D.RangeCount) {
      S.Ranges[D.Name] = {D.Type, D.RangeCount};
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
  case StateSpace::Local: {
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
    A->setAlignment(Align(D.Align ? D.Align : std::max(1u, byteSize(D.Type))));
    Symbol Sym;
    Sym.K = Symbol::Var;
    Sym.LocalVar = A;
    Sym.Type = D.Type;
    Sym.Space = StateSpace::Local;
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
    if (S.K == Statement::Lbl) {
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
    case Statement::Instr:
      if (B.GetInsertBlock()->getTerminator())
        startDeadBlock();
      if (!lowerGuarded(S.I))
        lowerInstruction(S.I);
      break;
    }
  }
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
    return B.CreatePtrToInt(B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), ParamBuf,
                                                         S->ParamOffset),
                            B.getInt64Ty());
  case Symbol::Reg:
    break;
  case Symbol::Func:
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
  };
  for (const auto &E : Table)
    if (Name == E.Name)
      return B.CreateIntrinsic(E.ID, ArrayRef<Type *>{}, ArrayRef<Value *>{});
  if (Name == "WARP_SZ")
    return B.getInt32(32);
  return nullptr;
}

Value *FunctionLowering::readOperand(const Operand &O, Type *Want,
                                     bool Signed) {
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
  Symbol *S = lookup(O.Name);
  if (!S || S->K != Symbol::Reg) {
    error(O.Loc, S ? "'" + O.Name + "' is not a register"
                   : "use of undeclared register '" + O.Name + "'");
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
  StringRef Base = O.Name;
  int64_t Off = O.K == Operand::Address ? O.Offset : 0;
  if (Space == StateSpace::Param && !Base.empty()) {
    Symbol *S = lookup(Base);
    if (S && S->K == Symbol::Param) {
      PtrTy = PointerType::get(Ctx, 0);
      return B.CreateInBoundsGEP(B.getInt8Ty(), ParamBuf,
                                 B.getInt64(int64_t(S->ParamOffset) + Off));
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

FloatMods FunctionLowering::floatMods(const Instruction &I) {
  FloatMods M;
  for (const auto &X : I.Modifiers) {
    if (X == "rn" || X == "rz" || X == "rm" || X == "rp" || X == "rni" ||
        X == "rzi" || X == "rmi" || X == "rpi" || X == "rna" || X == "rs")
      M.Rounding = X;
    else if (X == "ftz")
      M.Ftz = true;
    else if (X == "sat")
      M.Sat = true;
    else if (X == "approx")
      M.Approx = true;
    else if (X == "full")
      M.Full = true;
  }
  return M;
}

/// Flushes an f32 subnormal to a zero of the same sign (the .ftz modifier).
Value *FunctionLowering::flush(Value *V) {
  if (!V->getType()->isFloatTy())
    return V;
  Value *Abs = callIntrinsic(Intrinsic::fabs, {V->getType()}, {V});
  Value *Tiny = B.CreateFCmpOLT(
      Abs, ConstantFP::get(V->getType(), 1.17549435082228750797e-38));
  Value *Zero = callIntrinsic(Intrinsic::copysign, {V->getType()},
                              {ConstantFP::get(V->getType(), 0.0), V});
  return B.CreateSelect(Tiny, Zero, V);
}

/// The .sat modifier of float results: clamp to [0, 1], NaN becomes 0.
Value *FunctionLowering::saturate(Value *V) {
  Type *Ty = V->getType();
  Value *Lo = callIntrinsic(Intrinsic::maxnum, {Ty}, {V, ConstantFP::get(Ty, 0.0)});
  return callIntrinsic(Intrinsic::minnum, {Ty}, {Lo, ConstantFP::get(Ty, 1.0)});
}

/// Only round-to-nearest is implemented for now; directed rounding modes are
/// reported rather than silently computed with the wrong rounding.
bool FunctionLowering::checkRounding(const Instruction &I,
                                     const FloatMods &M) {
  if (M.Rounding.empty() || M.Rounding == "rn")
    return true;
  unsupported(I, "rounding mode ." + M.Rounding + " is not implemented yet");
  return false;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

void FunctionLowering::lowerInstruction(const Instruction &I) {
  const std::string &Op = I.Opcode;
  if (Op == "mov")
    return lowerMov(I);
  if (Op == "ld" || Op == "ldu")
    return lowerLoadStore(I, true);
  if (Op == "st")
    return lowerLoadStore(I, false);
  if (Op == "setp")
    return lowerSetp(I);
  if (Op == "selp")
    return lowerSelp(I);
  if (Op == "cvt")
    return lowerCvt(I);
  if (Op == "cvta")
    return lowerCvta(I);
  if (Op == "bar" || Op == "barrier")
    return lowerBarrier(I);
  if (Op == "atom")
    return lowerAtomic(I, false);
  if (Op == "red")
    return lowerAtomic(I, true);
  if (Op == "and" || Op == "or" || Op == "xor" || Op == "not" || Op == "cnot")
    return lowerLogic(I);
  if (Op == "shl" || Op == "shr")
    return lowerShift(I);
  if (Op == "popc" || Op == "clz" || Op == "brev")
    return lowerBitCount(I);
  if (Op == "membar" || Op == "fence") {
    if (I.hasModifier("proxy")) {
      unsupported(I);
      return;
    }
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    return;
  }
  if (Op == "bra") {
    if (BasicBlock *Target = branchTarget(I))
      B.CreateBr(Target);
    return;
  }
  if (Op == "ret" || Op == "exit") {
    B.CreateRetVoid();
    return;
  }
  if (Op == "add" || Op == "sub" || Op == "mul" || Op == "mad" ||
      Op == "div" || Op == "rem" || Op == "min" || Op == "max" ||
      Op == "abs" || Op == "neg" || Op == "fma" || Op == "sqrt" ||
      Op == "rcp" || Op == "rsqrt" || Op == "ex2" || Op == "lg2" ||
      Op == "sin" || Op == "cos" || Op == "tanh") {
    ScalarType T = instrType(I);
    if (T == ScalarType::None) {
      unsupported(I, "no operand type");
      return;
    }
    if (isFloat(T))
      return lowerFloatArith(I);
    return lowerIntArith(I);
  }
  unsupported(I);
}

void FunctionLowering::lowerMov(const Instruction &I) {
  ScalarType T = instrType(I);
  if (T == ScalarType::None || I.Operands.size() != 2) {
    unsupported(I, "expected mov.type d, a");
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  write(I.Operands[0], read(I, 1, Ty, false), false);
}

void FunctionLowering::lowerLoadStore(const Instruction &I, bool IsLoad) {
  ScalarType T = instrType(I);
  StateSpace Space = spaceOf(I);
  if (T == ScalarType::None || I.Operands.size() != 2) {
    unsupported(I, "expected a typed access with two operands");
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
    unsupported(I, "vector accesses cannot carry memory-order qualifiers");
    return;
  }
  if (Space != StateSpace::Global && Space != StateSpace::Shared &&
      Space != StateSpace::Local && Space != StateSpace::Const &&
      Space != StateSpace::Param && Space != StateSpace::Generic) {
    unsupported(I, "state space");
    return;
  }
  const Operand &AddrOp = I.Operands[IsLoad ? 1 : 0];
  const Operand &ValOp = I.Operands[IsLoad ? 0 : 1];
  Type *PtrTy;
  Value *Ptr = addressOf(AddrOp, Space, PtrTy);
  if (!Ptr)
    return;
  Type *ElemTy = llvmType(Ctx, T);
  bool Signed = isSignedInt(T);
  unsigned Bytes = byteSize(T);
  if (T == ScalarType::Pred) {
    unsupported(I, "predicate type");
    return;
  }
  if (Vec) {
    if (ValOp.K != Operand::Vector || ValOp.Elements.size() != Vec) {
      error(ValOp.Loc, "'" + I.fullName() + "' needs a {…} operand of " +
                           std::to_string(Vec) + " elements");
      return;
    }
    for (unsigned E = 0; E < Vec; ++E) {
      Value *EP = B.CreateConstInBoundsGEP1_64(ElemTy, Ptr, E);
      if (IsLoad) {
        LoadInst *L = B.CreateAlignedLoad(
            ElemTy, EP, Align(E == 0 ? Bytes * Vec : Bytes), Volatile);
        if (Space == StateSpace::Global && I.hasModifier("nc"))
          L->setMetadata(LLVMContext::MD_invariant_load,
                         MDNode::get(Ctx, {}));
        write(ValOp.Elements[E], L, Signed);
      } else {
        Value *V = readOperand(ValOp.Elements[E], ElemTy, Signed);
        if (!V)
          return;
        B.CreateAlignedStore(V, EP, Align(E == 0 ? Bytes * Vec : Bytes),
                             Volatile);
      }
    }
    return;
  }
  if (IsLoad) {
    LoadInst *L = B.CreateAlignedLoad(ElemTy, Ptr, Align(Bytes), Volatile);
    if (Ord != AtomicOrdering::NotAtomic)
      L->setAtomic(Ord);
    if ((Space == StateSpace::Global && I.hasModifier("nc")) ||
        Space == StateSpace::Param)
      L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    write(ValOp, L, Signed);
  } else {
    if (Space == StateSpace::Param || Space == StateSpace::Const) {
      unsupported(I, "stores to ." + std::string(stateSpaceName(Space)));
      return;
    }
    Value *V = readOperand(ValOp, ElemTy, Signed);
    if (!V)
      return;
    StoreInst *S = B.CreateAlignedStore(V, Ptr, Align(Bytes), Volatile);
    if (Ord != AtomicOrdering::NotAtomic)
      S->setAtomic(Ord);
  }
}

void FunctionLowering::lowerIntArith(const Instruction &I) {
  const std::string &Op = I.Opcode;
  ScalarType T = instrType(I);
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  bool Hi = I.hasModifier("hi"), Wide = I.hasModifier("wide");
  bool Sat = I.hasModifier("sat");
  if (I.hasModifier("cc")) {
    unsupported(I, "carry chains");
    return;
  }
  if (Op == "abs" || Op == "neg") {
    Value *A = read(I, 1, Ty, Signed);
    if (!A)
      return;
    Value *R = Op == "abs" ? callIntrinsic(Intrinsic::abs, {Ty},
                                           {A, B.getFalse()})
                           : B.CreateNeg(A);
    write(I.Operands[0], R, Signed);
    return;
  }
  Value *A = read(I, 1, Ty, Signed);
  Value *Bv = read(I, 2, Ty, Signed);
  if (!A || !Bv)
    return;
  Value *R = nullptr;
  if (Op == "add" || Op == "sub") {
    if (Sat) {
      if (!Signed || W != 32) {
        unsupported(I, ".sat applies to s32 only");
        return;
      }
      R = callIntrinsic(Op == "add" ? Intrinsic::sadd_sat : Intrinsic::ssub_sat,
                        {Ty}, {A, Bv});
    } else {
      R = Op == "add" ? B.CreateAdd(A, Bv) : B.CreateSub(A, Bv);
    }
  } else if (Op == "mul" || Op == "mad") {
    Value *C = nullptr;
    if (Op == "mad") {
      C = read(I, 3, Wide ? B.getIntNTy(2 * W) : Ty, Signed);
      if (!C)
        return;
      if (Sat) {
        unsupported(I, "mad.sat");
        return;
      }
    }
    if (Wide || Hi) {
      Type *WTy = B.getIntNTy(2 * W);
      Value *P = B.CreateMul(Signed ? B.CreateSExt(A, WTy) : B.CreateZExt(A, WTy),
                             Signed ? B.CreateSExt(Bv, WTy)
                                    : B.CreateZExt(Bv, WTy));
      if (Hi) {
        R = B.CreateTrunc(B.CreateLShr(P, W), Ty);
        if (C)
          R = B.CreateAdd(R, C);
      } else {
        R = C ? B.CreateAdd(P, C) : P;
      }
      write(I.Operands[0], R, Signed);
      return;
    }
    R = B.CreateMul(A, Bv);
    if (C)
      R = B.CreateAdd(R, C);
  } else if (Op == "div" || Op == "rem") {
    // PTX leaves division by zero unspecified but it must not trap the host:
    // divide by 1 instead and return all ones (what NVIDIA GPUs produce for
    // unsigned division) or the dividend for rem.
    Value *Zero = ConstantInt::get(Ty, 0);
    Value *IsZero = B.CreateICmpEQ(Bv, Zero);
    Value *Safe = B.CreateSelect(IsZero, ConstantInt::get(Ty, 1), Bv);
    if (Signed) {
      // INT_MIN / -1 overflows (and traps on x86): its PTX result wraps.
      Value *Ovf = B.CreateAnd(
          B.CreateICmpEQ(A, ConstantInt::get(Ty, APInt::getSignedMinValue(W))),
          B.CreateICmpEQ(Bv, ConstantInt::getAllOnesValue(Ty)));
      Safe = B.CreateSelect(Ovf, ConstantInt::get(Ty, 1), Safe);
      Value *Q = Op == "div" ? B.CreateSDiv(A, Safe) : B.CreateSRem(A, Safe);
      Q = B.CreateSelect(Ovf, Op == "div" ? A : Zero, Q);
      R = B.CreateSelect(IsZero,
                         Op == "div" ? ConstantInt::getAllOnesValue(Ty) : A, Q);
    } else {
      Value *Q = Op == "div" ? B.CreateUDiv(A, Safe) : B.CreateURem(A, Safe);
      R = B.CreateSelect(IsZero,
                         Op == "div" ? ConstantInt::getAllOnesValue(Ty) : A, Q);
    }
  } else if (Op == "min" || Op == "max") {
    Intrinsic::ID ID = Op == "min" ? (Signed ? Intrinsic::smin : Intrinsic::umin)
                                   : (Signed ? Intrinsic::smax : Intrinsic::umax);
    R = callIntrinsic(ID, {Ty}, {A, Bv});
  } else {
    unsupported(I);
    return;
  }
  write(I.Operands[0], R, Signed);
}

void FunctionLowering::lowerFloatArith(const Instruction &I) {
  const std::string &Op = I.Opcode;
  ScalarType T = instrType(I);
  if (T != ScalarType::F32 && T != ScalarType::F64) {
    unsupported(I, "only f32 and f64 arithmetic is implemented yet");
    return;
  }
  FloatMods M = floatMods(I);
  Type *Ty = llvmType(Ctx, T);
  bool Unary = Op == "abs" || Op == "neg" || Op == "sqrt" || Op == "rcp" ||
               Op == "rsqrt" || Op == "ex2" || Op == "lg2" || Op == "sin" ||
               Op == "cos" || Op == "tanh";
  if (!checkRounding(I, M))
    return;
  if (I.hasModifier("NaN") || I.hasModifier("xorsign") ||
      I.hasModifier("oob")) {
    unsupported(I);
    return;
  }
  auto in = [&](unsigned Idx) -> Value * {
    Value *V = read(I, Idx, Ty, false);
    return V && M.Ftz ? flush(V) : V;
  };
  Value *R = nullptr;
  if (Unary) {
    Value *A = in(1);
    if (!A)
      return;
    if (Op == "abs")
      R = callIntrinsic(Intrinsic::fabs, {Ty}, {A});
    else if (Op == "neg")
      R = B.CreateFNeg(A);
    else if (Op == "sqrt")
      R = callIntrinsic(Intrinsic::sqrt, {Ty}, {A});
    else if (Op == "rcp")
      R = B.CreateFDiv(ConstantFP::get(Ty, 1.0), A);
    else if (Op == "rsqrt")
      R = B.CreateFDiv(ConstantFP::get(Ty, 1.0),
                       callIntrinsic(Intrinsic::sqrt, {Ty}, {A}));
    else if (Op == "ex2")
      R = callIntrinsic(Intrinsic::exp2, {Ty}, {A});
    else if (Op == "lg2")
      R = callIntrinsic(Intrinsic::log2, {Ty}, {A});
    else if (Op == "sin")
      R = callIntrinsic(Intrinsic::sin, {Ty}, {A});
    else if (Op == "cos")
      R = callIntrinsic(Intrinsic::cos, {Ty}, {A});
    else if (Op == "tanh")
      R = callIntrinsic(Intrinsic::tanh, {Ty}, {A});
  } else {
    Value *A = in(1), *Bv = in(2);
    if (!A || !Bv)
      return;
    if (Op == "add")
      R = B.CreateFAdd(A, Bv);
    else if (Op == "sub")
      R = B.CreateFSub(A, Bv);
    else if (Op == "mul")
      R = B.CreateFMul(A, Bv);
    else if (Op == "div")
      R = B.CreateFDiv(A, Bv);
    else if (Op == "min")
      R = callIntrinsic(Intrinsic::minnum, {Ty}, {A, Bv});
    else if (Op == "max")
      R = callIntrinsic(Intrinsic::maxnum, {Ty}, {A, Bv});
    else if (Op == "fma" || Op == "mad") {
      if (Op == "mad" && M.Rounding.empty() && T == ScalarType::F64) {
        unsupported(I, "mad.f64 requires a rounding modifier");
        return;
      }
      Value *C = in(3);
      if (!C)
        return;
      // mad.f32 without rounding is an unfused multiply-add on sm_1x but a
      // fused one on every target PTX 9 still supports.
      R = callIntrinsic(Intrinsic::fma, {Ty}, {A, Bv, C});
    } else {
      unsupported(I);
      return;
    }
  }
  if (M.Ftz)
    R = flush(R);
  if (M.Sat)
    R = saturate(R);
  write(I.Operands[0], R, false);
}

void FunctionLowering::lowerSetp(const Instruction &I) {
  // setp.CmpOp[.ftz][.BoolOp].type p[|q], a, b[, {!}c]
  if (I.Modifiers.size() < 2) {
    unsupported(I);
    return;
  }
  const std::string &Cmp = I.Modifiers[0];
  ScalarType T = instrType(I);
  std::string BoolOp;
  for (const auto &M : I.Modifiers)
    if (M == "and" || M == "or" || M == "xor")
      BoolOp = M;
  if (T == ScalarType::None || I.Operands.size() < 3) {
    unsupported(I);
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  bool IsF = isFloat(T);
  if (IsF && T != ScalarType::F32 && T != ScalarType::F64) {
    unsupported(I, "half-precision compares are not implemented yet");
    return;
  }
  Value *A = read(I, 1, Ty, isSignedInt(T));
  Value *Bv = read(I, 2, Ty, isSignedInt(T));
  if (!A || !Bv)
    return;
  if (IsF && I.hasModifier("ftz")) {
    A = flush(A);
    Bv = flush(Bv);
  }
  CmpInst::Predicate P;
  bool S = isSignedInt(T);
  static const struct {
    const char *N;
    CmpInst::Predicate SI, UI, F;
  } Table[] = {
      {"eq", ICmpInst::ICMP_EQ, ICmpInst::ICMP_EQ, FCmpInst::FCMP_OEQ},
      {"ne", ICmpInst::ICMP_NE, ICmpInst::ICMP_NE, FCmpInst::FCMP_ONE},
      {"lt", ICmpInst::ICMP_SLT, ICmpInst::ICMP_ULT, FCmpInst::FCMP_OLT},
      {"le", ICmpInst::ICMP_SLE, ICmpInst::ICMP_ULE, FCmpInst::FCMP_OLE},
      {"gt", ICmpInst::ICMP_SGT, ICmpInst::ICMP_UGT, FCmpInst::FCMP_OGT},
      {"ge", ICmpInst::ICMP_SGE, ICmpInst::ICMP_UGE, FCmpInst::FCMP_OGE},
      {"lo", ICmpInst::ICMP_ULT, ICmpInst::ICMP_ULT, CmpInst::BAD_FCMP_PREDICATE},
      {"ls", ICmpInst::ICMP_ULE, ICmpInst::ICMP_ULE, CmpInst::BAD_FCMP_PREDICATE},
      {"hi", ICmpInst::ICMP_UGT, ICmpInst::ICMP_UGT, CmpInst::BAD_FCMP_PREDICATE},
      {"hs", ICmpInst::ICMP_UGE, ICmpInst::ICMP_UGE, CmpInst::BAD_FCMP_PREDICATE},
      {"equ", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UEQ},
      {"neu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UNE},
      {"ltu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_ULT},
      {"leu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_ULE},
      {"gtu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UGT},
      {"geu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UGE},
      {"num", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_ORD},
      {"nan", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UNO},
  };
  P = CmpInst::BAD_ICMP_PREDICATE;
  for (const auto &E : Table)
    if (Cmp == E.N)
      P = IsF ? E.F : (S ? E.SI : E.UI);
  if (P == CmpInst::BAD_ICMP_PREDICATE || P == CmpInst::BAD_FCMP_PREDICATE) {
    unsupported(I, "comparison ." + Cmp + " for this type");
    return;
  }
  Value *R = IsF ? B.CreateFCmp(P, A, Bv) : B.CreateICmp(P, A, Bv);
  Value *Q = nullptr;
  if (!BoolOp.empty()) {
    Value *C = read(I, 3, B.getInt1Ty(), false);
    if (!C)
      return;
    auto combine = [&](Value *X) {
      return BoolOp == "and" ? B.CreateAnd(X, C)
             : BoolOp == "or" ? B.CreateOr(X, C)
                              : B.CreateXor(X, C);
    };
    if (I.Operands[0].Pair)
      Q = combine(B.CreateNot(R));
    R = combine(R);
  } else if (I.Operands[0].Pair) {
    Q = B.CreateNot(R);
  }
  write(I.Operands[0], R, false);
  if (Q)
    write(*I.Operands[0].Pair, Q, false);
}

void FunctionLowering::lowerSelp(const Instruction &I) {
  ScalarType T = instrType(I);
  if (T == ScalarType::None) {
    unsupported(I);
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  Value *A = read(I, 1, Ty, isSignedInt(T));
  Value *Bv = read(I, 2, Ty, isSignedInt(T));
  Value *C = read(I, 3, B.getInt1Ty(), false);
  if (!A || !Bv || !C)
    return;
  write(I.Operands[0], B.CreateSelect(C, A, Bv), isSignedInt(T));
}

void FunctionLowering::lowerCvt(const Instruction &I) {
  ScalarType DT = instrType(I, 0), ST = instrType(I, 1);
  if (DT == ScalarType::None || ST == ScalarType::None ||
      I.Operands.size() != 2) {
    unsupported(I, "expected cvt.dtype.stype d, a");
    return;
  }
  FloatMods M = floatMods(I);
  Type *DTy = llvmType(Ctx, DT), *STy = llvmType(Ctx, ST);
  bool DF = isFloat(DT), SF = isFloat(ST);
  auto isPlainFloat = [](ScalarType T) {
    return T == ScalarType::F32 || T == ScalarType::F64 ||
           T == ScalarType::F16 || T == ScalarType::BF16;
  };
  if ((DF && !isPlainFloat(DT)) || (SF && !isPlainFloat(ST))) {
    unsupported(I, "packed conversions are not implemented yet");
    return;
  }
  Value *A = read(I, 1, STy, isSignedInt(ST));
  if (!A)
    return;
  if (SF && M.Ftz)
    A = flush(A);
  Value *R = nullptr;
  if (!DF && !SF) {
    // Integer resize; .sat clamps to the destination range.
    if (M.Sat) {
      unsigned DW = DTy->getIntegerBitWidth(), SW = STy->getIntegerBitWidth();
      unsigned WW = std::max(DW, SW) + 1;
      Type *WTy = B.getIntNTy(WW);
      Value *X = isSignedInt(ST) ? B.CreateSExt(A, WTy) : B.CreateZExt(A, WTy);
      APInt Lo = isSignedInt(DT) ? APInt::getSignedMinValue(DW).sext(WW)
                                 : APInt::getZero(WW);
      APInt Hi = isSignedInt(DT) ? APInt::getSignedMaxValue(DW).sext(WW)
                                 : APInt::getMaxValue(DW).zext(WW);
      X = callIntrinsic(Intrinsic::smax, {WTy}, {X, ConstantInt::get(WTy, Lo)});
      X = callIntrinsic(Intrinsic::smin, {WTy}, {X, ConstantInt::get(WTy, Hi)});
      R = B.CreateTrunc(X, DTy);
    } else {
      R = isSignedInt(ST) ? B.CreateSExtOrTrunc(A, DTy)
                          : B.CreateZExtOrTrunc(A, DTy);
    }
  } else if (SF && !DF) {
    // Float to integer: the rounding is part of the instruction (.rzi is
    // C's truncation); out-of-range values saturate and NaN gives 0.
    Intrinsic::ID Round = Intrinsic::trunc;
    if (M.Rounding == "rni")
      Round = Intrinsic::roundeven;
    else if (M.Rounding == "rmi")
      Round = Intrinsic::floor;
    else if (M.Rounding == "rpi")
      Round = Intrinsic::ceil;
    else if (M.Rounding != "rzi") {
      unsupported(I, "float-to-integer conversion needs .rni/.rzi/.rmi/.rpi");
      return;
    }
    if (!STy->isFloatTy() && !STy->isDoubleTy())
      A = B.CreateFPExt(A, B.getFloatTy());
    Value *Rounded = callIntrinsic(Round, {A->getType()}, {A});
    R = callIntrinsic(isSignedInt(DT) ? Intrinsic::fptosi_sat
                                      : Intrinsic::fptoui_sat,
                      {DTy, A->getType()}, {Rounded});
  } else if (!SF && DF) {
    if (!M.Rounding.empty() && M.Rounding != "rn") {
      unsupported(I, "rounding mode ." + M.Rounding);
      return;
    }
    R = isSignedInt(ST) ? B.CreateSIToFP(A, DTy) : B.CreateUIToFP(A, DTy);
  } else {
    unsigned DW = DTy->getPrimitiveSizeInBits(), SW = STy->getPrimitiveSizeInBits();
    if (DW > SW || (DW == SW && DTy != STy)) {
      R = B.CreateFPExt(A, DW > SW ? DTy : B.getFloatTy());
      if (R->getType() != DTy)
        R = B.CreateFPTrunc(R, DTy);
    } else if (DW < SW) {
      if (!M.Rounding.empty() && M.Rounding != "rn") {
        unsupported(I, "rounding mode ." + M.Rounding);
        return;
      }
      R = B.CreateFPTrunc(A, DTy);
    } else {
      // Same type: round to an integral value.
      Intrinsic::ID Round = Intrinsic::not_intrinsic;
      if (M.Rounding == "rni")
        Round = Intrinsic::roundeven;
      else if (M.Rounding == "rzi")
        Round = Intrinsic::trunc;
      else if (M.Rounding == "rmi")
        Round = Intrinsic::floor;
      else if (M.Rounding == "rpi")
        Round = Intrinsic::ceil;
      R = Round == Intrinsic::not_intrinsic
              ? A
              : callIntrinsic(Round, {DTy}, {A});
    }
  }
  if (DF && M.Ftz)
    R = flush(R);
  if (DF && M.Sat)
    R = saturate(R);
  write(I.Operands[0], R, isSignedInt(DT));
}

/// cvta converts between a state space's window address and a generic one.
/// Global and const windows coincide with generic addresses; shared and local
/// go through an addrspacecast so each target can place its windows.
void FunctionLowering::lowerCvta(const Instruction &I) {
  bool ToSpace = I.hasModifier("to");
  StateSpace Space = spaceOf(I);
  ScalarType T = instrType(I);
  if (T == ScalarType::None || I.Operands.size() != 2 ||
      Space == StateSpace::Generic) {
    unsupported(I, "expected cvta[.to].space.size d, a");
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  Value *A = read(I, 1, Ty, false);
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
    Value *P = B.CreateIntToPtr(A, PointerType::get(Ctx, FromAS));
    R = B.CreatePtrToInt(B.CreateAddrSpaceCast(P, PointerType::get(Ctx, ToAS)),
                         Ty);
  }
  write(I.Operands[0], R, false);
}

void FunctionLowering::lowerBarrier(const Instruction &I) {
  // bar.sync a{, b}; barrier.sync[.aligned] a{, b}; bar{.cta}.sync …
  bool Sync = I.hasModifier("sync") || (I.Opcode == "barrier" &&
                                        I.Modifiers.empty());
  if (I.hasModifier("warp")) {
    unsupported(I, "warp barriers are not implemented yet");
    return;
  }
  if (!Sync || I.hasModifier("arrive") || I.hasModifier("red") ||
      I.Operands.empty() || I.Operands.size() > 2) {
    unsupported(I);
    return;
  }
  Value *Id = read(I, 0, B.getInt32Ty(), false);
  if (!Id)
    return;
  if (I.Operands.size() == 2) {
    Value *Cnt = read(I, 1, B.getInt32Ty(), false);
    if (!Cnt)
      return;
    B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_count,
                      ArrayRef<Type *>{}, {Id, Cnt});
  } else {
    B.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all,
                      ArrayRef<Type *>{}, {Id});
  }
}

void FunctionLowering::lowerAtomic(const Instruction &I, bool IsRed) {
  ScalarType T = instrType(I);
  StateSpace Space = spaceOf(I);
  if (T == ScalarType::None) {
    unsupported(I);
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
    unsupported(I);
    return;
  }
  unsigned First = IsRed ? 0 : 1;
  if (I.Operands.size() < First + 2) {
    unsupported(I, "missing operands");
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  bool Signed = isSignedInt(T);
  Type *PtrTy;
  Value *Ptr = addressOf(I.Operands[First], Space, PtrTy);
  Value *V = read(I, First + 1, Ty, Signed);
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
    Value *New = read(I, First + 2, Ty, Signed);
    if (!New)
      return;
    Value *CmpV = V, *NewV = New;
    if (Ty->isFloatingPointTy()) {
      Type *ITy = B.getIntNTy(Ty->getPrimitiveSizeInBits());
      CmpV = B.CreateBitCast(CmpV, ITy);
      NewV = B.CreateBitCast(NewV, ITy);
    }
    auto *X = B.CreateAtomicCmpXchg(
        Ptr, CmpV, NewV, MaybeAlign(byteSize(T)), Ord,
        Ord == AtomicOrdering::Release || Ord == AtomicOrdering::AcquireRelease
            ? AtomicOrdering::Monotonic
            : Ord);
    R = B.CreateExtractValue(X, 0);
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
      unsupported(I);
      return;
    }
    R = B.CreateAtomicRMW(BO, Ptr, V, MaybeAlign(byteSize(T)), Ord);
  }
  if (!IsRed)
    write(I.Operands[0], R, Signed);
}

void FunctionLowering::lowerLogic(const Instruction &I) {
  ScalarType T = instrType(I);
  if (T == ScalarType::None) {
    unsupported(I);
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  Value *A = read(I, 1, Ty, false);
  if (!A)
    return;
  Value *R;
  if (I.Opcode == "not") {
    R = B.CreateNot(A);
  } else if (I.Opcode == "cnot") {
    R = B.CreateZExt(B.CreateICmpEQ(A, ConstantInt::get(Ty, 0)), Ty);
  } else {
    Value *Bv = read(I, 2, Ty, false);
    if (!Bv)
      return;
    R = I.Opcode == "and"  ? B.CreateAnd(A, Bv)
        : I.Opcode == "or" ? B.CreateOr(A, Bv)
                           : B.CreateXor(A, Bv);
  }
  write(I.Operands[0], R, false);
}

void FunctionLowering::lowerShift(const Instruction &I) {
  ScalarType T = instrType(I);
  if (T == ScalarType::None || isFloat(T) || T == ScalarType::Pred) {
    unsupported(I);
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  Value *A = read(I, 1, Ty, false);
  Value *Amt = read(I, 2, B.getInt32Ty(), false);
  if (!A || !Amt)
    return;
  // PTX clamps shift amounts larger than the width; LLVM would give poison.
  Value *Big = B.CreateICmpUGE(Amt, B.getInt32(W));
  Value *AmtW = B.CreateZExtOrTrunc(
      B.CreateSelect(Big, B.getInt32(W - 1), Amt), Ty);
  Value *R;
  if (I.Opcode == "shl") {
    R = B.CreateSelect(Big, ConstantInt::get(Ty, 0), B.CreateShl(A, AmtW));
  } else if (isSignedInt(T)) {
    R = B.CreateAShr(A, AmtW);
  } else {
    R = B.CreateSelect(Big, ConstantInt::get(Ty, 0), B.CreateLShr(A, AmtW));
  }
  write(I.Operands[0], R, false);
}

void FunctionLowering::lowerBitCount(const Instruction &I) {
  ScalarType T = instrType(I);
  if (T == ScalarType::None || isFloat(T)) {
    unsupported(I);
    return;
  }
  Type *Ty = llvmType(Ctx, T);
  Value *A = read(I, 1, Ty, false);
  if (!A)
    return;
  Value *R;
  if (I.Opcode == "popc")
    R = B.CreateZExtOrTrunc(callIntrinsic(Intrinsic::ctpop, {Ty}, {A}),
                            B.getInt32Ty());
  else if (I.Opcode == "clz")
    R = B.CreateZExtOrTrunc(
        callIntrinsic(Intrinsic::ctlz, {Ty}, {A, B.getFalse()}),
        B.getInt32Ty());
  else
    R = callIntrinsic(Intrinsic::bitreverse, {Ty}, {A});
  write(I.Operands[0], R, false);
}

} // namespace

std::optional<LoweredModule> lowerModule(const Module &Mod, LLVMContext &Ctx,
                                         DiagnosticEngine &Diags) {
  return ModuleLowering(Mod, Ctx, Diags).run();
}

} // namespace cuhip::ptx
