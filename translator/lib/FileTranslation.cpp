//===- FileTranslation.cpp - Translating one CUDA file --------------------===//
//
// See FileTranslation.h for the two kinds of edits. This file owns the
// lexical pass, the #include handling, the compat block and the Clang
// invocation around the rules. Edits never overlap: each rename covers one
// token, and rules edit punctuation and insert text around tokens, so every
// byte outside a rewritten token keeps its value.
//
//===----------------------------------------------------------------------===//
#include "FileTranslation.h"

#include "Rules.h"
#include "cuhip/translate/Toolchain.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace cuhip::translate {

void Statistics::merge(const Statistics &O) {
  for (const auto &[Family, C] : O.Families) {
    Families[Family].Converted += C.Converted;
    Families[Family].Unconverted += C.Unconverted;
  }
  Files += O.Files;
  FilesChanged += O.FilesChanged;
  ParseErrors += O.ParseErrors;
}

bool HeaderRegistry::claim(const std::string &Path) {
  std::lock_guard<std::mutex> G(Lock);
  return Claimed.insert(Path).second;
}

namespace {

std::string absolutePath(llvm::StringRef P) {
  llvm::SmallString<256> S(P);
  llvm::sys::fs::make_absolute(S);
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  return std::string(S);
}

bool isUnder(llvm::StringRef Path, llvm::StringRef Root) {
  if (Root.empty() || !Path.starts_with(Root))
    return false;
  return Path.size() == Root.size() || Root.ends_with("/") ||
         Path[Root.size()] == '/';
}

/// Where an #include line's header name is: [Begin, End) of the name
/// without its delimiters, and whether it was written with <>.
struct IncludeName {
  unsigned Begin = 0, End = 0;
  bool Angled = false;
};

bool findIncludeName(llvm::StringRef Line, unsigned LineOffset,
                     IncludeName &Out) {
  size_t Open = Line.find_first_of("<\"");
  if (Open == llvm::StringRef::npos)
    return false;
  char Close = Line[Open] == '<' ? '>' : '"';
  size_t End = Line.find(Close, Open + 1);
  if (End == llvm::StringRef::npos)
    return false;
  Out.Begin = LineOffset + Open + 1;
  Out.End = LineOffset + End;
  Out.Angled = Close == '>';
  return true;
}

std::string compatGuard(llvm::StringRef Name) {
  std::string G = "CUHIP_COMPAT_";
  for (char C : Name)
    G += llvm::isAlnum(C) ? llvm::toUpper(C) : '_';
  return G;
}

} // namespace

// --- TranslationContext ------------------------------------------------------

void TranslationContext::begin(CompilerInstance &CI) {
  SM = &CI.getSourceManager();
  LangOpts = &CI.getLangOpts();
}

bool TranslationContext::isTranslated(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  FileID FID = SM->getFileID(SM->getSpellingLoc(Loc));
  auto *Self = const_cast<TranslationContext *>(this);
  return Self->stateFor(FID) != nullptr;
}

TranslationContext::FileState *TranslationContext::stateFor(FileID FID) {
  if (FID.isInvalid())
    return nullptr;
  unsigned Key = FID.getHashValue();
  auto D = Decided.find(Key);
  if (D != Decided.end())
    return D->second ? &Files[Key] : nullptr;
  bool Translate = false;
  std::string Path;
  bool IsHeader = false;
  if (OptionalFileEntryRef FE = SM->getFileEntryRefForID(FID)) {
    Path = absolutePath(FE->getName());
    if (FID == SM->getMainFileID()) {
      Translate = true;
    } else if (options().LocalHeaders &&
               !SrcMgr::isSystem(SM->getFileCharacteristic(
                   SM->getLocForStartOfFile(FID))) &&
               isUnder(Path, Config.LocalRoot) && Config.Headers &&
               Config.Headers->claim(Path)) {
      Translate = true;
      IsHeader = true;
    }
  }
  Decided[Key] = Translate;
  if (!Translate)
    return nullptr;
  FileState &S = Files[Key];
  S.Path = Path;
  S.IsHeader = IsHeader;
  return &S;
}

TranslationContext::FileState *
TranslationContext::stateForLoc(SourceLocation Loc, unsigned &Offset) {
  if (Loc.isInvalid() || !Loc.isFileID())
    return nullptr;
  auto [FID, Off] = SM->getDecomposedLoc(Loc);
  Offset = Off;
  return stateFor(FID);
}

bool TranslationContext::replace(CharSourceRange Range, llvm::StringRef Text) {
  CharSourceRange File = Lexer::makeFileCharRange(Range, *SM, *LangOpts);
  if (File.isInvalid()) {
    report(Range.getBegin(), Severity::Note,
           "not rewritten: the code comes from a macro expansion; rewrite "
           "the macro by hand",
           "macro");
    return false;
  }
  unsigned Begin, End;
  FileState *S = stateForLoc(File.getBegin(), Begin);
  FileState *S2 = stateForLoc(File.getEnd(), End);
  if (!S || S != S2 || End < Begin)
    return false;
  // A rule matching in a template and in each of its instantiations asks
  // for the same edit at the same place several times; it is made once.
  for (const Edit &E : S->Edits)
    if (E.Offset == Begin && E.Length == End - Begin && E.Text == Text)
      return true;
  S->Edits.push_back({Begin, End - Begin, Text.str(), NextOrder++});
  return true;
}

bool TranslationContext::insert(SourceLocation Loc, llvm::StringRef Text) {
  return replace(CharSourceRange::getCharRange(Loc, Loc), Text);
}

void TranslationContext::report(SourceLocation Loc, Severity Level,
                                const llvm::Twine &Msg, llvm::StringRef Rule) {
  Diagnostic D;
  D.Level = Level;
  D.Message = Msg.str();
  D.Rule = Rule.str();
  if (Loc.isValid()) {
    PresumedLoc P = SM->getPresumedLoc(SM->getFileLoc(Loc));
    if (P.isValid()) {
      D.File = P.getFilename();
      D.Line = P.getLine();
      D.Column = P.getColumn();
    }
  }
  Result.Diags.push_back(std::move(D));
}

void TranslationContext::addFileDiag(const std::string &File,
                                     llvm::StringRef Buffer, unsigned Offset,
                                     Severity Level, const llvm::Twine &Msg,
                                     llvm::StringRef Rule) {
  Diagnostic D;
  D.File = File;
  D.Level = Level;
  D.Message = Msg.str();
  D.Rule = Rule.str();
  llvm::StringRef Before = Buffer.take_front(Offset);
  D.Line = Before.count('\n') + 1;
  size_t NL = Before.rfind('\n');
  D.Column = NL == llvm::StringRef::npos ? Offset + 1 : Offset - NL;
  Result.Diags.push_back(std::move(D));
}

void TranslationContext::count(llvm::StringRef Family, bool Converted) {
  FamilyCount &C = Result.Stats.Families[Family.str()];
  (Converted ? C.Converted : C.Unconverted)++;
}

void TranslationContext::requireCompat(SourceLocation Loc, const Mapping &M) {
  unsigned Offset;
  FileState *S = stateForLoc(SM->getSpellingLoc(Loc), Offset);
  if (!S)
    return;
  if (std::find(S->Compat.begin(), S->Compat.end(), &M) == S->Compat.end())
    S->Compat.push_back(&M);
}

namespace {

/// What the lexical pass learns about a file's #include layout, to place
/// the HIP runtime include and the compat definitions.
struct IncludeLayout {
  bool HasHipRuntime = false;
  bool SeenCode = false;
  // The first #include that becomes a HIP header other than the runtime
  // header, when no hip_runtime.h include precedes it: HIP's other headers
  // (e.g. hip_cooperative_groups.h in HIP 5.x) need the runtime header
  // first, which CUDA's do not.
  unsigned FirstHipBeforeRuntime = ~0u;
  unsigned FirstInclude = ~0u;     // start of the first #include line
  unsigned AfterLeadingIncludes = ~0u; // after the last #include before code
  unsigned FirstCode = ~0u;        // start of the first line with code
};

} // namespace

void TranslationContext::lexicalPass(FileID FID, FileState &S) {
  llvm::StringRef Buf = SM->getBufferData(FID);
  const std::string &Path = S.Path;
  HipVersion Target = target();
  IncludeLayout Layout;
  std::vector<const Mapping *> Compat;

  auto LineStart = [&](unsigned Off) {
    size_t NL = Buf.take_front(Off).rfind('\n');
    return NL == llvm::StringRef::npos ? 0u : unsigned(NL + 1);
  };
  auto LineEnd = [&](unsigned Off) {
    size_t NL = Buf.find('\n', Off);
    return NL == llvm::StringRef::npos ? unsigned(Buf.size())
                                       : unsigned(NL + 1);
  };
  auto AddEdit = [&](unsigned Off, unsigned Len, std::string Text) {
    S.Edits.push_back({Off, Len, std::move(Text), NextOrder++});
  };
  auto NeedCompat = [&](const Mapping &M) {
    if (std::find(S.Compat.begin(), S.Compat.end(), &M) == S.Compat.end())
      S.Compat.push_back(&M);
  };

  Lexer L(SM->getLocForStartOfFile(FID), *LangOpts, Buf.begin(), Buf.begin(),
          Buf.end());
  L.SetCommentRetentionState(false);
  Token Tok, Prev;
  bool SkipToLineStart = false;
  Prev.startToken();
  Prev.setKind(tok::unknown);
  while (true) {
    L.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    if (SkipToLineStart) {
      if (!Tok.isAtStartOfLine())
        continue;
      SkipToLineStart = false;
    }
    unsigned Off = SM->getFileOffset(Tok.getLocation());
    if (Tok.is(tok::hash) && Tok.isAtStartOfLine()) {
      Token Dir;
      L.LexFromRawLexer(Dir);
      bool IsInclude = Dir.is(tok::raw_identifier) &&
                       (Dir.getRawIdentifier() == "include" ||
                        Dir.getRawIdentifier() == "include_next");
      if (!IsInclude) {
        // Other directives: their identifiers are renamed like any code
        // (macro bodies, #if conditions), so go on lexing this line.
        if (Dir.is(tok::raw_identifier)) {
          Tok = Dir;
          Off = SM->getFileOffset(Dir.getLocation());
        } else {
          Prev = Dir;
          continue;
        }
      } else {
        unsigned DirEnd = SM->getFileOffset(Dir.getLocation()) + Dir.getLength();
        unsigned End = LineEnd(DirEnd);
        llvm::StringRef Rest = Buf.slice(DirEnd, End);
        IncludeName Name;
        if (Layout.FirstInclude == ~0u)
          Layout.FirstInclude = LineStart(Off);
        if (!Layout.SeenCode)
          Layout.AfterLeadingIncludes = End;
        if (findIncludeName(Rest, DirEnd, Name)) {
          llvm::StringRef Header = Buf.slice(Name.Begin, Name.End);
          if (Header == "hip/hip_runtime.h")
            Layout.HasHipRuntime = true;
          if (const Mapping *M = lookupHeader(Header)) {
            if (!M->supported()) {
              addFileDiag(Path, Buf, Name.Begin, Severity::Warning,
                          "header <" + Header + "> has no HIP counterpart: " +
                              M->Note,
                          "unsupported");
              count(M->Family, false);
            } else if (M->Hip.empty()) {
              // Not needed with HIP: the directive goes, its line stays.
              unsigned DirBegin = Off;
              unsigned DirStop = End;
              while (DirStop > DirBegin &&
                     (Buf[DirStop - 1] == '\n' || Buf[DirStop - 1] == '\r'))
                --DirStop;
              AddEdit(DirBegin, DirStop - DirBegin, "");
              count(M->Family, true);
            } else {
              if (M->Hip == "hip/hip_runtime.h")
                Layout.HasHipRuntime = true;
              else if (!Layout.HasHipRuntime &&
                       Layout.FirstHipBeforeRuntime == ~0u)
                Layout.FirstHipBeforeRuntime = Off;
              if (M->availableIn(Target)) {
                AddEdit(Name.Begin, Name.End - Name.Begin, M->Hip.str());
                count(M->Family, true);
              } else if (!M->Compat.empty()) {
                // Include the HIP header where it exists; the compat
                // definitions stand in for it elsewhere.
                unsigned DirStop = End;
                while (DirStop > Off &&
                       (Buf[DirStop - 1] == '\n' || Buf[DirStop - 1] == '\r'))
                  --DirStop;
                std::string Open = Name.Angled ? "<" : "\"";
                std::string Close = Name.Angled ? ">" : "\"";
                AddEdit(Off, DirStop - Off,
                        "#if __has_include(" + Open + M->Hip.str() + Close +
                            ")\n#include " + Open + M->Hip.str() + Close +
                            "\n#endif");
                NeedCompat(*M);
                count(M->Family, true);
              } else {
                AddEdit(Name.Begin, Name.End - Name.Begin, M->Hip.str());
                addFileDiag(Path, Buf, Name.Begin, Severity::Warning,
                            "<" + M->Hip + "> needs HIP " +
                                HipVersion{M->Since / 100, M->Since % 100}
                                    .str() +
                                "; the target HIP is " + Target.str(),
                            "hip-version");
                count(M->Family, false);
              }
            }
          }
        }
        // The rest of the directive line is the header name.
        SkipToLineStart = true;
        Prev.startToken();
        Prev.setKind(tok::unknown);
        continue;
      }
    } else if (!Tok.is(tok::hash) && !Layout.SeenCode) {
      // The first token that is not part of a directive. (Directive lines
      // other than #include get here too through their identifiers, so
      // only count code outside directives: a token at the start of a
      // line that is not a directive.)
      bool InDirective = false;
      unsigned LS = LineStart(Off);
      llvm::StringRef Line = Buf.slice(LS, Off).ltrim();
      if (Line.starts_with("#"))
        InDirective = true;
      if (!InDirective) {
        Layout.SeenCode = true;
        Layout.FirstCode = LS;
      }
    }

    if (Tok.is(tok::raw_identifier)) {
      llvm::StringRef Name = Tok.getRawIdentifier();
      bool Member = Prev.isOneOf(tok::period, tok::arrow);
      const Mapping *M = lookupIdentifier(Name);
      // A name after '.' or '->' is a member, except a type after '->':
      // that is a trailing return type ('[](...) -> cudaError_t').
      if (M && Member &&
          !(Prev.is(tok::arrow) && M->Kind == MappingKind::Type))
        M = nullptr;
      if (M && !Shadowed.contains(Name)) {
        if (!M->supported()) {
          addFileDiag(Path, Buf, Off, Severity::Warning,
                      "'" + Name + "' has no HIP counterpart: " + M->Note,
                      "unsupported");
          count(M->Family, false);
          // The name stays; its compat definition (an implementation on
          // HIP, or a stub that fails at run time) keeps the file compiling.
          if (!M->Compat.empty())
            NeedCompat(*M);
        } else {
          if (M->Hip != Name)
            AddEdit(Off, Tok.getLength(), M->Hip.str());
          if (M->availableIn(Target)) {
            count(M->Family, true);
          } else if (!M->Compat.empty()) {
            NeedCompat(*M);
            count(M->Family, true);
          } else {
            addFileDiag(Path, Buf, Off, Severity::Warning,
                        "'" + M->Hip + "' (for '" + Name + "') needs HIP " +
                            HipVersion{M->Since / 100, M->Since % 100}.str() +
                            "; the target HIP is " + Target.str() +
                            (M->Note.empty() ? "" : ": " + M->Note.str()),
                        "hip-version");
            count(M->Family, false);
          }
        }
      }
    }
    Prev = Tok;
  }

  // The HIP runtime header comes first where the file had includes, or
  // before the first line of code; the compat definitions follow the
  // leading includes, where everything they use is declared.
  bool IsCudaSource = !S.IsHeader;
  std::string Prologue;
  // A file with no code and no includes (e.g. empty) needs nothing.
  bool Blank = !Layout.SeenCode && Layout.FirstInclude == ~0u;
  if ((!Layout.HasHipRuntime && !Blank &&
       (IsCudaSource || !S.Compat.empty())) ||
      Layout.FirstHipBeforeRuntime != ~0u)
    Prologue = "#include <hip/hip_runtime.h>\n";
  if (!Prologue.empty()) {
    unsigned At = Layout.FirstHipBeforeRuntime != ~0u
                      ? Layout.FirstHipBeforeRuntime
                  : Layout.FirstInclude != ~0u ? Layout.FirstInclude
                  : Layout.FirstCode != ~0u  ? Layout.FirstCode
                                             : 0;
    AddEdit(At, 0, Prologue);
  }
  std::string Block;
  for (const Mapping *M : S.Compat) {
    std::string Guard = compatGuard(M->Compat);
    // Already there (translating again adds nothing): its #define, not a
    // mention of the name in a comment or a string.
    if (Buf.contains("#define " + Guard + "\n") ||
        Block.find(Guard) != std::string::npos)
      continue;
    llvm::StringRef Text = compatSnippet(M->Compat);
    if (M->Since == NeverSince || M->Since == 0) {
      // A name no HIP version has (`since` never), or the compat
      // definition of an unsupported CUDA name: for every version.
      Block += "// cuhip: " + M->Compat.str() + ", which HIP does not have\n";
      Block += "#if !defined(" + Guard + ")\n#define " + Guard + "\n";
    } else {
      Block += "// cuhip: " + M->Compat.str() + ", for HIP before " +
               HipVersion{M->Since / 100, M->Since % 100}.str() + "\n";
      Block += "#if HIP_VERSION < " +
               std::to_string(hipVersionMacroValue(M->Since)) +
               " && !defined(" + Guard + ")\n#define " + Guard + "\n";
    }
    Block += Text.str();
    if (!Text.ends_with("\n"))
      Block += "\n";
    Block += "#endif\n";
  }
  if (!Block.empty()) {
    unsigned At = Layout.AfterLeadingIncludes != ~0u ? Layout.AfterLeadingIncludes
                  : Layout.FirstCode != ~0u           ? Layout.FirstCode
                                                      : unsigned(Buf.size());
    if (At == Buf.size() && !Buf.empty() && !Buf.ends_with("\n"))
      Block = "\n" + Block;
    if (Layout.AfterLeadingIncludes == ~0u && Prologue.empty() &&
        !Layout.HasHipRuntime)
      Block = "#include <hip/hip_runtime.h>\n" + Block;
    AddEdit(At, 0, Block);
  }
}

namespace {

/// `#line N "Path"` for the line of Buffer that starts at Offset.
std::string lineMarker(llvm::StringRef Buffer, unsigned Offset,
                       llvm::StringRef Path) {
  std::string Quoted;
  for (char C : Path) {
    if (C == '"' || C == '\\')
      Quoted += '\\';
    Quoted += C;
  }
  return "#line " + std::to_string(1 + Buffer.take_front(Offset).count('\n')) +
         " \"" + Quoted + "\"\n";
}

/// With LineMarkers, every edit that changes the number of lines is
/// followed by a #line at the next line start, so the lines after it keep
/// their original numbers. A line start that continues a directive (the
/// previous line ends in a backslash) is skipped: a #line cannot go there.
void addLineMarkers(llvm::StringRef Buffer, const std::string &Path,
                    std::vector<Edit> &Edits) {
  std::set<unsigned> At;
  for (const Edit &E : Edits) {
    llvm::StringRef Replaced = Buffer.substr(E.Offset, E.Length);
    if (llvm::StringRef(E.Text).count('\n') == Replaced.count('\n'))
      continue;
    unsigned Pos = E.Offset + E.Length;
    while (Pos < Buffer.size() &&
           !(Pos > 0 && Buffer[Pos - 1] == '\n' &&
             !(Pos > 1 && Buffer[Pos - 2] == '\\')))
      ++Pos;
    if (Pos < Buffer.size())
      At.insert(Pos);
  }
  for (unsigned Pos : At) {
    // Not inside text another edit replaces.
    bool Inside = false;
    for (const Edit &E : Edits)
      Inside |= E.Offset < Pos && Pos < E.Offset + E.Length;
    if (!Inside)
      Edits.push_back({Pos, 0, lineMarker(Buffer, Pos, Path), ~0u});
  }
  // The file's own marker comes before anything inserted at its start.
  Edits.insert(Edits.begin(), {0, 0, lineMarker(Buffer, 0, Path), 0});
}

} // namespace

std::string TranslationContext::applyEdits(llvm::StringRef Buffer,
                                           FileState &S) {
  if (options().LineMarkers)
    addLineMarkers(Buffer, S.Path, S.Edits);
  std::stable_sort(S.Edits.begin(), S.Edits.end(),
                   [](const Edit &A, const Edit &B) {
                     if (A.Offset != B.Offset)
                       return A.Offset < B.Offset;
                     // Insertions before the replacement at the same place.
                     if ((A.Length == 0) != (B.Length == 0))
                       return A.Length == 0;
                     return A.Order < B.Order;
                   });
  std::string Out;
  Out.reserve(Buffer.size() + 256);
  unsigned Pos = 0;
  for (const Edit &E : S.Edits) {
    if (E.Offset < Pos || E.Offset + E.Length > Buffer.size()) {
      // Two rules claimed the same characters; the first one stands.
      addFileDiag(S.Path, Buffer, std::min<unsigned>(E.Offset, Buffer.size()),
                  Severity::Note,
                  "overlapping rewrites; kept the first, dropped '" + E.Text +
                      "'",
                  "internal");
      continue;
    }
    Out.append(Buffer.begin() + Pos, Buffer.begin() + E.Offset);
    Out += E.Text;
    Pos = E.Offset + E.Length;
  }
  Out.append(Buffer.begin() + Pos, Buffer.end());
  return Out;
}

void TranslationContext::finish() {
  // Every file of the translation unit that is ours gets the lexical pass,
  // whether or not a rule touched it: the main file first, then headers in
  // the order they were entered.
  std::vector<FileID> Order;
  Order.push_back(SM->getMainFileID());
  if (options().LocalHeaders)
    for (FileID FID : Entered)
      if (FID != SM->getMainFileID() &&
          std::find(Order.begin(), Order.end(), FID) == Order.end())
        Order.push_back(FID);
  for (FileID FID : Order) {
    FileState *S = stateFor(FID);
    if (!S)
      continue;
    lexicalPass(FID, *S);
    TranslatedFile T;
    T.Path = S->Path;
    T.IsHeader = S->IsHeader;
    T.Original = SM->getBufferData(FID).str();
    T.Output = applyEdits(T.Original, *S);
    Result.Files.push_back(std::move(T));
  }
}

// --- running Clang -------------------------------------------------------------

namespace {

/// Parse errors become warnings: the translation goes on with what parsed.
class ParseDiagnostics : public DiagnosticConsumer {
public:
  explicit ParseDiagnostics(FileResult &Result) : Result(Result) {}
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    Diagnostic D;
    D.Level = Severity::Warning;
    D.Message = "parse error: " + Msg.str().str() +
                " (the code around it is translated by spelling only)";
    D.Rule = "parse";
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Info.getLocation()));
      if (P.isValid()) {
        D.File = P.getFilename();
        D.Line = P.getLine();
        D.Column = P.getColumn();
      }
    }
    if (D.File.empty())
      D.File = Result.Input;
    Result.Stats.ParseErrors++;
    if (llvm::StringRef(Msg).contains_insensitive("precompiled"))
      PchRejected = true;
    // Errors inside system headers (e.g. HIP's, when an already translated
    // file is translated again and HIP's headers are read in CUDA mode) are
    // not the user's to fix: one summary instead of one line each.
    if (Info.hasSourceManager() && Info.getLocation().isValid() &&
        Info.getSourceManager().isInSystemHeader(
            Info.getSourceManager().getFileLoc(Info.getLocation()))) {
      if (SystemHeaderErrors++ == 0) {
        FirstSystemHeaderError = std::move(D);
        FirstSystemHeaderError.Message = Msg.str().str();
      }
      return;
    }
    Result.Diags.push_back(std::move(D));
  }

  /// Adds the summary of the errors inside system headers, if any.
  void addSystemHeaderSummary() {
    if (!SystemHeaderErrors)
      return;
    Diagnostic D = FirstSystemHeaderError;
    D.Message = std::to_string(SystemHeaderErrors) +
                " parse error(s) inside system headers, the first: " +
                D.Message + "; the file's own code is still translated";
    Result.Diags.push_back(std::move(D));
  }

  bool PchRejected = false;

private:
  FileResult &Result;
  unsigned SystemHeaderErrors = 0;
  Diagnostic FirstSystemHeaderError;
};

/// Runs the rules' matchers over the declarations of this translation unit
/// that are not in system headers. The CUDA and C++ headers are most of the
/// AST, and with a precompiled header every declaration visited there would
/// also have to be read back from it; the user's code is all that rules
/// look at, templates and their instantiations included.
class UserCodeConsumer : public ASTConsumer {
public:
  UserCodeConsumer(clang::ast_matchers::MatchFinder &Finder,
                   const SourceManager &SM)
      : Finder(Finder), SM(SM) {}
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        Decls.push_back(D);
    return true;
  }
  void HandleTranslationUnit(ASTContext &Context) override {
    Context.setTraversalScope(Decls);
    Finder.matchAST(Context);
  }

private:
  clang::ast_matchers::MatchFinder &Finder;
  const SourceManager &SM;
  std::vector<Decl *> Decls;
};

/// Tells the context which files the preprocessor lexes, in order.
class EnteredFiles : public PPCallbacks {
public:
  explicit EnteredFiles(TranslationContext &Ctx) : Ctx(Ctx) {}
  void LexedFileChanged(FileID FID, LexedFileChangeReason Reason,
                        SrcMgr::CharacteristicKind, FileID,
                        SourceLocation) override {
    if (Reason == LexedFileChangeReason::EnterFile && FID.isValid())
      Ctx.enteredFile(FID);
  }

private:
  TranslationContext &Ctx;
};

class TranslateAction : public ASTFrontendAction {
public:
  explicit TranslateAction(TranslationContext &Ctx) : Ctx(Ctx) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    Ctx.begin(CI);
    Began = true;
    // A missing include is a fatal error to Clang, which then keeps quiet
    // about everything after it and stops instantiating templates; as a
    // plain error, the rest of the file is parsed and reported as usual.
    CI.getDiagnostics().setFatalsAsError(true);
    CI.getPreprocessor().addPPCallbacks(std::make_unique<EnteredFiles>(Ctx));
    Rules = createRules(Ctx);
    for (auto &R : Rules)
      R->registerMatchers(Finder);
    return std::make_unique<UserCodeConsumer>(Finder, CI.getSourceManager());
  }
  void EndSourceFileAction() override {
    if (Began)
      Ctx.finish();
  }

public:
  bool Began = false;

private:
  TranslationContext &Ctx;
  clang::ast_matchers::MatchFinder Finder;
  std::vector<std::unique_ptr<Rule>> Rules;
};

/// Runs one Clang invocation over Input; false if it never got to the file.
bool runInvocation(const std::string &Input,
                   const std::vector<std::string> &Args,
                   const std::string &PchPath, const TranslationConfig &Config,
                   FileResult &Result, bool &PchRejected) {
  std::vector<std::string> Cmd;
  Cmd.push_back(clangExecutable());
  Cmd.insert(Cmd.end(), Args.begin(), Args.end());
  if (!PchPath.empty()) {
    Cmd.push_back("-include-pch");
    Cmd.push_back(PchPath);
  }
  Cmd.push_back(Input);
  TranslationContext Ctx(Config, Result);
  auto Action = std::make_unique<TranslateAction>(Ctx);
  TranslateAction *A = Action.get();
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions()));
  tooling::ToolInvocation Inv(Cmd, std::move(Action), Files.get());
  ParseDiagnostics Diags(Result);
  Inv.setDiagnosticConsumer(&Diags);
  Inv.run();
  Diags.addSystemHeaderSummary();
  PchRejected = Diags.PchRejected;
  return A->Began;
}

} // namespace

FileResult translateOne(const std::string &Input,
                        const std::vector<std::string> &Args,
                        const std::string &PchPath,
                        const TranslationConfig &Config) {
  FileResult Result;
  Result.Input = Input;
  Result.Stats.Files = 1;
  auto Refuse = [&](const std::string &Why) {
    Result.Failed = true;
    Result.Diags.push_back({Input, 0, 0, Severity::Error,
                            Why + "; nothing was written", "io"});
    return Result;
  };
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Input, St) || !llvm::sys::fs::exists(St))
    return Refuse("no such file");
  if (llvm::sys::fs::is_directory(St))
    return Refuse("is a directory; give the source files in it");
  {
    auto Buf = llvm::MemoryBuffer::getFile(Input);
    if (!Buf)
      return Refuse("cannot read: " + Buf.getError().message());
    // Source text has no NUL bytes; anything with one is a binary file
    // that a rewrite would only damage.
    if ((*Buf)->getBuffer().contains('\0'))
      return Refuse("not a text file (it contains NUL bytes)");
  }
  bool PchRejected = false;
  bool Ran = runInvocation(Input, Args, PchPath, Config, Result, PchRejected);
  if (PchRejected && !PchPath.empty()) {
    // The shared precompiled header does not fit this file's flags: parse
    // it on its own instead.
    Result = FileResult();
    Result.Input = Input;
    Result.Stats.Files = 1;
    Ran = runInvocation(Input, Args, "", Config, Result, PchRejected);
    Result.Diags.push_back({Input, 0, 0, Severity::Note,
                            "the shared precompiled CUDA headers did not fit "
                            "this file's flags; it was parsed on its own",
                            "pch"});
  }
  if (!Ran || Result.Files.empty()) {
    Result.Failed = true;
    Result.Diags.push_back({Input, 0, 0, Severity::Error,
                            "Clang could not start on this file (see the "
                            "messages above); nothing was written",
                            "io"});
    return Result;
  }
  for (const TranslatedFile &T : Result.Files)
    if (T.Output != T.Original)
      ++Result.Stats.FilesChanged;
  return Result;
}

bool buildCudaPch(const std::vector<std::string> &Args, const std::string &Out,
                  std::string &Why) {
  std::string Input = Out + ".empty.cu";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Input, EC);
    if (EC) {
      Why = "cannot write " + Input + ": " + EC.message();
      return false;
    }
    // Besides what Clang includes implicitly in CUDA mode, the headers CUDA
    // code includes most; each is guarded, so a file's own #include of one
    // is then a no-op.
    OS << "#include <cuda_runtime.h>\n#include <vector>\n#include <cstdio>\n"
          "#include <cstdlib>\n#include <cmath>\n#include <cstring>\n"
          "#include <algorithm>\n";
  }
  std::vector<std::string> Cmd;
  Cmd.push_back(clangExecutable());
  for (const std::string &A : Args)
    if (A != "-fsyntax-only")
      Cmd.push_back(A);
  Cmd.push_back("-c");
  Cmd.push_back("-o");
  Cmd.push_back(Out);
  Cmd.push_back(Input);
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions()));
  tooling::ToolInvocation Inv(Cmd, std::make_unique<GeneratePCHAction>(),
                              Files.get());
  /// Keeps the first error, for the message.
  struct FirstError : DiagnosticConsumer {
    std::string Text;
    void HandleDiagnostic(DiagnosticsEngine::Level Level,
                          const clang::Diagnostic &Info) override {
      DiagnosticConsumer::HandleDiagnostic(Level, Info);
      if (Level >= DiagnosticsEngine::Error && Text.empty()) {
        llvm::SmallString<256> Msg;
        Info.FormatDiagnostic(Msg);
        Text = Msg.str().str();
      }
    }
  } Errors;
  Inv.setDiagnosticConsumer(&Errors);
  // The PCH names its (empty) input file, which must stay while it is used;
  // the caller's directory goes away with both.
  bool OK = Inv.run() && llvm::sys::fs::exists(Out);
  if (!OK)
    Why = "Clang could not precompile the CUDA headers" +
          (Errors.Text.empty() ? std::string() : ": " + Errors.Text);
  return OK;
}

} // namespace cuhip::translate
