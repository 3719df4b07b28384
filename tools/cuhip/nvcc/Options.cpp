//===- Options.cpp - nvcc's command line, read into an Invocation ---------===//
//
// nvcc spells most options three ways (`-o f`, `--output-file f`,
// `--output-file=f`), accepts its long names with one dash too (CMake passes
// `-forward-unknown-to-host-compiler`), and glues the value of a few
// one-letter options (`-Idir`, `-DX=1`, `-O3`, `-lm`). One table lists every
// option cuhip accepts with all its names; anything else is an error naming
// the argument, unless -forward-unknown-to-host-compiler sends it to the host
// compiler as nvcc would.
//
//===----------------------------------------------------------------------===//
#include "Nvcc.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

namespace cuhip::nvcc {
namespace {

enum class Arity { None, Value };

struct OptionSpec {
  std::vector<const char *> Names; // without leading dashes
  Arity Takes;
  /// One-letter options whose value may follow without a space (-Idir).
  bool Glued;
  std::function<bool(Invocation &, const std::string &, std::string &)> Apply;
};

std::vector<std::string> splitCommas(const std::string &S) {
  std::vector<std::string> Out;
  std::string Cur;
  int Depth = 0;
  for (char C : S) {
    if (C == '[')
      ++Depth;
    else if (C == ']')
      --Depth;
    if (C == ',' && Depth == 0) {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

std::string unquote(std::string S) {
  if (S.size() >= 2 && ((S.front() == '"' && S.back() == '"') ||
                        (S.front() == '\'' && S.back() == '\'') ||
                        (S.front() == '[' && S.back() == ']')))
    S = S.substr(1, S.size() - 2);
  return S;
}

bool isArchName(const std::string &S, const char *Prefix) {
  size_t N = std::strlen(Prefix);
  if (S.compare(0, N, Prefix) != 0 || S.size() == N)
    return false;
  for (size_t I = N; I < S.size(); ++I)
    if (!std::isdigit(static_cast<unsigned char>(S[I])) &&
        !(I + 1 == S.size() && (S[I] == 'a' || S[I] == 'f')))
      return false;
  return true;
}

std::string archNumber(const std::string &S) {
  return S.substr(S.find('_') + 1);
}

/// -arch VALUE: sm_XX, compute_XX, or one of nvcc's keywords.
bool applyArch(Invocation &Inv, const std::string &V, std::string &Err) {
  for (const std::string &A : splitCommas(V)) {
    if (A == "all" || A == "all-major" || A == "native") {
      Inv.GpuCodes.push_back({A, ""});
    } else if (isArchName(A, "sm_")) {
      std::string Virt = "compute_" + archNumber(A);
      Inv.GpuCodes.push_back({Virt, A});
      Inv.GpuCodes.push_back({Virt, Virt});
    } else if (isArchName(A, "compute_")) {
      Inv.GpuCodes.push_back({A, A});
    } else {
      Err = "'" + A + "' is not a GPU architecture (expected sm_XX, "
            "compute_XX, all, all-major or native)";
      return false;
    }
  }
  return true;
}

/// -code VALUE after -arch: replaces what -arch implied by these codes.
bool applyCode(Invocation &Inv, const std::string &V, std::string &Err) {
  Inv.CodeOption = V;
  for (const std::string &C : splitCommas(unquote(V)))
    if (!isArchName(C, "sm_") && !isArchName(C, "compute_") &&
        !isArchName(C, "lto_")) {
      Err = "'" + C + "' is not a GPU code (expected sm_XX, compute_XX or "
            "lto_XX)";
      return false;
    }
  return true;
}

/// -gencode arch=compute_XX,code=[sm_XX,compute_XX] (CMake's spelling) or
/// code=sm_XX or code=\"sm_XX,compute_XX\".
bool applyGencode(Invocation &Inv, const std::string &V, std::string &Err) {
  std::string Arch, Code;
  for (const std::string &Part : splitCommas(unquote(V))) {
    size_t Eq = Part.find('=');
    std::string Key = Part.substr(0, Eq);
    std::string Val = Eq == std::string::npos ? "" : unquote(Part.substr(Eq + 1));
    if (Key == "arch")
      Arch = Val;
    else if (Key == "code")
      Code = Val;
    else if (!Code.empty() && Eq == std::string::npos)
      Code += "," + Part; // code="sm_80,compute_80" split at its comma
    else {
      Err = "'" + V + "': expected arch=compute_XX,code=sm_XX";
      return false;
    }
  }
  if (!isArchName(Arch, "compute_") && !isArchName(Arch, "sm_")) {
    Err = "'" + V + "': arch= must name a virtual architecture (compute_XX)";
    return false;
  }
  if (isArchName(Arch, "sm_"))
    Arch = "compute_" + archNumber(Arch);
  if (Code.empty())
    Code = Arch;
  for (const std::string &C : splitCommas(unquote(Code))) {
    if (!isArchName(C, "sm_") && !isArchName(C, "compute_") &&
        !isArchName(C, "lto_")) {
      Err = "'" + V + "': '" + C + "' is not a GPU code";
      return false;
    }
    Inv.GpuCodes.push_back({Arch, C});
  }
  return true;
}

template <typename T>
bool applyBool(T &Field, const std::string &V, const char *Name,
               std::string &Err) {
  if (V == "true" || V == "1") {
    Field = true;
    return true;
  }
  if (V == "false" || V == "0") {
    Field = false;
    return true;
  }
  Err = std::string(Name) + " takes true or false, not '" + V + "'";
  return false;
}

#define FLAG(...) [](Invocation & Inv, const std::string &, std::string &) { __VA_ARGS__; return true; }
#define NOTED(Why)                                                             \
  [](Invocation &Inv, const std::string &V, std::string &) {                  \
    Inv.Notes.push_back(V.empty() ? std::string(Why)                          \
                                  : std::string(Why) + " (" + V + ")");      \
    return true;                                                               \
  }

const std::vector<OptionSpec> &optionTable() {
  static const std::vector<OptionSpec> Table = {
      // Phases.
      {{"c", "compile"}, Arity::None, false, FLAG(Inv.Phase = Phase::Compile)},
      {{"dc", "device-c"}, Arity::None, false,
       FLAG(Inv.Phase = Phase::DeviceCompile; Inv.Rdc = true)},
      {{"dw", "device-w"}, Arity::None, false,
       FLAG(Inv.Phase = Phase::Compile)},
      {{"dlink", "device-link"}, Arity::None, false,
       FLAG(Inv.Phase = Phase::DeviceLink)},
      {{"link"}, Arity::None, false, FLAG(Inv.Phase = Phase::Link)},
      {{"lib"}, Arity::None, false, FLAG(Inv.Phase = Phase::Lib)},
      {{"E", "preprocess"}, Arity::None, false,
       FLAG(Inv.Phase = Phase::Preprocess)},
      {{"ptx"}, Arity::None, false, FLAG(Inv.Phase = Phase::Ptx)},
      {{"fatbin"}, Arity::None, false, FLAG(Inv.Phase = Phase::Fatbin)},
      {{"cubin"}, Arity::None, false, FLAG(Inv.Phase = Phase::Cubin)},
      {{"shared"}, Arity::None, false, FLAG(Inv.Shared = true)},
      // Files.
      {{"o", "output-file"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.Output = V;
         return true;
       }},
      {{"x", "x"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         if (V != "cu" && V != "c++" && V != "c" && V != "none") {
           Err = "-x takes cu, c++, c or none, not '" + V + "'";
           return false;
         }
         Inv.InputLanguage = V == "none" ? "" : V;
         return true;
       }},
      {{"odir", "output-directory"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.OutputDir = V;
         return true;
       }},
      // Preprocessor.
      {{"I", "include-path"}, Arity::Value, true,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &D : splitCommas(V))
           Inv.IncludeDirs.push_back(D);
         return true;
       }},
      {{"isystem", "system-include"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &D : splitCommas(V))
           Inv.SystemIncludeDirs.push_back(D);
         return true;
       }},
      {{"include", "pre-include"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.PreIncludes.push_back(V);
         return true;
       }},
      {{"D", "define-macro"}, Arity::Value, true,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.Defines.push_back("-D" + V);
         return true;
       }},
      {{"U", "undefine-macro"}, Arity::Value, true,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.Defines.push_back("-U" + V);
         return true;
       }},
      {{"std"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         static const char *Known[] = {"c++03", "c++11", "c++14",
                                       "c++17", "c++20", "c++23"};
         if (std::find_if(std::begin(Known), std::end(Known), [&](const char *K) {
               return V == K;
             }) == std::end(Known)) {
           Err = "-std takes c++03, c++11, c++14, c++17, c++20 or c++23, not '" +
                 V + "'";
           return false;
         }
         Inv.Std = V;
         return true;
       }},
      // Dependencies.
      {{"M", "generate-dependencies"}, Arity::None, false,
       FLAG(Inv.DepsM = true)},
      {{"MM", "generate-nonsystem-dependencies"}, Arity::None, false,
       FLAG(Inv.DepsMM = true)},
      {{"MD", "generate-dependencies-with-compile"}, Arity::None, false,
       FLAG(Inv.DepsMD = true)},
      {{"MMD", "generate-nonsystem-dependencies-with-compile"}, Arity::None,
       false, FLAG(Inv.DepsMMD = true)},
      {{"MP", "generate-dependency-targets"}, Arity::None, false,
       FLAG(Inv.DepsMP = true)},
      {{"MF", "dependency-output"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.DepsFile = V;
         return true;
       }},
      {{"MT", "dependency-target-name"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.DepsTargets.push_back(V);
         return true;
       }},
      // Code generation.
      {{"O", "optimize"}, Arity::Value, true,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         if (V != "0" && V != "1" && V != "2" && V != "3" && V != "s" &&
             V != "fast") {
           Err = "-O takes 0, 1, 2, 3, s or fast, not '" + V + "'";
           return false;
         }
         Inv.OptLevel = "-O" + V;
         return true;
       }},
      {{"g", "debug"}, Arity::None, false, FLAG(Inv.HostDebug = true)},
      {{"G", "device-debug"}, Arity::None, false,
       FLAG(Inv.DeviceDebug = true)},
      {{"lineinfo", "generate-line-info"}, Arity::None, false,
       FLAG(Inv.LineInfo = true)},
      {{"use_fast_math", "use-fast-math"}, Arity::None, false,
       FLAG(Inv.FastMath = true)},
      {{"rdc", "relocatable-device-code"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         return applyBool(Inv.Rdc, V, "-rdc", Err);
       }},
      {{"arch", "gpu-architecture"}, Arity::Value, false, applyArch},
      {{"code", "gpu-code"}, Arity::Value, false, applyCode},
      {{"gencode", "generate-code"}, Arity::Value, false, applyGencode},
      {{"expt-relaxed-constexpr", "relaxed-constexpr"}, Arity::None, false,
       FLAG(Inv.RelaxedConstexpr = true)},
      {{"extended-lambda", "expt-extended-lambda"}, Arity::None, false,
       FLAG(Inv.ExtendedLambda = true)},
      {{"default-stream"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         if (V == "per-thread") {
           Inv.Defines.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
           return true;
         }
         if (V == "legacy" || V == "null")
           return true;
         Err = "--default-stream takes legacy, null or per-thread, not '" + V +
               "'";
         return false;
       }},
      {{"ftz"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         return applyBool(Inv.Ftz, V, "--ftz", Err);
       }},
      {{"prec-div"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         return applyBool(Inv.PrecDiv, V, "--prec-div", Err);
       }},
      {{"prec-sqrt"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         return applyBool(Inv.PrecSqrt, V, "--prec-sqrt", Err);
       }},
      {{"fmad"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         return applyBool(Inv.Fmad, V, "--fmad", Err);
       }},
      {{"maxrregcount"}, Arity::Value, false,
       NOTED("-maxrregcount is ignored: AMD register allocation is the compiler's")},
      {{"dlto", "dlink-time-opt"}, Arity::None, false,
       NOTED("-dlto is ignored: device code is optimized per file")},
      {{"m64", "machine"}, Arity::None, false, FLAG((void)Inv)},
      // Linking.
      {{"L", "library-path"}, Arity::Value, true,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &D : splitCommas(V))
           Inv.LibDirs.push_back(D);
         return true;
       }},
      {{"l", "library"}, Arity::Value, true,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &L : splitCommas(V))
           Inv.Libs.push_back(L);
         return true;
       }},
      {{"cudart"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         if (V != "static" && V != "shared" && V != "none") {
           Err = "-cudart takes static, shared or none, not '" + V + "'";
           return false;
         }
         Inv.Cudart = V;
         return true;
       }},
      {{"cudadevrt"}, Arity::Value, false,
       NOTED("-cudadevrt is ignored: there is no device runtime library")},
      // Pass-through.
      {{"Xcompiler", "compiler-options"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         // Quotes a shell would have removed are removed here too
         // (build scripts that pass "'-fPIC'" through a list).
         for (const std::string &F : splitCommas(unquote(V)))
           Inv.HostCompilerFlags.push_back(unquote(F));
         return true;
       }},
      {{"Xlinker", "linker-options"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &F : splitCommas(V))
           Inv.LinkerFlags.push_back(F);
         return true;
       }},
      {{"Xptxas", "ptxas-options"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &F : splitCommas(V))
           Inv.PtxasFlags.push_back(F);
         Inv.Notes.push_back("-Xptxas " + V +
                             " is accepted and ignored: there is no ptxas");
         return true;
       }},
      {{"Xcudafe", "cudafe-options"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.Notes.push_back("-Xcudafe " + V + " is accepted and ignored");
         return true;
       }},
      {{"Xnvlink", "nvlink-options"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.Notes.push_back("-Xnvlink " + V + " is accepted and ignored");
         return true;
       }},
      {{"Xfatbin", "fatbin-options"}, Arity::Value, false,
       NOTED("-Xfatbin is accepted and ignored")},
      {{"Xarchive", "archive-options"}, Arity::Value, false,
       NOTED("-Xarchive is accepted and ignored: cuhip writes -lib archives "
             "itself")},
      {{"ccbin", "compiler-bindir"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.HostCompiler = V;
         return true;
       }},
      {{"forward-unknown-to-host-compiler"}, Arity::None, false,
       FLAG(Inv.ForwardUnknownToHostCompiler = true)},
      {{"forward-unknown-to-host-linker"}, Arity::None, false,
       FLAG(Inv.ForwardUnknownToHostLinker = true)},
      {{"allow-unsupported-compiler"}, Arity::None, false, FLAG((void)Inv)},
      // Diagnostics.
      {{"w", "disable-warnings"}, Arity::None, false,
       FLAG(Inv.NoWarnings = true)},
      {{"Werror"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         for (const std::string &K : splitCommas(V)) {
           if (K == "all-warnings")
             Inv.WarningsAsErrors = true;
           else if (K != "cross-execution-space-call" && K != "reorder" &&
                    K != "default-stream-launch" && K != "deprecated-declarations" &&
                    K != "ext-lambda-captures-this") {
             Err = "-Werror takes all-warnings or one of nvcc's warning kinds, "
                   "not '" + K + "'";
             return false;
           }
         }
         return true;
       }},
      {{"Wno-deprecated-gpu-targets"}, Arity::None, false, FLAG((void)Inv)},
      {{"Wno-deprecated-declarations"}, Arity::None, false,
       FLAG(Inv.HostCompilerFlags.push_back("-Wno-deprecated-declarations"))},
      {{"Wreorder"}, Arity::None, false,
       FLAG(Inv.HostCompilerFlags.push_back("-Wreorder"))},
      {{"Wext-lambda-captures-this"}, Arity::None, false, FLAG((void)Inv)},
      {{"Wdefault-stream-launch"}, Arity::None, false, FLAG((void)Inv)},
      {{"Wmissing-launch-bounds"}, Arity::None, false, FLAG((void)Inv)},
      {{"diag-suppress", "diag_suppress"}, Arity::Value, false,
       NOTED("--diag-suppress is accepted: front-end diagnostic numbers are nvcc's own")},
      {{"diag-warn", "diag_warn"}, Arity::Value, false,
       NOTED("--diag-warn is accepted: front-end diagnostic numbers are nvcc's own")},
      {{"diag-error", "diag_error"}, Arity::Value, false,
       NOTED("--diag-error is accepted: front-end diagnostic numbers are nvcc's own")},
      {{"display-error-number"}, Arity::None, false, FLAG((void)Inv)},
      {{"no-display-error-number"}, Arity::None, false, FLAG((void)Inv)},
      {{"res-usage", "resource-usage"}, Arity::None, false,
       NOTED("--resource-usage prints nothing: there is no ptxas")},
      {{"t", "threads"}, Arity::Value, false, FLAG((void)Inv)},
      {{"split-compile"}, Arity::Value, false, FLAG((void)Inv)},
      {{"source-in-ptx"}, Arity::None, false, FLAG((void)Inv)},
      {{"keep", "keep"}, Arity::None, false, FLAG(Inv.Keep = true)},
      {{"keep-dir"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         Inv.KeepDir = V;
         return true;
       }},
      {{"save-temps"}, Arity::None, false, FLAG(Inv.Keep = true)},
      // Driver.
      {{"dryrun", "dryrun"}, Arity::None, false, FLAG(Inv.DryRun = true)},
      {{"v", "verbose"}, Arity::None, false, FLAG(Inv.Verbose = true)},
      {{"V", "version"}, Arity::None, false, FLAG(Inv.PrintVersion = true)},
      {{"h", "help"}, Arity::None, false, FLAG(Inv.PrintHelp = true)},
      // cuhip's own.
      {{"cuhip-backend"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         if (V == "amd" || V == "hip")
           Inv.Mode = Mode::Amd;
         else if (V == "cpu")
           Inv.Mode = Mode::Cpu;
         else {
           Err = "--cuhip-backend takes amd or cpu, not '" + V + "'";
           return false;
         }
         return true;
       }},
      {{"amdgpu-arch", "offload-arch"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &) {
         for (const std::string &A : splitCommas(V))
           Inv.AmdArchOption.push_back(A);
         return true;
       }},
      {{"cuhip-device-compiler"}, Arity::Value, false,
       [](Invocation &Inv, const std::string &V, std::string &Err) {
         if (V != "auto" && V != "nvcc" && V != "clang") {
           Err = "--cuhip-device-compiler takes auto, nvcc or clang, not '" +
                 V + "'";
           return false;
         }
         Inv.DeviceCompiler = V;
         return true;
       }},
  };
  return Table;
}

#undef FLAG
#undef NOTED

InputKind kindOf(const std::string &Path, const std::string &Lang) {
  if (Lang == "cu")
    return InputKind::Cuda;
  if (Lang == "c++")
    return InputKind::Cxx;
  if (Lang == "c")
    return InputKind::C;
  size_t Dot = Path.rfind('.');
  size_t Slash = Path.rfind('/');
  if (Dot == std::string::npos || (Slash != std::string::npos && Dot < Slash))
    return InputKind::Other;
  std::string Ext = Path.substr(Dot + 1);
  if (Ext == "cu")
    return InputKind::Cuda;
  if (Ext == "cpp" || Ext == "cc" || Ext == "cxx" || Ext == "C" || Ext == "c++")
    return InputKind::Cxx;
  if (Ext == "c")
    return InputKind::C;
  if (Ext == "o" || Ext == "obj")
    return InputKind::Object;
  if (Ext == "a")
    return InputKind::Archive;
  if (Ext == "so" || Path.find(".so.") != std::string::npos)
    return InputKind::SharedLib;
  if (Ext == "ptx")
    return InputKind::Ptx;
  return InputKind::Other;
}

} // namespace

bool expandResponseFiles(std::vector<std::string> &Args, std::string &Err) {
  std::vector<std::string> Out;
  unsigned Depth = 0;
  std::function<bool(const std::vector<std::string> &)> Expand =
      [&](const std::vector<std::string> &In) -> bool {
    for (size_t I = 0; I < In.size(); ++I) {
      std::string File;
      if (In[I].size() > 1 && In[I][0] == '@')
        File = In[I].substr(1);
      else if (In[I] == "--options-file" || In[I] == "-optf") {
        if (I + 1 == In.size()) {
          Err = "option '" + In[I] + "' needs a file name";
          return false;
        }
        File = In[++I];
      } else if (In[I].rfind("--options-file=", 0) == 0)
        File = In[I].substr(15);
      else {
        Out.push_back(In[I]);
        continue;
      }
      if (++Depth > 16) {
        Err = "response file '" + File + "' nests more than 16 deep";
        return false;
      }
      std::ifstream F(File);
      if (!F) {
        Err = "cannot read response file '" + File + "'";
        return false;
      }
      std::stringstream SS;
      SS << F.rdbuf();
      // Whitespace separates arguments; quotes group and backslash escapes,
      // as in the shell-like files CMake and nvcc write.
      std::vector<std::string> Words;
      std::string Cur;
      bool Have = false;
      char Quote = 0;
      std::string Text = SS.str();
      for (size_t J = 0; J < Text.size(); ++J) {
        char C = Text[J];
        if (Quote) {
          if (C == Quote)
            Quote = 0;
          else if (C == '\\' && Quote == '"' && J + 1 < Text.size())
            Cur += Text[++J];
          else
            Cur += C;
        } else if (C == '"' || C == '\'') {
          Quote = C;
          Have = true;
        } else if (C == '\\' && J + 1 < Text.size()) {
          Cur += Text[++J];
          Have = true;
        } else if (std::isspace(static_cast<unsigned char>(C))) {
          if (Have)
            Words.push_back(Cur);
          Cur.clear();
          Have = false;
        } else {
          Cur += C;
          Have = true;
        }
      }
      if (Quote) {
        Err = "response file '" + File + "' ends inside a quoted argument";
        return false;
      }
      if (Have)
        Words.push_back(Cur);
      if (!Expand(Words))
        return false;
      --Depth;
    }
    return true;
  };
  if (!Expand(Args))
    return false;
  Args = std::move(Out);
  return true;
}

bool parseArgs(const std::vector<std::string> &Args, Invocation &Inv,
               std::string &Err) {
  const auto &Table = optionTable();
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A.empty() || A[0] != '-' || A == "-") {
      if (A.empty()) {
        Err = "empty argument";
        return false;
      }
      Inv.Inputs.push_back({A, kindOf(A, Inv.InputLanguage)});
      continue;
    }
    // Strip one or two dashes; split "name=value".
    std::string Body = A.substr(A.compare(0, 2, "--") == 0 ? 2 : 1);
    std::string Name = Body, Inline;
    bool HasInline = false;
    size_t Eq = Body.find('=');
    if (Eq != std::string::npos) {
      Name = Body.substr(0, Eq);
      Inline = Body.substr(Eq + 1);
      HasInline = true;
    }
    const OptionSpec *Match = nullptr;
    std::string Value;
    for (const OptionSpec &S : Table) {
      for (const char *N : S.Names)
        if (Name == N) {
          Match = &S;
          break;
        }
      if (Match)
        break;
    }
    if (Match) {
      if (Match->Takes == Arity::None && HasInline) {
        Err = "option '" + A + "' takes no value";
        return false;
      }
      if (Match->Takes == Arity::Value) {
        if (HasInline) {
          Value = Inline;
        } else if (I + 1 < Args.size()) {
          Value = Args[++I];
        } else {
          Err = "option '" + A + "' needs a value";
          return false;
        }
      }
    } else {
      // Glued one-letter options: -Idir, -DX=1, -O3, -lm, -Ldir, -UX.
      for (const OptionSpec &S : Table)
        if (S.Glued && A.size() > 2 && A[0] == '-' && A[1] == S.Names[0][0] &&
            std::strlen(S.Names[0]) == 1) {
          Match = &S;
          Value = A.substr(2);
          break;
        }
    }
    if (!Match) {
      if (Inv.ForwardUnknownToHostCompiler) {
        Inv.HostCompilerFlags.push_back(A);
        continue;
      }
      if (Inv.ForwardUnknownToHostLinker) {
        Inv.LinkerFlags.push_back(A);
        continue;
      }
      Err = "unknown option '" + A + "'";
      return false;
    }
    std::string Why;
    if (!Match->Apply(Inv, Value, Why)) {
      Err = Why;
      return false;
    }
  }
  // -code applies to the -arch given with it: -arch=compute_80
  // -code=sm_80,compute_80.
  if (!Inv.CodeOption.empty()) {
    std::string Virt;
    for (const GpuCode &G : Inv.GpuCodes)
      if (G.Virtual.rfind("compute_", 0) == 0)
        Virt = G.Virtual;
    if (Virt.empty()) {
      Err = "-code needs -arch=compute_XX to say which virtual architecture "
            "it compiles from";
      return false;
    }
    std::vector<GpuCode> Codes;
    for (const GpuCode &G : Inv.GpuCodes)
      if (G.Virtual != Virt)
        Codes.push_back(G);
    for (const std::string &C : splitCommas(unquote(Inv.CodeOption)))
      Codes.push_back({Virt, C});
    Inv.GpuCodes = std::move(Codes);
  }
  // -M and -MM are phases of their own (dependencies, no output); with -MD
  // or -MMD they go with the compile.
  if ((Inv.DepsM || Inv.DepsMM) && !Inv.DepsMD && !Inv.DepsMMD &&
      (Inv.Phase == Phase::Link || Inv.Phase == Phase::Compile))
    Inv.Phase = Phase::DepsOnly;
  // nvcc's -x applies to the inputs after it; inputs given before it keep
  // their suffix's kind. A later -x cu is the common case (CMake puts it
  // before the source), which the loop above already honours.
  return true;
}

} // namespace cuhip::nvcc
