//===- UnmappedReferenceRule.cpp - CUDA declarations no row maps ----------===//
//
// The lexical pass renames what the mapping tables know. A reference to
// anything else the CUDA toolkit's headers declare would reach the HIP
// compiler unchanged and fail there, so it is reported here, once per name
// and line, with the header that declares it: the user learns exactly what
// is left to do. Only the toolkit's include directory counts (Clang's CUDA
// wrapper headers are not the toolkit), names in namespace std are the
// C++ library's, and names inside a namespace that a `namespace` row maps
// (cub to hipcub, thrust to itself) are the HIP library's too: that library
// declares the same names, so renaming the namespace is the whole mapping.
//
//===----------------------------------------------------------------------===//
#include "../Rules.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuhip::translate {
namespace {

class UnmappedReferenceRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(
        declRefExpr(unless(isExpansionInSystemHeader())).bind("ref"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("ref");
    const NamedDecl *D = Ref->getDecl();
    const IdentifierInfo *II = D ? D->getIdentifier() : nullptr;
    if (!II || lookupIdentifier(II->getName()))
      return;
    SourceLocation Loc = Ref->getLocation();
    if (!Ctx.isTranslated(Loc))
      return;
    const SourceManager &SM = *Result.SourceManager;
    SourceLocation DeclLoc = SM.getFileLoc(D->getLocation());
    llvm::StringRef DeclFile = SM.getFilename(DeclLoc);
    std::string Header;
    if (!fromCudaToolkit(DeclFile, Header) || D->isInStdNamespace() ||
        inMappedNamespace(D))
      return;
    PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Loc));
    if (!Seen.insert({II->getName().str(), P.isValid() ? P.getLine() : 0})
             .second)
      return;
    Ctx.report(Loc, Severity::Warning,
               "'" + II->getName() + "' (declared in " + Header +
                   ") has no HIP mapping in cuhip's tables; translate it by "
                   "hand",
               "unmapped");
    Ctx.count("unmapped", false);
  }

private:
  /// Is D declared inside a namespace (at any depth, e.g. past CCCL's inline
  /// ABI namespaces) whose name has a supported `namespace` row?
  static bool inMappedNamespace(const NamedDecl *D) {
    for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent()) {
      const auto *NS = dyn_cast<NamespaceDecl>(C);
      if (!NS || !NS->getIdentifier())
        continue;
      const Mapping *M = lookupIdentifier(NS->getName());
      if (M && M->Kind == MappingKind::Namespace && M->supported())
        return true;
    }
    return false;
  }

  /// Is File one of the toolkit's headers (not clang's resource directory)?
  /// Header receives its path below include/.
  bool fromCudaToolkit(llvm::StringRef File, std::string &Header) {
    std::string Include = Ctx.cudaPath() + "/include/";
    if (!File.starts_with(Include))
      return false;
    Header = File.substr(Include.size()).str();
    return true;
  }

  std::set<std::pair<std::string, unsigned>> Seen;
};

} // namespace

std::unique_ptr<Rule> createUnmappedReferenceRule(TranslationContext &Ctx) {
  return std::make_unique<UnmappedReferenceRule>(Ctx);
}

} // namespace cuhip::translate
