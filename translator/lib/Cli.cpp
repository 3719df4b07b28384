//===- Cli.cpp - The `cuhip translate` command line -----------------------===//
#include "cuhip/translate/Toolchain.h"
#include "cuhip/translate/Translate.h"

#include "llvm/ADT/StringRef.h"

#include <cstdio>
#include <string>

namespace cuhip::translate {
namespace {

const char *const Usage =
    "usage: cuhip translate IN.cu... [options] [-- CLANG-OPTIONS...]\n"
    "\n"
    "Translates CUDA source to HIP. One input without -o/--o-dir/--inplace\n"
    "is written to standard output.\n"
    "\n"
    "output:\n"
    "  -o FILE               write the translation of the (one) input to FILE\n"
    "  --o-dir DIR           write each translated file under DIR\n"
    "  --inplace             rewrite the inputs (atomically), keeping\n"
    "                        FILE.orig backups\n"
    "  --no-backup           with --inplace: no .orig backups\n"
    "  --local-headers       also translate the project headers the inputs\n"
    "                        include (each once)\n"
    "  --local-root DIR      with --local-headers: the non-system headers\n"
    "                        under DIR are the project's; --o-dir places\n"
    "                        files relative to DIR\n"
    "  --line-markers        #line directives so compilers report the\n"
    "                        original file names and line numbers\n"
    "parsing:\n"
    "  -p BUILD_DIR          take -I/-D flags from BUILD_DIR/compile_commands.json\n"
    "  -I DIR, -D NAME[=V], -U NAME, -isystem DIR\n"
    "                        passed to Clang; so is everything after --\n"
    "  --cuda-path DIR       the CUDA toolkit to parse with (default: found\n"
    "                        from $CUDA_PATH, nvcc on PATH, /usr/local/cuda)\n"
    "  --no-pch              do not precompile the CUDA headers for a batch\n"
    "translation:\n"
    "  --hip-version X.Y     the HIP to write for (default: the installed one)\n"
    "  --hip-launch          rewrite <<<>>> launches to hipLaunchKernelGGL\n"
    "  --warp-size-safe      rewrite 32-lane warp assumptions where provably safe\n"
    "reporting:\n"
    "  --print-stats[=text|json]  per-family counts of converted and\n"
    "                        unconverted references\n"
    "  -j N                  translate N files at once (default: one per core)\n"
    "  --progress, --no-progress  the progress line (default: on a terminal)\n";

} // namespace

int translateMain(int Argc, char **Argv) {
  Options Opts;
  auto Fail = [](const std::string &Msg) {
    std::fprintf(stderr, "cuhip translate: error: %s\n", Msg.c_str());
    std::fputs("run 'cuhip translate --help' for the options\n", stderr);
    return 2;
  };
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A(Argv[I]);
    auto Value = [&](llvm::StringRef Flag, std::string &Out) -> bool {
      if (A == Flag) {
        if (I + 1 >= Argc)
          return false;
        Out = Argv[++I];
        return true;
      }
      if (A.starts_with(Flag.str() + "=")) {
        Out = A.substr(Flag.size() + 1).str();
        return true;
      }
      return false;
    };
    std::string V;
    if (A == "--help" || A == "-h") {
      std::fputs(Usage, stdout);
      return 0;
    }
    if (A == "--") {
      for (++I; I < Argc; ++I)
        Opts.ClangArgs.push_back(Argv[I]);
      break;
    }
    if (A == "-o") {
      if (I + 1 >= Argc)
        return Fail("-o needs a file name");
      Opts.OutputFile = Argv[++I];
    } else if (A == "--o-dir" || A.starts_with("--o-dir=")) {
      if (!Value("--o-dir", Opts.OutputDir))
        return Fail("--o-dir needs a directory");
    } else if (A == "--inplace") {
      Opts.InPlace = true;
    } else if (A == "--no-backup") {
      Opts.NoBackup = true;
    } else if (A == "--local-headers") {
      Opts.LocalHeaders = true;
    } else if (A == "--local-root" || A.starts_with("--local-root=")) {
      if (!Value("--local-root", Opts.LocalRoot))
        return Fail("--local-root needs a directory");
    } else if (A == "--line-markers") {
      Opts.LineMarkers = true;
    } else if (A == "-p") {
      if (I + 1 >= Argc)
        return Fail("-p needs a build directory");
      Opts.BuildDir = Argv[++I];
    } else if (A.starts_with("-p") && A.size() > 2 && A[2] != '-') {
      Opts.BuildDir = A.substr(2).str();
    } else if (A == "-I" || A == "-D" || A == "-U" || A == "-isystem" ||
               A == "-include") {
      if (I + 1 >= Argc)
        return Fail(A.str() + " needs an argument");
      Opts.ClangArgs.push_back(A.str());
      Opts.ClangArgs.push_back(Argv[++I]);
    } else if (A.starts_with("-I") || A.starts_with("-D") ||
               A.starts_with("-U")) {
      Opts.ClangArgs.push_back(A.str());
    } else if (A == "--cuda-path" || A.starts_with("--cuda-path=")) {
      if (!Value("--cuda-path", Opts.CudaPath))
        return Fail("--cuda-path needs a directory");
    } else if (A == "--hip-version" || A.starts_with("--hip-version=")) {
      if (!Value("--hip-version", V) || !parseHipVersion(V, Opts.TargetHip))
        return Fail("--hip-version needs a version X.Y, e.g. 5.2 or 6.2");
    } else if (A == "--hip-launch") {
      Opts.HipLaunch = true;
    } else if (A == "--warp-size-safe") {
      Opts.WarpSizeSafe = true;
    } else if (A == "--print-stats" || A == "--print-stats=text") {
      Opts.Stats = StatsFormat::Text;
    } else if (A == "--print-stats=json") {
      Opts.Stats = StatsFormat::Json;
    } else if (A == "-j" || (A.starts_with("-j") && A.size() > 2)) {
      std::string N = A.size() > 2 ? A.substr(2).str()
                                   : (I + 1 < Argc ? Argv[++I] : "");
      if (llvm::StringRef(N).getAsInteger(10, Opts.Jobs) || Opts.Jobs == 0)
        return Fail("-j needs a positive number");
    } else if (A == "--progress") {
      Opts.Progress = 1;
    } else if (A == "--no-progress") {
      Opts.Progress = 0;
    } else if (A == "--no-pch") {
      Opts.UsePch = false;
    } else if (A.starts_with("-") && A != "-") {
      return Fail("unknown option '" + A.str() + "'");
    } else {
      Opts.Inputs.push_back(A.str());
    }
  }
  return translateFiles(Opts);
}

} // namespace cuhip::translate
