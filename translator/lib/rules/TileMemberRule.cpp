//===- TileMemberRule.cpp - Cooperative-groups members HIP lacks -----------===//
//
// Some members of CUDA's cooperative-groups tiles have no HIP counterpart
// (thread_block_tile::meta_group_rank() and meta_group_size()). A member
// call cannot be renamed token by token, so this rule turns
// `tile.meta_group_rank()` into `cuhip_cg::meta_group_rank(tile)` (the HIP
// name of the row, defined by the row's compat snippet) and notes the one
// assumption the definition makes: the tile was partitioned from its thread
// block, which is how CUDA code uses these members.
//
//===----------------------------------------------------------------------===//
#include "../Rules.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuhip::translate {
namespace {

class TileMemberRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(
        cxxMemberCallExpr(
            // By qualified name: the method is declared in the toolkit's
            // headers, outside the traversal scope, so no ancestor query.
            callee(cxxMethodDecl(matchesName(
                "^::cooperative_groups::.*::meta_group_(rank|size)$"))))
            .bind("call"),
        this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
    const auto *Member = dyn_cast<MemberExpr>(Call->getCallee());
    if (!Member || !Ctx.isTranslated(Call->getBeginLoc()))
      return;
    llvm::StringRef Name = Member->getMemberDecl()->getName();
    const Mapping *M = lookupIdentifier(Name);
    if (!M || !M->supported())
      return;
    const Expr *Object = Member->getBase();
    SourceLocation ObjBegin = Object->getBeginLoc();
    SourceLocation OpLoc = Member->getOperatorLoc();
    SourceLocation RParen = Call->getRParenLoc();
    if (Object->isImplicitCXXThis() || !ObjBegin.isFileID() ||
        !OpLoc.isFileID() || !RParen.isFileID()) {
      Ctx.report(Call->getBeginLoc(), Severity::Warning,
                 "'" + Name + "()' has no HIP counterpart and is not written "
                 "out in this file; replace it with " + M->Hip + "(tile)",
                 "tile-member");
      Ctx.count(M->Family, false);
      return;
    }
    if (M->availableIn(Ctx.target())) {
      Ctx.count(M->Family, true);
      return;
    }
    std::string Open = M->Hip.str() + "(" + (Member->isArrow() ? "*" : "");
    Ctx.insert(ObjBegin, Open);
    Ctx.replace(CharSourceRange::getCharRange(OpLoc,
                                              RParen.getLocWithOffset(1)),
                ")");
    Ctx.requireCompat(Call->getBeginLoc(), *M);
    Ctx.report(Call->getBeginLoc(), Severity::Note,
               "'" + Name + "()' becomes " + M->Hip +
                   "(), which assumes the tile was partitioned from its "
                   "thread block",
               "tile-member");
    Ctx.count(M->Family, true);
  }
};

} // namespace

std::unique_ptr<Rule> createTileMemberRule(TranslationContext &Ctx) {
  return std::make_unique<TileMemberRule>(Ctx);
}

} // namespace cuhip::translate
