// Driver-API calls HIP has no name for. cuMemcpy and cuMemcpyAsync infer the
// direction from unified addressing, as hipMemcpyDefault does;
// cuModuleLoadFatBinary becomes hipModuleLoadData, which takes an AMD
// offload bundle or code object (a CUDA fatbin is rejected at run time).
// HIP cannot count a module's kernels, so cuModuleGetFunctionCount fails.
inline hipError_t cuMemcpy(hipDeviceptr_t Dst, hipDeviceptr_t Src,
                           size_t Bytes) {
  return hipMemcpy(Dst, Src, Bytes, hipMemcpyDefault);
}
inline hipError_t cuMemcpyAsync(hipDeviceptr_t Dst, hipDeviceptr_t Src,
                                size_t Bytes, hipStream_t Stream) {
  return hipMemcpyAsync(Dst, Src, Bytes, hipMemcpyDefault, Stream);
}
inline hipError_t cuModuleLoadFatBinary(hipModule_t *Mod, const void *Image) {
  return hipModuleLoadData(Mod, Image);
}
inline hipError_t cuModuleGetFunctionCount(unsigned *Count, hipModule_t) {
  if (Count)
    *Count = 0;
  return hipErrorNotSupported;
}
