//===- Toolchain.cpp - Where CUDA and HIP are, and how to parse CUDA ------===//
//
// See Toolchain.h. The Clang paths are fixed at configure time
// (CUHIP_CLANG_RESOURCE_DIR, CUHIP_CLANG_EXECUTABLE): cuhip links the same
// Debian libclang-cpp whose headers those are.
//
//===----------------------------------------------------------------------===//
#include "cuhip/translate/Toolchain.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

#ifndef CUHIP_CLANG_RESOURCE_DIR
#error "CUHIP_CLANG_RESOURCE_DIR must be defined by the build"
#endif
#ifndef CUHIP_CLANG_EXECUTABLE
#error "CUHIP_CLANG_EXECUTABLE must be defined by the build"
#endif

namespace cuhip::translate {

namespace {
/// A CUDA toolkit: its headers, and not one of cuhip nvcc's toolkit
/// directories (lib/cuhip/cuda-*, whose bin/nvcc is cuhip itself and whose
/// include only links to a real toolkit's), which an `nvcc` on PATH may be.
bool isCudaRoot(const std::string &Dir) {
  return !Dir.empty() &&
         llvm::sys::fs::exists(Dir + "/include/cuda.h") &&
         llvm::sys::fs::exists(Dir + "/include/cuda_runtime.h") &&
         !llvm::sys::fs::exists(Dir + "/cuhip-facade.txt");
}
} // namespace

std::string findCudaPath(const std::string &Explicit, std::string &Why) {
  if (!Explicit.empty()) {
    if (isCudaRoot(Explicit))
      return Explicit;
    Why = "--cuda-path " + Explicit + " has no include/cuda.h and "
          "include/cuda_runtime.h";
    return {};
  }
  std::vector<std::string> Tried;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *V = std::getenv(Var); V && *V) {
      if (isCudaRoot(V))
        return V;
      Tried.push_back(std::string("$") + Var + "=" + V);
    }
  if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real)) {
      std::string Root(llvm::sys::path::parent_path(
          llvm::sys::path::parent_path(Real)));
      if (isCudaRoot(Root))
        return Root;
      Tried.push_back(Root + " (from nvcc on PATH)");
    }
  }
  if (isCudaRoot("/usr/local/cuda"))
    return "/usr/local/cuda";
  Tried.push_back("/usr/local/cuda");
  Why = "no CUDA toolkit found (tried";
  for (const std::string &T : Tried)
    Why += " " + T;
  Why += "); install the CUDA toolkit's headers or pass --cuda-path DIR";
  return {};
}

bool parseHipVersion(const std::string &Text, HipVersion &V) {
  llvm::StringRef S(Text);
  auto [Major, Rest] = S.split('.');
  llvm::StringRef Minor = Rest.split('.').first;
  unsigned Ma, Mi;
  if (Major.getAsInteger(10, Ma) || Minor.getAsInteger(10, Mi))
    return false;
  V = {Ma, Mi};
  return true;
}

HipVersion findInstalledHip(std::string &Where) {
  std::vector<std::string> Dirs;
  for (const char *Var : {"HIP_PATH", "ROCM_PATH"})
    if (const char *V = std::getenv(Var); V && *V)
      Dirs.push_back(std::string(V) + "/include");
  Dirs.push_back("/opt/rocm/include");
  Dirs.push_back("/usr/include");
  for (const std::string &D : Dirs) {
    std::string File = D + "/hip/hip_version.h";
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    unsigned Major = 0, Minor = 0;
    bool HaveMajor = false, HaveMinor = false;
    llvm::SmallVector<llvm::StringRef, 32> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      L = L.trim();
      if (!L.consume_front("#define"))
        continue;
      L = L.ltrim();
      if (L.consume_front("HIP_VERSION_MAJOR"))
        HaveMajor = !L.trim().getAsInteger(10, Major);
      else if (L.consume_front("HIP_VERSION_MINOR"))
        HaveMinor = !L.trim().getAsInteger(10, Minor);
    }
    if (HaveMajor && HaveMinor) {
      Where = File;
      return {Major, Minor};
    }
  }
  return {};
}

std::vector<std::string> cudaParseArgs(const std::string &CudaPath,
                                       const std::vector<std::string> &UserArgs) {
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-path=" + CudaPath, "--cuda-host-only",
      // The architecture only selects __CUDA_ARCH__-dependent declarations
      // of the headers; sm_80 has everything LLM code uses (bf16, cp.async).
      "--cuda-gpu-arch=sm_80", "-nocudalib", "-Wno-unknown-cuda-version",
      "-fsyntax-only", "-resource-dir=" + clangResourceDir(),
      // nvcc adds CCCL's directory itself; cooperative_groups.h needs it.
      "-isystem", CudaPath + "/include/cccl", "-std=c++17",
      // Parse as much as possible: errors are reported, not fatal.
      "-ferror-limit=0", "-Wno-everything",
      // Without carets Clang also leaves out its "N errors generated" line:
      // the errors are reported as cuhip warnings instead.
      "-fno-caret-diagnostics"};
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  return Args;
}

std::vector<std::string> parseRelevantFlags(const std::vector<std::string> &Argv,
                                            const std::string &Directory) {
  std::vector<std::string> Out;
  auto Abs = [&](llvm::StringRef P) {
    if (P.empty() || llvm::sys::path::is_absolute(P))
      return P.str();
    llvm::SmallString<256> R(Directory);
    llvm::sys::path::append(R, P);
    return std::string(R);
  };
  // Flags that take a path, in their separate and joined spellings.
  struct PathFlag {
    const char *Nvcc, *Clang;
  };
  static const PathFlag PathFlags[] = {
      {"-I", "-I"},           {"--include-path", "-I"},
      {"-isystem", "-isystem"}, {"--system-include", "-isystem"},
      {"-iquote", "-iquote"}, {"-include", "-include"},
      {"--pre-include", "-include"}};
  static const PathFlag ValueFlags[] = {{"-D", "-D"},
                                        {"--define-macro", "-D"},
                                        {"-U", "-U"},
                                        {"--undefine-macro", "-U"}};
  for (size_t I = 0; I < Argv.size(); ++I) {
    llvm::StringRef A(Argv[I]);
    bool Done = false;
    for (const PathFlag &F : PathFlags) {
      llvm::StringRef N(F.Nvcc);
      if (A == N && I + 1 < Argv.size()) {
        Out.push_back(F.Clang);
        Out.push_back(Abs(Argv[++I]));
        Done = true;
      } else if (A.starts_with(N) && N.size() > 2 && A.size() > N.size() &&
                 A[N.size()] == '=') {
        Out.push_back(F.Clang);
        Out.push_back(Abs(A.substr(N.size() + 1)));
        Done = true;
      } else if (N.size() == 2 && A.starts_with(N) && A.size() > 2) {
        Out.push_back(std::string(F.Clang) + Abs(A.substr(2)));
        Done = true;
      }
      if (Done)
        break;
    }
    if (Done)
      continue;
    for (const PathFlag &F : ValueFlags) {
      llvm::StringRef N(F.Nvcc);
      if (A == N && I + 1 < Argv.size()) {
        Out.push_back(std::string(F.Clang) + Argv[++I]);
        Done = true;
      } else if (N.size() > 2 && A.starts_with(N) && A.size() > N.size() &&
                 A[N.size()] == '=') {
        Out.push_back(std::string(F.Clang) + A.substr(N.size() + 1).str());
        Done = true;
      } else if (N.size() == 2 && A.starts_with(N) && A.size() > 2) {
        Out.push_back(A.str());
        Done = true;
      }
      if (Done)
        break;
    }
    if (Done)
      continue;
    if (A.starts_with("-std=") || A.starts_with("--std="))
      Out.push_back("-std=" + A.split('=').second.str());
    else if (A == "-std" && I + 1 < Argv.size())
      Out.push_back("-std=" + Argv[++I]);
  }
  return Out;
}

std::string clangResourceDir() { return CUHIP_CLANG_RESOURCE_DIR; }
std::string clangExecutable() { return CUHIP_CLANG_EXECUTABLE; }

} // namespace cuhip::translate
