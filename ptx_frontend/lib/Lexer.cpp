//===- Lexer.cpp - Tokens of PTX source text ------------------------------===//
//
// A hand-written scanner over a string_view: every read is bounds-checked
// because the input need not be NUL-terminated and may contain NULs. Columns
// are byte offsets from the line start (a tab counts as one column, as in
// Clang), computed from the line start instead of being counted per byte.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

namespace cuhip::ptx {

static bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z');
}

static bool isIdentChar(char C) {
  return isIdentStart(C) || (C >= '0' && C <= '9') || C == '_' || C == '$';
}

static bool isDigit(char C) { return C >= '0' && C <= '9'; }

SourceLoc Lexer::here() const {
  return {Line, static_cast<uint32_t>(Pos - LineStart + 1)};
}

bool Lexer::skipTrivia(bool &SawSpace, SourceLoc &CommentLoc) {
  while (hasChar()) {
    char C = Src[Pos];
    if (C == '\n') {
      ++Pos;
      ++Line;
      LineStart = Pos;
      SawSpace = true;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++Pos;
      SawSpace = true;
    } else if (C == '/' && peekChar(1) == '/') {
      while (hasChar() && Src[Pos] != '\n')
        ++Pos;
      SawSpace = true;
    } else if (C == '/' && peekChar(1) == '*') {
      CommentLoc = here();
      Pos += 2;
      bool Closed = false;
      while (hasChar()) {
        if (Src[Pos] == '*' && peekChar(1) == '/') {
          Pos += 2;
          Closed = true;
          break;
        }
        if (Src[Pos] == '\n') {
          ++Line;
          LineStart = Pos + 1;
        }
        ++Pos;
      }
      if (!Closed)
        return false;
      SawSpace = true;
    } else {
      break;
    }
  }
  return true;
}

void Lexer::lexIdentifierTail() {
  while (hasChar() && isIdentChar(Src[Pos]))
    ++Pos;
}

// Takes the widest run that could be a number and leaves validation (digit
// ranges, the width of 0f/0d literals, suffixes) to the parser, so that
// `0fXYZ` is one bad token with one message instead of a cascade.
void Lexer::lexNumber(Token &T) {
  char C0 = peekChar(), C1 = peekChar(1);
  if (C0 == '0' && (C1 == 'f' || C1 == 'F' || C1 == 'd' || C1 == 'D')) {
    T.Kind = TokenKind::HexFloat;
    Pos += 2;
    lexIdentifierTail();
    return;
  }
  if (C0 == '0' && (C1 == 'x' || C1 == 'X' || C1 == 'b' || C1 == 'B')) {
    T.Kind = TokenKind::Integer;
    Pos += 2;
    lexIdentifierTail();
    return;
  }
  T.Kind = TokenKind::Integer;
  while (hasChar() && isDigit(Src[Pos]))
    ++Pos;
  if (peekChar() == '.' && !isIdentStart(peekChar(1))) {
    T.Kind = TokenKind::Float;
    ++Pos;
    while (hasChar() && isDigit(Src[Pos]))
      ++Pos;
  }
  char E = peekChar();
  if (E == 'e' || E == 'E') {
    size_t Digits = 1;
    if (peekChar(1) == '+' || peekChar(1) == '-')
      Digits = 2;
    if (isDigit(peekChar(Digits))) {
      T.Kind = TokenKind::Float;
      Pos += Digits;
      while (hasChar() && isDigit(Src[Pos]))
        ++Pos;
    }
  }
  // Suffixes such as the `U` of `0x3f803f80U`, or junk the parser rejects.
  lexIdentifierTail();
}

Token Lexer::next() {
  Token T;
  SourceLoc CommentLoc;
  if (!skipTrivia(T.SpaceBefore, CommentLoc)) {
    T.Kind = TokenKind::UnterminatedComment;
    T.Loc = CommentLoc;
    T.Text = "/*";
    return T;
  }
  T.Loc = here();
  if (!hasChar()) {
    T.Kind = TokenKind::Eof;
    return T;
  }
  size_t Start = Pos;
  char C = Src[Pos];
  if (isIdentStart(C)) {
    T.Kind = TokenKind::Identifier;
    ++Pos;
    lexIdentifierTail();
  } else if ((C == '_' || C == '$' || C == '%') && isIdentChar(peekChar(1))) {
    T.Kind = TokenKind::Identifier;
    ++Pos;
    lexIdentifierTail();
    // Vector components of special registers (%tid.x, %ntid.y) name one
    // register; keeping them in the identifier spares the parser from
    // telling `%tid.x` apart from an opcode modifier.
    char Comp = peekChar(1);
    if (C == '%' && peekChar() == '.' &&
        (Comp == 'x' || Comp == 'y' || Comp == 'z' || Comp == 'w') &&
        !isIdentChar(peekChar(2)))
      Pos += 2;
  } else if (C == '_') {
    T.Kind = TokenKind::Identifier; // the sink `_`
    ++Pos;
  } else if (C == '.' && isIdentChar(peekChar(1))) {
    T.Kind = TokenKind::Directive;
    ++Pos;
    lexIdentifierTail();
    // `.shared::cta`, `.param::entry`: one modifier in PTX 7.8+.
    while (peekChar() == ':' && peekChar(1) == ':' &&
           isIdentChar(peekChar(2))) {
      Pos += 2;
      lexIdentifierTail();
    }
  } else if (isDigit(C)) {
    lexNumber(T);
  } else if (C == '"') {
    ++Pos;
    T.Kind = TokenKind::UnterminatedString;
    while (hasChar() && Src[Pos] != '\n') {
      if (Src[Pos] == '\\' && hasChar(1) && Src[Pos + 1] != '\n') {
        Pos += 2;
        continue;
      }
      if (Src[Pos] == '"') {
        ++Pos;
        T.Kind = TokenKind::String;
        break;
      }
      ++Pos;
    }
  } else {
    static constexpr std::string_view PunctChars = ",;:[](){}<>+-!@|=*/~&^%?#";
    T.Kind = PunctChars.find(C) != std::string_view::npos ? TokenKind::Punct
                                                          : TokenKind::Unknown;
    ++Pos;
  }
  T.Text = Src.substr(Start, Pos - Start);
  return T;
}

} // namespace cuhip::ptx
