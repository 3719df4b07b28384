//===- LowerImpl.h - Shared state of the PTX-to-IR lowering ---------------===//
//
// The lowering is split by instruction family (LowerInteger.cpp,
// LowerFloat.cpp, LowerConvert.cpp, LowerMemory.cpp, LowerControl.cpp, ...);
// this header holds what they share: the per-module and per-function state,
// operand access, and the opcode table each family registers its handlers
// in. Adding an instruction is a handler in its family's file and one row in
// that file's register function.
//
//===----------------------------------------------------------------------===//
#pragma once

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
#include <string_view>
#include <unordered_map>

namespace cuhip::ptx::lower {

using namespace llvm;
// The PTX AST's names win over LLVM's inside the lowering.
using cuhip::ptx::Block;
using cuhip::ptx::Function;
using cuhip::ptx::Instruction;
using cuhip::ptx::Module;


inline Type *llvmType(LLVMContext &C, ScalarType T) {
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
  case ScalarType::U16x2: case ScalarType::S16x2:
    return Type::getInt32Ty(C);
  case ScalarType::None: break;
  }
  return nullptr;
}

inline unsigned byteSize(ScalarType T) {
  unsigned Bits = scalarTypeBits(T);
  return Bits <= 8 ? 1 : Bits / 8;
}

inline unsigned spaceToAddrSpace(StateSpace S) {
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
  enum Kind { Reg, Var, Param } K = Reg;
  AllocaInst *Slot = nullptr;      // Reg
  ScalarType Type = ScalarType::None;
  GlobalVariable *GV = nullptr;    // Var in global/shared/const
  AllocaInst *LocalVar = nullptr;  // Var in .local, or a call's .param
  StateSpace Space = StateSpace::None;
  uint32_t ParamOffset = 0;        // Param: offset in ParamBase
  Value *ParamBase = nullptr;      // Param: the argument or return buffer
  uint32_t Bytes = 0, Alignment = 1; // Var: size and alignment
  /// Reg: a `.v2`/`.v4` vector register, which has no slot of its own; its
  /// elements are registers named `%v.x`, `%v.y`, ... in the same scope.
  unsigned VectorWidth = 0;
};

/// Size and alignment of a parameter as PTX lays out parameter lists.
struct ParamLayout {
  uint32_t Bytes = 0, Alignment = 1;
};
inline ParamLayout paramLayout(const Param &P) {
  unsigned ElemBytes = byteSize(P.Type) * std::max(1u, P.VectorWidth);
  ParamLayout L;
  L.Bytes = uint32_t(uint64_t(ElemBytes) * std::max<uint64_t>(1, P.ArrayCount));
  L.Alignment = P.Align ? P.Align : ElemBytes;
  return L;
}

/// Rounding and flushing modifiers that an instruction carries.
struct FloatMods {
  std::string Rounding; // "", "rn", "rz", "rm", "rp", "rni", ...
  bool Ftz = false, Sat = false, Approx = false, Full = false;
};

class FunctionLowering;

class ModuleLowering {
public:
  ModuleLowering(const Module &M, LLVMContext &C, DiagnosticEngine &D,
                 const LowerOptions &O)
      : PM(M), Ctx(C), Diags(D), Options(O) {}

  std::optional<LoweredModule> run();

  const Module &PM;
  LLVMContext &Ctx;
  DiagnosticEngine &Diags;
  LowerOptions Options;
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
  /// LowerOptions::SourceLines: attaches Line to the instructions created
  /// after StartLast in StartBB and in the blocks after LastBB.
  void tagSourceLine(uint32_t Line, BasicBlock *StartBB,
                     llvm::Instruction *StartLast,
                     BasicBlock *LastBB);
  /// `ret`: hands register return values back, then returns.
  void emitReturn();

  // Everything below is used by the instruction families' handlers.
  ModuleLowering &ML;
  const ptx::Function &PF;
  LLVMContext &Ctx;
  IRBuilder<> B;
  llvm::Function *Fn = nullptr;
  Argument *ParamBuf = nullptr;  // kernels: parameters; .func: arguments
  Argument *RetBuf = nullptr;    // .func: return values
  /// .func return values declared as registers: copied to RetBuf at `ret`.
  SmallVector<std::pair<AllocaInst *, uint32_t>> RegReturns;
  BasicBlock *AllocaBlock = nullptr;
  KernelInfo Info;

  // Scopes: innermost last. Register ranges resolve lazily.
  struct RangeDecl {
    ScalarType Type;
    unsigned Count;
    unsigned VectorWidth;
  };
  struct Scope {
    StringMap<Symbol> Names;
    StringMap<RangeDecl> Ranges;
  };
  std::vector<Scope> Scopes;
  StringMap<BasicBlock *> Labels;
  /// .branchtargets lists by their label, for brx.idx.
  StringMap<std::vector<std::string>> BranchTables;
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
  /// Declares the vector register Name (and its element registers) in S.
  Symbol &declareVectorRegister(Scope &S, StringRef Name, ScalarType Type,
                                unsigned Width);
  /// I with every whole vector register operand written as the brace list
  /// of its elements; false (and a diagnostic) on a misused register part.
  bool expandVectorOperands(const Instruction &I, Instruction &Out,
                            bool &Changed);
  bool checkRegisterParts(const Instruction &I, const Operand &O,
                          unsigned Depth, bool &Expand);
  bool HasVectorRegisters = false;
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
  Value *arrayElementOffset(const Operand &O, Type *IntTy);
  void write(const Operand &O, Value *V, bool Signed);
  Value *symbolAddress(const Operand &O, StringRef Name, SourceLoc L);
  Value *addressOf(const Operand &O, StateSpace Space, Type *&PtrTy);
  StateSpace spaceOf(const Instruction &I);
  Value *readSpecial(StringRef Name, SourceLoc L);
  FloatMods floatMods(const Instruction &I);
  Value *flush(Value *V);
  Value *saturate(Value *V);

  Value *callIntrinsic(Intrinsic::ID ID, ArrayRef<Type *> Tys,
                       ArrayRef<Value *> Args) {
    return B.CreateIntrinsic(ID, Tys, Args);
  }

  /// PTX's hidden CC.CF carry flag of the .cc / addc / subc / madc chain;
  /// an i1 slot created on first use by LowerInteger.cpp.
  AllocaInst *CarryFlag = nullptr;
};

/// `%v.x`, `%v.y`, ...: the register holding element Index of vector Vector.
std::string vectorElementName(StringRef Vector, unsigned Index);
/// The inverse: false when Name is not of the form `vector.x`.
bool splitVectorElementName(StringRef Name, StringRef &Vector, unsigned &Index);
/// Whether `.reg .vWidth .T` declares a register the ISA allows.
bool validVectorRegister(ScalarType T, unsigned Width);
const char *vectorRegisterRule();

/// An instruction handler: lowers one PTX instruction at L's insertion point,
/// or reports why it cannot.
using Handler = void (*)(FunctionLowering &L, const Instruction &I);
using OpcodeTable = std::unordered_map<std::string_view, Handler>;

// Each family adds its opcodes to the table.
void registerMovementInstructions(OpcodeTable &T);   // LowerConvert.cpp
void registerIntegerInstructions(OpcodeTable &T);    // LowerInteger.cpp
void registerFloatInstructions(OpcodeTable &T);      // LowerFloat.cpp
void registerMemoryInstructions(OpcodeTable &T);     // LowerMemory.cpp
void registerControlInstructions(OpcodeTable &T);    // LowerControl.cpp
void registerWarpInstructions(OpcodeTable &T);       // LowerWarp.cpp
void registerMatrixInstructions(OpcodeTable &T);     // LowerMatrix.cpp
void registerTextureInstructions(OpcodeTable &T);    // LowerTexture.cpp
void registerVideoInstructions(OpcodeTable &T);      // LowerVideo.cpp
/// vadd ... vset4: the instructions whose operands carry part selectors.
bool isVideoInstruction(StringRef Opcode);
void registerMbarrierInstructions(OpcodeTable &T);   // LowerMbarrier.cpp

/// cp.async.mbarrier.arrive (the "cp" opcode belongs to LowerMemory.cpp).
void lowerCpAsyncMbarrierArrive(FunctionLowering &L, const Instruction &I);
/// cp.async.bulk: copies, bulk groups and prefetches (LowerMbarrier.cpp).
void lowerCpAsyncBulk(FunctionLowering &L, const Instruction &I);

/// bar.warp.sync (the "bar" opcode belongs to LowerControl.cpp).
void lowerWarpSync(FunctionLowering &L, const Instruction &I);

/// add, sub, mul, ... are shared by the integer and float families; the
/// instruction's type picks the handler.
void lowerIntArith(FunctionLowering &L, const Instruction &I);
void lowerFloatArith(FunctionLowering &L, const Instruction &I);
/// add/sub/min/max on .u16x2/.s16x2 (LowerInteger.cpp).
void lowerPackedIntArith(FunctionLowering &L, const Instruction &I);

} // namespace cuhip::ptx::lower
