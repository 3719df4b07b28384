//===- HalfFloat.cpp - Half and bfloat16 conversions ----------------------===//
//
// Narrowing rounds to nearest even, as the GPU's conversion instructions
// (cvt.rn.f16.f32, cvt.rn.bf16.f32) do. Written with integer operations so
// they need no compiler support for _Float16 and no F16C.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/HalfFloat.h"

#include <cstring>

namespace cuhip {

float halfToFloat(uint16_t H) {
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Man = H & 0x3ff;
  uint32_t U;
  if (Exp == 0x1f) {
    U = Sign | 0x7f800000 | (Man << 13); // inf, NaN (payload kept)
  } else if (Exp != 0) {
    U = Sign | ((Exp + 112) << 23) | (Man << 13);
  } else if (Man == 0) {
    U = Sign;
  } else {
    // A subnormal half is Man * 2^-24: normalise it.
    int Shift = __builtin_clz(Man) - 21; // leading zeros within 10 bits
    Man = (Man << Shift) & 0x3ff;
    U = Sign | ((113 - Shift) << 23) | (Man << 13);
  }
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

uint16_t floatToHalf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  uint16_t Sign = static_cast<uint16_t>((U >> 16) & 0x8000);
  uint32_t Abs = U & 0x7fffffff;
  if (Abs >= 0x7f800000) // inf or NaN (made quiet)
    return Sign | 0x7c00 | (Abs > 0x7f800000 ? 0x200 | ((Abs >> 13) & 0x3ff) : 0);
  if (Abs >= 0x477ff000) // rounds to 65536 or more
    return Sign | 0x7c00;
  if (Abs < 0x38800000) {
    // The result is subnormal (or zero): Abs's value in units of 2^-24,
    // rounded to nearest even.
    if (Abs < 0x33000000) // below half of the smallest subnormal
      return Sign;
    uint32_t Exp = Abs >> 23;
    uint32_t Man = (Abs & 0x7fffff) | 0x800000;
    // The value is Man * 2^(Exp-150), in units of 2^-24 Man >> (126-Exp).
    uint32_t Shift = 126 - Exp;
    uint32_t Q = Man >> Shift;
    uint32_t Rem = Man & ((1u << Shift) - 1);
    uint32_t Half = 1u << (Shift - 1);
    if (Rem > Half || (Rem == Half && (Q & 1)))
      ++Q;
    return Sign | static_cast<uint16_t>(Q);
  }
  // Normal: rebias the exponent and round the 13 dropped bits; a carry into
  // the exponent is the right result (up to inf, excluded above).
  uint32_t R = Abs - (112u << 23);
  uint32_t Q = R >> 13;
  uint32_t Rem = R & 0x1fff;
  if (Rem > 0x1000 || (Rem == 0x1000 && (Q & 1)))
    ++Q;
  return Sign | static_cast<uint16_t>(Q);
}

uint16_t floatToBf16(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  if ((U & 0x7fffffff) > 0x7f800000) // NaN: keep it a (quiet) NaN
    return static_cast<uint16_t>((U >> 16) | 0x40);
  U += 0x7fff + ((U >> 16) & 1);
  return static_cast<uint16_t>(U >> 16);
}

} // namespace cuhip
