//===- CublasTypes.h - The cuBLAS API types, declared from its public API -===//
//
// cuhip builds without the CUDA toolkit, so libcublas declares the types of
// cublas_api.h and library_types.h itself: the enumerators' numbers and the
// names functions are declared with are facts of the public API.
// scripts/check-export-signatures.py proves every exported function against
// the toolkit's own header.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

#include "CublasCommonTypes.h"

extern "C" {

/// cuda_fp16.h's half: two bytes, passed by pointer only here.
struct __half {
  unsigned short x;
};

typedef enum {
  CUBLAS_ATOMICS_NOT_ALLOWED = 0,
  CUBLAS_ATOMICS_ALLOWED = 1
} cublasAtomicsMode_t;

typedef enum {
  CUBLAS_GEMM_DEFAULT = -1,
  CUBLAS_GEMM_ALGO0 = 0,
  CUBLAS_GEMM_ALGO23 = 23,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100,
  CUBLAS_GEMM_ALGO15_TENSOR_OP = 115,
  CUBLAS_GEMM_AUTOTUNE = 999
} cublasGemmAlgo_t;

typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
  CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

typedef void (*cublasLogCallback)(const char *msg);

} // extern "C"

/// cuBLAS's version, as CUBLAS_VER_MAJOR/MINOR/PATCH of the toolkit whose
/// programs each library serves (13.1.0 for libcublas.so.13).
#ifndef CUHIP_CUBLAS_MAJOR
#define CUHIP_CUBLAS_MAJOR 13
#endif
