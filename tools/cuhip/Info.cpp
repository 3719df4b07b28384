//===- Info.cpp - `cuhip info`: what this installation can do -------------===//
#include "Tool.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/runtime/HipLibrary.h"

#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdio>
#include <dlfcn.h>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <thread>

#ifndef CUHIP_VERSION
#define CUHIP_VERSION "unknown"
#endif

int cuhipInfoMain(int argc, char **argv) {
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--help" || A == "-h") {
      std::printf("usage: cuhip info\n\nPrints cuhip's version, its backends "
                  "and devices, and where its libraries are.\n");
      return 0;
    }
    std::fprintf(stderr, "cuhip info: error: unknown option '%s'\n", A.c_str());
    return 2;
  }
  std::string LibDir = cuhipBinDir() + "/../lib";
  char Real[4096];
  if (realpath(LibDir.c_str(), Real))
    LibDir = Real;
  std::printf("cuhip %s\n", CUHIP_VERSION);
  std::printf("libraries: %s\n", LibDir.c_str());
  for (const char *L : {"libcudart.so.13", "libcudart.so.12", "libcuda.so.1",
                        "libcublas.so.13", "libcublas.so.12",
                        "libcublasLt.so.13", "libcublasLt.so.12",
                        "libcufft.so.12", "libcufft.so.11",
                        "libnvJitLink.so.13",
                        "libcuhip-core.so"}) {
    struct stat St;
    std::printf("  %-18s %s\n", L,
                stat((LibDir + "/" + L).c_str(), &St) == 0 ? "present" : "MISSING");
  }
  std::printf("backends:\n");
  auto TM = cuhip::ptx::host::HostCompiler::createHostTargetMachine();
  if (TM) {
    unsigned Workers = std::thread::hardware_concurrency();
    if (const char *E = std::getenv("CUHIP_CPU_THREADS"))
      Workers = unsigned(std::atoi(E));
    std::printf("  cpu  available: %s, cpu %s, %u worker threads\n",
                (*TM)->getTargetTriple().str().c_str(),
                (*TM)->getTargetCPU().str().c_str(), Workers ? Workers : 1);
  } else {
    std::printf("  cpu  unavailable: %s\n",
                llvm::toString(TM.takeError()).c_str());
  }
  // The HIP runtime is only looked for here; whether it finds an AMD GPU
  // is decided when a program starts (CUHIP_LOG=info says which backend).
  std::string HipLib;
  for (const std::string &Name : cuhip::rt::hipLibraryCandidates())
    if (void *H = dlopen(Name.c_str(), RTLD_LAZY | RTLD_LOCAL)) {
      HipLib = Name;
      dlclose(H);
      break;
    }
  if (!HipLib.empty())
    std::printf("  hip  %s found; used when it reports a supported AMD GPU\n",
                HipLib.c_str());
  else
    std::printf("  hip  unavailable: libamdhip64 not found\n");
  const char *B = std::getenv("CUHIP_BACKEND");
  std::printf("selected backend: %s\n", B && *B ? B : "auto");
  // The CPU backend's compiled objects; the AMDGPU target is not cached.
  std::string CacheDir = cuhip::ptx::host::compileCacheDirectory();
  if (CacheDir.empty())
    std::printf("compile cache: off (CUHIP_CACHE_DIR=off or no home directory)\n");
  else
    std::printf("compile cache: %s (cpu backend)\n", CacheDir.c_str());
  return 0;
}
