//===- AmdgpuPrintf.cpp - Device printf and assert through ockl hostcall --===//
//
// CUDA's device printf is `vprintf(format, buffer)`: the arguments packed in
// a buffer, each at its natural alignment, floats promoted to double, %s
// arguments as device pointers. ROCm prints from the device through
// hostcall: ockl's __ockl_printf_begin opens a message, append_string_n
// sends a NUL-terminated string read from device memory (the format
// first, then each %s argument), append_args sends up to seven 64-bit
// values, and the host side of ROCm's runtime formats the message with the
// format string. The format is therefore read here at compile time: it must
// be a global's constant initializer, which the neutral IR only shows after
// its parameter buffers are promoted, so vprintf first becomes a placeholder
// taking the format and buffer pointers, and the function is simplified
// with SROA before the placeholder is expanded. The format is parsed with
// C's rules to find each argument's offset and kind; the call returns the
// number of conversions, as on the CPU backend. __assertfail prints the CPU
// backend's message through ockl's stderr printf and traps.
//
//===----------------------------------------------------------------------===//
#include "AmdgpuPrintf.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Scalar/SROA.h"

#define DEBUG_TYPE "cuhip-amdgpu-printf"

using namespace llvm;

namespace cuhip::ptx::amdgpu {

using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

constexpr const char *PlaceholderName = "cuhip.amdgpu.vprintf";
/// AMDGPU's constant address space, where the strings made here live.
constexpr unsigned ConstantAS = 4;
/// ockl's append_args takes at most this many values per call.
constexpr unsigned MaxArgsPerAppend = 7;

Error formatError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg.str());
}

/// Emits ockl's hostcall printf calls for one message: a format string and
/// the values its conversions read, each either a 64-bit integer or a
/// pointer to a NUL-terminated string.
class OcklPrintf {
public:
  OcklPrintf(IRBuilder<> &B, bool ToStderr)
      : B(B), M(*B.GetInsertBlock()->getModule()),
        Prefix(ToStderr ? "__ockl_fprintf_" : "__ockl_printf_") {
    Type *I64 = B.getInt64Ty();
    if (ToStderr)
      Desc = B.CreateCall(
          M.getOrInsertFunction("__ockl_fprintf_stderr_begin", I64));
    else
      Desc =
          B.CreateCall(M.getOrInsertFunction("__ockl_printf_begin", I64, I64),
                       {B.getInt64(0)});
  }

  /// Sends Format (with its NUL) and then Values, the last call marked last.
  void print(Value *Format, uint64_t FormatSize, ArrayRef<Value *> Values) {
    appendString(Format, B.getInt64(FormatSize), Values.empty());
    for (size_t I = 0; I < Values.size();) {
      if (Values[I]->getType()->isPointerTy()) {
        appendString(Values[I], stringSize(Values[I]), I + 1 == Values.size());
        ++I;
        continue;
      }
      size_t E = I;
      while (E < Values.size() && E - I < MaxArgsPerAppend &&
             !Values[E]->getType()->isPointerTy())
        ++E;
      appendArgs(ArrayRef(Values).slice(I, E - I), E == Values.size());
      I = E;
    }
  }

private:
  IRBuilder<> &B;
  Module &M;
  std::string Prefix;
  Value *Desc;

  void appendString(Value *Str, Value *Size, bool Last) {
    Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
    FunctionCallee F = M.getOrInsertFunction(Prefix + "append_string_n", I64,
                                             I64, B.getPtrTy(), I64, I32);
    Desc = B.CreateCall(F, {Desc, Str, Size, B.getInt32(Last)});
  }

  void appendArgs(ArrayRef<Value *> Vals, bool Last) {
    Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
    FunctionCallee F =
        M.getOrInsertFunction(Prefix + "append_args", I64, I64, I32, I64, I64,
                              I64, I64, I64, I64, I64, I32);
    SmallVector<Value *, 10> Ops = {Desc, B.getInt32(Vals.size())};
    for (unsigned I = 0; I < MaxArgsPerAppend; ++I)
      Ops.push_back(I < Vals.size() ? Vals[I] : B.getInt64(0));
    Ops.push_back(B.getInt32(Last));
    Desc = B.CreateCall(F, Ops);
  }

  /// The size of the string at Str with its NUL, counted at run time; 0
  /// for a null pointer (ockl sends no bytes then).
  Value *stringSize(Value *Str) {
    BasicBlock *Entry = B.GetInsertBlock();
    Function *F = Entry->getParent();
    BasicBlock *Done =
        Entry->splitBasicBlock(B.GetInsertPoint(), "printf.strlen.done");
    Entry->getTerminator()->eraseFromParent();
    BasicBlock *Loop =
        BasicBlock::Create(M.getContext(), "printf.strlen", F, Done);
    B.SetInsertPoint(Entry);
    B.CreateCondBr(B.CreateIsNull(Str), Done, Loop);
    B.SetInsertPoint(Loop);
    PHINode *Index = B.CreatePHI(B.getInt64Ty(), 2);
    Index->addIncoming(B.getInt64(0), Entry);
    Value *Ch =
        B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), Str, Index));
    Value *Next = B.CreateAdd(Index, B.getInt64(1));
    Index->addIncoming(Next, Loop);
    B.CreateCondBr(B.CreateICmpEQ(Ch, B.getInt8(0)), Done, Loop);
    B.SetInsertPoint(Done, Done->begin());
    PHINode *Size = B.CreatePHI(B.getInt64Ty(), 2);
    Size->addIncoming(B.getInt64(0), Entry);
    Size->addIncoming(Next, Loop);
    return Size;
  }
};

/// A generic pointer to a private constant copy of S (NUL included).
Constant *constantString(Module &M, StringRef S, const Twine &Name) {
  Constant *Init = ConstantDataArray::getString(M.getContext(), S, true);
  auto *GV = new GlobalVariable(
      M, Init->getType(), true, GlobalValue::PrivateLinkage, Init, Name,
      nullptr, GlobalValue::NotThreadLocal, ConstantAS);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return ConstantExpr::getAddrSpaceCast(GV,
                                        PointerType::get(M.getContext(), 0));
}

Value *loadArg(IRBuilder<> &B, Value *Buf, Type *Ty, uint64_t Offset,
               uint64_t Size) {
  Value *P = B.CreateConstGEP1_64(B.getInt8Ty(), Buf, Offset);
  return B.CreateAlignedLoad(Ty, P, Align(Size));
}

/// vprintf(ret, args): args holds the format pointer at 0 and the packed
/// buffer's at 8, and the int result goes to ret. The placeholder takes the
/// two pointers until expandDevicePrintf can see the format.
void lowerVprintfToPlaceholder(CallBase &CB) {
  Module &M = *CB.getModule();
  IRBuilder<> B(&CB);
  Value *Args = CB.getArgOperand(1);
  Value *Fmt = loadArg(B, Args, B.getPtrTy(), 0, 8);
  Value *Buf = loadArg(B, Args, B.getPtrTy(), 8, 8);
  FunctionCallee P = M.getOrInsertFunction(PlaceholderName, B.getInt32Ty(),
                                           B.getPtrTy(), B.getPtrTy());
  Value *Count = B.CreateCall(P, {Fmt, Buf});
  B.CreateAlignedStore(Count, CB.getArgOperand(0), Align(4));
  CB.eraseFromParent();
}

/// __assertfail(message, file, line, function, charSize) prints what the
/// CPU backend prints (ptx_frontend/lib/host/DeviceLibrary.cpp) on stderr,
/// then ends the dispatch with s_trap 2.
void lowerAssertFail(CallBase &CB) {
  Module &M = *CB.getModule();
  IRBuilder<> B(&CB);
  Value *Args = CB.getArgOperand(1);
  Constant *Unknown = constantString(M, "?", "assert.unknown");
  auto str = [&](uint64_t Off) {
    Value *P = loadArg(B, Args, B.getPtrTy(), Off, 8);
    return B.CreateSelect(B.CreateIsNull(P), Unknown, P);
  };
  Value *Msg = str(0), *File = str(8), *Func = str(24);
  Value *Line =
      B.CreateZExt(loadArg(B, Args, B.getInt32Ty(), 16, 4), B.getInt64Ty());
  SmallVector<Value *, 10> Vals = {File, Line, Func};
  for (Intrinsic::ID ID :
       {Intrinsic::amdgcn_workgroup_id_x, Intrinsic::amdgcn_workgroup_id_y,
        Intrinsic::amdgcn_workgroup_id_z, Intrinsic::amdgcn_workitem_id_x,
        Intrinsic::amdgcn_workitem_id_y, Intrinsic::amdgcn_workitem_id_z})
    Vals.push_back(B.CreateZExt(B.CreateIntrinsic(ID, {}), B.getInt64Ty()));
  Vals.push_back(Msg);
  static constexpr StringRef Format =
      "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
      "Assertion `%s` failed.\n";
  OcklPrintf P(B, /*ToStderr=*/true);
  P.print(constantString(M, Format, "assert.format"), Format.size() + 1, Vals);
  B.CreateIntrinsic(Intrinsic::trap, {});
  CB.eraseFromParent();
}

/// The constant NUL-terminated string V points to: a global with a
/// definitive initializer, plus a constant offset, through the casts and
/// integer round trips the neutral IR makes of `cvta`/`mov` of an address.
std::optional<std::pair<Constant *, StringRef>>
constantFormat(Value *V, const DataLayout &DL) {
  uint64_t Offset = 0;
  for (;;) {
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(DL, Off))
        return std::nullopt;
      Offset += Off.getZExtValue();
      V = GEP->getPointerOperand();
      continue;
    }
    if (auto *Op = dyn_cast<Operator>(V)) {
      unsigned Opc = Op->getOpcode();
      if (Opc == Instruction::AddrSpaceCast || Opc == Instruction::BitCast ||
          Opc == Instruction::IntToPtr || Opc == Instruction::PtrToInt) {
        V = Op->getOperand(0);
        continue;
      }
    }
    break;
  }
  auto *GV = dyn_cast<GlobalVariable>(V);
  if (!GV || !GV->hasDefinitiveInitializer())
    return std::nullopt;
  auto *Data = dyn_cast<ConstantDataSequential>(GV->getInitializer());
  if (!Data || !Data->getElementType()->isIntegerTy(8))
    return std::nullopt;
  StringRef Raw = Data->getRawDataValues();
  if (Offset >= Raw.size())
    return std::nullopt;
  Raw = Raw.drop_front(Offset);
  size_t End = Raw.find('\0');
  if (End == StringRef::npos)
    return std::nullopt;
  LLVMContext &Ctx = GV->getContext();
  Constant *Generic =
      ConstantExpr::getAddrSpaceCast(GV, PointerType::get(Ctx, 0));
  Constant *Ptr = ConstantExpr::getGetElementPtr(
      Type::getInt8Ty(Ctx), Generic,
      ConstantInt::get(Type::getInt64Ty(Ctx), Offset));
  return std::make_pair(Ptr, Raw.take_front(End));
}

/// SROA over F, so the format pointer stored into vprintf's parameter
/// buffer (through register and .param allocas) reaches the placeholder
/// as a constant.
void promoteBuffers(Function &F) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::PreserveCFG));
  FPM.run(F, FAM);
}

} // namespace

Expected<PrintfFormat> parsePrintfFormat(StringRef Fmt) {
  PrintfFormat Out;
  unsigned Offset = 0;
  auto add = [&](PrintfArgument::KindT K, bool Signed) {
    unsigned Size = K == PrintfArgument::Int32 ? 4 : 8;
    Offset = alignTo(Offset, Size);
    Out.Args.push_back({K, Signed, Offset});
    Offset += Size;
  };
  for (size_t I = 0; I < Fmt.size();) {
    if (Fmt[I++] != '%')
      continue;
    size_t Start = I - 1;
    auto spec = [&] { return Fmt.slice(Start, std::min(I + 1, Fmt.size())); };
    if (I < Fmt.size() && Fmt[I] == '%') {
      ++I;
      continue;
    }
    while (I < Fmt.size() && StringRef("-+ #0").contains(Fmt[I]))
      ++I;
    if (I < Fmt.size() && Fmt[I] == '*') {
      add(PrintfArgument::Int32, true);
      ++I;
    } else {
      while (I < Fmt.size() && isDigit(Fmt[I]))
        ++I;
    }
    if (I < Fmt.size() && Fmt[I] == '.') {
      ++I;
      if (I < Fmt.size() && Fmt[I] == '*') {
        add(PrintfArgument::Int32, true);
        ++I;
      } else {
        while (I < Fmt.size() && isDigit(Fmt[I]))
          ++I;
      }
    }
    // Length modifiers: hh and h still pass an int; the others a 64-bit
    // value on CUDA's LP64 device (long, long long, intmax_t, size_t,
    // ptrdiff_t).
    StringRef Length;
    for (StringRef L : {"hh", "h", "ll", "l", "j", "z", "t", "L"})
      if (Fmt.substr(I).starts_with(L)) {
        Length = L;
        I += L.size();
        break;
      }
    if (I >= Fmt.size())
      return formatError("incomplete conversion specification '" +
                         Fmt.substr(Start) + "' at the end of the format");
    char Conv = Fmt[I];
    bool Wide = !Length.empty() && Length != "h" && Length != "hh";
    switch (Conv) {
    case 'd':
    case 'i':
    case 'o':
    case 'u':
    case 'x':
    case 'X':
      if (Length == "L")
        return formatError("conversion '" + spec() +
                           "' has no meaning (L applies to floating "
                           "conversions)");
      add(Wide ? PrintfArgument::Int64 : PrintfArgument::Int32,
          Conv == 'd' || Conv == 'i');
      break;
    case 'c':
      // An int, or for %lc a wint_t: 4 bytes either way.
      add(PrintfArgument::Int32, false);
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (Length == "L")
        return formatError("conversion '" + spec() +
                           "' reads a long double, which CUDA device code "
                           "does not have");
      add(PrintfArgument::Double, false);
      break;
    case 's':
      if (!Length.empty())
        return formatError("conversion '" + spec() + "' reads a wide string");
      add(PrintfArgument::String, false);
      break;
    case 'p':
      add(PrintfArgument::Pointer, false);
      break;
    case 'n':
      return formatError("conversion '" + spec() +
                         "' stores a count, which CUDA's printf does not "
                         "do");
    default:
      return formatError("unknown conversion '" + spec() + "'");
    }
    ++I;
    ++Out.Conversions;
  }
  return Out;
}

bool lowerDeviceLibraryCall(CallBase &CB, const Target &) {
  Function *Callee = CB.getCalledFunction();
  if (!Callee || CB.arg_size() != 2)
    return false;
  StringRef Name = Callee->getName();
  if (Name == "__assertfail") {
    lowerAssertFail(CB);
  } else if (Name == "vprintf") {
    lowerVprintfToPlaceholder(CB);
  } else {
    return false;
  }
  if (Callee->use_empty())
    Callee->eraseFromParent();
  return true;
}

void expandDevicePrintf(Function &F, const Target &,
                        const std::function<void(const Twine &)> &Fail) {
  Module &M = *F.getParent();
  Function *Placeholder = M.getFunction(PlaceholderName);
  if (!Placeholder)
    return;
  auto calls = [&] {
    std::vector<CallInst *> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getCalledFunction() == Placeholder)
          Calls.push_back(CI);
    return Calls;
  };
  if (calls().empty())
    return;
  promoteBuffers(F);
  const DataLayout &DL = M.getDataLayout();
  for (CallInst *CI : calls()) {
    unsigned Count = 0;
    auto Format = constantFormat(CI->getArgOperand(0), DL);
    if (!Format) {
      Fail("printf whose format (vprintf's first argument) is not a "
           "constant global string (write the format as a string literal)");
    } else if (Expected<PrintfFormat> Parsed =
                   parsePrintfFormat(Format->second)) {
      LLVM_DEBUG(dbgs() << "printf \"" << Format->second
                        << "\": " << Parsed->Args.size() << " arguments\n");
      IRBuilder<> B(CI);
      Value *Buf = CI->getArgOperand(1);
      SmallVector<Value *, 8> Vals;
      for (const PrintfArgument &A : Parsed->Args) {
        switch (A.Kind) {
        case PrintfArgument::Int32: {
          Value *V = loadArg(B, Buf, B.getInt32Ty(), A.Offset, 4);
          Vals.push_back(A.Signed ? B.CreateSExt(V, B.getInt64Ty())
                                  : B.CreateZExt(V, B.getInt64Ty()));
          break;
        }
        case PrintfArgument::Int64:
        case PrintfArgument::Double:
        case PrintfArgument::Pointer:
          // A double travels as its bits; the host reinterprets them.
          Vals.push_back(loadArg(B, Buf, B.getInt64Ty(), A.Offset, 8));
          break;
        case PrintfArgument::String:
          Vals.push_back(loadArg(B, Buf, B.getPtrTy(), A.Offset, 8));
          break;
        }
      }
      OcklPrintf P(B, /*ToStderr=*/false);
      P.print(Format->first, Format->second.size() + 1, Vals);
      Count = Parsed->Conversions;
    } else {
      std::string Shown;
      raw_string_ostream OS(Shown);
      printEscapedString(Format->second, OS);
      Fail("printf with the format \"" + Shown + "\" (" +
           toString(Parsed.takeError()) + ")");
    }
    CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), Count));
    CI->eraseFromParent();
  }
  if (Placeholder->use_empty())
    Placeholder->eraseFromParent();
}

} // namespace cuhip::ptx::amdgpu
