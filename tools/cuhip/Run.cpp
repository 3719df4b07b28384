//===- Run.cpp - `cuhip run`: a CUDA program on cuhip's libraries ---------===//
//
// Puts cuhip's drop-in libraries first on the library search path, names
// cuhip's rtld-audit module in LD_AUDIT (which redirects the CUDA sonames
// even where a program's RPATH points into a CUDA toolkit), and replaces
// itself with the program (exec), so the program's exit status, signals,
// stdin/stdout/stderr are its own. Both variables stay in the environment,
// so CUDA programs the program starts are served as well.
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
               "Runs PROGRAM with cuhip's libcudart in place of NVIDIA's (and\n"
               "cuhip's libcuda, cuBLAS, cuBLASLt, cuFFT, NVRTC and nvJitLink).\n"
               "  --backend cpu   run kernels on the host CPU (default when no AMD\n"
               "                  GPU is present)\n"
               "  --backend auto  pick the best available backend (default, unless\n"
               "                  CUHIP_BACKEND is set: without --backend it stands)\n"
               "  --backend hip   run kernels on an AMD GPU through HIP (libamdhip64)\n"
               "  --memcheck      CPU backend: check every global, generic and\n"
               "                  shared access of the kernels and report the first\n"
               "                  bad one (sets CUHIP_MEMCHECK=1; slow)\n"
               "Programs PROGRAM starts (fork/exec, system) inherit the setting,\n"
               "also when their RPATH names a CUDA toolkit. Setuid and setgid\n"
               "programs are not supported: the dynamic linker ignores\n"
               "LD_AUDIT and LD_LIBRARY_PATH for them.\n"
               "Environment: CUHIP_LOG=error|warn|info|debug|trace, CUHIP_DUMP_DIR,\n"
               "  CUHIP_MEMCHECK.\n");
}


static bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

/// The file execvp would run for Name, or "" if there is none.
static std::string findProgram(const std::string &Name) {
  if (Name.find('/') != std::string::npos)
    return Name;
  const char *Path = std::getenv("PATH");
  std::string Dirs = Path ? Path : "/usr/local/bin:/usr/bin:/bin";
  size_t Start = 0;
  while (Start <= Dirs.size()) {
    size_t End = Dirs.find(':', Start);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Start, End - Start);
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Name;
    if (access(Candidate.c_str(), X_OK) == 0)
      return Candidate;
    Start = End + 1;
  }
  return "";
}

/// Prepends Value to the colon-separated list in environment variable Var,
/// unless it is first there already (`cuhip run` started by a program under
/// `cuhip run` must not load the audit module twice).
static void prependEnv(const char *Var, const std::string &Value) {
  const char *Old = std::getenv(Var);
  if (Old && (Old == Value || std::string(Old).rfind(Value + ":", 0) == 0))
    return;
  std::string List = Value;
  if (Old && *Old)
    List += std::string(":") + Old;
  setenv(Var, List.c_str(), 1);
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
  // Without --backend, a CUHIP_BACKEND the user set stands; only an unset
  // one becomes auto.
  bool FromEnv = false;
  if (Backend.empty()) {
    const char *Env = std::getenv("CUHIP_BACKEND");
    FromEnv = Env && *Env;
    Backend = FromEnv ? Env : "auto";
  }
  if (Backend != "cpu" && Backend != "auto" && Backend != "hip") {
    std::fprintf(stderr,
                 "cuhip run: error: unknown backend '%s'%s (use cpu, hip or "
                 "auto)\n",
                 Backend.c_str(), FromEnv ? " in CUHIP_BACKEND" : "");
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
  // The dynamic linker runs setuid and setgid programs in secure mode, in
  // which it ignores both variables below: such a program would silently
  // get NVIDIA's libraries, or none.
  std::string Program = findProgram(argv[I]);
  struct stat St;
  if (!Program.empty() && stat(Program.c_str(), &St) == 0 &&
      (St.st_mode & (S_ISUID | S_ISGID))) {
    std::fprintf(stderr,
                 "cuhip run: error: '%s' is a setuid or setgid program, which "
                 "cuhip does not support: the dynamic linker ignores "
                 "LD_AUDIT and LD_LIBRARY_PATH for it\n",
                 Program.c_str());
    return 126;
  }
  prependEnv("LD_LIBRARY_PATH", LibDir);
  // LD_LIBRARY_PATH comes after a program's DT_RPATH; the audit module is
  // asked before any search, so an rpath into a CUDA toolkit cannot win.
  // Not in a sanitized cuhip (CUHIP_SANITIZE): its preloaded sanitizer
  // runtime cannot get its static TLS once the dynamic linker also sets
  // up an audit namespace, and what those runs check is cuhip's own code.
#ifndef CUHIP_SANITIZER_RUNTIME
  std::string Audit = LibDir + "/libcuhip_audit.so";
  if (exists(Audit))
    prependEnv("LD_AUDIT", Audit);
  else
    std::fprintf(stderr,
                 "cuhip run: warning: %s is missing; programs whose RPATH "
                 "names a CUDA toolkit will load NVIDIA's libraries\n",
                 Audit.c_str());
#endif
  // The runtime core chooses for auto: an AMD GPU when HIP finds one.
  setenv("CUHIP_BACKEND", Backend.c_str(), 1);
  if (Memcheck)
    setenv("CUHIP_MEMCHECK", "1", 1);
#ifdef CUHIP_SANITIZER_RUNTIME
  // A sanitized cuhip (CUHIP_SANITIZE): the program itself is not
  // instrumented, so the sanitizer's runtime would load after libc, too late
  // to intercept it. Preloading puts it first.
  prependEnv("LD_PRELOAD", CUHIP_SANITIZER_RUNTIME);
#endif

  execvp(argv[I], argv + I);
  std::fprintf(stderr, "cuhip run: error: cannot run '%s': %s\n", argv[I],
               std::strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
