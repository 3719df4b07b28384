//===- AST.cpp - Names and sizes of PTX types and state spaces ------------===//
//
// The parser and the lowering both need to go between the spelling of a PTX
// type or state space (`.f32`, `.shared`) and its enum, and to ask how wide a
// type is. Keeping the one name table here means a type added to the enum is
// spelled, sized and classified in a single place.
//
//===----------------------------------------------------------------------===//

#include "cuhip/ptx/AST.h"

namespace cuhip::ptx {

namespace {
struct TypeRow {
  ScalarType Type;
  std::string_view Name;
  unsigned Bits;
};
} // namespace

// Indexed by the enum's value, so the order must follow ScalarType.
static constexpr TypeRow TypeTable[] = {
    {ScalarType::None, "", 0},          {ScalarType::Pred, "pred", 1},
    {ScalarType::B8, "b8", 8},          {ScalarType::B16, "b16", 16},
    {ScalarType::B32, "b32", 32},       {ScalarType::B64, "b64", 64},
    {ScalarType::B128, "b128", 128},    {ScalarType::U8, "u8", 8},
    {ScalarType::U16, "u16", 16},       {ScalarType::U32, "u32", 32},
    {ScalarType::U64, "u64", 64},       {ScalarType::S8, "s8", 8},
    {ScalarType::S16, "s16", 16},       {ScalarType::S32, "s32", 32},
    {ScalarType::S64, "s64", 64},       {ScalarType::F16, "f16", 16},
    {ScalarType::F16x2, "f16x2", 32},   {ScalarType::BF16, "bf16", 16},
    {ScalarType::BF16x2, "bf16x2", 32}, {ScalarType::F32, "f32", 32},
    {ScalarType::F64, "f64", 64},       {ScalarType::U16x2, "u16x2", 32},
    {ScalarType::S16x2, "s16x2", 32},
};

static_assert(sizeof(TypeTable) / sizeof(TypeTable[0]) ==
                  static_cast<size_t>(ScalarType::S16x2) + 1,
              "TypeTable must list every ScalarType");

static const TypeRow &row(ScalarType T) {
  size_t I = static_cast<size_t>(T);
  if (I >= sizeof(TypeTable) / sizeof(TypeTable[0]))
    I = 0;
  return TypeTable[I];
}

ScalarType parseScalarType(std::string_view Name) {
  if (Name.empty())
    return ScalarType::None;
  for (const TypeRow &R : TypeTable)
    if (R.Name == Name)
      return R.Type;
  return ScalarType::None;
}

std::string_view scalarTypeName(ScalarType T) { return row(T).Name; }

unsigned scalarTypeBits(ScalarType T) { return row(T).Bits; }

bool isSignedInt(ScalarType T) {
  return T >= ScalarType::S8 && T <= ScalarType::S64;
}

bool isUnsignedInt(ScalarType T) {
  return T >= ScalarType::U8 && T <= ScalarType::U64;
}

bool isBitType(ScalarType T) {
  return T >= ScalarType::B8 && T <= ScalarType::B128;
}

bool isFloat(ScalarType T) {
  return T >= ScalarType::F16 && T <= ScalarType::F64;
}

StateSpace parseStateSpace(std::string_view Name) {
  if (Name == "reg")
    return StateSpace::Reg;
  if (Name == "sreg")
    return StateSpace::Sreg;
  if (Name == "const")
    return StateSpace::Const;
  if (Name == "global")
    return StateSpace::Global;
  if (Name == "local")
    return StateSpace::Local;
  if (Name == "param" || Name == "param::entry" || Name == "param::func")
    return StateSpace::Param;
  // `.shared::cluster` reaches other blocks' shared memory, which is not the
  // plain per-block space, so only the CTA-scoped spelling maps to Shared.
  if (Name == "shared" || Name == "shared::cta")
    return StateSpace::Shared;
  if (Name == "generic")
    return StateSpace::Generic;
  return StateSpace::None;
}

std::string_view stateSpaceName(StateSpace S) {
  switch (S) {
  case StateSpace::None:
    return "";
  case StateSpace::Reg:
    return "reg";
  case StateSpace::Sreg:
    return "sreg";
  case StateSpace::Const:
    return "const";
  case StateSpace::Global:
    return "global";
  case StateSpace::Local:
    return "local";
  case StateSpace::Param:
    return "param";
  case StateSpace::Shared:
    return "shared";
  case StateSpace::Generic:
    return "generic";
  }
  return "";
}

} // namespace cuhip::ptx
