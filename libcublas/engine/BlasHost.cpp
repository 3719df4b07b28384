//===- BlasHost.cpp - Levels 1 to 3 on host memory with OpenBLAS ----------===//
//
// See Blas.h. Each routine picks OpenBLAS's s/d/c/z entry point for its
// element type (BLAS4 below); complex scalars go by address, as CBLAS
// wants. The routines cuBLAS has and BLAS lacks are plain loops, except
// syrkx/herkx, which are GEMMs on blocks of the wanted triangle.
//
//===----------------------------------------------------------------------===//
#include "Blas.h"
#include "HostJob.h"

#include "cuhip/runtime/Runtime.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

namespace cuhip::blas {

namespace {

struct WorkJob {
  std::function<void()> Work;
  bool OneShot = true;
};

void runWorkJob(void *P) {
  auto *J = static_cast<WorkJob *>(P);
  J->Work();
  if (J->OneShot)
    delete J;
}

} // namespace

int runOnStream(void *Stream, std::function<void()> Work) {
  if (rt::Runtime::get().onHipBackend())
    return rt::cudaErrorNotSupported;
  auto Job = std::make_unique<WorkJob>();
  Job->Work = std::move(Work);
  return enqueueHostJob(std::move(Job), runWorkJob, Stream);
}

namespace host {

namespace {

using C32 = std::complex<float>;
using C64 = std::complex<double>;

/// Calls OpenBLAS's s, d, c or z form of NAME, whichever T is.
#define BLAS4(NAME, ...)                                                       \
  do {                                                                         \
    if constexpr (std::is_same_v<T, float>)                                    \
      cblas_s##NAME(__VA_ARGS__);                                              \
    else if constexpr (std::is_same_v<T, double>)                              \
      cblas_d##NAME(__VA_ARGS__);                                              \
    else if constexpr (std::is_same_v<T, C32>)                                 \
      cblas_c##NAME(__VA_ARGS__);                                              \
    else                                                                       \
      cblas_z##NAME(__VA_ARGS__);                                              \
  } while (0)

/// Calls the real (s/d) form REAL or the complex (c/z) form CPLX.
#define BLAS_RC(REAL, CPLX, ...)                                               \
  do {                                                                         \
    if constexpr (std::is_same_v<T, float>)                                    \
      cblas_s##REAL(__VA_ARGS__);                                              \
    else if constexpr (std::is_same_v<T, double>)                              \
      cblas_d##REAL(__VA_ARGS__);                                              \
    else if constexpr (std::is_same_v<T, C32>)                                 \
      cblas_c##CPLX(__VA_ARGS__);                                              \
    else                                                                       \
      cblas_z##CPLX(__VA_ARGS__);                                              \
  } while (0)

/// A scalar as CBLAS takes it: by value if real, by address if complex.
template <typename T> auto sc(const T &V) {
  if constexpr (IsComplex<T>)
    return static_cast<const void *>(&V);
  else
    return V;
}

template <typename T> CBLAS_TRANSPOSE cop(Op O) {
  if (O == Op::N)
    return CblasNoTrans;
  return O == Op::C && IsComplex<T> ? CblasConjTrans : CblasTrans;
}
CBLAS_UPLO cu(Uplo U) { return U == Uplo::Lower ? CblasLower : CblasUpper; }
CBLAS_SIDE cs(Side S) { return S == Side::Left ? CblasLeft : CblasRight; }
CBLAS_DIAG cd(Diag D) { return D == Diag::Unit ? CblasUnit : CblasNonUnit; }

template <typename T> T conjIf(const T &V, bool Conj) {
  if constexpr (IsComplex<T>)
    return Conj ? std::conj(V) : V;
  else
    return V;
}

template <typename T> Real<T> abs1(const T &V) {
  if constexpr (IsComplex<T>)
    return std::fabs(V.real()) + std::fabs(V.imag());
  else
    return std::fabs(V);
}

/// BLAS's position of element I of a vector of N with increment Inc.
inline int64_t at(int64_t I, int64_t N, int64_t Inc) {
  return Inc >= 0 ? I * Inc : (I - N + 1) * Inc;
}

/// Level-1 vectors go to OpenBLAS (32-bit sizes) in pieces of this many
/// (setLevel1Piece changes it for tests).
constexpr int64_t DefaultPiece = int64_t(1) << 30;
int64_t Piece = DefaultPiece;

/// Calls Fn(First, Length) over pieces of [0, N); Length fits an int.
template <typename F> void pieces(int64_t N, F Fn) {
  for (int64_t I0 = 0; I0 < N; I0 += Piece)
    Fn(I0, static_cast<int>(std::min(Piece, N - I0)));
}

/// Where the piece [I0, I0 + L) of a vector of N starts in memory: a piece
/// is itself a BLAS vector with the same increment.
inline int64_t pieceStart(int64_t I0, int64_t L, int64_t N, int64_t Inc) {
  return Inc >= 0 ? I0 * Inc : (N - I0 - L) * -Inc;
}

} // namespace

void setLevel1Piece(int64_t Elements) {
  Piece = Elements > 0 && Elements <= DefaultPiece ? Elements : DefaultPiece;
}

// --- level 1 -----------------------------------------------------------------

template <typename T>
void copy(int64_t N, const T *X, int64_t IncX, T *Y, int64_t IncY) {
  pieces(N, [&](int64_t I0, int L) {
    BLAS4(copy, L, X + pieceStart(I0, L, N, IncX), IncX,
          Y + pieceStart(I0, L, N, IncY), IncY);
  });
}

template <typename T>
void swap(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY) {
  pieces(N, [&](int64_t I0, int L) {
    BLAS4(swap, L, X + pieceStart(I0, L, N, IncX), IncX,
          Y + pieceStart(I0, L, N, IncY), IncY);
  });
}

template <typename T> void scal(int64_t N, T Alpha, T *X, int64_t IncX) {
  if (IncX <= 0)
    return;
  pieces(N, [&](int64_t I0, int L) {
    BLAS4(scal, L, sc(Alpha), X + I0 * IncX, IncX);
  });
}

template <typename T>
void scalReal(int64_t N, Real<T> Alpha, T *X, int64_t IncX) {
  if (IncX <= 0)
    return;
  pieces(N, [&](int64_t I0, int L) {
    if constexpr (std::is_same_v<T, C32>)
      cblas_csscal(L, Alpha, X + I0 * IncX, IncX);
    else if constexpr (std::is_same_v<T, C64>)
      cblas_zdscal(L, Alpha, X + I0 * IncX, IncX);
    else
      BLAS4(scal, L, Alpha, X + I0 * IncX, IncX);
  });
}

template <typename T>
void axpy(int64_t N, T Alpha, const T *X, int64_t IncX, T *Y, int64_t IncY) {
  pieces(N, [&](int64_t I0, int L) {
    BLAS4(axpy, L, sc(Alpha), X + pieceStart(I0, L, N, IncX), IncX,
          Y + pieceStart(I0, L, N, IncY), IncY);
  });
}

template <typename T>
T dot(int64_t N, const T *X, int64_t IncX, const T *Y, int64_t IncY,
      bool ConjX) {
  T Sum = T(0);
  pieces(N, [&](int64_t I0, int L) {
    const T *Xp = X + pieceStart(I0, L, N, IncX);
    const T *Yp = Y + pieceStart(I0, L, N, IncY);
    T Part;
    if constexpr (std::is_same_v<T, float>)
      Part = cblas_sdot(L, Xp, IncX, Yp, IncY);
    else if constexpr (std::is_same_v<T, double>)
      Part = cblas_ddot(L, Xp, IncX, Yp, IncY);
    else if constexpr (std::is_same_v<T, C32>) {
      if (ConjX)
        cblas_cdotc_sub(L, Xp, IncX, Yp, IncY, &Part);
      else
        cblas_cdotu_sub(L, Xp, IncX, Yp, IncY, &Part);
    } else {
      if (ConjX)
        cblas_zdotc_sub(L, Xp, IncX, Yp, IncY, &Part);
      else
        cblas_zdotu_sub(L, Xp, IncX, Yp, IncY, &Part);
    }
    Sum += Part;
  });
  return Sum;
}

template <typename T> Real<T> nrm2(int64_t N, const T *X, int64_t IncX) {
  Real<T> Norm = 0;
  if (IncX <= 0)
    return Norm;
  pieces(N, [&](int64_t I0, int L) {
    const T *Xp = X + I0 * IncX;
    Real<T> Part;
    if constexpr (std::is_same_v<T, float>)
      Part = cblas_snrm2(L, Xp, IncX);
    else if constexpr (std::is_same_v<T, double>)
      Part = cblas_dnrm2(L, Xp, IncX);
    else if constexpr (std::is_same_v<T, C32>)
      Part = cblas_scnrm2(L, Xp, IncX);
    else
      Part = cblas_dznrm2(L, Xp, IncX);
    Norm = I0 == 0 ? Part : std::hypot(Norm, Part);
  });
  return Norm;
}

template <typename T> Real<T> asum(int64_t N, const T *X, int64_t IncX) {
  Real<T> Sum = 0;
  if (IncX <= 0)
    return Sum;
  pieces(N, [&](int64_t I0, int L) {
    const T *Xp = X + I0 * IncX;
    if constexpr (std::is_same_v<T, float>)
      Sum += cblas_sasum(L, Xp, IncX);
    else if constexpr (std::is_same_v<T, double>)
      Sum += cblas_dasum(L, Xp, IncX);
    else if constexpr (std::is_same_v<T, C32>)
      Sum += cblas_scasum(L, Xp, IncX);
    else
      Sum += cblas_dzasum(L, Xp, IncX);
  });
  return Sum;
}

template <typename T>
int64_t iamax(int64_t N, const T *X, int64_t IncX, bool Max) {
  if (N <= 0 || IncX <= 0)
    return 0;
  int64_t Best = 1;
  Real<T> BestAbs = abs1(X[0]);
  for (int64_t I = 1; I < N; ++I) {
    Real<T> A = abs1(X[I * IncX]);
    // The first of equal magnitudes wins, as in BLAS.
    if (Max ? A > BestAbs : A < BestAbs) {
      Best = I + 1;
      BestAbs = A;
    }
  }
  return Best;
}

template <typename T>
void rot(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY, Real<T> C, T S) {
  if constexpr (!IsComplex<T>) {
    rotReal(N, X, IncX, Y, IncY, C, S);
  } else {
    // CBLAS has no complex rotation with a complex sine.
    for (int64_t I = 0; I < N; ++I) {
      T &Xi = X[at(I, N, IncX)], &Yi = Y[at(I, N, IncY)];
      T Xv = Xi;
      Xi = C * Xv + S * Yi;
      Yi = C * Yi - std::conj(S) * Xv;
    }
  }
}

template <typename T>
void rotReal(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY, Real<T> C,
             Real<T> S) {
  pieces(N, [&](int64_t I0, int L) {
    T *Xp = X + pieceStart(I0, L, N, IncX),
      *Yp = Y + pieceStart(I0, L, N, IncY);
    if constexpr (std::is_same_v<T, C32>)
      cblas_csrot(L, Xp, IncX, Yp, IncY, C, S);
    else if constexpr (std::is_same_v<T, C64>)
      cblas_zdrot(L, Xp, IncX, Yp, IncY, C, S);
    else
      BLAS4(rot, L, Xp, IncX, Yp, IncY, C, S);
  });
}

template <typename T> void rotg(T *A, T *B, Real<T> *C, T *S) {
  BLAS4(rotg, A, B, C, S);
}

template <typename T>
void rotm(int64_t N, T *X, int64_t IncX, T *Y, int64_t IncY, const T *Param) {
  pieces(N, [&](int64_t I0, int L) {
    BLAS4(rotm, L, X + pieceStart(I0, L, N, IncX), IncX,
          Y + pieceStart(I0, L, N, IncY), IncY, Param);
  });
}

template <typename T> void rotmg(T *D1, T *D2, T *X1, T Y1, T *Param) {
  BLAS4(rotmg, D1, D2, X1, Y1, Param);
}

// --- level 2 -----------------------------------------------------------------

template <typename T>
void gemv(Op Trans, int64_t M, int64_t N, T Alpha, const T *A, int64_t Lda,
          const T *X, int64_t IncX, T Beta, T *Y, int64_t IncY) {
  BLAS4(gemv, CblasColMajor, cop<T>(Trans), M, N, sc(Alpha), A, Lda, X, IncX,
        sc(Beta), Y, IncY);
}

template <typename T>
void gbmv(Op Trans, int64_t M, int64_t N, int64_t KL, int64_t KU, T Alpha,
          const T *A, int64_t Lda, const T *X, int64_t IncX, T Beta, T *Y,
          int64_t IncY) {
  BLAS4(gbmv, CblasColMajor, cop<T>(Trans), M, N, KL, KU, sc(Alpha), A, Lda, X,
        IncX, sc(Beta), Y, IncY);
}

template <typename T>
void ger(int64_t M, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
         int64_t IncY, T *A, int64_t Lda, bool Conj) {
  if (Conj)
    BLAS_RC(ger, gerc, CblasColMajor, M, N, sc(Alpha), X, IncX, Y, IncY, A,
            Lda);
  else
    BLAS_RC(ger, geru, CblasColMajor, M, N, sc(Alpha), X, IncX, Y, IncY, A,
            Lda);
}

template <typename T>
void hemv(Uplo U, int64_t N, T Alpha, const T *A, int64_t Lda, const T *X,
          int64_t IncX, T Beta, T *Y, int64_t IncY) {
  BLAS_RC(symv, hemv, CblasColMajor, cu(U), N, sc(Alpha), A, Lda, X, IncX,
          sc(Beta), Y, IncY);
}

namespace {

/// Is (I, J) in triangle U (the diagonal included)?
inline bool inTriangle(Uplo U, int64_t I, int64_t J) {
  return U == Uplo::Upper ? I <= J : I >= J;
}

/// y = beta y, with beta 0 clearing y (NaNs included), as BLAS.
template <typename T> void scaleY(int64_t N, T Beta, T *Y, int64_t IncY) {
  if (Beta == T(1))
    return;
  for (int64_t I = 0; I < N; ++I) {
    T &Yi = Y[at(I, N, IncY)];
    Yi = Beta == T(0) ? T(0) : Beta * Yi;
  }
}

} // namespace

template <typename T>
void symv(Uplo U, int64_t N, T Alpha, const T *A, int64_t Lda, const T *X,
          int64_t IncX, T Beta, T *Y, int64_t IncY) {
  if constexpr (!IsComplex<T>) {
    hemv(U, N, Alpha, A, Lda, X, IncX, Beta, Y, IncY);
  } else {
    scaleY(N, Beta, Y, IncY);
    if (Alpha == T(0))
      return;
    for (int64_t J = 0; J < N; ++J) {
      T Xj = Alpha * X[at(J, N, IncX)], Sum = T(0);
      const T *Col = A + J * Lda;
      for (int64_t I = 0; I < N; ++I) {
        if (I == J || !inTriangle(U, I, J))
          continue;
        Y[at(I, N, IncY)] += Xj * Col[I];
        Sum += Col[I] * X[at(I, N, IncX)];
      }
      Y[at(J, N, IncY)] += Xj * Col[J] + Alpha * Sum;
    }
  }
}

template <typename T>
void hbmv(Uplo U, int64_t N, int64_t K, T Alpha, const T *A, int64_t Lda,
          const T *X, int64_t IncX, T Beta, T *Y, int64_t IncY) {
  BLAS_RC(sbmv, hbmv, CblasColMajor, cu(U), N, K, sc(Alpha), A, Lda, X, IncX,
          sc(Beta), Y, IncY);
}

template <typename T>
void hpmv(Uplo U, int64_t N, T Alpha, const T *AP, const T *X, int64_t IncX,
          T Beta, T *Y, int64_t IncY) {
  BLAS_RC(spmv, hpmv, CblasColMajor, cu(U), N, sc(Alpha), AP, X, IncX, sc(Beta),
          Y, IncY);
}

template <typename T>
void her(Uplo U, int64_t N, Real<T> Alpha, const T *X, int64_t IncX, T *A,
         int64_t Lda) {
  BLAS_RC(syr, her, CblasColMajor, cu(U), N, Alpha, X, IncX, A, Lda);
}

template <typename T>
void syr(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, T *A,
         int64_t Lda) {
  if constexpr (!IsComplex<T>) {
    her(U, N, Alpha, X, IncX, A, Lda);
  } else {
    for (int64_t J = 0; J < N; ++J) {
      T Xj = Alpha * X[at(J, N, IncX)];
      for (int64_t I = 0; I < N; ++I)
        if (inTriangle(U, I, J))
          A[J * Lda + I] += X[at(I, N, IncX)] * Xj;
    }
  }
}

template <typename T>
void her2(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
          int64_t IncY, T *A, int64_t Lda) {
  BLAS_RC(syr2, her2, CblasColMajor, cu(U), N, sc(Alpha), X, IncX, Y, IncY, A,
          Lda);
}

template <typename T>
void syr2(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
          int64_t IncY, T *A, int64_t Lda) {
  if constexpr (!IsComplex<T>) {
    her2(U, N, Alpha, X, IncX, Y, IncY, A, Lda);
  } else {
    for (int64_t J = 0; J < N; ++J) {
      T Yj = Alpha * Y[at(J, N, IncY)], Xj = Alpha * X[at(J, N, IncX)];
      for (int64_t I = 0; I < N; ++I)
        if (inTriangle(U, I, J))
          A[J * Lda + I] += X[at(I, N, IncX)] * Yj + Y[at(I, N, IncY)] * Xj;
    }
  }
}

template <typename T>
void hpr(Uplo U, int64_t N, Real<T> Alpha, const T *X, int64_t IncX, T *AP) {
  BLAS_RC(spr, hpr, CblasColMajor, cu(U), N, Alpha, X, IncX, AP);
}

template <typename T>
void hpr2(Uplo U, int64_t N, T Alpha, const T *X, int64_t IncX, const T *Y,
          int64_t IncY, T *AP) {
  BLAS_RC(spr2, hpr2, CblasColMajor, cu(U), N, sc(Alpha), X, IncX, Y, IncY, AP);
}

template <typename T>
void trmv(Uplo U, Op Trans, Diag D, int64_t N, const T *A, int64_t Lda, T *X,
          int64_t IncX, bool Solve) {
  if (Solve)
    BLAS4(trsv, CblasColMajor, cu(U), cop<T>(Trans), cd(D), N, A, Lda, X, IncX);
  else
    BLAS4(trmv, CblasColMajor, cu(U), cop<T>(Trans), cd(D), N, A, Lda, X, IncX);
}

template <typename T>
void tbmv(Uplo U, Op Trans, Diag D, int64_t N, int64_t K, const T *A,
          int64_t Lda, T *X, int64_t IncX, bool Solve) {
  if (Solve)
    BLAS4(tbsv, CblasColMajor, cu(U), cop<T>(Trans), cd(D), N, K, A, Lda, X,
          IncX);
  else
    BLAS4(tbmv, CblasColMajor, cu(U), cop<T>(Trans), cd(D), N, K, A, Lda, X,
          IncX);
}

template <typename T>
void tpmv(Uplo U, Op Trans, Diag D, int64_t N, const T *AP, T *X, int64_t IncX,
          bool Solve) {
  if (Solve)
    BLAS4(tpsv, CblasColMajor, cu(U), cop<T>(Trans), cd(D), N, AP, X, IncX);
  else
    BLAS4(tpmv, CblasColMajor, cu(U), cop<T>(Trans), cd(D), N, AP, X, IncX);
}

namespace {

float load16(DType T, const void *Base, int64_t I) {
  uint16_t V = static_cast<const uint16_t *>(Base)[I];
  return T == DType::BF16 ? bf16ToFloat(V) : halfToFloat(V);
}

} // namespace

void gemvMixed(Op Trans, int64_t M, int64_t N, float Alpha, DType AType,
               const void *A, int64_t Lda, const void *X, int64_t IncX,
               float Beta, DType YType, void *Y, int64_t IncY) {
  int64_t LenX = Trans == Op::N ? N : M, LenY = Trans == Op::N ? M : N;
  std::vector<float> Xs(LenX), Acc(LenY, 0.0f);
  for (int64_t I = 0; I < LenX; ++I)
    Xs[I] = load16(AType, X, at(I, LenX, IncX));
  for (int64_t J = 0; J < N; ++J) {
    int64_t Col = J * Lda;
    if (Trans == Op::N) {
      float Xj = Xs[J];
      for (int64_t I = 0; I < M; ++I)
        Acc[I] += load16(AType, A, Col + I) * Xj;
    } else {
      float Sum = 0;
      for (int64_t I = 0; I < M; ++I)
        Sum += load16(AType, A, Col + I) * Xs[I];
      Acc[J] = Sum;
    }
  }
  for (int64_t I = 0; I < LenY; ++I) {
    int64_t Yi = at(I, LenY, IncY);
    float Old = 0;
    if (Beta != 0.0f)
      Old = YType == DType::F32 ? static_cast<const float *>(Y)[Yi]
                                : load16(YType, Y, Yi);
    float V = Alpha * Acc[I] + Beta * Old;
    if (YType == DType::F32)
      static_cast<float *>(Y)[Yi] = V;
    else
      static_cast<uint16_t *>(Y)[Yi] =
          YType == DType::BF16 ? floatToBf16(V) : floatToHalf(V);
  }
}

// --- level 3 -----------------------------------------------------------------

template <typename T>
void gemm(Op TransA, Op TransB, int64_t M, int64_t N, int64_t K, T Alpha,
          const T *A, int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C,
          int64_t Ldc) {
  if (M <= 0 || N <= 0)
    return;
  BLAS4(gemm, CblasColMajor, cop<T>(TransA), cop<T>(TransB), M, N, K, sc(Alpha),
        A, std::max<int64_t>(1, Lda), B, std::max<int64_t>(1, Ldb), sc(Beta), C,
        Ldc);
}

template <typename T>
void symm(Side S, Uplo U, int64_t M, int64_t N, T Alpha, const T *A,
          int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C, int64_t Ldc,
          bool Hermitian) {
  if (Hermitian && IsComplex<T>)
    BLAS_RC(symm, hemm, CblasColMajor, cs(S), cu(U), M, N, sc(Alpha), A, Lda, B,
            Ldb, sc(Beta), C, Ldc);
  else
    BLAS4(symm, CblasColMajor, cs(S), cu(U), M, N, sc(Alpha), A, Lda, B, Ldb,
          sc(Beta), C, Ldc);
}

template <typename T>
void syrk(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
          int64_t Lda, T Beta, T *C, int64_t Ldc) {
  BLAS4(syrk, CblasColMajor, cu(U), cop<T>(Trans), N, K, sc(Alpha), A, Lda,
        sc(Beta), C, Ldc);
}

template <typename T>
void herk(Uplo U, Op Trans, int64_t N, int64_t K, Real<T> Alpha, const T *A,
          int64_t Lda, Real<T> Beta, T *C, int64_t Ldc) {
  BLAS_RC(syrk, herk, CblasColMajor, cu(U), cop<T>(Trans), N, K, Alpha, A, Lda,
          Beta, C, Ldc);
}

template <typename T>
void syr2k(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
           int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C, int64_t Ldc) {
  BLAS4(syr2k, CblasColMajor, cu(U), cop<T>(Trans), N, K, sc(Alpha), A, Lda, B,
        Ldb, sc(Beta), C, Ldc);
}

template <typename T>
void her2k(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
           int64_t Lda, const T *B, int64_t Ldb, Real<T> Beta, T *C,
           int64_t Ldc) {
  if constexpr (IsComplex<T>)
    BLAS_RC(syr2k, her2k, CblasColMajor, cu(U), cop<T>(Trans), N, K, sc(Alpha),
            A, Lda, B, Ldb, Beta, C, Ldc);
  else
    syr2k(U, Trans, N, K, Alpha, A, Lda, B, Ldb, Beta, C, Ldc);
}

template <typename T>
void syrkx(Uplo U, Op Trans, int64_t N, int64_t K, T Alpha, const T *A,
           int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C, int64_t Ldc,
           bool Hermitian) {
  // Rows R.. of op(A), and columns C0.. of op(B)^T (op(B)^H): GEMM operands.
  auto RowsOfA = [&](int64_t R) {
    return Trans == Op::N ? A + R : A + R * Lda;
  };
  auto ColsOfB = [&](int64_t C0) {
    return Trans == Op::N ? B + C0 : B + C0 * Ldb;
  };
  Op TransB = Trans == Op::N ? (Hermitian ? Op::C : Op::T) : Op::N;
  Op TransA = Trans == Op::N ? Op::N : Trans;
  constexpr int64_t Block = 128;
  std::vector<T> Tmp(std::min(N, Block) * std::min(N, Block));
  for (int64_t C0 = 0; C0 < N; C0 += Block) {
    int64_t Cb = std::min(Block, N - C0);
    // The diagonal block through scratch, keeping the other triangle.
    gemm(TransA, TransB, Cb, Cb, K, Alpha, RowsOfA(C0), Lda, ColsOfB(C0), Ldb,
         T(0), Tmp.data(), Cb);
    for (int64_t J = 0; J < Cb; ++J)
      for (int64_t I = 0; I < Cb; ++I) {
        if (!inTriangle(U, I, J))
          continue;
        T &Cij = C[(C0 + J) * Ldc + C0 + I];
        T V = Tmp[J * Cb + I] + (Beta == T(0) ? T(0) : Beta * Cij);
        if (Hermitian && I == J)
          V = T(std::real(V));
        Cij = V;
      }
    // The rest of the block column straight into C.
    if (U == Uplo::Lower && C0 + Cb < N)
      gemm(TransA, TransB, N - C0 - Cb, Cb, K, Alpha, RowsOfA(C0 + Cb), Lda,
           ColsOfB(C0), Ldb, Beta, C + C0 * Ldc + C0 + Cb, Ldc);
    if (U == Uplo::Upper && C0 > 0)
      gemm(TransA, TransB, C0, Cb, K, Alpha, RowsOfA(0), Lda, ColsOfB(C0), Ldb,
           Beta, C + C0 * Ldc, Ldc);
  }
}

template <typename T>
void trmm(Side S, Uplo U, Op Trans, Diag D, int64_t M, int64_t N, T Alpha,
          const T *A, int64_t Lda, const T *B, int64_t Ldb, T *C, int64_t Ldc) {
  if (C != B)
    for (int64_t J = 0; J < N; ++J)
      std::memmove(C + J * Ldc, B + J * Ldb, M * sizeof(T));
  BLAS4(trmm, CblasColMajor, cs(S), cu(U), cop<T>(Trans), cd(D), M, N,
        sc(Alpha), A, Lda, C, Ldc);
}

template <typename T>
void trsm(Side S, Uplo U, Op Trans, Diag D, int64_t M, int64_t N, T Alpha,
          const T *A, int64_t Lda, T *B, int64_t Ldb) {
  BLAS4(trsm, CblasColMajor, cs(S), cu(U), cop<T>(Trans), cd(D), M, N,
        sc(Alpha), A, Lda, B, Ldb);
}

template <typename T>
void geam(Op TransA, Op TransB, int64_t M, int64_t N, T Alpha, const T *A,
          int64_t Lda, T Beta, const T *B, int64_t Ldb, T *C, int64_t Ldc) {
  auto OpAt = [](Op O, const T *X, int64_t Ld, int64_t I, int64_t J) {
    return O == Op::N ? X[J * Ld + I] : conjIf(X[I * Ld + J], O == Op::C);
  };
  bool UseA = Alpha != T(0), UseB = Beta != T(0);
  for (int64_t J = 0; J < N; ++J)
    for (int64_t I = 0; I < M; ++I) {
      T V = T(0);
      if (UseA)
        V = Alpha * OpAt(TransA, A, Lda, I, J);
      if (UseB)
        V += Beta * OpAt(TransB, B, Ldb, I, J);
      C[J * Ldc + I] = V;
    }
}

template <typename T>
void dgmm(Side S, int64_t M, int64_t N, const T *A, int64_t Lda, const T *X,
          int64_t IncX, T *C, int64_t Ldc) {
  int64_t Len = S == Side::Left ? M : N;
  for (int64_t J = 0; J < N; ++J)
    for (int64_t I = 0; I < M; ++I) {
      T D = X[at(S == Side::Left ? I : J, Len, IncX)];
      C[J * Ldc + I] = A[J * Lda + I] * D;
    }
}

namespace {

/// Where (I, J) of triangle U of an N x N matrix is in packed storage.
inline int64_t packed(Uplo U, int64_t N, int64_t I, int64_t J) {
  return U == Uplo::Upper ? I + J * (J + 1) / 2 : I + (2 * N - J - 1) * J / 2;
}

} // namespace

template <typename T>
void tpttr(Uplo U, int64_t N, const T *AP, T *A, int64_t Lda) {
  for (int64_t J = 0; J < N; ++J)
    for (int64_t I = 0; I < N; ++I)
      if (inTriangle(U, I, J))
        A[J * Lda + I] = AP[packed(U, N, I, J)];
}

template <typename T>
void trttp(Uplo U, int64_t N, const T *A, int64_t Lda, T *AP) {
  for (int64_t J = 0; J < N; ++J)
    for (int64_t I = 0; I < N; ++I)
      if (inTriangle(U, I, J))
        AP[packed(U, N, I, J)] = A[J * Lda + I];
}

// --- instantiations ----------------------------------------------------------

#define EACH_TYPE(X) X(float) X(double) X(C32) X(C64)
#define REAL_TYPES(X) X(float) X(double)

#define INSTANTIATE_ALL(T)                                                     \
  template void copy<T>(int64_t, const T *, int64_t, T *, int64_t);            \
  template void swap<T>(int64_t, T *, int64_t, T *, int64_t);                  \
  template void scal<T>(int64_t, T, T *, int64_t);                             \
  template void scalReal<T>(int64_t, Real<T>, T *, int64_t);                   \
  template void axpy<T>(int64_t, T, const T *, int64_t, T *, int64_t);         \
  template T dot<T>(int64_t, const T *, int64_t, const T *, int64_t, bool);    \
  template Real<T> nrm2<T>(int64_t, const T *, int64_t);                       \
  template Real<T> asum<T>(int64_t, const T *, int64_t);                       \
  template int64_t iamax<T>(int64_t, const T *, int64_t, bool);                \
  template void rot<T>(int64_t, T *, int64_t, T *, int64_t, Real<T>, T);       \
  template void rotReal<T>(int64_t, T *, int64_t, T *, int64_t, Real<T>,       \
                           Real<T>);                                           \
  template void rotg<T>(T *, T *, Real<T> *, T *);                             \
  template void gemv<T>(Op, int64_t, int64_t, T, const T *, int64_t,           \
                        const T *, int64_t, T, T *, int64_t);                  \
  template void gbmv<T>(Op, int64_t, int64_t, int64_t, int64_t, T, const T *,  \
                        int64_t, const T *, int64_t, T, T *, int64_t);         \
  template void ger<T>(int64_t, int64_t, T, const T *, int64_t, const T *,     \
                       int64_t, T *, int64_t, bool);                           \
  template void hemv<T>(Uplo, int64_t, T, const T *, int64_t, const T *,       \
                        int64_t, T, T *, int64_t);                             \
  template void symv<T>(Uplo, int64_t, T, const T *, int64_t, const T *,       \
                        int64_t, T, T *, int64_t);                             \
  template void hbmv<T>(Uplo, int64_t, int64_t, T, const T *, int64_t,         \
                        const T *, int64_t, T, T *, int64_t);                  \
  template void hpmv<T>(Uplo, int64_t, T, const T *, const T *, int64_t, T,    \
                        T *, int64_t);                                         \
  template void her<T>(Uplo, int64_t, Real<T>, const T *, int64_t, T *,        \
                       int64_t);                                               \
  template void syr<T>(Uplo, int64_t, T, const T *, int64_t, T *, int64_t);    \
  template void her2<T>(Uplo, int64_t, T, const T *, int64_t, const T *,       \
                        int64_t, T *, int64_t);                                \
  template void syr2<T>(Uplo, int64_t, T, const T *, int64_t, const T *,       \
                        int64_t, T *, int64_t);                                \
  template void hpr<T>(Uplo, int64_t, Real<T>, const T *, int64_t, T *);       \
  template void hpr2<T>(Uplo, int64_t, T, const T *, int64_t, const T *,       \
                        int64_t, T *);                                         \
  template void trmv<T>(Uplo, Op, Diag, int64_t, const T *, int64_t, T *,      \
                        int64_t, bool);                                        \
  template void tbmv<T>(Uplo, Op, Diag, int64_t, int64_t, const T *, int64_t,  \
                        T *, int64_t, bool);                                   \
  template void tpmv<T>(Uplo, Op, Diag, int64_t, const T *, T *, int64_t,      \
                        bool);                                                 \
  template void gemm<T>(Op, Op, int64_t, int64_t, int64_t, T, const T *,       \
                        int64_t, const T *, int64_t, T, T *, int64_t);         \
  template void symm<T>(Side, Uplo, int64_t, int64_t, T, const T *, int64_t,   \
                        const T *, int64_t, T, T *, int64_t, bool);            \
  template void syrk<T>(Uplo, Op, int64_t, int64_t, T, const T *, int64_t, T,  \
                        T *, int64_t);                                         \
  template void herk<T>(Uplo, Op, int64_t, int64_t, Real<T>, const T *,        \
                        int64_t, Real<T>, T *, int64_t);                       \
  template void syr2k<T>(Uplo, Op, int64_t, int64_t, T, const T *, int64_t,    \
                         const T *, int64_t, T, T *, int64_t);                 \
  template void her2k<T>(Uplo, Op, int64_t, int64_t, T, const T *, int64_t,    \
                         const T *, int64_t, Real<T>, T *, int64_t);           \
  template void syrkx<T>(Uplo, Op, int64_t, int64_t, T, const T *, int64_t,    \
                         const T *, int64_t, T, T *, int64_t, bool);           \
  template void trmm<T>(Side, Uplo, Op, Diag, int64_t, int64_t, T, const T *,  \
                        int64_t, const T *, int64_t, T *, int64_t);            \
  template void trsm<T>(Side, Uplo, Op, Diag, int64_t, int64_t, T, const T *,  \
                        int64_t, T *, int64_t);                                \
  template void geam<T>(Op, Op, int64_t, int64_t, T, const T *, int64_t, T,    \
                        const T *, int64_t, T *, int64_t);                     \
  template void dgmm<T>(Side, int64_t, int64_t, const T *, int64_t, const T *, \
                        int64_t, T *, int64_t);                                \
  template void tpttr<T>(Uplo, int64_t, const T *, T *, int64_t);              \
  template void trttp<T>(Uplo, int64_t, const T *, int64_t, T *);
EACH_TYPE(INSTANTIATE_ALL)

#define INSTANTIATE_REAL(T)                                                    \
  template void rotm<T>(int64_t, T *, int64_t, T *, int64_t, const T *);       \
  template void rotmg<T>(T *, T *, T *, T, T *);
REAL_TYPES(INSTANTIATE_REAL)

} // namespace host
} // namespace cuhip::blas
