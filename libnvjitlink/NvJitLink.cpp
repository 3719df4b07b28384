//===- NvJitLink.cpp - libnvJitLink: nvJitLink's API over cuhip's linker --===//
//
// Programs link device code at run time with nvJitLink: LTO-IR from NVRTC
// (`-dlto`), PTX, cubins, fatbins and host objects go in, a cubin comes
// out, and cuModuleLoadData loads it. cuhip runs PTX, not NVIDIA machine
// code or NVVM IR, so this library links PTX:
//
//   * PTX inputs as they are;
//   * LTO-IR inputs when they are PTX, which is what cuhip's NVRTC bridge
//     hands back for `-dlto` programs (real NVVM IR is refused, naming the
//     input);
//   * the PTX of fatbins, and of the fatbins inside host objects and
//     libraries given as files (the entry a compute capability 8.0 device
//     would run);
//   * cubins are refused: they hold machine code only.
//
// nvJitLinkComplete joins the inputs with the runtime core's PTX linker
// (every .extern resolved, nothing defined twice); the "linked cubin" and
// the linked PTX are both that PTX text, NUL-terminated.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Fatbin.h"
#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Runtime.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#define NVJITLINK_EXPORT extern "C" __attribute__((visibility("default")))
// The versioned name the toolkit's nvJitLink.h calls: __nvJitLinkCreate_13_0.
#define NVJITLINK_VERSIONED2(Name, Ma, Mi) __##Name##_##Ma##_##Mi
#define NVJITLINK_VERSIONED1(Name, Ma, Mi) NVJITLINK_VERSIONED2(Name, Ma, Mi)
#define NVJITLINK_VERSIONED(Name)                                             \
  NVJITLINK_VERSIONED1(Name, CUHIP_NVJITLINK_MAJOR, CUHIP_NVJITLINK_MINOR)

namespace {

// nvJitLink.h's enumerators.
enum Result : int {
  Success = 0,
  ErrorUnrecognizedOption = 1,
  ErrorMissingArch = 2,
  ErrorInvalidInput = 3,
  ErrorPtxCompile = 4,
  ErrorInternal = 6,
  ErrorNullInput = 10,
  ErrorIncorrectInputType = 12,
};
enum InputType : int {
  InputNone = 0,
  InputCubin = 1,
  InputPtx = 2,
  InputLtoIr = 3,
  InputFatbin = 4,
  InputObject = 5,
  InputLibrary = 6,
  InputIndex = 7,
  InputAny = 10,
};

struct Link {
  std::vector<std::pair<std::string, std::string>> Units; // name, PTX
  std::string ErrorLog, InfoLog;
  std::string Linked; // PTX, NUL-terminated, once complete
  bool Complete = false;
};

std::mutex Lock;
std::set<Link *> Links;

Link *live(void *H) {
  std::lock_guard<std::mutex> G(Lock);
  auto *L = static_cast<Link *>(H);
  return Links.count(L) ? L : nullptr;
}

bool looksLikePtx(const std::string &Text) {
  return Text.find(".version") != std::string::npos &&
         Text.find(".target") != std::string::npos;
}

/// An input's error: logged, and kept for nvJitLinkGetErrorLog.
Result fail(Link &L, Result R, const std::string &Message) {
  L.ErrorLog += "error: " + Message + "\n";
  CUHIP_ERROR("nvJitLink: %s", Message.c_str());
  return R;
}

/// The PTX a device of compute capability 8.0 would run from a fatbin
/// container, appended to L's units.
Result addContainer(Link &L, const cuhip::fatbin::Container &C,
                    const std::string &Name) {
  const cuhip::fatbin::Entry *E = cuhip::fatbin::choosePtx(
      C, [](const cuhip::fatbin::Entry &) { return true; }, 80);
  if (!E)
    return fail(L, ErrorInvalidInput,
                Name + ": the fatbin holds no PTX, only NVIDIA machine code");
  std::string Ptx, Err;
  if (!cuhip::fatbin::decompressPayload(*E, Ptx, Err))
    return fail(L, ErrorInvalidInput, Name + ": " + Err);
  L.Units.push_back({Name, std::move(Ptx)});
  return Success;
}

Result addInput(Link &L, int Type, const void *Data, size_t Size,
                const std::string &Name) {
  if (L.Complete)
    return fail(L, ErrorInvalidInput,
                Name + ": added after nvJitLinkComplete");
  std::string Bytes(static_cast<const char *>(Data), Size);
  while (!Bytes.empty() && Bytes.back() == '\0')
    Bytes.pop_back();
  switch (Type) {
  case InputPtx:
  case InputLtoIr:
  case InputAny:
    if (looksLikePtx(Bytes)) {
      L.Units.push_back({Name, std::move(Bytes)});
      return Success;
    }
    if (Type == InputLtoIr)
      return fail(L, ErrorInvalidInput,
                  Name + ": LTO-IR (NVVM IR) cannot be linked by cuhip; "
                         "programs that compile with NVRTC's -dlto through "
                         "`cuhip run` get PTX instead, which links");
    if (Type == InputPtx)
      return fail(L, ErrorInvalidInput, Name + ": not PTX text");
    break;
  case InputFatbin:
    break;
  case InputCubin:
    return fail(L, ErrorInvalidInput,
                Name + ": a cubin holds NVIDIA machine code only, which cuhip "
                       "cannot run; link its PTX instead");
  default:
    return fail(L, ErrorIncorrectInputType,
                Name + ": input type " + std::to_string(Type) +
                    " is not taken from memory (objects and libraries are "
                    "taken as files)");
  }
  // A fatbin (or, for NVJITLINK_INPUT_ANY, whatever is not PTX).
  cuhip::fatbin::Container C;
  std::string Err;
  if (!cuhip::fatbin::parseContainer(Data, Size, C, Err))
    return fail(L, Type == InputAny ? ErrorIncorrectInputType : ErrorInvalidInput,
                Name + ": " + (Type == InputAny ? "neither PTX nor a fatbin: "
                                                : "not a fatbin: ") +
                    Err);
  return addContainer(L, C, Name);
}

} // namespace

// Each entry point is exported under its plain name and the versioned name
// the toolkit's header calls; the plain one forwards.
#define NVJITLINK_ALIAS(Name, Params, Args)                                   \
  NVJITLINK_EXPORT int Name Params { return NVJITLINK_VERSIONED(Name) Args; }

NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkCreate)(
    void **Handle, uint32_t NumOptions, const char *const *Options) {
  if (!Handle)
    return ErrorNullInput;
  if (NumOptions && !Options)
    return ErrorNullInput;
  auto L = std::make_unique<Link>();
  bool Arch = false;
  for (uint32_t I = 0; I < NumOptions; ++I) {
    std::string O = Options[I] ? Options[I] : "";
    if (O.rfind("-arch=sm_", 0) == 0 || O.rfind("-arch=compute_", 0) == 0) {
      Arch = true;
      continue;
    }
    // The options that change NVIDIA's code generation only; PTX is
    // compiled when it is loaded.
    static const char *const Accepted[] = {
        "-lto", "-ptx", "-O", "-g", "-lineinfo", "-maxrregcount=", "-time",
        "-verbose", "-kernels-used=", "-variables-used=",
        "-optimize-unused-variables", "-Xptxas", "-split-compile",
        "-jump-table-density=", "-no-cache", "-device-stack-protector",
        "-ftz=", "-prec-div=", "-prec-sqrt=", "-fma="};
    bool Known = false;
    for (const char *A : Accepted)
      if (O.rfind(A, 0) == 0)
        Known = true;
    if (!Known) {
      CUHIP_ERROR("nvJitLinkCreate: unrecognized option '%s'", O.c_str());
      return ErrorUnrecognizedOption;
    }
  }
  if (!Arch) {
    CUHIP_ERROR("nvJitLinkCreate: no -arch=sm_XY option");
    return ErrorMissingArch;
  }
  std::lock_guard<std::mutex> G(Lock);
  Links.insert(L.get());
  *Handle = L.release();
  return Success;
}
NVJITLINK_ALIAS(nvJitLinkCreate,
                (void **Handle, uint32_t NumOptions, const char *const *Options),
                (Handle, NumOptions, Options))

NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkDestroy)(void **Handle) {
  if (!Handle || !*Handle)
    return ErrorNullInput;
  std::lock_guard<std::mutex> G(Lock);
  auto *L = static_cast<Link *>(*Handle);
  if (!Links.erase(L))
    return ErrorInvalidInput;
  delete L;
  *Handle = nullptr;
  return Success;
}
NVJITLINK_ALIAS(nvJitLinkDestroy, (void **Handle), (Handle))

NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkAddData)(
    void *Handle, int Type, const void *Data, size_t Size, const char *Name) {
  Link *L = live(Handle);
  if (!L || !Data)
    return L ? ErrorNullInput : ErrorInvalidInput;
  return addInput(*L, Type, Data, Size, Name ? Name : "(unnamed input)");
}
NVJITLINK_ALIAS(nvJitLinkAddData,
                (void *Handle, int Type, const void *Data, size_t Size,
                 const char *Name),
                (Handle, Type, Data, Size, Name))

NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkAddFile)(void *Handle,
                                                           int Type,
                                                           const char *File) {
  Link *L = live(Handle);
  if (!L || !File)
    return L ? ErrorNullInput : ErrorInvalidInput;
  std::ifstream In(File, std::ios::binary);
  if (!In)
    return fail(*L, ErrorInvalidInput,
                std::string(File) + ": cannot be read: " + std::strerror(errno));
  std::stringstream Buf;
  Buf << In.rdbuf();
  std::string Data = Buf.str();
  bool Elf = Data.compare(0, 4, "\x7f" "ELF") == 0;
  if (Type != InputObject && Type != InputLibrary && !(Type == InputAny && Elf))
    return addInput(*L, Type, Data.data(), Data.size(), File);
  // Host objects and libraries: the fatbins nvcc put in them.
  std::string Storage, Err;
  std::vector<cuhip::fatbin::Container> Containers;
  if (!cuhip::fatbin::readProgramFatbins(File, Storage, Containers, Err))
    return fail(*L, ErrorInvalidInput, std::string(File) + ": " + Err);
  if (Containers.empty())
    return fail(*L, ErrorInvalidInput,
                std::string(File) + ": holds no device code");
  for (size_t I = 0; I < Containers.size(); ++I)
    if (Result R = addContainer(*L, Containers[I],
                                std::string(File) + "#" + std::to_string(I)))
      return R;
  return Success;
}
NVJITLINK_ALIAS(nvJitLinkAddFile, (void *Handle, int Type, const char *File),
                (Handle, Type, File))

NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkComplete)(void *Handle) {
  Link *L = live(Handle);
  if (!L)
    return ErrorInvalidInput;
  if (L->Units.empty())
    return fail(*L, ErrorInvalidInput, "nothing was added to the link");
  std::string Image, Log;
  if (cuhip::rt::Runtime::get().linkPtx(L->Units, Image, Log) !=
      cuhip::rt::cudaSuccess) {
    L->ErrorLog += Log;
    CUHIP_ERROR("nvJitLinkComplete: %s", Log.c_str());
    return ErrorPtxCompile;
  }
  L->Linked = std::move(Image);
  L->Linked.push_back('\0');
  L->Complete = true;
  L->InfoLog += "cuhip: linked " + std::to_string(L->Units.size()) +
                " PTX module(s); the linked cubin is PTX\n";
  return Success;
}
NVJITLINK_ALIAS(nvJitLinkComplete, (void *Handle), (Handle))

namespace {
int linkedSize(void *Handle, size_t *Size) {
  Link *L = live(Handle);
  if (!L || !Size)
    return L ? ErrorNullInput : ErrorInvalidInput;
  if (!L->Complete)
    return fail(*L, ErrorInvalidInput, "the link is not complete");
  *Size = L->Linked.size();
  return Success;
}
int linkedCopy(void *Handle, void *Out) {
  Link *L = live(Handle);
  if (!L || !Out)
    return L ? ErrorNullInput : ErrorInvalidInput;
  if (!L->Complete)
    return fail(*L, ErrorInvalidInput, "the link is not complete");
  std::memcpy(Out, L->Linked.data(), L->Linked.size());
  return Success;
}
int logSize(void *Handle, size_t *Size, bool Error) {
  Link *L = live(Handle);
  if (!L || !Size)
    return L ? ErrorNullInput : ErrorInvalidInput;
  *Size = (Error ? L->ErrorLog : L->InfoLog).size() + 1;
  return Success;
}
int logCopy(void *Handle, char *Out, bool Error) {
  Link *L = live(Handle);
  if (!L || !Out)
    return L ? ErrorNullInput : ErrorInvalidInput;
  const std::string &S = Error ? L->ErrorLog : L->InfoLog;
  std::memcpy(Out, S.c_str(), S.size() + 1);
  return Success;
}
} // namespace

NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetLinkedCubinSize)(
    void *Handle, size_t *Size) {
  return linkedSize(Handle, Size);
}
NVJITLINK_ALIAS(nvJitLinkGetLinkedCubinSize, (void *Handle, size_t *Size),
                (Handle, Size))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetLinkedCubin)(void *Handle,
                                                                  void *Cubin) {
  return linkedCopy(Handle, Cubin);
}
NVJITLINK_ALIAS(nvJitLinkGetLinkedCubin, (void *Handle, void *Cubin),
                (Handle, Cubin))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetLinkedPtxSize)(
    void *Handle, size_t *Size) {
  return linkedSize(Handle, Size);
}
NVJITLINK_ALIAS(nvJitLinkGetLinkedPtxSize, (void *Handle, size_t *Size),
                (Handle, Size))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetLinkedPtx)(void *Handle,
                                                                char *Ptx) {
  return linkedCopy(Handle, Ptx);
}
NVJITLINK_ALIAS(nvJitLinkGetLinkedPtx, (void *Handle, char *Ptx),
                (Handle, Ptx))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetErrorLogSize)(
    void *Handle, size_t *Size) {
  return logSize(Handle, Size, true);
}
NVJITLINK_ALIAS(nvJitLinkGetErrorLogSize, (void *Handle, size_t *Size),
                (Handle, Size))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetErrorLog)(void *Handle,
                                                               char *Log) {
  return logCopy(Handle, Log, true);
}
NVJITLINK_ALIAS(nvJitLinkGetErrorLog, (void *Handle, char *Log), (Handle, Log))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetInfoLogSize)(void *Handle,
                                                                  size_t *Size) {
  return logSize(Handle, Size, false);
}
NVJITLINK_ALIAS(nvJitLinkGetInfoLogSize, (void *Handle, size_t *Size),
                (Handle, Size))
NVJITLINK_EXPORT int NVJITLINK_VERSIONED(nvJitLinkGetInfoLog)(void *Handle,
                                                              char *Log) {
  return logCopy(Handle, Log, false);
}
NVJITLINK_ALIAS(nvJitLinkGetInfoLog, (void *Handle, char *Log), (Handle, Log))

NVJITLINK_EXPORT int nvJitLinkVersion(unsigned *Major, unsigned *Minor) {
  if (!Major || !Minor)
    return ErrorNullInput;
  *Major = CUHIP_NVJITLINK_MAJOR;
  *Minor = CUHIP_NVJITLINK_MINOR;
  return Success;
}
