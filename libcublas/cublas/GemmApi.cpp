//===- GemmApi.cpp - The cuBLAS GEMM family over the engine ---------------===//
//
// Every real GEMM entry point (S/D/H gemm, SgemmEx, GemmEx, their batched
// and strided-batched forms, each also in _64; the legacy Sgemm/Dgemm; the
// grouped GemmGroupedBatchedEx) checks its arguments as cuBLAS does,
// translates types and compute type into one GemmDesc and hands it to the
// engine on the handle's stream. GemmEx's complex types go to
// Level3Api.cpp's typed complex GEMM.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"
#include "Handle.h"

#include "ApiCommon.h"

#include "Gemm.h"

#include "cuhip/runtime/Log.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace cuhip;
using namespace cuhip::cublas;
using blas::Compute;
using blas::DType;
using blas::dtypeOf;
using blas::GemmDesc;

namespace {

bool toRealOp(cublasOperation_t T, blas::Op &Out) {
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

bool isComplex(DType T) { return T == DType::C32 || T == DType::C64; }

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
    if (!toRealOp(TransA, D.TransA) || !toRealOp(TransB, D.TransB) || M < 0 ||
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
    if (isComplex(D.TypeA) || isComplex(D.TypeB) || isComplex(D.TypeC))
      return complexGemmEx(Name, Handle, TransA, TransB, D);
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

// --- the legacy forms (cublas.h) ---------------------------------------------

#define GEMM_LEGACY(NAME, V2, T)                                               \
  CUHIP_EXPORT void NAME(char transa, char transb, int m, int n, int k,        \
                         T alpha, const T *A, int lda, const T *B, int ldb,    \
                         T beta, T *C, int ldc) {                              \
    CUHIP_LEGACY_CALL(V2(legacyHandle(), legacyOp(transa), legacyOp(transb),   \
                         m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));     \
  }
GEMM_LEGACY(cublasSgemm, cublasSgemm_v2, float)
GEMM_LEGACY(cublasDgemm, cublasDgemm_v2, double)
#undef GEMM_LEGACY

// --- GemmGroupedBatchedEx -----------------------------------------------------

namespace {

/// Groups of products of one type combination: group g has group_size[g]
/// products sharing transposes, sizes, leading dimensions and alpha/beta
/// (compute-type scalars, by the pointer mode). The size arrays are host
/// memory, the matrix pointer arrays device memory.
template <typename I>
cublasStatus_t gemmGroupedEx(
    const char *Name, cublasHandle_t H, const cublasOperation_t *TA,
    const cublasOperation_t *TB, const I *M, const I *N, const I *K,
    const void *Alpha, const void *const *A, cudaDataType_t AType,
    const I *Lda, const void *const *B, cudaDataType_t BType, const I *Ldb,
    const void *Beta, void *const *C, cudaDataType_t CType, const I *Ldc,
    int64_t Groups, const I *GroupSize, cublasComputeType_t ComputeType) {
  Call Cl(Name, H);
  if (cublasStatus_t S = Cl.start())
    return S;
  GemmCall Types{Name, H, CUBLAS_OP_N, CUBLAS_OP_N, 0, 0, 0, 1, 1, 1};
  if (cublasStatus_t S =
          Types.exTypes(AType, BType, CType, ComputeType, CUBLAS_GEMM_DEFAULT))
    return S;
  if (Groups < 0)
    return Cl.invalid("group count");
  if (Groups == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!TA || !TB || !M || !N || !K || !Alpha || !Lda || !Ldb || !Beta ||
      !Ldc || !GroupSize)
    return Cl.invalid("array (null)");
  std::vector<GemmDesc> Gs(Groups, Types.D);
  std::vector<int64_t> Sizes(Groups);
  int64_t Total = 0;
  for (int64_t G = 0; G < Groups; ++G) {
    GemmDesc &D = Gs[G];
    if (!toRealOp(TA[G], D.TransA) || !toRealOp(TB[G], D.TransB))
      return Cl.invalid("transpose");
    D.M = M[G];
    D.N = N[G];
    D.K = K[G];
    D.Lda = Lda[G];
    D.Ldb = Ldb[G];
    D.Ldc = D.Ldd = Ldc[G];
    Sizes[G] = GroupSize[G];
    if (D.M < 0 || D.N < 0 || D.K < 0 || Sizes[G] < 0 ||
        D.Lda < std::max<int64_t>(1, D.TransA == blas::Op::N ? D.M : D.K) ||
        D.Ldb < std::max<int64_t>(1, D.TransB == blas::Op::N ? D.K : D.N) ||
        D.Ldc < std::max<int64_t>(1, D.M))
      return Cl.invalid("size, group size or leading dimension");
    const char *Why = nullptr;
    if (!blas::gemmSupported(D, &Why))
      return Cl.unsupported(Why);
    Total += Sizes[G];
  }
  if (Total > 0 && (!A || !B || !C))
    return Cl.invalid("pointer array (null)");
  // Host-mode scalars are copied now, device-mode ones read when it runs.
  size_t Bytes = Types.D.ComputeType == Compute::F16   ? 2
                 : Types.D.ComputeType == Compute::F64 ? 8
                                                       : 4;
  bool OnDevice = Cl.deviceScalars();
  std::vector<unsigned char> Alphas, Betas;
  if (!OnDevice) {
    Alphas.resize(Bytes * Groups);
    Betas.resize(Bytes * Groups);
    std::memcpy(Alphas.data(), Alpha, Alphas.size());
    std::memcpy(Betas.data(), Beta, Betas.size());
  }
  return Cl.run([=] {
    int64_t Index = 0;
    for (int64_t G = 0; G < Groups; ++G) {
      GemmDesc D = Gs[G];
      D.Alpha = (OnDevice ? static_cast<const unsigned char *>(Alpha)
                          : Alphas.data()) +
                G * Bytes;
      D.Beta = (OnDevice ? static_cast<const unsigned char *>(Beta)
                         : Betas.data()) +
               G * Bytes;
      for (int64_t J = 0; J < Sizes[G]; ++J, ++Index) {
        D.A = A[Index];
        D.B = B[Index];
        D.C = D.D = C[Index];
        blas::gemmOnHost(D);
      }
    }
  });
}

} // namespace

#define GEMM_GROUPED_EX(NAME, INT)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, const cublasOperation_t transa_array[],           \
      const cublasOperation_t transb_array[], const INT m_array[],             \
      const INT n_array[], const INT k_array[], const void *alpha_array,       \
      const void *const Aarray[], cudaDataType_t Atype,                        \
      const INT lda_array[], const void *const Barray[],                       \
      cudaDataType_t Btype, const INT ldb_array[], const void *beta_array,     \
      void *const Carray[], cudaDataType_t Ctype, const INT ldc_array[],       \
      INT group_count, const INT group_size[],                                 \
      cublasComputeType_t computeType) {                                       \
    return gemmGroupedEx(#NAME, handle, transa_array, transb_array, m_array,   \
                         n_array, k_array, alpha_array, Aarray, Atype,         \
                         lda_array, Barray, Btype, ldb_array, beta_array,      \
                         Carray, Ctype, ldc_array, group_count, group_size,    \
                         computeType);                                         \
  }
GEMM_GROUPED_EX(cublasGemmGroupedBatchedEx, int)
GEMM_GROUPED_EX(cublasGemmGroupedBatchedEx_64, int64_t)
#undef GEMM_GROUPED_EX
