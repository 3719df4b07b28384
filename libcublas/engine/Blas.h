//===- Blas.h - Typed BLAS and LAPACK routines on host memory -------------===//
//
// The engine's routines for cuBLAS's typed API beyond GEMM: levels 1, 2
// and 3 and the batched factorizations, for float, double and their
// std::complex forms (the layout of cuComplex and cuDoubleComplex), over
// memory the host can address (the CPU backend's device memory). Each runs
// synchronously with BLAS semantics; the API layer checks the arguments
// first (nothing here validates them) and puts the call on the handle's
// stream with runOnStream. OpenBLAS does the arithmetic where it has the
// routine; the few cuBLAS has and BLAS lacks (complex symmetric rank
// updates, syrkx, geam, dgmm, packed conversions, LU without pivoting) are
// written here. OpenBLAS takes 32-bit sizes: level-1 vectors longer than
// 2^31-1 are done in pieces; the API layer refuses larger matrices.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Gemm.h"

#include <complex>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace cuhip::blas {

enum class Uplo { Lower, Upper };
enum class Side { Left, Right };
enum class Diag { NonUnit, Unit };

/// Runs Work in Stream's order (a host function on the CPU backend, kept
/// in the graph when the stream is being captured). Returns a cudaError_t-
/// style status; cudaErrorNotSupported on the HIP backend, whose memory the
/// host cannot address.
int runOnStream(void *Stream, std::function<void()> Work);

namespace host {

template <typename T> struct RealOf { using type = T; };
template <typename T> struct RealOf<std::complex<T>> { using type = T; };
/// The real type of T: the type of a norm, of herk's alpha, of rot's c.
template <typename T> using Real = typename RealOf<T>::type;
template <typename T> constexpr bool IsComplex = !std::is_same_v<T, Real<T>>;

// --- level 1 -----------------------------------------------------------------
// A negative increment walks the vector from its far end (BLAS); copy,
// swap, axpy, dot and rot take any increment, the others treat an increment
// <= 0 as an empty vector (scal does nothing, the reductions give 0).

/// Vectors longer than OpenBLAS's 32-bit sizes are done in pieces of at
/// most 2^30 elements; tests set smaller pieces (0 restores the default).
/// Not thread-safe: set it before the routines run.
void setLevel1Piece(int64_t Elements);

template <typename T>
void copy(int64_t N, const T *X, int64_t IncX, T *Y, int64_t IncY);
template <typename T>
void swap(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY);
template <typename T> void scal(int64_t N, T Alpha, T *X, int64_t IncX);
/// x = alpha * x with a real alpha (csscal, zdscal).
template <typename T>
void scalReal(int64_t N, Real<T> Alpha, T *X, int64_t IncX);
template <typename T>
void axpy(int64_t N, T Alpha, const T *X, int64_t IncX, T *Y, int64_t IncY);
/// sum x_i * y_i, with x conjugated when ConjX (dotc).
template <typename T>
T dot(int64_t N, const T *X, int64_t IncX, const T *Y, int64_t IncY,
      bool ConjX);
template <typename T> Real<T> nrm2(int64_t N, const T *X, int64_t IncX);
/// sum |re| + |im| (BLAS's asum).
template <typename T> Real<T> asum(int64_t N, const T *X, int64_t IncX);
/// The 1-based index of the first element of largest (Max) or smallest
/// |re| + |im|; 0 for an empty vector.
template <typename T>
int64_t iamax(int64_t N, const T *X, int64_t IncX, bool Max);
/// x' = c x + s y, y' = c y - conj(s) x.
template <typename T>
void rot(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY, Real<T> C, T S);
/// rot with a real s (csrot, zdrot).
template <typename T>
void rotReal(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY, Real<T> C,
             Real<T> S);
template <typename T> void rotg(T *A, T *B, Real<T> *C, T *S);
/// The modified Givens rotations; real types only.
template <typename T>
void rotm(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY, const T *Param);
template <typename T> void rotmg(T *D1, T *D2, T *X1, T Y1, T *Param);

// --- level 2 -----------------------------------------------------------------
// Where cuBLAS has a Hermitian routine for complex types and a symmetric
// one for real types (hemv/symv, hbmv/sbmv, hpmv/spmv, her/syr, her2/syr2,
// hpr/spr, hpr2/spr2), the engine has one name: Hermitian, which for a real
// T is symmetric. symv/syr/syr2 are the complex symmetric forms too.

template <typename T>
void gemv(Op Trans, int64_t M, int64_t N, T Alpha, const T *A, int64_t Lda,
          const T *X, int64_t IncX, T Beta, T *Y, int64_t IncY);
template <typename T>
void gbmv(Op Trans, int64_t M, int64_t N, int64_t KL, int64_t KU, T Alpha,
          const T *A, int64_t Lda, const T *X, int64_t IncX, T Beta, T *Y,
          int64_t IncY);
/// A += alpha x op(y), op conjugating y when Conj (gerc).
template <typename T>
void ger(int64_t M, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
         int64_t IncY, T *A, int64_t Lda, bool Conj);
template <typename T>
void hemv(Uplo U, int64_t N, T Alpha, const T *A, int64_t Lda, const T *X,
          int64_t IncX, T Beta, T *Y, int64_t IncY);
template <typename T>
void symv(Uplo U, int64_t N, T Alpha, const T *A, int64_t Lda, const T *X,
          int64_t IncX, T Beta, T *Y, int64_t IncY);
template <typename T>
void hbmv(Uplo U, int64_t N, int64_t K, T Alpha, const T *A, int64_t Lda,
          const T *X, int64_t IncX, T Beta, T *Y, int64_t IncY);
template <typename T>
void hpmv(Uplo U, int64_t N, T Alpha, const T *AP, const T *X, int64_t IncX,
          T Beta, T *Y, int64_t IncY);
template <typename T>
void her(Uplo U, int64_t N, Real<T> Alpha, const T *X, int64_t IncX, T *A,
         int64_t Lda);
template <typename T>
void syr(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, T *A,
         int64_t Lda);
template <typename T>
void her2(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
          int64_t IncY, T *A, int64_t Lda);
template <typename T>
void syr2(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
          int64_t IncY, T *A, int64_t Lda);
template <typename T>
void hpr(Uplo U, int64_t N, Real<T> Alpha, const T *X, int64_t IncX, T *AP);
template <typename T>
void hpr2(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
          int64_t IncY, T *AP);
/// Triangular products and solves: x = op(A) x, x = op(A)^-1 x, for a full
/// (trmv/trsv), banded (tbmv/tbsv, K off-diagonals) or packed (tpmv/tpsv)
/// triangle.
template <typename T>
void trmv(Uplo U, Op Trans, Diag D, int64_t N, const T *A, int64_t Lda, T *X,
          int64_t IncX, bool Solve);
template <typename T>
void tbmv(Uplo U, Op Trans, Diag D, int64_t N, int64_t K, const T *A,
          int64_t Lda, T *X, int64_t IncX, bool Solve);
template <typename T>
void tpmv(Uplo U, Op Trans, Diag D, int64_t N, const T *AP, T *X, int64_t IncX,
          bool Solve);

/// y = alpha op(A) x + beta y computed in f32, with A and x of AType (F16
/// or BF16) and y of YType (AType or F32): cuBLAS's HSH/HSS/TST/TSS gemv.
/// Beta 0 does not read y.
void gemvMixed(Op Trans, int64_t M, int64_t N, float Alpha, DType AType,
               const void *A, int64_t Lda, const void *X, int64_t IncX,
               float Beta, DType YType, void *Y, int64_t IncY);

// --- level 3 -----------------------------------------------------------------

template <typename T>
void gemm(Op TransA, Op TransB, int64_t M, int64_t N, int64_t K, T Alpha,
          const T *A, int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C,
          int64_t Ldc);
/// C = alpha A B + beta C (or alpha B A for Side::Right) with A symmetric,
/// or Hermitian when Hermitian is set (hemm).
template <typename T>
void symm(Side S, Uplo U, int64_t M, int64_t N, T Alpha, const T *A,
          int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C, int64_t Ldc,
          bool Hermitian);
template <typename T>
void syrk(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
          int64_t Lda, T Beta, T *C, int64_t Ldc);
template <typename T>
void herk(Uplo U, Op Trans, int64_t N, int64_t K, Real<T> Alpha, const T *A,
          int64_t Lda, Real<T> Beta, T *C, int64_t Ldc);
template <typename T>
void syr2k(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
           int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C, int64_t Ldc);
template <typename T>
void her2k(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
           int64_t Lda, const T *B, int64_t Ldb, Real<T> Beta, T *C,
           int64_t Ldc);
/// The triangle U of C = alpha op(A) op(B)^T + beta C (syrkx), or with
/// op(B)^H and a real diagonal when Hermitian (herkx).
template <typename T>
void syrkx(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
           int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C, int64_t Ldc,
           bool Hermitian);
/// cuBLAS's out-of-place trmm: C = alpha op(A) B (or alpha B op(A)); C may
/// be B.
template <typename T>
void trmm(Side S, Uplo U, Op Trans, Diag D, int64_t M, int64_t N, T Alpha,
          const T *A, int64_t Lda, const T *B, int64_t Ldb, T *C, int64_t Ldc);
template <typename T>
void trsm(Side S, Uplo U, Op Trans, Diag D, int64_t M, int64_t N, T Alpha,
          const T *A, int64_t Lda, T *B, int64_t Ldb);
/// C = alpha op(A) + beta op(B); A is not read when alpha is 0, nor B when
/// beta is 0. C may be A or B when that operand is not transposed.
template <typename T>
void geam(Op TransA, Op TransB, int64_t M, int64_t N, T Alpha, const T *A,
          int64_t Lda, T Beta, const T *B, int64_t Ldb, T *C, int64_t Ldc);
/// C = A diag(x) (Side::Right) or diag(x) A (Side::Left).
template <typename T>
void dgmm(Side S, int64_t M, int64_t N, const T *A, int64_t Lda, const T *X,
          int64_t IncX, T *C, int64_t Ldc);
/// Packed triangle to full (tpttr) and back (trttp); the other triangle of
/// the full matrix is left alone.
template <typename T>
void tpttr(Uplo U, int64_t N, const T *AP, T *A, int64_t Lda);
template <typename T>
void trttp(Uplo U, int64_t N, const T *A, int64_t Lda, T *AP);

// --- LAPACK-style factorizations (the batched routines, one matrix each) -----

/// LU with partial pivoting (Piv 1-based, as LAPACK), or without pivoting
/// when Piv is null. Info: 0, or i when U(i,i) is exactly zero.
template <typename T>
void getrf(int64_t N, T *A, int64_t Lda, int *Piv, int *Info);
/// Solves op(A) X = B with getrf's factors (Piv null: no pivoting).
template <typename T>
void getrs(Op Trans, int64_t N, int64_t Nrhs, const T *A, int64_t Lda,
           const int *Piv, T *B, int64_t Ldb);
/// C = inv(A) from getrf's factors. Info: 0, or i for a zero U(i,i).
template <typename T>
void getri(int64_t N, const T *A, int64_t Lda, const int *Piv, T *C,
           int64_t Ldc, int *Info);
/// QR: A overwritten by R and the reflectors, Tau their scalars.
template <typename T>
void geqrf(int64_t M, int64_t N, T *A, int64_t Lda, T *Tau);
/// Least squares min |A X - C| for M >= N (A overwritten by its QR, C's
/// first N rows by X). Info: 0, or i when R(i,i) is zero.
template <typename T>
void gels(int64_t M, int64_t N, int64_t Nrhs, T *A, int64_t Lda, T *C,
          int64_t Ldc, int *Info);

} // namespace host
} // namespace cuhip::blas
