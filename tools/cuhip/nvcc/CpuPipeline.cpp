//===- CpuPipeline.cpp - cuhip nvcc's CPU mode ----------------------------===//
//
// CPU mode builds programs that run through cuhip's runtime on every backend:
// device code becomes PTX inside a fatbin, as nvcc embeds it, and the program
// links cuhip's libcudart.so.13 instead of NVIDIA's. Two device compilers:
//
//  - the CUDA toolkit's nvcc, when installed: every phase runs it with a
//    command line rebuilt from the Invocation (nothing unvalidated passes
//    through); linking is done as nvcc does it (compile, device link, host
//    compiler) but against cuhip's shared runtime, found through the
//    toolkit facade, with an rpath to cuhip's lib;
//  - Clang's CUDA mode otherwise (or with --cuhip-device-compiler=clang):
//    PTX per virtual architecture, a fatbin written here around it, and a
//    host compile that embeds it and emits the __cudaRegisterFatBinary
//    calls cuhip's libcudart implements. Relocatable device code needs
//    nvcc's device linker and is refused in this mode.
//
//===----------------------------------------------------------------------===//
#include "Nvcc.h"

#include "cuhip/runtime/FatbinWriter.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace cuhip::nvcc {
namespace {

bool isDirectory(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

bool isExecutableFile(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         access(Path.c_str(), X_OK) == 0;
}

/// The real nvcc is an ELF executable; cuhip's facade bin/nvcc (and any
/// other wrapper) is a script, which could lead back here.
bool isElfFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  char Magic[4] = {};
  return In.read(Magic, 4) && std::memcmp(Magic, "\x7f"
                                                 "ELF",
                                          4) == 0;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// "dir/foo.cu" -> "foo" + Suffix, in the current directory (nvcc's default
/// output names).
std::string replaceSuffix(const std::string &Path, const std::string &Suffix) {
  std::string Base = baseName(Path);
  size_t Dot = Base.rfind('.');
  if (Dot != std::string::npos && Dot != 0)
    Base.resize(Dot);
  return Base + Suffix;
}

void error(const std::string &Message) {
  std::fprintf(stderr, "cuhip nvcc: error: %s\n", Message.c_str());
}

/// Explains a choice under -v / --dryrun (never on a quiet build: CMake and
/// Makefiles read nvcc's stderr).
void explain(const Runner &R, const std::string &Message) {
  if (R.verbose() || R.dryRun())
    std::fprintf(stderr, "cuhip nvcc: note: %s\n", Message.c_str());
}

const char *phaseFlag(Phase P) {
  switch (P) {
  case Phase::Compile:
    return "-c";
  case Phase::DeviceCompile:
    return "-dc";
  case Phase::DeviceLink:
    return "-dlink";
  case Phase::Lib:
    return "-lib";
  case Phase::Preprocess:
    return "-E";
  case Phase::Ptx:
    return "-ptx";
  case Phase::Fatbin:
    return "-fatbin";
  case Phase::Cubin:
    return "-cubin";
  case Phase::Link:
  case Phase::DepsOnly:
    return nullptr;
  }
  return nullptr;
}

bool isCompileSource(InputKind K) {
  return K == InputKind::Cuda || K == InputKind::Cxx || K == InputKind::C;
}

/// Where -lcudart and friends must resolve: the toolkit facade's lib64
/// (cuhip's libcudart/libcuda, a libcudart_static.a that means the shared
/// one, an empty libcudadevrt.a), or cuhip's own lib directory where the
/// build has not made the facade.
std::string cuhipLinkDir(const Environment &Env, bool &HaveFacade) {
  std::string Facade = Env.ToolkitFacade + "/lib64";
  HaveFacade = !Env.ToolkitFacade.empty() && isDirectory(Facade);
  return HaveFacade ? Facade : Env.CuhipLibDir;
}

/// The user's -l list with the CUDA runtime's names made cuhip's: every
/// cudart flavour is cuhip's shared libcudart (added once, by the caller),
/// and without the facade libcudadevrt (device runtime, which cuhip does
/// not have) is dropped.
std::vector<std::string> userLibs(const Invocation &Inv, bool HaveFacade) {
  std::vector<std::string> Out;
  for (const std::string &L : Inv.Libs) {
    if (L == "cudart" || L == "cudart_static")
      continue;
    if (L == "cudadevrt" && !HaveFacade)
      continue;
    Out.push_back("-l" + L);
  }
  return Out;
}

void noteRuntime(const Invocation &Inv, const Runner &R) {
  if (Inv.Cudart == "static")
    explain(R, "-cudart static: cuhip has no static CUDA runtime; the program "
               "links cuhip's shared libcudart.so.13");
  else if (Inv.Cudart == "none")
    explain(R, "-cudart none: the program still links cuhip's "
               "libcudart.so.13, which cuhip's registration code needs");
}

void appendLinkTail(std::vector<std::string> &A, const Invocation &Inv,
                    const Environment &Env, bool ClangDriver) {
  bool HaveFacade;
  std::string LinkDir = cuhipLinkDir(Env, HaveFacade);
  if (ClangDriver) {
    A.push_back("-L" + LinkDir);
  } else {
    // For the host linker only: nvlink would find the facade's empty
    // libcudadevrt.a there and warn that it skips it.
    A.push_back("-Xlinker");
    A.push_back("-L" + LinkDir);
  }
  for (const std::string &D : Inv.LibDirs)
    A.push_back("-L" + D);
  for (const std::string &F : Inv.LinkerFlags) {
    A.push_back("-Xlinker");
    A.push_back(F);
  }
  for (std::string &L : userLibs(Inv, HaveFacade))
    A.push_back(std::move(L));
  // cuhip's lib directory has no unversioned libcudart.so (the toolkit's
  // lib64, searched after it, has NVIDIA's): name the file itself there.
  A.push_back(HaveFacade ? "-lcudart" : "-l:libcudart.so.13");
  if (ClangDriver) {
    A.push_back("-Wl,-rpath," + Env.CuhipLibDir);
  } else {
    A.push_back("-Xlinker");
    A.push_back("-rpath," + Env.CuhipLibDir);
  }
}

//===----------------------------------------------------------------------===//
// The toolkit's nvcc
//===----------------------------------------------------------------------===//

std::vector<std::string> nvccCommand(const Invocation &Inv,
                                     const Environment &Env,
                                     const std::string &Nvcc) {
  std::vector<std::string> A{Nvcc};
  if (const char *F = phaseFlag(Inv.Phase))
    A.push_back(F);
  if (Inv.Rdc && Inv.Phase != Phase::DeviceCompile)
    A.push_back("-rdc=true");
  if (Inv.Shared)
    A.push_back("-shared");
  for (const GpuCode &G : Inv.GpuCodes) {
    A.push_back("-gencode");
    A.push_back("arch=" + G.Virtual + ",code=" + G.Real);
  }
  for (const std::string &D : Inv.IncludeDirs)
    A.push_back("-I" + D);
  for (const std::string &D : Inv.SystemIncludeDirs) {
    A.push_back("-isystem");
    A.push_back(D);
  }
  for (const std::string &F : Inv.PreIncludes) {
    A.push_back("-include");
    A.push_back(F);
  }
  for (const std::string &D : Inv.Defines)
    A.push_back(D);
  if (!Inv.Std.empty())
    A.push_back("-std=" + Inv.Std);
  if (!Inv.OptLevel.empty())
    A.push_back(Inv.OptLevel);
  if (Inv.HostDebug)
    A.push_back("-g");
  if (Inv.DeviceDebug)
    A.push_back("-G");
  if (Inv.LineInfo)
    A.push_back("-lineinfo");
  if (Inv.FastMath)
    A.push_back("--use_fast_math");
  // The math modes the user gave, after --use_fast_math as they were.
  for (const auto &[Flag, Value] :
       {std::pair{"--ftz=", Inv.Ftz}, std::pair{"--prec-div=", Inv.PrecDiv},
        std::pair{"--prec-sqrt=", Inv.PrecSqrt},
        std::pair{"--fmad=", Inv.Fmad}})
    if (Value)
      A.push_back(std::string(Flag) + (*Value ? "true" : "false"));
  if (Inv.ExtendedLambda)
    A.push_back("--extended-lambda");
  if (Inv.RelaxedConstexpr)
    A.push_back("--expt-relaxed-constexpr");
  if (!Inv.HostCompiler.empty()) {
    A.push_back("-ccbin");
    A.push_back(Inv.HostCompiler);
  }
  bool PicGiven = false;
  for (const std::string &F : Inv.HostCompilerFlags) {
    PicGiven |= F == "-fPIC";
    A.push_back("-Xcompiler");
    A.push_back(F);
  }
  if (Inv.Pic && !PicGiven) {
    A.push_back("-Xcompiler");
    A.push_back("-fPIC");
  }
  if (Inv.DepsM)
    A.push_back("-M");
  if (Inv.DepsMM)
    A.push_back("-MM");
  if (Inv.DepsMD)
    A.push_back("-MD");
  if (Inv.DepsMMD)
    A.push_back("-MMD");
  if (Inv.DepsMP)
    A.push_back("-MP");
  if (!Inv.DepsFile.empty()) {
    A.push_back("-MF");
    A.push_back(Inv.DepsFile);
  }
  for (const std::string &T : Inv.DepsTargets) {
    A.push_back("-MT");
    A.push_back(T);
  }
  if (Inv.Keep)
    A.push_back("--keep");
  if (!Inv.KeepDir.empty()) {
    A.push_back("--keep-dir");
    A.push_back(Inv.KeepDir);
  }
  if (Inv.Phase == Phase::DeviceLink) {
    // Device libraries (-lfoo with device code) are nvlink's to find; the
    // runtime's own (CMake passes -lcudadevrt -lcudart_static -lrt ...)
    // have no device code here, and the facade's empty libcudadevrt.a
    // would only make nvlink warn.
    std::string Facade = Env.ToolkitFacade + "/lib64";
    for (const std::string &D : Inv.LibDirs)
      if (D != Facade)
        A.push_back("-L" + D);
    for (const std::string &L : Inv.Libs)
      if (L != "cudadevrt" && L != "cudart" && L != "cudart_static" &&
          L != "rt" && L != "pthread" && L != "dl")
        A.push_back("-l" + L);
  }
  if (!Inv.InputLanguage.empty()) {
    A.push_back("-x");
    A.push_back(Inv.InputLanguage);
  }
  if (!Inv.Output.empty()) {
    A.push_back("-o");
    A.push_back(Inv.Output);
  } else if (!Inv.OutputDir.empty()) {
    A.push_back("-odir");
    A.push_back(Inv.OutputDir);
  }
  for (const Input &I : Inv.Inputs)
    A.push_back(I.Path);
  return A;
}

/// The host compiler nvcc would link with: -ccbin (a compiler, or the
/// directory holding one), else g++.
std::string hostCompiler(const Invocation &Inv) {
  if (Inv.HostCompiler.empty())
    return "g++";
  if (isDirectory(Inv.HostCompiler))
    return Inv.HostCompiler + "/g++";
  return Inv.HostCompiler;
}

/// Linking, as nvcc itself does it: sources compiled first (-dc with
/// relocatable device code), the device link by nvcc when -rdc, then the
/// host compiler links everything against cuhip's runtime. The host link is
/// the last command and carries the facade's "-L" verbatim, so CMake's
/// compiler identification reads the host link launcher and the implicit
/// link directories from it as it does from nvcc's own -v output.
int linkWithToolkitNvcc(const Invocation &Inv, const Environment &Env,
                        Runner &R, const std::string &Nvcc) {
  std::vector<std::string> Objects;
  unsigned Counter = 0;
  for (const Input &I : Inv.Inputs) {
    if (!isCompileSource(I.Kind)) {
      if (I.Kind == InputKind::Object || I.Kind == InputKind::Archive ||
          I.Kind == InputKind::SharedLib)
        Objects.push_back(I.Path);
      continue;
    }
    Invocation One = Inv;
    One.Phase = Inv.Rdc ? Phase::DeviceCompile : Phase::Compile;
    One.Inputs = {I};
    One.Output = Env.TempDir + "/" + std::to_string(Counter++) + "_" +
                 replaceSuffix(I.Path, ".o");
    if (int S = R.run(nvccCommand(One, Env, Nvcc)))
      return S;
    Objects.push_back(One.Output);
  }
  std::vector<std::string> A{hostCompiler(Inv)};
  if (Inv.Rdc) {
    Invocation Dlink = Inv;
    Dlink.Phase = Phase::DeviceLink;
    Dlink.Inputs.clear();
    for (const std::string &O : Objects)
      Dlink.Inputs.push_back({O, O.size() > 2 && O.substr(O.size() - 2) == ".a"
                                     ? InputKind::Archive
                                     : InputKind::Object});
    Dlink.Output = Env.TempDir + "/device_link.o";
    if (int S = R.run(nvccCommand(Dlink, Env, Nvcc)))
      return S;
    Objects.insert(Objects.begin(), Dlink.Output);
  }
  if (Inv.Shared)
    A.push_back("-shared");
  if (Inv.HostDebug)
    A.push_back("-g");
  for (const std::string &F : Inv.HostCompilerFlags)
    A.push_back(F);
  A.push_back("-Wl,--start-group");
  A.insert(A.end(), Objects.begin(), Objects.end());
  bool HaveFacade;
  std::string LinkDir = cuhipLinkDir(Env, HaveFacade);
  A.push_back("-L" + LinkDir);
  for (const std::string &D : Inv.LibDirs)
    A.push_back("-L" + D);
  for (const std::string &F : Inv.LinkerFlags) {
    A.push_back("-Xlinker");
    A.push_back(F);
  }
  if (HaveFacade) {
    // nvcc's own runtime libraries by nvcc's names, which the facade makes
    // cuhip's (CMake reads which flavour is the default from them).
    A.push_back("-lcudadevrt");
    if (Inv.Cudart != "none")
      A.push_back(Inv.Cudart == "shared" ? "-lcudart" : "-lcudart_static");
  }
  for (std::string &L : userLibs(Inv, HaveFacade))
    if (L != "-lcudadevrt")
      A.push_back(std::move(L));
  // cuhip's registration code lives in libcudart: -cudart none still needs
  // it, and without the facade name the versioned file itself.
  if (!HaveFacade || Inv.Cudart == "none")
    A.push_back(HaveFacade ? "-lcudart" : "-l:libcudart.so.13");
  A.insert(A.end(), {"-lrt", "-lpthread", "-ldl", "-Wl,--end-group",
                     "-Wl,-rpath," + Env.CuhipLibDir, "-o",
                     Inv.Output.empty() ? "a.out" : Inv.Output});
  return R.run(A);
}

int runToolkitNvcc(const Invocation &Inv, const Environment &Env, Runner &R,
                   const std::string &Nvcc) {
  if (Inv.Phase == Phase::Link || Inv.Phase == Phase::DeviceLink)
    noteRuntime(Inv, R);
  for (const std::string &F : Inv.PtxasFlags)
    explain(R, "-Xptxas " + F + " is not passed on: cuhip compiles the PTX "
                                "itself when the program runs");
  // The toolkit's nvcc never starts cuhip; if it does (a toolkit path that
  // leads back to the facade), the child sees this and stops.
  // nvcc writes into -odir but does not create it.
  if (!Inv.OutputDir.empty() && !R.dryRun())
    mkdir(Inv.OutputDir.c_str(), 0777);
  setenv(ToolkitChildVariable, "1", 1);
  int Status = Inv.Phase == Phase::Link ? linkWithToolkitNvcc(Inv, Env, R, Nvcc)
                                        : R.run(nvccCommand(Inv, Env, Nvcc));
  unsetenv(ToolkitChildVariable);
  return Status;
}

//===----------------------------------------------------------------------===//
// Clang's CUDA mode
//===----------------------------------------------------------------------===//

class ClangCuda {
public:
  ClangCuda(const Invocation &Inv, const Environment &Env, Runner &R)
      : Inv(Inv), Env(Env), R(R) {}
  int run();

private:
  const Invocation &Inv;
  const Environment &Env;
  Runner &R;
  unsigned TempCounter = 0;

  std::string temp(const std::string &Source, const std::string &Suffix) {
    return Env.TempDir + "/" + std::to_string(TempCounter++) + "_" +
           replaceSuffix(Source, Suffix);
  }
  /// The virtual architectures to emit PTX for, as clang's sm_XX names;
  /// nvcc's default is compute_75.
  std::vector<std::string> virtualArchs() const;
  std::vector<std::string> common(const Input &I, bool Device) const;
  int devicePtx(const Input &I, const std::string &Arch,
                const std::string &Out);
  int fatbin(const Input &I, const std::string &Out);
  int compileObject(const Input &I, const std::string &Out);
  int compileEach(std::vector<std::string> &Objects);
};

std::vector<std::string> ClangCuda::virtualArchs() const {
  std::vector<std::string> Archs;
  std::set<std::string> Seen;
  for (const GpuCode &G : Inv.GpuCodes) {
    std::string V = G.Virtual;
    if (V.rfind("compute_", 0) == 0)
      V = "sm_" + V.substr(8);
    if (Seen.insert(V).second)
      Archs.push_back(V);
  }
  if (Archs.empty())
    Archs.push_back("sm_75");
  return Archs;
}

/// Flags both halves of a CUDA compile (and a plain C/C++ compile) share.
std::vector<std::string> ClangCuda::common(const Input &I, bool Device) const {
  std::vector<std::string> A{Env.Clang};
  if (I.Kind == InputKind::Cuda) {
    A.insert(A.end(), {"-x", "cuda", "--cuda-path=" + Env.CudaPath,
                       // Clang knows CUDA 12.9's headers; 13's work for
                       // what it compiles, and the warning is noise.
                       "-Wno-unknown-cuda-version"});
  } else if (I.Kind == InputKind::C) {
    A.insert(A.end(), {"-x", "c"});
  } else {
    A.insert(A.end(), {"-x", "c++"});
  }
  for (const std::string &D : Inv.IncludeDirs)
    A.push_back("-I" + D);
  for (const std::string &D : Inv.SystemIncludeDirs) {
    A.push_back("-isystem");
    A.push_back(D);
  }
  // As nvcc does: the toolkit's headers, and CCCL's (<cuda/std/...>, which
  // cooperative_groups.h uses) as system headers; clang adds the first
  // itself for CUDA.
  if (I.Kind != InputKind::Cuda)
    A.push_back("-I" + Env.CudaPath + "/include");
  A.insert(A.end(), {"-isystem", Env.CudaPath + "/include/cccl"});
  for (const std::string &F : Inv.PreIncludes) {
    A.push_back("-include");
    A.push_back(F);
  }
  for (const std::string &D : Inv.Defines)
    A.push_back(D);
  if (I.Kind != InputKind::C)
    A.push_back("-std=" + (Inv.Std.empty() ? std::string("c++17") : Inv.Std));
  if (Device) {
    // nvcc optimises device code at -O3 unless told otherwise.
    A.push_back(Inv.OptLevel.empty() ? std::string("-O3") : Inv.OptLevel);
    if (Inv.ftz())
      A.push_back("-fgpu-flush-denormals-to-zero");
    if (Inv.FastMath)
      A.push_back("-fgpu-approx-transcendentals");
    if (!Inv.fmad())
      A.push_back("-ffp-contract=off");
  } else {
    if (!Inv.OptLevel.empty())
      A.push_back(Inv.OptLevel);
    if (Inv.HostDebug)
      A.push_back("-g");
    bool PicGiven = false;
    for (const std::string &F : Inv.HostCompilerFlags) {
      PicGiven |= F == "-fPIC";
      A.push_back(F);
    }
    if ((Inv.Pic || Inv.Shared) && !PicGiven)
      A.push_back("-fPIC");
  }
  return A;
}

int ClangCuda::devicePtx(const Input &I, const std::string &Arch,
                         const std::string &Out) {
  std::vector<std::string> A = common(I, /*Device=*/true);
  A.insert(A.end(), {"--cuda-device-only", "--cuda-gpu-arch=" + Arch, "-S",
                     "-o", Out, I.Path});
  return R.run(A);
}

int ClangCuda::fatbin(const Input &I, const std::string &Out) {
  std::vector<cuhip::fatbin::PtxImage> Images;
  std::vector<std::string> PtxFiles;
  for (const std::string &Arch : virtualArchs()) {
    std::string Ptx = temp(I.Path, "." + Arch + ".ptx");
    if (int S = devicePtx(I, Arch, Ptx))
      return S;
    PtxFiles.push_back(Ptx);
    cuhip::fatbin::PtxImage Image;
    Image.Sm = static_cast<uint32_t>(std::atoi(Arch.c_str() + 3));
    Images.push_back(Image);
  }
  // Printed as nvcc prints its fatbinary step; done in this process.
  std::string Line = "cuhip-fatbin --create=" + Out;
  for (size_t K = 0; K < PtxFiles.size(); ++K)
    Line += " --image=sm=" + std::to_string(Images[K].Sm) +
            ",file=" + PtxFiles[K];
  if (R.verbose() || R.dryRun())
    std::fprintf(stderr, "#$ %s\n", Line.c_str());
  if (R.dryRun())
    return 0;
  for (size_t K = 0; K < PtxFiles.size(); ++K) {
    std::ifstream In(PtxFiles[K], std::ios::binary);
    if (!In) {
      error("cannot read '" + PtxFiles[K] + "', the PTX clang wrote for '" +
            I.Path + "'");
      return 1;
    }
    Images[K].Ptx.assign(std::istreambuf_iterator<char>(In),
                         std::istreambuf_iterator<char>());
  }
  std::vector<uint8_t> Bytes = cuhip::fatbin::writePtxContainer(Images);
  std::ofstream OutFile(Out, std::ios::binary | std::ios::trunc);
  OutFile.write(reinterpret_cast<const char *>(Bytes.data()),
                static_cast<std::streamsize>(Bytes.size()));
  if (!OutFile.flush()) {
    error("cannot write the fatbin '" + Out +
          "'; check that its directory exists and is writable");
    return 1;
  }
  return 0;
}

int ClangCuda::compileObject(const Input &I, const std::string &Out) {
  std::vector<std::string> A;
  if (I.Kind == InputKind::Cuda) {
    std::string Fatbin = temp(I.Path, ".fatbin");
    if (int S = fatbin(I, Fatbin))
      return S;
    A = common(I, /*Device=*/false);
    A.insert(A.end(), {"--cuda-host-only", "-Xclang",
                       "-fcuda-include-gpubinary", "-Xclang", Fatbin});
  } else {
    A = common(I, /*Device=*/false);
  }
  if (Inv.DepsMD)
    A.push_back("-MD");
  if (Inv.DepsMMD)
    A.push_back("-MMD");
  if (Inv.DepsMD || Inv.DepsMMD) {
    if (Inv.DepsMP)
      A.push_back("-MP");
    if (!Inv.DepsFile.empty())
      A.insert(A.end(), {"-MF", Inv.DepsFile});
    for (const std::string &T : Inv.DepsTargets)
      A.insert(A.end(), {"-MT", T});
  }
  A.insert(A.end(), {"-c", "-o", Out, I.Path});
  return R.run(A);
}

/// Compiles every source input to an object (in the temporary directory
/// unless this is -c); objects and libraries given as inputs are kept.
int ClangCuda::compileEach(std::vector<std::string> &Objects) {
  for (const Input &I : Inv.Inputs) {
    if (!isCompileSource(I.Kind)) {
      Objects.push_back(I.Path);
      continue;
    }
    std::string Out = temp(I.Path, ".o");
    if (int S = compileObject(I, Out))
      return S;
    Objects.push_back(Out);
  }
  return 0;
}

int ClangCuda::run() {
  if (Inv.Rdc || Inv.Phase == Phase::DeviceCompile ||
      Inv.Phase == Phase::DeviceLink) {
    error("relocatable device code (-rdc=true, -dc, -dlink) needs the CUDA "
          "toolkit's nvcc to link device code, and the clang device compiler "
          "cannot provide it; install the CUDA toolkit (nvcc at '" +
          Env.CudaPath + "/bin/nvcc') and use --cuhip-device-compiler=nvcc");
    return 1;
  }
  if (!Inv.HostCompiler.empty())
    explain(R, "-ccbin " + Inv.HostCompiler +
                   " is not used: clang compiles the host code in clang mode");
  if (Inv.DeviceDebug || Inv.LineInfo)
    explain(R, "-G and -lineinfo add no device debug information in clang "
               "mode");
  if (!Inv.precDiv() || !Inv.precSqrt())
    explain(R, "--prec-div/--prec-sqrt=false (or --use_fast_math) do not "
               "apply in clang mode: division and square root stay "
               "correctly rounded");
  for (const std::string &F : Inv.PtxasFlags)
    explain(R, "-Xptxas " + F + " is not passed on: cuhip compiles the PTX "
                                "itself when the program runs");

  // The single-output phases.
  bool SingleOutputPhase = Inv.Phase != Phase::Link && Inv.Phase != Phase::Lib;
  if (SingleOutputPhase && !Inv.Output.empty() && Inv.Inputs.size() > 1) {
    error("-o " + Inv.Output + " names one output, but " +
          std::to_string(Inv.Inputs.size()) +
          " inputs were given; compile them one at a time");
    return 1;
  }
  switch (Inv.Phase) {
  case Phase::Compile:
    for (const Input &I : Inv.Inputs) {
      if (!isCompileSource(I.Kind)) {
        error("'" + I.Path + "' is not a source file; -c compiles .cu, .cpp "
                             "and .c files");
        return 1;
      }
      std::string Out = Inv.Output;
      if (Out.empty())
        Out = (Inv.OutputDir.empty() ? "" : Inv.OutputDir + "/") +
              replaceSuffix(I.Path, ".o");
      if (int S = compileObject(I, Out))
        return S;
    }
    return 0;
  case Phase::Ptx:
  case Phase::Fatbin: {
    bool Ptx = Inv.Phase == Phase::Ptx;
    if (Ptx && virtualArchs().size() > 1) {
      error("-ptx writes PTX for one architecture, but several were given; "
            "give one -arch or -gencode");
      return 1;
    }
    for (const Input &I : Inv.Inputs) {
      if (I.Kind != InputKind::Cuda) {
        error("'" + I.Path + "' is not a CUDA source; " +
              (Ptx ? "-ptx" : "-fatbin") + " compiles .cu files");
        return 1;
      }
      std::string Out = Inv.Output.empty()
                            ? replaceSuffix(I.Path, Ptx ? ".ptx" : ".fatbin")
                            : Inv.Output;
      int S = Ptx ? devicePtx(I, virtualArchs().front(), Out) : fatbin(I, Out);
      if (S)
        return S;
    }
    return 0;
  }
  case Phase::Preprocess:
  case Phase::DepsOnly:
    for (const Input &I : Inv.Inputs) {
      std::vector<std::string> A = common(I, /*Device=*/false);
      if (I.Kind == InputKind::Cuda)
        A.push_back("--cuda-host-only");
      if (Inv.Phase == Phase::Preprocess) {
        A.push_back("-E");
      } else {
        A.push_back(Inv.DepsMM ? "-MM" : "-M");
        if (Inv.DepsMP)
          A.push_back("-MP");
        if (!Inv.DepsFile.empty())
          A.insert(A.end(), {"-MF", Inv.DepsFile});
        for (const std::string &T : Inv.DepsTargets)
          A.insert(A.end(), {"-MT", T});
      }
      if (!Inv.Output.empty())
        A.insert(A.end(), {"-o", Inv.Output});
      A.push_back(I.Path);
      if (int S = R.run(A))
        return S;
    }
    return 0;
  case Phase::Lib: {
    std::vector<std::string> Objects;
    if (int S = compileEach(Objects))
      return S;
    std::string Out = Inv.Output.empty() ? "a.a" : Inv.Output;
    // `ar` replaces members, so a stale library would keep old objects.
    if (!R.dryRun())
      std::remove(Out.c_str());
    std::vector<std::string> A{"ar", "rcs", Out};
    A.insert(A.end(), Objects.begin(), Objects.end());
    return R.run(A);
  }
  case Phase::Link: {
    std::vector<std::string> Objects;
    if (int S = compileEach(Objects))
      return S;
    noteRuntime(Inv, R);
    std::vector<std::string> A{Env.Clang};
    if (Inv.Shared)
      A.push_back("-shared");
    if (Inv.HostDebug)
      A.push_back("-g");
    A.insert(A.end(), {"-o", Inv.Output.empty() ? "a.out" : Inv.Output});
    A.insert(A.end(), Objects.begin(), Objects.end());
    appendLinkTail(A, Inv, Env, /*ClangDriver=*/true);
    return R.run(A);
  }
  case Phase::DeviceCompile:
  case Phase::DeviceLink:
  case Phase::Cubin:
    break;
  }
  return 1;
}

} // namespace

int runCpu(const Invocation &Inv, const Environment &Env, Runner &R) {
  if (std::getenv(ToolkitChildVariable)) {
    error("this cuhip nvcc was started by the CUDA toolkit's nvcc that cuhip "
          "runs in CPU mode, so '" + Env.CudaPath +
          "/bin/nvcc' leads back to cuhip; point CUDA_PATH at the real CUDA "
          "toolkit (" + std::string(ToolkitChildVariable) + " is set)");
    return 1;
  }
  if (Inv.Phase == Phase::Cubin) {
    error("-cubin asks for NVIDIA machine code (SASS), which cuhip cannot "
          "run; use -ptx or -fatbin");
    return 1;
  }
  if (Inv.DeviceCompiler != "auto" && Inv.DeviceCompiler != "nvcc" &&
      Inv.DeviceCompiler != "clang") {
    error("--cuhip-device-compiler=" + Inv.DeviceCompiler +
          " is not a device compiler; use nvcc, clang or auto");
    return 1;
  }

  std::string Nvcc = Env.CudaPath + "/bin/nvcc";
  bool HaveNvcc = !Env.CudaPath.empty() && isExecutableFile(Nvcc);
  if (HaveNvcc && !isElfFile(Nvcc)) {
    // A script: most likely cuhip's own facade (CUDA_PATH pointing at
    // lib/cuhip/cuda-cpu), which would run this driver again.
    if (Inv.DeviceCompiler == "nvcc") {
      error("'" + Nvcc + "' is a script, not the CUDA toolkit's nvcc (is "
            "CUDA_PATH cuhip's toolkit facade?); point CUDA_PATH at the real "
            "CUDA toolkit");
      return 1;
    }
    explain(R, "'" + Nvcc + "' is a script, not the toolkit's nvcc; "
                            "compiling device code with clang");
    HaveNvcc = false;
  }
  if (Inv.DeviceCompiler == "nvcc" && !HaveNvcc) {
    error("--cuhip-device-compiler=nvcc, but there is no nvcc at '" + Nvcc +
          "'; install the CUDA toolkit there, set CUDA_PATH to it, or use "
          "--cuhip-device-compiler=clang");
    return 1;
  }
  if (Inv.DeviceCompiler == "clang" || !HaveNvcc)
    return ClangCuda(Inv, Env, R).run();
  return runToolkitNvcc(Inv, Env, R, Nvcc);
}

} // namespace cuhip::nvcc
