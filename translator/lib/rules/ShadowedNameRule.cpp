//===- ShadowedNameRule.cpp - Project names that look like CUDA's ---------===//
//
// A project may declare its own function, type or macro with a name the
// mapping tables know (its own `cudaCheck` is fine; its own `cudaMalloc`
// wrapper is what this is about). Renaming such a name would break the
// project, so a declaration of it in a translated file keeps the name for
// the whole translation unit, and a note says so. Redeclarations of the CUDA
// headers' own declarations are not the project's and are renamed.
//
//===----------------------------------------------------------------------===//
#include "../Rules.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuhip::translate {
namespace {

class ShadowedNameRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(namedDecl(unless(isExpansionInSystemHeader()),
                                unless(isImplicit()))
                          .bind("decl"),
                      this);
  }
  void run(const MatchFinder::MatchResult &Result) override {
    const auto *D = Result.Nodes.getNodeAs<NamedDecl>("decl");
    const IdentifierInfo *II = D->getIdentifier();
    if (!II || !lookupIdentifier(II->getName()))
      return;
    if (isa<ParmVarDecl>(D) || !Ctx.isTranslated(D->getLocation()))
      return;
    const SourceManager &SM = *Result.SourceManager;
    if (SM.isInSystemHeader(D->getCanonicalDecl()->getLocation()))
      return; // a redeclaration of the CUDA headers' own name
    Ctx.addShadowedName(II->getName());
    // A name HIP spells the same way (a math function's, say) is not at
    // stake: it is kept either way, so only its compat and counting stop.
    if (lookupIdentifier(II->getName())->Hip == II->getName())
      return;
    Ctx.report(D->getLocation(), Severity::Note,
               "'" + II->getName() +
                   "' is declared by this project, so it keeps its name "
                   "here, although CUDA has an API of that name",
               "shadowed-name");
  }
};

} // namespace

std::unique_ptr<Rule> createShadowedNameRule(TranslationContext &Ctx) {
  return std::make_unique<ShadowedNameRule>(Ctx);
}

} // namespace cuhip::translate
