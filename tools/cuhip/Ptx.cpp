//===- Ptx.cpp - `cuhip ptx`: the PTX frontend on a file ------------------===//
//
// Compiles one PTX file and writes the requested stage: the target-neutral
// IR (gpu-ir), or for --arch host the block-function IR (llvm), assembly or
// an object file. Diagnostics go to stderr as file:line:col.
//
//===----------------------------------------------------------------------===//
#include "Tool.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdio>
#include <cstdlib>
#include <string>

static void ptxUsage(FILE *Out) {
  std::fprintf(Out,
               "usage: cuhip ptx IN.ptx --arch host [--emit llvm|asm|obj|gpu-ir] "
               "[--no-opt] [-o OUT]\n"
               "  --emit gpu-ir  the target-neutral IR the frontend produces\n"
               "  --emit llvm    the target's IR (host: block functions)\n"
               "  --emit asm|obj machine code for the target\n"
               "  --no-opt       skip the optimization pipeline\n"
               "  -o OUT         output file (default: stdout)\n");
}

int cuhipPtxMain(int argc, char **argv) {
  std::string In, Out = "-", Arch, Emit = "llvm";
  bool Opt = true;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto value = [&](const char *Name) -> std::string {
      if (I + 1 >= argc) {
        std::fprintf(stderr, "cuhip ptx: error: %s needs a value\n", Name);
        std::exit(2);
      }
      return argv[++I];
    };
    if (A == "--help" || A == "-h") {
      ptxUsage(stdout);
      return 0;
    } else if (A == "-o")
      Out = value("-o");
    else if (A == "--arch")
      Arch = value("--arch");
    else if (A.rfind("--arch=", 0) == 0)
      Arch = A.substr(7);
    else if (A == "--emit")
      Emit = value("--emit");
    else if (A.rfind("--emit=", 0) == 0)
      Emit = A.substr(7);
    else if (A == "--no-opt")
      Opt = false;
    else if (!A.empty() && A[0] == '-' && A != "-") {
      std::fprintf(stderr, "cuhip ptx: error: unknown option '%s'\n", A.c_str());
      return 2;
    } else if (In.empty())
      In = A;
    else {
      std::fprintf(stderr, "cuhip ptx: error: more than one input file\n");
      return 2;
    }
  }
  if (In.empty()) {
    ptxUsage(stderr);
    return 2;
  }
  if (Arch.empty())
    Arch = "host";
  if (Arch != "host") {
    std::fprintf(stderr,
                 "cuhip ptx: error: --arch %s: AMDGPU targets are not "
                 "available in this build yet (only 'host')\n",
                 Arch.c_str());
    return 2;
  }
  if (Emit != "llvm" && Emit != "asm" && Emit != "obj" && Emit != "gpu-ir") {
    std::fprintf(stderr, "cuhip ptx: error: unknown --emit '%s'\n", Emit.c_str());
    return 2;
  }
  auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(In, /*IsText=*/true);
  if (!Buf) {
    std::fprintf(stderr, "cuhip ptx: error: %s: %s\n", In.c_str(),
                 Buf.getError().message().c_str());
    return 1;
  }
  cuhip::ptx::DiagnosticEngine Diags(In);
  auto Parsed = cuhip::ptx::parseModule((*Buf)->getBuffer(), Diags);
  auto flush = [&] {
    std::string S = Diags.formatAll();
    std::fputs(S.c_str(), stderr);
  };
  if (!Parsed) {
    flush();
    return 1;
  }
  Parsed->FileName = In;
  llvm::LLVMContext Ctx;
  auto Lowered = cuhip::ptx::lowerModule(*Parsed, Ctx, Diags);
  flush();
  if (!Lowered)
    return 1;

  std::error_code EC;
  llvm::raw_fd_ostream OS(Out, EC);
  if (EC) {
    std::fprintf(stderr, "cuhip ptx: error: %s: %s\n", Out.c_str(),
                 EC.message().c_str());
    return 1;
  }
  if (Emit == "gpu-ir") {
    Lowered->IR->print(OS, nullptr);
    return 0;
  }
  auto TM = cuhip::ptx::host::HostCompiler::createHostTargetMachine();
  if (!TM) {
    std::fprintf(stderr, "cuhip ptx: error: %s\n",
                 llvm::toString(TM.takeError()).c_str());
    return 1;
  }
  llvm::Module &M = *Lowered->IR;
  M.setDataLayout((*TM)->createDataLayout());
  M.setTargetTriple((*TM)->getTargetTriple());
  std::vector<cuhip::ptx::host::HostKernelLayout> Layouts;
  if (llvm::Error E = cuhip::ptx::host::prepareHostModule(
          M, Lowered->Kernels, Layouts, Opt ? TM->get() : nullptr)) {
    std::fprintf(stderr, "cuhip ptx: error: %s: %s\n", In.c_str(),
                 llvm::toString(std::move(E)).c_str());
    return 1;
  }
  if (Emit == "llvm") {
    for (const auto &L : Layouts)
      OS << "; kernel " << L.KernelName << ": block function "
         << L.BlockFunctionName << ", " << L.NumRegions << " region(s), "
         << L.FrameBytesPerThread << " frame bytes/thread, "
         << L.StaticSharedBytes << " static shared bytes\n";
    M.print(OS, nullptr);
    return 0;
  }
  llvm::legacy::PassManager PM;
  if ((*TM)->addPassesToEmitFile(PM, OS, nullptr,
                                 Emit == "asm" ? llvm::CodeGenFileType::AssemblyFile
                                               : llvm::CodeGenFileType::ObjectFile)) {
    std::fprintf(stderr, "cuhip ptx: error: the host target cannot emit %s\n",
                 Emit.c_str());
    return 1;
  }
  PM.run(M);
  return 0;
}
