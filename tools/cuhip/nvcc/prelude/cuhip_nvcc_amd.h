/*===- cuhip_nvcc_amd.h - What `cuhip nvcc` pre-includes in AMD mode ------===
 *
 * Every file `cuhip nvcc` compiles in AMD mode (translated CUDA, compiled by
 * Clang as HIP) starts with this header. It does two things:
 *
 *  - defines __AMDGCN_WAVEFRONT_SIZE, which HIP 5.2's headers use and Clang
 *    22 no longer defines: 32 on RDNA (gfx10, gfx11, gfx12: cuhip compiles
 *    them in wave32), 64 on GCN/CDNA;
 *  - defines __llvm_amdgcn_rcp_f16 and _2f16, which HIP 5.2's half-precision header
 *    calls (hrcp, h2rcp) and expects Clang's HIP wrapper to declare; Clang
 *    22's does not. It is CUDA's hrcp: the reciprocal, rounded to nearest;
 *  - defines the macros nvcc defines, so code (and CMake's compiler
 *    identification) that tests for nvcc takes its nvcc branches:
 *    __NVCC__, __CUDACC__, __CUDACC_RELAXED_CONSTEXPR__,
 *    __CUDACC_EXTENDED_LAMBDA__ and, in device passes only, __CUDA_ARCH__
 *    (the CUDA architecture of docs/nvcc.md's table that gives the AMD target
 *    being compiled, times ten: gfx942 is 900). __CUDACC_VER_MAJOR__,
 *    _MINOR__ and _BUILD__ come from the command line (the CUDA headers'
 *    release). hip/hip_common.h is included first, so HIP still picks its
 *    AMD platform (with __NVCC__ defined it would pick NVIDIA's).
 *
 *===----------------------------------------------------------------------===*/
#ifndef CUHIP_NVCC_AMD_H
#define CUHIP_NVCC_AMD_H

#if defined(__AMDGCN__) && !defined(__AMDGCN_WAVEFRONT_SIZE)
#if defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
#define __AMDGCN_WAVEFRONT_SIZE 32
#else
#define __AMDGCN_WAVEFRONT_SIZE 64
#endif
#endif

#include <hip/hip_common.h>

#if defined(__HIP__) && defined(__CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__)
static __attribute__((device, const, always_inline)) inline _Float16
__llvm_amdgcn_rcp_f16(_Float16 x) {
  return (_Float16)1.0f / x;
}
typedef _Float16 __cuhip_half2_vector __attribute__((ext_vector_type(2)));
static __attribute__((device, const, always_inline)) inline __cuhip_half2_vector
__llvm_amdgcn_rcp_2f16(__cuhip_half2_vector x) {
  return __cuhip_half2_vector{__llvm_amdgcn_rcp_f16(x.x),
                              __llvm_amdgcn_rcp_f16(x.y)};
}
#endif

#ifndef __NVCC__
#define __NVCC__ 1
#endif
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __CUDACC_RELAXED_CONSTEXPR__
#define __CUDACC_RELAXED_CONSTEXPR__ 1
#endif
#ifndef __CUDACC_EXTENDED_LAMBDA__
#define __CUDACC_EXTENDED_LAMBDA__ 1
#endif

#if defined(__HIP_DEVICE_COMPILE__) && !defined(__CUDA_ARCH__)
#if defined(__gfx950__)
#define __CUDA_ARCH__ 1000
#elif defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define __CUDA_ARCH__ 900
#elif defined(__gfx90a__)
#define __CUDA_ARCH__ 800
#elif defined(__GFX12__)
#define __CUDA_ARCH__ 1200
#elif defined(__GFX11__)
#define __CUDA_ARCH__ 890
#elif defined(__GFX10__)
#define __CUDA_ARCH__ 860
#else
#define __CUDA_ARCH__ 700
#endif
#endif

#endif /* CUHIP_NVCC_AMD_H */
