// HIP declares the host source of hipMemcpyHtoD and hipMemcpyHtoDAsync as
// void * up to at least ROCm 6.2, where CUDA's cuMemcpyHtoD takes a const
// void *: a pointer to const (a constant, a string) does not convert. These
// templates take any object pointer, const or not, and call HIP's function.
// They are templates so that a HIP whose declaration already takes const
// void * keeps choosing its own function for void pointers.
template <typename T>
inline hipError_t hipMemcpyHtoD(hipDeviceptr_t Dst, const T *Src,
                                size_t Bytes) {
  return hipMemcpyHtoD(Dst, const_cast<void *>(static_cast<const void *>(Src)),
                       Bytes);
}
template <typename T>
inline hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t Dst, const T *Src,
                                     size_t Bytes, hipStream_t Stream) {
  return hipMemcpyHtoDAsync(
      Dst, const_cast<void *>(static_cast<const void *>(Src)), Bytes, Stream);
}
