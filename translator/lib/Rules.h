//===- Rules.h - The translator's rule families -----------------*- C++ -*-===//
//
// A rule family is one unit in translator/lib/rules/ (in the manner of a
// clang-tidy check): AST matchers, the callback that turns a match into
// edits and diagnostics through TranslationContext, documentation in
// docs/translate.md and a lit test in test/lit/translate/. createRules()
// lists them; adding a family is adding a file and a line there.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "FileTranslation.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <vector>

namespace cuhip::translate {

class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  explicit Rule(TranslationContext &Ctx) : Ctx(Ctx) {}
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;

protected:
  TranslationContext &Ctx;
};

std::unique_ptr<Rule> createShadowedNameRule(TranslationContext &Ctx);
std::unique_ptr<Rule> createKernelLaunchRule(TranslationContext &Ctx);
std::unique_ptr<Rule> createUnmappedReferenceRule(TranslationContext &Ctx);
std::unique_ptr<Rule> createTileMemberRule(TranslationContext &Ctx);
std::unique_ptr<Rule> createWarpSizeRule(TranslationContext &Ctx);
std::unique_ptr<Rule> createInlineAsmRule(TranslationContext &Ctx);

/// Every rule family, for one translation.
std::vector<std::unique_ptr<Rule>> createRules(TranslationContext &Ctx);

} // namespace cuhip::translate
