//===- DeviceLibs.cpp - ROCm device libraries for every AMD target --------===//
//
// Clang links ROCm's device libraries into HIP device code, among them
// oclc_isa_version_<N>.bc: one constant, __oclc_ISA_version, that tells
// ocml and ockl which ISA they run on. Debian's ROCm 5.2 has no such file
// for gfx942, gfx950, gfx1100..gfx1151 or gfx12, which cuhip targets. They
// are made here: the installed file of another target, loaded with LLVM and
// given the target's number (major * 1000 + minor * 100 + stepping, as the
// installed ones hold), written into a cache directory next to links to
// every installed library. Builds run concurrently, so every file appears
// by rename() of a finished temporary file: a reader sees all of it or none.
//
//===----------------------------------------------------------------------===//
#include "AmdPipeline.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace cuhip::nvcc {
namespace {

namespace fs = llvm::sys::fs;

/// "gfx942" -> "942", "gfx90a:xnack+" -> "90a".
std::string isaDigits(const std::string &Arch) {
  std::string Base = Arch.substr(0, Arch.find(':'));
  return Base.rfind("gfx", 0) == 0 ? Base.substr(3) : Base;
}

/// What this code writes into a device-library cache directory; part of
/// its name.
constexpr unsigned CacheLayout = 2;

/// The ISA version number of a target's digits: "90a" -> 9010.
bool isaVersion(const std::string &Digits, unsigned &V) {
  if (Digits.size() < 3)
    return false;
  unsigned Major = 0;
  for (char C : Digits.substr(0, Digits.size() - 2)) {
    if (C < '0' || C > '9')
      return false;
    Major = Major * 10 + (C - '0');
  }
  char Minor = Digits[Digits.size() - 2], Step = Digits.back();
  if (Minor < '0' || Minor > '9')
    return false;
  unsigned S;
  if (Step >= '0' && Step <= '9')
    S = Step - '0';
  else if (Step >= 'a' && Step <= 'f')
    S = Step - 'a' + 10;
  else
    return false;
  V = Major * 1000 + (Minor - '0') * 100 + S;
  return true;
}

std::string cacheRoot() {
  if (const char *D = std::getenv("CUHIP_CACHE_DIR"); D && *D)
    return D;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/cuhip";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/cuhip";
  return "/tmp/cuhip-cache";
}

/// Writes Text to Path through a temporary file and rename().
bool publish(const std::string &Path, llvm::function_ref<bool(int FD)> Write,
             std::string &Err) {
  llvm::SmallString<256> Tmp;
  int FD;
  if (std::error_code EC =
          fs::createUniqueFile(Path + ".%%%%%%.tmp", FD, Tmp)) {
    Err = "cannot create a file next to " + Path + ": " + EC.message();
    return false;
  }
  if (!Write(FD)) {
    fs::remove(Tmp);
    Err = "cannot write " + std::string(Tmp);
    return false;
  }
  if (std::error_code EC = fs::rename(Tmp, Path)) {
    fs::remove(Tmp);
    Err = "cannot rename " + std::string(Tmp) + " to " + Path + ": " +
          EC.message();
    return false;
  }
  return true;
}

} // namespace

std::string installedDeviceLibs() {
  std::vector<std::string> Candidates;
  if (const char *R = std::getenv("ROCM_PATH"); R && *R)
    Candidates.push_back(std::string(R) + "/amdgcn/bitcode");
  Candidates.insert(Candidates.end(),
                    {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                     "/opt/rocm/amdgcn/bitcode", "/opt/rocm/lib/bitcode"});
  for (const std::string &D : Candidates)
    if (fs::exists(D + "/ocml.bc"))
      return D;
  return "";
}

bool prepareDeviceLibs(const std::vector<std::string> &Archs, std::string &Dir,
                       std::string &Err) {
  std::string Installed = installedDeviceLibs();
  if (Installed.empty()) {
    Err = "no ROCm device libraries found (ocml.bc in $ROCM_PATH/amdgcn/"
          "bitcode, /usr/lib/x86_64-linux-gnu/amdgcn/bitcode or "
          "/opt/rocm/amdgcn/bitcode); install them (Debian: "
          "rocm-device-libs) or set ROCM_PATH";
    return false;
  }
  std::vector<std::string> Missing;
  for (const std::string &A : Archs) {
    std::string D = isaDigits(A);
    if (!fs::exists(Installed + "/oclc_isa_version_" + D + ".bc") &&
        std::find(Missing.begin(), Missing.end(), D) == Missing.end())
      Missing.push_back(D);
  }
  // HIP 5.2's headers call functions (__atomic_work_item_fence for
  // __threadfence ...) that its hip.bc defines; Clang 22 no longer links
  // hip.bc, so the cache's ockl.bc is ockl.bc with hip.bc linked in.
  bool HipBc = fs::exists(Installed + "/hip.bc");
  if (Missing.empty() && !HipBc) {
    Dir = Installed;
    return true;
  }

  // One cache directory per installed library directory and per layout of
  // this cache: a cuhip that changes what it generates here bumps the
  // layout, so a directory an older cuhip filled is never taken as complete.
  std::string Key = Installed;
  for (char &C : Key)
    if (C == '/')
      C = '_';
  Dir = cacheRoot() + "/device-libs/v" + std::to_string(CacheLayout) + Key;
  if (std::error_code EC = fs::create_directories(Dir)) {
    Err = "cannot create the device-library cache " + Dir + ": " +
          EC.message() + " (set CUHIP_CACHE_DIR to a writable directory)";
    return false;
  }
  std::error_code EC;
  for (fs::directory_iterator It(Installed, EC), End; It != End && !EC;
       It.increment(EC)) {
    std::string Name(llvm::sys::path::filename(It->path()));
    std::string Link = Dir + "/" + Name;
    if (fs::exists(Link) || (HipBc && Name == "ockl.bc"))
      continue;
    llvm::SmallString<256> Tmp(Link + ".link-" +
                               std::to_string(::getpid()) + ".tmp");
    fs::remove(Tmp);
    if (fs::create_link(It->path(), Tmp) || fs::rename(Tmp, Link)) {
      fs::remove(Tmp);
      if (!fs::exists(Link)) {
        Err = "cannot link " + It->path() + " into " + Dir +
              " (set CUHIP_CACHE_DIR to a writable directory)";
        return false;
      }
    }
  }

  // The merged ockl.bc is a file cuhip wrote; a link to the installed one
  // (as a directory made without hip.bc support had) is replaced.
  if (HipBc && fs::is_symlink_file(Dir + "/ockl.bc"))
    fs::remove(Dir + "/ockl.bc");
  if (HipBc && !fs::exists(Dir + "/ockl.bc")) {
    llvm::LLVMContext Ctx;
    auto Load = [&](const std::string &P)
        -> std::unique_ptr<llvm::Module> {
      auto Buf = llvm::MemoryBuffer::getFile(P);
      if (!Buf) {
        Err = "cannot read " + P + ": " + Buf.getError().message();
        return nullptr;
      }
      auto M = llvm::parseBitcodeFile((*Buf)->getMemBufferRef(), Ctx);
      if (!M) {
        Err = "cannot read " + P + ": " + llvm::toString(M.takeError());
        return nullptr;
      }
      // linkonce definitions would be dropped as unreferenced.
      for (llvm::GlobalValue &G : (*M)->global_values())
        if (G.hasLinkOnceLinkage())
          G.setLinkage(llvm::GlobalValue::WeakODRLinkage);
      return std::move(*M);
    };
    std::unique_ptr<llvm::Module> Ockl = Load(Installed + "/ockl.bc");
    std::unique_ptr<llvm::Module> Hip = Ockl ? Load(Installed + "/hip.bc")
                                             : nullptr;
    if (!Hip)
      return false;
    if (llvm::Linker::linkModules(*Ockl, std::move(Hip))) {
      Err = "cannot link " + Installed + "/hip.bc into ockl.bc";
      return false;
    }
    // ROCm 5.2's ocml reads __oclc_daz_opt, which Clang 22 no longer
    // links a definition of: denormals are kept (nvcc's default).
    if (fs::exists(Installed + "/oclc_daz_opt_off.bc")) {
      std::unique_ptr<llvm::Module> Daz =
          Load(Installed + "/oclc_daz_opt_off.bc");
      if (!Daz || llvm::Linker::linkModules(*Ockl, std::move(Daz))) {
        Err = "cannot link oclc_daz_opt_off.bc into ockl.bc";
        return false;
      }
    }
    if (!publish(
            Dir + "/ockl.bc",
            [&](int FD) {
              llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
              llvm::WriteBitcodeToFile(*Ockl, OS);
              OS.close();
              return !OS.has_error();
            },
            Err))
      return false;
  }

  // Another target's isa-version file is the model: same data layout,
  // triple, linkage and metadata.
  std::string Model;
  for (const char *M : {"90a", "908", "906", "1030"})
    if (fs::exists(Installed + "/oclc_isa_version_" + std::string(M) +
                   ".bc")) {
      Model = Installed + "/oclc_isa_version_" + M + ".bc";
      break;
    }
  if (Model.empty()) {
    Err = "no isa-version file in " + Installed +
          " to model the missing ones on; install ROCm's device libraries "
          "for the targets you need";
    return false;
  }
  for (const std::string &D : Missing) {
    std::string Out = Dir + "/oclc_isa_version_" + D + ".bc";
    if (fs::exists(Out))
      continue;
    unsigned Version;
    if (!isaVersion(D, Version)) {
      Err = "cannot work out the ISA version of gfx" + D;
      return false;
    }
    auto Buf = llvm::MemoryBuffer::getFile(Model);
    if (!Buf) {
      Err = "cannot read " + Model + ": " + Buf.getError().message();
      return false;
    }
    llvm::LLVMContext Ctx;
    auto M = llvm::parseBitcodeFile((*Buf)->getMemBufferRef(), Ctx);
    if (!M) {
      Err = "cannot read " + Model + ": " + llvm::toString(M.takeError());
      return false;
    }
    llvm::GlobalVariable *G = (*M)->getGlobalVariable("__oclc_ISA_version");
    if (!G) {
      Err = Model + " has no __oclc_ISA_version";
      return false;
    }
    G->setInitializer(llvm::ConstantInt::get(G->getValueType(), Version));
    if (!publish(
            Out,
            [&](int FD) {
              llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
              llvm::WriteBitcodeToFile(**M, OS);
              OS.close();
              return !OS.has_error();
            },
            Err))
      return false;
  }
  return true;
}

} // namespace cuhip::nvcc
