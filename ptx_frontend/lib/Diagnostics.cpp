//===- Diagnostics.cpp - Clang-style rendering of PTX diagnostics ---------===//
//
// Turns the recorded problems into the `file:line:col: severity: message`
// lines that users and editors already know how to read from Clang. A
// diagnostic without a position (Line 0) is about the whole file, so it drops
// the line and column rather than printing a misleading `0:0`.
//
//===----------------------------------------------------------------------===//

#include "cuhip/ptx/Diagnostics.h"

namespace cuhip::ptx {

static const char *severityWord(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

std::string DiagnosticEngine::format(const Diagnostic &D) const {
  std::string S = File;
  S += ':';
  if (D.Loc.Line != 0) {
    S += std::to_string(D.Loc.Line);
    S += ':';
    S += std::to_string(D.Loc.Col);
    S += ':';
  }
  S += ' ';
  S += severityWord(D.Sev);
  S += ": ";
  S += D.Message;
  return S;
}

std::string DiagnosticEngine::formatAll() const {
  std::string S;
  for (const Diagnostic &D : Diags) {
    S += format(D);
    S += '\n';
  }
  return S;
}

std::string DiagnosticEngine::firstError() const {
  for (const Diagnostic &D : Diags)
    if (D.Sev == Severity::Error)
      return format(D);
  return {};
}

} // namespace cuhip::ptx
