//===- HalfFloat.h - Half and bfloat16 conversions ------------------------===//
//
// IEEE half and bfloat16 to and from float, for the libraries that store
// elements in them (cuBLAS's f16/bf16 GEMMs, cuFFT's half transforms).
// Widening is exact; narrowing rounds to nearest even and keeps NaNs NaNs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>

namespace cuhip {

float halfToFloat(uint16_t H);
uint16_t floatToHalf(float F);
inline float bf16ToFloat(uint16_t B) {
  uint32_t U = static_cast<uint32_t>(B) << 16;
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}
uint16_t floatToBf16(float F);

} // namespace cuhip
