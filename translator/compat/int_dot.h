// CUDA's integer dot products for HIP versions without them: four signed or
// unsigned byte products (__dp4a), or two 16-by-8-bit products of the low or
// high bytes of the second operand (__dp2a_lo/_hi), added to a 32-bit
// accumulator with wrap-around, as CUDA defines them. Templates, so a HIP
// that declares them itself is used instead.
template <typename = void>
__device__ inline int __dp4a(int A, int B, int C) {
  for (int I = 0; I < 32; I += 8)
    C += (int)(signed char)(A >> I) * (int)(signed char)(B >> I);
  return C;
}
template <typename = void>
__device__ inline unsigned __dp4a(unsigned A, unsigned B, unsigned C) {
  for (int I = 0; I < 32; I += 8)
    C += ((A >> I) & 0xffu) * ((B >> I) & 0xffu);
  return C;
}
template <typename = void>
__device__ inline int __dp2a_lo(int A, int B, int C) {
  return C + (int)(short)A * (int)(signed char)B +
         (int)(short)(A >> 16) * (int)(signed char)(B >> 8);
}
template <typename = void>
__device__ inline unsigned __dp2a_lo(unsigned A, unsigned B, unsigned C) {
  return C + (A & 0xffffu) * (B & 0xffu) + (A >> 16) * ((B >> 8) & 0xffu);
}
template <typename = void>
__device__ inline int __dp2a_hi(int A, int B, int C) {
  return C + (int)(short)A * (int)(signed char)(B >> 16) +
         (int)(short)(A >> 16) * (int)(signed char)(B >> 24);
}
template <typename = void>
__device__ inline unsigned __dp2a_hi(unsigned A, unsigned B, unsigned C) {
  return C + (A & 0xffffu) * ((B >> 16) & 0xffu) + (A >> 16) * (B >> 24);
}
