//===- Level2Api.cpp - cuBLAS level 2 for S, D, C and Z -------------------===//
//
// gemv (complex; the real ones are Level12Api.cpp's), gbmv, ger/geru/gerc,
// symv/hemv, sbmv/hbmv, spmv/hpmv, syr/her, syr2/her2, spr/hpr, spr2/hpr2
// and the triangular products and solves (tr/tb/tp mv and sv), in their
// _v2, _v2_64 and legacy forms. The checks are cuBLAS's: a bad
// enumerator, a negative size, a zero increment or a leading dimension
// below what the matrix needs is CUBLAS_STATUS_INVALID_VALUE, as is a
// null alpha or beta.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"

#include <algorithm>

using namespace cuhip;
using namespace cuhip::cublas;
namespace host = cuhip::blas::host;
using blas::Diag;
using blas::Op;
using blas::Uplo;
using host::Real;

namespace {
namespace api {

constexpr cublasStatus_t Success = CUBLAS_STATUS_SUCCESS;
constexpr cublasStatus_t TooLarge = CUBLAS_STATUS_NOT_SUPPORTED;

int64_t atLeast1(int64_t V) { return std::max<int64_t>(1, V); }

template <typename T>
cublasStatus_t gemv(const char *Name, cublasHandle_t H, cublasOperation_t Tr,
                    int64_t M, int64_t N, const T *Alpha, const T *A,
                    int64_t Lda, const T *X, int64_t IncX, const T *Beta, T *Y,
                    int64_t IncY) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Op O;
  if (!toOp(Tr, O) || M < 0 || N < 0 || Lda < atLeast1(M) || IncX == 0 ||
      IncY == 0 || !Alpha || !Beta)
    return C.invalid("transpose, size, lda, increment or scalar");
  if (M == 0 || N == 0)
    return Success;
  if (!C.fits({M, N, Lda, IncX, IncY}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    host::gemv(O, M, N, Al.get(), A, Lda, X, IncX, Be.get(), Y, IncY);
  });
}

template <typename T>
cublasStatus_t gbmv(const char *Name, cublasHandle_t H, cublasOperation_t Tr,
                    int64_t M, int64_t N, int64_t KL, int64_t KU,
                    const T *Alpha, const T *A, int64_t Lda, const T *X,
                    int64_t IncX, const T *Beta, T *Y, int64_t IncY) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Op O;
  if (!toOp(Tr, O) || M < 0 || N < 0 || KL < 0 || KU < 0 || Lda < KL + KU + 1 ||
      IncX == 0 || IncY == 0 || !Alpha || !Beta)
    return C.invalid("transpose, size, band, lda, increment or scalar");
  if (M == 0 || N == 0)
    return Success;
  if (!C.fits({M, N, KL, KU, Lda, IncX, IncY}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    host::gbmv(O, M, N, KL, KU, Al.get(), A, Lda, X, IncX, Be.get(), Y, IncY);
  });
}

template <typename T>
cublasStatus_t ger(const char *Name, cublasHandle_t H, int64_t M, int64_t N,
                   const T *Alpha, const T *X, int64_t IncX, const T *Y,
                   int64_t IncY, T *A, int64_t Lda, bool Conj) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (M < 0 || N < 0 || IncX == 0 || IncY == 0 || Lda < atLeast1(M) || !Alpha)
    return C.invalid("size, increment, lda or alpha");
  if (M == 0 || N == 0)
    return Success;
  if (!C.fits({M, N, Lda, IncX, IncY}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha);
  return C.run(
      [=] { host::ger(M, N, Al.get(), X, IncX, Y, IncY, A, Lda, Conj); });
}

/// What symv/hemv, sbmv/hbmv and spmv/hpmv have in common: y = alpha A x +
/// beta y for an N x N symmetric or Hermitian A with K off-diagonals (band
/// only), in full, band (Band) or packed (Lda < 0) storage.
enum class Storage { Full, Band, Packed };

template <typename T>
cublasStatus_t symmetricMv(const char *Name, cublasHandle_t H,
                           cublasFillMode_t Fill, int64_t N, int64_t K,
                           const T *Alpha, const T *A, int64_t Lda, const T *X,
                           int64_t IncX, const T *Beta, T *Y, int64_t IncY,
                           Storage St, bool Hermitian) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Uplo U;
  bool BadLda = (St == Storage::Full && Lda < atLeast1(N)) ||
                (St == Storage::Band && (K < 0 || Lda < K + 1));
  if (!toUplo(Fill, U) || N < 0 || BadLda || IncX == 0 || IncY == 0 || !Alpha ||
      !Beta)
    return C.invalid("fill mode, size, band, lda, increment or scalar");
  if (N == 0)
    return Success;
  if (!C.fits({N, K, Lda, IncX, IncY}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    if (St == Storage::Band)
      host::hbmv(U, N, K, Al.get(), A, Lda, X, IncX, Be.get(), Y, IncY);
    else if (St == Storage::Packed)
      host::hpmv(U, N, Al.get(), A, X, IncX, Be.get(), Y, IncY);
    else if (Hermitian)
      host::hemv(U, N, Al.get(), A, Lda, X, IncX, Be.get(), Y, IncY);
    else
      host::symv(U, N, Al.get(), A, Lda, X, IncX, Be.get(), Y, IncY);
  });
}

/// syr/her, syr2/her2, spr/hpr and spr2/hpr2: A += alpha x y^T (^H) (+ the
/// transpose for the rank-2 forms; Y null for rank 1), full or packed
/// (Lda < 0). S is T, or T's real type for her and hpr.
template <typename T, typename S>
cublasStatus_t rankUpdate(const char *Name, cublasHandle_t H,
                          cublasFillMode_t Fill, int64_t N, const S *Alpha,
                          const T *X, int64_t IncX, const T *Y, int64_t IncY,
                          T *A, int64_t Lda, bool Packed, bool Hermitian) {
  Call C(Name, H);
  if (cublasStatus_t St = C.start())
    return St;
  Uplo U;
  if (!toUplo(Fill, U) || N < 0 || IncX == 0 || (Y && IncY == 0) ||
      (!Packed && Lda < atLeast1(N)) || !Alpha)
    return C.invalid("fill mode, size, increment, lda or alpha");
  if (N == 0)
    return Success;
  if (!C.fits({N, Lda, IncX, IncY}))
    return TooLarge;
  Scalar<S> Al = C.scalar(Alpha);
  return C.run([=] {
    if constexpr (!std::is_same_v<S, T>) { // her, hpr
      if (Packed)
        host::hpr(U, N, Al.get(), X, IncX, A);
      else
        host::her(U, N, Al.get(), X, IncX, A, Lda);
    } else if (!Y) { // syr, spr
      if (Packed)
        host::hpr(U, N, Real<T>(std::real(Al.get())), X, IncX, A);
      else
        host::syr(U, N, Al.get(), X, IncX, A, Lda);
    } else if (Packed) { // spr2, hpr2
      host::hpr2(U, N, Al.get(), X, IncX, Y, IncY, A);
    } else if (Hermitian) {
      host::her2(U, N, Al.get(), X, IncX, Y, IncY, A, Lda);
    } else {
      host::syr2(U, N, Al.get(), X, IncX, Y, IncY, A, Lda);
    }
  });
}

/// trmv/trsv, tbmv/tbsv (K >= 0 off-diagonals) and tpmv/tpsv.
template <typename T>
cublasStatus_t triangularMv(const char *Name, cublasHandle_t H,
                            cublasFillMode_t Fill, cublasOperation_t Tr,
                            cublasDiagType_t Dg, int64_t N, int64_t K,
                            const T *A, int64_t Lda, T *X, int64_t IncX,
                            Storage St, bool Solve) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Uplo U;
  Op O;
  Diag D;
  bool BadLda = (St == Storage::Full && Lda < atLeast1(N)) ||
                (St == Storage::Band && (K < 0 || Lda < K + 1));
  if (!toUplo(Fill, U) || !toOp(Tr, O) || !toDiag(Dg, D) || N < 0 || BadLda ||
      IncX == 0)
    return C.invalid("fill mode, transpose, diagonal, size, lda or "
                     "increment");
  if (N == 0)
    return Success;
  if (!C.fits({N, K, Lda, IncX}))
    return TooLarge;
  return C.run([=] {
    if (St == Storage::Band)
      host::tbmv(U, O, D, N, K, A, Lda, X, IncX, Solve);
    else if (St == Storage::Packed)
      host::tpmv(U, O, D, N, A, X, IncX, Solve);
    else
      host::trmv(U, O, D, N, A, Lda, X, IncX, Solve);
  });
}

} // namespace api
} // namespace

// --- gemv, gbmv --------------------------------------------------------------

#define GEMV(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n,            \
      const T *alpha, const T *A, INT lda, const T *x, INT incx,               \
      const T *beta, T *y, INT incy) {                                         \
    return api::gemv(#NAME, handle, trans, m, n, E(alpha), E(A), lda, E(x),    \
                     incx, E(beta), E(y), incy);                               \
  }
CUHIP_EACH_CZ(GEMV, gemv, _v2)
#undef GEMV

#define GEMV_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(char trans, int m, int n, T alpha, const T *A,        \
                         int lda, const T *x, int incx, T beta, T *y,          \
                         int incy) {                                           \
    CUHIP_LEGACY_CALL(api::gemv(#NAME, legacyHandle(), legacyOp(trans), m, n,  \
                                E(&alpha), E(A), lda, E(x), incx, E(&beta),    \
                                E(y), incy));                                  \
  }
CUHIP_LEGACY_CZ(GEMV_LEGACY, gemv)
#undef GEMV_LEGACY

#define GBMV(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n, INT kl,    \
      INT ku, const T *alpha, const T *A, INT lda, const T *x, INT incx,       \
      const T *beta, T *y, INT incy) {                                         \
    return api::gbmv(#NAME, handle, trans, m, n, kl, ku, E(alpha), E(A), lda,  \
                     E(x), incx, E(beta), E(y), incy);                         \
  }
CUHIP_EACH_SDCZ(GBMV, gbmv, _v2)
#undef GBMV

#define GBMV_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(char trans, int m, int n, int kl, int ku, T alpha,    \
                         const T *A, int lda, const T *x, int incx, T beta,    \
                         T *y, int incy) {                                     \
    CUHIP_LEGACY_CALL(api::gbmv(#NAME, legacyHandle(), legacyOp(trans), m, n,  \
                                kl, ku, E(&alpha), E(A), lda, E(x), incx,      \
                                E(&beta), E(y), incy));                        \
  }
CUHIP_LEGACY_SDCZ(GBMV_LEGACY, gbmv)
#undef GBMV_LEGACY

// --- ger, geru, gerc ---------------------------------------------------------

#define GER(NAME, INT, T, CONJ)                                                \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, INT m, INT n,        \
                                   const T *alpha, const T *x, INT incx,       \
                                   const T *y, INT incy, T *A, INT lda) {      \
    return api::ger(#NAME, handle, m, n, E(alpha), E(x), incx, E(y), incy,     \
                    E(A), lda, CONJ);                                          \
  }
#define GER_ALL(NAME, T, CONJ)                                                 \
  GER(NAME##_v2, int, T, CONJ) GER(NAME##_v2_64, int64_t, T, CONJ)
GER_ALL(cublasSger, float, false)
GER_ALL(cublasDger, double, false)
GER_ALL(cublasCgeru, cuComplex, false)
GER_ALL(cublasCgerc, cuComplex, true)
GER_ALL(cublasZgeru, cuDoubleComplex, false)
GER_ALL(cublasZgerc, cuDoubleComplex, true)
#undef GER_ALL
#undef GER

#define GER_LEGACY(NAME, T, CONJ)                                              \
  CUHIP_EXPORT void NAME(int m, int n, T alpha, const T *x, int incx,          \
                         const T *y, int incy, T *A, int lda) {                \
    CUHIP_LEGACY_CALL(api::ger(#NAME, legacyHandle(), m, n, E(&alpha), E(x),   \
                               incx, E(y), incy, E(A), lda, CONJ));            \
  }
GER_LEGACY(cublasSger, float, false)
GER_LEGACY(cublasDger, double, false)
GER_LEGACY(cublasCgeru, cuComplex, false)
GER_LEGACY(cublasCgerc, cuComplex, true)
GER_LEGACY(cublasZgeru, cuDoubleComplex, false)
GER_LEGACY(cublasZgerc, cuDoubleComplex, true)
#undef GER_LEGACY

// --- symv/hemv, sbmv/hbmv, spmv/hpmv -----------------------------------------

#define SYMV(NAME, INT, T, HERM)                                               \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, const T *alpha,     \
      const T *A, INT lda, const T *x, INT incx, const T *beta, T *y,          \
      INT incy) {                                                              \
    return api::symmetricMv(#NAME, handle, uplo, n, 0, E(alpha), E(A), lda,    \
                            E(x), incx, E(beta), E(y), incy,                   \
                            api::Storage::Full, HERM);                         \
  }
#define SYMV_SYM(NAME, INT, T) SYMV(NAME, INT, T, false)
#define SYMV_HERM(NAME, INT, T) SYMV(NAME, INT, T, true)
CUHIP_EACH_SDCZ(SYMV_SYM, symv, _v2)
CUHIP_EACH_CZ(SYMV_HERM, hemv, _v2)
#undef SYMV_SYM
#undef SYMV_HERM
#undef SYMV

#define SYMV_LEGACY(NAME, T, HERM)                                             \
  CUHIP_EXPORT void NAME(char uplo, int n, T alpha, const T *A, int lda,       \
                         const T *x, int incx, T beta, T *y, int incy) {       \
    CUHIP_LEGACY_CALL(api::symmetricMv(                                        \
        #NAME, legacyHandle(), legacyUplo(uplo), n, 0, E(&alpha), E(A), lda,   \
        E(x), incx, E(&beta), E(y), incy, api::Storage::Full, HERM));          \
  }
SYMV_LEGACY(cublasSsymv, float, false)
SYMV_LEGACY(cublasDsymv, double, false)
SYMV_LEGACY(cublasChemv, cuComplex, true)
SYMV_LEGACY(cublasZhemv, cuDoubleComplex, true)
#undef SYMV_LEGACY

#define SBMV(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, INT k,              \
      const T *alpha, const T *A, INT lda, const T *x, INT incx,               \
      const T *beta, T *y, INT incy) {                                         \
    return api::symmetricMv(#NAME, handle, uplo, n, k, E(alpha), E(A), lda,    \
                            E(x), incx, E(beta), E(y), incy,                   \
                            api::Storage::Band, true);                         \
  }
CUHIP_EACH_SD(SBMV, sbmv, _v2)
CUHIP_EACH_CZ(SBMV, hbmv, _v2)
#undef SBMV

#define SBMV_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(char uplo, int n, int k, T alpha, const T *A,         \
                         int lda, const T *x, int incx, T beta, T *y,          \
                         int incy) {                                           \
    CUHIP_LEGACY_CALL(api::symmetricMv(                                        \
        #NAME, legacyHandle(), legacyUplo(uplo), n, k, E(&alpha), E(A), lda,   \
        E(x), incx, E(&beta), E(y), incy, api::Storage::Band, true));          \
  }
CUHIP_LEGACY_SD(SBMV_LEGACY, sbmv)
CUHIP_LEGACY_CZ(SBMV_LEGACY, hbmv)
#undef SBMV_LEGACY

#define SPMV(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, const T *alpha,     \
      const T *AP, const T *x, INT incx, const T *beta, T *y, INT incy) {      \
    return api::symmetricMv(#NAME, handle, uplo, n, 0, E(alpha), E(AP), -1,    \
                            E(x), incx, E(beta), E(y), incy,                   \
                            api::Storage::Packed, true);                       \
  }
CUHIP_EACH_SD(SPMV, spmv, _v2)
CUHIP_EACH_CZ(SPMV, hpmv, _v2)
#undef SPMV

#define SPMV_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(char uplo, int n, T alpha, const T *AP, const T *x,   \
                         int incx, T beta, T *y, int incy) {                   \
    CUHIP_LEGACY_CALL(api::symmetricMv(                                        \
        #NAME, legacyHandle(), legacyUplo(uplo), n, 0, E(&alpha), E(AP), -1,   \
        E(x), incx, E(&beta), E(y), incy, api::Storage::Packed, true));        \
  }
CUHIP_LEGACY_SD(SPMV_LEGACY, spmv)
CUHIP_LEGACY_CZ(SPMV_LEGACY, hpmv)
#undef SPMV_LEGACY

// --- syr/her, syr2/her2, spr/hpr, spr2/hpr2 ----------------------------------

#define SYR(NAME, INT, T, S)                                                   \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, const S *alpha,     \
      const T *x, INT incx, T *A, INT lda) {                                   \
    return api::rankUpdate(#NAME, handle, uplo, n, E(alpha), E(x), incx,       \
                           E(static_cast<const T *>(nullptr)), 0, E(A), lda,   \
                           false, false);                                      \
  }
#define SYR_SYM(NAME, INT, T) SYR(NAME, INT, T, T)
CUHIP_EACH_SDCZ(SYR_SYM, syr, _v2)
SYR(cublasCher_v2, int, cuComplex, float)
SYR(cublasCher_v2_64, int64_t, cuComplex, float)
SYR(cublasZher_v2, int, cuDoubleComplex, double)
SYR(cublasZher_v2_64, int64_t, cuDoubleComplex, double)
#undef SYR_SYM
#undef SYR

#define SYR_LEGACY(NAME, T, S)                                                 \
  CUHIP_EXPORT void NAME(char uplo, int n, S alpha, const T *x, int incx,      \
                         T *A, int lda) {                                      \
    CUHIP_LEGACY_CALL(api::rankUpdate(                                         \
        #NAME, legacyHandle(), legacyUplo(uplo), n, E(&alpha), E(x), incx,     \
        E(static_cast<const T *>(nullptr)), 0, E(A), lda, false, false));      \
  }
SYR_LEGACY(cublasSsyr, float, float)
SYR_LEGACY(cublasDsyr, double, double)
SYR_LEGACY(cublasCher, cuComplex, float)
SYR_LEGACY(cublasZher, cuDoubleComplex, double)
#undef SYR_LEGACY

#define SYR2(NAME, INT, T, HERM)                                               \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, const T *alpha,     \
      const T *x, INT incx, const T *y, INT incy, T *A, INT lda) {             \
    return api::rankUpdate(#NAME, handle, uplo, n, E(alpha), E(x), incx, E(y), \
                           incy, E(A), lda, false, HERM);                      \
  }
#define SYR2_SYM(NAME, INT, T) SYR2(NAME, INT, T, false)
#define SYR2_HERM(NAME, INT, T) SYR2(NAME, INT, T, true)
CUHIP_EACH_SDCZ(SYR2_SYM, syr2, _v2)
CUHIP_EACH_CZ(SYR2_HERM, her2, _v2)
#undef SYR2_SYM
#undef SYR2_HERM
#undef SYR2

#define SYR2_LEGACY(NAME, T, HERM)                                             \
  CUHIP_EXPORT void NAME(char uplo, int n, T alpha, const T *x, int incx,      \
                         const T *y, int incy, T *A, int lda) {                \
    CUHIP_LEGACY_CALL(api::rankUpdate(#NAME, legacyHandle(), legacyUplo(uplo), \
                                      n, E(&alpha), E(x), incx, E(y), incy,    \
                                      E(A), lda, false, HERM));                \
  }
SYR2_LEGACY(cublasSsyr2, float, false)
SYR2_LEGACY(cublasDsyr2, double, false)
SYR2_LEGACY(cublasCher2, cuComplex, true)
SYR2_LEGACY(cublasZher2, cuDoubleComplex, true)
#undef SYR2_LEGACY

#define SPR(NAME, INT, T, S)                                                   \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, const S *alpha,     \
      const T *x, INT incx, T *AP) {                                           \
    return api::rankUpdate(#NAME, handle, uplo, n, E(alpha), E(x), incx,       \
                           E(static_cast<const T *>(nullptr)), 0, E(AP), -1,   \
                           true, true);                                        \
  }
#define SPR_REAL(NAME, INT, T) SPR(NAME, INT, T, T)
CUHIP_EACH_SD(SPR_REAL, spr, _v2)
SPR(cublasChpr_v2, int, cuComplex, float)
SPR(cublasChpr_v2_64, int64_t, cuComplex, float)
SPR(cublasZhpr_v2, int, cuDoubleComplex, double)
SPR(cublasZhpr_v2_64, int64_t, cuDoubleComplex, double)
#undef SPR_REAL
#undef SPR

#define SPR_LEGACY(NAME, T, S)                                                 \
  CUHIP_EXPORT void NAME(char uplo, int n, S alpha, const T *x, int incx,      \
                         T *AP) {                                              \
    CUHIP_LEGACY_CALL(api::rankUpdate(                                         \
        #NAME, legacyHandle(), legacyUplo(uplo), n, E(&alpha), E(x), incx,     \
        E(static_cast<const T *>(nullptr)), 0, E(AP), -1, true, true));        \
  }
SPR_LEGACY(cublasSspr, float, float)
SPR_LEGACY(cublasDspr, double, double)
SPR_LEGACY(cublasChpr, cuComplex, float)
SPR_LEGACY(cublasZhpr, cuDoubleComplex, double)
#undef SPR_LEGACY

#define SPR2(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, INT n, const T *alpha,     \
      const T *x, INT incx, const T *y, INT incy, T *AP) {                     \
    return api::rankUpdate(#NAME, handle, uplo, n, E(alpha), E(x), incx, E(y), \
                           incy, E(AP), -1, true, true);                       \
  }
CUHIP_EACH_SD(SPR2, spr2, _v2)
CUHIP_EACH_CZ(SPR2, hpr2, _v2)
#undef SPR2

#define SPR2_LEGACY(NAME, T)                                                   \
  CUHIP_EXPORT void NAME(char uplo, int n, T alpha, const T *x, int incx,      \
                         const T *y, int incy, T *AP) {                        \
    CUHIP_LEGACY_CALL(api::rankUpdate(#NAME, legacyHandle(), legacyUplo(uplo), \
                                      n, E(&alpha), E(x), incx, E(y), incy,    \
                                      E(AP), -1, true, true));                 \
  }
CUHIP_LEGACY_SD(SPR2_LEGACY, spr2)
CUHIP_LEGACY_CZ(SPR2_LEGACY, hpr2)
#undef SPR2_LEGACY

// --- triangular products and solves ------------------------------------------

#define TRMV(NAME, INT, T, SOLVE)                                              \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,   \
      cublasDiagType_t diag, INT n, const T *A, INT lda, T *x, INT incx) {     \
    return api::triangularMv(#NAME, handle, uplo, trans, diag, n, 0, E(A),     \
                             lda, E(x), incx, api::Storage::Full, SOLVE);      \
  }
#define TRMV_MV(NAME, INT, T) TRMV(NAME, INT, T, false)
#define TRMV_SV(NAME, INT, T) TRMV(NAME, INT, T, true)
CUHIP_EACH_SDCZ(TRMV_MV, trmv, _v2)
CUHIP_EACH_SDCZ(TRMV_SV, trsv, _v2)
#undef TRMV_MV
#undef TRMV_SV
#undef TRMV

#define TBMV(NAME, INT, T, SOLVE)                                              \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,   \
      cublasDiagType_t diag, INT n, INT k, const T *A, INT lda, T *x,          \
      INT incx) {                                                              \
    return api::triangularMv(#NAME, handle, uplo, trans, diag, n, k, E(A),     \
                             lda, E(x), incx, api::Storage::Band, SOLVE);      \
  }
#define TBMV_MV(NAME, INT, T) TBMV(NAME, INT, T, false)
#define TBMV_SV(NAME, INT, T) TBMV(NAME, INT, T, true)
CUHIP_EACH_SDCZ(TBMV_MV, tbmv, _v2)
CUHIP_EACH_SDCZ(TBMV_SV, tbsv, _v2)
#undef TBMV_MV
#undef TBMV_SV
#undef TBMV

#define TPMV(NAME, INT, T, SOLVE)                                              \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,   \
      cublasDiagType_t diag, INT n, const T *AP, T *x, INT incx) {             \
    return api::triangularMv(#NAME, handle, uplo, trans, diag, n, 0, E(AP),    \
                             -1, E(x), incx, api::Storage::Packed, SOLVE);     \
  }
#define TPMV_MV(NAME, INT, T) TPMV(NAME, INT, T, false)
#define TPMV_SV(NAME, INT, T) TPMV(NAME, INT, T, true)
CUHIP_EACH_SDCZ(TPMV_MV, tpmv, _v2)
CUHIP_EACH_SDCZ(TPMV_SV, tpsv, _v2)
#undef TPMV_MV
#undef TPMV_SV
#undef TPMV

#define TRMV_LEGACY(NAME, T, SOLVE)                                            \
  CUHIP_EXPORT void NAME(char uplo, char trans, char diag, int n, const T *A,  \
                         int lda, T *x, int incx) {                            \
    CUHIP_LEGACY_CALL(                                                         \
        api::triangularMv(#NAME, legacyHandle(), legacyUplo(uplo),             \
                          legacyOp(trans), legacyDiag(diag), n, 0, E(A), lda,  \
                          E(x), incx, api::Storage::Full, SOLVE));             \
  }
#define TRMV_LEGACY_MV(NAME, T) TRMV_LEGACY(NAME, T, false)
#define TRMV_LEGACY_SV(NAME, T) TRMV_LEGACY(NAME, T, true)
CUHIP_LEGACY_SDCZ(TRMV_LEGACY_MV, trmv)
CUHIP_LEGACY_SDCZ(TRMV_LEGACY_SV, trsv)
#undef TRMV_LEGACY_MV
#undef TRMV_LEGACY_SV
#undef TRMV_LEGACY

#define TBMV_LEGACY(NAME, T, SOLVE)                                            \
  CUHIP_EXPORT void NAME(char uplo, char trans, char diag, int n, int k,       \
                         const T *A, int lda, T *x, int incx) {                \
    CUHIP_LEGACY_CALL(                                                         \
        api::triangularMv(#NAME, legacyHandle(), legacyUplo(uplo),             \
                          legacyOp(trans), legacyDiag(diag), n, k, E(A), lda,  \
                          E(x), incx, api::Storage::Band, SOLVE));             \
  }
#define TBMV_LEGACY_MV(NAME, T) TBMV_LEGACY(NAME, T, false)
#define TBMV_LEGACY_SV(NAME, T) TBMV_LEGACY(NAME, T, true)
CUHIP_LEGACY_SDCZ(TBMV_LEGACY_MV, tbmv)
CUHIP_LEGACY_SDCZ(TBMV_LEGACY_SV, tbsv)
#undef TBMV_LEGACY_MV
#undef TBMV_LEGACY_SV
#undef TBMV_LEGACY

#define TPMV_LEGACY(NAME, T, SOLVE)                                            \
  CUHIP_EXPORT void NAME(char uplo, char trans, char diag, int n, const T *AP, \
                         T *x, int incx) {                                     \
    CUHIP_LEGACY_CALL(                                                         \
        api::triangularMv(#NAME, legacyHandle(), legacyUplo(uplo),             \
                          legacyOp(trans), legacyDiag(diag), n, 0, E(AP), -1,  \
                          E(x), incx, api::Storage::Packed, SOLVE));           \
  }
#define TPMV_LEGACY_MV(NAME, T) TPMV_LEGACY(NAME, T, false)
#define TPMV_LEGACY_SV(NAME, T) TPMV_LEGACY(NAME, T, true)
CUHIP_LEGACY_SDCZ(TPMV_LEGACY_MV, tpmv)
CUHIP_LEGACY_SDCZ(TPMV_LEGACY_SV, tpsv)
#undef TPMV_LEGACY_MV
#undef TPMV_LEGACY_SV
#undef TPMV_LEGACY
