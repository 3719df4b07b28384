//===- KernelLaunchRule.cpp - <<<>>> launches -----------------------------===//
//
// HIP accepts CUDA's triple-chevron launch as it is, so by default a launch
// is kept and counted. With --hip-launch it becomes
// hipLaunchKernelGGL(kernel, dim3(grid), dim3(block), shmem, stream, args...)
// by editing only the punctuation around the operands, so the operands
// themselves (and any renames inside them) are untouched. A kernel name
// with template arguments goes into HIP_KERNEL_NAME(...), since
// hipLaunchKernelGGL is a macro and would split it at its commas.
//
//===----------------------------------------------------------------------===//
#include "../Rules.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuhip::translate {
namespace {

class KernelLaunchRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(cudaKernelCallExpr().bind("launch"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Call = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
    if (!Ctx.isTranslated(Call->getBeginLoc()))
      return;
    if (!Ctx.options().HipLaunch) {
      Ctx.count("launch", true); // <<<>>> is valid HIP
      return;
    }
    const SourceManager &SM = *Result.SourceManager;
    const CallExpr *Config = Call->getConfig();
    SourceLocation Begin = Call->getBeginLoc();
    SourceLocation Chevrons = Config->getCallee()->getBeginLoc();
    SourceLocation Closing = Config->getRParenLoc();
    SourceLocation RParen = Call->getRParenLoc();
    auto IsFile = [](SourceLocation L) { return L.isValid() && L.isFileID(); };
    if (!IsFile(Begin) || !IsFile(Chevrons) || !IsFile(Closing) ||
        !IsFile(RParen)) {
      Ctx.report(Begin, Severity::Warning,
                 "kernel launch inside a macro left as <<<>>> (valid HIP); "
                 "--hip-launch rewrites only launches written out in the "
                 "file",
                 "launch");
      Ctx.count("launch", false);
      return;
    }
    const LangOptions &LO = Result.Context->getLangOpts();
    auto Text = [&](SourceRange R) {
      return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO);
    };
    auto EndOf = [&](const Expr *E) {
      return Lexer::getLocForEndOfToken(E->getEndLoc(), 0, SM, LO);
    };
    llvm::StringRef Kernel = Text({Begin, Chevrons.getLocWithOffset(-1)});
    bool Templated = Kernel.contains('<') || Kernel.contains(',');
    std::string Open = "hipLaunchKernelGGL(";
    if (Templated)
      Open += "HIP_KERNEL_NAME(";
    unsigned NumConfig = 0;
    for (const Expr *A : Config->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        ++NumConfig;
    const Expr *Grid = Config->getArg(0);
    const Expr *Block = Config->getArg(1);
    if (!IsFile(Grid->getBeginLoc()) || !IsFile(Block->getEndLoc())) {
      Ctx.report(Begin, Severity::Warning,
                 "launch configuration comes from a macro; left as <<<>>>",
                 "launch");
      Ctx.count("launch", false);
      return;
    }
    // ">>>(" becomes ", " before the arguments, or nothing without any:
    // the call's own ")" then closes hipLaunchKernelGGL.
    // Find the "(" that follows ">>>", skipping whitespace and comments.
    Token Tok;
    SourceLocation Scan = Closing.getLocWithOffset(3);
    if (Lexer::getRawToken(Scan, Tok, SM, LO, /*IgnoreWhiteSpace=*/true) ||
        Tok.isNot(tok::l_paren)) {
      Ctx.report(Begin, Severity::Warning,
                 "could not find the argument list of this launch; left as "
                 "<<<>>>",
                 "launch");
      Ctx.count("launch", false);
      return;
    }
    Ctx.insert(Begin, Open);
    // "<<<" becomes ", dim3(" (and closes HIP_KERNEL_NAME first).
    // A grid or block written as a dim3 already is not wrapped again.
    auto IsDim3 = [](const Expr *E) {
      const auto *RD =
          E->IgnoreUnlessSpelledInSource()->getType()->getAsCXXRecordDecl();
      return RD && RD->getName() == "dim3";
    };
    bool WrapGrid = !IsDim3(Grid), WrapBlock = !IsDim3(Block);
    std::string Chevron = Templated ? "), " : ", ";
    Ctx.replace(CharSourceRange::getCharRange(Chevrons,
                                              Chevrons.getLocWithOffset(3)),
                Chevron + (WrapGrid ? "dim3(" : ""));
    if (WrapGrid)
      Ctx.insert(EndOf(Grid), ")");
    if (WrapBlock)
      Ctx.insert(Block->getBeginLoc(), "dim3(");
    // The shared-memory size and stream default to 0; each default goes
    // after the operand before it, so a given shmem stays the shmem.
    std::string AfterBlock = WrapBlock ? ")" : "";
    if (NumConfig < 3)
      AfterBlock += ", 0, 0";
    Ctx.insert(EndOf(Block), AfterBlock);
    Ctx.replace(CharSourceRange::getCharRange(
                    Closing, Tok.getLocation().getLocWithOffset(1)),
                std::string(NumConfig == 3 ? ", 0" : "") +
                    (Call->getNumArgs() ? ", " : ""));
    Ctx.count("launch", true);
  }
};

} // namespace

std::unique_ptr<Rule> createKernelLaunchRule(TranslationContext &Ctx) {
  return std::make_unique<KernelLaunchRule>(Ctx);
}

} // namespace cuhip::translate
