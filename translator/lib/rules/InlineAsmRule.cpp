//===- InlineAsmRule.cpp - Inline PTX in asm() statements -----------------===//
//
// PTX inside asm() means nothing to the AMDGPU compiler. The idioms generated
// and hand-written CUDA kernels use most have HIP spellings with the same
// meaning, and an asm statement that is exactly one of them, with operands
// that are plain expressions written in the file, is replaced by it:
//
//   mov.u32 %0, %%laneid;            ->  out = __lane_id() & 31
//   ld.global.nc.<type> %0, [%1];    ->  out = __ldg(ptr)
//   mov.b32 %0, {%1,%2};             ->  out = lo16 | hi16 << 16
//   mov.b32 {%0,%1}, %2;             ->  lo = v & 0xffff, hi = v >> 16
//   prmt.b32 %0, %1, %2, %3;         ->  out = __byte_perm(a, b, sel)
//   shfl.sync.{idx,up,down,bfly}.b32 %0, %1, b, c, mask;
//                                    ->  out = __shfl{,_up,_down,_xor}_sync(
//                                          mask, a, b, 32 - (c >> 8))
//   cvt.rn.bf16x2.f32 %0, %1, %2;    ->  out = the bits of
//                                          __floats2bfloat162_rn(b, a)
//
// In shfl.sync, b, c and mask may be operands or literals. c packs the
// segment width as (32 - width) << 8 (and a clamp value the HIP functions
// derive from the width themselves), so the width is 32 - (c >> 8). In
// cvt.rn.bf16x2.f32 the first source goes to the upper half, which is the
// .y of a __hip_bfloat162.
//
// The lane id is taken modulo 32 because a CUDA warp is 32 lanes in cuhip
// (half a 64-lane wavefront). Everything else, and these idioms when an
// operand comes from a macro, is reported with its location and PTX text.
//
//===----------------------------------------------------------------------===//
#include "../Rules.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <regex>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuhip::translate {
namespace {

/// The PTX with whitespace collapsed and the trailing ';' dropped.
std::string normalizePtx(llvm::StringRef Asm) {
  std::string Out;
  bool Space = false;
  for (char C : Asm) {
    if (C == '\n' || C == '\t' || C == ' ') {
      Space = !Out.empty();
      continue;
    }
    if (Space && C != ',' && C != '}' && C != ']' && !Out.empty() &&
        Out.back() != ',' && Out.back() != '{' && Out.back() != '[')
      Out += ' ';
    Space = false;
    Out += C;
  }
  while (!Out.empty() && (Out.back() == ';' || Out.back() == ' '))
    Out.pop_back();
  return Out;
}

class InlineAsmRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(asmStmt().bind("asm"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Asm = Result.Nodes.getNodeAs<GCCAsmStmt>("asm");
    if (!Asm)
      return; // MS-style asm is not CUDA
    SourceLocation Loc = Asm->getAsmLoc();
    if (!Ctx.isTranslated(Loc) || !Seen.insert(Loc.getRawEncoding()).second)
      return;
    const SourceManager &SM = *Result.SourceManager;
    const LangOptions &LO = Result.Context->getLangOpts();
    std::string Ptx = normalizePtx(Asm->getAsmString());
    auto Text = [&](const Expr *E) -> std::string {
      CharSourceRange R = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
      if (R.isInvalid())
        return {};
      return Lexer::getSourceText(R, SM, LO).str();
    };
    std::vector<std::string> Out, In;
    bool Plain = true;
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I) {
      Out.push_back(Text(Asm->getOutputExpr(I)));
      Plain &= !Out.back().empty() &&
               Asm->getOutputConstraint(I).starts_with("=");
    }
    for (unsigned I = 0; I < Asm->getNumInputs(); ++I) {
      In.push_back(Text(Asm->getInputExpr(I)));
      Plain &= !In.back().empty();
    }
    std::string Hip = Plain ? lower(Ptx, Out, In) : "";
    if (!Hip.empty()) {
      SourceLocation End = Asm->getRParenLoc();
      if (Ctx.replace(CharSourceRange::getTokenRange(Loc, End), Hip)) {
        // The HIP functions written here may need their compat
        // definitions, which the lexical pass only adds for names it saw.
        static const std::regex Ident(R"([A-Za-z_][A-Za-z0-9_]*)");
        for (std::sregex_iterator It(Hip.begin(), Hip.end(), Ident), E;
             It != E; ++It)
          if (const Mapping *M = lookupIdentifier(It->str()))
            if (M->supported() && !M->availableIn(Ctx.target()) &&
                !M->Compat.empty())
              Ctx.requireCompat(Loc, *M);
        Ctx.count("inline-asm", true);
        return;
      }
    }
    Ctx.report(Loc, Severity::Warning,
               "inline PTX has no HIP translation" +
                   std::string(Plain ? "" : " here (an operand comes from a "
                                            "macro or is read-write)") +
                   ": '" + Ptx + "'; rewrite it with HIP device functions",
               "inline-asm");
    Ctx.count("inline-asm", false);
  }

private:
  /// The HIP statement for a PTX idiom, or empty.
  static std::string lower(const std::string &Ptx,
                           const std::vector<std::string> &Out,
                           const std::vector<std::string> &In) {
    auto Par = [](const std::string &S) { return "(" + S + ")"; };
    if (Out.size() == 1 && In.empty() &&
        std::regex_match(Ptx, std::regex(R"(mov\.u32 %0,%%laneid)")))
      return Out[0] + " = __lane_id() & 31";
    if (Out.size() == 1 && In.size() == 1 &&
        std::regex_match(Ptx,
                         std::regex(R"(ld\.global\.nc(\.[a-z0-9]+)+ %0,\[%1\])")))
      return Out[0] + " = __ldg(" + In[0] + ")";
    if (Out.size() == 1 && In.size() == 2 &&
        std::regex_match(Ptx, std::regex(R"(mov\.b32 %0,\{%1,%2\})")))
      return Out[0] + " = (unsigned)(unsigned short)" + Par(In[0]) +
             " | (unsigned)(unsigned short)" + Par(In[1]) + " << 16";
    if (Out.size() == 2 && In.size() == 1 &&
        std::regex_match(Ptx, std::regex(R"(mov\.b32 \{%0,%1\},%2)")))
      return Out[0] + " = (unsigned short)" + Par(In[0]) + ", " + Out[1] +
             " = (unsigned short)((unsigned)" + Par(In[0]) + " >> 16)";
    if (Out.size() == 1 && In.size() == 3 &&
        std::regex_match(Ptx, std::regex(R"(prmt\.b32 %0,%1,%2,%3)")))
      return Out[0] + " = __byte_perm(" + In[0] + ", " + In[1] + ", " + In[2] +
             ")";
    if (std::string R = lowerShuffle(Ptx, Out, In); !R.empty())
      return R;
    if (Out.size() == 1 && In.size() == 2 &&
        std::regex_match(Ptx, std::regex(R"(cvt\.rn\.bf16x2\.f32 %0,%1,%2)")))
      return Out[0] + " = ({ __hip_bfloat162 CuhipPair = "
                      "__floats2bfloat162_rn(" + In[1] + ", " + In[0] +
             "); unsigned CuhipBits; __builtin_memcpy(&CuhipBits, "
             "&CuhipPair, sizeof(CuhipBits)); CuhipBits; })";
    return {};
  }

  /// shfl.sync.MODE.b32 d, a, b, c, mask, with b, c and mask operands or
  /// literals (a and d are operands).
  static std::string lowerShuffle(const std::string &Ptx,
                                  const std::vector<std::string> &Out,
                                  const std::vector<std::string> &In) {
    std::smatch M;
    static const std::regex Shfl(
        R"(shfl\.sync\.(idx|up|down|bfly)\.b32 %0,%([0-9]+),([^,]+),([^,]+),([^,]+))");
    if (Out.size() != 1 || !std::regex_match(Ptx, M, Shfl))
      return {};
    // An operand %N (N counts outputs first) or a literal number.
    auto Operand = [&](const std::string &T) -> std::string {
      if (T.size() > 1 && T[0] == '%') {
        unsigned N = std::stoul(T.substr(1));
        if (N < 1 || N - 1 >= In.size())
          return {};
        return "(" + In[N - 1] + ")";
      }
      if (std::regex_match(T, std::regex(R"(0[xX][0-9a-fA-F]+|[0-9]+)")))
        return T;
      return {};
    };
    // Built in two steps: `"%" + std::string&&` makes GCC 12 warn
    // (-Wrestrict) about a copy it cannot prove disjoint.
    std::string ValueReg = "%";
    ValueReg += M[2].str();
    std::string Value = Operand(ValueReg);
    std::string Lane = Operand(M[3].str());
    std::string C = Operand(M[4].str());
    std::string Mask = Operand(M[5].str());
    if (Value.empty() || Lane.empty() || C.empty() || Mask.empty())
      return {};
    std::string Width;
    if (C[0] != '(') {
      unsigned long CV = std::stoul(C, nullptr, 0);
      Width = std::to_string(32 - ((CV >> 8) & 0x1f));
    } else {
      Width = "32 - (" + C + " >> 8)";
    }
    static const std::map<std::string, std::string> Fn = {
        {"idx", "__shfl_sync"},
        {"up", "__shfl_up_sync"},
        {"down", "__shfl_down_sync"},
        {"bfly", "__shfl_xor_sync"}};
    return Out[0] + " = " + Fn.at(M[1].str()) + "(" + Mask + ", " + Value +
           ", " + Lane + ", " + Width + ")";
  }

  std::set<unsigned> Seen;
};

} // namespace

std::unique_ptr<Rule> createInlineAsmRule(TranslationContext &Ctx) {
  return std::make_unique<InlineAsmRule>(Ctx);
}

} // namespace cuhip::translate
