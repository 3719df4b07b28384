//===- DriverModule.cpp - Modules, libraries and PTX linking --------------===//
//
// A module is the runtime core's explicitly loaded Module and a function its
// Kernel; CUDA 12's context-independent libraries and kernels are the same
// objects under other handle types (a CUkernel may be passed wherever a
// CUfunction is, as CUDA allows). Images are PTX text, fatbin containers
// (with or without their registration wrapper), or ELF files that carry a
// fatbin section (objects and libraries nvcc built); a cubin holds only
// machine code for NVIDIA GPUs and is refused with a log line saying so.
// The "linker" accepts PTX and fatbin inputs and joins independent modules;
// a module that references another input's symbols needs real PTX linking,
// which cuhip does not do yet (CUDA_ERROR_NOT_SUPPORTED, logged). The
// modules loaded here are remembered so that a function leads back to its
// module (cuFuncGetModule, cuKernelGetLibrary).
//
//===----------------------------------------------------------------------===//
#include "DriverExport.h"

#include "cuhip/runtime/Fatbin.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace cuhip;
using namespace cuhip::cuda;

namespace {

rt::Module *module(CUmodule M) { return reinterpret_cast<rt::Module *>(M); }
CUmodule handle(rt::Module *M) { return reinterpret_cast<CUmodule>(M); }

/// The modules and libraries loaded through this library and not unloaded.
struct LoadedModules {
  std::mutex Lock;
  std::set<rt::Module *> Modules;
};

LoadedModules &loadedModules() {
  static LoadedModules *L = new LoadedModules;
  return *L;
}

void noteLoaded(rt::Module *M) {
  LoadedModules &L = loadedModules();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Modules.insert(M);
}

CUresult unload(rt::Module *M) {
  if (runtime().unloadModule(M))
    return CUDA_ERROR_INVALID_HANDLE;
  LoadedModules &L = loadedModules();
  std::lock_guard<std::mutex> G(L.Lock);
  L.Modules.erase(M);
  return CUDA_SUCCESS;
}

/// The module of kernel K (a CUfunction or CUkernel), or
/// CUDA_ERROR_INVALID_HANDLE for what is no kernel. A kernel of a fatbin
/// libcudart registered belongs to no module loaded here, and the core does
/// not say which of its own it is in.
CUresult moduleOf(const void *K, rt::Module **Out) {
  if (!K || !runtime().isKernelHandle(K))
    return CUDA_ERROR_INVALID_HANDLE;
  LoadedModules &L = loadedModules();
  std::lock_guard<std::mutex> G(L.Lock);
  for (rt::Module *M : L.Modules) {
    std::vector<rt::Kernel *> Ks;
    if (!runtime().isModuleHandle(M) || runtime().moduleKernels(M, &Ks))
      continue;
    if (std::find(Ks.begin(), Ks.end(), K) != Ks.end()) {
      *Out = M;
      return CUDA_SUCCESS;
    }
  }
  return notSupported("the module of a kernel that libcudart registered");
}

constexpr uint32_t WrapperMagic = 0x466243B1;

/// The fatbin section of an ELF image in memory (an object file, program or
/// shared library built by nvcc); nullptr if it has none.
const uint8_t *elfFatbinSection(const uint8_t *Elf, size_t &Size,
                                std::string &Why) {
  // ELF64 little-endian only: what nvcc produces on the hosts cuhip runs on.
  if (Elf[4] != 2 || Elf[5] != 1) {
    Why = "not a 64-bit little-endian ELF image";
    return nullptr;
  }
  auto rd = [&](size_t Off, unsigned Bytes) {
    uint64_t V = 0;
    std::memcpy(&V, Elf + Off, Bytes);
    return V;
  };
  uint64_t ShOff = rd(0x28, 8);
  unsigned ShEntSize = unsigned(rd(0x3a, 2)), ShNum = unsigned(rd(0x3c, 2)),
           ShStrNdx = unsigned(rd(0x3e, 2));
  uint16_t Machine = uint16_t(rd(0x12, 2));
  if (Machine == 190) { // EM_CUDA: a cubin
    Why = "it is a cubin, which holds machine code for NVIDIA GPUs only; "
          "cuhip needs PTX (load the PTX or a fatbin that carries it, e.g. "
          "nvcc -fatbin -gencode arch=compute_XX,code=compute_XX)";
    return nullptr;
  }
  if (!ShOff || ShEntSize < 64 || ShStrNdx >= ShNum ||
      !fatbin::isReadable(Elf + ShOff, size_t(ShNum) * ShEntSize)) {
    Why = "its section table is missing or unreadable";
    return nullptr;
  }
  auto section = [&](unsigned I, uint64_t &Off, uint64_t &Sz) {
    size_t H = ShOff + size_t(I) * ShEntSize;
    Off = rd(H + 0x18, 8);
    Sz = rd(H + 0x20, 8);
    return uint32_t(rd(H, 4));
  };
  uint64_t StrOff, StrSize;
  section(ShStrNdx, StrOff, StrSize);
  if (!fatbin::isReadable(Elf + StrOff, StrSize)) {
    Why = "its section names are unreadable";
    return nullptr;
  }
  for (unsigned I = 0; I < ShNum; ++I) {
    uint64_t Off, Sz;
    uint32_t NameOff = section(I, Off, Sz);
    if (NameOff >= StrSize)
      continue;
    const char *Name = reinterpret_cast<const char *>(Elf + StrOff + NameOff);
    std::string N(Name, strnlen(Name, StrSize - NameOff));
    if ((N == ".nv_fatbin" || N == "__nv_relfatbin") && Sz >= 16 &&
        fatbin::isReadable(Elf + Off, Sz)) {
      // The section may start with an empty device-link image; take the
      // first container that has PTX.
      for (uint64_t P = 0; P + 16 <= Sz; P += 8) {
        uint32_t Magic;
        std::memcpy(&Magic, Elf + Off + P, 4);
        if (Magic != fatbin::ContainerMagic)
          continue;
        fatbin::Container C;
        std::string Err;
        if (fatbin::parseContainer(Elf + Off + P, Sz - P, C, Err) &&
            fatbin::choosePtx(C, [](const fatbin::Entry &) { return true; })) {
          Size = Sz - P;
          return Elf + Off + P;
        }
      }
    }
  }
  Why = "it has no fatbin section with PTX";
  return nullptr;
}

/// Loads PTX text, a fatbin (container or wrapper) or an ELF image that
/// carries one. Size 0: not known (PTX is then NUL-terminated).
CUresult loadImage(const void *Image, size_t Size, const std::string &Name,
                   rt::Module **Out, std::string *Log) {
  const uint8_t *Bytes = static_cast<const uint8_t *>(Image);
  uint32_t Magic = 0;
  if (Size == 0 || Size >= 4)
    std::memcpy(&Magic, Bytes, 4);
  if (Magic == WrapperMagic) {
    // The device-linked wrapper of an -rdc program (what the static runtime
    // hands cuLibraryLoadData) lists the per-file containers to link.
    fatbin::Container Linked;
    std::vector<fatbin::Container> Units;
    std::string Err;
    if (fatbin::parseWrapper(Image, Linked, Err) &&
        fatbin::parsePrelinkedContainers(Linked, Units, Err) &&
        !Units.empty()) {
      rt::Status S = runtime().loadLinkedModule(Units, Name, Out, Log);
      if (S == rt::cudaErrorInvalidKernelImage)
        return CUDA_ERROR_INVALID_IMAGE;
      if (S == rt::cudaSuccess)
        noteLoaded(*Out);
      return toCU(S);
    }
    // A registration wrapper: its third and fourth words point to the data.
    const void *Data = nullptr;
    std::memcpy(&Data, Bytes + 8, sizeof(Data));
    if (!Data)
      return CUDA_ERROR_INVALID_IMAGE;
    return loadImage(Data, 0, Name, Out, Log);
  }
  if (std::memcmp(Bytes, "\x7f"
                         "ELF",
                  4) == 0) {
    std::string Why;
    size_t Sz = 0;
    const uint8_t *Fatbin = elfFatbinSection(Bytes, Sz, Why);
    if (!Fatbin) {
      CUHIP_ERROR("%s: cannot load this ELF image: %s", Name.c_str(),
                  Why.c_str());
      if (Log)
        *Log += Name + ": " + Why + "\n";
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    Image = Fatbin;
    Size = Sz;
  }
  rt::Status S = runtime().loadModuleData(Image, Size, Name, Out, Log);
  if (S == rt::cudaErrorInvalidKernelImage)
    return CUDA_ERROR_INVALID_IMAGE;
  if (S == rt::cudaSuccess)
    noteLoaded(*Out);
  return toCU(S);
}

bool readFile(const char *Path, std::string &Out) {
  std::ifstream F(Path, std::ios::binary);
  if (!F)
    return false;
  std::ostringstream SS;
  SS << F.rdbuf();
  Out = SS.str();
  return true;
}

/// What cuModuleLoadDataEx, cuLinkCreate and cuLibraryLoadData's JIT
/// options ask for: the log buffers cuhip fills.
struct JitLogs {
  char *Error = nullptr, *Info = nullptr;
  size_t ErrorSize = 0, InfoSize = 0;
  void **ErrorSizeSlot = nullptr, **InfoSizeSlot = nullptr;

  CUresult parse(unsigned N, const CUjit_option *Options, void **Values) {
    if (N && (!Options || !Values))
      return CUDA_ERROR_INVALID_VALUE;
    for (unsigned I = 0; I < N; ++I) {
      int O = Options[I];
      if (O < 0 || O >= CU_JIT_NUM_OPTIONS_CUDA13)
        return CUDA_ERROR_INVALID_VALUE;
      // Optimisation levels, targets, cache modes and the like are accepted
      // and have no effect: the frontend compiles for the host or AMD GPU.
      switch (O) {
      case CU_JIT_ERROR_LOG_BUFFER:
        Error = static_cast<char *>(Values[I]);
        break;
      case CU_JIT_INFO_LOG_BUFFER:
        Info = static_cast<char *>(Values[I]);
        break;
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
        ErrorSize = uintptr_t(Values[I]);
        ErrorSizeSlot = &Values[I];
        break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
        InfoSize = uintptr_t(Values[I]);
        InfoSizeSlot = &Values[I];
        break;
      default:
        break;
      }
    }
    return CUDA_SUCCESS;
  }

  static void write(char *Buf, size_t Size, void **Slot, const std::string &S) {
    if (!Buf || !Size)
      return;
    size_t N = std::min(S.size(), Size - 1);
    std::memcpy(Buf, S.data(), N);
    Buf[N] = 0;
    if (Slot) // CUDA reports the bytes written (with the NUL) back
      *Slot = reinterpret_cast<void *>(uintptr_t(N + 1));
  }
  void finish(const std::string &Errors, const std::string &Infos) {
    write(Error, ErrorSize, ErrorSizeSlot, Errors);
    write(Info, InfoSize, InfoSizeSlot, Infos);
  }
};

CUresult loadWithLogs(rt::Module **Out, const void *Image, size_t Size,
                      const std::string &Name, unsigned NumOptions,
                      CUjit_option *Options, void **Values) {
  JitLogs Logs;
  if (CUresult R = Logs.parse(NumOptions, Options, Values))
    return R;
  std::string Diagnostics;
  CUresult R = loadImage(Image, Size, Name, Out, &Diagnostics);
  if (R != CUDA_SUCCESS && Diagnostics.empty()) {
    Diagnostics = Name + ": the image could not be loaded (CUresult " +
                  std::to_string(int(R)) + ")\n";
  }
  Logs.finish(R == CUDA_SUCCESS ? "" : Diagnostics,
              R == CUDA_SUCCESS ? Name + ": compiled by cuhip\n" : "");
  return R;
}

std::mutex CounterLock;
unsigned NextImage = 0;
std::string imageName(const char *What) {
  std::lock_guard<std::mutex> G(CounterLock);
  return std::string(What) + "#" + std::to_string(NextImage++) + ".ptx";
}

} // namespace

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

CUHIP_EXPORT CUresult cuModuleLoad(CUmodule *Module, const char *Path) {
  if (CUresult R = checkContext())
    return R;
  if (!Module || !Path)
    return CUDA_ERROR_INVALID_VALUE;
  std::string Data;
  if (!readFile(Path, Data)) {
    CUHIP_ERROR("cuModuleLoad: cannot read '%s'", Path);
    return CUDA_ERROR_FILE_NOT_FOUND;
  }
  rt::Module *M = nullptr;
  std::string Name = Path;
  if (size_t Slash = Name.rfind('/'); Slash != std::string::npos)
    Name = Name.substr(Slash + 1);
  CUresult R = loadImage(Data.data(), Data.size(), Name, &M, nullptr);
  *Module = handle(M);
  return R;
}

CUHIP_EXPORT CUresult cuModuleLoadData(CUmodule *Module, const void *Image) {
  if (CUresult R = checkContext())
    return R;
  if (!Module || !Image)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Module *M = nullptr;
  CUresult R = loadImage(Image, 0, imageName("module"), &M, nullptr);
  *Module = handle(M);
  return R;
}

CUHIP_EXPORT CUresult cuModuleLoadDataEx(CUmodule *Module, const void *Image,
                                         unsigned int NumOptions,
                                         CUjit_option *Options,
                                         void **OptionValues) {
  if (CUresult R = checkContext())
    return R;
  if (!Module || !Image)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Module *M = nullptr;
  CUresult R = loadWithLogs(&M, Image, 0, imageName("module"), NumOptions,
                            Options, OptionValues);
  *Module = handle(M);
  return R;
}

CUHIP_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *Module,
                                            const void *FatCubin) {
  return cuModuleLoadData(Module, FatCubin);
}

CUHIP_EXPORT CUresult cuModuleUnload(CUmodule Module) {
  if (CUresult R = checkInit())
    return R;
  if (!Module)
    return CUDA_ERROR_INVALID_HANDLE;
  return unload(module(Module));
}

CUHIP_EXPORT CUresult cuModuleGetFunction(CUfunction *Func, CUmodule Module,
                                          const char *Name) {
  if (CUresult R = checkContext())
    return R;
  if (!Func || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Module || !runtime().isModuleHandle(module(Module)))
    return CUDA_ERROR_INVALID_HANDLE;
  rt::Kernel *K = nullptr;
  CUresult R = toCU(runtime().moduleGetFunction(module(Module), Name, &K));
  *Func = reinterpret_cast<CUfunction>(K);
  return R;
}

CUHIP_EXPORT CUresult cuFuncGetModule(CUmodule *Module, CUfunction Func) {
  if (CUresult R = checkInit())
    return R;
  if (!Module)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Module *M = nullptr;
  if (CUresult R = moduleOf(Func, &M))
    return R;
  *Module = handle(M);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuModuleGetFunctionCount(unsigned int *Count,
                                               CUmodule Module) {
  if (CUresult R = checkInit())
    return R;
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<rt::Kernel *> Ks;
  if (!Module || runtime().moduleKernels(module(Module), &Ks))
    return CUDA_ERROR_INVALID_HANDLE;
  *Count = unsigned(Ks.size());
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction *Functions,
                                                 unsigned int NumFunctions,
                                                 CUmodule Module) {
  if (CUresult R = checkInit())
    return R;
  if (!Functions)
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<rt::Kernel *> Ks;
  if (!Module || runtime().moduleKernels(module(Module), &Ks))
    return CUDA_ERROR_INVALID_HANDLE;
  for (unsigned I = 0; I < NumFunctions && I < Ks.size(); ++I)
    Functions[I] = reinterpret_cast<CUfunction>(Ks[I]);
  return CUDA_SUCCESS;
}

static CUresult moduleGetGlobal(CUdeviceptr *Ptr, size_t *Bytes,
                                CUmodule Module, const char *Name,
                                bool NeedsContext = true,
                                bool Managed = false) {
  if (CUresult R = NeedsContext ? checkContext() : checkInit())
    return R;
  if (!Name || (!Ptr && !Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  if (!Module || !runtime().isModuleHandle(module(Module)))
    return CUDA_ERROR_INVALID_HANDLE;
  void *Addr = nullptr;
  size_t Size = 0;
  rt::Status S =
      runtime().moduleGetGlobal(module(Module), Name, &Addr, &Size, Managed);
  if (S == rt::cudaErrorSymbolNotFound)
    return CUDA_ERROR_NOT_FOUND;
  if (S)
    return toCU(S);
  if (Ptr)
    *Ptr = reinterpret_cast<CUdeviceptr>(Addr);
  if (Bytes)
    *Bytes = Size;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *Ptr, size_t *Bytes,
                                           CUmodule Module, const char *Name) {
  return moduleGetGlobal(Ptr, Bytes, Module, Name);
}

CUHIP_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *Mode) {
  if (CUresult R = checkInit())
    return R;
  if (!Mode)
    return CUDA_ERROR_INVALID_VALUE;
  // Explicit loads compile at once; registered fatbins compile at their
  // first launch.
  *Mode = CU_MODULE_LAZY_LOADING;
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Libraries (CUDA 12): context-independent modules
//===----------------------------------------------------------------------===//

static CUresult loadLibrary(CUlibrary *Library, const void *Code, size_t Size,
                            const std::string &Name, unsigned NumJitOptions,
                            CUjit_option *JitOptions, void **JitValues,
                            unsigned NumLibraryOptions) {
  if (CUresult R = checkInit())
    return R;
  if (!Library || !Code)
    return CUDA_ERROR_INVALID_VALUE;
  (void)NumLibraryOptions; // managed/unified-function options change nothing
  rt::Module *M = nullptr;
  CUresult R = loadWithLogs(&M, Code, Size, Name, NumJitOptions, JitOptions,
                            JitValues);
  *Library = reinterpret_cast<CUlibrary>(M);
  return R;
}

CUHIP_EXPORT CUresult cuLibraryLoadData(
    CUlibrary *Library, const void *Code, CUjit_option *JitOptions,
    void **JitOptionsValues, unsigned int NumJitOptions,
    CUlibraryOption *LibraryOptions, void **LibraryOptionValues,
    unsigned int NumLibraryOptions) {
  (void)LibraryOptions;
  (void)LibraryOptionValues;
  return loadLibrary(Library, Code, 0, imageName("library"), NumJitOptions,
                     JitOptions, JitOptionsValues, NumLibraryOptions);
}

CUHIP_EXPORT CUresult cuLibraryLoadFromFile(
    CUlibrary *Library, const char *FileName, CUjit_option *JitOptions,
    void **JitOptionsValues, unsigned int NumJitOptions,
    CUlibraryOption *LibraryOptions, void **LibraryOptionValues,
    unsigned int NumLibraryOptions) {
  (void)LibraryOptions;
  (void)LibraryOptionValues;
  if (CUresult R = checkInit())
    return R;
  if (!Library || !FileName)
    return CUDA_ERROR_INVALID_VALUE;
  std::string Data;
  if (!readFile(FileName, Data)) {
    CUHIP_ERROR("cuLibraryLoadFromFile: cannot read '%s'", FileName);
    return CUDA_ERROR_FILE_NOT_FOUND;
  }
  return loadLibrary(Library, Data.data(), Data.size(), FileName,
                     NumJitOptions, JitOptions, JitOptionsValues,
                     NumLibraryOptions);
}

CUHIP_EXPORT CUresult cuLibraryUnload(CUlibrary Library) {
  if (CUresult R = checkInit())
    return R;
  if (!Library)
    return CUDA_ERROR_INVALID_HANDLE;
  return unload(reinterpret_cast<rt::Module *>(Library));
}

CUHIP_EXPORT CUresult cuLibraryGetKernel(CUkernel *Kernel, CUlibrary Library,
                                         const char *Name) {
  if (CUresult R = checkInit())
    return R;
  if (!Kernel || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Module *M = reinterpret_cast<rt::Module *>(Library);
  if (!M || !runtime().isModuleHandle(M))
    return CUDA_ERROR_INVALID_HANDLE;
  rt::Kernel *K = nullptr;
  CUresult R = toCU(runtime().moduleGetFunction(M, Name, &K));
  *Kernel = reinterpret_cast<CUkernel>(K);
  return R;
}

CUHIP_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *Count,
                                              CUlibrary Library) {
  return cuModuleGetFunctionCount(Count, reinterpret_cast<CUmodule>(Library));
}

CUHIP_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel *Kernels,
                                                unsigned int NumKernels,
                                                CUlibrary Library) {
  return cuModuleEnumerateFunctions(reinterpret_cast<CUfunction *>(Kernels),
                                    NumKernels,
                                    reinterpret_cast<CUmodule>(Library));
}

CUHIP_EXPORT CUresult cuLibraryGetModule(CUmodule *Module, CUlibrary Library) {
  if (CUresult R = checkContext())
    return R;
  if (!Module)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Module *M = reinterpret_cast<rt::Module *>(Library);
  if (!M || !runtime().isModuleHandle(M))
    return CUDA_ERROR_INVALID_HANDLE;
  *Module = handle(M);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuKernelGetFunction(CUfunction *Func, CUkernel Kernel) {
  if (CUresult R = checkContext())
    return R;
  if (!Func)
    return CUDA_ERROR_INVALID_VALUE;
  if (!Kernel || !runtime().isKernelHandle(Kernel))
    return CUDA_ERROR_INVALID_HANDLE;
  *Func = reinterpret_cast<CUfunction>(Kernel);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuKernelGetLibrary(CUlibrary *Library, CUkernel Kernel) {
  if (CUresult R = checkInit())
    return R;
  if (!Library)
    return CUDA_ERROR_INVALID_VALUE;
  rt::Module *M = nullptr;
  if (CUresult R = moduleOf(Kernel, &M))
    return R;
  *Library = reinterpret_cast<CUlibrary>(M);
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *Ptr, size_t *Bytes,
                                         CUlibrary Library, const char *Name) {
  return moduleGetGlobal(Ptr, Bytes, reinterpret_cast<CUmodule>(Library),
                         Name);
}

// A `__managed__` variable: device memory is host memory on the CPU
// backend, so its storage is the managed memory (the static CUDA runtime
// asks for it to fill the variable's host pointer); not supported on the
// HIP backend.
CUHIP_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *Ptr, size_t *Bytes,
                                          CUlibrary Library, const char *Name) {
  // Managed memory belongs to no context: the static runtime asks before
  // it makes one current.
  return moduleGetGlobal(Ptr, Bytes, reinterpret_cast<CUmodule>(Library), Name,
                         /*NeedsContext=*/false, /*Managed=*/true);
}

//===----------------------------------------------------------------------===//
// Linking
//===----------------------------------------------------------------------===//

struct CUlinkState_st {
  JitLogs Logs;
  struct Input {
    std::string Name, Ptx;
  };
  std::vector<Input> Inputs;
  std::string Output;
  std::string Errors;
};

namespace {
std::mutex LinkLock;
std::set<CUlinkState_st *> LinkStates;

bool isLinkState(CUlinkState S) {
  std::lock_guard<std::mutex> G(LinkLock);
  return LinkStates.count(S) != 0;
}

CUresult addPtx(CUlinkState S, CUjitInputType Type, const void *Data,
                size_t Size, const char *Name) {
  std::string Display = Name && *Name ? Name : "input";
  switch (Type) {
  case CU_JIT_INPUT_PTX: {
    size_t Len = Size ? strnlen(static_cast<const char *>(Data), Size)
                      : std::strlen(static_cast<const char *>(Data));
    S->Inputs.push_back({Display, std::string(static_cast<const char *>(Data), Len)});
    return CUDA_SUCCESS;
  }
  case CU_JIT_INPUT_FATBINARY: {
    fatbin::Container C;
    std::string Err, Ptx;
    const fatbin::Entry *E = nullptr;
    if (fatbin::parseContainer(Data, Size ? Size : SIZE_MAX, C, Err))
      E = fatbin::choosePtx(
          C, [](const fatbin::Entry &) { return true; }, rt::ReportedSm);
    if (!E || !fatbin::decompressPayload(*E, Ptx, Err)) {
      S->Errors += Display + ": " + (Err.empty() ? "no PTX in fatbin" : Err) + "\n";
      return CUDA_ERROR_INVALID_IMAGE;
    }
    S->Inputs.push_back({Display, Ptx});
    return CUDA_SUCCESS;
  }
  default:
    S->Errors += Display + ": cuhip links PTX and fatbin inputs only\n";
    CUHIP_ERROR("cuLinkAddData(%s): input type %d is not supported; cuhip "
                "links PTX and fatbins that carry PTX",
                Display.c_str(), int(Type));
    return CUDA_ERROR_NOT_SUPPORTED;
  }
}
} // namespace

CUHIP_EXPORT CUresult cuLinkCreate_v2(unsigned int NumOptions,
                                      CUjit_option *Options,
                                      void **OptionValues,
                                      CUlinkState *State) {
  if (CUresult R = checkContext())
    return R;
  if (!State)
    return CUDA_ERROR_INVALID_VALUE;
  auto *S = new CUlinkState_st;
  if (CUresult R = S->Logs.parse(NumOptions, Options, OptionValues)) {
    delete S;
    return R;
  }
  std::lock_guard<std::mutex> G(LinkLock);
  LinkStates.insert(S);
  *State = S;
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuLinkCreate(unsigned int NumOptions,
                                   CUjit_option *Options, void **OptionValues,
                                   CUlinkState *State) {
  return cuLinkCreate_v2(NumOptions, Options, OptionValues, State);
}

CUHIP_EXPORT CUresult cuLinkAddData_v2(CUlinkState State, CUjitInputType Type,
                                       void *Data, size_t Size,
                                       const char *Name,
                                       unsigned int NumOptions,
                                       CUjit_option *Options,
                                       void **OptionValues) {
  if (CUresult R = checkInit())
    return R;
  if (!State || !isLinkState(State))
    return CUDA_ERROR_INVALID_HANDLE;
  if (!Data)
    return CUDA_ERROR_INVALID_VALUE;
  JitLogs Ignored;
  if (CUresult R = Ignored.parse(NumOptions, Options, OptionValues))
    return R;
  CUresult R = addPtx(State, Type, Data, Size, Name);
  if (R != CUDA_SUCCESS)
    State->Logs.finish(State->Errors, "");
  return R;
}

CUHIP_EXPORT CUresult cuLinkAddData(CUlinkState State, CUjitInputType Type,
                                    void *Data, size_t Size, const char *Name,
                                    unsigned int NumOptions,
                                    CUjit_option *Options,
                                    void **OptionValues) {
  return cuLinkAddData_v2(State, Type, Data, Size, Name, NumOptions, Options,
                          OptionValues);
}

CUHIP_EXPORT CUresult cuLinkAddFile_v2(CUlinkState State, CUjitInputType Type,
                                       const char *Path,
                                       unsigned int NumOptions,
                                       CUjit_option *Options,
                                       void **OptionValues) {
  if (CUresult R = checkInit())
    return R;
  if (!State || !isLinkState(State))
    return CUDA_ERROR_INVALID_HANDLE;
  if (!Path)
    return CUDA_ERROR_INVALID_VALUE;
  std::string Data;
  if (!readFile(Path, Data))
    return CUDA_ERROR_FILE_NOT_FOUND;
  Data.push_back(0);
  return cuLinkAddData_v2(State, Type, Data.data(), Data.size(), Path,
                          NumOptions, Options, OptionValues);
}

CUHIP_EXPORT CUresult cuLinkAddFile(CUlinkState State, CUjitInputType Type,
                                    const char *Path, unsigned int NumOptions,
                                    CUjit_option *Options,
                                    void **OptionValues) {
  return cuLinkAddFile_v2(State, Type, Path, NumOptions, Options,
                          OptionValues);
}

CUHIP_EXPORT CUresult cuLinkComplete(CUlinkState State, void **CubinOut,
                                     size_t *SizeOut) {
  if (CUresult R = checkInit())
    return R;
  if (!State || !isLinkState(State))
    return CUDA_ERROR_INVALID_HANDLE;
  if (!CubinOut || !SizeOut)
    return CUDA_ERROR_INVALID_VALUE;
  if (State->Inputs.empty()) {
    State->Logs.finish("cuLinkComplete: nothing was added\n", "");
    return CUDA_ERROR_INVALID_VALUE;
  }
  // The inputs stay whole, as link units the frontend lowers together
  // (.extern references resolved across them).
  std::vector<std::pair<std::string, std::string>> Units;
  for (const auto &In : State->Inputs)
    Units.push_back({In.Name, In.Ptx});
  std::string Out, Log;
  if (runtime().linkPtx(Units, Out, Log)) {
    CUHIP_ERROR("cuLinkComplete: %s", Log.c_str());
    State->Logs.finish(State->Errors + Log, "");
    return CUDA_ERROR_INVALID_PTX;
  }
  State->Output = std::move(Out);
  State->Output.push_back(0);
  *CubinOut = State->Output.data();
  *SizeOut = State->Output.size();
  State->Logs.finish("", "cuhip: linked " +
                             std::to_string(State->Inputs.size()) +
                             " PTX module(s)\n");
  return CUDA_SUCCESS;
}

CUHIP_EXPORT CUresult cuLinkDestroy(CUlinkState State) {
  if (!State)
    return CUDA_ERROR_INVALID_HANDLE;
  {
    std::lock_guard<std::mutex> G(LinkLock);
    if (!LinkStates.erase(State))
      return CUDA_ERROR_INVALID_HANDLE;
  }
  delete State;
  return CUDA_SUCCESS;
}
