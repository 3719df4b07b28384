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

/// The DT_NEEDED entries of an ELF64 little-endian file, and whether it has
/// a `.nvFatBinSegment` section (it carries CUDA device code). Returns false
/// when the file is not such an ELF file.
static bool readElfFacts(const std::string &Path,
                         std::vector<std::string> &Needed, bool &HasFatbin) {
  FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F)
    return false;
  std::vector<unsigned char> B;
  unsigned char Buf[65536];
  for (size_t N; (N = std::fread(Buf, 1, sizeof(Buf), F)) > 0;)
    B.insert(B.end(), Buf, Buf + N);
  std::fclose(F);
  auto u16 = [&](size_t O) -> uint64_t { return O + 2 <= B.size() ? B[O] | B[O + 1] << 8 : 0; };
  auto u32 = [&](size_t O) -> uint64_t { return O + 4 <= B.size() ? u16(O) | u16(O + 2) << 16 : 0; };
  auto u64 = [&](size_t O) -> uint64_t { return O + 8 <= B.size() ? u32(O) | u32(O + 4) << 32 : 0; };
  if (B.size() < 64 || std::memcmp(B.data(), "\x7f" "ELF", 4) || B[4] != 2 || B[5] != 1)
    return false;
  uint64_t ShOff = u64(0x28), ShEntSize = u16(0x3a), ShNum = u16(0x3c),
           ShStrNdx = u16(0x3e);
  if (ShEntSize < 64 || ShOff + ShNum * ShEntSize > B.size() || ShStrNdx >= ShNum)
    return false;
  auto sh = [&](uint64_t I) { return ShOff + I * ShEntSize; };
  uint64_t NamesOff = u64(sh(ShStrNdx) + 0x18);
  auto cstr = [&](uint64_t O) {
    std::string S;
    while (O < B.size() && B[O])
      S += char(B[O++]);
    return S;
  };
  HasFatbin = false;
  for (uint64_t I = 0; I < ShNum; ++I) {
    std::string Name = cstr(NamesOff + u32(sh(I)));
    if (Name == ".nvFatBinSegment")
      HasFatbin = true;
    if (u32(sh(I) + 4) != 6 /*SHT_DYNAMIC*/)
      continue;
    uint64_t Off = u64(sh(I) + 0x18), Size = u64(sh(I) + 0x20);
    uint64_t StrSec = u32(sh(I) + 0x28);
    if (StrSec >= ShNum)
      continue;
    uint64_t StrOff = u64(sh(StrSec) + 0x18);
    for (uint64_t E = Off; E + 16 <= Off + Size && E + 16 <= B.size(); E += 16) {
      uint64_t Tag = u64(E);
      if (Tag == 0)
        break;
      if (Tag == 1 /*DT_NEEDED*/)
        Needed.push_back(cstr(StrOff + u64(E + 8)));
    }
  }
  return true;
}

/// Resolves a program name the way execvp will.
static std::string findProgram(const std::string &Name) {
  if (Name.find('/') != std::string::npos)
    return Name;
  const char *Path = std::getenv("PATH");
  std::string P = Path ? Path : "/usr/bin:/bin";
  for (size_t Start = 0; Start <= P.size();) {
    size_t End = P.find(':', Start);
    if (End == std::string::npos)
      End = P.size();
    std::string Cand = (End > Start ? P.substr(Start, End - Start) : ".") + "/" + Name;
    if (access(Cand.c_str(), X_OK) == 0)
      return Cand;
    Start = End + 1;
  }
  return Name;
}

/// Programs that carry CUDA device code but do not load libcudart.so link
/// the CUDA runtime statically (nvcc's default); those need the driver-API
/// drop-in's undocumented export tables, which cuhip's libcuda.so.1 does not
/// provide yet. Say so before they fail with a puzzling "insufficient
/// driver" error.
static void warnAboutStaticRuntime(const std::string &Program) {
  std::vector<std::string> Needed;
  bool HasFatbin = false;
  if (!readElfFacts(findProgram(Program), Needed, HasFatbin) || !HasFatbin)
    return;
  for (const auto &N : Needed)
    if (N.rfind("libcudart.so", 0) == 0)
      return;
  std::fprintf(stderr,
               "cuhip run: warning: '%s' links the CUDA runtime statically "
               "(nvcc's default), which cuhip cannot serve yet; rebuild it "
               "with 'nvcc -cudart shared'\n",
               Program.c_str());
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

  warnAboutStaticRuntime(argv[I]);
  execvp(argv[I], argv + I);
  std::fprintf(stderr, "cuhip run: error: cannot run '%s': %s\n", argv[I],
               std::strerror(errno));
  return errno == ENOENT ? 127 : 126;
}
