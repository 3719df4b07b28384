//===- Lexer.h - Tokens of PTX source text --------------------------------===//
//
// Splits PTX text into tokens that remember where they start, so that every
// parser diagnostic can point at the exact line and column. Tokens are views
// into the input (no copies), produced one at a time on demand so that a
// multi-megabyte module never needs a token array of its own. The lexer only
// classifies spelling; whether a number is well formed is the parser's
// question, because only the parser knows what it expected there.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Diagnostics.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cuhip::ptx {

enum class TokenKind : uint8_t {
  Eof,
  Identifier, // foo, %r1, $L__BB0_2, _, %tid.x (component kept in the name)
  Directive,  // .reg, .f32, .shared::cta, .1d (text keeps the dot)
  Integer,    // 42, 0x3f803f80U, 017, 0b101, and malformed digit runs
  HexFloat,   // 0f3F800000, 0d3FF0000000000000
  Float,      // 1.5, 1e-3, 9.0
  String,     // "..." (text keeps the quotes)
  Punct,      // one character: , ; : [ ] ( ) { } < > + - ! @ | = ...
  Unknown,    // a byte that starts no token
  UnterminatedString,
  UnterminatedComment,
};

struct Token {
  TokenKind Kind = TokenKind::Eof;
  /// Whitespace or a comment separates this token from the previous one;
  /// `ld.global` is one opcode with a modifier, `ret .reg` is not.
  bool SpaceBefore = false;
  SourceLoc Loc;
  std::string_view Text;

  bool isPunct(char C) const {
    return Kind == TokenKind::Punct && Text.size() == 1 && Text[0] == C;
  }
  bool isDirective(std::string_view Name) const {
    return Kind == TokenKind::Directive && Text.size() == Name.size() + 1 &&
           Text.substr(1) == Name;
  }
};

class Lexer {
public:
  explicit Lexer(std::string_view Source) : Src(Source) {}

  /// The next token; Eof forever once the input is exhausted.
  Token next();

private:
  char peekChar(size_t Ahead = 0) const {
    return Pos + Ahead < Src.size() ? Src[Pos + Ahead] : '\0';
  }
  bool hasChar(size_t Ahead = 0) const { return Pos + Ahead < Src.size(); }
  SourceLoc here() const;
  /// Skips blanks and comments; false when a block comment never ends.
  bool skipTrivia(bool &SawSpace, SourceLoc &CommentLoc);
  void lexIdentifierTail();
  void lexNumber(Token &T);

  std::string_view Src;
  size_t Pos = 0;
  size_t LineStart = 0;
  uint32_t Line = 1;
};

} // namespace cuhip::ptx
