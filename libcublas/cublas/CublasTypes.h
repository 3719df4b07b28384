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

/// cuda_fp16.h's half and cuda_bf16.h's bfloat16: two bytes, passed by
/// pointer only here.
struct __half {
  unsigned short x;
};
struct __nv_bfloat16 {
  unsigned short x;
};

/// vector_types.h's float2 and double2 (8- and 16-byte aligned), which
/// cuComplex.h names cuComplex and cuDoubleComplex. The legacy API passes
/// and returns them by value, so their layout and alignment are the ABI.
struct __attribute__((aligned(8))) float2 {
  float x, y;
};
struct __attribute__((aligned(16))) double2 {
  double x, y;
};
typedef float2 cuFloatComplex;
typedef cuFloatComplex cuComplex;
typedef double2 cuDoubleComplex;

typedef enum {
  CUBLAS_FILL_MODE_LOWER = 0,
  CUBLAS_FILL_MODE_UPPER = 1,
  CUBLAS_FILL_MODE_FULL = 2
} cublasFillMode_t;

typedef enum {
  CUBLAS_DIAG_NON_UNIT = 0,
  CUBLAS_DIAG_UNIT = 1
} cublasDiagType_t;

typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;

typedef enum {
  CUBLAS_EMULATION_STRATEGY_DEFAULT = 0,
  CUBLAS_EMULATION_STRATEGY_PERFORMANT = 1,
  CUBLAS_EMULATION_STRATEGY_EAGER = 2
} cublasEmulationStrategy_t;

typedef enum cudaEmulationMantissaControl_t {
  CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC = 0,
  CUDA_EMULATION_MANTISSA_CONTROL_FIXED = 1
} cudaEmulationMantissaControl;

typedef enum cudaEmulationSpecialValuesSupport_t {
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT = 0xFFFF,
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NONE = 0,
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY = 1,
  CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN = 2
} cudaEmulationSpecialValuesSupport;

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

// cublasXt.h: the host-memory, multi-GPU BLAS-3 layer.
struct cublasXtContext;
typedef struct cublasXtContext *cublasXtHandle_t;

typedef enum {
  CUBLASXT_PINNING_DISABLED = 0,
  CUBLASXT_PINNING_ENABLED = 1
} cublasXtPinnedMemMode_t;

typedef enum {
  CUBLASXT_FLOAT = 0,
  CUBLASXT_DOUBLE = 1,
  CUBLASXT_COMPLEX = 2,
  CUBLASXT_DOUBLECOMPLEX = 3
} cublasXtOpType_t;

typedef enum {
  CUBLASXT_GEMM = 0,
  CUBLASXT_SYRK = 1,
  CUBLASXT_HERK = 2,
  CUBLASXT_SYMM = 3,
  CUBLASXT_HEMM = 4,
  CUBLASXT_TRSM = 5,
  CUBLASXT_SYR2K = 6,
  CUBLASXT_HER2K = 7,
  CUBLASXT_SPMM = 8,
  CUBLASXT_SYRKX = 9,
  CUBLASXT_HERKX = 10,
  CUBLASXT_TRMM = 11,
  CUBLASXT_ROUTINE_MAX = 12
} cublasXtBlasOp_t;

} // extern "C"

/// cuBLAS's version, as CUBLAS_VER_MAJOR/MINOR/PATCH of the toolkit whose
/// programs each library serves (13.1.0 for libcublas.so.13).
#ifndef CUHIP_CUBLAS_MAJOR
#define CUHIP_CUBLAS_MAJOR 13
#endif
