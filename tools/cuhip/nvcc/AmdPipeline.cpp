//===- AmdPipeline.cpp - cuhip nvcc's AMD mode ----------------------------===//
//
// AMD mode carries an nvcc command line out with the source translator and
// Clang's HIP mode:
//
//  1. each .cu (and .cpp/.cc/.cxx: nvcc compiles those as host C++, but they
//     may call the CUDA runtime) is translated, with every non-system header
//     it includes, into a mirror of the file system under the scratch
//     directory (TempDir/src/<absolute path>), with #line markers so Clang
//     reports the user's file names and lines;
//  2. the translation is compiled by Clang as HIP for every AMD target, with
//     the nvcc prelude pre-included (cuhip_nvcc_amd.h) and the ROCm device
//     libraries (plus generated isa-version files ROCm 5.2 lacks,
//     DeviceLibs.cpp);
//  3. relocatable device code (-rdc/-dc) is linked here, not by Clang's
//     driver: the device parts of every object and archive member are
//     unbundled, linked per target by lld, bundled into one fatbin and
//     wrapped in an object that defines the __hip_fatbin_<cuid> and
//     __hip_gpubin_handle_<cuid> symbols the host objects reference. -dlink
//     writes that object (CMake's cmake_device_link.o); the link phase makes
//     it when the objects need one and links with libamdhip64.
//
//===----------------------------------------------------------------------===//
#include "AmdPipeline.h"
#include "Nvcc.h"

#include "cuhip/translate/Translate.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <map>
#include <set>

namespace cuhip::nvcc {
namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

int fail(const std::string &Msg) {
  std::fprintf(stderr, "cuhip nvcc: error: %s\n", Msg.c_str());
  return 1;
}

std::string absolute(const std::string &P) {
  llvm::SmallString<256> S(P);
  fs::make_absolute(S);
  path::remove_dots(S, true);
  return std::string(S);
}

std::string stem(const std::string &P) { return std::string(path::stem(P)); }

bool isSource(const Input &In) {
  return In.Kind == InputKind::Cuda || In.Kind == InputKind::Cxx ||
         In.Kind == InputKind::C;
}

/// The LLVM tool next to the Clang AMD mode compiles with.
std::string llvmTool(const Environment &Env, const char *Name) {
  llvm::SmallString<256> P(path::parent_path(Env.Clang));
  path::append(P, Name);
  return std::string(P);
}

struct Pipeline {
  const Invocation &Inv;
  const Environment &Env;
  Runner &R;
  std::vector<std::string> Archs;
  std::string DeviceLibs;
  std::string Mirror; // TempDir/src: translations by absolute path
  unsigned Counter = 0;

  Pipeline(const Invocation &Inv, const Environment &Env, Runner &R)
      : Inv(Inv), Env(Env), R(R), Mirror(Env.TempDir + "/src") {}

  std::string temp(const std::string &Name) {
    return Env.TempDir + "/" + std::to_string(Counter++) + "-" + Name;
  }

  std::string mirrorOf(const std::string &Abs) { return Mirror + Abs; }

  /// A scratch object for a source, named as nvcc names it (stem.o) so a
  /// -lib archive's members carry the sources' names.
  std::string objectFor(const Input &In) {
    std::string Dir = temp("obj");
    if (!R.dryRun())
      fs::create_directories(Dir);
    return Dir + "/" + stem(In.Path) + ".o";
  }

  /// The flags the translator parses with and Clang compiles with that
  /// come from the user: defines, include directories, pre-includes, -std.
  std::vector<std::string> preprocessorFlags(bool Translated) {
    std::vector<std::string> F;
    for (const std::string &D : Inv.Defines)
      F.push_back(D);
    for (const std::string &I : Inv.IncludeDirs) {
      // Translated headers first, the originals (for what was not
      // translated, e.g. files that are not headers) after.
      if (Translated)
        F.push_back("-I" + mirrorOf(absolute(I)));
      F.push_back("-I" + I);
    }
    for (const std::string &I : Inv.SystemIncludeDirs) {
      F.push_back("-isystem");
      F.push_back(I);
    }
    for (const std::string &P : Inv.PreIncludes) {
      std::string M = mirrorOf(absolute(P));
      F.push_back("-include");
      F.push_back(Translated && fs::exists(M) ? M : P);
    }
    if (!Inv.Std.empty())
      F.push_back("-std=" + Inv.Std);
    return F;
  }

  /// Translates In into the mirror; returns the translation's path.
  bool translate(const Input &In, std::string &Out) {
    std::string Abs = absolute(In.Path);
    Out = mirrorOf(Abs);
    translate::Options Opts;
    Opts.Inputs = {Abs};
    Opts.OutputDir = Mirror;
    Opts.LocalHeaders = true;
    Opts.LocalRoot = "/";
    Opts.LineMarkers = true;
    Opts.CudaPath = Env.CudaPath;
    Opts.ClangArgs = preprocessorFlags(false);
    Opts.Jobs = 1;
    Opts.Progress = 0;
    Opts.UsePch = false;
    // Clang reports the parse errors itself when it compiles the file.
    Opts.QuietParseErrors = true;
    Opts.QuietWarnings = Inv.NoWarnings;
    std::vector<std::string> Shown = {Env.CuhipBinDir + "/cuhip", "translate",
                                      Abs,       "--local-headers",
                                      "--local-root=/", "--line-markers",
                                      "--o-dir", Mirror, "--"};
    Shown.insert(Shown.end(), Opts.ClangArgs.begin(), Opts.ClangArgs.end());
    std::string Line;
    for (const std::string &S : Shown)
      Line += (Line.empty() ? "" : " ") + S;
    R.note(Line);
    if (R.dryRun())
      return true;
    if (translate::translateFiles(Opts) != 0) {
      fail("translating " + In.Path +
           " failed (the messages above say where); fix the file, or "
           "compile it with --cuhip-backend=cpu");
      return false;
    }
    if (!fs::exists(Out)) {
      fail("the translation of " + In.Path + " was not written to " + Out);
      return false;
    }
    return true;
  }

  /// Clang's flags for HIP code generation, without inputs and outputs.
  std::vector<std::string> hipFlags(const Input &In, bool HostOnly) {
    std::vector<std::string> F = {Env.Clang};
    if (In.Kind == InputKind::C) {
      F.push_back("-x");
      F.push_back("c");
    } else {
      F.insert(F.end(), {"-x", "hip", "--hip-path=" + Env.HipPath,
                         "-mcode-object-version=5",
                         "--rocm-device-lib-path=" + DeviceLibs});
      if (HostOnly) {
        F.push_back("--offload-host-only");
      } else {
        for (const std::string &A : Archs)
          F.push_back("--offload-arch=" + A);
      }
      if (Inv.Rdc)
        F.push_back("-fgpu-rdc");
      F.push_back("-include");
      F.push_back(Env.CuhipIncludeDir + "/cuhip_nvcc_amd.h");
      std::string V = cudaVersion(Env);
      unsigned Major = 0, Minor = 0, Build = 0;
      std::sscanf(V.c_str(), "%u.%u.%u", &Major, &Minor, &Build);
      F.push_back("-D__CUDACC_VER_MAJOR__=" + std::to_string(Major));
      F.push_back("-D__CUDACC_VER_MINOR__=" + std::to_string(Minor));
      F.push_back("-D__CUDACC_VER_BUILD__=" + std::to_string(Build));
      // CUDA code ignores the status of cudaMalloc & co.; HIP marks
      // hipError_t [[nodiscard]]. nvcc says nothing there, nor do we.
      F.push_back("-Wno-unused-result");
      F.push_back("-Wno-unused-value");
      // nvcc's math modes, device code only: --ftz flushes denormals,
      // --prec-div/--prec-sqrt=false approximate division and square root
      // (one switch in Clang), --fmad=false forbids contraction, and
      // --use_fast_math also approximates the transcendentals.
      if (Inv.ftz())
        F.push_back("-fgpu-flush-denormals-to-zero");
      if (!Inv.precDiv() || !Inv.precSqrt())
        F.push_back("-fno-hip-fp32-correctly-rounded-divide-sqrt");
      if (!Inv.fmad())
        F.push_back("-ffp-contract=off");
      if (Inv.FastMath)
        F.push_back("-fgpu-approx-transcendentals");
    }
    // nvcc optimises device code at -O3 unless told otherwise; -G turns
    // device optimisation off.
    if (!Inv.OptLevel.empty())
      F.push_back(Inv.OptLevel);
    else
      F.push_back(Inv.DeviceDebug ? "-O0" : "-O3");
    if (Inv.HostDebug || Inv.DeviceDebug)
      F.push_back("-g");
    else if (Inv.LineInfo)
      F.push_back("-gline-tables-only");
    if (Inv.Pic || Inv.Shared)
      F.push_back("-fPIC");
    if (Inv.NoWarnings)
      F.push_back("-w");
    if (Inv.WarningsAsErrors)
      F.push_back("-Werror");
    std::vector<std::string> P = preprocessorFlags(In.Kind != InputKind::C);
    F.insert(F.end(), P.begin(), P.end());
    // Quoted includes of the original directory, for what is not mirrored.
    F.push_back("-iquote");
    F.push_back(std::string(path::parent_path(absolute(In.Path))));
    F.insert(F.end(), Inv.HostCompilerFlags.begin(),
             Inv.HostCompilerFlags.end());
    return F;
  }

  /// The dependency file's path for an object Obj (nvcc's and gcc's rule:
  /// -MF, else the object with .d).
  std::string depsPathFor(const std::string &Obj) {
    if (!Inv.DepsFile.empty())
      return Inv.DepsFile;
    llvm::SmallString<256> P(Obj);
    path::replace_extension(P, ".d");
    return std::string(P);
  }

  /// Copies the dependency file Tmp to Dest with mirror paths turned back
  /// into the user's.
  bool rewriteDeps(const std::string &Tmp, const std::string &Dest) {
    if (R.dryRun())
      return true;
    auto Buf = llvm::MemoryBuffer::getFile(Tmp);
    if (!Buf) {
      fail("Clang wrote no dependency file " + Tmp);
      return false;
    }
    std::string Text = (*Buf)->getBuffer().str(), Out;
    for (size_t I = 0; I < Text.size();) {
      if (Text.compare(I, Mirror.size(), Mirror) == 0 &&
          I + Mirror.size() < Text.size() && Text[I + Mirror.size()] == '/') {
        I += Mirror.size();
        continue;
      }
      Out += Text[I++];
    }
    if (Dest == "-") {
      std::fwrite(Out.data(), 1, Out.size(), stdout);
      return true;
    }
    std::error_code EC;
    llvm::raw_fd_ostream OS(Dest, EC);
    if (EC) {
      fail("cannot write the dependency file " + Dest + ": " + EC.message());
      return false;
    }
    OS << Out;
    return true;
  }

  void addDepsFlags(std::vector<std::string> &Cmd, const std::string &TmpDeps,
                    bool Only) {
    if (Only)
      Cmd.push_back(Inv.DepsMM ? "-MM" : "-M");
    else
      Cmd.push_back(Inv.DepsMMD ? "-MMD" : "-MD");
    Cmd.push_back("-MF");
    Cmd.push_back(TmpDeps);
    for (const std::string &T : Inv.DepsTargets) {
      Cmd.push_back("-MT");
      Cmd.push_back(T);
    }
    if (Inv.DepsMP)
      Cmd.push_back("-MP");
  }

  /// Compiles one source to Obj (Phase Compile/DeviceCompile/Link).
  int compile(const Input &In, const std::string &Obj) {
    std::string Src = In.Path;
    if (In.Kind != InputKind::C && !translate(In, Src))
      return 1;
    // A C++ file has no device code: compile its host side only.
    bool HostOnly = In.Kind == InputKind::Cxx;
    std::vector<std::string> Cmd = hipFlags(In, HostOnly);
    bool Deps = Inv.DepsMD || Inv.DepsMMD;
    std::string TmpDeps = temp(stem(In.Path) + ".d");
    if (Deps) {
      addDepsFlags(Cmd, TmpDeps, false);
      if (Inv.DepsTargets.empty()) {
        Cmd.push_back("-MT");
        Cmd.push_back(Obj);
      }
    }
    Cmd.insert(Cmd.end(), {"-c", Src, "-o", Obj});
    if (int RC = R.run(Cmd))
      return compileFailed(In, RC);
    if (Deps && !rewriteDeps(TmpDeps, depsPathFor(Obj)))
      return 1;
    return 0;
  }

  int compileFailed(const Input &In, int RC) {
    fail("compiling " + In.Path + " for " + archList() +
         " failed (exit status " + std::to_string(RC) +
         "); the compiler's messages above point into your sources");
    return 1;
  }

  std::string archList() {
    std::string S;
    for (const std::string &A : Archs)
      S += (S.empty() ? "" : ",") + A;
    return S;
  }

  /// -E / -M / -MM: one source, to -o or stdout.
  int preprocess(const Input &In, bool DepsOnly) {
    std::string Src = In.Path;
    if (In.Kind != InputKind::C && !translate(In, Src))
      return 1;
    std::vector<std::string> Cmd = hipFlags(In, /*HostOnly=*/true);
    if (DepsOnly) {
      std::string TmpDeps = temp(stem(In.Path) + ".d");
      addDepsFlags(Cmd, TmpDeps, true);
      if (Inv.DepsTargets.empty()) {
        Cmd.push_back("-MT");
        Cmd.push_back(stem(In.Path) + ".o");
      }
      Cmd.insert(Cmd.end(), {"-E", Src, "-o", "/dev/null"});
      if (int RC = R.run(Cmd))
        return compileFailed(In, RC);
      std::string Dest = !Inv.DepsFile.empty() ? Inv.DepsFile
                         : !Inv.Output.empty() ? Inv.Output
                                               : "-";
      return rewriteDeps(TmpDeps, Dest) ? 0 : 1;
    }
    Cmd.insert(Cmd.end(), {"-E", Src});
    if (!Inv.Output.empty()) {
      Cmd.push_back("-o");
      Cmd.push_back(Inv.Output);
    }
    if (int RC = R.run(Cmd))
      return compileFailed(In, RC);
    return 0;
  }

  // --- device linking ---------------------------------------------------

  /// The objects of Inputs (archive members extracted into the scratch
  /// directory) and the cuids whose fatbin no input defines.
  bool collectRdc(const std::vector<std::string> &Files,
                  std::vector<std::string> &Objects,
                  std::vector<std::string> &Cuids) {
    std::set<std::string> Defined, Wanted;
    std::vector<std::string> Order;
    auto Scan = [&](llvm::object::ObjectFile &O, const std::string &File) {
      // Device code is in an offload bundle section; a file with only
      // __device__ functions (no kernels) has one but registers nothing.
      bool HasDevice = false;
      for (const llvm::object::SectionRef &Sec : O.sections())
        if (auto Name = Sec.getName();
            Name && Name->starts_with("__CLANG_OFFLOAD_BUNDLE__hip"))
          HasDevice = true;
      for (const llvm::object::SymbolRef &S : O.symbols()) {
        auto Name = S.getName();
        auto Flags = S.getFlags();
        if (!Name || !Flags)
          continue;
        bool Undef = *Flags & llvm::object::SymbolRef::SF_Undefined;
        if (Name->starts_with("__hip_fatbin_")) {
          std::string Cuid = Name->drop_front(13).str();
          if (Undef) {
            HasDevice = true;
            if (Wanted.insert(Cuid).second)
              Order.push_back(Cuid);
          } else {
            Defined.insert(Cuid);
          }
        }
      }
      if (HasDevice)
        Objects.push_back(File);
    };
    for (const std::string &F : Files) {
      auto Buf = llvm::MemoryBuffer::getFile(F);
      if (!Buf) {
        fail("cannot read " + F + ": " + Buf.getError().message());
        return false;
      }
      auto Bin = llvm::object::createBinary((*Buf)->getMemBufferRef());
      if (!Bin) {
        llvm::consumeError(Bin.takeError());
        continue; // a linker script or another file the linker reads
      }
      if (auto *O = llvm::dyn_cast<llvm::object::ObjectFile>(Bin->get())) {
        Scan(*O, F);
      } else if (auto *A = llvm::dyn_cast<llvm::object::Archive>(Bin->get())) {
        llvm::Error Err = llvm::Error::success();
        unsigned Index = 0;
        for (const llvm::object::Archive::Child &C : A->children(Err)) {
          auto MB = C.getMemoryBufferRef();
          if (!MB) {
            llvm::consumeError(MB.takeError());
            continue;
          }
          auto MBin = llvm::object::createBinary(*MB);
          if (!MBin) {
            llvm::consumeError(MBin.takeError());
            continue;
          }
          auto *O = llvm::dyn_cast<llvm::object::ObjectFile>(MBin->get());
          if (!O)
            continue;
          size_t Before = Objects.size();
          Scan(*O, "");
          if (Objects.size() == Before)
            continue;
          // A member with device code: write it out for the bundler.
          std::string Member = temp(stem(F) + "-" + std::to_string(Index++) +
                                    ".o");
          std::error_code EC;
          llvm::raw_fd_ostream OS(Member, EC);
          if (EC) {
            fail("cannot write " + Member + ": " + EC.message());
            return false;
          }
          OS << MB->getBuffer();
          Objects.back() = Member;
        }
        if (Err) {
          fail("cannot read the archive " + F + ": " +
               llvm::toString(std::move(Err)));
          return false;
        }
      }
    }
    for (const std::string &C : Order)
      if (!Defined.count(C))
        Cuids.push_back(C);
    return true;
  }

  /// Writes Out: the device code of Objects linked per target, bundled,
  /// and the symbols for Cuids.
  int deviceLink(const std::vector<std::string> &Objects,
                 const std::vector<std::string> &Cuids,
                 const std::string &Out) {
    std::string Bundler = llvmTool(Env, "clang-offload-bundler");
    std::string Lld = llvmTool(Env, "ld.lld");
    std::string Targets = "-targets=host-x86_64-unknown-linux-gnu";
    std::vector<std::string> BundleInputs = {"-input=/dev/null"};
    for (const std::string &A : Archs) {
      std::vector<std::string> DevObjs;
      for (const std::string &O : Objects) {
        std::string D = temp(stem(O) + "-" + A + ".o");
        if (int RC = R.run({Bundler, "-type=o",
                            "-targets=hip-amdgcn-amd-amdhsa-unknown-" + A,
                            "-input=" + O, "-output=" + D, "-unbundle",
                            "-allow-missing-bundles"}))
          return fail("extracting the " + A + " device code of " + O +
                      " failed (exit status " + std::to_string(RC) +
                      "); was it compiled with -dc (or -rdc=true) for " + A +
                      "?");
        fs::file_status St;
        if (R.dryRun() || (!fs::status(D, St) && St.getSize() > 0))
          DevObjs.push_back(D);
      }
      if (DevObjs.empty() && !R.dryRun())
        return fail("no " + A + " device code in the objects given; compile "
                    "them with -dc for the same targets (--amdgpu-arch=" +
                    archList() + ")");
      std::string Image = temp("device-" + A + ".out");
      std::vector<std::string> Link = {
          Lld, "-m", "elf64_amdgpu", "--no-undefined", "-shared",
          "-plugin-opt=-amdgpu-internalize-symbols",
          "-plugin-opt=mcpu=" + A, "--whole-archive", "-o", Image};
      if (Inv.DeviceDebug || Inv.OptLevel == "-O0")
        Link.push_back("-plugin-opt=O0");
      Link.insert(Link.end(), DevObjs.begin(), DevObjs.end());
      Link.push_back("--no-whole-archive");
      if (int RC = R.run(Link))
        return fail("linking the " + A + " device code failed (exit status " +
                    std::to_string(RC) +
                    "); an undefined symbol above is a __device__ function "
                    "or variable that no object given to -dlink defines");
      Targets += ",hipv4-amdgcn-amd-amdhsa--" + A;
      BundleInputs.push_back("-input=" + Image);
    }
    std::string Fatbin = temp("device.hipfb");
    std::vector<std::string> Bundle = {Bundler, "-type=o", "-bundle-align=4096",
                                       Targets};
    Bundle.insert(Bundle.end(), BundleInputs.begin(), BundleInputs.end());
    Bundle.push_back("-output=" + Fatbin);
    if (int RC = R.run(Bundle))
      return fail("bundling the device code failed (exit status " +
                  std::to_string(RC) + ")");
    // One fatbin and one handle for all translation units: the first
    // module constructor registers it, the others find the handle set.
    std::string Asm = temp("device-link.s");
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(Asm, EC);
      if (EC)
        return fail("cannot write " + Asm + ": " + EC.message());
      OS << "# The device code of cuhip nvcc's device link.\n";
      OS << "  .section .hip_gpubin_handle,\"aw\"\n  .p2align 3\n";
      for (const std::string &C : Cuids)
        OS << "  .globl __hip_gpubin_handle_" << C
           << "\n  .protected __hip_gpubin_handle_" << C
           << "\n  .type __hip_gpubin_handle_" << C << ",@object\n"
           << "__hip_gpubin_handle_" << C << ":\n";
      OS << "  .zero 8\n";
      OS << "  .section .hip_fatbin,\"a\",@progbits\n  .p2align 12\n";
      for (const std::string &C : Cuids)
        OS << "  .globl __hip_fatbin_" << C << "\n  .protected __hip_fatbin_"
           << C << "\n  .type __hip_fatbin_" << C << ",@object\n"
           << "__hip_fatbin_" << C << ":\n";
      OS << "  .incbin \"" << Fatbin << "\"\n";
      OS << "  .section .note.GNU-stack,\"\",@progbits\n";
    }
    std::vector<std::string> As = {Env.Clang, "-c", "-x", "assembler", Asm,
                                   "-o", Out};
    if (int RC = R.run(As))
      return fail("assembling the device-link object " + Out +
                  " failed (exit status " + std::to_string(RC) + ")");
    return 0;
  }

  /// The libraries a -l names: the CUDA runtime's names go to the toolkit
  /// facade (whose lib64 resolves them to HIP), or to libamdhip64 where
  /// there is no facade.
  void addLibs(std::vector<std::string> &Cmd) {
    bool Facade = fs::exists(Env.ToolkitFacade + "/lib64");
    if (Facade)
      Cmd.push_back("-L" + Env.ToolkitFacade + "/lib64");
    for (const std::string &D : Inv.LibDirs)
      Cmd.push_back("-L" + D);
    static const std::set<std::string> CudaRuntime = {
        "cudart", "cudart_static", "cuda", "cudadevrt"};
    for (const std::string &L : Inv.Libs) {
      if (!Facade && CudaRuntime.count(L)) {
        if (L != "cudadevrt")
          Cmd.push_back("-lamdhip64");
        continue;
      }
      Cmd.push_back("-l" + L);
    }
  }

  int link(const std::vector<std::string> &Files) {
    std::vector<std::string> Objects, Cuids;
    if (!R.dryRun() && !collectRdc(Files, Objects, Cuids))
      return 1;
    if (R.dryRun() && Inv.Rdc)
      for (const std::string &F : Files)
        Objects.push_back(F);
    std::vector<std::string> Cmd = {Env.Clang};
    Cmd.insert(Cmd.end(), Files.begin(), Files.end());
    if (!Objects.empty()) {
      std::string DLink = temp("device-link.o");
      if (int RC = deviceLink(Objects, Cuids, DLink))
        return RC;
      Cmd.push_back(DLink);
    }
    if (Inv.Shared)
      Cmd.push_back("-shared");
    if (Inv.Pic || Inv.Shared)
      Cmd.push_back("-fPIC");
    addLibs(Cmd);
    Cmd.push_back("-L" + hipLibDir());
    if (hipLibDir().rfind("/usr/lib", 0) != 0)
      Cmd.push_back("-Wl,-rpath," + hipLibDir());
    Cmd.push_back("-lamdhip64");
    for (const std::string &F : Inv.LinkerFlags)
      Cmd.push_back("-Wl," + F);
    Cmd.insert(Cmd.end(), Inv.HostCompilerFlags.begin(),
               Inv.HostCompilerFlags.end());
    Cmd.push_back("-Qunused-arguments");
    Cmd.push_back("-o");
    Cmd.push_back(Inv.Output.empty() ? "a.out" : Inv.Output);
    if (int RC = R.run(Cmd))
      return fail("linking " + Cmd.back() + " failed (exit status " +
                  std::to_string(RC) + "); see the linker's messages above");
    return 0;
  }

  std::string hipLibDir() {
    for (const std::string &D :
         {Env.HipPath + "/lib", Env.HipPath + "/lib/x86_64-linux-gnu"})
      if (fs::exists(D + "/libamdhip64.so"))
        return D;
    return Env.HipPath + "/lib";
  }

  int run() {
    std::string Err;
    if (!resolveAmdArchs(Inv, Archs, Err))
      return fail(Err);
    bool Compiles = std::any_of(Inv.Inputs.begin(), Inv.Inputs.end(),
                                [](const Input &I) { return isSource(I); });
    bool DLinks = Inv.Phase == Phase::DeviceLink ||
                  (Inv.Phase == Phase::Link && Inv.Rdc);
    if (Compiles || DLinks) {
      if (!prepareDeviceLibs(Archs, DeviceLibs, Err))
        return fail(Err);
      R.note("_CUHIP_DEVICE_LIBS_=" + DeviceLibs);
    }
    enum Phase Ph = Inv.Phase;
    // -M / -MM without -MD: dependencies are all nvcc makes.
    if ((Inv.DepsM || Inv.DepsMM) && !Inv.DepsMD && !Inv.DepsMMD &&
        Ph == Phase::Link)
      Ph = Phase::DepsOnly;
    switch (Ph) {
    case Phase::Preprocess:
    case Phase::DepsOnly:
      for (const Input &In : Inv.Inputs)
        if (isSource(In))
          if (int RC = preprocess(In, Ph == Phase::DepsOnly))
            return RC;
      return 0;
    case Phase::Compile:
    case Phase::DeviceCompile:
      for (const Input &In : Inv.Inputs) {
        if (!isSource(In))
          continue;
        std::string Obj = !Inv.Output.empty() ? Inv.Output
                                              : stem(In.Path) + ".o";
        if (Inv.Output.empty() && !Inv.OutputDir.empty()) {
          if (!R.dryRun())
            if (std::error_code EC = fs::create_directories(Inv.OutputDir))
              return fail("cannot create -odir " + Inv.OutputDir + ": " +
                          EC.message());
          Obj = Inv.OutputDir + "/" + Obj;
        }
        if (int RC = compile(In, Obj))
          return RC;
      }
      return 0;
    case Phase::DeviceLink: {
      std::vector<std::string> Files, Objects, Cuids;
      for (const Input &In : Inv.Inputs)
        if (In.Kind == InputKind::Object || In.Kind == InputKind::Archive)
          Files.push_back(In.Path);
        else if (isSource(In))
          return fail("-dlink links objects; compile " + In.Path +
                      " with -dc first");
      for (const std::string &L : Inv.Libs)
        for (const std::string &D : Inv.LibDirs)
          if (fs::exists(D + "/lib" + L + ".a")) {
            Files.push_back(D + "/lib" + L + ".a");
            break;
          }
      std::string Out = Inv.Output.empty() ? "a_dlink.o" : Inv.Output;
      if (!R.dryRun() && !collectRdc(Files, Objects, Cuids))
        return 1;
      if (R.dryRun())
        Objects = Files;
      if (Objects.empty() && !R.dryRun()) {
        // Nothing to link (no relocatable device code): an empty object,
        // as nvcc writes.
        std::string Asm = temp("empty.s");
        std::error_code EC;
        {
          llvm::raw_fd_ostream OS(Asm, EC);
          OS << "  .section .note.GNU-stack,\"\",@progbits\n";
        }
        return R.run({Env.Clang, "-c", "-x", "assembler", Asm, "-o", Out})
                   ? fail("cannot write " + Out)
                   : 0;
      }
      return deviceLink(Objects, Cuids, Out);
    }
    case Phase::Link: {
      std::vector<std::string> Files;
      for (const Input &In : Inv.Inputs) {
        if (isSource(In)) {
          std::string Obj = temp(stem(In.Path) + ".o");
          if (int RC = compile(In, Obj))
            return RC;
          Files.push_back(Obj);
        } else {
          Files.push_back(In.Path);
        }
      }
      return link(Files);
    }
    case Phase::Lib: {
      std::vector<std::string> Files;
      for (const Input &In : Inv.Inputs) {
        if (isSource(In)) {
          std::string Obj = objectFor(In);
          if (int RC = compile(In, Obj))
            return RC;
          Files.push_back(Obj);
        } else {
          Files.push_back(In.Path);
        }
      }
      std::string Out = Inv.Output.empty() ? "a.a" : Inv.Output;
      // `ar r` keeps the members it does not replace: start afresh, as
      // nvcc -lib does.
      if (!R.dryRun())
        fs::remove(Out);
      std::vector<std::string> Ar = {llvmTool(Env, "llvm-ar"), "rcs", Out};
      Ar.insert(Ar.end(), Files.begin(), Files.end());
      if (int RC = R.run(Ar))
        return fail("writing the library " + Out + " failed (exit status " +
                    std::to_string(RC) + ")");
      return 0;
    }
    default:
      return fail("this phase is not available in AMD mode");
    }
  }
};

} // namespace

int runAmd(const Invocation &Inv, const Environment &Env, Runner &R) {
  Pipeline P(Inv, Env, R);
  return P.run();
}

} // namespace cuhip::nvcc
