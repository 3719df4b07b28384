//===- BatchedApi.cpp - cuBLAS's batched factorizations, trsm and gemv ---===//
//
// getrfBatched, getrsBatched, getriBatched, matinvBatched, geqrfBatched and
// gelsBatched (LAPACK's factorizations, one matrix at a time, in the
// engine's Lapack.cpp), trsmBatched, gemvBatched and gemvStridedBatched for
// S/D/C/Z, and the mixed-precision gemv batches (HSH, HSS, TST, TSS: f16 or
// bf16 inputs computed in f32). The batch runs as one host job on the
// handle's stream, so the pointer arrays are read when it runs.
//
// Errors follow cuBLAS: getrs, geqrf and gels report an invalid argument
// in the host integer *info as -(its position), with
// CUBLAS_STATUS_INVALID_VALUE; getrf, getri and matinv report the others
// that way directly. Per-matrix results (a singular U, a rank-deficient R)
// go to the device info arrays.
//
//===----------------------------------------------------------------------===//
#include "BlasCall.h"

#include <algorithm>
#include <vector>

using namespace cuhip;
using namespace cuhip::cublas;
namespace host = cuhip::blas::host;
using blas::Diag;
using blas::DType;
using blas::Op;
using blas::Side;
using blas::Uplo;

namespace {
namespace api {

constexpr cublasStatus_t Success = CUBLAS_STATUS_SUCCESS;
constexpr cublasStatus_t TooLarge = CUBLAS_STATUS_NOT_SUPPORTED;

int64_t atLeast1(int64_t V) { return std::max<int64_t>(1, V); }

/// *Info = -Position and INVALID_VALUE when Bad (for the routines that
/// report their arguments in a host integer).
bool refuseArg(const Call &C, int *Info, bool Bad, int Position,
               cublasStatus_t &Out) {
  if (!Bad)
    return false;
  *Info = -Position;
  Out = C.invalid("argument (its position is in *info)");
  return true;
}

template <typename T>
cublasStatus_t getrf(const char *Name, cublasHandle_t H, int64_t N, T *const *A,
                     int64_t Lda, int *Piv, int *Info, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (N < 0 || Lda < atLeast1(N) || Batch < 0 || (Batch > 0 && (!A || !Info)))
    return C.invalid("size, lda, batch count or array");
  if (Batch == 0)
    return Success;
  if (!C.fits({N, Lda}))
    return TooLarge;
  return C.run([=] {
    for (int64_t I = 0; I < Batch; ++I)
      host::getrf(N, A[I], Lda, Piv ? Piv + I * N : nullptr, Info + I);
  });
}

template <typename T>
cublasStatus_t getrs(const char *Name, cublasHandle_t H, cublasOperation_t Tr,
                     int64_t N, int64_t Nrhs, const T *const *A, int64_t Lda,
                     const int *Piv, T *const *B, int64_t Ldb, int *Info,
                     int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Info)
    return C.invalid("info (null)");
  Op O;
  cublasStatus_t Out;
  if (refuseArg(C, Info, !toOp(Tr, O), 2, Out) ||
      refuseArg(C, Info, N < 0, 3, Out) ||
      refuseArg(C, Info, Nrhs < 0, 4, Out) ||
      refuseArg(C, Info, Lda < atLeast1(N), 6, Out) ||
      refuseArg(C, Info, Ldb < atLeast1(N), 9, Out) ||
      refuseArg(C, Info, Batch < 0, 11, Out))
    return Out;
  *Info = 0;
  if (N == 0 || Nrhs == 0 || Batch == 0)
    return Success;
  if (!C.fits({N, Nrhs, Lda, Ldb}))
    return TooLarge;
  return C.run([=] {
    for (int64_t I = 0; I < Batch; ++I)
      host::getrs(O, N, Nrhs, A[I], Lda, Piv ? Piv + I * N : nullptr, B[I],
                  Ldb);
  });
}

template <typename T>
cublasStatus_t getri(const char *Name, cublasHandle_t H, int64_t N,
                     const T *const *A, int64_t Lda, const int *Piv,
                     T *const *Cm, int64_t Ldc, int *Info, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (N < 0 || Lda < atLeast1(N) || Ldc < atLeast1(N) || Batch < 0 ||
      (Batch > 0 && !Info))
    return C.invalid("size, leading dimension, batch count or info");
  if (Batch == 0)
    return Success;
  if (!C.fits({N, Lda, Ldc}))
    return TooLarge;
  return C.run([=] {
    for (int64_t I = 0; I < Batch; ++I)
      host::getri(N, A[I], Lda, Piv ? Piv + I * N : nullptr, Cm[I], Ldc,
                  Info + I);
  });
}

template <typename T>
cublasStatus_t matinv(const char *Name, cublasHandle_t H, int64_t N,
                      const T *const *A, int64_t Lda, T *const *Inv,
                      int64_t LdInv, int *Info, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  // cuBLAS's matinvBatched is for small matrices: n <= 32.
  if (N < 0 || N > 32 || Lda < atLeast1(N) || LdInv < atLeast1(N) ||
      Batch < 0 || (Batch > 0 && !Info))
    return C.invalid("size (at most 32), leading dimension, batch count or "
                     "info");
  if (Batch == 0)
    return Success;
  return C.run([=] {
    std::vector<int> Piv(N);
    for (int64_t I = 0; I < Batch; ++I) {
      for (int64_t J = 0; J < N; ++J)
        std::copy(A[I] + J * Lda, A[I] + J * Lda + N, Inv[I] + J * LdInv);
      host::getrf(N, Inv[I], LdInv, Piv.data(), Info + I);
      if (Info[I] == 0)
        host::getri(N, Inv[I], LdInv, Piv.data(), Inv[I], LdInv, Info + I);
    }
  });
}

template <typename T>
cublasStatus_t geqrf(const char *Name, cublasHandle_t H, int64_t M, int64_t N,
                     T *const *A, int64_t Lda, T *const *Tau, int *Info,
                     int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Info)
    return C.invalid("info (null)");
  cublasStatus_t Out;
  if (refuseArg(C, Info, M < 0, 2, Out) || refuseArg(C, Info, N < 0, 3, Out) ||
      refuseArg(C, Info, Lda < atLeast1(M), 5, Out) ||
      refuseArg(C, Info, Batch < 0, 8, Out))
    return Out;
  *Info = 0;
  if (M == 0 || N == 0 || Batch == 0)
    return Success;
  if (!C.fits({M, N, Lda}))
    return TooLarge;
  return C.run([=] {
    for (int64_t I = 0; I < Batch; ++I)
      host::geqrf(M, N, A[I], Lda, Tau[I]);
  });
}

template <typename T>
cublasStatus_t gels(const char *Name, cublasHandle_t H, cublasOperation_t Tr,
                    int64_t M, int64_t N, int64_t Nrhs, T *const *A,
                    int64_t Lda, T *const *Cm, int64_t Ldc, int *Info,
                    int *DevInfo, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  if (!Info)
    return C.invalid("info (null)");
  Op O;
  cublasStatus_t Out;
  if (refuseArg(C, Info, !toOp(Tr, O), 2, Out) ||
      refuseArg(C, Info, M < 0, 3, Out) || refuseArg(C, Info, N < 0, 4, Out) ||
      refuseArg(C, Info, Nrhs < 0, 5, Out) ||
      refuseArg(C, Info, Lda < atLeast1(M), 7, Out) ||
      refuseArg(C, Info, Ldc < atLeast1(M), 9, Out) ||
      refuseArg(C, Info, Batch < 0, 12, Out))
    return Out;
  *Info = 0;
  if (O != Op::N || M < N)
    return C.unsupported("gelsBatched solves only untransposed, "
                         "overdetermined (m >= n) systems, as cuBLAS's");
  if (Batch == 0)
    return Success;
  if (!C.fits({M, N, Nrhs, Lda, Ldc}))
    return TooLarge;
  return C.run([=] {
    for (int64_t I = 0; I < Batch; ++I) {
      int Result = 0;
      host::gels(M, N, Nrhs, A[I], Lda, Cm[I], Ldc, &Result);
      if (DevInfo)
        DevInfo[I] = Result;
    }
  });
}

template <typename T>
cublasStatus_t
trsmBatched(const char *Name, cublasHandle_t H, cublasSideMode_t Sd,
            cublasFillMode_t Fill, cublasOperation_t Tr, cublasDiagType_t Dg,
            int64_t M, int64_t N, const T *Alpha, const T *const *A,
            int64_t Lda, T *const *B, int64_t Ldb, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Side Si;
  Uplo U;
  Op O;
  Diag D;
  if (!toSide(Sd, Si) || !toUplo(Fill, U) || !toOp(Tr, O) || !toDiag(Dg, D) ||
      M < 0 || N < 0 || Batch < 0 || Lda < atLeast1(Si == Side::Left ? M : N) ||
      Ldb < atLeast1(M) || !Alpha)
    return C.invalid("side, fill mode, transpose, diagonal, size, leading "
                     "dimension, batch count or alpha");
  if (M == 0 || N == 0 || Batch == 0)
    return Success;
  if (!C.fits({M, N, Lda, Ldb}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha);
  return C.run([=] {
    T AlphaV = Al.get();
    for (int64_t I = 0; I < Batch; ++I)
      host::trsm(Si, U, O, D, M, N, AlphaV, A[I], Lda, B[I], Ldb);
  });
}

/// The matrices and vectors of a gemv batch: arrays of pointers, or a base
/// and a stride (elements) each.
template <typename TA, typename TY> struct GemvBatch {
  const TA *const *AArray = nullptr, *const *XArray = nullptr;
  TY *const *YArray = nullptr;
  const TA *A = nullptr, *X = nullptr;
  TY *Y = nullptr;
  int64_t StrideA = 0, StrideX = 0, StrideY = 0;

  const TA *a(int64_t I) const { return AArray ? AArray[I] : A + I * StrideA; }
  const TA *x(int64_t I) const { return XArray ? XArray[I] : X + I * StrideX; }
  TY *y(int64_t I) const { return YArray ? YArray[I] : Y + I * StrideY; }
};

/// The checks of a gemv batch; Op in O.
template <typename S>
cublasStatus_t gemvChecks(const Call &C, cublasOperation_t Tr, int64_t M,
                          int64_t N, const S *Alpha, int64_t Lda, int64_t IncX,
                          const S *Beta, int64_t IncY, int64_t Batch, Op &O) {
  if (!toOp(Tr, O) || M < 0 || N < 0 || Lda < atLeast1(M) || IncX == 0 ||
      IncY == 0 || Batch < 0 || !Alpha || !Beta)
    return C.invalid("transpose, size, lda, increment, batch count or "
                     "scalar");
  return Success;
}

template <typename T>
cublasStatus_t
gemvBatched(const char *Name, cublasHandle_t H, cublasOperation_t Tr, int64_t M,
            int64_t N, const T *Alpha, const GemvBatch<T, T> &Bt, int64_t Lda,
            int64_t IncX, const T *Beta, int64_t IncY, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Op O;
  if (cublasStatus_t S =
          gemvChecks(C, Tr, M, N, Alpha, Lda, IncX, Beta, IncY, Batch, O))
    return S;
  if (M == 0 || N == 0 || Batch == 0)
    return Success;
  if (!C.fits({M, N, Lda, IncX, IncY}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    T AlphaV = Al.get(), BetaV = Be.get();
    for (int64_t I = 0; I < Batch; ++I)
      host::gemv(O, M, N, AlphaV, Bt.a(I), Lda, Bt.x(I), IncX, BetaV, Bt.y(I),
                 IncY);
  });
}

/// HSH/HSS/TST/TSS: 16-bit A and x of AT, y of YT, f32 scalars.
template <typename AT, typename YT>
cublasStatus_t gemvMixedBatched(const char *Name, cublasHandle_t H,
                                cublasOperation_t Tr, int64_t M, int64_t N,
                                const float *Alpha, const GemvBatch<AT, YT> &Bt,
                                int64_t Lda, int64_t IncX, const float *Beta,
                                int64_t IncY, int64_t Batch, DType AType,
                                DType YType) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Op O;
  if (cublasStatus_t S =
          gemvChecks(C, Tr, M, N, Alpha, Lda, IncX, Beta, IncY, Batch, O))
    return S;
  if (M == 0 || N == 0 || Batch == 0)
    return Success;
  Scalar<float> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    float AlphaV = Al.get(), BetaV = Be.get();
    for (int64_t I = 0; I < Batch; ++I)
      host::gemvMixed(O, M, N, AlphaV, AType, Bt.a(I), Lda, Bt.x(I), IncX,
                      BetaV, YType, Bt.y(I), IncY);
  });
}

template <typename TA, typename TY>
GemvBatch<TA, TY> arrays(const TA *const *A, const TA *const *X, TY *const *Y) {
  GemvBatch<TA, TY> B;
  B.AArray = A;
  B.XArray = X;
  B.YArray = Y;
  return B;
}

template <typename TA, typename TY>
GemvBatch<TA, TY> strided(const TA *A, int64_t SA, const TA *X, int64_t SX,
                          TY *Y, int64_t SY) {
  GemvBatch<TA, TY> B;
  B.A = A;
  B.X = X;
  B.Y = Y;
  B.StrideA = SA;
  B.StrideX = SX;
  B.StrideY = SY;
  return B;
}

} // namespace api
} // namespace

// --- LU, QR, least squares ---------------------------------------------------

#define GETRF(NAME, INT, T)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(cublasHandle_t handle, int n, T *const A[], \
                                   int lda, int *P, int *info,                 \
                                   int batchSize) {                            \
    return api::getrf(#NAME, handle, n, E(A), lda, P, info, batchSize);        \
  }
#define GETRS(NAME, INT, T)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,         \
      const T *const Aarray[], int lda, const int *devIpiv, T *const Barray[], \
      int ldb, int *info, int batchSize) {                                     \
    return api::getrs(#NAME, handle, trans, n, nrhs, E(Aarray), lda, devIpiv,  \
                      E(Barray), ldb, info, batchSize);                        \
  }
#define GETRI(NAME, INT, T)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, int n, const T *const A[], int lda, const int *P, \
      T *const C[], int ldc, int *info, int batchSize) {                       \
    return api::getri(#NAME, handle, n, E(A), lda, P, E(C), ldc, info,         \
                      batchSize);                                              \
  }
#define MATINV(NAME, INT, T)                                                   \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, int n, const T *const A[], int lda,               \
      T *const Ainv[], int lda_inv, int *info, int batchSize) {                \
    return api::matinv(#NAME, handle, n, E(A), lda, E(Ainv), lda_inv, info,    \
                       batchSize);                                             \
  }
#define GEQRF(NAME, INT, T)                                                    \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, int m, int n, T *const Aarray[], int lda,         \
      T *const TauArray[], int *info, int batchSize) {                         \
    return api::geqrf(#NAME, handle, m, n, E(Aarray), lda, E(TauArray), info,  \
                      batchSize);                                              \
  }
#define GELS(NAME, INT, T)                                                     \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs,  \
      T *const Aarray[], int lda, T *const Carray[], int ldc, int *info,       \
      int *devInfoArray, int batchSize) {                                      \
    return api::gels(#NAME, handle, trans, m, n, nrhs, E(Aarray), lda,         \
                     E(Carray), ldc, info, devInfoArray, batchSize);           \
  }
// These have no _64 forms: CUHIP_LEGACY_SDCZ names S/D/C/Z once each.
#define GETRF_ONE(NAME, T) GETRF(NAME, int, T)
#define GETRS_ONE(NAME, T) GETRS(NAME, int, T)
#define GETRI_ONE(NAME, T) GETRI(NAME, int, T)
#define MATINV_ONE(NAME, T) MATINV(NAME, int, T)
#define GEQRF_ONE(NAME, T) GEQRF(NAME, int, T)
#define GELS_ONE(NAME, T) GELS(NAME, int, T)
CUHIP_LEGACY_SDCZ(GETRF_ONE, getrfBatched)
CUHIP_LEGACY_SDCZ(GETRS_ONE, getrsBatched)
CUHIP_LEGACY_SDCZ(GETRI_ONE, getriBatched)
CUHIP_LEGACY_SDCZ(MATINV_ONE, matinvBatched)
CUHIP_LEGACY_SDCZ(GEQRF_ONE, geqrfBatched)
CUHIP_LEGACY_SDCZ(GELS_ONE, gelsBatched)
#undef GETRF_ONE
#undef GETRS_ONE
#undef GETRI_ONE
#undef MATINV_ONE
#undef GEQRF_ONE
#undef GELS_ONE
#undef GETRF
#undef GETRS
#undef GETRI
#undef MATINV
#undef GEQRF
#undef GELS

// --- trsm and gemv batches ---------------------------------------------------

#define TRSM_BATCHED(NAME, INT, T)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,     \
      cublasOperation_t trans, cublasDiagType_t diag, INT m, INT n,            \
      const T *alpha, const T *const A[], INT lda, T *const B[], INT ldb,      \
      INT batchCount) {                                                        \
    return api::trsmBatched(#NAME, handle, side, uplo, trans, diag, m, n,      \
                            E(alpha), E(A), lda, E(B), ldb, batchCount);       \
  }
CUHIP_EACH_SDCZ(TRSM_BATCHED, trsmBatched, )
#undef TRSM_BATCHED

#define GEMV_BATCHED(NAME, INT, T)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n,            \
      const T *alpha, const T *const Aarray[], INT lda,                        \
      const T *const xarray[], INT incx, const T *beta, T *const yarray[],     \
      INT incy, INT batchCount) {                                              \
    return api::gemvBatched(#NAME, handle, trans, m, n, E(alpha),              \
                            api::arrays(E(Aarray), E(xarray), E(yarray)), lda, \
                            incx, E(beta), incy, batchCount);                  \
  }
CUHIP_EACH_SDCZ(GEMV_BATCHED, gemvBatched, )
#undef GEMV_BATCHED

#define GEMV_STRIDED(NAME, INT, T)                                             \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n,            \
      const T *alpha, const T *A, INT lda, long long int strideA, const T *x,  \
      INT incx, long long int stridex, const T *beta, T *y, INT incy,          \
      long long int stridey, INT batchCount) {                                 \
    return api::gemvBatched(                                                   \
        #NAME, handle, trans, m, n, E(alpha),                                  \
        api::strided(E(A), strideA, E(x), stridex, E(y), stridey), lda, incx,  \
        E(beta), incy, batchCount);                                            \
  }
CUHIP_EACH_SDCZ(GEMV_STRIDED, gemvStridedBatched, )
#undef GEMV_STRIDED

// The mixed forms: H is f16, T is bf16, S is f32 (inputs, compute, output).
#define GEMV_MIXED_BATCHED(NAME, INT, TA, TY, DA, DY)                          \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n,            \
      const float *alpha, const TA *const Aarray[], INT lda,                   \
      const TA *const xarray[], INT incx, const float *beta,                   \
      TY *const yarray[], INT incy, INT batchCount) {                          \
    return api::gemvMixedBatched(#NAME, handle, trans, m, n, alpha,            \
                                 api::arrays(Aarray, xarray, yarray), lda,     \
                                 incx, beta, incy, batchCount, DA, DY);        \
  }
#define GEMV_MIXED_STRIDED(NAME, INT, TA, TY, DA, DY)                          \
  CUHIP_EXPORT cublasStatus_t NAME(                                            \
      cublasHandle_t handle, cublasOperation_t trans, INT m, INT n,            \
      const float *alpha, const TA *A, INT lda, long long int strideA,         \
      const TA *x, INT incx, long long int stridex, const float *beta, TY *y,  \
      INT incy, long long int stridey, INT batchCount) {                       \
    return api::gemvMixedBatched(                                              \
        #NAME, handle, trans, m, n, alpha,                                     \
        api::strided(A, strideA, x, stridex, y, stridey), lda, incx, beta,     \
        incy, batchCount, DA, DY);                                             \
  }
#define GEMV_MIXED(PREFIX, TA, TY, DA, DY)                                     \
  GEMV_MIXED_BATCHED(cublas##PREFIX##gemvBatched, int, TA, TY, DA, DY)         \
  GEMV_MIXED_BATCHED(cublas##PREFIX##gemvBatched_64, int64_t, TA, TY, DA, DY)  \
  GEMV_MIXED_STRIDED(cublas##PREFIX##gemvStridedBatched, int, TA, TY, DA, DY)  \
  GEMV_MIXED_STRIDED(cublas##PREFIX##gemvStridedBatched_64, int64_t, TA, TY,   \
                     DA, DY)
GEMV_MIXED(HSH, __half, __half, DType::F16, DType::F16)
GEMV_MIXED(HSS, __half, float, DType::F16, DType::F32)
GEMV_MIXED(TST, __nv_bfloat16, __nv_bfloat16, DType::BF16, DType::BF16)
GEMV_MIXED(TSS, __nv_bfloat16, float, DType::BF16, DType::F32)
#undef GEMV_MIXED
#undef GEMV_MIXED_BATCHED
#undef GEMV_MIXED_STRIDED
