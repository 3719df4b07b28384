//===- MemcheckInstrumentation.cpp - Check each access before it runs -----===//
//
// Memcheck mode (HostCompileOptions::Memcheck) puts a call to cuhip_memcheck
// before every load, store, atomic and memory copy (cp.async) of a kernel's
// thread function that goes through a global, generic or shared pointer. The pass runs before
// the address spaces are flattened, so each access still says which state
// space it uses; `.local` and `.param` accesses, and generic ones that
// provably address the thread's own stack slots or the parameter buffer,
// are left alone, as they cannot leave memory the kernel owns. Each call
// passes the address, the size and kind of the access, the thread and a
// constant string naming the PTX function and source line (the
// `cuhip.ptx.line` metadata of LowerOptions::SourceLines), so that the
// runtime's report points at the PTX instruction. The pass also gives the
// module a table of its `.global` and `.const` variables
// (MemcheckGlobalsSymbol), which the JIT registers as memory the checks
// accept. Normal mode never runs this pass: its code is unchanged.
//
//===----------------------------------------------------------------------===//
#include "HostPasses.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Lower.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace cuhip::ptx::host {

using llvm::Function;
using llvm::Instruction;
using llvm::Module;

namespace {

/// "function+file:line" for I, from its PTX line metadata; without it the
/// thread function's kernel stands in.
std::string siteOf(const Instruction &I, StringRef Kernel) {
  std::string File = I.getModule()->getModuleIdentifier();
  if (MDNode *MD = I.getMetadata(PtxLineMetadata))
    if (MD->getNumOperands() == 2)
      if (auto *Fn = dyn_cast<MDString>(MD->getOperand(0)))
        if (auto *Line = mdconst::dyn_extract<ConstantInt>(MD->getOperand(1)))
          return (Fn->getString() + "+" + File + ":" +
                  Twine(Line->getZExtValue()))
              .str();
  return (Kernel + "+" + File).str();
}

/// Whether P, a generic pointer, provably addresses the thread's stack
/// slots or the parameter buffer (which become frame slices and stay the
/// runtime's buffer), so no check is needed.
bool isThreadPrivate(const Value *P, const Value *Params) {
  const Value *Base = getUnderlyingObject(P, /*MaxLookup=*/0);
  return isa<AllocaInst>(Base) || Base == Params;
}

} // namespace

unsigned instrumentMemoryAccesses(Function &F, Value *Ctx, Value *TidX,
                                  Value *TidY, Value *TidZ, Value *Params,
                                  StringRef KernelName) {
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  PointerType *Flat = PointerType::get(C, 0);
  FunctionCallee Check = M.getOrInsertFunction(
      "cuhip_memcheck", FunctionType::get(Type::getVoidTy(C),
                                          {I64, I32, Flat, I32, I32, I32, Flat},
                                          false));
  if (auto *CF = dyn_cast<Function>(Check.getCallee()))
    CF->setDoesNotThrow();

  // One check: the access at Pointer by I, of Kind (space and operation)
  // and Size bytes (a constant, or a memcpy's length).
  struct Access {
    Instruction *I;
    Value *Pointer;
    uint32_t Kind;
    Value *Size;
  };
  SmallVector<Access> Accesses;
  auto add = [&](Instruction &I, Value *P, uint32_t Op, Value *Size) {
    uint32_t Space;
    switch (P->getType()->getPointerAddressSpace()) {
    case addrspace::Global:
      Space = AccessGlobal;
      break;
    case addrspace::Shared:
      Space = AccessShared;
      break;
    case addrspace::Generic:
      if (isThreadPrivate(P, Params))
        return;
      Space = AccessGeneric;
      break;
    default: // .local, .const, .param: memory the kernel owns or only reads
      return;
    }
    Accesses.push_back({&I, P, Space | Op, Size});
  };
  auto sizeOf = [&](Type *T) -> Value * {
    return ConstantInt::get(I64, DL.getTypeStoreSize(T));
  };
  for (Instruction &I : instructions(F)) {
    if (auto *L = dyn_cast<LoadInst>(&I))
      add(I, L->getPointerOperand(), AccessRead, sizeOf(L->getType()));
    else if (auto *S = dyn_cast<StoreInst>(&I))
      add(I, S->getPointerOperand(), AccessWrite,
          sizeOf(S->getValueOperand()->getType()));
    else if (auto *A = dyn_cast<AtomicRMWInst>(&I))
      add(I, A->getPointerOperand(), AccessAtomic,
          sizeOf(A->getValOperand()->getType()));
    else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      add(I, X->getPointerOperand(), AccessAtomic,
          sizeOf(X->getNewValOperand()->getType()));
    else if (auto *MT = dyn_cast<MemTransferInst>(&I)) { // cp.async, copies
      add(I, MT->getRawSource(), AccessRead, MT->getLength());
      add(I, MT->getRawDest(), AccessWrite, MT->getLength());
    } else if (auto *MS = dyn_cast<MemSetInst>(&I))
      add(I, MS->getRawDest(), AccessWrite, MS->getLength());
  }

  StringMap<Constant *> Sites;
  for (const Access &A : Accesses) {
    std::string Site = siteOf(*A.I, KernelName);
    Constant *&S = Sites[Site];
    if (!S) {
      Constant *Text = ConstantDataArray::getString(C, Site);
      auto *GV = new GlobalVariable(M, Text->getType(), /*isConstant=*/true,
                                    GlobalValue::PrivateLinkage, Text,
                                    "cuhip.memcheck.site");
      GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
      S = GV;
    }
    IRBuilder<> B(A.I);
    Value *Address =
        B.CreatePtrToInt(B.CreateAddrSpaceCast(A.Pointer, Flat), I64);
    // Sizes above the field's range are checked as its maximum.
    Value *Kind;
    if (auto *Const = dyn_cast<ConstantInt>(A.Size))
      Kind = ConstantInt::get(
          I32, A.Kind | uint32_t(std::min<uint64_t>(Const->getZExtValue(),
                                                    AccessSizeMask)));
    else
      Kind = B.CreateOr(
          B.CreateTrunc(B.CreateBinaryIntrinsic(
                            Intrinsic::umin, B.CreateZExtOrTrunc(A.Size, I64),
                            ConstantInt::get(I64, AccessSizeMask)),
                        I32),
          ConstantInt::get(I32, A.Kind));
    B.CreateCall(Check, {Address, Kind, Ctx, TidX, TidY, TidZ, S});
  }
  return Accesses.size();
}

void addMemcheckGlobalsTable(Module &M) {
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *I64 = Type::getInt64Ty(C);
  PointerType *Flat = PointerType::get(C, 0);
  StructType *Entry = StructType::get(Flat, I64);
  SmallVector<Constant *> Entries;
  for (GlobalVariable &GV : M.globals()) {
    unsigned AS = GV.getAddressSpace();
    if (GV.isDeclaration() || GV.getName().starts_with("cuhip.") ||
        (AS != addrspace::Global && AS != addrspace::Const &&
         AS != addrspace::Generic))
      continue;
    Entries.push_back(ConstantStruct::get(
        Entry, {ConstantExpr::getPointerBitCastOrAddrSpaceCast(&GV, Flat),
                ConstantInt::get(I64, DL.getTypeAllocSize(GV.getValueType()))}));
  }
  ArrayType *AT = ArrayType::get(Entry, Entries.size());
  Constant *Init = ConstantStruct::getAnon(
      {ConstantInt::get(I64, Entries.size()), ConstantArray::get(AT, Entries)});
  new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                     GlobalValue::ExternalLinkage, Init, MemcheckGlobalsSymbol);
}

} // namespace cuhip::ptx::host
