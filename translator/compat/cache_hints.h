// CUDA's cache-policy loads and stores for HIP versions that have them for
// __half only (or not at all). The hint only tells the cache hierarchy how
// likely the line is to be reused; the value read or written is the same as
// a plain access's, so a plain access is a correct implementation. These are
// templates, so where HIP declares a non-template overload, that one wins.
template <typename T> __device__ inline T __ldcg(const T *Ptr) { return *Ptr; }
template <typename T> __device__ inline T __ldca(const T *Ptr) { return *Ptr; }
template <typename T> __device__ inline T __ldcs(const T *Ptr) { return *Ptr; }
template <typename T> __device__ inline T __ldlu(const T *Ptr) { return *Ptr; }
// ld.cv re-reads memory on every access: a volatile read.
template <typename T> __device__ inline T __ldcv(const T *Ptr) {
  return *const_cast<const volatile T *>(Ptr);
}
template <typename T> __device__ inline void __stcg(T *Ptr, T Value) {
  *Ptr = Value;
}
template <typename T> __device__ inline void __stcs(T *Ptr, T Value) {
  *Ptr = Value;
}
template <typename T> __device__ inline void __stwb(T *Ptr, T Value) {
  *Ptr = Value;
}
// st.wt writes through to system memory: a volatile write.
template <typename T> __device__ inline void __stwt(T *Ptr, T Value) {
  *const_cast<volatile T *>(Ptr) = Value;
}
