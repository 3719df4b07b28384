//===- Parser.cpp - PTX text to AST ---------------------------------------===//
//
// A recursive-descent parser over the on-demand token stream of Lexer. It
// accepts what nvcc, NVVM and hand-written inline asm actually emit (debug
// sections, `.loc` lines, call sequences with `.callprototype`, nested asm
// blocks) and turns everything the lowering needs into the AST of AST.h.
// Bad input never stops it early: each error is reported at the offending
// token, the parser skips to the end of that statement and carries on, so
// one run shows the user every mistake (up to a cap). Nesting is bounded so
// that no input can exhaust the stack, and every loop either consumes a
// token or ends, so no input can make it hang.
//
//===----------------------------------------------------------------------===//

#include "cuhip/ptx/Parser.h"

#include "Lexer.h"

#include <bit>
#include <charconv>
#include <string>
#include <unordered_map>

namespace cuhip::ptx {

namespace {

constexpr unsigned MaxErrors = 50;
/// Deepest `{ }` nesting of blocks or initializers; real PTX needs a handful.
constexpr unsigned MaxNesting = 256;

/// A numeric literal after validation, before it becomes an operand or an
/// initializer element.
struct Number {
  bool IsFloat = false;
  uint64_t Int = 0;
  bool HasBits = false;  // written as 0f/0d: Bits is exact
  bool IsDouble = false; // 0d form
  uint64_t Bits = 0;
  double Value = 0;
};

/// The attributes between a state space and a name: `.align 8 .v4 .f32`.
struct DeclAttrs {
  unsigned Align = 0;
  unsigned VectorWidth = 0;
  ScalarType Type = ScalarType::None;
  bool Opaque = false; // .texref/.samplerref/.surfref: no ScalarType
  bool IsPtr = false;
  bool Managed = false; // .attribute(.managed)
};

bool parseIntegerText(std::string_view T, uint64_t &V) {
  if (!T.empty() && (T.back() == 'U' || T.back() == 'u'))
    T.remove_suffix(1);
  if (T.empty())
    return false;
  unsigned Base = 10;
  if (T.size() > 2 && T[0] == '0' && (T[1] == 'x' || T[1] == 'X')) {
    Base = 16;
    T.remove_prefix(2);
  } else if (T.size() > 2 && T[0] == '0' && (T[1] == 'b' || T[1] == 'B')) {
    Base = 2;
    T.remove_prefix(2);
  } else if (T.size() > 1 && T[0] == '0') {
    Base = 8;
    T.remove_prefix(1);
  }
  V = 0;
  for (char C : T) {
    unsigned D;
    if (C >= '0' && C <= '9')
      D = C - '0';
    else if (C >= 'a' && C <= 'f')
      D = C - 'a' + 10;
    else if (C >= 'A' && C <= 'F')
      D = C - 'A' + 10;
    else
      return false;
    if (D >= Base || V > (UINT64_MAX - D) / Base)
      return false;
    V = V * Base + D;
  }
  return true;
}

bool parseHexDigits(std::string_view T, uint64_t &V) {
  V = 0;
  for (char C : T) {
    unsigned D;
    if (C >= '0' && C <= '9')
      D = C - '0';
    else if (C >= 'a' && C <= 'f')
      D = C - 'a' + 10;
    else if (C >= 'A' && C <= 'F')
      D = C - 'A' + 10;
    else
      return false;
    V = V << 4 | D;
  }
  return true;
}

/// Quotes a token for a message, escaping bytes a terminal would mangle and
/// shortening long ones (a whole debug string is not a useful message).
std::string describe(const Token &T) {
  if (T.Kind == TokenKind::Eof)
    return "end of file";
  constexpr size_t MaxShown = 40;
  std::string S = "'";
  std::string_view Text = T.Text.substr(0, MaxShown);
  for (char C : Text) {
    auto U = static_cast<unsigned char>(C);
    if (U >= 0x20 && U < 0x7f && C != '\\') {
      S += C;
    } else {
      static constexpr char Hex[] = "0123456789abcdef";
      S += "\\x";
      S += Hex[U >> 4];
      S += Hex[U & 15];
    }
  }
  if (T.Text.size() > MaxShown)
    S += "...";
  S += '\'';
  return S;
}

class Parser {
public:
  Parser(std::string_view Text, DiagnosticEngine &Diags)
      : Lex(Text), Diags(Diags) {
    Tok = Lex.next();
  }

  std::optional<Module> run();

private:
  // --- Token stream -------------------------------------------------------
  const Token &peek() {
    if (Stopped)
      return Tok;
    if (!HasAhead) {
      Ahead = Lex.next();
      HasAhead = true;
    }
    return Ahead;
  }
  void consume() {
    PrevLine = Tok.Loc.Line;
    ++Consumed;
    if (Stopped)
      return;
    if (HasAhead) {
      Tok = Ahead;
      HasAhead = false;
    } else {
      Tok = Lex.next();
    }
  }
  bool atEof() const { return Tok.Kind == TokenKind::Eof; }
  bool onNewLine() const { return Tok.Loc.Line != PrevLine; }

  // --- Diagnostics --------------------------------------------------------
  void error(SourceLoc Loc, std::string Msg) {
    if (Stopped)
      return;
    Diags.error(Loc, std::move(Msg));
    if (++Errors >= MaxErrors) {
      Diags.note(Loc, "too many errors emitted (" + std::to_string(MaxErrors) +
                          "), stopping now; fix these and run again");
      // Turning the current token into end of file makes every loop finish
      // without further checks.
      Stopped = true;
      HasAhead = false;
      Tok.Kind = TokenKind::Eof;
      Tok.Text = {};
    }
  }
  void note(SourceLoc Loc, std::string Msg) {
    if (!Stopped)
      Diags.note(Loc, std::move(Msg));
  }
  void errorExpected(std::string_view What) {
    if (Tok.Kind == TokenKind::UnterminatedComment)
      error(Tok.Loc, "unterminated '/*' comment");
    else if (Tok.Kind == TokenKind::UnterminatedString)
      error(Tok.Loc, "missing terminating '\"' character");
    else
      error(Tok.Loc,
            "expected " + std::string(What) + ", found " + describe(Tok));
  }
  bool expectPunct(char C, std::string_view What) {
    if (Tok.isPunct(C)) {
      consume();
      return true;
    }
    errorExpected(What);
    return false;
  }

  // --- Recovery -----------------------------------------------------------
  void recoverStatement();
  void recoverModuleItem();
  void skipLine(uint32_t Line);
  bool skipBalancedBraces();

  // --- Numbers ------------------------------------------------------------
  bool parseNumber(bool Negate, Number &N);
  bool parseUnsigned(uint64_t &V, std::string_view What);
  bool parseSmallUnsigned(unsigned &V, std::string_view What);

  // --- Module level -------------------------------------------------------
  void parseTopLevel(Module &M);
  void parseVersion(Module &M);
  void parseTarget(Module &M);
  void parseAddressSize(Module &M);
  void parseSection();
  bool parsePragma();
  void parseFunction(Module &M, Linkage Link, SourceLoc Start);
  bool parseParamList(std::vector<Param> &Out, bool AllowReg);
  bool parseParam(Param &P, bool AllowReg);
  bool parsePerformanceDirectives(Function &F);
  bool parseDirectiveInts(unsigned *Out, unsigned MaxCount);
  void addFunction(Module &M, Function &&F);

  // --- Declarations -------------------------------------------------------
  bool parseDeclAttrs(DeclAttrs &A, bool AllowPtr);
  bool parseVarDecls(StateSpace Space, Linkage Link, SourceLoc Start,
                     std::vector<VarDecl> &Out);
  bool parseInitializer(VarDecl &D, unsigned Nest);
  bool parseInitItem(VarDecl &D);

  // --- Function bodies ----------------------------------------------------
  void parseBlockBody(Block &B, SourceLoc Open);
  void parseStatement(std::vector<Statement> &Out);
  void parseScope(std::vector<Statement> &Out);
  void parseLabel(std::vector<Statement> &Out);
  void parseBodyDirective(std::vector<Statement> &Out);
  void parseInstruction(std::vector<Statement> &Out);
  bool looksLikeOpcode();
  /// Level 0: any operand; 1: inside an address (vectors allowed); 2: inside
  /// a vector or call list (scalars only). Bounds the recursion.
  bool parseOperand(Operand &Op, unsigned Level);
  bool parseNameOperand(Operand &Op);
  bool parseAddress(Operand &Op);
  bool parseList(Operand &Op, char Close);
  bool parseOffset(int64_t &Offset);
  bool parseArrayIndex(Operand &Op);

  // --- Register scopes ----------------------------------------------------
  // Names without '%' are registers only if a `.reg` declared them (inline
  // asm's `.reg .b32 c;`); everything else is a variable, label or
  // function. Only such names are tracked, so the maps stay tiny.
  void pushScope() { ScopeMarks.push_back(RegStack.size()); }
  void popScope();
  void declareRegister(std::string_view Name, bool IsRange);
  bool isRegisterName(std::string_view Name) const;

  Lexer Lex;
  DiagnosticEngine &Diags;
  Token Tok;
  Token Ahead;
  bool HasAhead = false;
  uint32_t PrevLine = 0;
  uint64_t Consumed = 0;
  unsigned Errors = 0;
  bool Stopped = false;
  unsigned Depth = 0;
  /// `{` of vector operands opened by the statement being parsed, so that
  /// recovery does not mistake their `}` for the end of the block.
  unsigned StatementBraces = 0;

  struct RegEntry {
    std::string_view Name;
    bool IsRange;
  };
  std::vector<RegEntry> RegStack;
  std::vector<size_t> ScopeMarks;
  std::unordered_map<std::string_view, unsigned> RegNames;
  std::unordered_map<std::string_view, unsigned> RegRangePrefixes;
  std::unordered_map<std::string, size_t> FunctionIndex;
};

//===----------------------------------------------------------------------===//
// Recovery
//===----------------------------------------------------------------------===//

void Parser::recoverStatement() {
  unsigned Open = StatementBraces;
  StatementBraces = 0;
  while (!atEof()) {
    if (Tok.isPunct(';')) {
      consume();
      return;
    }
    if (Tok.isPunct('{')) {
      if (Open == 0)
        return; // a nested block starts the next statement
      ++Open;
    } else if (Tok.isPunct('}')) {
      if (Open == 0)
        return; // leave it to close the enclosing block
      --Open;
    }
    consume();
  }
}

void Parser::recoverModuleItem() {
  // Braces an initializer already opened must close before the item ends.
  unsigned Open = StatementBraces;
  StatementBraces = 0;
  while (!atEof()) {
    if (Tok.isPunct(';') && Open == 0) {
      consume();
      return;
    }
    if (Tok.isPunct('{')) {
      ++Open;
    } else if (Tok.isPunct('}')) {
      consume();
      if (Open <= 1) {
        if (Tok.isPunct(';')) // the end of `= {...};`
          consume();
        return;
      }
      --Open;
      continue;
    } else if (Open == 0 && Tok.Kind == TokenKind::Directive && onNewLine()) {
      // A new top-level item on its own line: resume there rather than
      // swallowing a function whose header follows a broken declaration.
      std::string_view D = Tok.Text.substr(1);
      if (D == "visible" || D == "extern" || D == "weak" || D == "entry" ||
          D == "func" || D == "global" || D == "const" || D == "version" ||
          D == "target" || D == "address_size" || D == "file" || D == "section")
        return;
    }
    consume();
  }
}

void Parser::skipLine(uint32_t Line) {
  while (!atEof() && Tok.Loc.Line == Line)
    consume();
}

// Skips a `{ ... }` group without looking inside; iterative so that deep
// nesting costs no stack.
bool Parser::skipBalancedBraces() {
  SourceLoc Open = Tok.Loc;
  consume(); // '{'
  uint64_t Level = 1;
  while (Level != 0) {
    if (atEof()) {
      errorExpected("'}'");
      note(Open, "to match this '{'");
      return false;
    }
    if (Tok.isPunct('{'))
      ++Level;
    else if (Tok.isPunct('}'))
      --Level;
    consume();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

bool Parser::parseNumber(bool Negate, Number &N) {
  Token T = Tok;
  if (T.Kind == TokenKind::Integer) {
    if (!parseIntegerText(T.Text, N.Int)) {
      error(T.Loc, "invalid integer literal " + describe(T) +
                       " (it is malformed or does not fit in 64 bits)");
      return false;
    }
    if (Negate) {
      if (N.Int > (uint64_t(1) << 63)) {
        error(T.Loc, "integer literal -" + std::string(T.Text) +
                         " does not fit in 64 bits");
        return false;
      }
      N.Int = 0 - N.Int;
    }
    consume();
    return true;
  }
  if (T.Kind == TokenKind::HexFloat) {
    N.IsFloat = true;
    N.HasBits = true;
    N.IsDouble = T.Text[1] == 'd' || T.Text[1] == 'D';
    std::string_view Digits = T.Text.substr(2);
    if (Digits.size() != (N.IsDouble ? 16u : 8u) ||
        !parseHexDigits(Digits, N.Bits)) {
      error(T.Loc, "invalid floating-point literal " + describe(T) +
                       "; 0f takes exactly 8 hex digits and 0d exactly 16");
      return false;
    }
    if (Negate)
      N.Bits ^= N.IsDouble ? uint64_t(1) << 63 : uint64_t(1) << 31;
    N.Value = N.IsDouble
                  ? std::bit_cast<double>(N.Bits)
                  : double(std::bit_cast<float>(static_cast<uint32_t>(N.Bits)));
    consume();
    return true;
  }
  if (T.Kind == TokenKind::Float) {
    N.IsFloat = true;
    const char *B = T.Text.data();
    const char *E = B + T.Text.size();
    auto [Ptr, Ec] = std::from_chars(B, E, N.Value);
    if (Ec != std::errc() || Ptr != E) {
      error(T.Loc, "invalid floating-point literal " + describe(T));
      return false;
    }
    if (Negate)
      N.Value = -N.Value;
    consume();
    return true;
  }
  errorExpected("a number");
  return false;
}

bool Parser::parseUnsigned(uint64_t &V, std::string_view What) {
  if (Tok.Kind != TokenKind::Integer) {
    errorExpected(What);
    return false;
  }
  Number N;
  if (!parseNumber(false, N))
    return false;
  V = N.Int;
  return true;
}

bool Parser::parseSmallUnsigned(unsigned &V, std::string_view What) {
  SourceLoc Loc = Tok.Loc;
  uint64_t Wide;
  if (!parseUnsigned(Wide, What))
    return false;
  if (Wide > UINT32_MAX) {
    error(Loc, "value " + std::to_string(Wide) + " is too large for " +
                   std::string(What));
    return false;
  }
  V = static_cast<unsigned>(Wide);
  return true;
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

std::optional<Module> Parser::run() {
  Module M;
  M.FileName = Diags.fileName();
  while (!atEof()) {
    uint64_t Before = Consumed;
    parseTopLevel(M);
    if (Consumed == Before && !atEof())
      consume();
  }
  if (Errors != 0)
    return std::nullopt;
  return M;
}

static bool isLinkage(std::string_view D, Linkage &L) {
  if (D == "visible")
    L = Linkage::Visible;
  else if (D == "extern")
    L = Linkage::Extern;
  else if (D == "weak")
    L = Linkage::Weak;
  else if (D == "common")
    L = Linkage::Common;
  else
    return false;
  return true;
}

static bool isModuleVariableSpace(std::string_view D) {
  return D == "global" || D == "const" || D == "shared" || D == "local";
}

void Parser::parseTopLevel(Module &M) {
  StatementBraces = 0;
  if (Tok.Kind != TokenKind::Directive) {
    errorExpected("a directive such as .version, .entry, .func or .global");
    recoverModuleItem();
    return;
  }
  Token D = Tok;
  std::string_view Name = D.Text.substr(1);
  if (Name == "version")
    return parseVersion(M);
  if (Name == "target")
    return parseTarget(M);
  if (Name == "address_size")
    return parseAddressSize(M);
  if (Name == "file" || Name == "loc")
    return skipLine(D.Loc.Line); // debug line tables: not needed to run
  if (Name == "section")
    return parseSection();
  if (Name == "pragma") {
    if (!parsePragma())
      recoverModuleItem();
    return;
  }

  Linkage Link = Linkage::Internal;
  if (isLinkage(Name, Link)) {
    consume();
    if (Tok.Kind != TokenKind::Directive) {
      errorExpected("'.entry', '.func' or a state space after " + describe(D));
      recoverModuleItem();
      return;
    }
    Name = Tok.Text.substr(1);
  }
  if (Name == "entry" || Name == "func")
    return parseFunction(M, Link, D.Loc);
  if (isModuleVariableSpace(Name)) {
    if (!parseVarDecls(parseStateSpace(Name), Link, D.Loc, M.Globals))
      recoverModuleItem();
    return;
  }
  if (Name == "alias")
    error(Tok.Loc, "'.alias' is not supported; define the function under "
                   "the name it is called by");
  else
    error(Tok.Loc, "unknown directive " + describe(Tok) +
                       " at module scope; expected .version, .target, "
                       ".entry, .func or a variable declaration");
  recoverModuleItem();
}

void Parser::parseVersion(Module &M) {
  consume();
  Token T = Tok;
  std::string_view Text = T.Text;
  size_t Dot = Text.find('.');
  uint64_t Major = 0, Minor = 0;
  if (T.Kind != TokenKind::Float || Dot == std::string_view::npos ||
      !parseIntegerText(Text.substr(0, Dot), Major) ||
      !parseIntegerText(Text.substr(Dot + 1), Minor) || Major > 1000 ||
      Minor > 1000 || Text.substr(Dot + 1).empty() ||
      Text.find_first_not_of("0123456789.") != std::string_view::npos) {
    errorExpected("a PTX ISA version such as 9.0 after '.version'");
    recoverModuleItem();
    return;
  }
  M.VersionMajor = static_cast<unsigned>(Major);
  M.VersionMinor = static_cast<unsigned>(Minor);
  consume();
}

void Parser::parseTarget(Module &M) {
  consume();
  while (true) {
    if (Tok.Kind != TokenKind::Identifier) {
      errorExpected("a target such as sm_80 after '.target'");
      recoverModuleItem();
      return;
    }
    M.Targets.emplace_back(Tok.Text);
    consume();
    if (!Tok.isPunct(','))
      return;
    consume();
  }
}

void Parser::parseAddressSize(Module &M) {
  consume();
  SourceLoc Loc = Tok.Loc;
  unsigned Size;
  if (!parseSmallUnsigned(Size, "an address size (32 or 64)")) {
    recoverModuleItem();
    return;
  }
  if (Size != 32 && Size != 64) {
    error(Loc, "address size must be 32 or 64, not " + std::to_string(Size));
    return;
  }
  M.AddressSize = Size;
}

// `.section .debug_info { ... }`: DWARF written out as data directives. The
// runtime has no use for it, so its body is skipped without being parsed.
void Parser::parseSection() {
  consume();
  while (!atEof() && !Tok.isPunct('{') && !Tok.isPunct(';'))
    consume();
  if (Tok.isPunct(';')) {
    consume();
    return;
  }
  if (atEof()) {
    errorExpected("'{' after '.section'");
    return;
  }
  skipBalancedBraces();
}

bool Parser::parsePragma() {
  consume();
  while (true) {
    if (Tok.Kind != TokenKind::String) {
      errorExpected("a string after '.pragma'");
      return false;
    }
    consume();
    if (!Tok.isPunct(','))
      break;
    consume();
  }
  return expectPunct(';', "';' after '.pragma'");
}

void Parser::parseFunction(Module &M, Linkage Link, SourceLoc Start) {
  Function F;
  F.Loc = Start;
  F.Link = Link;
  F.IsEntry = Tok.isDirective("entry");
  Token Kw = Tok;
  consume();

  if (Tok.isPunct('(')) {
    if (F.IsEntry) {
      error(Tok.Loc, "a kernel (.entry) cannot return a value; only .func "
                     "has a return parameter list");
      recoverModuleItem();
      return;
    }
    if (!parseParamList(F.Returns, /*AllowReg=*/true)) {
      recoverModuleItem();
      return;
    }
  }
  if (Tok.Kind != TokenKind::Identifier || Tok.Text == "_") {
    errorExpected("a function name after " + describe(Kw));
    recoverModuleItem();
    return;
  }
  F.Name = std::string(Tok.Text);
  consume();
  if (Tok.isPunct('(') && !parseParamList(F.Params, /*AllowReg=*/!F.IsEntry)) {
    recoverModuleItem();
    return;
  }
  if (!parsePerformanceDirectives(F)) {
    recoverModuleItem();
    return;
  }
  if (Tok.isPunct(';')) {
    consume();
    addFunction(M, std::move(F));
    return;
  }
  if (!Tok.isPunct('{')) {
    errorExpected("'{' or ';' after the header of '" + F.Name + "'");
    recoverModuleItem();
    return;
  }

  SourceLoc Open = Tok.Loc;
  consume();
  pushScope();
  for (const auto *List : {&F.Returns, &F.Params})
    for (const Param &P : *List)
      if (P.Space == StateSpace::Reg)
        declareRegister(P.Name, /*IsRange=*/false);
  Block Body;
  Body.Loc = Open;
  parseBlockBody(Body, Open);
  // The block owns the strings the scope maps point into only until the
  // function is moved into the module, so the scope must end first.
  popScope();
  F.Body = std::move(Body);
  addFunction(M, std::move(F));
}

// A module declares a function (`.extern .func f(...);` or a forward
// `.weak .func`) and may define it later. Keeping one entry per name, with
// the body once there is one, means findFunction always answers with the
// definition.
void Parser::addFunction(Module &M, Function &&F) {
  auto It = FunctionIndex.find(F.Name);
  if (It == FunctionIndex.end()) {
    FunctionIndex.emplace(F.Name, M.Functions.size());
    M.Functions.push_back(std::move(F));
    return;
  }
  Function &Old = M.Functions[It->second];
  if (!F.Body)
    return;
  if (Old.Body) {
    error(F.Loc, "redefinition of function '" + F.Name + "'");
    note(Old.Loc, "previous definition is here");
    return;
  }
  Old = std::move(F);
}

bool Parser::parseParamList(std::vector<Param> &Out, bool AllowReg) {
  consume(); // '('
  if (Tok.isPunct(')')) {
    consume();
    return true;
  }
  while (true) {
    Param P;
    if (!parseParam(P, AllowReg))
      return false;
    Out.push_back(std::move(P));
    if (Tok.isPunct(',')) {
      consume();
      continue;
    }
    return expectPunct(')', "',' or ')' in parameter list");
  }
}

bool Parser::parseParam(Param &P, bool AllowReg) {
  P.Loc = Tok.Loc;
  if (Tok.isDirective("param")) {
    P.Space = StateSpace::Param;
  } else if (AllowReg && Tok.isDirective("reg")) {
    P.Space = StateSpace::Reg;
  } else {
    errorExpected(AllowReg ? "'.param' or '.reg' to start a parameter"
                           : "'.param' to start a kernel parameter");
    return false;
  }
  consume();
  DeclAttrs A;
  if (!parseDeclAttrs(A, /*AllowPtr=*/true))
    return false;
  P.Type = A.Type;
  P.VectorWidth = A.VectorWidth;
  P.Align = A.Align;
  P.IsPtr = A.IsPtr;
  if (Tok.Kind != TokenKind::Identifier) {
    errorExpected("a parameter name");
    return false;
  }
  P.Name = std::string(Tok.Text);
  consume();
  while (Tok.isPunct('[')) {
    consume();
    SourceLoc Loc = Tok.Loc;
    uint64_t N;
    if (!parseUnsigned(N, "an array size") ||
        !expectPunct(']', "']' after array size"))
      return false;
    // Several dimensions only describe a larger byte array.
    uint64_t Total = P.ArrayCount == 0 ? N : P.ArrayCount * N;
    if (P.ArrayCount != 0 && N != 0 && Total / N != P.ArrayCount) {
      error(Loc, "parameter array '" + P.Name + "' is too large");
      return false;
    }
    P.ArrayCount = Total;
  }
  return true;
}

bool Parser::parseDirectiveInts(unsigned *Out, unsigned MaxCount) {
  Token D = Tok;
  consume();
  for (unsigned I = 0;; ++I) {
    unsigned V;
    if (!parseSmallUnsigned(V, "a number after " + describe(D)))
      return false;
    if (I < MaxCount)
      Out[I] = V;
    if (!Tok.isPunct(','))
      return true;
    if (I + 1 >= MaxCount) {
      error(Tok.Loc, describe(D) + " takes at most " +
                         std::to_string(MaxCount) + " values");
      return false;
    }
    consume();
  }
}

bool Parser::parsePerformanceDirectives(Function &F) {
  while (Tok.Kind == TokenKind::Directive) {
    std::string_view D = Tok.Text.substr(1);
    unsigned Ignored[3];
    bool Ok = true;
    if (D == "maxntid")
      Ok = parseDirectiveInts(F.MaxNTid, 3);
    else if (D == "reqntid")
      Ok = parseDirectiveInts(F.ReqNTid, 3);
    else if (D == "minnctapersm")
      Ok = parseDirectiveInts(&F.MinNCtaPerSm, 1);
    else if (D == "maxnreg")
      Ok = parseDirectiveInts(&F.MaxNReg, 1);
    else if (D == "maxnctapersm" || D == "maxclusterrank" ||
             D == "abi_preserve" || D == "abi_preserve_control")
      Ok = parseDirectiveInts(Ignored, 1); // hints with no effect here
    else if (D == "reqnctapercluster")
      Ok = parseDirectiveInts(Ignored, 3);
    else if (D == "noreturn") {
      F.NoReturn = true;
      consume();
    } else if (D == "explicitcluster" || D == "blocksareclusters")
      consume();
    else if (D == "pragma")
      Ok = parsePragma();
    else {
      error(Tok.Loc, "unknown directive " + describe(Tok) +
                         " in the header of '" + F.Name + "'");
      return false;
    }
    if (!Ok)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

bool Parser::parseDeclAttrs(DeclAttrs &A, bool AllowPtr) {
  while (Tok.Kind == TokenKind::Directive) {
    std::string_view Name = Tok.Text.substr(1);
    ScalarType T = parseScalarType(Name);
    if (Name == "align") {
      consume();
      SourceLoc Loc = Tok.Loc;
      unsigned Align;
      if (!parseSmallUnsigned(Align, "an alignment after '.align'"))
        return false;
      if (Align == 0 || (Align & (Align - 1)) != 0) {
        error(Loc,
              "alignment " + std::to_string(Align) + " is not a power of two");
        return false;
      }
      // After `.ptr` the alignment describes the pointee, not the param.
      if (!A.IsPtr)
        A.Align = Align;
      continue;
    }
    if (Name == "attribute") {
      // `.attribute(.managed)` and `.attribute(.unified(uuid1, uuid2))` on
      // .global variables (ISA 5.4.8): storage the host shares. The CPU
      // backend's device memory is host memory, so both only need noting.
      consume();
      if (!expectPunct('(', "'(' after '.attribute'"))
        return false;
      while (true) {
        if (Tok.isDirective("managed")) {
          A.Managed = true;
          consume();
        } else if (Tok.isDirective("unified")) {
          consume();
          if (!expectPunct('(', "'(' after '.unified'"))
            return false;
          while (Tok.Kind == TokenKind::Integer || Tok.isPunct(','))
            consume();
          if (!expectPunct(')', "')' after the identifiers of '.unified'"))
            return false;
        } else {
          errorExpected("'.managed' or '.unified' in '.attribute(...)'");
          return false;
        }
        if (Tok.isPunct(',')) {
          consume();
          continue;
        }
        break;
      }
      if (!expectPunct(')', "')' after the variable attributes"))
        return false;
      continue;
    }
    if (Name == "v2" || Name == "v4" || Name == "v8" || Name == "v16") {
      A.VectorWidth = Name == "v2"   ? 2
                      : Name == "v4" ? 4
                      : Name == "v8" ? 8
                                     : 16;
    } else if (T != ScalarType::None) {
      if (A.Type != ScalarType::None) {
        error(Tok.Loc, "declaration has a second type " + describe(Tok));
        return false;
      }
      A.Type = T;
    } else if (Name == "texref" || Name == "samplerref" || Name == "surfref") {
      A.Opaque = true;
    } else if (Name == "ptr" && AllowPtr) {
      A.IsPtr = true;
    } else if (A.IsPtr && parseStateSpace(Name) != StateSpace::None) {
      // `.ptr .global`: where the pointee lives; a hint we do not need.
    } else {
      break;
    }
    consume();
  }
  if (A.Type == ScalarType::None && !A.Opaque) {
    errorExpected("a type such as .b32, .u64 or .f32");
    return false;
  }
  return true;
}

bool Parser::parseVarDecls(StateSpace Space, Linkage Link, SourceLoc Start,
                           std::vector<VarDecl> &Out) {
  consume(); // the state space
  DeclAttrs A;
  if (!parseDeclAttrs(A, /*AllowPtr=*/false))
    return false;
  while (true) {
    VarDecl D;
    D.Loc = Start;
    D.Space = Space;
    D.Link = Link;
    D.Type = A.Type;
    D.VectorWidth = A.VectorWidth;
    D.Align = A.Align;
    D.Managed = A.Managed;
    if (Tok.Kind != TokenKind::Identifier || Tok.Text == "_") {
      errorExpected("a name in the declaration");
      return false;
    }
    D.Name = std::string(Tok.Text);
    std::string_view NameView = Tok.Text;
    consume();
    if (Tok.isPunct('<')) {
      consume();
      if (!parseSmallUnsigned(D.RangeCount, "a register count after '<'") ||
          !expectPunct('>', "'>' after the register count"))
        return false;
    }
    while (Tok.isPunct('[')) {
      consume();
      if (Tok.isPunct(']')) {
        D.Dims.push_back(0);
        consume();
        continue;
      }
      uint64_t N;
      if (!parseUnsigned(N, "an array size or ']'") ||
          !expectPunct(']', "']' after the array size"))
        return false;
      D.Dims.push_back(N);
    }
    if (Space == StateSpace::Reg)
      declareRegister(NameView, D.RangeCount != 0);
    if (Tok.isPunct('=')) {
      consume();
      D.HasInit = true;
      if (!parseInitializer(D, 0))
        return false;
    }
    Out.push_back(std::move(D));
    if (Tok.isPunct(',')) {
      consume();
      continue;
    }
    return expectPunct(';', "';' after the declaration");
  }
}

bool Parser::parseInitializer(VarDecl &D, unsigned Nest) {
  if (!Tok.isPunct('{'))
    return parseInitItem(D);
  if (Nest >= MaxNesting) {
    error(Tok.Loc, "initializer braces nested more than " +
                       std::to_string(MaxNesting) + " deep");
    return false;
  }
  consume();
  ++StatementBraces;
  if (!Tok.isPunct('}')) {
    while (true) {
      if (!parseInitializer(D, Nest + 1))
        return false;
      if (!Tok.isPunct(','))
        break;
      consume();
    }
  }
  if (!expectPunct('}', "',' or '}' in the initializer"))
    return false;
  --StatementBraces;
  return true;
}

bool Parser::parseInitItem(VarDecl &D) {
  InitValue V;
  bool Negate = false;
  if (Tok.isPunct('-')) {
    Negate = true;
    consume();
  }
  TokenKind K = Tok.Kind;
  if (K == TokenKind::Integer || K == TokenKind::HexFloat ||
      K == TokenKind::Float) {
    Number N;
    if (!parseNumber(Negate, N))
      return false;
    if (!N.IsFloat) {
      V.K = InitValue::Int;
      V.Bits = N.Int;
    } else {
      // Store the bits the variable will hold: a float variable gets its own
      // width whatever the literal's, any other type keeps the literal's.
      V.K = InitValue::Float;
      V.FloatValue = N.Value;
      if (D.Type == ScalarType::F32) {
        V.FloatIsDouble = false;
        V.Bits = N.HasBits && !N.IsDouble
                     ? N.Bits
                     : std::bit_cast<uint32_t>(static_cast<float>(N.Value));
      } else if (D.Type == ScalarType::F64 || !N.HasBits) {
        V.FloatIsDouble = true;
        V.Bits =
            N.HasBits && N.IsDouble ? N.Bits : std::bit_cast<uint64_t>(N.Value);
      } else {
        V.FloatIsDouble = N.IsDouble;
        V.Bits = N.Bits;
      }
    }
    D.Init.push_back(std::move(V));
    return true;
  }
  if (K != TokenKind::Identifier || Negate || Tok.Text == "_") {
    errorExpected("an initial value (a number or a symbol name)");
    return false;
  }
  V.K = InitValue::Symbol;
  // `generic(sym)` only says the address is a generic one, which is what a
  // pointer-sized initializer holds anyway.
  if (Tok.Text == "generic" && peek().isPunct('(')) {
    consume();
    consume();
    if (Tok.Kind != TokenKind::Identifier) {
      errorExpected("a symbol name inside 'generic(...)'");
      return false;
    }
    V.SymbolName = std::string(Tok.Text);
    consume();
    if (!expectPunct(')', "')' after the symbol in 'generic(...)'"))
      return false;
  } else {
    V.SymbolName = std::string(Tok.Text);
    consume();
  }
  if (!parseOffset(V.Offset))
    return false;
  D.Init.push_back(std::move(V));
  return true;
}

//===----------------------------------------------------------------------===//
// Function bodies
//===----------------------------------------------------------------------===//

void Parser::parseBlockBody(Block &B, SourceLoc Open) {
  while (true) {
    if (Tok.isPunct('}')) {
      consume();
      return;
    }
    if (atEof()) {
      if (!Stopped) {
        errorExpected("'}' to end the block");
        note(Open, "to match this '{'");
      }
      return;
    }
    uint64_t Before = Consumed;
    parseStatement(B.Body);
    if (Consumed == Before && !atEof() && !Tok.isPunct('}'))
      consume();
  }
}

void Parser::parseStatement(std::vector<Statement> &Out) {
  StatementBraces = 0;
  switch (Tok.Kind) {
  case TokenKind::Punct:
    if (Tok.isPunct('{'))
      return parseScope(Out);
    if (Tok.isPunct('@'))
      return parseInstruction(Out);
    if (Tok.isPunct(';')) {
      consume(); // an empty statement is harmless
      return;
    }
    break;
  case TokenKind::Identifier:
    if (peek().isPunct(':'))
      return parseLabel(Out);
    return parseInstruction(Out);
  case TokenKind::Directive:
    return parseBodyDirective(Out);
  default:
    break;
  }
  errorExpected("an instruction, declaration or label");
  recoverStatement();
}

void Parser::parseScope(std::vector<Statement> &Out) {
  SourceLoc Open = Tok.Loc;
  if (Depth >= MaxNesting) {
    error(Open,
          "blocks nested more than " + std::to_string(MaxNesting) + " deep");
    skipBalancedBraces();
    return;
  }
  consume();
  Statement S;
  S.K = Statement::Scope;
  S.B = std::make_unique<Block>();
  S.B->Loc = Open;
  ++Depth;
  pushScope();
  parseBlockBody(*S.B, Open);
  popScope();
  --Depth;
  Out.push_back(std::move(S));
}

void Parser::parseLabel(std::vector<Statement> &Out) {
  Statement S;
  S.K = Statement::Lbl;
  S.L.Loc = Tok.Loc;
  S.L.Name = std::string(Tok.Text);
  consume(); // name
  consume(); // ':'
  // `proto: .callprototype (...) _ (...);` only names the signature of an
  // indirect call, which the call's own operands already describe.
  if (Tok.isDirective("callprototype")) {
    recoverStatement();
    return;
  }
  // A jump table for brx.idx: the label names the list of targets.
  if (Tok.isDirective("branchtargets")) {
    S.L.IsBranchTargets = true;
    consume();
    while (Tok.Kind == TokenKind::Identifier) {
      S.L.Targets.emplace_back(Tok.Text);
      consume();
      if (!Tok.isPunct(','))
        break;
      consume();
    }
    if (!Tok.isPunct(';') || S.L.Targets.empty()) {
      error(Tok.Loc, "expected a list of labels ending in ';' after "
                     ".branchtargets, found '" + std::string(Tok.Text) + "'");
      recoverStatement();
      return;
    }
    consume();
    Out.push_back(std::move(S));
    return;
  }
  Out.push_back(std::move(S));
  // Call-target hints: the label stays, the list (a hint only) does not.
  if (Tok.isDirective("calltargets"))
    recoverStatement();
}

void Parser::parseBodyDirective(std::vector<Statement> &Out) {
  Token D = Tok;
  std::string_view Name = D.Text.substr(1);
  if (Name == "loc" || Name == "file")
    return skipLine(D.Loc.Line);
  if (Name == "pragma") {
    if (!parsePragma())
      recoverStatement();
    return;
  }
  StateSpace Space = parseStateSpace(Name);
  if (Space == StateSpace::Reg || Space == StateSpace::Local ||
      Space == StateSpace::Shared || Space == StateSpace::Param ||
      Space == StateSpace::Const || Space == StateSpace::Global) {
    std::vector<VarDecl> Decls;
    bool Ok = parseVarDecls(Space, Linkage::Internal, D.Loc, Decls);
    for (VarDecl &V : Decls) {
      Statement S;
      S.K = Statement::Decl;
      S.D = std::move(V);
      Out.push_back(std::move(S));
    }
    if (!Ok)
      recoverStatement();
    return;
  }
  error(D.Loc, "unknown directive " + describe(D) +
                   " in a function body; expected a declaration such as "
                   ".reg or .shared, or an instruction");
  recoverStatement();
}

// An identifier glued to a dot-modifier (`ld.global`) is an opcode unless it
// names a register, whose suffix selects a part of it (`v.x`). Seeing an
// opcode where an operand should be means the previous instruction lacks
// its ';'.
bool Parser::looksLikeOpcode() {
  if (Tok.Kind != TokenKind::Identifier || Tok.Text[0] == '%' ||
      isRegisterName(Tok.Text)) // `v.x` of a register declared without '%'
    return false;
  const Token &Next = peek();
  return Next.Kind == TokenKind::Directive && !Next.SpaceBefore;
}

void Parser::parseInstruction(std::vector<Statement> &Out) {
  Statement S;
  S.K = Statement::Instr;
  Instruction &I = S.I;
  I.Loc = Tok.Loc;
  if (Tok.isPunct('@')) {
    consume();
    if (Tok.isPunct('!')) {
      I.GuardNegated = true;
      consume();
    }
    if (Tok.Kind != TokenKind::Identifier || Tok.Text == "_") {
      errorExpected("a predicate register after '@'");
      recoverStatement();
      return;
    }
    I.Guard = std::string(Tok.Text);
    consume();
  }
  if (Tok.Kind != TokenKind::Identifier || Tok.Text[0] == '%' ||
      Tok.Text[0] == '$' || Tok.Text == "_") {
    errorExpected("an instruction");
    recoverStatement();
    return;
  }
  I.Opcode = std::string(Tok.Text);
  consume();
  while (Tok.Kind == TokenKind::Directive && !Tok.SpaceBefore) {
    I.Modifiers.emplace_back(Tok.Text.substr(1));
    consume();
  }

  if (!Tok.isPunct(';')) {
    while (true) {
      if (looksLikeOpcode()) {
        // Resume at the opcode so the next instruction still gets parsed.
        errorExpected("';' after instruction");
        return;
      }
      Operand Op;
      if (!parseOperand(Op, 0)) {
        recoverStatement();
        return;
      }
      I.Operands.push_back(std::move(Op));
      if (Tok.isPunct(',')) {
        consume();
        continue;
      }
      if (Tok.isPunct(';'))
        break;
      errorExpected("';' after instruction");
      // Something on a later line is most likely the next statement.
      if (!onNewLine())
        recoverStatement();
      return;
    }
  }
  consume(); // ';'
  Out.push_back(std::move(S));
}

bool Parser::parseOffset(int64_t &Offset) {
  if (!Tok.isPunct('+') && !Tok.isPunct('-'))
    return true;
  bool Negative = Tok.isPunct('-');
  consume();
  // nvcc writes negative displacements as `[%rd1+-4]`.
  if (Tok.isPunct('-') || Tok.isPunct('+')) {
    Negative ^= Tok.isPunct('-');
    consume();
  }
  uint64_t V;
  if (!parseUnsigned(V, "an integer offset"))
    return false;
  Offset = static_cast<int64_t>(Negative ? 0 - V : V);
  return true;
}

// `var[idx]`: idx is an integer, a register, or a register plus or minus
// an integer (ISA "Arrays as Operands"), counted in elements of var.
bool Parser::parseArrayIndex(Operand &Op) {
  consume(); // '['
  Op.K = Operand::Address;
  Op.BaseIsSymbol = true;
  Op.ArrayElement = true;
  if (Tok.Kind == TokenKind::Identifier && isRegisterName(Tok.Text)) {
    Op.IndexRegister = std::string(Tok.Text);
    consume();
  } else if (Tok.Kind == TokenKind::Integer) {
    uint64_t V;
    if (!parseUnsigned(V, "an array index"))
      return false;
    Op.Offset = static_cast<int64_t>(V);
  } else {
    errorExpected("a register or an integer as the index of '" + Op.Name +
                  "'");
    return false;
  }
  int64_t Extra = 0;
  if (!parseOffset(Extra))
    return false;
  Op.Offset = static_cast<int64_t>(static_cast<uint64_t>(Op.Offset) +
                                   static_cast<uint64_t>(Extra));
  return expectPunct(']', "']' to close the index of '" + Op.Name + "'");
}

bool Parser::parseNameOperand(Operand &Op) {
  Op.Loc = Tok.Loc;
  if (Tok.Text == "_") {
    Op.K = Operand::Sink;
    consume();
    return true;
  }
  Op.Name = std::string(Tok.Text);
  Op.K = isRegisterName(Tok.Text) ? Operand::Register : Operand::Symbol;
  consume();
  // A suffix glued to a register picks a part of it. Vector components
  // become part of the name, as the lexer already makes them for %v.x, so
  // that `%v.x`, `%v.r` and `v.x` (inline asm) all name the element; the
  // colour names are the ISA's aliases of x, y, z, w. Anything else is a
  // video instruction's byte/half-word selector, which only they read.
  if (Op.K == Operand::Register && Tok.Kind == TokenKind::Directive &&
      !Tok.SpaceBefore) {
    std::string_view Sel = Tok.Text.substr(1);
    static constexpr std::string_view Components = "xyzwrgba";
    size_t C = Sel.size() == 1 ? Components.find(Sel[0]) : std::string_view::npos;
    if (C != std::string_view::npos) {
      Op.Name += '.';
      Op.Name += "xyzw"[C % 4];
    } else {
      Op.Selector = std::string(Sel);
    }
    consume();
  }
  return true;
}

bool Parser::parseOperand(Operand &Op, unsigned Level) {
  Op.Loc = Tok.Loc;
  switch (Tok.Kind) {
  case TokenKind::Identifier:
    parseNameOperand(Op);
    // `var+4` is an address with an offset; `%r+4` (and ptxas's `%r+-4`) a
    // source register's value plus a constant; `var[%r+1]` an array element.
    if ((Op.K == Operand::Symbol || Op.K == Operand::Register) &&
        !parseOffset(Op.Offset))
      return false;
    if (Op.K == Operand::Symbol && Op.Offset == 0 && Tok.isPunct('[') &&
        !Tok.SpaceBefore && Level == 0)
      return parseArrayIndex(Op);
    if (Tok.isPunct('|')) {
      // Dual destination: `%r1|%p1` of shfl, setp and friends.
      consume();
      if (Tok.Kind != TokenKind::Identifier) {
        errorExpected("a second destination register after '|'");
        return false;
      }
      Op.Pair = std::make_unique<Operand>();
      parseNameOperand(*Op.Pair);
    }
    return true;
  case TokenKind::Integer:
  case TokenKind::HexFloat:
  case TokenKind::Float: {
    Number N;
    if (!parseNumber(false, N))
      return false;
    if (!N.IsFloat) {
      Op.K = Operand::IntImm;
      Op.IntValue = N.Int;
    } else {
      Op.K = Operand::FloatImm;
      Op.FloatHasBits = N.HasBits;
      Op.FloatIsDouble = N.IsDouble;
      Op.FloatBits = N.Bits;
      Op.FloatValue = N.Value;
    }
    return true;
  }
  case TokenKind::Punct:
    if (Tok.isPunct('!')) {
      SourceLoc Bang = Tok.Loc;
      consume();
      if (Tok.Kind != TokenKind::Identifier || Tok.Text == "_") {
        errorExpected("a predicate register after '!'");
        return false;
      }
      parseNameOperand(Op);
      Op.Loc = Bang;
      Op.Negated = true;
      return true;
    }
    if (Tok.isPunct('-')) {
      SourceLoc Minus = Tok.Loc;
      consume();
      if (Tok.Kind == TokenKind::Identifier && isRegisterName(Tok.Text)) {
        // vmad's negated sources: `-%r3`, `-%r1.h0`.
        parseNameOperand(Op);
        Op.Loc = Minus;
        Op.Minus = true;
        return true;
      }
      if (Tok.Kind != TokenKind::Integer && Tok.Kind != TokenKind::HexFloat &&
          Tok.Kind != TokenKind::Float) {
        errorExpected("a number or a register after '-'");
        return false;
      }
      Number N;
      if (!parseNumber(true, N))
        return false;
      Op.Loc = Minus;
      if (!N.IsFloat) {
        Op.K = Operand::IntImm;
        Op.IntValue = N.Int;
      } else {
        Op.K = Operand::FloatImm;
        Op.FloatHasBits = N.HasBits;
        Op.FloatIsDouble = N.IsDouble;
        Op.FloatBits = N.Bits;
        Op.FloatValue = N.Value;
      }
      return true;
    }
    if (Tok.isPunct('[') && Level == 0)
      return parseAddress(Op);
    if (Tok.isPunct('{') && Level <= 1)
      return parseList(Op, '}');
    if (Tok.isPunct('(') && Level == 0)
      return parseList(Op, ')');
    break;
  default:
    break;
  }
  errorExpected("an operand");
  return false;
}

bool Parser::parseAddress(Operand &Op) {
  Op.K = Operand::Address;
  consume(); // '['
  Operand Base;
  Base.Loc = Tok.Loc;
  if (Tok.Kind == TokenKind::Identifier && Tok.Text != "_") {
    parseNameOperand(Base);
    Op.Name = Base.Name;
    Op.BaseIsSymbol = Base.K == Operand::Symbol;
  } else if (Tok.Kind == TokenKind::Integer) {
    uint64_t V;
    if (!parseUnsigned(V, "an address"))
      return false;
    Op.Offset = static_cast<int64_t>(V);
    Base.K = Operand::IntImm;
    Base.IntValue = V;
  } else {
    errorExpected("a register, variable or number inside '[ ]'");
    return false;
  }
  int64_t Extra = 0;
  if (!parseOffset(Extra))
    return false;
  Op.Offset = static_cast<int64_t>(static_cast<uint64_t>(Op.Offset) +
                                   static_cast<uint64_t>(Extra));
  if (Tok.isPunct(',')) {
    // Texture and surface forms `[tex, {x, y}]`: every component is kept,
    // the base first, so nothing of the coordinate list is lost.
    Op.Elements.push_back(std::move(Base));
    while (Tok.isPunct(',')) {
      consume();
      Operand E;
      if (!parseOperand(E, 1))
        return false;
      Op.Elements.push_back(std::move(E));
    }
  }
  return expectPunct(']', "']' to close the address");
}

bool Parser::parseList(Operand &Op, char Close) {
  Op.K = Operand::Vector;
  bool Brace = Close == '}';
  consume();
  if (Brace)
    ++StatementBraces;
  if (Tok.isPunct(Close)) {
    consume();
    if (Brace)
      --StatementBraces;
    return true;
  }
  while (true) {
    Operand E;
    if (!parseOperand(E, 2))
      return false;
    Op.Elements.push_back(std::move(E));
    if (Tok.isPunct(',')) {
      consume();
      continue;
    }
    if (!Tok.isPunct(Close)) {
      errorExpected(Brace ? "',' or '}' in the vector operand"
                          : "',' or ')' in the operand list");
      return false;
    }
    consume();
    if (Brace)
      --StatementBraces;
    return true;
  }
}

//===----------------------------------------------------------------------===//
// Register scopes
//===----------------------------------------------------------------------===//

void Parser::popScope() {
  if (ScopeMarks.empty())
    return;
  size_t Mark = ScopeMarks.back();
  ScopeMarks.pop_back();
  while (RegStack.size() > Mark) {
    const RegEntry &E = RegStack.back();
    auto &Map = E.IsRange ? RegRangePrefixes : RegNames;
    auto It = Map.find(E.Name);
    if (It != Map.end() && --It->second == 0)
      Map.erase(It);
    RegStack.pop_back();
  }
}

void Parser::declareRegister(std::string_view Name, bool IsRange) {
  if (Name.empty() || Name[0] == '%')
    return; // '%' names are registers anyway
  RegStack.push_back({Name, IsRange});
  ++(IsRange ? RegRangePrefixes : RegNames)[Name];
}

bool Parser::isRegisterName(std::string_view Name) const {
  if (Name.empty())
    return false;
  if (Name[0] == '%')
    return true;
  if (RegNames.empty() && RegRangePrefixes.empty())
    return false;
  if (RegNames.count(Name))
    return true;
  size_t End = Name.size();
  while (End > 0 && Name[End - 1] >= '0' && Name[End - 1] <= '9')
    --End;
  return End != Name.size() && RegRangePrefixes.count(Name.substr(0, End));
}

} // namespace

std::optional<Module> parseModule(std::string_view Text,
                                  DiagnosticEngine &Diags) {
  Parser P(Text, Diags);
  return P.run();
}

} // namespace cuhip::ptx
