//===- Driver.cpp - cuhip nvcc: mode, environment, what nvcc prints ------===//
//
// The part of `cuhip nvcc` that is neither option parsing nor compiling:
// it expands response files, picks the mode, finds the toolkit, HIP, Clang
// and cuhip's own libraries, prints what build systems read from nvcc
// (`--version`, and the `#$ NAME=value` lines of `-v` that CMake's compiler
// identification takes the toolkit root and link directories from), and
// hands the Invocation to a pipeline. Commands are printed as nvcc prints
// them, `#$ ` first, on stderr.
//
//===----------------------------------------------------------------------===//
#include "Nvcc.h"

#include "cuhip/translate/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#ifndef CUHIP_VERSION
#define CUHIP_VERSION "unknown"
#endif
#ifndef CUHIP_CLANG_EXECUTABLE
#error "CUHIP_CLANG_EXECUTABLE must be defined by the build"
#endif
#ifndef CUHIP_BUILD_CUDA_PATH
#define CUHIP_BUILD_CUDA_PATH ""
#endif

std::string cuhipBinDir();

namespace cuhip::nvcc {
namespace {

const char *DepthVar = "CUHIP_NVCC_DEPTH";

bool needsQuotes(const std::string &A) {
  if (A.empty() || A.rfind("-L", 0) == 0 || A.rfind("-I", 0) == 0)
    return true;
  for (char C : A)
    if (std::isspace(static_cast<unsigned char>(C)) ||
        std::strchr("\"'\\$`*?;&|<>()[]{}#!~", C))
      return true;
  return false;
}

std::string quoted(const std::string &A) {
  if (!needsQuotes(A))
    return A;
  std::string Q = "\"";
  for (char C : A) {
    if (C == '"' || C == '\\' || C == '$' || C == '`')
      Q += '\\';
    Q += C;
  }
  return Q + "\"";
}

bool exists(const std::string &P) { return llvm::sys::fs::exists(P); }

std::string parentOf(const std::string &P) {
  return std::string(llvm::sys::path::parent_path(P));
}

/// The CUDA toolkit: $CUHIP_CUDA_PATH, else the translator's search
/// ($CUDA_PATH, $CUDA_HOME, the nvcc on PATH, /usr/local/cuda), else the one
/// cuhip was built with. The translator and the compile must agree on it.
std::string findCuda(std::string &Why) {
  const char *Explicit = std::getenv("CUHIP_CUDA_PATH");
  std::string Found =
      translate::findCudaPath(Explicit ? Explicit : "", Why);
  if (!Found.empty())
    return Found;
  if (Explicit && *Explicit) {
    Why = std::string("CUHIP_CUDA_PATH=") + Explicit +
          " is not a CUDA toolkit (no include/cuda.h and "
          "include/cuda_runtime.h)";
    return {};
  }
  std::string Ignored;
  if (!translate::findCudaPath(CUHIP_BUILD_CUDA_PATH, Ignored).empty())
    return CUHIP_BUILD_CUDA_PATH;
  return {};
}

/// The prefix holding include/hip: the HIP the translator writes for.
std::string findHip() {
  std::string Where;
  if (translate::findInstalledHip(Where).code() == 0)
    return {};
  // Where is <prefix>/include/hip/hip_version.h.
  return parentOf(parentOf(parentOf(Where)));
}

/// "13.0.88": the CUDA release of the headers, with the build number of
/// the toolkit's nvcc package when it records one.
std::string readCudaVersion(const std::string &CudaPath) {
  unsigned Major = 13, Minor = 0, Patch = 0;
  std::ifstream H(CudaPath + "/include/cuda.h");
  std::string Line;
  std::regex Def(R"(^#define\s+CUDA_VERSION\s+(\d+))");
  while (std::getline(H, Line)) {
    std::smatch M;
    if (std::regex_search(Line, M, Def)) {
      unsigned V = std::stoul(M[1]);
      Major = V / 1000;
      Minor = V % 1000 / 10;
      break;
    }
  }
  std::ifstream J(CudaPath + "/version.json");
  std::stringstream SS;
  SS << J.rdbuf();
  std::smatch M;
  std::string Text = SS.str();
  std::regex Nvcc(R"re("cuda_nvcc"\s*:\s*\{[^}]*"version"\s*:\s*"(\d+)\.(\d+)\.(\d+)")re");
  if (std::regex_search(Text, M, Nvcc) && std::stoul(M[1]) == Major &&
      std::stoul(M[2]) == Minor) {
    Patch = std::stoul(M[3]);
  } else {
    std::error_code EC;
    std::regex Dist(R"(nvidia_cuda_nvcc-(\d+)\.(\d+)\.(\d+)\.dist-info)");
    for (llvm::sys::fs::directory_iterator It(CudaPath + "/dist-info", EC), End;
         !EC && It != End; It.increment(EC)) {
      std::string Name(llvm::sys::path::filename(It->path()));
      if (std::regex_match(Name, M, Dist) && std::stoul(M[1]) == Major &&
          std::stoul(M[2]) == Minor)
        Patch = std::stoul(M[3]);
    }
  }
  return std::to_string(Major) + "." + std::to_string(Minor) + "." +
         std::to_string(Patch);
}

void printHelp() {
  std::printf(
      "usage: cuhip nvcc [options] files...\n"
      "\n"
      "An nvcc-compatible compiler driver. AMD mode (the default) translates\n"
      "each CUDA file to HIP and compiles it with Clang for AMD GPUs; CPU mode\n"
      "compiles device code to PTX and links cuhip's libcudart, so the program\n"
      "runs on every cuhip backend. See docs/nvcc.md.\n"
      "\n"
      "cuhip's options:\n"
      "  --cuhip-backend=amd|cpu    the mode (default: $CUHIP_NVCC_BACKEND or amd)\n"
      "  --amdgpu-arch=gfxN,...     AMD targets (default: $CUHIP_AMDGPU_ARCH, or\n"
      "                             the -arch/-gencode architectures mapped to AMD\n"
      "                             targets, or gfx942,gfx1100)\n"
      "  --cuhip-device-compiler=auto|nvcc|clang\n"
      "                             CPU mode: what compiles device code to PTX\n"
      "\n"
      "nvcc's options (each in its short and long spelling):\n"
      "  phases       -c -dc -dw -dlink -link -lib -E -ptx -fatbin -shared -M -MM\n"
      "  files        -o FILE  -odir DIR  -x cu|c++|c  @FILE  --options-file FILE\n"
      "  preprocessor -I DIR  -isystem DIR  -include FILE  -D X[=V]  -U X  -std=c++NN\n"
      "  dependencies -MD -MMD -MP -MF FILE -MT TARGET\n"
      "  code         -O0..3  -g  -G  -lineinfo  --use_fast_math  -rdc=true|false\n"
      "               -arch=sm_XX|compute_XX|all|all-major|native  -code=...\n"
      "               -gencode arch=compute_XX,code=[sm_XX,compute_XX]\n"
      "               --expt-relaxed-constexpr  --extended-lambda\n"
      "               --default-stream legacy|per-thread  --ftz --prec-div\n"
      "               --prec-sqrt --fmad (true|false)\n"
      "  linking      -L DIR  -l LIB  -cudart static|shared|none\n"
      "  pass-through -Xcompiler A,B  -Xlinker A,B  -ccbin DIR\n"
      "               -forward-unknown-to-host-compiler  -Xarchive A\n"
      "  noted        -Xptxas -Xcudafe -Xnvlink -Xfatbin -maxrregcount -dlto\n"
      "               --diag-suppress -res-usage (accepted; -v says what they\n"
      "               do not do)\n"
      "  warnings     -w  -Werror all-warnings  -Wno-deprecated-gpu-targets\n"
      "  driver       --dryrun  -v/--verbose  --keep  --keep-dir DIR\n"
      "               --version/-V  --help\n");
}

} // namespace

int Runner::run(const std::vector<std::string> &Argv) {
  if (DryRun || Verbose) {
    std::string Line = "#$ ";
    for (size_t I = 0; I < Argv.size(); ++I)
      Line += (I ? " " : "") + quoted(Argv[I]);
    std::fprintf(stderr, "%s\n", Line.c_str());
    std::fflush(stderr);
  }
  if (DryRun)
    return 0;
  std::string Program = Argv[0];
  if (Program.find('/') == std::string::npos) {
    auto Found = llvm::sys::findProgramByName(Program);
    if (!Found) {
      std::fprintf(stderr, "cuhip nvcc: error: cannot find '%s' on PATH\n",
                   Program.c_str());
      return 127;
    }
    Program = *Found;
  }
  std::vector<llvm::StringRef> Args(Argv.begin(), Argv.end());
  std::string ErrMsg;
  bool Failed = false;
  int RC = llvm::sys::ExecuteAndWait(Program, Args, std::nullopt, {}, 0, 0,
                                     &ErrMsg, &Failed);
  if (Failed || RC < 0) {
    std::fprintf(stderr, "cuhip nvcc: error: running %s: %s\n",
                 Program.c_str(),
                 ErrMsg.empty() ? "it did not finish" : ErrMsg.c_str());
    return RC < 0 ? 1 : 127;
  }
  return RC;
}

void Runner::note(const std::string &Line) {
  if (DryRun || Verbose) {
    std::fprintf(stderr, "#$ %s\n", Line.c_str());
    std::fflush(stderr);
  }
}

std::string cudaVersion(const Environment &Env) {
  static std::string Cached;
  if (Cached.empty())
    Cached = readCudaVersion(Env.CudaPath);
  return Cached;
}

int nvccMain(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  auto Fail = [](const std::string &Msg) {
    std::fprintf(stderr, "cuhip nvcc: error: %s\n", Msg.c_str());
    return 1;
  };
  if (const char *D = std::getenv(DepthVar); D && *D && std::atoi(D) > 0)
    return Fail("cuhip nvcc was started by itself (through a tool it ran); "
                "check that the CUDA toolkit's nvcc, not cuhip's, is found "
                "first (CUHIP_CUDA_PATH)");
  setenv(DepthVar, "1", 1);

  std::string Err;
  if (!expandResponseFiles(Args, Err))
    return Fail(Err);
  Invocation Inv;
  if (const char *B = std::getenv("CUHIP_NVCC_BACKEND"); B && *B) {
    if (std::string(B) == "cpu")
      Inv.Mode = Mode::Cpu;
    else if (std::string(B) != "amd" && std::string(B) != "hip")
      return Fail(std::string("CUHIP_NVCC_BACKEND is '") + B +
                  "'; use amd or cpu");
  }
  if (!parseArgs(Args, Inv, Err))
    return Fail(Err + "; run 'cuhip nvcc --help' for the options cuhip "
                      "accepts");
  for (const std::string &F : Inv.HostCompilerFlags)
    if (F == "-fPIC" || F == "-fpic")
      Inv.Pic = true;

  Environment Env;
  Env.CuhipBinDir = cuhipBinDir();
  std::string Prefix = parentOf(Env.CuhipBinDir);
  Env.CuhipLibDir = Prefix + "/lib";
  Env.CuhipIncludeDir = Prefix + "/include/cuhip";
  Env.ToolkitFacade = Env.CuhipLibDir + "/cuhip/" +
                      (Inv.Mode == Mode::Amd ? "cuda-amd" : "cuda-cpu");
  std::string CudaWhy;
  Env.CudaPath = findCuda(CudaWhy);
  Env.Clang = CUHIP_CLANG_EXECUTABLE;
  Env.HipPath = findHip();

  if (Inv.PrintHelp) {
    printHelp();
    return 0;
  }
  if (Inv.PrintVersion) {
    // CMake recognises nvcc by the first line and reads the version from
    // "V<major>.<minor>.<patch>".
    std::printf("nvcc: NVIDIA (R) Cuda compiler driver, as implemented by "
                "cuhip nvcc\n"
                "cuhip %s: builds CUDA for %s\n"
                "Cuda compilation tools, release %s, V%s\n",
                CUHIP_VERSION,
                Inv.Mode == Mode::Amd ? "AMD GPUs (translated to HIP, "
                                        "compiled by Clang)"
                                      : "cuhip's runtime (PTX in a fatbin)",
                cudaVersion(Env).substr(0, cudaVersion(Env).rfind('.')).c_str(),
                cudaVersion(Env).c_str());
    return 0;
  }

  Runner R(Inv.DryRun, Inv.Verbose);
  // What CMake and FindCUDAToolkit read from `nvcc -v`: the toolkit root
  // (cuhip's facade, whose lib64 holds cuhip's libraries), the libdevice
  // directory it checks the shape of, the include and link directories.
  R.note("_CUHIP_MODE_=" + std::string(Inv.Mode == Mode::Amd ? "amd" : "cpu"));
  R.note("TOP=" + Env.ToolkitFacade);
  R.note("NVVMIR_LIBRARY_DIR=" + Env.ToolkitFacade + "/nvvm/libdevice");
  R.note("CUDA_PATH=" + Env.CudaPath);
  {
    const char *Path = std::getenv("PATH");
    R.note("PATH=" + Env.ToolkitFacade + "/bin:" + (Path ? Path : ""));
  }
  R.note("INCLUDES=\"-I" + Env.ToolkitFacade + "/include\"  ");
  R.note("LIBRARIES=  \"-L" + Env.ToolkitFacade + "/lib64\"");
  for (const std::string &N : Inv.Notes)
    R.note("_CUHIP_NOTE_=" + N);
  // CMake takes its default CMAKE_CUDA_ARCHITECTURES from the
  // "-arch compute_XX" of nvcc's -v output.
  {
    std::vector<std::string> Archs;
    if (Inv.Mode == Mode::Amd) {
      std::vector<std::string> Amd;
      std::string Why;
      if (!resolveAmdArchs(Inv, Amd, Why))
        return Fail(Why);
      Archs = cudaArchsForAmd(Amd);
      std::string List;
      for (const std::string &A : Amd)
        List += (List.empty() ? "" : ",") + A;
      R.note("_CUHIP_AMDGPU_ARCH_=" + List);
    } else {
      for (const GpuCode &G : Inv.GpuCodes)
        if (G.Virtual.rfind("compute_", 0) == 0 &&
            std::find(Archs.begin(), Archs.end(), G.Virtual.substr(8)) ==
                Archs.end())
          Archs.push_back(G.Virtual.substr(8));
      if (Archs.empty())
        Archs.push_back("75");
    }
    std::string Line;
    for (const std::string &A : Archs)
      Line += (Line.empty() ? "" : " ") + std::string("-arch compute_") + A;
    R.note("_CUHIP_DEVICE_ARCHS_=" + Line);
  }

  if (Inv.Phase == Phase::Cubin)
    return Fail("-cubin asks for NVIDIA machine code, which cuhip does not "
                "make; use -ptx or -fatbin (CPU mode) or -c");
  if (Inv.Mode == Mode::Amd &&
      (Inv.Phase == Phase::Ptx || Inv.Phase == Phase::Fatbin))
    return Fail(std::string(Inv.Phase == Phase::Ptx ? "-ptx" : "-fatbin") +
                " makes NVIDIA device code; it needs CPU mode "
                "(--cuhip-backend=cpu)");
  if (Inv.Inputs.empty())
    return Fail("no input files; run 'cuhip nvcc --help' for usage");
  for (const Input &In : Inv.Inputs) {
    if (In.Kind == InputKind::Other)
      return Fail("don't know what to do with '" + In.Path +
                  "' (nvcc takes .cu, .cpp/.cc/.cxx, .c, .o, .a, .so and "
                  ".ptx files; use -x cu for a CUDA file with another "
                  "suffix)");
    if (!R.dryRun() && !exists(In.Path))
      return Fail("no such file: '" + In.Path + "'");
  }
  if (Env.CudaPath.empty())
    return Fail(CudaWhy + "; cuhip nvcc parses CUDA with the toolkit's "
                          "headers: install them or set CUHIP_CUDA_PATH");
  if (Inv.Mode == Mode::Amd && Env.HipPath.empty())
    return Fail("AMD mode needs HIP (include/hip/hip_runtime.h under "
                "$HIP_PATH, $ROCM_PATH, /usr or /opt/rocm); install it "
                "(Debian: libamdhip64-dev) or use --cuhip-backend=cpu");
  if (!Inv.Output.empty() && Inv.Inputs.size() > 1 &&
      (Inv.Phase == Phase::Compile || Inv.Phase == Phase::DeviceCompile ||
       Inv.Phase == Phase::Ptx) &&
      std::count_if(Inv.Inputs.begin(), Inv.Inputs.end(), [](const Input &I) {
        return I.Kind == InputKind::Cuda || I.Kind == InputKind::Cxx ||
               I.Kind == InputKind::C;
      }) > 1)
    return Fail("-o with -c names one output, but several sources are "
                "given; compile them one at a time or drop -o");

  // A scratch directory for translated sources and intermediate files.
  llvm::SmallString<256> Tmp;
  bool RemoveTemp = true;
  if (!Inv.KeepDir.empty()) {
    if (std::error_code EC = llvm::sys::fs::create_directories(Inv.KeepDir))
      return Fail("cannot create --keep-dir " + Inv.KeepDir + ": " +
                  EC.message());
    Tmp = Inv.KeepDir;
    RemoveTemp = false;
  } else if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(
                 "cuhip-nvcc", Tmp)) {
    return Fail("cannot create a temporary directory: " + EC.message() +
                " (set TMPDIR to a writable directory)");
  }
  if (Inv.Keep)
    RemoveTemp = false;
  Env.TempDir = std::string(Tmp);
  if (!RemoveTemp)
    R.note("_CUHIP_KEEP_DIR_=" + Env.TempDir);

  int RC = Inv.Mode == Mode::Amd ? runAmd(Inv, Env, R) : runCpu(Inv, Env, R);
  if (RemoveTemp)
    llvm::sys::fs::remove_directories(Env.TempDir);
  return RC;
}

} // namespace cuhip::nvcc
