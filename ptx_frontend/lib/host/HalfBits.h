//===- HalfBits.h - binary16 to f32 by the format's fields ----------------===//
//
// The f32 value of binary16 bits, exact for every input (subnormals become
// normal floats, NaN payloads are kept): for the texture sampler's half
// channels and the warp runtime's f16 matrix fragments, where the C
// library's conversion would be a call per value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>

namespace cuhip::ptx::host {

inline float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f, Mant = H & 0x3ff;
  uint32_t Bits;
  if (Exp == 0x1f) {
    Bits = Sign | 0x7f800000 | (Mant << 13);
  } else if (Exp != 0) {
    Bits = Sign | ((Exp + 112) << 23) | (Mant << 13);
  } else if (Mant == 0) {
    Bits = Sign;
  } else {
    // A subnormal half is a normal float: shift the mantissa up.
    int E = -1;
    do {
      Mant <<= 1;
      ++E;
    } while (!(Mant & 0x400));
    Bits = Sign | uint32_t(112 - E) << 23 | ((Mant & 0x3ff) << 13);
  }
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

} // namespace cuhip::ptx::host
