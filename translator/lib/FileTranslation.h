//===- FileTranslation.h - Translating one CUDA file -----------*- C++ -*-===//
//
// One input file, parsed once by Clang, becomes its translated text plus
// that of the project headers it includes (--local-headers). Two sources of
// edits meet here:
//
//  - the lexical pass: every identifier token of a translated file,
//    including those in macro definitions and in #if branches this
//    configuration does not take, is looked up in the mapping tables and
//    renamed; #include lines get the HIP headers. It runs on the raw text,
//    so it works where the AST does not reach and even when parsing fails.
//  - the rule families (translator/lib/rules/): AST matchers for what needs
//    meaning, not spelling (kernel launches, warp-size assumptions, inline
//    PTX, references to CUDA declarations no row maps).
//
// TranslationContext is what rules see: where edits may go, how to report
// a diagnostic in Clang's format, and the per-family statistics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Mapping.h"
#include "cuhip/translate/Translate.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class SourceManager;
class LangOptions;
class NamedDecl;
} // namespace clang

namespace cuhip::translate {

enum class Severity { Note, Warning, Error };

struct Diagnostic {
  std::string File;
  unsigned Line = 0, Column = 0;
  Severity Level = Severity::Warning;
  std::string Message;
  std::string Rule; // shown as [cuhip-Rule]
};

struct FamilyCount {
  unsigned Converted = 0, Unconverted = 0;
};

struct Statistics {
  std::map<std::string, FamilyCount> Families;
  unsigned Files = 0, FilesChanged = 0, ParseErrors = 0;
  void merge(const Statistics &O);
};

/// A file's new text.
struct TranslatedFile {
  std::string Path; // absolute
  std::string Original, Output;
  bool IsHeader = false;
};

struct FileResult {
  std::string Input;
  std::vector<TranslatedFile> Files; // the input first, then headers
  std::vector<Diagnostic> Diags;
  Statistics Stats;
  bool Failed = false; // nothing could be translated (e.g. unreadable)
};

/// Project headers already translated in this run: each is translated once,
/// by the first input that includes it.
class HeaderRegistry {
public:
  /// True if Path was not claimed before (the caller translates it).
  bool claim(const std::string &Path);

private:
  std::mutex Lock;
  std::set<std::string> Claimed;
};

/// What one translation needs to know besides the file.
struct TranslationConfig {
  const Options *Opts = nullptr;
  HipVersion Target;
  std::string LocalRoot; // headers under here are project headers
  std::string CudaPath;  // the toolkit parsed with
  HeaderRegistry *Headers = nullptr;
};

struct Edit {
  unsigned Offset = 0, Length = 0;
  std::string Text;
  unsigned Order = 0; // insertion order, for edits at the same offset
};

class TranslationContext {
public:
  TranslationContext(const TranslationConfig &Config, FileResult &Result)
      : Config(Config), Result(Result) {}

  const Options &options() const { return *Config.Opts; }
  HipVersion target() const { return Config.Target; }
  const std::string &cudaPath() const { return Config.CudaPath; }
  clang::SourceManager &sourceManager() const { return *SM; }
  const clang::LangOptions &langOptions() const { return *LangOpts; }

  /// Is Loc (its spelling) in a file this translation rewrites?
  bool isTranslated(clang::SourceLocation Loc) const;
  /// Replaces the characters of Range (spelled in one translated file).
  /// False, with a note, where that cannot be done (e.g. a macro argument).
  bool replace(clang::CharSourceRange Range, llvm::StringRef Text);
  bool insert(clang::SourceLocation Loc, llvm::StringRef Text);
  void report(clang::SourceLocation Loc, Severity Level, const llvm::Twine &Msg,
              llvm::StringRef Rule);
  void count(llvm::StringRef Family, bool Converted);
  /// Asks for compat snippet Name in the file that Loc is spelled in.
  void requireCompat(clang::SourceLocation Loc, const Mapping &M);
  /// A user declaration named like a CUDA API: the lexical pass leaves the
  /// name alone in this translation.
  void addShadowedName(llvm::StringRef Name) { Shadowed.insert(Name); }

  // Used by the driver of one translation (FileTranslation.cpp).
  void begin(clang::CompilerInstance &CI);
  void finish();
  /// The preprocessor entered FID (a file it lexes, not one read from a
  /// precompiled header); headers are translated in this order.
  void enteredFile(clang::FileID FID) { Entered.push_back(FID); }

private:
  struct FileState {
    std::string Path;
    std::vector<Edit> Edits;
    std::vector<const Mapping *> Compat; // in first-use order
    bool IsHeader = false;
  };
  FileState *stateFor(clang::FileID FID);
  FileState *stateForLoc(clang::SourceLocation Loc, unsigned &Offset);
  void lexicalPass(clang::FileID FID, FileState &S);
  void addFileDiag(const std::string &File, llvm::StringRef Buffer,
                   unsigned Offset, Severity Level, const llvm::Twine &Msg,
                   llvm::StringRef Rule);
  std::string applyEdits(llvm::StringRef Buffer, FileState &S);

  const TranslationConfig &Config;
  FileResult &Result;
  clang::SourceManager *SM = nullptr;
  const clang::LangOptions *LangOpts = nullptr;
  std::map<unsigned, FileState> Files; // by FileID hash
  std::map<unsigned, bool> Decided;    // FileID hash -> translated?
  llvm::StringSet<> Shadowed;
  std::vector<clang::FileID> Entered;
  unsigned NextOrder = 0;
};

/// Translates Input with the Clang arguments Args (cudaParseArgs(...)).
/// PchPath, when not empty, is a precompiled CUDA header to parse with.
FileResult translateOne(const std::string &Input,
                        const std::vector<std::string> &Args,
                        const std::string &PchPath,
                        const TranslationConfig &Config);

/// Builds the precompiled header of everything Clang includes implicitly
/// in CUDA mode plus the most common CUDA and C++ headers, for Args; false
/// (and Why) if that fails.
bool buildCudaPch(const std::vector<std::string> &Args, const std::string &Out,
                  std::string &Why);

} // namespace cuhip::translate
