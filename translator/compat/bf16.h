// The bfloat16 types of cuda_bf16.h for HIP versions before 5.7, which have no
// hip_bf16.h: a 16-bit storage type converted through float with
// round-to-nearest-even, as CUDA's __float2bfloat16 does, and the _raw
// types CUDA code uses to reach the bits.
struct __hip_bfloat16_raw {
  unsigned short x;
};
struct __hip_bfloat162_raw {
  unsigned short x, y;
};
struct __hip_bfloat16 {
  unsigned short x;
  __hip_bfloat16() = default;
  __host__ __device__ constexpr __hip_bfloat16(__hip_bfloat16_raw R) : x(R.x) {}
  __host__ __device__ constexpr operator __hip_bfloat16_raw() const {
    return {x};
  }
};
struct __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  __host__ __device__ constexpr __hip_bfloat162(__hip_bfloat16 X,
                                                __hip_bfloat16 Y)
      : x(X), y(Y) {}
  __host__ __device__ constexpr __hip_bfloat162(__hip_bfloat162_raw R)
      : x(__hip_bfloat16_raw{R.x}), y(__hip_bfloat16_raw{R.y}) {}
  __host__ __device__ constexpr operator __hip_bfloat162_raw() const {
    return {x.x, y.x};
  }
};
__host__ __device__ inline float __bfloat162float(__hip_bfloat16 B) {
  unsigned int Bits = (unsigned int)B.x << 16;
  float F;
  __builtin_memcpy(&F, &Bits, sizeof(F));
  return F;
}
__host__ __device__ inline __hip_bfloat16 __float2bfloat16(float F) {
  unsigned int Bits;
  __builtin_memcpy(&Bits, &F, sizeof(Bits));
  __hip_bfloat16 B;
  if ((Bits & 0x7fffffffu) > 0x7f800000u) { // NaN: keep it quiet and a NaN
    B.x = (unsigned short)((Bits >> 16) | 0x40);
    return B;
  }
  Bits += 0x7fffu + ((Bits >> 16) & 1u);
  B.x = (unsigned short)(Bits >> 16);
  return B;
}
__host__ __device__ inline __hip_bfloat16 __float2bfloat16_rn(float F) {
  return __float2bfloat16(F);
}
__host__ __device__ inline float2 __bfloat1622float2(__hip_bfloat162 V) {
  return make_float2(__bfloat162float(V.x), __bfloat162float(V.y));
}
__host__ __device__ inline __hip_bfloat162 __floats2bfloat162_rn(float A,
                                                                 float B) {
  __hip_bfloat162 V;
  V.x = __float2bfloat16(A);
  V.y = __float2bfloat16(B);
  return V;
}
// Round toward zero: drop the low half (a NaN stays a NaN: keep it quiet).
__host__ __device__ inline __hip_bfloat16 __float2bfloat16_rz(float F) {
  unsigned int Bits;
  __builtin_memcpy(&Bits, &F, sizeof(Bits));
  __hip_bfloat16 B;
  B.x = (unsigned short)(Bits >> 16);
  if ((Bits & 0x7fffffffu) > 0x7f800000u)
    B.x |= 0x40;
  return B;
}
__host__ __device__ inline __hip_bfloat162 __float22bfloat162_rn(float2 V) {
  return __floats2bfloat162_rn(V.x, V.y);
}
__host__ __device__ inline __hip_bfloat162 __float2bfloat162_rn(float F) {
  return __floats2bfloat162_rn(F, F);
}
__host__ __device__ inline __hip_bfloat16 __low2bfloat16(__hip_bfloat162 V) {
  return V.x;
}
__host__ __device__ inline __hip_bfloat16 __high2bfloat16(__hip_bfloat162 V) {
  return V.y;
}
__host__ __device__ inline __hip_bfloat162
__halves2bfloat162(__hip_bfloat16 X, __hip_bfloat16 Y) {
  return __hip_bfloat162(X, Y);
}
__host__ __device__ inline __hip_bfloat162
__bfloat162bfloat162(__hip_bfloat16 X) {
  return __hip_bfloat162(X, X);
}
__host__ __device__ inline unsigned short
__bfloat16_as_ushort(__hip_bfloat16 X) {
  return X.x;
}
__host__ __device__ inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short U) {
  return __hip_bfloat16_raw{U};
}
