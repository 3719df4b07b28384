//===- Diagnostics.h - file:line:col diagnostics for PTX input -----------===//
//
// Every problem the PTX frontend finds in its input is recorded here with the
// file, line and column of the offending token, and printed the way Clang
// prints its diagnostics. The frontend never aborts on bad input: callers
// check hasErrors() after each stage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuhip::ptx {

struct SourceLoc {
  uint32_t Line = 0; // 1-based; 0 means "no location"
  uint32_t Col = 0;  // 1-based
};

enum class Severity { Note, Warning, Error };

struct Diagnostic {
  Severity Sev = Severity::Error;
  SourceLoc Loc;
  std::string Message;
};

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(std::string FileName) : File(std::move(FileName)) {}

  void error(SourceLoc Loc, std::string Msg) {
    Diags.push_back({Severity::Error, Loc, std::move(Msg)});
    ++NumErrors;
  }
  void warning(SourceLoc Loc, std::string Msg) {
    Diags.push_back({Severity::Warning, Loc, std::move(Msg)});
  }
  void note(SourceLoc Loc, std::string Msg) {
    Diags.push_back({Severity::Note, Loc, std::move(Msg)});
  }

  bool hasErrors() const { return NumErrors != 0; }
  unsigned errorCount() const { return NumErrors; }
  const std::vector<Diagnostic> &diagnostics() const { return Diags; }
  const std::string &fileName() const { return File; }

  /// "file:line:col: error: message", one diagnostic per line.
  std::string format(const Diagnostic &D) const;
  std::string formatAll() const;
  /// The first error, formatted; empty when there is none.
  std::string firstError() const;

private:
  std::string File;
  std::vector<Diagnostic> Diags;
  unsigned NumErrors = 0;
};

} // namespace cuhip::ptx
