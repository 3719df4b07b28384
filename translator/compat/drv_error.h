// The driver API's error strings for HIP versions before 5.4, which have only
// the runtime's hipGetErrorName/hipGetErrorString. CUDA's forms return the
// string through an out-parameter; HIP's runtime strings are the same text.
inline hipError_t hipDrvGetErrorName(hipError_t Error, const char **Str) {
  if (!Str)
    return hipErrorInvalidValue;
  *Str = hipGetErrorName(Error);
  return hipSuccess;
}
inline hipError_t hipDrvGetErrorString(hipError_t Error, const char **Str) {
  if (!Str)
    return hipErrorInvalidValue;
  *Str = hipGetErrorString(Error);
  return hipSuccess;
}
