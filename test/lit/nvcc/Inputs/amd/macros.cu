// The macros nvcc defines, as AMD mode's prelude sets them.
#if !defined(__NVCC__) || !defined(__CUDACC__)
#error "__NVCC__ and __CUDACC__ must be defined"
#endif
#if __CUDACC_VER_MAJOR__ < 11
#error "__CUDACC_VER_MAJOR__ is missing"
#endif
__global__ void k(int *Out) {
#ifdef __CUDA_ARCH__
  *Out = __CUDA_ARCH__;
#endif
}
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__CUDA_ARCH__)
#error "__CUDA_ARCH__ must be defined in device passes"
#endif
