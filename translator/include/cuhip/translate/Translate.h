//===- Translate.h - cuhip translate: CUDA source to HIP source -*- C++ -*-===//
//
// The entry points of the source translator. translateFiles() runs the whole
// job `cuhip translate` describes: every input is parsed by Clang as CUDA
// (host and device code, with the installed toolkit's headers), rewritten by
// the rule families of translator/lib/rules/ and the mapping tables of
// translator/mappings/, and written where the options say; diagnostics go to
// stderr in Clang's format and statistics to stdout when asked for.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace cuhip::translate {

/// A HIP release as `X.Y`; 0.0 means "not known".
struct HipVersion {
  unsigned Major = 0, Minor = 0;
  unsigned code() const { return Major * 100 + Minor; }
  std::string str() const {
    return std::to_string(Major) + "." + std::to_string(Minor);
  }
};

enum class StatsFormat { None, Text, Json };

struct Options {
  std::vector<std::string> Inputs;
  std::string OutputFile;   // -o: one input only
  std::string OutputDir;    // --o-dir
  bool InPlace = false;     // --inplace
  bool NoBackup = false;    // --no-backup (with --inplace)
  std::string BuildDir;     // -p: a directory with compile_commands.json
  std::vector<std::string> ClangArgs; // -I/-D/-U and everything after --
  std::string CudaPath;     // --cuda-path; found automatically when empty
  HipVersion TargetHip;     // --hip-version; from hip/hip_version.h if 0.0
  bool HipLaunch = false;   // --hip-launch: <<<>>> to hipLaunchKernelGGL
  bool WarpSizeSafe = false; // --warp-size-safe
  bool LocalHeaders = false; // --local-headers
  /// With LocalHeaders: the directory whose non-system headers are project
  /// headers (translated too). Empty: the current directory when it holds
  /// every input, else their common root. When set, --o-dir places every
  /// file at its path relative to it ("/" mirrors absolute paths), which is
  /// what `cuhip nvcc` uses to translate into a scratch directory.
  std::string LocalRoot;
  /// Starts every written file with `#line 1 "<original path>"` and puts a
  /// `#line` after each inserted block of lines, so a compiler reading the
  /// translation reports the user's file names and line numbers.
  bool LineMarkers = false;
  /// Diagnostics left out of stderr (statistics still count them): parse
  /// errors, for callers that compile the translation and so report them
  /// again in the compiler's words (cuhip nvcc), and warnings and notes
  /// (cuhip nvcc -w).
  bool QuietParseErrors = false;
  bool QuietWarnings = false;
  StatsFormat Stats = StatsFormat::None;
  unsigned Jobs = 0;        // -j; 0 = one per core
  int Progress = -1;        // 1 on, 0 off, -1 when stderr is a terminal
  bool UsePch = true;       // --no-pch turns the header cache off
};

/// Runs the translation described by Opts. Returns the process exit status:
/// 0 when every file was written (warnings do not fail), 1 when a file
/// could not be read, parsed at all or written, 2 for bad options.
int translateFiles(const Options &Opts);

/// `cuhip translate` itself: parses argv (argv[0] is "translate").
int translateMain(int Argc, char **Argv);

} // namespace cuhip::translate
