//===- Lapack.cpp - The batched routines' factorizations on the host -----===//
//
// One matrix of cuBLAS's getrf/getrs/getri/matinv/geqrf/gels batches. The
// factorizations are LAPACK's, from the OpenBLAS library the engine links
// (it carries LAPACK's Fortran entry points; there is no LAPACKE here, so
// they are declared below from LAPACK's documented interface). cuBLAS adds
// LU without pivoting (a null pivot array), which LAPACK lacks: that one is
// a plain right-looking elimination, as are the solves with its factors.
//
//===----------------------------------------------------------------------===//
#include "Blas.h"

#include <cblas.h>

#include <algorithm>
#include <utility>
#include <vector>

// LAPACK's Fortran interface: every argument by address; a character
// argument is followed, after the others, by its length.
extern "C" {
#define LAPACK_DECLS(P, T)                                                     \
  void P##getrf_(const int *M, const int *N, T *A, const int *Lda, int *Piv,   \
                 int *Info);                                                   \
  void P##getri_(const int *N, T *A, const int *Lda, const int *Piv, T *Work,  \
                 const int *LWork, int *Info);                                 \
  void P##geqrf_(const int *M, const int *N, T *A, const int *Lda, T *Tau,     \
                 T *Work, const int *LWork, int *Info);                        \
  void P##gels_(const char *Trans, const int *M, const int *N,                 \
                const int *Nrhs, T *A, const int *Lda, T *B, const int *Ldb,   \
                T *Work, const int *LWork, int *Info, size_t TransLen);
LAPACK_DECLS(s, float)
LAPACK_DECLS(d, double)
LAPACK_DECLS(c, std::complex<float>)
LAPACK_DECLS(z, std::complex<double>)
#undef LAPACK_DECLS
}

namespace cuhip::blas::host {

namespace {

using C32 = std::complex<float>;
using C64 = std::complex<double>;

/// Calls LAPACK's s, d, c or z form of NAME, whichever T is.
#define LAPACK4(NAME, ...)                                                     \
  do {                                                                         \
    if constexpr (std::is_same_v<T, float>)                                    \
      s##NAME##_(__VA_ARGS__);                                                 \
    else if constexpr (std::is_same_v<T, double>)                              \
      d##NAME##_(__VA_ARGS__);                                                 \
    else if constexpr (std::is_same_v<T, C32>)                                 \
      c##NAME##_(__VA_ARGS__);                                                 \
    else                                                                       \
      z##NAME##_(__VA_ARGS__);                                                 \
  } while (0)

/// The optimal LWork a workspace query (LWork -1) wrote into Work[0].
template <typename T> int workSize(const T &W) {
  return std::max(1, static_cast<int>(std::real(W)));
}

/// Applies getrf's row interchanges to the N x Nrhs matrix B, first to
/// last (Forward) or last to first.
template <typename T>
void swapRows(int64_t N, int64_t Nrhs, const int *Piv, T *B, int64_t Ldb,
              bool Forward) {
  for (int64_t K = 0; K < N; ++K) {
    int64_t I = Forward ? K : N - 1 - K;
    int64_t P = Piv[I] - 1;
    if (P != I)
      for (int64_t J = 0; J < Nrhs; ++J)
        std::swap(B[J * Ldb + I], B[J * Ldb + P]);
  }
}

} // namespace

template <typename T>
void getrf(int64_t N, T *A, int64_t Lda, int *Piv, int *Info) {
  *Info = 0;
  if (N <= 0)
    return;
  if (Piv) {
    int Ni = static_cast<int>(N), Ld = static_cast<int>(Lda);
    LAPACK4(getrf, &Ni, &Ni, A, &Ld, Piv, Info);
    return;
  }
  // No pivoting: as LAPACK's unblocked LU, a zero pivot is reported and
  // its column left unscaled, and the elimination goes on.
  for (int64_t K = 0; K < N; ++K) {
    T Pivot = A[K * Lda + K];
    if (Pivot == T(0)) {
      if (*Info == 0)
        *Info = static_cast<int>(K + 1);
    } else {
      for (int64_t I = K + 1; I < N; ++I)
        A[K * Lda + I] /= Pivot;
    }
    for (int64_t J = K + 1; J < N; ++J) {
      T Akj = A[J * Lda + K];
      if (Akj == T(0))
        continue;
      for (int64_t I = K + 1; I < N; ++I)
        A[J * Lda + I] -= A[K * Lda + I] * Akj;
    }
  }
}

template <typename T>
void getrs(Op Trans, int64_t N, int64_t Nrhs, const T *A, int64_t Lda,
           const int *Piv, T *B, int64_t Ldb) {
  if (N <= 0 || Nrhs <= 0)
    return;
  T One(1);
  if (Trans == Op::N) {
    if (Piv)
      swapRows(N, Nrhs, Piv, B, Ldb, true);
    trsm(Side::Left, Uplo::Lower, Op::N, Diag::Unit, N, Nrhs, One, A, Lda, B,
         Ldb);
    trsm(Side::Left, Uplo::Upper, Op::N, Diag::NonUnit, N, Nrhs, One, A, Lda, B,
         Ldb);
  } else {
    trsm(Side::Left, Uplo::Upper, Trans, Diag::NonUnit, N, Nrhs, One, A, Lda, B,
         Ldb);
    trsm(Side::Left, Uplo::Lower, Trans, Diag::Unit, N, Nrhs, One, A, Lda, B,
         Ldb);
    if (Piv)
      swapRows(N, Nrhs, Piv, B, Ldb, false);
  }
}

template <typename T>
void getri(int64_t N, const T *A, int64_t Lda, const int *Piv, T *C,
           int64_t Ldc, int *Info) {
  *Info = 0;
  if (N <= 0)
    return;
  for (int64_t J = 0; J < N; ++J)
    std::copy(A + J * Lda, A + J * Lda + N, C + J * Ldc);
  std::vector<int> Identity;
  if (!Piv) {
    Identity.resize(N);
    for (int64_t I = 0; I < N; ++I)
      Identity[I] = static_cast<int>(I + 1);
    Piv = Identity.data();
  }
  int Ni = static_cast<int>(N), Ld = static_cast<int>(Ldc), Query = -1;
  T W;
  LAPACK4(getri, &Ni, C, &Ld, Piv, &W, &Query, Info);
  int LWork = workSize(W);
  std::vector<T> Work(LWork);
  LAPACK4(getri, &Ni, C, &Ld, Piv, Work.data(), &LWork, Info);
}

template <typename T>
void geqrf(int64_t M, int64_t N, T *A, int64_t Lda, T *Tau) {
  if (M <= 0 || N <= 0)
    return;
  int Mi = static_cast<int>(M), Ni = static_cast<int>(N),
      Ld = static_cast<int>(Lda), Query = -1, Info = 0;
  T W;
  LAPACK4(geqrf, &Mi, &Ni, A, &Ld, Tau, &W, &Query, &Info);
  int LWork = workSize(W);
  std::vector<T> Work(LWork);
  LAPACK4(geqrf, &Mi, &Ni, A, &Ld, Tau, Work.data(), &LWork, &Info);
}

template <typename T>
void gels(int64_t M, int64_t N, int64_t Nrhs, T *A, int64_t Lda, T *C,
          int64_t Ldc, int *Info) {
  *Info = 0;
  if (M <= 0 || N <= 0 || Nrhs <= 0)
    return;
  int Mi = static_cast<int>(M), Ni = static_cast<int>(N),
      Ri = static_cast<int>(Nrhs), La = static_cast<int>(Lda),
      Lc = static_cast<int>(Ldc), Query = -1;
  T W;
  LAPACK4(gels, "N", &Mi, &Ni, &Ri, A, &La, C, &Lc, &W, &Query, Info, 1);
  int LWork = workSize(W);
  std::vector<T> Work(LWork);
  LAPACK4(gels, "N", &Mi, &Ni, &Ri, A, &La, C, &Lc, Work.data(), &LWork, Info,
          1);
}

#define INSTANTIATE(T)                                                         \
  template void getrf<T>(int64_t, T *, int64_t, int *, int *);                 \
  template void getrs<T>(Op, int64_t, int64_t, const T *, int64_t,             \
                         const int *, T *, int64_t);                           \
  template void getri<T>(int64_t, const T *, int64_t, const int *, T *,        \
                         int64_t, int *);                                      \
  template void geqrf<T>(int64_t, int64_t, T *, int64_t, T *);                 \
  template void gels<T>(int64_t, int64_t, int64_t, T *, int64_t, T *, int64_t, \
                        int *);
INSTANTIATE(float)
INSTANTIATE(double)
INSTANTIATE(C32)
INSTANTIATE(C64)

} // namespace cuhip::blas::host
