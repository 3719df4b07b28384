//===- AST.h - Typed syntax tree of a PTX module --------------------------===//
//
// The parser turns PTX text into this tree; the lowering walks it to build
// LLVM IR. Declarations carry their state space and type; instructions keep
// their opcode and dot-modifiers in source order (ld.global.nc.f32 is opcode
// "ld" with modifiers {"global", "nc", "f32"}) so that every pass can ask for
// exactly the modifiers it understands and reject the rest by name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/Diagnostics.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuhip::ptx {

enum class StateSpace : uint8_t {
  None,
  Reg,
  Sreg,
  Const,
  Global,
  Local,
  Param,
  Shared,
  Generic,
};

enum class ScalarType : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  U16x2, S16x2, // packed integer pairs (add/sub/min/max of sm_90)
};

/// Parses a type modifier without its dot ("f32" -> F32); None if it is not
/// a type name.
ScalarType parseScalarType(std::string_view Name);
std::string_view scalarTypeName(ScalarType T);
/// Size in bits (Pred counts as 1).
unsigned scalarTypeBits(ScalarType T);
bool isSignedInt(ScalarType T);   // S8..S64
bool isUnsignedInt(ScalarType T); // U8..U64
bool isBitType(ScalarType T);     // B8..B128
bool isFloat(ScalarType T);       // F16..F64 incl. packed forms

StateSpace parseStateSpace(std::string_view Name); // "global" -> Global
std::string_view stateSpaceName(StateSpace S);

enum class Linkage : uint8_t { Internal, Visible, Extern, Weak, Common };

/// One element of a variable initializer: a number, or the address of a
/// symbol (vtables), optionally with a byte offset.
struct InitValue {
  enum Kind : uint8_t { Int, Float, Symbol } K = Int;
  uint64_t Bits = 0;   // Int: two's complement value; Float: IEEE bits of
                       // the declared type (see FloatIsDouble)
  double FloatValue = 0;
  bool FloatIsDouble = false;
  std::string SymbolName;
  int64_t Offset = 0;
};

/// A variable or register declaration: `.reg .b32 %r<44>;`,
/// `.shared .align 4 .b8 tile[1024];`, `.global .u32 g = 5;`.
struct VarDecl {
  SourceLoc Loc;
  StateSpace Space = StateSpace::None;
  Linkage Link = Linkage::Internal;
  ScalarType Type = ScalarType::None;
  unsigned VectorWidth = 0; // 0 = scalar, else 2/4/8 for .v2/.v4/.v8
  unsigned Align = 0;       // 0 = natural alignment
  std::string Name;
  /// `%r<44>` declares %r0..%r43: RangeCount is 44. 0 when not a range.
  unsigned RangeCount = 0;
  /// Array dimensions in elements; a 0 entry is an unsized `[]` dimension.
  std::vector<uint64_t> Dims;
  std::vector<InitValue> Init;
  bool HasInit = false;
  /// `.attribute(.managed)`: a `__managed__` variable, which host code
  /// reaches through a pointer the runtime fills in.
  bool Managed = false;
};

/// An instruction operand.
struct Operand {
  enum Kind : uint8_t {
    Register,  // %r1, or a named register/variable used as a value
    IntImm,    // 42, -1, 0x3f803f80U
    FloatImm,  // 0f3F800000, 0d3FF0000000000000, 1.5
    Symbol,    // a global/shared/param/function name used as an address
    Address,   // [base+offset], [symbol], [imm]
    Vector,    // {%r1, %r2}
    Sink,      // _ (discarded destination)
  } K = Register;
  SourceLoc Loc;
  std::string Name; // Register/Symbol: the name. Address: base name ("" if
                    // the address is an absolute immediate)
  bool Negated = false;  // !%p as a predicate source
  bool Minus = false;    // -%r as a vmad source
  bool BaseIsSymbol = false; // Address: base names a variable, not a %reg
  int64_t Offset = 0;        // Address: byte offset; Symbol: byte offset
                             // (`var+4`); Register: value added (`%r+4`);
                             // array element: constant index in elements
  /// `var[idx]` (ISA "Arrays as Operands"): an Address whose Name is the
  /// array, Offset the constant part of the index and IndexRegister its
  /// register part, if any; the lowering scales both by the element size.
  bool ArrayElement = false;
  std::string IndexRegister;
  uint64_t IntValue = 0;     // IntImm: value (two's complement)
  // FloatImm: exact bits when written as 0f/0d, else FloatValue holds it.
  bool FloatHasBits = false;
  bool FloatIsDouble = false; // 0d form (64-bit bits)
  uint64_t FloatBits = 0;
  double FloatValue = 0;
  std::vector<Operand> Elements; // Vector elements
  /// A register's part selector written after it without a dot: `b0` of
  /// `%r1.b0`, `h10` of `%r2.h10` (video instructions). Vector components
  /// (.x/.y/.z/.w and .r/.g/.b/.a) are folded into Name as `%v.x` instead.
  std::string Selector;
  /// Second destination of dual-result instructions (`%r1|%p1`).
  std::unique_ptr<Operand> Pair;

  Operand() = default;
  Operand(const Operand &O) { *this = O; }
  Operand &operator=(const Operand &O) {
    if (this == &O)
      return *this;
    K = O.K; Loc = O.Loc; Name = O.Name; Negated = O.Negated; Minus = O.Minus;
    BaseIsSymbol = O.BaseIsSymbol; Offset = O.Offset; IntValue = O.IntValue;
    FloatHasBits = O.FloatHasBits; FloatIsDouble = O.FloatIsDouble;
    FloatBits = O.FloatBits; FloatValue = O.FloatValue; Elements = O.Elements;
    Selector = O.Selector; ArrayElement = O.ArrayElement;
    IndexRegister = O.IndexRegister;
    Pair = O.Pair ? std::make_unique<Operand>(*O.Pair) : nullptr;
    return *this;
  }
  Operand(Operand &&) = default;
  Operand &operator=(Operand &&) = default;
};

struct Instruction {
  SourceLoc Loc;
  std::string Guard;        // predicate register of @%p / @!%p, "" if none
  bool GuardNegated = false;
  std::string Opcode;       // "ld", "mad", "bar", "setp", ...
  std::vector<std::string> Modifiers; // without dots, source order
  std::vector<Operand> Operands;

  bool hasModifier(std::string_view M) const {
    for (const auto &X : Modifiers)
      if (X == M)
        return true;
    return false;
  }
  /// "ld.global.nc.f32": the opcode with every modifier, for messages.
  std::string fullName() const {
    std::string S = Opcode;
    for (const auto &M : Modifiers) {
      S += '.';
      S += M;
    }
    return S;
  }
};

struct Statement;

/// A `{ ... }` scope. Declarations inside shadow outer ones.
struct Block {
  SourceLoc Loc;
  std::vector<Statement> Body;
};

struct Label {
  SourceLoc Loc;
  std::string Name;
  /// `name: .branchtargets L0, L1, ...;` names a jump table for brx.idx
  /// rather than a position in the code.
  bool IsBranchTargets = false;
  std::vector<std::string> Targets;
};

struct Statement {
  enum Kind : uint8_t { Instr, Lbl, Decl, Scope } K = Instr;
  Instruction I;
  Label L;
  VarDecl D;
  std::unique_ptr<Block> B; // Scope

  Statement() = default;
  Statement(const Statement &O) { *this = O; }
  Statement &operator=(const Statement &O) {
    if (this == &O)
      return *this;
    K = O.K; I = O.I; L = O.L; D = O.D;
    B = O.B ? std::make_unique<Block>(*O.B) : nullptr;
    return *this;
  }
  Statement(Statement &&) = default;
  Statement &operator=(Statement &&) = default;
};

/// A kernel or function parameter (or a function's return value).
struct Param {
  SourceLoc Loc;
  StateSpace Space = StateSpace::Param; // .param, or .reg for .func params
  ScalarType Type = ScalarType::None;
  unsigned VectorWidth = 0;
  unsigned Align = 0;      // 0 = natural
  std::string Name;
  uint64_t ArrayCount = 0; // `.b8 p[32]`: 32 elements; 0 = scalar
  bool IsPtr = false;      // `.ptr` attribute (.param .u64 .ptr .global ...)
};

struct Function {
  SourceLoc Loc;
  bool IsEntry = false; // .entry (kernel) vs .func
  Linkage Link = Linkage::Internal;
  std::string Name;
  std::vector<Param> Returns;
  std::vector<Param> Params;
  // Performance directives; 0 = absent.
  unsigned MaxNTid[3] = {0, 0, 0};
  unsigned ReqNTid[3] = {0, 0, 0};
  unsigned MinNCtaPerSm = 0;
  unsigned MaxNReg = 0;
  bool NoReturn = false;
  std::optional<Block> Body; // absent for declarations (`.extern .func f();`)
};

struct Module {
  std::string FileName;
  unsigned VersionMajor = 0, VersionMinor = 0;
  std::vector<std::string> Targets; // "sm_80", "texmode_independent", ...
  unsigned AddressSize = 64;
  std::vector<VarDecl> Globals;
  std::vector<Function> Functions;

  const Function *findFunction(std::string_view Name) const {
    for (const auto &F : Functions)
      if (F.Name == Name)
        return &F;
    return nullptr;
  }
};

} // namespace cuhip::ptx
