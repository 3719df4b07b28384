//===- Level3Api.cpp - cuBLAS level 3 for S, D, C and Z and its extensions
//-===//
//
// Complex GEMM (C/Z gemm, gemm3m, their batched and strided-batched forms,
// CgemmEx, and GemmEx's complex types; the real GEMMs are GemmApi.cpp's),
// symm/hemm, syrk/herk, syr2k/her2k, syrkx/herkx, trmm, trsm and cuBLAS's
// BLAS-like extensions geam, dgmm, tpttr and trttp, with their _64 and
// legacy forms, and the CherkEx/CsyrkEx family for complex f32 data. The
// 3m forms are ordinary complex products here: the Gauss trick only
// changes speed and rounding on NVIDIA's side.
//
//===----------------------------------------------------------------------===//
#include "Level3Calls.h"

#include "ApiCommon.h"

#include <algorithm>
#include <vector>

using namespace cuhip;
using namespace cuhip::cublas;
namespace host = cuhip::blas::host;
using blas::Diag;
using blas::Op;
using blas::Side;
using blas::Uplo;
using host::IsComplex;
using host::Real;

namespace api = cuhip::cublas::level3;

// --- complex GEMM ------------------------------------------------------------

#define GEMM(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const T *alpha,           \
      const T *A, INT lda, const T *B, INT ldb, const T *beta, T *C,           \
      INT ldc) {                                                               \
    return api::gemm(#NAME, handle, transa, transb, m, n, k, E(alpha),         \
                     api::strided(E(A), 0, E(B), 0, E(C), 0), lda, ldb,        \
                     E(beta), ldc, 1);                                         \
  }
CUHIP_EACH_CZ(GEMM, gemm, _v2)
GEMM(cublasCgemm3m, int, cuComplex)
GEMM(cublasCgemm3m_64, int64_t, cuComplex)
GEMM(cublasZgemm3m, int, cuDoubleComplex)
GEMM(cublasZgemm3m_64, int64_t, cuDoubleComplex)
#undef GEMM

#define GEMM_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(char transa, char transb, int m, int n, int k,        \
                         T alpha, const T *A, int lda, const T *B, int ldb,    \
                         T beta, T *C, int ldc) {                              \
    CUHIP_LEGACY_CALL(api::gemm(#NAME, legacyHandle(), legacyOp(transa),       \
                                legacyOp(transb), m, n, k, E(&alpha),          \
                                api::strided(E(A), 0, E(B), 0, E(C), 0), lda,  \
                                ldb, E(&beta), ldc, 1));                       \
  }
CUHIP_LEGACY_CZ(GEMM_LEGACY, gemm)
#undef GEMM_LEGACY

#define GEMM_STRIDED(NAME, INT, T)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const T *alpha,           \
      const T *A, INT lda, long long int strideA, const T *B, INT ldb,         \
      long long int strideB, const T *beta, T *C, INT ldc,                     \
      long long int strideC, INT batchCount) {                                 \
    return api::gemm(                                                          \
        #NAME, handle, transa, transb, m, n, k, E(alpha),                      \
        api::strided(E(A), strideA, E(B), strideB, E(C), strideC), lda, ldb,   \
        E(beta), ldc, batchCount);                                             \
  }
CUHIP_EACH_CZ(GEMM_STRIDED, gemmStridedBatched, )
GEMM_STRIDED(cublasCgemm3mStridedBatched, int, cuComplex)
GEMM_STRIDED(cublasCgemm3mStridedBatched_64, int64_t, cuComplex)
#undef GEMM_STRIDED

#define GEMM_BATCHED(NAME, INT, T)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const T *alpha,           \
      const T *const Aarray[], INT lda, const T *const Barray[], INT ldb,      \
      const T *beta, T *const Carray[], INT ldc, INT batchCount) {             \
    return api::gemmBatched(#NAME, handle, transa, transb, m, n, k, E(alpha),  \
                            E(Aarray), lda, E(Barray), ldb, E(beta),           \
                            E(Carray), ldc, batchCount);                       \
  }
CUHIP_EACH_CZ(GEMM_BATCHED, gemmBatched, )
GEMM_BATCHED(cublasCgemm3mBatched, int, cuComplex)
GEMM_BATCHED(cublasCgemm3mBatched_64, int64_t, cuComplex)
#undef GEMM_BATCHED

// CgemmEx: complex f32 matrices only (the C_8I and C_16F inputs are not
// done).
#define CGEMM_EX(NAME, INT)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, INT k, const cuComplex *alpha,   \
      const void *A, cudaDataType Atype, INT lda, const void *B,               \
      cudaDataType Btype, INT ldb, const cuComplex *beta, void *C,             \
      cudaDataType Ctype, INT ldc) {                                           \
    if (isLive(handle) &&                                                      \
        (Atype != CUDA_C_32F || Btype != CUDA_C_32F || Ctype != CUDA_C_32F))   \
      return Call(#NAME, handle)                                               \
          .unsupported("matrix types other than CUDA_C_32F");                  \
    using T = std::complex<float>;                                             \
    return api::gemm(#NAME, handle, transa, transb, m, n, k, E(alpha),         \
                     api::strided(static_cast<const T *>(A), 0,                \
                                  static_cast<const T *>(B), 0,                \
                                  static_cast<T *>(C), 0),                     \
                     lda, ldb, E(beta), ldc, 1);                               \
  }
CGEMM_EX(cublasCgemmEx, int)
CGEMM_EX(cublasCgemmEx_64, int64_t)
CGEMM_EX(cublasCgemm3mEx, int)
CGEMM_EX(cublasCgemm3mEx_64, int64_t)
#undef CGEMM_EX

namespace cuhip::cublas {

cublasStatus_t complexGemmEx(const char *Name, cublasHandle_t H,
                             cublasOperation_t TA, cublasOperation_t TB,
                             const blas::GemmDesc &D) {
  auto Run = [&](auto Tag) {
    using T = decltype(Tag);
    api::Operands<T> X;
    if (D.AArray) {
      X = api::arrays(reinterpret_cast<const T *const *>(D.AArray),
                      reinterpret_cast<const T *const *>(D.BArray),
                      reinterpret_cast<T *const *>(D.DArray));
    } else {
      X = api::strided(static_cast<const T *>(D.A), D.StrideA,
                       static_cast<const T *>(D.B), D.StrideB,
                       static_cast<T *>(D.D), D.StrideD);
    }
    return api::gemm(Name, H, TA, TB, D.M, D.N, D.K,
                     static_cast<const T *>(D.Alpha), X, D.Lda, D.Ldb,
                     static_cast<const T *>(D.Beta), D.Ldc, D.BatchCount);
  };
  bool AllC32 = D.TypeA == blas::DType::C32 && D.TypeB == blas::DType::C32 &&
                D.TypeC == blas::DType::C32;
  bool AllC64 = D.TypeA == blas::DType::C64 && D.TypeB == blas::DType::C64 &&
                D.TypeC == blas::DType::C64;
  if (AllC32 && D.ComputeType == blas::Compute::F32)
    return Run(std::complex<float>{});
  if (AllC64 && D.ComputeType == blas::Compute::F64)
    return Run(std::complex<double>{});
  return Call(Name, H).unsupported(
      "complex GEMMs need all matrices CUDA_C_32F with a 32F compute type or "
      "all CUDA_C_64F with 64F");
}

} // namespace cuhip::cublas

// --- symm, hemm --------------------------------------------------------------

#define SYMM(NAME, INT, T, HERM)                                               \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,     \
      INT m, INT n, const T *alpha, const T *A, INT lda, const T *B, INT ldb,  \
      const T *beta, T *C, INT ldc) {                                          \
    return api::symm(#NAME, handle, side, uplo, m, n, E(alpha), E(A), lda,     \
                     E(B), ldb, E(beta), E(C), ldc, HERM);                     \
  }
#define SYMM_SYM(NAME, INT, T) SYMM(NAME, INT, T, false)
#define SYMM_HERM(NAME, INT, T) SYMM(NAME, INT, T, true)
CUHIP_EACH_SDCZ(SYMM_SYM, symm, _v2)
CUHIP_EACH_CZ(SYMM_HERM, hemm, _v2)
#undef SYMM_SYM
#undef SYMM_HERM
#undef SYMM

#define SYMM_LEGACY(NAME, T, HERM)                                             \
  CUHIP_EXPORT void NAME(char side, char uplo, int m, int n, T alpha,          \
                         const T *A, int lda, const T *B, int ldb, T beta,     \
                         T *C, int ldc) {                                      \
    CUHIP_LEGACY_CALL(api::symm(#NAME, legacyHandle(), legacySide(side),       \
                                legacyUplo(uplo), m, n, E(&alpha), E(A), lda,  \
                                E(B), ldb, E(&beta), E(C), ldc, HERM));        \
  }
#define SYMM_LEGACY_SYM(NAME, T) SYMM_LEGACY(NAME, T, false)
#define SYMM_LEGACY_HERM(NAME, T) SYMM_LEGACY(NAME, T, true)
CUHIP_LEGACY_SDCZ(SYMM_LEGACY_SYM, symm)
CUHIP_LEGACY_CZ(SYMM_LEGACY_HERM, hemm)
#undef SYMM_LEGACY_SYM
#undef SYMM_LEGACY_HERM
#undef SYMM_LEGACY

// --- syrk, herk --------------------------------------------------------------

#define SYRK(NAME, INT, T, S, HERM)                                            \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,   \
      INT n, INT k, const S *alpha, const T *A, INT lda, const S *beta, T *C,  \
      INT ldc) {                                                               \
    return api::syrk(#NAME, handle, uplo, trans, n, k, E(alpha), E(A), lda,    \
                     E(beta), E(C), ldc, HERM);                                \
  }
#define SYRK_SYM(NAME, INT, T) SYRK(NAME, INT, T, T, false)
CUHIP_EACH_SDCZ(SYRK_SYM, syrk, _v2)
SYRK(cublasCherk_v2, int, cuComplex, float, true)
SYRK(cublasCherk_v2_64, int64_t, cuComplex, float, true)
SYRK(cublasZherk_v2, int, cuDoubleComplex, double, true)
SYRK(cublasZherk_v2_64, int64_t, cuDoubleComplex, double, true)
#undef SYRK_SYM
#undef SYRK

#define SYRK_LEGACY(NAME, T, S, HERM)                                          \
  CUHIP_EXPORT void NAME(char uplo, char trans, int n, int k, S alpha,         \
                         const T *A, int lda, S beta, T *C, int ldc) {         \
    CUHIP_LEGACY_CALL(api::syrk(#NAME, legacyHandle(), legacyUplo(uplo),       \
                                legacyOp(trans), n, k, E(&alpha), E(A), lda,   \
                                E(&beta), E(C), ldc, HERM));                   \
  }
SYRK_LEGACY(cublasSsyrk, float, float, false)
SYRK_LEGACY(cublasDsyrk, double, double, false)
SYRK_LEGACY(cublasCsyrk, cuComplex, cuComplex, false)
SYRK_LEGACY(cublasZsyrk, cuDoubleComplex, cuDoubleComplex, false)
SYRK_LEGACY(cublasCherk, cuComplex, float, true)
SYRK_LEGACY(cublasZherk, cuDoubleComplex, double, true)
#undef SYRK_LEGACY

// CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx: complex f32 A and C only (the
// CUDA_C_8I input is not done).
#define RANKK_EX(NAME, INT, S, HERM)                                           \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,   \
      INT n, INT k, const S *alpha, const void *A, cudaDataType Atype,         \
      INT lda, const S *beta, void *C, cudaDataType Ctype, INT ldc) {          \
    if (isLive(handle) && (Atype != CUDA_C_32F || Ctype != CUDA_C_32F))        \
      return Call(#NAME, handle)                                               \
          .unsupported("matrix types other than CUDA_C_32F");                  \
    using T = std::complex<float>;                                             \
    return api::syrk(#NAME, handle, uplo, trans, n, k, E(alpha),               \
                     static_cast<const T *>(A), lda, E(beta),                  \
                     static_cast<T *>(C), ldc, HERM);                          \
  }
RANKK_EX(cublasCsyrkEx, int, cuComplex, false)
RANKK_EX(cublasCsyrkEx_64, int64_t, cuComplex, false)
RANKK_EX(cublasCsyrk3mEx, int, cuComplex, false)
RANKK_EX(cublasCsyrk3mEx_64, int64_t, cuComplex, false)
RANKK_EX(cublasCherkEx, int, float, true)
RANKK_EX(cublasCherkEx_64, int64_t, float, true)
RANKK_EX(cublasCherk3mEx, int, float, true)
RANKK_EX(cublasCherk3mEx_64, int64_t, float, true)
#undef RANKK_EX

// --- syr2k/her2k, syrkx/herkx ------------------------------------------------

#define SYR2K(NAME, INT, T, S, HERM, KX)                                       \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,   \
      INT n, INT k, const T *alpha, const T *A, INT lda, const T *B, INT ldb,  \
      const S *beta, T *C, INT ldc) {                                          \
    return api::syr2k(#NAME, handle, uplo, trans, n, k, E(alpha), E(A), lda,   \
                      E(B), ldb, E(beta), E(C), ldc, HERM, KX);                \
  }
#define SYR2K_SYM(NAME, INT, T) SYR2K(NAME, INT, T, T, false, false)
#define SYRKX_SYM(NAME, INT, T) SYR2K(NAME, INT, T, T, false, true)
CUHIP_EACH_SDCZ(SYR2K_SYM, syr2k, _v2)
CUHIP_EACH_SDCZ(SYRKX_SYM, syrkx, )
SYR2K(cublasCher2k_v2, int, cuComplex, float, true, false)
SYR2K(cublasCher2k_v2_64, int64_t, cuComplex, float, true, false)
SYR2K(cublasZher2k_v2, int, cuDoubleComplex, double, true, false)
SYR2K(cublasZher2k_v2_64, int64_t, cuDoubleComplex, double, true, false)
SYR2K(cublasCherkx, int, cuComplex, float, true, true)
SYR2K(cublasCherkx_64, int64_t, cuComplex, float, true, true)
SYR2K(cublasZherkx, int, cuDoubleComplex, double, true, true)
SYR2K(cublasZherkx_64, int64_t, cuDoubleComplex, double, true, true)
#undef SYR2K_SYM
#undef SYRKX_SYM
#undef SYR2K

#define SYR2K_LEGACY(NAME, T, S, HERM)                                         \
  CUHIP_EXPORT void NAME(char uplo, char trans, int n, int k, T alpha,         \
                         const T *A, int lda, const T *B, int ldb, S beta,     \
                         T *C, int ldc) {                                      \
    CUHIP_LEGACY_CALL(api::syr2k(                                              \
        #NAME, legacyHandle(), legacyUplo(uplo), legacyOp(trans), n, k,        \
        E(&alpha), E(A), lda, E(B), ldb, E(&beta), E(C), ldc, HERM, false));   \
  }
SYR2K_LEGACY(cublasSsyr2k, float, float, false)
SYR2K_LEGACY(cublasDsyr2k, double, double, false)
SYR2K_LEGACY(cublasCsyr2k, cuComplex, cuComplex, false)
SYR2K_LEGACY(cublasZsyr2k, cuDoubleComplex, cuDoubleComplex, false)
SYR2K_LEGACY(cublasCher2k, cuComplex, float, true)
SYR2K_LEGACY(cublasZher2k, cuDoubleComplex, double, true)
#undef SYR2K_LEGACY

// --- trmm, trsm --------------------------------------------------------------

#define TRMM(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,     \
      cublasOperation_t trans, cublasDiagType_t diag, INT m, INT n,            \
      const T *alpha, const T *A, INT lda, const T *B, INT ldb, T *C,          \
      INT ldc) {                                                               \
    return api::triangularMm(#NAME, handle, side, uplo, trans, diag, m, n,     \
                             E(alpha), E(A), lda, E(B), ldb, E(C), ldc,        \
                             false);                                           \
  }
CUHIP_EACH_SDCZ(TRMM, trmm, _v2)
#undef TRMM

#define TRSM(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,     \
      cublasOperation_t trans, cublasDiagType_t diag, INT m, INT n,            \
      const T *alpha, const T *A, INT lda, T *B, INT ldb) {                    \
    return api::triangularMm(#NAME, handle, side, uplo, trans, diag, m, n,     \
                             E(alpha), E(A), lda, E(B), ldb, E(B), ldb, true); \
  }
CUHIP_EACH_SDCZ(TRSM, trsm, _v2)
#undef TRSM

// The legacy trmm is in place on B, like BLAS's.
#define TRMM_LEGACY(NAME, T, SOLVE)                                            \
  CUHIP_EXPORT void NAME(char side, char uplo, char transa, char diag, int m,  \
                         int n, T alpha, const T *A, int lda, T *B, int ldb) { \
    CUHIP_LEGACY_CALL(api::triangularMm(                                       \
        #NAME, legacyHandle(), legacySide(side), legacyUplo(uplo),             \
        legacyOp(transa), legacyDiag(diag), m, n, E(&alpha), E(A), lda, E(B),  \
        ldb, E(B), ldb, SOLVE));                                               \
  }
#define TRMM_LEGACY_MM(NAME, T) TRMM_LEGACY(NAME, T, false)
#define TRMM_LEGACY_SM(NAME, T) TRMM_LEGACY(NAME, T, true)
CUHIP_LEGACY_SDCZ(TRMM_LEGACY_MM, trmm)
CUHIP_LEGACY_SDCZ(TRMM_LEGACY_SM, trsm)
#undef TRMM_LEGACY_MM
#undef TRMM_LEGACY_SM
#undef TRMM_LEGACY

// --- geam, dgmm, tpttr, trttp ------------------------------------------------

#define GEAM(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t transa,                         \
      cublasOperation_t transb, INT m, INT n, const T *alpha, const T *A,      \
      INT lda, const T *beta, const T *B, INT ldb, T *C, INT ldc) {            \
    return api::geam(#NAME, handle, transa, transb, m, n, E(alpha), E(A), lda, \
                     E(beta), E(B), ldb, E(C), ldc);                           \
  }
CUHIP_EACH_SDCZ(GEAM, geam, )
#undef GEAM

#define DGMM(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasSideMode_t mode, INT m, INT n, const T *A,  \
      INT lda, const T *x, INT incx, T *C, INT ldc) {                          \
    return api::dgmm(#NAME, handle, mode, m, n, E(A), lda, E(x), incx, E(C),   \
                     ldc);                                                     \
  }
CUHIP_EACH_SDCZ(DGMM, dgmm, )
#undef DGMM

#define TPTTR(NAME, T)                                                         \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle,                      \
                                   cublasFillMode_t uplo, int n, const T *AP,  \
                                   T *A, int lda) {                            \
    return api::packTriangle(#NAME, handle, uplo, n, E(AP), E(A), lda, true);  \
  }
CUHIP_LEGACY_SDCZ(TPTTR, tpttr)
#undef TPTTR

#define TRTTP(NAME, T)                                                         \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle,                      \
                                   cublasFillMode_t uplo, int n, const T *A,   \
                                   int lda, T *AP) {                           \
    return api::packTriangle(#NAME, handle, uplo, n, E(A), E(AP), lda, false); \
  }
CUHIP_LEGACY_SDCZ(TRTTP, trttp)
#undef TRTTP

// --- grouped GEMM (f32, f64) -------------------------------------------------

namespace {

/// cublas[SD]gemmGroupedBatched: group g has group_size[g] products with
/// its own transposes, sizes, leading dimensions and scalars; the size
/// arrays are host memory, alpha and beta follow the pointer mode, the
/// matrix arrays are device memory.
template <typename T, typename I>
cublasStatus_t
gemmGrouped(const char *Name, cublasHandle_t H, const cublasOperation_t *TA,
            const cublasOperation_t *TB, const I *M, const I *N, const I *K,
            const T *Alpha, const T *const *A, const I *Lda, const T *const *B,
            const I *Ldb, const T *Beta, T *const *C, const I *Ldc,
            int64_t Groups, const I *GroupSize) {
  Call Cl(Name, H);
  if (cublasStatus_t S = Cl.start())
    return S;
  if (Groups < 0)
    return Cl.invalid("group count");
  if (Groups == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (!TA || !TB || !M || !N || !K || !Alpha || !Lda || !Ldb || !Beta || !Ldc ||
      !GroupSize)
    return Cl.invalid("array (null)");
  struct Group {
    Op OA, OB;
    int64_t M, N, K, Lda, Ldb, Ldc, Size;
  };
  std::vector<Group> Gs(Groups);
  int64_t Total = 0;
  for (int64_t G = 0; G < Groups; ++G) {
    Group &P = Gs[G];
    if (!toOp(TA[G], P.OA) || !toOp(TB[G], P.OB))
      return Cl.invalid("transpose");
    P.M = M[G];
    P.N = N[G];
    P.K = K[G];
    P.Lda = Lda[G];
    P.Ldb = Ldb[G];
    P.Ldc = Ldc[G];
    P.Size = GroupSize[G];
    if (P.M < 0 || P.N < 0 || P.K < 0 || P.Size < 0 ||
        P.Lda < api::atLeast1(P.OA == Op::N ? P.M : P.K) ||
        P.Ldb < api::atLeast1(P.OB == Op::N ? P.K : P.N) ||
        P.Ldc < api::atLeast1(P.M))
      return Cl.invalid("size, group size or leading dimension");
    if (!Cl.fits({P.M, P.N, P.K, P.Lda, P.Ldb, P.Ldc}))
      return CUBLAS_STATUS_NOT_SUPPORTED;
    Total += P.Size;
  }
  if (Total > 0 && (!A || !B || !C))
    return Cl.invalid("pointer array (null)");
  std::vector<T> Alphas, Betas;
  if (!Cl.deviceScalars()) {
    Alphas.assign(Alpha, Alpha + Groups);
    Betas.assign(Beta, Beta + Groups);
  }
  bool OnDevice = Cl.deviceScalars();
  return Cl.run([=] {
    int64_t Index = 0;
    for (int64_t G = 0; G < Groups; ++G) {
      const Group &P = Gs[G];
      T Al = OnDevice ? Alpha[G] : Alphas[G],
        Be = OnDevice ? Beta[G] : Betas[G];
      for (int64_t J = 0; J < P.Size; ++J, ++Index)
        host::gemm(P.OA, P.OB, P.M, P.N, P.K, Al, A[Index], P.Lda, B[Index],
                   P.Ldb, Be, C[Index], P.Ldc);
    }
  });
}

} // namespace

#define GEMM_GROUPED(NAME, INT, T)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, const cublasOperation_t transa_array[],           \
      const cublasOperation_t transb_array[], const INT m_array[],             \
      const INT n_array[], const INT k_array[], const T alpha_array[],         \
      const T *const Aarray[], const INT lda_array[], const T *const Barray[], \
      const INT ldb_array[], const T beta_array[], T *const Carray[],          \
      const INT ldc_array[], INT group_count, const INT group_size[]) {        \
    return gemmGrouped(#NAME, handle, transa_array, transb_array, m_array,     \
                       n_array, k_array, alpha_array, Aarray, lda_array,       \
                       Barray, ldb_array, beta_array, Carray, ldc_array,       \
                       group_count, group_size);                               \
  }
CUHIP_EACH_SD(GEMM_GROUPED, gemmGroupedBatched, )
#undef GEMM_GROUPED
