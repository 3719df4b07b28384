//===- ParserFuzzer.cpp - libFuzzer entry point for the PTX frontend ------===//
//
// Feeds arbitrary bytes to the PTX parser and, when they parse, to the
// lowering into a fresh LLVMContext. PTX reaches cuhip from the fatbins of
// arbitrary programs, so both stages promise to report bad input as
// diagnostics and never crash, hang or read out of bounds; the sanitizers
// this target is built with turn any broken promise into a finding. Beyond
// crashes, the fuzzer also treats an "internal error" diagnostic as a
// finding: the lowering emits one when it produced IR that fails the LLVM
// verifier, which is a bug however odd the input was.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/Lower.h"
#include "cuhip/ptx/Parser.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace cuhip::ptx;

/// Aborts (so libFuzzer records the input) when a stage reported an error
/// that only a bug in the frontend can cause.
static void checkNoInternalErrors(const DiagnosticEngine &Diags) {
  for (const Diagnostic &D : Diags.diagnostics()) {
    if (D.Sev == Severity::Error &&
        std::string_view(D.Message).starts_with("internal error")) {
      std::fprintf(stderr, "ParserFuzzer: %s\n", Diags.format(D).c_str());
      std::abort();
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // The parser must cope with text that is neither NUL-terminated nor free
  // of NULs, so hand it libFuzzer's exact-sized buffer: any read past the
  // end is an AddressSanitizer report.
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  DiagnosticEngine Diags("fuzz.ptx");
  std::optional<Module> Parsed = parseModule(Text, Diags);
  checkNoInternalErrors(Diags);
  if (!Parsed)
    return 0;
  llvm::LLVMContext Ctx;
  // Declared after Ctx, so the module is destroyed while its context lives.
  std::optional<LoweredModule> Lowered = lowerModule(*Parsed, Ctx, Diags);
  checkNoInternalErrors(Diags);
  return 0;
}
