//===- NvrtcBridge.cpp - NVIDIA's NVRTC, with PTX for cubins -------------===//
//
// Programs that compile CUDA C++ at run time with NVRTC usually ask for
// machine code of the device they run on (`--gpu-architecture=sm_80`) and
// load the cubin with cuModuleLoadData. A cubin holds NVIDIA machine code
// only, which cuhip cannot run; PTX it can. This library stands in for
// libnvrtc.so.<major> (`cuhip run` serves it like libcudart): every call
// goes to NVIDIA's NVRTC of the same major version, except that
//
//   * an sm_XY target (`--gpu-architecture`, `-arch`, either spelling, `=`
//     or a separate argument) is compiled as compute_XY, and
//   * nvrtcGetCUBINSize/nvrtcGetCUBIN of such a program hand back its PTX
//     (NUL-terminated text, which cuModuleLoadData and cuLinkAddData take).
//
// NVIDIA's NVRTC is found at CUHIP_NVRTC_LIBRARY (a full path), else in
// each directory of LD_LIBRARY_PATH, $CUDA_PATH/lib64, $CUDA_HOME/lib64 and
// /usr/local/cuda/lib64, skipping this library's own directory; it is
// opened by full path, which `cuhip run`'s audit module leaves alone. When
// none is found, every call but nvrtcGetErrorString fails with
// NVRTC_ERROR_INTERNAL_ERROR and one error line says what is missing.
//   * a program compiled for link-time optimization (`-dlto`,
//     `--dlink-time-opt`) is compiled as relocatable PTX instead
//     (`-rdc=true`), and nvrtcGetLTOIRSize/nvrtcGetLTOIR hand back that
//     PTX, which cuhip's nvJitLink links (libnvjitlink).
//
// OptiX IR passes through unchanged.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Log.h"

#include <dlfcn.h>
#include <limits.h>
#include <mutex>
#include <set>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef CUHIP_NVRTC_MAJOR
#error "CUHIP_NVRTC_MAJOR must be defined"
#endif

#define CUHIP_NVRTC_STR2(X) #X
#define CUHIP_NVRTC_STR(X) CUHIP_NVRTC_STR2(X)
#define CUHIP_NVRTC_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// The C API's types (nvrtc.h): results are an enum, programs an opaque
// pointer.
using nvrtcResult = int;
using nvrtcProgram = struct NvrtcProgram *;
constexpr nvrtcResult Success = 0;
constexpr nvrtcResult ErrorInvalidInput = 3;
constexpr nvrtcResult ErrorInternal = 11;

constexpr const char *SoName = "libnvrtc.so." CUHIP_NVRTC_STR(CUHIP_NVRTC_MAJOR);

// NVIDIA's functions, by name; each entry point below looks its own up.
struct Real {
  void *Handle = nullptr;
  std::string Path;
};

std::string directoryOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? std::string(".") : Path.substr(0, Slash);
}

std::string realPath(const std::string &Path) {
  char Buf[PATH_MAX];
  return ::realpath(Path.c_str(), Buf) ? std::string(Buf) : std::string();
}

std::string ownDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&ownDirectory), &Info) ||
      !Info.dli_fname)
    return {};
  std::string Self = realPath(Info.dli_fname);
  return Self.empty() ? std::string() : directoryOf(Self);
}

std::vector<std::string> candidateDirectories() {
  std::vector<std::string> Dirs;
  auto addList = [&](const char *List) {
    if (!List)
      return;
    std::string S(List);
    size_t Start = 0;
    while (Start <= S.size()) {
      size_t End = S.find(':', Start);
      if (End == std::string::npos)
        End = S.size();
      if (End > Start)
        Dirs.push_back(S.substr(Start, End - Start));
      Start = End + 1;
    }
  };
  addList(getenv("LD_LIBRARY_PATH"));
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *Root = getenv(Var); Root && *Root)
      Dirs.push_back(std::string(Root) + "/lib64");
  Dirs.push_back("/usr/local/cuda/lib64");
  return Dirs;
}

const Real &real() {
  static Real R;
  static std::once_flag Once;
  std::call_once(Once, [] {
    std::vector<std::string> Tried;
    auto tryOpen = [&](const std::string &Path) {
      Tried.push_back(Path);
      if (access(Path.c_str(), R_OK) != 0)
        return false;
      R.Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!R.Handle) {
        CUHIP_WARN("nvrtc: cannot load %s: %s", Path.c_str(), dlerror());
        return false;
      }
      R.Path = Path;
      return true;
    };
    if (const char *Env = getenv("CUHIP_NVRTC_LIBRARY"); Env && *Env) {
      if (!tryOpen(Env))
        CUHIP_ERROR("nvrtc: CUHIP_NVRTC_LIBRARY=%s cannot be loaded", Env);
      return;
    }
    std::string Own = ownDirectory();
    for (const std::string &Dir : candidateDirectories()) {
      std::string Canonical = realPath(Dir);
      if (!Own.empty() && Canonical == Own)
        continue; // this bridge, not NVIDIA's NVRTC
      if (tryOpen(Dir + "/" + SoName))
        break;
    }
    if (!R.Handle) {
      std::string List;
      for (const std::string &P : Tried)
        List += "\n  " + P;
      CUHIP_ERROR("nvrtc: the program compiles CUDA at run time, which needs "
                  "NVIDIA's %s; none was found (set CUHIP_NVRTC_LIBRARY to "
                  "its path). Looked at:%s",
                  SoName, List.c_str());
    } else {
      CUHIP_DEBUG("nvrtc: using %s", R.Path.c_str());
    }
  });
  return R;
}

template <typename Fn> Fn lookup(const char *Name) {
  const Real &R = real();
  if (!R.Handle)
    return nullptr;
  void *Sym = dlsym(R.Handle, Name);
  if (!Sym)
    CUHIP_ERROR("nvrtc: %s has no %s", R.Path.c_str(), Name);
  return reinterpret_cast<Fn>(Sym);
}

// The programs compiled for a virtual target in place of an sm_XY one:
// their cubin is their PTX.
std::mutex RetargetedLock;
std::set<nvrtcProgram> Retargeted;

// The programs compiled as relocatable PTX in place of LTO-IR.
std::set<nvrtcProgram> PtxForLto;

bool isRetargeted(nvrtcProgram P) {
  std::lock_guard<std::mutex> G(RetargetedLock);
  return Retargeted.count(P) != 0;
}

bool isPtxForLto(nvrtcProgram P) {
  std::lock_guard<std::mutex> G(RetargetedLock);
  return PtxForLto.count(P) != 0;
}

/// If Arch is a real target (sm_XY, sm_XYa, sm_XYf), the virtual one of the
/// same number (compute_XY…); otherwise empty.
std::string virtualFor(const std::string &Arch) {
  if (Arch.rfind("sm_", 0) != 0 || Arch.size() < 5)
    return {};
  return "compute_" + Arch.substr(3);
}

/// Rewrites the target options; Changed tells whether any was real, Lto
/// whether link-time optimization was asked for (it becomes -rdc=true).
std::vector<std::string> retarget(int N, const char *const *Options,
                                  bool &Changed, bool &Lto) {
  std::vector<std::string> Out;
  Changed = Lto = false;
  static const char *const Flags[] = {"--gpu-architecture", "-arch"};
  for (int I = 0; I < N; ++I) {
    std::string O = Options[I] ? Options[I] : "";
    if (O == "-dlto" || O == "--dlink-time-opt") {
      Out.push_back("-rdc=true");
      Lto = true;
      continue;
    }
    bool Done = false;
    for (const char *F : Flags) {
      std::string Prefix = std::string(F) + "=";
      if (O.rfind(Prefix, 0) == 0) {
        std::string V = virtualFor(O.substr(Prefix.size()));
        if (!V.empty()) {
          Out.push_back(Prefix + V);
          Changed = true;
          Done = true;
        }
      } else if (O == F && I + 1 < N && Options[I + 1]) {
        std::string V = virtualFor(Options[I + 1]);
        if (!V.empty()) {
          Out.push_back(O);
          Out.push_back(V);
          ++I;
          Changed = true;
          Done = true;
        }
      }
      if (Done)
        break;
    }
    if (!Done)
      Out.push_back(O);
  }
  return Out;
}

} // namespace

#define CUHIP_NVRTC_FORWARD(Name, Params, Args)                                \
  CUHIP_NVRTC_EXPORT nvrtcResult Name Params {                                 \
    using Fn = nvrtcResult(*) Params;                                          \
    static Fn F = lookup<Fn>(#Name);                                           \
    return F ? F Args : ErrorInternal;                                         \
  }

CUHIP_NVRTC_EXPORT const char *nvrtcGetErrorString(nvrtcResult Result) {
  using Fn = const char *(*)(nvrtcResult);
  static Fn F = lookup<Fn>("nvrtcGetErrorString");
  if (F)
    return F(Result);
  return Result == Success ? "NVRTC_SUCCESS"
                           : Result == ErrorInternal
                                 ? "NVRTC_ERROR_INTERNAL_ERROR"
                                 : "NVRTC_ERROR (NVIDIA's NVRTC is not loaded)";
}

CUHIP_NVRTC_FORWARD(nvrtcVersion, (int *Major, int *Minor), (Major, Minor))
CUHIP_NVRTC_FORWARD(nvrtcGetNumSupportedArchs, (int *N), (N))
CUHIP_NVRTC_FORWARD(nvrtcGetSupportedArchs, (int *Archs), (Archs))
CUHIP_NVRTC_FORWARD(nvrtcCreateProgram,
                    (nvrtcProgram * Prog, const char *Src, const char *Name,
                     int NumHeaders, const char *const *Headers,
                     const char *const *IncludeNames),
                    (Prog, Src, Name, NumHeaders, Headers, IncludeNames))
CUHIP_NVRTC_FORWARD(nvrtcGetPTXSize, (nvrtcProgram P, size_t *Size), (P, Size))
CUHIP_NVRTC_FORWARD(nvrtcGetPTX, (nvrtcProgram P, char *Ptx), (P, Ptx))

CUHIP_NVRTC_FORWARD(nvrtcGetOptiXIRSize, (nvrtcProgram P, size_t *Size),
                    (P, Size))
CUHIP_NVRTC_FORWARD(nvrtcGetOptiXIR, (nvrtcProgram P, char *Ir), (P, Ir))
CUHIP_NVRTC_FORWARD(nvrtcGetProgramLogSize, (nvrtcProgram P, size_t *Size),
                    (P, Size))
CUHIP_NVRTC_FORWARD(nvrtcGetProgramLog, (nvrtcProgram P, char *Log), (P, Log))
CUHIP_NVRTC_FORWARD(nvrtcAddNameExpression,
                    (nvrtcProgram P, const char *Expr), (P, Expr))
CUHIP_NVRTC_FORWARD(nvrtcGetLoweredName,
                    (nvrtcProgram P, const char *Expr, const char **Lowered),
                    (P, Expr, Lowered))
CUHIP_NVRTC_FORWARD(nvrtcGetPCHHeapSize, (size_t * Size), (Size))
CUHIP_NVRTC_FORWARD(nvrtcSetPCHHeapSize, (size_t Size), (Size))
CUHIP_NVRTC_FORWARD(nvrtcGetPCHCreateStatus, (nvrtcProgram P), (P))
CUHIP_NVRTC_FORWARD(nvrtcGetPCHHeapSizeRequired,
                    (nvrtcProgram P, size_t *Size), (P, Size))
CUHIP_NVRTC_FORWARD(nvrtcSetFlowCallback,
                    (nvrtcProgram P, int (*Callback)(void *, void *),
                     void *Payload),
                    (P, Callback, Payload))

CUHIP_NVRTC_EXPORT nvrtcResult nvrtcDestroyProgram(nvrtcProgram *Prog) {
  using Fn = nvrtcResult (*)(nvrtcProgram *);
  static Fn F = lookup<Fn>("nvrtcDestroyProgram");
  if (!F)
    return ErrorInternal;
  nvrtcProgram P = Prog ? *Prog : nullptr;
  nvrtcResult R = F(Prog);
  if (R == Success && P) {
    std::lock_guard<std::mutex> G(RetargetedLock);
    Retargeted.erase(P);
    PtxForLto.erase(P);
  }
  return R;
}

CUHIP_NVRTC_EXPORT nvrtcResult nvrtcCompileProgram(nvrtcProgram P,
                                                   int NumOptions,
                                                   const char *const *Options) {
  using Fn = nvrtcResult (*)(nvrtcProgram, int, const char *const *);
  static Fn F = lookup<Fn>("nvrtcCompileProgram");
  if (!F)
    return ErrorInternal;
  if (NumOptions < 0 || (NumOptions > 0 && !Options))
    return F(P, NumOptions, Options); // NVRTC reports the error
  bool Changed = false, Lto = false;
  std::vector<std::string> Opts = retarget(NumOptions, Options, Changed, Lto);
  if (!Changed && !Lto)
    return F(P, NumOptions, Options);
  std::vector<const char *> Ptrs;
  for (const std::string &O : Opts)
    Ptrs.push_back(O.c_str());
  static std::once_flag Noted;
  if (Changed)
    std::call_once(Noted, [] {
      CUHIP_INFO("nvrtc: compiling for virtual targets (compute_XY) in place "
                 "of sm_XY; cubins handed back are PTX");
    });
  if (Lto) {
    static std::once_flag LtoNoted;
    std::call_once(LtoNoted, [] {
      CUHIP_INFO("nvrtc: compiling -dlto programs as relocatable PTX; their "
                 "LTO-IR handed back is PTX, which cuhip's nvJitLink links");
    });
  }
  nvrtcResult R = F(P, int(Ptrs.size()), Ptrs.data());
  if (P) {
    std::lock_guard<std::mutex> G(RetargetedLock);
    if (Changed)
      Retargeted.insert(P);
    if (Lto)
      PtxForLto.insert(P);
  }
  return R;
}

// SizeFn and GetFn hand back the program's PTX when Compiled(P) says it was
// compiled as PTX in place of what they return; otherwise NVIDIA's answer.
#define CUHIP_NVRTC_PTX_IN_PLACE_OF(SizeFn, GetFn, Compiled)                    \
  CUHIP_NVRTC_EXPORT nvrtcResult SizeFn(nvrtcProgram P, size_t *Size) {        \
    if (Compiled(P))                                                           \
      return nvrtcGetPTXSize(P, Size);                                         \
    using Fn = nvrtcResult (*)(nvrtcProgram, size_t *);                        \
    static Fn F = lookup<Fn>(#SizeFn);                                         \
    return F ? F(P, Size) : ErrorInternal;                                     \
  }                                                                            \
  CUHIP_NVRTC_EXPORT nvrtcResult GetFn(nvrtcProgram P, char *Out) {            \
    if (Compiled(P))                                                           \
      return Out ? nvrtcGetPTX(P, Out) : ErrorInvalidInput;                    \
    using Fn = nvrtcResult (*)(nvrtcProgram, char *);                          \
    static Fn F = lookup<Fn>(#GetFn);                                          \
    return F ? F(P, Out) : ErrorInternal;                                      \
  }

CUHIP_NVRTC_PTX_IN_PLACE_OF(nvrtcGetCUBINSize, nvrtcGetCUBIN, isRetargeted)
CUHIP_NVRTC_PTX_IN_PLACE_OF(nvrtcGetLTOIRSize, nvrtcGetLTOIR, isPtxForLto)
