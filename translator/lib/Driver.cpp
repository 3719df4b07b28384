//===- Driver.cpp - Translating many files --------------------------------===//
//
// translateFiles(): finds the toolchains, gives every input its Clang flags
// (from the command line or compile_commands.json), translates the inputs
// on a pool of workers that share one precompiled header of the CUDA
// headers per distinct set of flags, and writes each result where the
// options say — atomically, through a temporary file and rename, so a user's
// file is never left half written. Diagnostics are printed per file as each
// finishes; a progress line is shown on a terminal.
//
//===----------------------------------------------------------------------===//
#include "FileTranslation.h"
#include "cuhip/translate/Toolchain.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

namespace cuhip::translate {
namespace {

std::string absolute(llvm::StringRef P) {
  llvm::SmallString<256> S(P);
  llvm::sys::fs::make_absolute(S);
  llvm::sys::path::remove_dots(S, true);
  return std::string(S);
}

/// The deepest directory that contains every path in Paths (absolute).
std::string commonRoot(const std::vector<std::string> &Paths) {
  std::string Common;
  bool First = true;
  for (const std::string &P : Paths) {
    std::string Dir(llvm::sys::path::parent_path(P));
    if (First) {
      Common = Dir;
      First = false;
      continue;
    }
    while (!Common.empty() && Common != "/" &&
           !(llvm::StringRef(Dir).starts_with(Common) &&
             (Dir.size() == Common.size() || Dir[Common.size()] == '/')))
      Common = std::string(llvm::sys::path::parent_path(Common));
  }
  return Common.empty() ? "/" : Common;
}

/// Where --local-headers looks for project headers: the current directory
/// when it contains every input (a project translated from its top), else
/// the inputs' common root.
std::string localRoot(const std::vector<std::string> &Inputs) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::string CwdS = std::string(Cwd);
  std::vector<std::string> Abs;
  bool AllUnderCwd = true;
  for (const std::string &In : Inputs) {
    Abs.push_back(absolute(In));
    if (!llvm::StringRef(Abs.back()).starts_with(CwdS + "/"))
      AllUnderCwd = false;
  }
  return AllUnderCwd ? CwdS : commonRoot(Abs);
}

/// Writes Text to Path through a temporary file in the same directory and
/// rename(), keeping Path's permissions when it exists.
bool writeAtomically(const std::string &Path, llvm::StringRef Text,
                     std::string &Why, const std::string &PermsFrom = "") {
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Path));
  if (Dir.empty())
    Dir = ".";
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Why = "cannot create " + std::string(Dir) + ": " + EC.message();
    return false;
  }
  llvm::SmallString<256> Tmp;
  int FD;
  std::string Model = std::string(llvm::sys::path::filename(Path)) +
                      ".cuhip-%%%%%%.tmp";
  llvm::SmallString<256> ModelPath(Dir);
  llvm::sys::path::append(ModelPath, Model);
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(ModelPath, FD, Tmp)) {
    Why = "cannot create a temporary file in " + std::string(Dir) + ": " +
          EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      Why = "cannot write " + std::string(Tmp) + ": " + OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return false;
    }
  }
  if (auto Perms = llvm::sys::fs::getPermissions(
          PermsFrom.empty() ? Path : PermsFrom))
    llvm::sys::fs::setPermissions(Tmp, *Perms);
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    Why = "cannot replace " + Path + ": " + EC.message();
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

std::string formatDiag(const Diagnostic &D) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << (D.File.empty() ? "<unknown>" : D.File);
  if (D.Line)
    OS << ":" << D.Line << ":" << D.Column;
  OS << ": " << severityName(D.Level) << ": " << D.Message;
  if (!D.Rule.empty())
    OS << " [cuhip-" << D.Rule << "]";
  OS << "\n";
  return S;
}

std::string jsonEscape(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

void printStats(const Statistics &St, StatsFormat Format) {
  unsigned Conv = 0, Unconv = 0;
  for (const auto &[F, C] : St.Families) {
    Conv += C.Converted;
    Unconv += C.Unconverted;
  }
  if (Format == StatsFormat::Json) {
    std::string S = "{\"files\": " + std::to_string(St.Files) +
                    ", \"files_changed\": " + std::to_string(St.FilesChanged) +
                    ", \"parse_errors\": " + std::to_string(St.ParseErrors) +
                    ", \"converted\": " + std::to_string(Conv) +
                    ", \"unconverted\": " + std::to_string(Unconv) +
                    ", \"families\": {";
    bool First = true;
    for (const auto &[F, C] : St.Families) {
      S += std::string(First ? "" : ", ") + "\"" + jsonEscape(F) +
           "\": {\"converted\": " + std::to_string(C.Converted) +
           ", \"unconverted\": " + std::to_string(C.Unconverted) + "}";
      First = false;
    }
    S += "}}\n";
    std::fputs(S.c_str(), stdout);
    return;
  }
  std::printf("cuhip translate: %u file%s, %u changed, %u parse error%s\n",
              St.Files, St.Files == 1 ? "" : "s", St.FilesChanged,
              St.ParseErrors, St.ParseErrors == 1 ? "" : "s");
  std::printf("  %-14s %10s %12s\n", "family", "converted", "unconverted");
  for (const auto &[F, C] : St.Families)
    std::printf("  %-14s %10u %12u\n", F.c_str(), C.Converted, C.Unconverted);
  std::printf("  %-14s %10u %12u\n", "total", Conv, Unconv);
}

/// One precompiled CUDA header per distinct set of flags, built by the
/// first worker that needs it.
class PchCache {
public:
  explicit PchCache(std::string Dir) : Dir(std::move(Dir)) {}
  std::string get(const std::vector<std::string> &Args) {
    std::string Key;
    for (const std::string &A : Args)
      Key += A + '\0';
    Entry *E;
    {
      std::lock_guard<std::mutex> G(Lock);
      E = &Entries[Key];
      if (E->Path.empty())
        E->Path = Dir + "/cuda-" + std::to_string(Entries.size()) + ".pch";
    }
    std::call_once(E->Once, [&] {
      std::string Why;
      E->Ok = buildCudaPch(Args, E->Path, Why);
      if (!E->Ok)
        std::fprintf(stderr,
                     "cuhip translate: note: %s; parsing each file with the "
                     "headers instead\n",
                     Why.c_str());
    });
    return E->Ok ? E->Path : std::string();
  }

private:
  struct Entry {
    std::string Path;
    std::once_flag Once;
    bool Ok = false;
  };
  std::string Dir;
  std::mutex Lock;
  std::map<std::string, Entry> Entries;
};

} // namespace

int translateFiles(const Options &Opts) {
  auto Fail = [](const std::string &Msg) {
    std::fprintf(stderr, "cuhip translate: error: %s\n", Msg.c_str());
    return 2;
  };
  if (Opts.Inputs.empty())
    return Fail("no input files (usage: cuhip translate IN.cu... [-o OUT | "
                "--o-dir DIR | --inplace])");
  int Outputs = !Opts.OutputFile.empty() + !Opts.OutputDir.empty() +
                Opts.InPlace;
  if (Outputs > 1)
    return Fail("-o, --o-dir and --inplace exclude each other");
  if (!Opts.OutputFile.empty() && Opts.Inputs.size() > 1)
    return Fail("-o takes one input; use --o-dir DIR or --inplace for " +
                std::to_string(Opts.Inputs.size()) + " inputs");
  if (Outputs == 0 && Opts.Inputs.size() > 1)
    return Fail("several inputs need --o-dir DIR or --inplace (one input "
                "without them is written to standard output)");
  if (Opts.NoBackup && !Opts.InPlace)
    return Fail("--no-backup only applies with --inplace");
  if (Outputs == 0 && Opts.LocalHeaders)
    return Fail("--local-headers writes headers too; give -o, --o-dir or "
                "--inplace");

  std::string Why;
  std::string CudaPath = findCudaPath(Opts.CudaPath, Why);
  if (CudaPath.empty())
    return Fail(Why);
  HipVersion Target = Opts.TargetHip;
  if (Target.code() == 0) {
    std::string Where;
    Target = findInstalledHip(Where);
    if (Target.code() == 0) {
      Target = {6, 4};
      std::fprintf(stderr,
                   "cuhip translate: note: no HIP installation found "
                   "(hip/hip_version.h); writing for HIP %s (use "
                   "--hip-version X.Y to choose)\n",
                   Target.str().c_str());
    }
  }

  // Every input's Clang arguments.
  std::unique_ptr<clang::tooling::CompilationDatabase> Db;
  if (!Opts.BuildDir.empty()) {
    std::string Err;
    Db = clang::tooling::CompilationDatabase::loadFromDirectory(Opts.BuildDir,
                                                                Err);
    if (!Db)
      return Fail("-p " + Opts.BuildDir + ": " + Err);
  }
  std::vector<std::vector<std::string>> Args(Opts.Inputs.size());
  for (size_t I = 0; I < Opts.Inputs.size(); ++I) {
    std::vector<std::string> User;
    if (Db) {
      auto Cmds = Db->getCompileCommands(absolute(Opts.Inputs[I]));
      if (Cmds.empty())
        std::fprintf(stderr,
                     "cuhip translate: warning: %s is not in %s/"
                     "compile_commands.json; translating it with the command "
                     "line's flags only\n",
                     Opts.Inputs[I].c_str(), Opts.BuildDir.c_str());
      else {
        // Clang's database gives a file it does not list the command of
        // the most similar file it does (as clangd does); say so.
        if (!Cmds.front().Heuristic.empty())
          std::fprintf(stderr,
                       "cuhip translate: warning: %s is not in %s/"
                       "compile_commands.json; using the flags %s\n",
                       Opts.Inputs[I].c_str(), Opts.BuildDir.c_str(),
                       Cmds.front().Heuristic.c_str());
        User = parseRelevantFlags(Cmds.front().CommandLine,
                                  Cmds.front().Directory);
      }
    }
    User.insert(User.end(), Opts.ClangArgs.begin(), Opts.ClangArgs.end());
    Args[I] = cudaParseArgs(CudaPath, User);
  }

  HeaderRegistry Headers;
  TranslationConfig Config;
  Config.Opts = &Opts;
  Config.Target = Target;
  Config.LocalRoot = Opts.LocalRoot.empty() ? localRoot(Opts.Inputs)
                                            : absolute(Opts.LocalRoot);
  Config.Headers = &Headers;
  Config.CudaPath = CudaPath;

  llvm::SmallString<128> PchDir;
  bool UsePch = Opts.UsePch && Opts.Inputs.size() > 1 &&
                !llvm::sys::fs::createUniqueDirectory("cuhip-translate", PchDir);
  PchCache Pch{std::string(PchDir)};

  unsigned Jobs = Opts.Jobs ? Opts.Jobs : std::thread::hardware_concurrency();
  Jobs = std::max(1u, std::min<unsigned>(Jobs, Opts.Inputs.size()));
  bool Progress = Opts.Progress == 1 ||
                  (Opts.Progress == -1 && isatty(fileno(stderr)) &&
                   Opts.Inputs.size() > 1);

  std::mutex OutLock;
  std::atomic<size_t> Next{0};
  std::atomic<unsigned> Done{0};
  Statistics Total;
  bool AnyFailed = false;

  // --inplace writes each file as its translation finishes; -o and --o-dir
  // collect the results first, since where a file goes under the output
  // directory depends on the common root of every translated file,
  // headers found along the way included.
  std::vector<TranslatedFile> Collected;
  // Results are emitted in input order, whatever order the workers finish
  // in, so diagnostics and statistics read the same from run to run.
  // (Called with OutLock held.)
  auto Emit = [&](FileResult &R) {
    if (Progress)
      std::fputs("\r\033[K", stderr);
    for (const Diagnostic &D : R.Diags) {
      if ((Opts.QuietParseErrors && D.Rule == "parse") ||
          (Opts.QuietWarnings && D.Level != Severity::Error))
        continue;
      std::fputs(formatDiag(D).c_str(), stderr);
    }
    Total.merge(R.Stats);
    if (R.Failed) {
      AnyFailed = true;
    } else {
      for (TranslatedFile &T : R.Files) {
        if (!Opts.InPlace) {
          Collected.push_back(std::move(T));
          continue;
        }
        if (T.Output == T.Original)
          continue; // unchanged: the file is not touched at all
        std::string Why;
        if (!Opts.NoBackup &&
            !writeAtomically(T.Path + ".orig", T.Original, Why, T.Path)) {
          std::fprintf(stderr, "cuhip translate: error: backup of %s: "
                       "%s; the file was left as it was\n",
                       T.Path.c_str(), Why.c_str());
          AnyFailed = true;
          continue;
        }
        if (!writeAtomically(T.Path, T.Output, Why)) {
          std::fprintf(stderr, "cuhip translate: error: %s\n", Why.c_str());
          AnyFailed = true;
        }
      }
    }
  };

  std::vector<std::optional<FileResult>> Pending(Opts.Inputs.size());
  size_t NextToEmit = 0;
  auto Work = [&] {
    for (size_t I = Next++; I < Opts.Inputs.size(); I = Next++) {
      std::string PchPath = UsePch ? Pch.get(Args[I]) : std::string();
      FileResult R = translateOne(Opts.Inputs[I], Args[I], PchPath, Config);
      std::lock_guard<std::mutex> G(OutLock);
      std::string Input = R.Input;
      Pending[I] = std::move(R);
      while (NextToEmit < Pending.size() && Pending[NextToEmit]) {
        Emit(*Pending[NextToEmit]);
        Pending[NextToEmit].reset();
        ++NextToEmit;
      }
      unsigned N = ++Done;
      if (Progress) {
        std::fputs("\r\033[K", stderr);
        std::fprintf(stderr, "[%u/%zu] %s", N, Opts.Inputs.size(),
                     Input.c_str());
        if (N == Opts.Inputs.size())
          std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
      }
    }
  };
  std::vector<std::thread> Workers;
  for (unsigned I = 1; I < Jobs; ++I)
    Workers.emplace_back(Work);
  Work();
  for (std::thread &T : Workers)
    T.join();
  if (UsePch)
    llvm::sys::fs::remove_directories(PchDir);

  if (!Opts.OutputFile.empty() || !Opts.OutputDir.empty()) {
    // Each file keeps its place relative to the translated files' common
    // root; with -o the input goes to FILE and its headers next to it.
    std::vector<std::string> Paths;
    for (const TranslatedFile &T : Collected)
      Paths.push_back(T.Path);
    std::string Root =
        Opts.LocalRoot.empty() ? commonRoot(Paths) : Config.LocalRoot;
    std::string Base = !Opts.OutputDir.empty()
                           ? absolute(Opts.OutputDir)
                           : std::string(llvm::sys::path::parent_path(
                                 absolute(Opts.OutputFile)));
    std::vector<std::pair<std::string, const TranslatedFile *>> Plan;
    for (const TranslatedFile &T : Collected) {
      std::string Dest;
      if (!Opts.OutputFile.empty() && !T.IsHeader) {
        Dest = absolute(Opts.OutputFile);
      } else {
        llvm::StringRef Rel = llvm::StringRef(T.Path).drop_front(
            Root == "/" ? 1 : Root.size() + 1);
        llvm::SmallString<256> P(Base);
        llvm::sys::path::append(P, Rel);
        Dest = std::string(P);
      }
      bool Clash = false;
      for (const TranslatedFile &U : Collected)
        Clash |= U.Path == Dest;
      if (Clash) {
        std::fprintf(stderr, "cuhip translate: error: %s would overwrite an "
                     "input; nothing was written for it (use --inplace to "
                     "rewrite the inputs)\n", Dest.c_str());
        AnyFailed = true;
        continue;
      }
      Plan.push_back({Dest, &T});
    }
    for (const auto &[Dest, T] : Plan) {
      std::string Why;
      if (!writeAtomically(Dest, T->Output, Why)) {
        std::fprintf(stderr, "cuhip translate: error: %s\n", Why.c_str());
        AnyFailed = true;
      }
    }
  } else if (!Opts.InPlace && !Collected.empty()) {
    const std::string &Out = Collected.front().Output;
    std::fwrite(Out.data(), 1, Out.size(), stdout);
  }
  if (Opts.Stats != StatsFormat::None) {
    std::fflush(stdout);
    if (Opts.OutputFile.empty() && Opts.OutputDir.empty() && !Opts.InPlace) {
      // Standard output holds the translation: the statistics go to stderr.
      int Saved = dup(fileno(stdout));
      dup2(fileno(stderr), fileno(stdout));
      printStats(Total, Opts.Stats);
      std::fflush(stdout);
      dup2(Saved, fileno(stdout));
      close(Saved);
    } else {
      printStats(Total, Opts.Stats);
    }
  }
  return AnyFailed ? 1 : 0;
}

} // namespace cuhip::translate
