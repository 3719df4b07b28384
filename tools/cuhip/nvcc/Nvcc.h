//===- Nvcc.h - cuhip nvcc: an nvcc-compatible compiler driver -*- C++ -*-===//
//
// `cuhip nvcc` accepts the command lines build systems give nvcc and builds
// the program for AMD GPUs (AMD mode: translate each .cu with the source
// translator, compile with Clang's HIP mode, link libamdhip64) or for
// cuhip's runtime (CPU mode: device code to PTX in a fatbin, linked against
// cuhip's libcudart, so the result runs on every cuhip backend).
//
// Options.cpp turns argv into an Invocation; Driver.cpp picks the mode and
// prints what nvcc prints (--version, -v, --dryrun); AmdPipeline.cpp and
// CpuPipeline.cpp carry the Invocation out through a Runner, which prints
// and runs the underlying commands.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cuhip::nvcc {

enum class Mode { Amd, Cpu };

/// What the command line asks for; nvcc's own names.
enum class Phase {
  Link,          // default: compile and link an executable (or -shared)
  Compile,       // -c: one object per input
  DeviceCompile, // -dc: -c with relocatable device code
  DeviceLink,    // -dlink: link the device code of objects into one object
  Lib,           // -lib: a static library
  Preprocess,    // -E
  Ptx,           // -ptx (CPU mode only)
  Fatbin,        // -fatbin (CPU mode only)
  Cubin,         // -cubin (refused: there is no SASS)
  DepsOnly,      // -M / -MM without -MD: dependencies only
};

enum class InputKind { Cuda, Cxx, C, Object, Archive, SharedLib, Ptx, Other };

struct Input {
  std::string Path;
  InputKind Kind;
};

/// One -gencode arch=compute_XX,code=sm_XX pair (or what -arch/-code
/// expand to). Numbers are nvcc's: 75, 80, 90 (90a keeps the "a").
struct GpuCode {
  std::string Virtual; // "compute_80"
  std::string Real;    // "sm_80", or "compute_80" to embed PTX
};

struct Invocation {
  nvcc::Mode Mode = nvcc::Mode::Amd;
  std::string DeviceCompiler = "auto"; // CPU mode: auto|nvcc|clang
  nvcc::Phase Phase = nvcc::Phase::Link;
  std::vector<Input> Inputs;
  std::string Output;    // -o; empty means nvcc's default name
  std::string OutputDir; // -odir: where -c puts objects without -o

  // Preprocessor and language. Defines and undefines keep their order, as
  // "-DX=1" / "-UX" strings.
  std::vector<std::string> IncludeDirs;       // -I
  std::vector<std::string> SystemIncludeDirs; // -isystem
  std::vector<std::string> PreIncludes;       // -include
  std::vector<std::string> Defines;           // -D / -U
  std::string Std;                            // -std=c++17 -> "c++17"
  std::string InputLanguage;                  // -x cu|c++|c (empty: by suffix)

  // Code generation.
  std::string OptLevel;        // "-O3" style; empty = nvcc's default (-O3 device, host none)
  bool HostDebug = false;      // -g
  bool DeviceDebug = false;    // -G
  bool LineInfo = false;       // -lineinfo
  bool FastMath = false;       // --use_fast_math
  bool Rdc = false;            // -rdc=true / -dc
  bool ExtendedLambda = false; // --extended-lambda
  bool RelaxedConstexpr = false; // --expt-relaxed-constexpr
  bool Shared = false;         // -shared
  bool Pic = false;            // -Xcompiler -fPIC or --compiler-options -fPIC
  std::vector<GpuCode> GpuCodes; // -arch / -gencode / -code; empty = default
  std::string CodeOption;        // -code as given (parsing folds it into GpuCodes)
  std::vector<std::string> AmdArchOption; // --amdgpu-arch= (split at commas)
  std::vector<std::string> AmdArchs; // resolved AMD targets (AMD mode)
  // PTX math modes as given (--ftz, --prec-div, --prec-sqrt, --fmad);
  // unset means nvcc's default, which --use_fast_math changes. The
  // accessors give the mode in effect.
  std::optional<bool> Ftz, PrecDiv, PrecSqrt, Fmad;
  bool ftz() const { return Ftz.value_or(FastMath); }
  bool precDiv() const { return PrecDiv.value_or(!FastMath); }
  bool precSqrt() const { return PrecSqrt.value_or(!FastMath); }
  bool fmad() const { return Fmad.value_or(true); }

  // Linking.
  std::vector<std::string> LibDirs;  // -L
  std::vector<std::string> Libs;     // -l (names without -l)
  std::string Cudart = "static";     // -cudart static|shared|none

  // Pass-through.
  std::vector<std::string> HostCompilerFlags; // -Xcompiler (split at commas)
  std::vector<std::string> LinkerFlags;       // -Xlinker (split at commas)
  std::vector<std::string> PtxasFlags;        // -Xptxas: accepted, noted
  std::string HostCompiler;                   // -ccbin
  bool ForwardUnknownToHostCompiler = false;  // -forward-unknown-to-host-compiler
  bool ForwardUnknownToHostLinker = false;    // -forward-unknown-to-host-linker
  bool NoWarnings = false;                    // -w
  bool WarningsAsErrors = false;              // -Werror all-warnings

  // Dependencies (as gcc's -M family).
  bool DepsM = false, DepsMM = false, DepsMD = false, DepsMMD = false,
       DepsMP = false;
  std::string DepsFile;                // -MF
  std::vector<std::string> DepsTargets; // -MT

  // Driver behaviour.
  bool DryRun = false;   // --dryrun: print the commands, run nothing
  bool Verbose = false;  // -v / --verbose: print the commands as they run
  bool PrintVersion = false; // --version / -V
  bool PrintHelp = false;    // --help
  bool Keep = false;     // --keep
  std::string KeepDir;   // --keep-dir
  std::vector<std::string> Notes; // accepted-but-ignored options, for -v
};

/// Parses nvcc's argv (argv[0] excluded; response files already expanded).
/// On an error returns false with Err naming the offending argument.
bool parseArgs(const std::vector<std::string> &Args, Invocation &Inv,
               std::string &Err);

/// Expands @file arguments (nvcc's --options-file too) in place.
bool expandResponseFiles(std::vector<std::string> &Args, std::string &Err);

/// Prints ("#$ " + command, as nvcc does) and runs commands.
class Runner {
public:
  Runner(bool DryRun, bool Verbose) : DryRun(DryRun), Verbose(Verbose) {}
  /// Runs Argv[0] with Argv (searched on PATH when it has no slash).
  /// Returns its exit status; 127 when it cannot be started. Under
  /// --dryrun it only prints and returns 0.
  int run(const std::vector<std::string> &Argv);
  /// Prints a "#$ NAME=VALUE" line under -v/--dryrun.
  void note(const std::string &Line);
  bool dryRun() const { return DryRun; }
  bool verbose() const { return Verbose; }

private:
  bool DryRun, Verbose;
};

/// Where the pieces a build needs are; filled by the driver.
struct Environment {
  std::string CuhipBinDir;   // build/bin or <prefix>/bin
  std::string CuhipLibDir;   // build/lib or <prefix>/lib: libcudart.so.13 ...
  std::string CuhipIncludeDir; // <prefix>/include/cuhip (nvcc preludes)
  std::string ToolkitFacade; // lib/cuhip/cuda-amd or cuda-cpu (TOP for CMake)
  std::string CudaPath;      // the CUDA toolkit (headers; nvcc for CPU mode)
  std::string Clang;         // clang++ of the LLVM cuhip is built with
  std::string HipPath;       // the prefix holding include/hip (AMD mode)
  std::string TempDir;       // per-invocation scratch directory
};

/// The nvcc version cuhip reports (the CUDA toolkit release whose headers
/// it compiles against), as "13.0.88".
std::string cudaVersion(const Environment &Env);

/// AMD mode's targets: --amdgpu-arch=, else $CUHIP_AMDGPU_ARCH, else the
/// -arch/-gencode architectures through the table in docs/nvcc.md, else
/// gfx942,gfx1100. False (with Err) for a target cuhip does not know.
bool resolveAmdArchs(const Invocation &Inv, std::vector<std::string> &Out,
                     std::string &Err);
/// The CUDA architectures ("90", "89") whose table rows give these AMD
/// targets: what `-v` reports, so CMake's default CMAKE_CUDA_ARCHITECTURES
/// comes back to the same targets.
std::vector<std::string> cudaArchsForAmd(const std::vector<std::string> &Amd);

int runAmd(const Invocation &Inv, const Environment &Env, Runner &R);
int runCpu(const Invocation &Inv, const Environment &Env, Runner &R);

/// Set in the environment of the toolkit nvcc that CPU mode runs; a cuhip
/// nvcc that finds it set was started by that nvcc (a toolkit path that
/// leads back to cuhip) and refuses instead of recursing.
inline constexpr const char *ToolkitChildVariable = "CUHIP_NVCC_TOOLKIT_CHILD";

/// `cuhip nvcc ...`: argv[0] is "nvcc".
int nvccMain(int Argc, char **Argv);

} // namespace cuhip::nvcc
