//===- GemmApi.cpp - The cuBLAS GEMM family over the engine ---------------===//
//
// Every GEMM entry point (S/D/H gemm, SgemmEx, GemmEx, their batched and
// strided-batched forms, each also in _64) checks its arguments as cuBLAS
// does, translates types and compute type into one GemmDesc and hands it
// to the engine on the handle's stream.
//
//===----------------------------------------------------------------------===//
#include "Handle.h"

#include "ApiCommon.h"

#include "Gemm.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>

using namespace cuhip;
using namespace cuhip::cublas;
using blas::Compute;
using blas::DType;
using blas::dtypeOf;
using blas::GemmDesc;

namespace {

bool toOp(cublasOperation_t T, blas::Op &Out) {
  switch (T) {
  case CUBLAS_OP_N:
    Out = blas::Op::N;
    return true;
  case CUBLAS_OP_T:
    Out = blas::Op::T;
    return true;
  case CUBLAS_OP_C: // real matrices: the conjugate transpose is the transpose
    Out = blas::Op::T;
    return true;
  default:
    return false;
  }
}

/// cublasComputeType_t, or a cudaDataType as CUDA 10 programs pass it
/// (CUDA_R_32F etc.; cuBLAS still accepts those).
bool toCompute(int C, Compute &Out) {
  switch (C) {
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
  case CUDA_R_16F:
    Out = Compute::F16;
    return true;
  case CUBLAS_COMPUTE_32F:
  case CUBLAS_COMPUTE_32F_PEDANTIC:
  case CUBLAS_COMPUTE_32F_FAST_16F:
  case CUBLAS_COMPUTE_32F_FAST_16BF:
  case CUBLAS_COMPUTE_32F_FAST_TF32:
  case CUBLAS_COMPUTE_32F_EMULATED_16BFX9:
  case CUDA_R_32F:
    Out = Compute::F32;
    return true;
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
  case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
  case CUDA_R_64F:
    Out = Compute::F64;
    return true;
  case CUBLAS_COMPUTE_32I:
  case CUBLAS_COMPUTE_32I_PEDANTIC:
  case CUDA_R_32I:
    Out = Compute::I32;
    return true;
  default:
    return false;
  }
}

bool validAlgo(int Algo) {
  return (Algo >= CUBLAS_GEMM_DEFAULT && Algo <= CUBLAS_GEMM_ALGO23) ||
         (Algo >= CUBLAS_GEMM_DEFAULT_TENSOR_OP &&
          Algo <= CUBLAS_GEMM_ALGO15_TENSOR_OP) ||
         Algo == CUBLAS_GEMM_AUTOTUNE;
}

/// What every GEMM entry point has: checked, then one engine call.
struct GemmCall {
  const char *Name;
  cublasHandle_t Handle;
  cublasOperation_t TransA, TransB;
  int64_t M, N, K, Lda, Ldb, Ldc, Batch;
  GemmDesc D;

  GemmCall(const char *Name, cublasHandle_t Handle, cublasOperation_t TransA,
           cublasOperation_t TransB, int64_t M, int64_t N, int64_t K,
           int64_t Lda, int64_t Ldb, int64_t Ldc, int64_t Batch = 1)
      : Name(Name), Handle(Handle), TransA(TransA), TransB(TransB), M(M),
        N(N), K(K), Lda(Lda), Ldb(Ldb), Ldc(Ldc), Batch(Batch) {}

  cublasStatus_t run() {
    if (!isLive(Handle))
      return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!toOp(TransA, D.TransA) || !toOp(TransB, D.TransB) || M < 0 ||
        N < 0 || K < 0 || Batch < 0)
      return invalid("a transpose, size or batch count");
    int64_t RowsA = D.TransA == blas::Op::N ? M : K;
    int64_t RowsB = D.TransB == blas::Op::N ? K : N;
    if (Lda < std::max<int64_t>(1, RowsA) || Ldb < std::max<int64_t>(1, RowsB) ||
        Ldc < std::max<int64_t>(1, M))
      return invalid("a leading dimension (lda >= rows of A as stored, ldb "
                     ">= rows of B, ldc >= m)");
    if (!D.Alpha || !D.Beta)
      return invalid("alpha or beta (null)");
    if (M == 0 || N == 0 || Batch == 0)
      return CUBLAS_STATUS_SUCCESS;
    D.M = M;
    D.N = N;
    D.K = K;
    D.Lda = Lda;
    D.Ldb = Ldb;
    D.Ldc = D.Ldd = Ldc;
    D.BatchCount = Batch;
    D.ScalarsOnDevice = Handle->PointerMode == CUBLAS_POINTER_MODE_DEVICE;
    const char *Why = nullptr;
    if (!blas::gemmSupported(D, &Why)) {
      CUHIP_WARN("%s: not supported: %s", Name, Why);
      return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    if (apiLogOn())
      apiLog("%s(handle=%p, transa=%d, transb=%d, m=%lld, n=%lld, k=%lld, "
             "lda=%lld, ldb=%lld, ldc=%lld, batch=%lld)",
             Name, static_cast<void *>(Handle), TransA, TransB,
             static_cast<long long>(M), static_cast<long long>(N),
             static_cast<long long>(K), static_cast<long long>(Lda),
             static_cast<long long>(Ldb), static_cast<long long>(Ldc),
             static_cast<long long>(Batch));
    int S = blas::gemm(D, Handle->Stream);
    if (S != rt::cudaSuccess)
      CUHIP_WARN("%s failed: %s", Name, rt::statusDescription(S));
    return fromRuntime(S);
  }

  cublasStatus_t invalid(const char *What) {
    CUHIP_DEBUG("%s: invalid %s: CUBLAS_STATUS_INVALID_VALUE", Name, What);
    return CUBLAS_STATUS_INVALID_VALUE;
  }

  void types(DType A, DType B, DType C, Compute Comp) {
    D.TypeA = A;
    D.TypeB = B;
    D.TypeC = D.TypeD = C;
    D.ComputeType = Comp;
  }
  void strided(const void *A, int64_t SA, const void *B, int64_t SB, void *C,
               int64_t SC) {
    D.A = A;
    D.B = B;
    D.C = C;
    D.D = C;
    D.StrideA = SA;
    D.StrideB = SB;
    D.StrideC = D.StrideD = SC;
  }
  void arrays(const void *const *A, const void *const *B, void *const *C) {
    D.AArray = A;
    D.BArray = B;
    D.CArray = const_cast<const void *const *>(C);
    D.DArray = C;
  }
  /// GemmEx's types and compute type: INVALID_VALUE for numbers that name
  /// no type, then the engine decides what it supports.
  cublasStatus_t exTypes(cudaDataType A, cudaDataType B, cudaDataType C,
                         int Comp, int Algo) {
    DType TA, TB, TC;
    Compute CT;
    if (!dtypeOf(A, TA) || !dtypeOf(B, TB) || !dtypeOf(C, TC) ||
        !toCompute(Comp, CT) || !validAlgo(Algo))
      return invalid("data type, compute type or algorithm");
    types(TA, TB, TC, CT);
    return CUBLAS_STATUS_SUCCESS;
  }
};

} // namespace

// --- S/D/H gemm ----------------------------------------------------------

#define TYPED_GEMM(NAME, INT, T, DT, COMPUTE)                                  \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const T *alpha,           \
      const T *A, INT lda, const T *B, INT ldb, const T *beta, T *C,           \
      INT ldc) {                                                               \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc};         \
    G.types(DT, DT, DT, COMPUTE);                                              \
    G.strided(A, 0, B, 0, C, 0);                                               \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
TYPED_GEMM(cublasSgemm_v2, int, float, DType::F32, Compute::F32)
TYPED_GEMM(cublasSgemm_v2_64, int64_t, float, DType::F32, Compute::F32)
TYPED_GEMM(cublasDgemm_v2, int, double, DType::F64, Compute::F64)
TYPED_GEMM(cublasDgemm_v2_64, int64_t, double, DType::F64, Compute::F64)
TYPED_GEMM(cublasHgemm, int, __half, DType::F16, Compute::F16)
TYPED_GEMM(cublasHgemm_64, int64_t, __half, DType::F16, Compute::F16)
#undef TYPED_GEMM

#define TYPED_GEMM_STRIDED(NAME, INT, T, DT, COMPUTE)                          \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const T *alpha,           \
      const T *A, INT lda, long long int strideA, const T *B, INT ldb,         \
      long long int strideB, const T *beta, T *C, INT ldc,                     \
      long long int strideC, INT batchCount) {                                 \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc,          \
               batchCount};                                                    \
    G.types(DT, DT, DT, COMPUTE);                                              \
    G.strided(A, strideA, B, strideB, C, strideC);                             \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
TYPED_GEMM_STRIDED(cublasSgemmStridedBatched, int, float, DType::F32,
                   Compute::F32)
TYPED_GEMM_STRIDED(cublasSgemmStridedBatched_64, int64_t, float, DType::F32,
                   Compute::F32)
TYPED_GEMM_STRIDED(cublasDgemmStridedBatched, int, double, DType::F64,
                   Compute::F64)
TYPED_GEMM_STRIDED(cublasDgemmStridedBatched_64, int64_t, double, DType::F64,
                   Compute::F64)
TYPED_GEMM_STRIDED(cublasHgemmStridedBatched, int, __half, DType::F16,
                   Compute::F16)
TYPED_GEMM_STRIDED(cublasHgemmStridedBatched_64, int64_t, __half, DType::F16,
                   Compute::F16)
#undef TYPED_GEMM_STRIDED

#define TYPED_GEMM_BATCHED(NAME, INT, T, DT, COMPUTE)                          \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const T *alpha,           \
      const T *const Aarray[], INT lda, const T *const Barray[], INT ldb,      \
      const T *beta, T *const Carray[], INT ldc, INT batchCount) {             \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc,          \
               batchCount};                                                    \
    if (batchCount > 0 && (!Aarray || !Barray || !Carray))                     \
      return G.invalid("pointer array (null)");                                \
    G.types(DT, DT, DT, COMPUTE);                                              \
    G.arrays(reinterpret_cast<const void *const *>(Aarray),                    \
             reinterpret_cast<const void *const *>(Barray),                    \
             reinterpret_cast<void *const *>(Carray));                         \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
TYPED_GEMM_BATCHED(cublasSgemmBatched, int, float, DType::F32, Compute::F32)
TYPED_GEMM_BATCHED(cublasSgemmBatched_64, int64_t, float, DType::F32,
                   Compute::F32)
TYPED_GEMM_BATCHED(cublasDgemmBatched, int, double, DType::F64, Compute::F64)
TYPED_GEMM_BATCHED(cublasDgemmBatched_64, int64_t, double, DType::F64,
                   Compute::F64)
TYPED_GEMM_BATCHED(cublasHgemmBatched, int, __half, DType::F16, Compute::F16)
TYPED_GEMM_BATCHED(cublasHgemmBatched_64, int64_t, __half, DType::F16,
                   Compute::F16)
#undef TYPED_GEMM_BATCHED

// --- SgemmEx: float scalars and compute, typed matrices -------------------

#define SGEMM_EX(NAME, INT)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const float *alpha,       \
      const void *A, cudaDataType Atype, INT lda, const void *B,               \
      cudaDataType Btype, INT ldb, const float *beta, void *C,                 \
      cudaDataType Ctype, INT ldc) {                                           \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc};         \
    if (!isLive(handle))                                                       \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (cublasStatus_t S =                                                     \
            G.exTypes(Atype, Btype, Ctype, CUBLAS_COMPUTE_32F, -1))            \
      return S;                                                                \
    G.strided(A, 0, B, 0, C, 0);                                               \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
SGEMM_EX(cublasSgemmEx, int)
SGEMM_EX(cublasSgemmEx_64, int64_t)
#undef SGEMM_EX

// --- GemmEx and its batched forms -------------------------------------------

#define GEMM_EX(NAME, INT)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const void *alpha,        \
      const void *A, cudaDataType Atype, INT lda, const void *B,               \
      cudaDataType Btype, INT ldb, const void *beta, void *C,                  \
      cudaDataType Ctype, INT ldc, cublasComputeType_t computeType,            \
      cublasGemmAlgo_t algo) {                                                 \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc};         \
    if (!isLive(handle))                                                       \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (cublasStatus_t S = G.exTypes(Atype, Btype, Ctype, computeType, algo))  \
      return S;                                                                \
    G.strided(A, 0, B, 0, C, 0);                                               \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
GEMM_EX(cublasGemmEx, int)
GEMM_EX(cublasGemmEx_64, int64_t)
#undef GEMM_EX

#define GEMM_STRIDED_BATCHED_EX(NAME, INT)                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const void *alpha,        \
      const void *A, cudaDataType Atype, INT lda, long long int strideA,       \
      const void *B, cudaDataType Btype, INT ldb, long long int strideB,       \
      const void *beta, void *C, cudaDataType Ctype, INT ldc,                  \
      long long int strideC, INT batchCount, cublasComputeType_t computeType,  \
      cublasGemmAlgo_t algo) {                                                 \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc,          \
               batchCount};                                                    \
    if (!isLive(handle))                                                       \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (cublasStatus_t S = G.exTypes(Atype, Btype, Ctype, computeType, algo))  \
      return S;                                                                \
    G.strided(A, strideA, B, strideB, C, strideC);                             \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
GEMM_STRIDED_BATCHED_EX(cublasGemmStridedBatchedEx, int)
GEMM_STRIDED_BATCHED_EX(cublasGemmStridedBatchedEx_64, int64_t)
#undef GEMM_STRIDED_BATCHED_EX

#define GEMM_BATCHED_EX(NAME, INT)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const void *alpha,        \
      const void *const Aarray[], cudaDataType Atype, INT lda,                 \
      const void *const Barray[], cudaDataType Btype, INT ldb,                 \
      const void *beta, void *const Carray[], cudaDataType Ctype, INT ldc,     \
      INT batchCount, cublasComputeType_t computeType,                         \
      cublasGemmAlgo_t algo) {                                                 \
    GemmCall G{#NAME, handle, transa, transb, m, n, k, lda, ldb, ldc,          \
               batchCount};                                                    \
    if (!isLive(handle))                                                       \
      return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (batchCount > 0 && (!Aarray || !Barray || !Carray))                     \
      return G.invalid("pointer array (null)");                                \
    if (cublasStatus_t S = G.exTypes(Atype, Btype, Ctype, computeType, algo))  \
      return S;                                                                \
    G.arrays(Aarray, Barray, Carray);                                          \
    G.D.Alpha = alpha;                                                         \
    G.D.Beta = beta;                                                           \
    return G.run();                                                            \
  }
GEMM_BATCHED_EX(cublasGemmBatchedEx, int)
GEMM_BATCHED_EX(cublasGemmBatchedEx_64, int64_t)
#undef GEMM_BATCHED_EX
