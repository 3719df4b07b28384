//===- Run.cpp - `cuhip run`: a CUDA program on cuhip's libraries ---------===//
//
// Puts cuhip's drop-in libraries first on the library search path and
// replaces itself with the program (exec), so the program's exit status,
// signals, stdin/stdout/stderr are its own.
//
//===----------------------------------------------------------------------===//
#include "Tool.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

static void runUsage(FILE *Out) {
  std::fprintf(Out,
               "usage: cuhip run [--backend cpu|hip|auto] [--memcheck] [--] "
               "PROGRAM [ARGS...]\n"
               "\n"
               "Runs PROGRAM with cuhip's libcudart in place of NVIDIA's.\n"
               "  --backend cpu   run kernels on the host CPU (default when no AMD\n"
               "                  GPU is present)\n"
               "  --backend auto  pick the best available backend (default)\n"
               "  --backend hip   run kernels on an AMD GPU through HIP (libamdhip64)\n"
               "  --memcheck      CPU backend: check every global, generic and\n"
               "                  shared access of the kernels and report the first\n"
               "                  bad one (sets CUHIP_MEMCHECK=1; slow)\n"
               "Environment: CUHIP_LOG=error|warn|info|debug|trace, CUHIP_DUMP_DIR,\n"
               "  CUHIP_MEMCHECK.\n");
}


static bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

int cuhipRunMain(int argc, char **argv) {
  std::string Backend;
  bool Memcheck = false;
  int I = 1;
  for (; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "--help" || A == "-h") {
      runUsage(stdout);
      return 0;
    }
    if (A == "--memcheck") {
      Memcheck = true;
      continue;
    }
    if (A == "--backend" || A.rfind("--backend=", 0) == 0) {
      if (A == "--backend") {
        if (++I >= argc) {
          std::fprintf(stderr, "cuhip run: error: --backend needs a value\n");
          return 2;
        }
        Backend = argv[I];
      } else {
        Backend = A.substr(10);
      }
      continue;
    }
    if (!A.empty() && A[0] == '-') {
      std::fprintf(stderr, "cuhip run: error: unknown option '%s'\n", A.c_str());
      runUsage(stderr);
      return 2;
    }
    break;
  }
  if (I >= argc) {
    std::fprintf(stderr, "cuhip run: error: no program given\n");
    runUsage(stderr);
    return 2;
  }
  if (Backend.empty())
    Backend = "auto";
  if (Backend != "cpu" && Backend != "auto" && Backend != "hip") {
    std::fprintf(stderr,
                 "cuhip run: error: unknown backend '%s' (use cpu, hip or auto)\n",
                 Backend.c_str());
    return 2;
  }

  std::string LibDir = cuhipBinDir() + "/../lib";
  if (!exists(LibDir + "/libcudart.so.13")) {
    std::fprintf(stderr,
                 "cuhip run: error: cuhip's libraries are missing from %s; "
                 "build the project (cmake --build build) first\n",
                 LibDir.c_str());
    return 2;
  }
  char Real[PATH_MAX];
  if (realpath(LibDir.c_str(), Real))
    LibDir = Real;
  std::string Path = LibDir;
  if (const char *Old = std::getenv("LD_LIBRARY_PATH"); Old && *Old)
    Path += std::string(":") + Old;
  setenv("LD_LIBRARY_PATH", Path.c_str(), 1);
  // The runtime core chooses for auto: an AMD GPU when HIP finds one.
  setenv("CUHIP_BACKEND", Backend.c_str(), 1);
  if (Memcheck)
    setenv("CUHIP_MEMCHECK", "1", 1);
#ifdef CUHIP_SANITIZER_RUNTIME
  // A sanitized cuhip (CUHIP_SANITIZE): the program itself is not
  // instrumented, so the sanitizer's runtime would load after libc, too late
  // to intercept it. Preloading puts it first.
  std::string Preload = CUHIP_SANITIZER_RUNTIME;
  if (const char *Old = std::getenv("LD_PRELOAD"); Old && *Old)
    Preload += std::string(":") + Old;
  setenv("LD_PRELOAD", Preload.c_str(), 1);
#endif

  execvp(argv[I], argv + I);
  std::fprintf(stderr, "cuhip run: error: cannot run '%s': %s\n", argv[I],
               std::strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
