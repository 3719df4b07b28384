// Half-precision maximum and minimum for HIP versions without them. Half
// converts to float exactly and the float result is one of the operands, so
// going through float is exact. __hmax/__hmin return the other operand when
// one is NaN (both NaN: a NaN), the _nan forms return NaN when either is.
// Templates, so a HIP that declares them itself is used instead.
template <typename = void> __device__ inline __half __hmax(__half A, __half B) {
  return __float2half(fmaxf(__half2float(A), __half2float(B)));
}
template <typename = void> __device__ inline __half __hmin(__half A, __half B) {
  return __float2half(fminf(__half2float(A), __half2float(B)));
}
template <typename = void>
__device__ inline __half __hmax_nan(__half A, __half B) {
  return __hisnan(A) || __hisnan(B) ? __float2half(__builtin_nanf(""))
                                    : __hmax(A, B);
}
template <typename = void>
__device__ inline __half __hmin_nan(__half A, __half B) {
  return __hisnan(A) || __hisnan(B) ? __float2half(__builtin_nanf(""))
                                    : __hmin(A, B);
}
template <typename = void>
__device__ inline __half2 __hmax2(__half2 A, __half2 B) {
  return __halves2half2(__hmax(__low2half(A), __low2half(B)),
                        __hmax(__high2half(A), __high2half(B)));
}
template <typename = void>
__device__ inline __half2 __hmin2(__half2 A, __half2 B) {
  return __halves2half2(__hmin(__low2half(A), __low2half(B)),
                        __hmin(__high2half(A), __high2half(B)));
}
