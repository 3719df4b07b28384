//===- Level3Calls.h - The checked level-3 calls, for cuBLAS and cuBLASXt -===//
//
// One template per level-3 family over the engine's element types: the
// argument checks of cuBLAS, then the engine routine on the handle's
// stream (BlasCall.h). Level3Api.cpp's exported S/D/C/Z functions and
// XtApi.cpp's cublasXt ones call them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "BlasCall.h"

#include <algorithm>

namespace cuhip::cublas::level3 {

namespace host = cuhip::blas::host;
using blas::Diag;
using blas::Op;
using blas::Side;
using blas::Uplo;
using host::IsComplex;
using host::Real;

inline constexpr cublasStatus_t Success = CUBLAS_STATUS_SUCCESS;
inline constexpr cublasStatus_t TooLarge = CUBLAS_STATUS_NOT_SUPPORTED;

inline int64_t atLeast1(int64_t V) { return std::max<int64_t>(1, V); }

/// The A, B and C of a GEMM batch: strided (elements) or pointer arrays.
template <typename T> struct Operands {
  const T *A = nullptr, *B = nullptr;
  T *C = nullptr;
  int64_t StrideA = 0, StrideB = 0, StrideC = 0;
  const T *const *AArray = nullptr, *const *BArray = nullptr;
  T *const *CArray = nullptr;

  const T *a(int64_t I) const { return AArray ? AArray[I] : A + I * StrideA; }
  const T *b(int64_t I) const { return BArray ? BArray[I] : B + I * StrideB; }
  T *c(int64_t I) const { return CArray ? CArray[I] : C + I * StrideC; }
};

template <typename T>
cublasStatus_t gemm(const char *Name, cublasHandle_t H, cublasOperation_t TA,
                    cublasOperation_t TB, int64_t M, int64_t N, int64_t K,
                    const T *Alpha, const Operands<T> &X, int64_t Lda,
                    int64_t Ldb, const T *Beta, int64_t Ldc, int64_t Batch) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Op OA, OB;
  if (!toOp(TA, OA) || !toOp(TB, OB) || M < 0 || N < 0 || K < 0 || Batch < 0)
    return C.invalid("transpose, size or batch count");
  if (Lda < atLeast1(OA == Op::N ? M : K) ||
      Ldb < atLeast1(OB == Op::N ? K : N) || Ldc < atLeast1(M))
    return C.invalid("leading dimension (lda >= rows of A as stored, ldb >= "
                     "rows of B, ldc >= m)");
  if (!Alpha || !Beta)
    return C.invalid("alpha or beta (null)");
  if (M == 0 || N == 0 || Batch == 0)
    return Success;
  if (!C.fits({M, N, K, Lda, Ldb, Ldc}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    T AlphaV = Al.get(), BetaV = Be.get();
    for (int64_t I = 0; I < Batch; ++I)
      host::gemm(OA, OB, M, N, K, AlphaV, X.a(I), Lda, X.b(I), Ldb, BetaV,
                 X.c(I), Ldc);
  });
}

template <typename T>
Operands<T> strided(const T *A, int64_t SA, const T *B, int64_t SB, T *C,
                    int64_t SC) {
  Operands<T> X;
  X.A = A;
  X.B = B;
  X.C = C;
  X.StrideA = SA;
  X.StrideB = SB;
  X.StrideC = SC;
  return X;
}

template <typename T>
Operands<T> arrays(const T *const *A, const T *const *B, T *const *C) {
  Operands<T> X;
  X.AArray = A;
  X.BArray = B;
  X.CArray = C;
  return X;
}

template <typename T>
cublasStatus_t gemmBatched(const char *Name, cublasHandle_t H,
                           cublasOperation_t TA, cublasOperation_t TB,
                           int64_t M, int64_t N, int64_t K, const T *Alpha,
                           const T *const *A, int64_t Lda, const T *const *B,
                           int64_t Ldb, const T *Beta, T *const *C, int64_t Ldc,
                           int64_t Batch) {
  if (isLive(H) && Batch > 0 && (!A || !B || !C))
    return Call(Name, H).invalid("pointer array (null)");
  return gemm(Name, H, TA, TB, M, N, K, Alpha, arrays(A, B, C), Lda, Ldb, Beta,
              Ldc, Batch);
}

/// symm (Hermitian false) and hemm.
template <typename T>
cublasStatus_t symm(const char *Name, cublasHandle_t H, cublasSideMode_t Sd,
                    cublasFillMode_t Fill, int64_t M, int64_t N, const T *Alpha,
                    const T *A, int64_t Lda, const T *B, int64_t Ldb,
                    const T *Beta, T *Cm, int64_t Ldc, bool Hermitian) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Side Si;
  Uplo U;
  if (!toSide(Sd, Si) || !toUplo(Fill, U) || M < 0 || N < 0 ||
      Lda < atLeast1(Si == Side::Left ? M : N) || Ldb < atLeast1(M) ||
      Ldc < atLeast1(M) || !Alpha || !Beta)
    return C.invalid("side, fill mode, size, leading dimension or scalar");
  if (M == 0 || N == 0)
    return Success;
  if (!C.fits({M, N, Lda, Ldb, Ldc}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    host::symm(Si, U, M, N, Al.get(), A, Lda, B, Ldb, Be.get(), Cm, Ldc,
               Hermitian);
  });
}

/// The rank-k family's common checks: which transposes the routine takes
/// (complex syrk: N and T; herk: N and C; real: all three), the sizes and
/// the leading dimensions (B's only when Ldb >= 0).
template <typename T>
cublasStatus_t rankKChecks(const Call &C, cublasFillMode_t Fill,
                           cublasOperation_t Tr, int64_t N, int64_t K,
                           int64_t Lda, int64_t Ldb, int64_t Ldc,
                           bool Hermitian, Uplo &U, Op &O) {
  if (!toUplo(Fill, U) || !toOp(Tr, O))
    return C.invalid("fill mode or transpose");
  if (IsComplex<T> && O == (Hermitian ? Op::T : Op::C))
    return C.invalid(Hermitian ? "transpose (the Hermitian forms take N or C)"
                               : "transpose (the symmetric forms take N or "
                                 "T)");
  int64_t Rows = atLeast1(O == Op::N ? N : K);
  if (N < 0 || K < 0 || Lda < Rows || (Ldb >= 0 && Ldb < Rows) ||
      Ldc < atLeast1(N))
    return C.invalid("size or leading dimension");
  return Success;
}

/// syrk (Hermitian false) and herk; S is T or, for herk, T's real type.
template <typename T, typename S>
cublasStatus_t syrk(const char *Name, cublasHandle_t H, cublasFillMode_t Fill,
                    cublasOperation_t Tr, int64_t N, int64_t K, const S *Alpha,
                    const T *A, int64_t Lda, const S *Beta, T *Cm, int64_t Ldc,
                    bool Hermitian) {
  Call C(Name, H);
  if (cublasStatus_t St = C.start())
    return St;
  Uplo U;
  Op O;
  if (cublasStatus_t St =
          rankKChecks<T>(C, Fill, Tr, N, K, Lda, -1, Ldc, Hermitian, U, O))
    return St;
  if (!Alpha || !Beta)
    return C.invalid("alpha or beta (null)");
  if (N == 0)
    return Success;
  if (!C.fits({N, K, Lda, Ldc}))
    return TooLarge;
  Scalar<S> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    if constexpr (std::is_same_v<S, T>)
      host::syrk(U, O, N, K, Al.get(), A, Lda, Be.get(), Cm, Ldc);
    else
      host::herk(U, O, N, K, Al.get(), A, Lda, Be.get(), Cm, Ldc);
  });
}

/// syr2k, her2k (Hermitian, S real), syrkx and herkx (Kx).
template <typename T, typename S>
cublasStatus_t syr2k(const char *Name, cublasHandle_t H, cublasFillMode_t Fill,
                     cublasOperation_t Tr, int64_t N, int64_t K, const T *Alpha,
                     const T *A, int64_t Lda, const T *B, int64_t Ldb,
                     const S *Beta, T *Cm, int64_t Ldc, bool Hermitian,
                     bool Kx) {
  Call C(Name, H);
  if (cublasStatus_t St = C.start())
    return St;
  Uplo U;
  Op O;
  if (cublasStatus_t St =
          rankKChecks<T>(C, Fill, Tr, N, K, Lda, Ldb, Ldc, Hermitian, U, O))
    return St;
  if (!Alpha || !Beta)
    return C.invalid("alpha or beta (null)");
  if (N == 0)
    return Success;
  if (!C.fits({N, K, Lda, Ldb, Ldc}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha);
  Scalar<S> Be = C.scalar(Beta);
  return C.run([=] {
    if (Kx)
      host::syrkx(U, O, N, K, Al.get(), A, Lda, B, Ldb, T(Be.get()), Cm, Ldc,
                  Hermitian);
    else if constexpr (std::is_same_v<S, T>)
      host::syr2k(U, O, N, K, Al.get(), A, Lda, B, Ldb, Be.get(), Cm, Ldc);
    else
      host::her2k(U, O, N, K, Al.get(), A, Lda, B, Ldb, Be.get(), Cm, Ldc);
  });
}

/// trmm (cuBLAS's out-of-place form; Solve false) and trsm (in place on B).
template <typename T>
cublasStatus_t
triangularMm(const char *Name, cublasHandle_t H, cublasSideMode_t Sd,
             cublasFillMode_t Fill, cublasOperation_t Tr, cublasDiagType_t Dg,
             int64_t M, int64_t N, const T *Alpha, const T *A, int64_t Lda,
             const T *B, int64_t Ldb, T *Cm, int64_t Ldc, bool Solve) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Side Si;
  Uplo U;
  Op O;
  Diag D;
  if (!toSide(Sd, Si) || !toUplo(Fill, U) || !toOp(Tr, O) || !toDiag(Dg, D))
    return C.invalid("side, fill mode, transpose or diagonal");
  if (M < 0 || N < 0 || Lda < atLeast1(Si == Side::Left ? M : N) ||
      Ldb < atLeast1(M) || (!Solve && Ldc < atLeast1(M)) || !Alpha)
    return C.invalid("size, leading dimension or alpha");
  if (!Solve && Cm == B && Ldc != Ldb)
    return C.invalid("ldc (in place, C == B needs ldc == ldb)");
  if (M == 0 || N == 0)
    return Success;
  if (!C.fits({M, N, Lda, Ldb, Ldc}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha);
  return C.run([=] {
    if (Solve)
      host::trsm(Si, U, O, D, M, N, Al.get(), A, Lda, const_cast<T *>(B), Ldb);
    else
      host::trmm(Si, U, O, D, M, N, Al.get(), A, Lda, B, Ldb, Cm, Ldc);
  });
}

template <typename T>
cublasStatus_t geam(const char *Name, cublasHandle_t H, cublasOperation_t TA,
                    cublasOperation_t TB, int64_t M, int64_t N, const T *Alpha,
                    const T *A, int64_t Lda, const T *Beta, const T *B,
                    int64_t Ldb, T *Cm, int64_t Ldc) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Op OA, OB;
  if (!toOp(TA, OA) || !toOp(TB, OB) || M < 0 || N < 0 ||
      Lda < atLeast1(OA == Op::N ? M : N) ||
      Ldb < atLeast1(OB == Op::N ? M : N) || Ldc < atLeast1(M) || !Alpha ||
      !Beta)
    return C.invalid("transpose, size, leading dimension or scalar");
  // In place only where each element is read before it is written.
  if ((Cm == A && (OA != Op::N || Lda != Ldc)) ||
      (Cm == B && (OB != Op::N || Ldb != Ldc)))
    return C.invalid("in-place operand (C may be A or B only untransposed "
                     "with the same leading dimension)");
  if (M == 0 || N == 0)
    return Success;
  if (!C.fits({M, N, Lda, Ldb, Ldc}))
    return TooLarge;
  Scalar<T> Al = C.scalar(Alpha), Be = C.scalar(Beta);
  return C.run([=] {
    host::geam(OA, OB, M, N, Al.get(), A, Lda, Be.get(), B, Ldb, Cm, Ldc);
  });
}

template <typename T>
cublasStatus_t dgmm(const char *Name, cublasHandle_t H, cublasSideMode_t Sd,
                    int64_t M, int64_t N, const T *A, int64_t Lda, const T *X,
                    int64_t IncX, T *Cm, int64_t Ldc) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Side Si;
  if (!toSide(Sd, Si) || M < 0 || N < 0 || Lda < atLeast1(M) ||
      Ldc < atLeast1(M) || (Cm == A && Lda != Ldc))
    return C.invalid("side, size or leading dimension");
  if (M == 0 || N == 0)
    return Success;
  return C.run([=] { host::dgmm(Si, M, N, A, Lda, X, IncX, Cm, Ldc); });
}

/// tpttr (ToFull) and trttp.
template <typename T>
cublasStatus_t packTriangle(const char *Name, cublasHandle_t H,
                            cublasFillMode_t Fill, int64_t N, const T *From,
                            T *To, int64_t Lda, bool ToFull) {
  Call C(Name, H);
  if (cublasStatus_t S = C.start())
    return S;
  Uplo U;
  if (!toUplo(Fill, U) || N < 0 || Lda < atLeast1(N))
    return C.invalid("fill mode, size or lda");
  if (N == 0)
    return Success;
  return C.run([=] {
    if (ToFull)
      host::tpttr(U, N, From, To, Lda);
    else
      host::trttp(U, N, From, Lda, To);
  });
}

} // namespace cuhip::cublas::level3
