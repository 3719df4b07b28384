//===- Ptx.cpp - `cuhip ptx`: the PTX frontend on a file ------------------===//
//
// Compiles one PTX file and writes the requested stage: the target-neutral
// IR (gpu-ir), or for --arch host the block-function IR (llvm), assembly or
// an object file, or for an AMDGPU --arch (gfx90a, gfx942, ...) the AMDGPU
// IR (llvm), assembly, or the linked HSA code object (obj, a .hsaco).
// Diagnostics go to stderr as file:line:col.
//
//===----------------------------------------------------------------------===//
#include "Tool.h"

#include "cuhip/ptx/AmdgpuTarget.h"
#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdio>
#include <cstdlib>
#include <string>

static void ptxUsage(FILE *Out) {
  std::fprintf(Out,
               "usage: cuhip ptx IN.ptx [--arch host|gfxNNN] "
               "[--emit llvm|asm|obj|gpu-ir] [--no-opt] [--memcheck] "
               "[-o OUT]\n"
               "  --arch         host (default) or an AMDGPU target:\n");
  for (const auto &T : cuhip::ptx::amdgpu::targets())
    std::fprintf(Out, "                   %-8s wave%u, %s\n", T.Name,
                 T.WavefrontSize, T.Description);
  std::fprintf(Out,
               "  --emit gpu-ir  the target-neutral IR the frontend produces\n"
               "  --emit llvm    the target's IR (host: block functions; the\n"
               "                 default for host)\n"
               "  --emit asm|obj machine code for the target (AMDGPU obj: the\n"
               "                 linked HSA code object, a .hsaco; the default\n"
               "                 for AMDGPU targets)\n"
               "  --no-opt       skip the optimization pipeline\n"
               "  --memcheck     host: check every global, generic and shared\n"
               "                 access, as CUHIP_MEMCHECK=1 does\n"
               "  -o OUT         output file (default: stdout)\n");
}

/// --arch gfxNNN: lower, optimize and emit for one AMDGPU target.
static int emitAmdgpu(const cuhip::ptx::amdgpu::Target &T, llvm::Module &M,
                      const std::vector<cuhip::ptx::KernelInfo> &Kernels,
                      const std::string &In, const std::string &Emit, bool Opt,
                      llvm::raw_fd_ostream &OS) {
  namespace amd = cuhip::ptx::amdgpu;
  auto TM = amd::createTargetMachine(T);
  if (!TM) {
    std::fprintf(stderr, "cuhip ptx: error: %s\n",
                 llvm::toString(TM.takeError()).c_str());
    return 1;
  }
  if (llvm::Error E = amd::lowerToAmdgpu(M, Kernels, T, **TM, Opt)) {
    // One line per construct, each with the file and target.
    std::string Msg = llvm::toString(std::move(E));
    llvm::SmallVector<llvm::StringRef, 4> Lines;
    llvm::StringRef(Msg).split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Line : Lines)
      std::fprintf(stderr, "%s: error: --arch %s: %s\n", In.c_str(), T.Name,
                   Line.str().c_str());
    return 1;
  }
  if (Emit == "llvm") {
    M.print(OS, nullptr);
    return 0;
  }
  llvm::SmallVector<char, 0> Buf;
  llvm::Error E = Emit == "asm" ? amd::emitAssembly(M, **TM, Buf)
                                : amd::emitObject(M, **TM, Buf);
  if (!E && Emit == "obj") {
    llvm::SmallVector<char, 0> Linked;
    E = amd::linkCodeObject(Buf, Linked);
    Buf = std::move(Linked);
  }
  if (E) {
    std::fprintf(stderr, "cuhip ptx: error: %s: %s\n", In.c_str(),
                 llvm::toString(std::move(E)).c_str());
    return 1;
  }
  OS.write(Buf.data(), Buf.size());
  return 0;
}

int cuhipPtxMain(int argc, char **argv) {
  std::string In, Out = "-", Arch, Emit;
  bool Opt = true;
  bool Memcheck = false;
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
    else if (A == "--memcheck")
      Memcheck = true;
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
  const cuhip::ptx::amdgpu::Target *Amdgpu = nullptr;
  if (Arch != "host" && !(Amdgpu = cuhip::ptx::amdgpu::findTarget(Arch))) {
    std::string Known = "host";
    for (const auto &T : cuhip::ptx::amdgpu::targets())
      Known += std::string(", ") + T.Name;
    std::fprintf(stderr,
                 "cuhip ptx: error: unknown --arch '%s' (known: %s)\n",
                 Arch.c_str(), Known.c_str());
    return 2;
  }
  if (Memcheck && Amdgpu) {
    std::fprintf(stderr, "cuhip ptx: error: --memcheck is only available for "
                         "--arch host\n");
    return 2;
  }
  // The natural product of each target: host IR to inspect, AMDGPU a .hsaco.
  if (Emit.empty())
    Emit = Amdgpu ? "obj" : "llvm";
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
  cuhip::ptx::LowerOptions LowerOpts;
  LowerOpts.SourceLines = Memcheck;
  auto Lowered = cuhip::ptx::lowerModule(*Parsed, Ctx, Diags, LowerOpts);
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
  if (Amdgpu) {
    int RC = emitAmdgpu(*Amdgpu, *Lowered->IR, Lowered->Kernels, In, Emit, Opt,
                        OS);
    if (RC != 0 && Out != "-") {
      OS.close();
      llvm::sys::fs::remove(Out); // no half-written code object
    }
    return RC;
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
  cuhip::ptx::host::HostCompileOptions HostOpts;
  HostOpts.Memcheck = Memcheck;
  if (llvm::Error E = cuhip::ptx::host::prepareHostModule(
          M, Lowered->Kernels, Layouts, Opt ? TM->get() : nullptr,
          HostOpts)) {
    std::fprintf(stderr, "cuhip ptx: error: %s: %s\n", In.c_str(),
                 llvm::toString(std::move(E)).c_str());
    return 1;
  }
  if (Emit == "llvm") {
    for (const auto &L : Layouts)
      OS << "; kernel " << L.KernelName << ": block function "
         << L.BlockFunctionName << ", " << L.NumRegions << " region(s), "
         << L.FrameBytesPerThread << " frame bytes/thread, "
         << L.StaticSharedBytes << " static shared bytes, "
         << (L.VectorLanes ? std::to_string(L.VectorLanes) +
                                 " threads as SIMD lanes when ntid.x is a "
                                 "multiple of it"
                           : "one thread at a time (" + L.ScalarReason + ")")
         << "\n";
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
