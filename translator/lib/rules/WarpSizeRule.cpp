//===- WarpSizeRule.cpp - Code that assumes a 32-lane warp ----------------===//
//
// CUDA code takes the warp to be 32 lanes: full member masks 0xffffffff,
// lane and warp numbers from threadIdx.x % 32, / 32, & 31 and >> 5, and
// __ballot_sync results kept in 32-bit integers. With cuhip's compat warp
// functions (HIP before 6.2) a CUDA warp stays 32 lanes, half a 64-lane
// wavefront, so these spellings keep their CUDA meaning; HIP's own _sync
// functions (6.2 and later) work on the whole wavefront and take 64-bit
// masks, where they do not. Every such place is reported, so the user can
// check it against the target. Rewriting 32 to warpSize is not safe (a
// shfl_down reduction over offsets 16..1 would leave partial sums in lanes 0
// and 32 of a wavefront), so --warp-size-safe rewrites the one thing it can
// prove: with the 32-lane compat functions, device code's warpSize becomes
// 32, the value CUDA code was written for (HIP's warpSize is 64 on CDNA).
//
//===----------------------------------------------------------------------===//
#include "../Rules.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuhip::translate {
namespace {

const llvm::StringRef WarpMaskFunctions[] = {
    "__shfl_sync",       "__shfl_up_sync",    "__shfl_down_sync",
    "__shfl_xor_sync",   "__ballot_sync",     "__any_sync",
    "__all_sync",        "__uni_sync",        "__syncwarp",
    "__match_any_sync",  "__match_all_sync",  "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync",  "__reduce_xor_sync"};

/// Does E spell an all-ones 32-bit mask: 0xffffffff, ~0u, ~0 or -1?
bool isFullMask32(const Expr *E, ASTContext &AST) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Lit = dyn_cast<IntegerLiteral>(E))
    return Lit->getValue() == 0xffffffffu;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    const auto *Lit =
        dyn_cast<IntegerLiteral>(U->getSubExpr()->IgnoreParenImpCasts());
    if (!Lit)
      return false;
    if (U->getOpcode() == UO_Not)
      return Lit->getValue() == 0 && AST.getTypeSize(E->getType()) == 32;
    if (U->getOpcode() == UO_Minus)
      return Lit->getValue() == 1;
  }
  return false;
}

class WarpSizeRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(MatchFinder &Finder) override {
    auto MaskFn = functionDecl(
        hasAnyName(llvm::ArrayRef<llvm::StringRef>(WarpMaskFunctions)));
    Finder.addMatcher(
        callExpr(callee(MaskFn), hasArgument(0, expr().bind("mask")))
            .bind("maskcall"),
        this);
    // threadIdx.x % 32, / 32, & 31, >> 5.
    auto ThreadIdx = hasDescendant(
        declRefExpr(to(varDecl(hasName("threadIdx")))));
    Finder.addMatcher(
        binaryOperator(hasAnyOperatorName("%", "/", "&", ">>"),
                       hasLHS(expr(anyOf(ThreadIdx,
                                         hasDescendant(memberExpr(ThreadIdx)),
                                         memberExpr(ThreadIdx),
                                         callExpr(ThreadIdx)))),
                       hasRHS(ignoringParenImpCasts(
                           integerLiteral().bind("lit"))))
            .bind("lane"),
        this);
    auto Ballot = callExpr(callee(functionDecl(hasName("__ballot_sync"))));
    Finder.addMatcher(
        varDecl(hasInitializer(ignoringParenImpCasts(Ballot))).bind("ballotvar"),
        this);
    Finder.addMatcher(
        callExpr(callee(functionDecl(hasName("__popc"))),
                 hasArgument(0, ignoringParenImpCasts(Ballot)))
            .bind("popc"),
        this);
    Finder.addMatcher(
        declRefExpr(to(varDecl(hasName("warpSize"))),
                    hasAncestor(functionDecl(anyOf(hasAttr(attr::CUDADevice),
                                                   hasAttr(attr::CUDAGlobal)))))
            .bind("warpsize"),
        this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    ASTContext &AST = *Result.Context;
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("maskcall")) {
      const auto *Mask = Result.Nodes.getNodeAs<Expr>("mask");
      if (!isFullMask32(Mask, AST) || !once(Mask->getExprLoc()))
        return;
      const FunctionDecl *F = Call->getDirectCallee();
      warn(Mask->getExprLoc(),
           "member mask of '" + F->getName().str() +
               "' names 32 lanes: cuhip's compat warp functions read it as "
               "the lane's 32-lane half of the wavefront; HIP 6.2's own _sync "
               "functions need a 64-bit mask on 64-lane wavefronts");
      return;
    }
    if (const auto *Op = Result.Nodes.getNodeAs<BinaryOperator>("lane")) {
      const auto *Lit = Result.Nodes.getNodeAs<IntegerLiteral>("lit");
      uint64_t V = Lit->getValue().getZExtValue();
      BinaryOperatorKind K = Op->getOpcode();
      bool WarpShaped = ((K == BO_Rem || K == BO_Div) && V == 32) ||
                        (K == BO_And && V == 31) || (K == BO_Shr && V == 5);
      if (!WarpShaped || !once(Lit->getLocation()))
        return;
      warn(Lit->getLocation(),
           "'" + std::to_string(V) +
               "' takes the warp to be 32 lanes (lane or warp number from "
               "threadIdx): right with cuhip's 32-lane compat warp functions, "
               "wrong next to HIP's wavefront-wide ones (64 lanes on CDNA)");
      return;
    }
    if (const auto *Var = Result.Nodes.getNodeAs<VarDecl>("ballotvar")) {
      if (AST.getTypeSize(Var->getType()) != 32 || !once(Var->getLocation()))
        return;
      warn(Var->getLocation(),
           "'" + Var->getName().str() +
               "' keeps a __ballot_sync result in 32 bits: a 32-lane warp's "
               "mask with cuhip's compat functions, a truncated wavefront "
               "mask with HIP's 64-bit ballots");
      return;
    }
    if (const auto *Popc = Result.Nodes.getNodeAs<CallExpr>("popc")) {
      if (!once(Popc->getBeginLoc()))
        return;
      warn(Popc->getBeginLoc(),
           "__popc counts the low 32 bits of a __ballot_sync result: a "
           "32-lane warp with cuhip's compat functions; HIP's 64-bit ballots "
           "need __popcll");
      return;
    }
    if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("warpsize")) {
      SourceLocation Loc = Ref->getLocation();
      if (!Ctx.isTranslated(Loc) || !once(Loc))
        return;
      bool Compat32 = Ctx.target().code() < 602;
      if (Ctx.options().WarpSizeSafe && Compat32 &&
          Ctx.replace(CharSourceRange::getTokenRange(Loc, Loc), "32")) {
        Ctx.count("warp-size", true);
        return;
      }
      warn(Loc, Compat32
                    ? "warpSize is the wavefront size in HIP (64 on CDNA), "
                      "CUDA code means 32, the width of cuhip's compat warp "
                      "functions; --warp-size-safe writes 32"
                    : "warpSize is the wavefront size in HIP (64 on CDNA); "
                      "CUDA code means 32");
    }
  }

private:
  void warn(SourceLocation Loc, const std::string &Msg) {
    if (!Ctx.isTranslated(Loc))
      return;
    Ctx.report(Loc, Severity::Warning, Msg, "warp-size");
    Ctx.count("warp-size", false);
  }
  /// Templates match once per instantiation; report each place once.
  bool once(SourceLocation Loc) {
    return Seen.insert(Loc.getRawEncoding()).second;
  }
  std::set<unsigned> Seen;
};

} // namespace

std::unique_ptr<Rule> createWarpSizeRule(TranslationContext &Ctx) {
  return std::make_unique<WarpSizeRule>(Ctx);
}

} // namespace cuhip::translate
