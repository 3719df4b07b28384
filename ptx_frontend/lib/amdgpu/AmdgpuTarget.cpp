//===- AmdgpuTarget.cpp - AMDGPU target table, codegen and linking --------===//
//
// The table of supported AMD GPUs and the code generation half of the
// AMDGPU target: LLVM's AMDGPU backend for amdgcn-amd-amdhsa produces a
// relocatable object, which ld.lld links into a shared HSA code object
// (.hsaco) that hipModuleLoadData accepts. The CDNA targets (Instinct) only
// have wave64; the RDNA targets (Radeon) are compiled in wave32, which is
// their native mode and matches CUDA's 32-lane warps one to one.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/AmdgpuTarget.h"

#include "../CodegenDiagnostics.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace cuhip::ptx::amdgpu {

// The PTX AST has its own Module/Function/Instruction; here they are LLVM's.
using llvm::Argument;
using llvm::Function;
using llvm::Instruction;
using llvm::Module;
using llvm::Type;

// One row per target. Wave64 is the only mode of CDNA, so those rows name no
// wave feature; RDNA rows ask for wave32 explicitly.
static const Target TargetTable[] = {
    {"gfx90a", 64, "", "CDNA2 (Instinct MI200)", 64 * 1024},
    {"gfx942", 64, "", "CDNA3 (Instinct MI300)", 64 * 1024},
    {"gfx1030", 32, "+wavefrontsize32", "RDNA2 (Radeon RX 6000)", 64 * 1024},
    {"gfx1100", 32, "+wavefrontsize32", "RDNA3 (Radeon RX 7000)", 64 * 1024},
    {"gfx1201", 32, "+wavefrontsize32", "RDNA4 (Radeon RX 9000)", 64 * 1024},
};

ArrayRef<Target> targets() { return TargetTable; }

const Target *findTarget(StringRef Name) {
  for (const Target &T : TargetTable)
    if (Name == T.Name)
      return &T;
  return nullptr;
}

static void initializeAmdgpuBackend() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // ockl's functions contain inline assembly (scheduling barriers
    // written as asm comments), which object emission parses.
    LLVMInitializeAMDGPUAsmParser();
  });
}

Expected<std::unique_ptr<TargetMachine>> createTargetMachine(const Target &T) {
  initializeAmdgpuBackend();
  Triple TT("amdgcn-amd-amdhsa");
  std::string Err;
  const llvm::Target *LT = TargetRegistry::lookupTarget(TT, Err);
  if (!LT)
    return createStringError(inconvertibleErrorCode(),
                             "AMDGPU backend unavailable: " + Err);
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(LT->createTargetMachine(
      TT, T.Name, T.Features, Opts, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             Twine("cannot create a target machine for ") +
                                 T.Name);
  return TM;
}

static Error emit(Module &M, TargetMachine &TM, SmallVectorImpl<char> &Out,
                  CodeGenFileType Kind) {
  Out.clear();
  raw_svector_ostream OS(Out);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, Kind))
    return createStringError(inconvertibleErrorCode(),
                             "the AMDGPU backend cannot emit this file type");
  std::string Errors = runCodegenCollectingErrors(PM, M);
  if (!Errors.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the AMDGPU backend cannot compile this module: " +
                                 Errors);
  return Error::success();
}

Error emitAssembly(Module &M, TargetMachine &TM, SmallVectorImpl<char> &Out) {
  return emit(M, TM, Out, CodeGenFileType::AssemblyFile);
}

Error emitObject(Module &M, TargetMachine &TM, SmallVectorImpl<char> &Out) {
  return emit(M, TM, Out, CodeGenFileType::ObjectFile);
}

/// The lld to link with: $CUHIP_LD_LLD, LLVM 22's own, or one on PATH.
static Expected<std::string> findLinker() {
  if (const char *Env = std::getenv("CUHIP_LD_LLD"); Env && *Env)
    return std::string(Env);
  const char *Fixed = "/usr/lib/llvm-22/bin/ld.lld";
  if (sys::fs::can_execute(Fixed))
    return std::string(Fixed);
  for (const char *Name : {"ld.lld-22", "ld.lld"})
    if (auto P = sys::findProgramByName(Name))
      return *P;
  return createStringError(inconvertibleErrorCode(),
                           "ld.lld not found (install lld-22, or set "
                           "CUHIP_LD_LLD)");
}

Error linkCodeObject(ArrayRef<char> Object, SmallVectorImpl<char> &CodeObject) {
  auto Linker = findLinker();
  if (!Linker)
    return Linker.takeError();
  SmallString<128> In, OutPath;
  if (std::error_code EC = sys::fs::createTemporaryFile("cuhip-amdgpu", "o", In))
    return errorCodeToError(EC);
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cuhip-amdgpu", "hsaco", OutPath)) {
    sys::fs::remove(In);
    return errorCodeToError(EC);
  }
  llvm::scope_exit Cleanup([&] {
    sys::fs::remove(In);
    sys::fs::remove(OutPath);
  });
  {
    std::error_code EC;
    raw_fd_ostream OS(In, EC);
    if (EC)
      return errorCodeToError(EC);
    OS.write(Object.data(), Object.size());
  }
  std::string ErrMsg;
  SmallString<128> ErrFile;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cuhip-amdgpu", "log", ErrFile))
    return errorCodeToError(EC);
  llvm::scope_exit CleanupLog([&] { sys::fs::remove(ErrFile); });
  StringRef Args[] = {*Linker, "-shared", "--no-undefined", In, "-o", OutPath};
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(ErrFile),
                                          StringRef(ErrFile)};
  int RC = sys::ExecuteAndWait(*Linker, Args, std::nullopt, Redirects, 0, 0,
                               &ErrMsg);
  if (RC != 0) {
    std::string Log;
    if (auto B = MemoryBuffer::getFile(ErrFile))
      Log = (*B)->getBuffer().trim().str();
    return createStringError(inconvertibleErrorCode(),
                             "linking the code object with " + *Linker +
                                 " failed" + (ErrMsg.empty() ? "" : ": " + ErrMsg) +
                                 (Log.empty() ? "" : "\n" + Log));
  }
  auto B = MemoryBuffer::getFile(OutPath, /*IsText=*/false);
  if (!B)
    return errorCodeToError(B.getError());
  CodeObject.assign((*B)->getBufferStart(), (*B)->getBufferEnd());
  return Error::success();
}

} // namespace cuhip::ptx::amdgpu
