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
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

static void runUsage(FILE *Out) {
  std::fprintf(Out,
               "usage: cuhip run [--backend cpu|hip|auto] [--] PROGRAM [ARGS...]\n"
               "\n"
               "Runs PROGRAM with cuhip's libcudart in place of NVIDIA's.\n"
               "  --backend cpu   run kernels on the host CPU (default when no AMD\n"
               "                  GPU is present)\n"
               "  --backend auto  pick the best available backend (default)\n"
               "  --backend hip   run kernels on an AMD GPU (not available yet)\n"
               "Environment: CUHIP_LOG=error|warn|info|debug|trace, CUHIP_DUMP_DIR.\n");
}

static bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

int cuhipRunMain(int argc, char **argv) {
  std::string Backend;
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
  if (Backend == "hip") {
    std::fprintf(stderr, "cuhip run: error: the HIP backend is not available "
                         "in this build yet; use --backend cpu\n");
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
  setenv("CUHIP_BACKEND", Backend == "auto" ? "cpu" : Backend.c_str(), 1);

  execvp(argv[I], argv + I);
  std::fprintf(stderr, "cuhip run: error: cannot run '%s': %s\n", argv[I],
               std::strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
