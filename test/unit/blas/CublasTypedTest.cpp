//===- CublasTypedTest.cpp - cuBLAS's S/D/C/Z routines against loops -----===//
//
// The typed level-1, 2 and 3 routines, the BLAS-like extensions and the
// batched factorizations of libcublas.so.13, called through the toolkit's
// cublas_v2.h for float, double, cuComplex and cuDoubleComplex, each
// compared with a reference written from its definition as a plain loop in
// complex double: non-unit and negative increments, padded leading
// dimensions, transposes, scalars in device memory, and the argument
// checks. Then the Ex forms, the mixed-precision gemv batches, cublasXt on
// host memory, the handle settings libcusolver uses, stream order and
// capture, and that every name NVIDIA's libcublas.so.13 exports is
// exported here too.
//
//===----------------------------------------------------------------------===//
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include "../ElfExports.h"
#include "../HipChild.h"

#include <dlfcn.h>
#include <unistd.h>

#include <complex>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using cd = std::complex<double>;

template <typename T>
constexpr bool IsCx =
    std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>;
template <typename T>
using RealT = std::conditional_t<
    std::is_same_v<T, cuComplex>, float,
    std::conditional_t<std::is_same_v<T, cuDoubleComplex>, double, T>>;

template <typename T> cd toC(const T &V) {
  if constexpr (IsCx<T>)
    return cd(V.x, V.y);
  else
    return cd(V, 0);
}
template <typename T> T fromC(cd V) {
  if constexpr (IsCx<T>) {
    T R;
    R.x = static_cast<RealT<T>>(V.real());
    R.y = static_cast<RealT<T>>(V.imag());
    return R;
  } else {
    return static_cast<T>(V.real());
  }
}
template <typename T> std::vector<cd> toC(const std::vector<T> &V) {
  std::vector<cd> R;
  for (const T &E : V)
    R.push_back(toC(E));
  return R;
}
/// conj for complex types, nothing for real ones (so op C is op T).
template <typename T> cd cj(cd V) { return IsCx<T> ? std::conj(V) : V; }

/// The tolerance of a result of a few dozen products of values near 1.
template <typename T> double tol() {
  return std::is_same_v<RealT<T>, float> ? 2e-5 : 1e-12;
}

template <typename T> std::vector<T> random(size_t N, unsigned Seed) {
  std::mt19937 Rng(Seed);
  std::uniform_real_distribution<double> D(-1, 1);
  std::vector<T> V(N);
  for (T &E : V) {
    double Re = D(Rng), Im = D(Rng);
    E = fromC<T>(cd(Re, IsCx<T> ? Im : 0));
  }
  return V;
}

/// Device memory holding a copy of a host vector.
template <typename T> struct Dev {
  T *P = nullptr;
  size_t N;
  explicit Dev(const std::vector<T> &V) : N(V.size()) {
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&P),
                         std::max<size_t>(1, N) * sizeof(T)),
              cudaSuccess);
    EXPECT_EQ(cudaMemcpy(P, V.data(), N * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  Dev(const Dev &) = delete;
  ~Dev() { cudaFree(P); }
  std::vector<T> get() const {
    cudaDeviceSynchronize();
    std::vector<T> V(N);
    EXPECT_EQ(cudaMemcpy(V.data(), P, N * sizeof(T), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return V;
  }
};

template <typename T>
void expectNear(const std::vector<T> &Got, const std::vector<cd> &Want,
                const char *What) {
  ASSERT_EQ(Got.size(), Want.size()) << What;
  for (size_t I = 0; I < Got.size(); ++I)
    EXPECT_LE(std::abs(toC(Got[I]) - Want[I]),
              tol<T>() * 8 * (1 + std::abs(Want[I])))
        << What << " element " << I << ": got " << toC(Got[I]) << ", want "
        << Want[I];
}

void expectNear(const std::vector<cd> &Got, const std::vector<cd> &Want,
                double Tol, const char *What) {
  ASSERT_EQ(Got.size(), Want.size()) << What;
  for (size_t I = 0; I < Got.size(); ++I)
    EXPECT_LE(std::abs(Got[I] - Want[I]), Tol * 8 * (1 + std::abs(Want[I])))
        << What << " element " << I << ": got " << Got[I] << ", want "
        << Want[I];
}

void expectNear(cd Got, cd Want, double Tol, const char *What) {
  EXPECT_LE(std::abs(Got - Want), Tol * 8 * (1 + std::abs(Want)))
      << What << ": got " << Got << ", want " << Want;
}

/// BLAS's position of element I of a vector of N with increment Inc.
int64_t at(int64_t I, int64_t N, int64_t Inc) {
  return Inc >= 0 ? I * Inc : (I - N + 1) * Inc;
}

/// op(A)(I, J) of a column-major A.
template <typename T>
cd opAt(const std::vector<cd> &A, int64_t Lda, cublasOperation_t O, int64_t I,
        int64_t J) {
  if (O == CUBLAS_OP_N)
    return A[J * Lda + I];
  cd V = A[I * Lda + J];
  return O == CUBLAS_OP_C ? cj<T>(V) : V;
}

// --- each type's entry points ------------------------------------------------

template <typename T> struct Api;

#define TEST_API(T, P, DOTU, DOTC, NRM2, ASUM, IAMAX, IAMIN, ROT, GERU, GERC,  \
                 HEMV, HBMV, HPMV, HEMM)                                       \
  template <> struct Api<T> {                                                  \
    static constexpr auto copy = cublas##P##copy_v2;                           \
    static constexpr auto copy64 = cublas##P##copy_v2_64;                      \
    static constexpr auto swap = cublas##P##swap_v2;                           \
    static constexpr auto scal = cublas##P##scal_v2;                           \
    static constexpr auto axpy = cublas##P##axpy_v2;                           \
    static constexpr auto dotu = DOTU;                                         \
    static constexpr auto dotc = DOTC;                                         \
    static constexpr auto nrm2 = NRM2;                                         \
    static constexpr auto asum = ASUM;                                         \
    static constexpr auto iamax = IAMAX;                                       \
    static constexpr auto iamin = IAMIN;                                       \
    static constexpr auto rot = ROT;                                           \
    static constexpr auto gemv = cublas##P##gemv_v2;                           \
    static constexpr auto gbmv = cublas##P##gbmv_v2;                           \
    static constexpr auto geru = GERU;                                         \
    static constexpr auto gerc = GERC;                                         \
    static constexpr auto symv = cublas##P##symv_v2;                           \
    static constexpr auto hemv = HEMV;                                         \
    static constexpr auto hbmv = HBMV;                                         \
    static constexpr auto hpmv = HPMV;                                         \
    static constexpr auto syr = cublas##P##syr_v2;                             \
    static constexpr auto syr2 = cublas##P##syr2_v2;                           \
    static constexpr auto trmv = cublas##P##trmv_v2;                           \
    static constexpr auto trsv = cublas##P##trsv_v2;                           \
    static constexpr auto tbsv = cublas##P##tbsv_v2;                           \
    static constexpr auto tpmv = cublas##P##tpmv_v2;                           \
    static constexpr auto gemm = cublas##P##gemm_v2;                           \
    static constexpr auto gemmStrided = cublas##P##gemmStridedBatched;         \
    static constexpr auto symm = cublas##P##symm_v2;                           \
    static constexpr auto hemm = HEMM;                                         \
    static constexpr auto syrk = cublas##P##syrk_v2;                           \
    static constexpr auto syr2k = cublas##P##syr2k_v2;                         \
    static constexpr auto syrkx = cublas##P##syrkx;                            \
    static constexpr auto trmm = cublas##P##trmm_v2;                           \
    static constexpr auto trsm = cublas##P##trsm_v2;                           \
    static constexpr auto geam = cublas##P##geam;                              \
    static constexpr auto dgmm = cublas##P##dgmm;                              \
    static constexpr auto tpttr = cublas##P##tpttr;                            \
    static constexpr auto trttp = cublas##P##trttp;                            \
    static constexpr auto getrf = cublas##P##getrfBatched;                     \
    static constexpr auto getrs = cublas##P##getrsBatched;                     \
    static constexpr auto getri = cublas##P##getriBatched;                     \
    static constexpr auto matinv = cublas##P##matinvBatched;                   \
    static constexpr auto geqrf = cublas##P##geqrfBatched;                     \
    static constexpr auto gels = cublas##P##gelsBatched;                       \
    static constexpr auto trsmBatched = cublas##P##trsmBatched;                \
    static constexpr auto gemvBatched = cublas##P##gemvBatched;                \
    static constexpr auto gemvStrided = cublas##P##gemvStridedBatched;         \
  };
TEST_API(float, S, cublasSdot_v2, cublasSdot_v2, cublasSnrm2_v2, cublasSasum_v2,
         cublasIsamax_v2, cublasIsamin_v2, cublasSrot_v2, cublasSger_v2,
         cublasSger_v2, cublasSsymv_v2, cublasSsbmv_v2, cublasSspmv_v2,
         cublasSsymm_v2)
TEST_API(double, D, cublasDdot_v2, cublasDdot_v2, cublasDnrm2_v2,
         cublasDasum_v2, cublasIdamax_v2, cublasIdamin_v2, cublasDrot_v2,
         cublasDger_v2, cublasDger_v2, cublasDsymv_v2, cublasDsbmv_v2,
         cublasDspmv_v2, cublasDsymm_v2)
TEST_API(cuComplex, C, cublasCdotu_v2, cublasCdotc_v2, cublasScnrm2_v2,
         cublasScasum_v2, cublasIcamax_v2, cublasIcamin_v2, cublasCrot_v2,
         cublasCgeru_v2, cublasCgerc_v2, cublasChemv_v2, cublasChbmv_v2,
         cublasChpmv_v2, cublasChemm_v2)
TEST_API(cuDoubleComplex, Z, cublasZdotu_v2, cublasZdotc_v2, cublasDznrm2_v2,
         cublasDzasum_v2, cublasIzamax_v2, cublasIzamin_v2, cublasZrot_v2,
         cublasZgeru_v2, cublasZgerc_v2, cublasZhemv_v2, cublasZhbmv_v2,
         cublasZhpmv_v2, cublasZhemm_v2)
#undef TEST_API

template <typename T> class CublasTyped : public testing::Test {
protected:
  cublasHandle_t H = nullptr;
  void SetUp() override { ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS); }
  void TearDown() override {
    EXPECT_EQ(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
  }
  /// A complex scalar for complex types (so a wrong conjugation shows).
  static T scalar(double Re, double Im) {
    return fromC<T>(cd(Re, IsCx<T> ? Im : 0));
  }
};

using Types = testing::Types<float, double, cuComplex, cuDoubleComplex>;
TYPED_TEST_SUITE(CublasTyped, Types);

// --- level 1 -----------------------------------------------------------------

TYPED_TEST(CublasTyped, Level1) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int N = 5, IncX = 2, IncY = -1;
  std::vector<T> Xh = random<T>(1 + (N - 1) * IncX, 1), Yh = random<T>(N, 2);
  std::vector<cd> X = toC(Xh), Y = toC(Yh);
  auto Xi = [&](const std::vector<cd> &V, int I) { return V[at(I, N, IncX)]; };

  { // copy: y from every other x, written back to front
    Dev<T> Xd(Xh), Yd(Yh);
    ASSERT_EQ(A::copy(H, N, Xd.P, IncX, Yd.P, IncY), CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = Y;
    for (int I = 0; I < N; ++I)
      Want[at(I, N, IncY)] = Xi(X, I);
    expectNear(Yd.get(), Want, "copy");
    // _64, with n 0 touching nothing.
    ASSERT_EQ(A::copy64(H, 0, Xd.P, 1, Yd.P, 1), CUBLAS_STATUS_SUCCESS);
    expectNear(Yd.get(), Want, "copy_64 n=0");
  }
  { // swap
    Dev<T> Xd(Xh), Yd(Yh);
    ASSERT_EQ(A::swap(H, N, Xd.P, IncX, Yd.P, IncY), CUBLAS_STATUS_SUCCESS);
    std::vector<cd> WantX = X, WantY = Y;
    for (int I = 0; I < N; ++I)
      std::swap(WantX[at(I, N, IncX)], WantY[at(I, N, IncY)]);
    expectNear(Xd.get(), WantX, "swap x");
    expectNear(Yd.get(), WantY, "swap y");
  }
  { // scal with a host alpha; axpy with alpha in device memory
    Dev<T> Xd(Xh), Yd(Yh);
    T Alpha = this->scalar(0.5, -2);
    ASSERT_EQ(A::scal(H, N, &Alpha, Xd.P, IncX), CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = X;
    for (int I = 0; I < N; ++I)
      Want[I * IncX] *= toC(Alpha);
    expectNear(Xd.get(), Want, "scal");
    Dev<T> AlphaD(std::vector<T>{this->scalar(-1.5, 0.25)});
    Dev<T> X2(Xh);
    ASSERT_EQ(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(A::axpy(H, N, AlphaD.P, X2.P, IncX, Yd.P, IncY),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> WantY = Y;
    for (int I = 0; I < N; ++I)
      WantY[at(I, N, IncY)] += cd(-1.5, IsCx<T> ? 0.25 : 0) * Xi(X, I);
    expectNear(Yd.get(), WantY, "axpy (device alpha)");
  }
  { // dot, dotc, nrm2, asum, amax, amin: host results
    Dev<T> Xd(Xh), Yd(Yh);
    T Dot, Dotc;
    ASSERT_EQ(A::dotu(H, N, Xd.P, IncX, Yd.P, IncY, &Dot),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(A::dotc(H, N, Xd.P, IncX, Yd.P, IncY, &Dotc),
              CUBLAS_STATUS_SUCCESS);
    cd WantDot = 0, WantDotc = 0;
    double Ss = 0, Sum = 0;
    int Max = 0, Min = 0;
    double MaxV = -1, MinV = 1e300;
    for (int I = 0; I < N; ++I) {
      cd Xv = Xi(X, I), Yv = Y[at(I, N, IncY)];
      WantDot += Xv * Yv;
      WantDotc += cj<T>(Xv) * Yv;
      Ss += std::norm(Xv);
      double A1 = std::fabs(Xv.real()) + std::fabs(Xv.imag());
      Sum += A1;
      if (A1 > MaxV) {
        MaxV = A1;
        Max = I + 1;
      }
      if (A1 < MinV) {
        MinV = A1;
        Min = I + 1;
      }
    }
    expectNear(toC(Dot), WantDot, tol<T>(), "dotu");
    expectNear(toC(Dotc), WantDotc, tol<T>(), "dotc");
    RealT<T> Nrm = -1, Asum = -1;
    ASSERT_EQ(A::nrm2(H, N, Xd.P, IncX, &Nrm), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(A::asum(H, N, Xd.P, IncX, &Asum), CUBLAS_STATUS_SUCCESS);
    expectNear(Nrm, std::sqrt(Ss), tol<T>(), "nrm2");
    expectNear(Asum, Sum, tol<T>(), "asum");
    int IMax = -1, IMin = -1;
    ASSERT_EQ(A::iamax(H, N, Xd.P, IncX, &IMax), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(A::iamin(H, N, Xd.P, IncX, &IMin), CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(IMax, Max);
    EXPECT_EQ(IMin, Min);
    // An empty vector or a non-positive increment gives 0 (BLAS).
    ASSERT_EQ(A::nrm2(H, N, Xd.P, -1, &Nrm), CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(Nrm, 0);
    ASSERT_EQ(A::iamax(H, 0, Xd.P, 1, &IMax), CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(IMax, 0);
    // A device result.
    Dev<T> R(std::vector<T>{T{}});
    cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE);
    ASSERT_EQ(A::dotc(H, N, Xd.P, IncX, Yd.P, IncY, R.P),
              CUBLAS_STATUS_SUCCESS);
    cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST);
    expectNear(toC(R.get()[0]), WantDotc, tol<T>(), "dotc (device result)");
    EXPECT_EQ(A::dotu(H, N, Xd.P, IncX, Yd.P, IncY, nullptr),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(A::nrm2(nullptr, N, Xd.P, IncX, &Nrm),
              CUBLAS_STATUS_NOT_INITIALIZED);
  }
  { // rot: a real cosine and T's sine
    Dev<T> Xd(Xh), Yd(Yh);
    RealT<T> C = 0.6f;
    T S = this->scalar(0.8, 0.3);
    ASSERT_EQ(A::rot(H, N, Xd.P, IncX, Yd.P, IncY, &C, &S),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> WantX = X, WantY = Y;
    for (int I = 0; I < N; ++I) {
      cd &Xv = WantX[at(I, N, IncX)], &Yv = WantY[at(I, N, IncY)];
      cd Xo = Xv;
      Xv = double(C) * Xo + toC(S) * Yv;
      Yv = double(C) * Yv - std::conj(toC(S)) * Xo;
    }
    expectNear(Xd.get(), WantX, "rot x");
    expectNear(Yd.get(), WantY, "rot y");
  }
}

TEST(CublasLevel1, RotationsRealAndComplex) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  // rotg: r = +-sqrt(a^2 + b^2), c a + s b = r, -s a + c b = 0.
  float A = 3, B = 4, C, S;
  ASSERT_EQ(cublasSrotg(H, &A, &B, &C, &S), CUBLAS_STATUS_SUCCESS);
  EXPECT_NEAR(std::fabs(A), 5, 1e-6);
  EXPECT_NEAR(C * 3 + S * 4, A, 1e-6);
  EXPECT_NEAR(-S * 3 + C * 4, 0, 1e-6);
  cuDoubleComplex Ca{1, 2}, Cb{-2, 0.5}, Cs;
  double Cc;
  const cd A0(1, 2), B0(-2, 0.5);
  ASSERT_EQ(cublasZrotg(H, &Ca, &Cb, &Cc, &Cs), CUBLAS_STATUS_SUCCESS);
  cd Sv(Cs.x, Cs.y), R(Ca.x, Ca.y);
  expectNear(Cc * A0 + Sv * B0, R, 1e-12, "zrotg r");
  expectNear(-std::conj(Sv) * A0 + Cc * B0, 0, 1e-12, "zrotg zero");
  // rotmg then rotm zeroes the second component of (sqrt(d1) x1,
  // sqrt(d2) y1), as BLAS's modified Givens rotation does.
  double D1 = 2, D2 = 3, X1 = 1, Y1 = 2, Param[5];
  ASSERT_EQ(cublasDrotmg(H, &D1, &D2, &X1, &Y1, Param), CUBLAS_STATUS_SUCCESS);
  std::vector<double> Xh = {1, 5}, Yh = {2, -1};
  Dev<double> Xd(Xh), Yd(Yh);
  ASSERT_EQ(cublasDrotm(H, 2, Xd.P, 1, Yd.P, 1, Param), CUBLAS_STATUS_SUCCESS);
  std::vector<double> Xr = Xd.get(), Yr = Yd.get();
  EXPECT_NEAR(Yr[0], 0, 1e-12);
  // H applied to (x, y) keeps the weighted norms: d1' x'^2 + d2' y'^2.
  for (int I = 0; I < 2; ++I)
    EXPECT_NEAR(D1 * Xr[I] * Xr[I] + D2 * Yr[I] * Yr[I],
                2 * Xh[I] * Xh[I] + 3 * Yh[I] * Yh[I], 1e-9);
  EXPECT_EQ(cublasSrotg(H, &A, nullptr, &C, &S), CUBLAS_STATUS_INVALID_VALUE);
  // Equal magnitudes: the first one is the index (|re| + |im| for complex).
  Dev<float> Ties(std::vector<float>{1, -3, 3, -3});
  int Index = 0;
  ASSERT_EQ(cublasIsamax(H, 4, Ties.P, 1, &Index), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Index, 2);
  Dev<cuComplex> CTies(std::vector<cuComplex>{{3, 0}, {1, 1}, {0, -2}});
  ASSERT_EQ(cublasIcamin(H, 3, CTies.P, 1, &Index), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Index, 2);
  cublasDestroy(H);
}

// --- level 2 -----------------------------------------------------------------

TYPED_TEST(CublasTyped, Level2General) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int M = 4, N = 3, Lda = 6;
  std::vector<T> Ah = random<T>(Lda * N, 3), Xh = random<T>(2 * 4, 4),
                 Yh = random<T>(4, 5);
  std::vector<cd> Am = toC(Ah), X = toC(Xh), Y = toC(Yh);
  T Alpha = this->scalar(0.75, 0.5), Beta = this->scalar(-0.5, 1);
  cd Al = toC(Alpha), Be = toC(Beta);
  for (cublasOperation_t Op : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C}) {
    SCOPED_TRACE(testing::Message() << "gemv op " << Op);
    int LenX = Op == CUBLAS_OP_N ? N : M, LenY = Op == CUBLAS_OP_N ? M : N;
    Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
    ASSERT_EQ(A::gemv(H, Op, M, N, &Alpha, Ad.P, Lda, Xd.P, 2, &Beta, Yd.P, -1),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = Y;
    for (int I = 0; I < LenY; ++I) {
      cd Sum = 0;
      for (int J = 0; J < LenX; ++J)
        Sum += opAt<T>(Am, Lda, Op, I, J) * X[at(J, LenX, 2)];
      cd &Yv = Want[at(I, LenY, -1)];
      Yv = Al * Sum + Be * Yv;
    }
    expectNear(Yd.get(), Want, "gemv");
  }
  { // gbmv: kl 1, ku 2 band of a 4 x 3 matrix, lda kl + ku + 1 + 1
    const int KL = 1, KU = 2, Ldb = KL + KU + 2;
    std::vector<T> Band = random<T>(Ldb * N, 6);
    std::vector<cd> Bc = toC(Band);
    Dev<T> Bd(Band), Xd(Xh), Yd(Yh);
    ASSERT_EQ(A::gbmv(H, CUBLAS_OP_C, M, N, KL, KU, &Alpha, Bd.P, Ldb, Xd.P, 1,
                      &Beta, Yd.P, 1),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = Y;
    for (int J = 0; J < N;
         ++J) { // y = op(A) x with op C: y_j = sum conj(A_ij) x_i
      cd Sum = 0;
      for (int I = std::max(0, J - KU); I <= std::min(M - 1, J + KL); ++I)
        Sum += cj<T>(Bc[J * Ldb + KU + I - J]) * X[I];
      Want[J] = Al * Sum + Be * Want[J];
    }
    expectNear(Yd.get(), Want, "gbmv");
    EXPECT_EQ(A::gbmv(H, CUBLAS_OP_N, M, N, KL, KU, &Alpha, Bd.P, KL + KU, Xd.P,
                      1, &Beta, Yd.P, 1),
              CUBLAS_STATUS_INVALID_VALUE);
  }
  for (bool Conj : {false, true}) { // geru / gerc
    Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
    auto Ger = Conj ? A::gerc : A::geru;
    ASSERT_EQ(Ger(H, M, N, &Alpha, Xd.P, 2, Yd.P, 1, Ad.P, Lda),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = Am;
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < M; ++I)
        Want[J * Lda + I] += Al * X[2 * I] * (Conj ? cj<T>(Y[J]) : Y[J]);
    expectNear(Ad.get(), Want, Conj ? "gerc" : "geru");
  }
  { // checks
    Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
    EXPECT_EQ(A::gemv(H, CUBLAS_OP_N, M, N, &Alpha, Ad.P, M - 1, Xd.P, 1, &Beta,
                      Yd.P, 1),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(A::gemv(H, CUBLAS_OP_N, M, N, &Alpha, Ad.P, Lda, Xd.P, 0, &Beta,
                      Yd.P, 1),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(A::gemv(H, static_cast<cublasOperation_t>(9), M, N, &Alpha, Ad.P,
                      Lda, Xd.P, 1, &Beta, Yd.P, 1),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(A::gemv(H, CUBLAS_OP_N, M, N, nullptr, Ad.P, Lda, Xd.P, 1, &Beta,
                      Yd.P, 1),
              CUBLAS_STATUS_INVALID_VALUE);
  }
}

/// The full N x N matrix a triangle U of A stands for: symmetric, or
/// Hermitian (a real diagonal) when Herm.
template <typename T>
std::vector<cd> fullSymmetric(const std::vector<cd> &A, int N, int Lda,
                              cublasFillMode_t U, bool Herm) {
  std::vector<cd> F(N * N);
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < N; ++I) {
      bool Stored = U == CUBLAS_FILL_MODE_UPPER ? I <= J : I >= J;
      cd V = Stored ? A[J * Lda + I] : A[I * Lda + J];
      if (!Stored && Herm)
        V = cj<T>(V);
      if (I == J && Herm && IsCx<T>)
        V = V.real();
      F[J * N + I] = V;
    }
  return F;
}

/// Packs triangle U of a full N x N column-major matrix (BLAS's order).
std::vector<cd> pack(const std::vector<cd> &F, int N, int Ld,
                     cublasFillMode_t U) {
  std::vector<cd> P;
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < N; ++I)
      if (U == CUBLAS_FILL_MODE_UPPER ? I <= J : I >= J)
        P.push_back(F[J * Ld + I]);
  return P;
}

/// A well-conditioned triangle: a diagonal near 2, small off-diagonals.
template <typename T> std::vector<T> triangle(int N, int Ld, unsigned Seed) {
  std::vector<T> A = random<T>(Ld * N, Seed);
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < N; ++I) {
      cd V = toC(A[J * Ld + I]) * 0.2;
      if (I == J)
        V += 2.0;
      A[J * Ld + I] = fromC<T>(V);
    }
  return A;
}

TYPED_TEST(CublasTyped, Level2Symmetric) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int N = 4, Lda = 5;
  std::vector<T> Ah = random<T>(Lda * N, 7), Xh = random<T>(N, 8),
                 Yh = random<T>(2 * N, 9);
  std::vector<cd> Am = toC(Ah), X = toC(Xh), Y = toC(Yh);
  T Alpha = this->scalar(1.25, -0.5), Beta = this->scalar(0.5, 0.5);
  cd Al = toC(Alpha), Be = toC(Beta);
  for (cublasFillMode_t U : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
    for (bool Herm : {false, true}) {
      SCOPED_TRACE(testing::Message() << "uplo " << U << " herm " << Herm);
      std::vector<cd> F = fullSymmetric<T>(Am, N, Lda, U, Herm);
      std::vector<cd> Want = Y;
      for (int I = 0; I < N; ++I) {
        cd Sum = 0;
        for (int J = 0; J < N; ++J)
          Sum += F[J * N + I] * X[J];
        Want[2 * I] = Al * Sum + Be * Want[2 * I];
      }
      { // symv / hemv (sbmv- and spmv-shaped checks below)
        Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
        auto Mv = Herm ? A::hemv : A::symv;
        ASSERT_EQ(Mv(H, U, N, &Alpha, Ad.P, Lda, Xd.P, 1, &Beta, Yd.P, 2),
                  CUBLAS_STATUS_SUCCESS);
        expectNear(Yd.get(), Want, Herm ? "hemv" : "symv");
      }
      if (Herm) {
        // hpmv / spmv: the same matrix packed.
        std::vector<cd> P = pack(Am, N, Lda, U);
        std::vector<T> Ph;
        for (cd V : P)
          Ph.push_back(fromC<T>(V));
        Dev<T> Pd(Ph), Xd(Xh), Yd(Yh);
        ASSERT_EQ(A::hpmv(H, U, N, &Alpha, Pd.P, Xd.P, 1, &Beta, Yd.P, 2),
                  CUBLAS_STATUS_SUCCESS);
        expectNear(Yd.get(), Want, "hpmv");
        // hbmv / sbmv with all N-1 off-diagonals is the same product again.
        const int K = N - 1, Ldb = K + 1;
        std::vector<T> Bh(Ldb * N);
        for (int J = 0; J < N; ++J)
          for (int I = 0; I < N; ++I) {
            bool Upper = U == CUBLAS_FILL_MODE_UPPER;
            if (Upper ? I <= J : I >= J)
              Bh[J * Ldb + (Upper ? K + I - J : I - J)] = Ah[J * Lda + I];
          }
        Dev<T> Bd(Bh), Yd2(Yh);
        ASSERT_EQ(
            A::hbmv(H, U, N, K, &Alpha, Bd.P, Ldb, Xd.P, 1, &Beta, Yd2.P, 2),
            CUBLAS_STATUS_SUCCESS);
        expectNear(Yd2.get(), Want, "hbmv");
        EXPECT_EQ(
            A::hbmv(H, U, N, K, &Alpha, Bd.P, K, Xd.P, 1, &Beta, Yd2.P, 2),
            CUBLAS_STATUS_INVALID_VALUE);
      }
      { // syr (symmetric, alpha T) and syr2: the triangle changes only
        Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
        ASSERT_EQ(A::syr(H, U, N, &Alpha, Xd.P, 1, Ad.P, Lda),
                  CUBLAS_STATUS_SUCCESS);
        std::vector<cd> WantA = Am;
        for (int J = 0; J < N; ++J)
          for (int I = 0; I < N; ++I)
            if (U == CUBLAS_FILL_MODE_UPPER ? I <= J : I >= J)
              WantA[J * Lda + I] += Al * X[I] * X[J];
        expectNear(Ad.get(), WantA, "syr");
        Dev<T> A2(Ah);
        ASSERT_EQ(A::syr2(H, U, N, &Alpha, Xd.P, 1, Yd.P, 2, A2.P, Lda),
                  CUBLAS_STATUS_SUCCESS);
        WantA = Am;
        for (int J = 0; J < N; ++J)
          for (int I = 0; I < N; ++I)
            if (U == CUBLAS_FILL_MODE_UPPER ? I <= J : I >= J)
              WantA[J * Lda + I] += Al * X[I] * Y[2 * J] + Al * Y[2 * I] * X[J];
        expectNear(A2.get(), WantA, "syr2");
      }
    }
  if constexpr (IsCx<T>) { // her and hpr: alpha real, A += alpha x x^H
    RealT<T> Ar = 0.75;
    for (bool Packed : {false, true}) {
      std::vector<cd> Full =
          fullSymmetric<T>(Am, N, Lda, CUBLAS_FILL_MODE_LOWER, true);
      std::vector<T> Start;
      if (Packed) {
        for (cd V : pack(Full, N, N, CUBLAS_FILL_MODE_LOWER))
          Start.push_back(fromC<T>(V));
      } else {
        for (cd V : Full)
          Start.push_back(fromC<T>(V));
      }
      Dev<T> Ad(Start), Xd(Xh);
      cublasStatus_t S;
      if constexpr (std::is_same_v<T, cuComplex>)
        S = Packed
                ? cublasChpr(H, CUBLAS_FILL_MODE_LOWER, N, &Ar, Xd.P, 1, Ad.P)
                : cublasCher(H, CUBLAS_FILL_MODE_LOWER, N, &Ar, Xd.P, 1, Ad.P,
                             N);
      else
        S = Packed
                ? cublasZhpr(H, CUBLAS_FILL_MODE_LOWER, N, &Ar, Xd.P, 1, Ad.P)
                : cublasZher(H, CUBLAS_FILL_MODE_LOWER, N, &Ar, Xd.P, 1, Ad.P,
                             N);
      ASSERT_EQ(S, CUBLAS_STATUS_SUCCESS);
      std::vector<cd> WantFull = Full;
      for (int J = 0; J < N; ++J)
        for (int I = J; I < N; ++I)
          WantFull[J * N + I] += double(Ar) * X[I] * std::conj(X[J]);
      std::vector<cd> Want =
          Packed ? pack(WantFull, N, N, CUBLAS_FILL_MODE_LOWER) : WantFull;
      if (!Packed) // the upper triangle is not touched
        for (int J = 0; J < N; ++J)
          for (int I = 0; I < J; ++I)
            Want[J * N + I] = Full[J * N + I];
      expectNear(Ad.get(), Want, Packed ? "hpr" : "her");
    }
  }
  { // checks
    Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
    EXPECT_EQ(A::symv(H, static_cast<cublasFillMode_t>(CUBLAS_FILL_MODE_FULL),
                      N, &Alpha, Ad.P, Lda, Xd.P, 1, &Beta, Yd.P, 1),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(
        A::syr(H, CUBLAS_FILL_MODE_LOWER, N, &Alpha, Xd.P, 1, Ad.P, N - 1),
        CUBLAS_STATUS_INVALID_VALUE);
  }
}

TYPED_TEST(CublasTyped, Level2Triangular) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int N = 5, Lda = 7, K = 2;
  std::vector<T> Ah = triangle<T>(N, Lda, 10), Bh = random<T>(2 * N, 11);
  std::vector<cd> Am = toC(Ah), B = toC(Bh);
  for (cublasFillMode_t U : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
    for (cublasOperation_t Op : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C})
      for (cublasDiagType_t D : {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT}) {
        SCOPED_TRACE(testing::Message()
                     << "uplo " << U << " op " << Op << " diag " << D);
        bool Upper = U == CUBLAS_FILL_MODE_UPPER;
        // The triangle as a full N x N matrix (the other half zero); Band
        // keeps K off-diagonals of it.
        auto Full = [&](int Width) {
          std::vector<cd> F(N * N);
          for (int J = 0; J < N; ++J)
            for (int I = 0; I < N; ++I)
              if ((Upper ? I <= J : I >= J) && std::abs(I - J) <= Width)
                F[J * N + I] =
                    I == J && D == CUBLAS_DIAG_UNIT ? cd(1) : Am[J * Lda + I];
          return F;
        };
        // op(F) x for x at stride 2; the odd elements are B's.
        auto MulOp = [&](const std::vector<cd> &F, const std::vector<cd> &X) {
          std::vector<cd> R = B;
          for (int I = 0; I < N; ++I) {
            cd Sum = 0;
            for (int J = 0; J < N; ++J)
              Sum += opAt<T>(F, N, Op, I, J) * X[2 * J];
            R[2 * I] = Sum;
          }
          return R;
        };
        std::vector<cd> Tri = Full(N), Band = Full(K);
        { // trmv
          Dev<T> Ad(Ah), Xd(Bh);
          ASSERT_EQ(A::trmv(H, U, Op, D, N, Ad.P, Lda, Xd.P, 2),
                    CUBLAS_STATUS_SUCCESS);
          expectNear(Xd.get(), MulOp(Tri, B), "trmv");
        }
        { // trsv: op(T) x = b
          Dev<T> Ad(Ah), Xd(Bh);
          ASSERT_EQ(A::trsv(H, U, Op, D, N, Ad.P, Lda, Xd.P, 2),
                    CUBLAS_STATUS_SUCCESS);
          expectNear(MulOp(Tri, toC(Xd.get())), B, tol<T>(), "trsv");
        }
        { // tbsv: the band of K off-diagonals
          const int Ldb = K + 2;
          std::vector<T> Bb(Ldb * N);
          for (int J = 0; J < N; ++J)
            for (int I = 0; I < N; ++I)
              if ((Upper ? I <= J : I >= J) && std::abs(I - J) <= K)
                Bb[J * Ldb + (Upper ? K + I - J : I - J)] = Ah[J * Lda + I];
          Dev<T> Bd(Bb), Xd(Bh);
          ASSERT_EQ(A::tbsv(H, U, Op, D, N, K, Bd.P, Ldb, Xd.P, 2),
                    CUBLAS_STATUS_SUCCESS);
          expectNear(MulOp(Band, toC(Xd.get())), B, tol<T>(), "tbsv");
        }
        { // tpmv: the triangle packed
          std::vector<T> Ph;
          for (cd V : pack(Am, N, Lda, U))
            Ph.push_back(fromC<T>(V));
          Dev<T> Pd(Ph), Xd(Bh);
          ASSERT_EQ(A::tpmv(H, U, Op, D, N, Pd.P, Xd.P, 2),
                    CUBLAS_STATUS_SUCCESS);
          expectNear(Xd.get(), MulOp(Tri, B), "tpmv");
        }
      }
  Dev<T> Ad(Ah), Xd(Bh);
  EXPECT_EQ(A::trsv(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                    static_cast<cublasDiagType_t>(3), N, Ad.P, Lda, Xd.P, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(A::tbsv(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, N,
                    K, Ad.P, K, Xd.P, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(A::trmv(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, N,
                    Ad.P, Lda, Xd.P, 0),
            CUBLAS_STATUS_INVALID_VALUE);
}

// --- level 3 -----------------------------------------------------------------

/// The reference product alpha op(A) op(B) + beta C (M x N).
template <typename T>
std::vector<cd> product(cublasOperation_t TA, cublasOperation_t TB, int M,
                        int N, int K, cd Alpha, const std::vector<cd> &A,
                        int Lda, const std::vector<cd> &B, int Ldb, cd Beta,
                        const std::vector<cd> &C, int Ldc) {
  std::vector<cd> R = C;
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < M; ++I) {
      cd Sum = 0;
      for (int L = 0; L < K; ++L)
        Sum += opAt<T>(A, Lda, TA, I, L) * opAt<T>(B, Ldb, TB, L, J);
      R[J * Ldc + I] =
          Alpha * Sum + (Beta == cd(0) ? cd(0) : Beta * C[J * Ldc + I]);
    }
  return R;
}

/// Keeps triangle U of Got's N x N block and Orig's elsewhere.
std::vector<cd> triangleOf(const std::vector<cd> &New,
                           const std::vector<cd> &Orig, int N, int Ld,
                           cublasFillMode_t U) {
  std::vector<cd> R = Orig;
  for (int J = 0; J < N; ++J)
    for (int I = 0; I < N; ++I)
      if (U == CUBLAS_FILL_MODE_UPPER ? I <= J : I >= J)
        R[J * Ld + I] = New[J * Ld + I];
  return R;
}

TYPED_TEST(CublasTyped, Level3) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int M = 5, N = 4, K = 3, Ld = 7;
  std::vector<T> Ah = random<T>(Ld * 7, 12), Bh = random<T>(Ld * 7, 13),
                 Ch = random<T>(Ld * 7, 14);
  std::vector<cd> Am = toC(Ah), Bm = toC(Bh), Cm = toC(Ch);
  T Alpha = this->scalar(0.5, 1), Beta = this->scalar(-1, 0.25);
  cd Al = toC(Alpha), Be = toC(Beta);
  for (cublasOperation_t TA : {CUBLAS_OP_N, CUBLAS_OP_C})
    for (cublasOperation_t TB : {CUBLAS_OP_T, CUBLAS_OP_N}) {
      SCOPED_TRACE(testing::Message() << "gemm " << TA << " " << TB);
      Dev<T> Ad(Ah), Bd(Bh), Cd(Ch);
      ASSERT_EQ(A::gemm(H, TA, TB, M, N, K, &Alpha, Ad.P, Ld, Bd.P, Ld, &Beta,
                        Cd.P, Ld),
                CUBLAS_STATUS_SUCCESS);
      expectNear(Cd.get(),
                 product<T>(TA, TB, M, N, K, Al, Am, Ld, Bm, Ld, Be, Cm, Ld),
                 "gemm");
    }
  { // strided batches of two, scalars in device memory
    const long long Stride = Ld * 3;
    Dev<T> Ad(Ah), Bd(Bh), Cd(Ch), AlD(std::vector<T>{Alpha}),
        BeD(std::vector<T>{Beta});
    cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE);
    ASSERT_EQ(A::gemmStrided(H, CUBLAS_OP_N, CUBLAS_OP_N, 3, 3, 2, AlD.P, Ad.P,
                             Ld, Stride, Bd.P, Ld, Stride, BeD.P, Cd.P, Ld,
                             Stride, 2),
              CUBLAS_STATUS_SUCCESS);
    cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST);
    std::vector<cd> Want = Cm;
    for (int Bt = 0; Bt < 2; ++Bt) {
      std::vector<cd> As(Am.begin() + Bt * Stride, Am.end()),
          Bs(Bm.begin() + Bt * Stride, Bm.end()),
          Cs(Cm.begin() + Bt * Stride, Cm.end());
      std::vector<cd> R = product<T>(CUBLAS_OP_N, CUBLAS_OP_N, 3, 3, 2, Al, As,
                                     Ld, Bs, Ld, Be, Cs, Ld);
      for (int J = 0; J < 3; ++J)
        for (int I = 0; I < 3; ++I)
          Want[Bt * Stride + J * Ld + I] = R[J * Ld + I];
    }
    expectNear(Cd.get(), Want, "gemmStridedBatched");
  }
  for (cublasSideMode_t Side : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT})
    for (bool Herm : {false, true}) { // symm / hemm, lower triangle
      SCOPED_TRACE(testing::Message() << "side " << Side << " herm " << Herm);
      int Na = Side == CUBLAS_SIDE_LEFT ? M : N;
      std::vector<cd> F =
          fullSymmetric<T>(Am, Na, Ld, CUBLAS_FILL_MODE_LOWER, Herm);
      Dev<T> Ad(Ah), Bd(Bh), Cd(Ch);
      auto Mm = Herm ? A::hemm : A::symm;
      ASSERT_EQ(Mm(H, Side, CUBLAS_FILL_MODE_LOWER, M, N, &Alpha, Ad.P, Ld,
                   Bd.P, Ld, &Beta, Cd.P, Ld),
                CUBLAS_STATUS_SUCCESS);
      std::vector<cd> Want = Side == CUBLAS_SIDE_LEFT
                                 ? product<T>(CUBLAS_OP_N, CUBLAS_OP_N, M, N, M,
                                              Al, F, Na, Bm, Ld, Be, Cm, Ld)
                                 : product<T>(CUBLAS_OP_N, CUBLAS_OP_N, M, N, N,
                                              Al, Bm, Ld, F, Na, Be, Cm, Ld);
      expectNear(Cd.get(), Want, Herm ? "hemm" : "symm");
    }
  for (cublasFillMode_t U : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
    for (cublasOperation_t Tr : {CUBLAS_OP_N, CUBLAS_OP_T}) {
      SCOPED_TRACE(testing::Message() << "uplo " << U << " trans " << Tr);
      cublasOperation_t Other = Tr == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
      { // syrk: C = alpha op(A) op(A)^T + beta C
        Dev<T> Ad(Ah), Cd(Ch);
        ASSERT_EQ(A::syrk(H, U, Tr, N, K, &Alpha, Ad.P, Ld, &Beta, Cd.P, Ld),
                  CUBLAS_STATUS_SUCCESS);
        // op(A)^T as a GEMM operand: A with the other transpose, unconjugated.
        std::vector<cd> Full =
            product<T>(Tr, Other, N, N, K, Al, Am, Ld, Am, Ld, Be, Cm, Ld);
        expectNear(Cd.get(), triangleOf(Full, Cm, N, Ld, U), "syrk");
      }
      { // syr2k and syrkx
        Dev<T> Ad(Ah), Bd(Bh), Cd(Ch), C2(Ch);
        ASSERT_EQ(A::syr2k(H, U, Tr, N, K, &Alpha, Ad.P, Ld, Bd.P, Ld, &Beta,
                           Cd.P, Ld),
                  CUBLAS_STATUS_SUCCESS);
        std::vector<cd> One =
            product<T>(Tr, Other, N, N, K, Al, Am, Ld, Bm, Ld, Be, Cm, Ld);
        std::vector<cd> Two =
            product<T>(Tr, Other, N, N, K, Al, Bm, Ld, Am, Ld, 1, One, Ld);
        expectNear(Cd.get(), triangleOf(Two, Cm, N, Ld, U), "syr2k");
        ASSERT_EQ(A::syrkx(H, U, Tr, N, K, &Alpha, Ad.P, Ld, Bd.P, Ld, &Beta,
                           C2.P, Ld),
                  CUBLAS_STATUS_SUCCESS);
        expectNear(C2.get(), triangleOf(One, Cm, N, Ld, U), "syrkx");
      }
    }
  { // trmm out of place (C != B), then trsm undoing it in place
    std::vector<T> Th = triangle<T>(M, Ld, 15);
    std::vector<cd> Tm = toC(Th);
    for (int J = 0; J < M; ++J) // the upper triangle, unit diagonal
      for (int I = 0; I < M; ++I)
        if (I > J)
          Tm[J * Ld + I] = 0;
        else if (I == J)
          Tm[J * Ld + I] = 1;
    Dev<T> Td(Th), Bd(Bh), Cd(Ch);
    ASSERT_EQ(A::trmm(H, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C,
                      CUBLAS_DIAG_UNIT, M, N, &Alpha, Td.P, Ld, Bd.P, Ld, Cd.P,
                      Ld),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = product<T>(CUBLAS_OP_C, CUBLAS_OP_N, M, N, M, Al, Tm,
                                      Ld, Bm, Ld, 0, Cm, Ld);
    expectNear(Cd.get(), Want, "trmm");
    expectNear(toC(Bd.get()), Bm, tol<T>(), "trmm leaves B");
    T Inv = fromC<T>(1.0 / Al);
    ASSERT_EQ(A::trsm(H, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C,
                      CUBLAS_DIAG_UNIT, M, N, &Inv, Td.P, Ld, Cd.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    // Solving op(T) X = C / alpha gives B back (in the M x N block).
    std::vector<cd> Back = toC(Cd.get()), WantB = toC(Cd.get());
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < M; ++I)
        WantB[J * Ld + I] = Bm[J * Ld + I];
    expectNear(Back, WantB, tol<T>() * 10, "trsm");
    EXPECT_EQ(A::trmm(H, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                      CUBLAS_DIAG_UNIT, M, N, &Alpha, Td.P, N - 1, Bd.P, Ld,
                      Cd.P, Ld),
              CUBLAS_STATUS_INVALID_VALUE);
  }
  { // geam: C = alpha A^T + beta B, and in place C = alpha C + beta B
    Dev<T> Ad(Ah), Bd(Bh), Cd(Ch);
    ASSERT_EQ(A::geam(H, CUBLAS_OP_C, CUBLAS_OP_N, M, N, &Alpha, Ad.P, Ld,
                      &Beta, Bd.P, Ld, Cd.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = Cm;
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < M; ++I)
        Want[J * Ld + I] = Al * cj<T>(Am[I * Ld + J]) + Be * Bm[J * Ld + I];
    expectNear(Cd.get(), Want, "geam");
    ASSERT_EQ(A::geam(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, &Alpha, Cd.P, Ld,
                      &Beta, Bd.P, Ld, Cd.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < M; ++I)
        Want[J * Ld + I] = Al * Want[J * Ld + I] + Be * Bm[J * Ld + I];
    expectNear(Cd.get(), Want, "geam in place");
    EXPECT_EQ(A::geam(H, CUBLAS_OP_T, CUBLAS_OP_N, M, M, &Alpha, Cd.P, Ld,
                      &Beta, Bd.P, Ld, Cd.P, Ld),
              CUBLAS_STATUS_INVALID_VALUE);
  }
  { // dgmm: C = diag(x) A with x walked backwards
    std::vector<T> Xh = random<T>(M, 16);
    Dev<T> Ad(Ah), Xd(Xh), Cd(Ch);
    ASSERT_EQ(A::dgmm(H, CUBLAS_SIDE_LEFT, M, N, Ad.P, Ld, Xd.P, -1, Cd.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want = Cm, X = toC(Xh);
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < M; ++I)
        Want[J * Ld + I] = X[M - 1 - I] * Am[J * Ld + I];
    expectNear(Cd.get(), Want, "dgmm");
  }
  for (cublasFillMode_t U : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
    // trttp then tpttr into another matrix: the triangle round-trips.
    Dev<T> Ad(Ah), Pd(std::vector<T>(N * (N + 1) / 2)), Cd(Ch);
    ASSERT_EQ(A::trttp(H, U, N, Ad.P, Ld, Pd.P), CUBLAS_STATUS_SUCCESS);
    expectNear(Pd.get(), pack(Am, N, Ld, U), "trttp");
    ASSERT_EQ(A::tpttr(H, U, N, Pd.P, Cd.P, Ld), CUBLAS_STATUS_SUCCESS);
    expectNear(Cd.get(), triangleOf(Am, Cm, N, Ld, U), "tpttr");
  }
  { // checks
    Dev<T> Ad(Ah), Cd(Ch);
    EXPECT_EQ(A::syrk(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, N, K, &Alpha,
                      Ad.P, N - 1, &Beta, Cd.P, Ld),
              CUBLAS_STATUS_INVALID_VALUE);
    // The complex symmetric forms take N and T only.
    EXPECT_EQ(A::syrk(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, N, K, &Alpha,
                      Ad.P, Ld, &Beta, Cd.P, Ld),
              IsCx<T> ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(A::gemm(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha, Ad.P, M - 1,
                      Ad.P, Ld, &Beta, Cd.P, Ld),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(A::tpttr(H, CUBLAS_FILL_MODE_FULL, N, Ad.P, Cd.P, Ld),
              CUBLAS_STATUS_INVALID_VALUE);
  }
}

/// herk, her2k and herkx: real scalars where cuBLAS has them, a real
/// diagonal in the result.
template <typename T, typename R, typename Herk, typename Her2k, typename Herkx>
void checkHermitianRankK(cublasHandle_t H, Herk HerkFn, Her2k Her2kFn,
                         Herkx HerkxFn) {
  const int N = 4, K = 3, Ld = 6;
  std::vector<T> Ah = random<T>(Ld * 6, 20), Bh = random<T>(Ld * 6, 21),
                 Ch = random<T>(Ld * 6, 22);
  std::vector<cd> Am = toC(Ah), Bm = toC(Bh), Cm = toC(Ch);
  R AlphaR = 0.75, BetaR = -0.5;
  T Alpha = fromC<T>(cd(0.5, -1));
  for (cublasOperation_t Tr : {CUBLAS_OP_N, CUBLAS_OP_C}) {
    SCOPED_TRACE(testing::Message() << "trans " << Tr);
    cublasOperation_t Other = Tr == CUBLAS_OP_N ? CUBLAS_OP_C : CUBLAS_OP_N;
    auto RealDiag = [&](std::vector<cd> V) {
      for (int I = 0; I < N; ++I)
        V[I * Ld + I] = V[I * Ld + I].real();
      return V;
    };
    std::vector<cd> Cstart = Cm;
    Dev<T> Ad(Ah), Bd(Bh), Cd(Ch), C2(Ch), C3(Ch);
    ASSERT_EQ(HerkFn(H, CUBLAS_FILL_MODE_UPPER, Tr, N, K, &AlphaR, Ad.P, Ld,
                     &BetaR, Cd.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Want =
        RealDiag(product<T>(Tr, Other, N, N, K, AlphaR, Am, Ld, Am, Ld, BetaR,
                            RealDiag(Cstart), Ld));
    expectNear(Cd.get(), triangleOf(Want, Cm, N, Ld, CUBLAS_FILL_MODE_UPPER),
               "herk");
    ASSERT_EQ(Her2kFn(H, CUBLAS_FILL_MODE_LOWER, Tr, N, K, &Alpha, Ad.P, Ld,
                      Bd.P, Ld, &BetaR, C2.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> One = product<T>(Tr, Other, N, N, K, toC(Alpha), Am, Ld, Bm,
                                     Ld, BetaR, RealDiag(Cstart), Ld);
    std::vector<cd> Two = RealDiag(product<T>(
        Tr, Other, N, N, K, std::conj(toC(Alpha)), Bm, Ld, Am, Ld, 1, One, Ld));
    expectNear(C2.get(), triangleOf(Two, Cm, N, Ld, CUBLAS_FILL_MODE_LOWER),
               "her2k");
    ASSERT_EQ(HerkxFn(H, CUBLAS_FILL_MODE_LOWER, Tr, N, K, &Alpha, Ad.P, Ld,
                      Bd.P, Ld, &BetaR, C3.P, Ld),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> X = RealDiag(product<T>(Tr, Other, N, N, K, toC(Alpha), Am,
                                            Ld, Bm, Ld, BetaR, Cstart, Ld));
    expectNear(C3.get(), triangleOf(X, Cm, N, Ld, CUBLAS_FILL_MODE_LOWER),
               "herkx");
    // The Hermitian forms take N and C only.
    EXPECT_EQ(HerkFn(H, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, N, K, &AlphaR,
                     Ad.P, Ld, &BetaR, Cd.P, Ld),
              CUBLAS_STATUS_INVALID_VALUE);
  }
}

TEST(CublasLevel3, HermitianRankK) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  checkHermitianRankK<cuComplex, float>(H, cublasCherk_v2, cublasCher2k_v2,
                                        cublasCherkx);
  checkHermitianRankK<cuDoubleComplex, double>(
      H, cublasZherk_v2_64, cublasZher2k_v2_64, cublasZherkx_64);
  cublasDestroy(H);
}

TEST(CublasLevel3, ComplexGemmForms) {
  // Cgemm3m, CgemmEx and GemmEx with complex types are the complex product;
  // the 64-bit forms too.
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  const int M = 3, N = 2, K = 4;
  std::vector<cuComplex> Ah = random<cuComplex>(M * K, 30),
                         Bh = random<cuComplex>(K * N, 31),
                         Ch = random<cuComplex>(M * N, 32);
  cuComplex Alpha{1, -1}, Beta{0.5f, 0};
  std::vector<cd> Want =
      product<cuComplex>(CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, toC(Alpha), toC(Ah),
                         M, toC(Bh), K, toC(Beta), toC(Ch), M);
  Dev<cuComplex> Ad(Ah), Bd(Bh);
  {
    Dev<cuComplex> Cd(Ch);
    ASSERT_EQ(cublasCgemm3m(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha, Ad.P,
                            M, Bd.P, K, &Beta, Cd.P, M),
              CUBLAS_STATUS_SUCCESS);
    expectNear(Cd.get(), Want, "Cgemm3m");
  }
  {
    Dev<cuComplex> Cd(Ch);
    ASSERT_EQ(cublasCgemmEx_64(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha,
                               Ad.P, CUDA_C_32F, M, Bd.P, CUDA_C_32F, K, &Beta,
                               Cd.P, CUDA_C_32F, M),
              CUBLAS_STATUS_SUCCESS);
    expectNear(Cd.get(), Want, "CgemmEx_64");
    EXPECT_EQ(cublasCgemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha, Ad.P,
                            CUDA_C_8I, M, Bd.P, CUDA_C_8I, K, &Beta, Cd.P,
                            CUDA_C_32F, M),
              CUBLAS_STATUS_NOT_SUPPORTED);
  }
  {
    Dev<cuComplex> Cd(Ch);
    ASSERT_EQ(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha, Ad.P,
                           CUDA_C_32F, M, Bd.P, CUDA_C_32F, K, &Beta, Cd.P,
                           CUDA_C_32F, M, CUBLAS_COMPUTE_32F,
                           CUBLAS_GEMM_DEFAULT),
              CUBLAS_STATUS_SUCCESS);
    expectNear(Cd.get(), Want, "GemmEx C32");
    EXPECT_EQ(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha, Ad.P,
                           CUDA_C_32F, M, Bd.P, CUDA_C_32F, K, &Beta, Cd.P,
                           CUDA_C_32F, M, CUBLAS_COMPUTE_64F,
                           CUBLAS_GEMM_DEFAULT),
              CUBLAS_STATUS_NOT_SUPPORTED);
  }
  { // pointer-array batches
    Dev<cuComplex> Cd(Ch);
    std::vector<const cuComplex *> Ap = {Ad.P}, Bp = {Bd.P};
    std::vector<cuComplex *> Cp = {Cd.P};
    Dev<const cuComplex *> Apd(Ap), Bpd(Bp);
    Dev<cuComplex *> Cpd(Cp);
    ASSERT_EQ(cublasCgemmBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha,
                                 Apd.P, M, Bpd.P, K, &Beta, Cpd.P, M, 1),
              CUBLAS_STATUS_SUCCESS);
    expectNear(Cd.get(), Want, "CgemmBatched");
  }
  cublasDestroy(H);
}

TEST(CublasLevel3, GroupedGemm) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  // Two groups: one 2x2x2 product, then two 3x1x2 products with op(A) = T.
  std::vector<float> Ah = random<float>(6, 40), Bh = random<float>(4, 41),
                     A2 = random<float>(6, 42), B2 = random<float>(2, 43),
                     A3 = random<float>(6, 44), B3 = random<float>(2, 45);
  Dev<float> A1d(Ah), B1d(Bh), A2d(A2), B2d(B2), A3d(A3), B3d(B3),
      C1(std::vector<float>(4, 1)), C2(std::vector<float>(3, 1)),
      C3(std::vector<float>(3, 1));
  std::vector<const float *> As = {A1d.P, A2d.P, A3d.P},
                             Bs = {B1d.P, B2d.P, B3d.P};
  std::vector<float *> Cs = {C1.P, C2.P, C3.P};
  Dev<const float *> Asd(As), Bsd(Bs);
  Dev<float *> Csd(Cs);
  cublasOperation_t TA[] = {CUBLAS_OP_N, CUBLAS_OP_T},
                    TB[] = {CUBLAS_OP_N, CUBLAS_OP_N};
  int Ms[] = {2, 3}, Ns[] = {2, 1}, Ks[] = {2, 2}, Lda[] = {2, 2},
      Ldb[] = {2, 2}, Ldc[] = {2, 3}, Sizes[] = {1, 2};
  float Alphas[] = {1, 2}, Betas[] = {0, 1};
  ASSERT_EQ(cublasSgemmGroupedBatched(H, TA, TB, Ms, Ns, Ks, Alphas, Asd.P, Lda,
                                      Bsd.P, Ldb, Betas, Csd.P, Ldc, 2, Sizes),
            CUBLAS_STATUS_SUCCESS);
  expectNear(C1.get(),
             product<float>(CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, 1, toC(Ah), 2,
                            toC(Bh), 2, 0, std::vector<cd>(4, 1), 2),
             "group 0");
  expectNear(C3.get(),
             product<float>(CUBLAS_OP_T, CUBLAS_OP_N, 3, 1, 2, 2, toC(A3), 2,
                            toC(B3), 2, 1, std::vector<cd>(3, 1), 3),
             "group 1, second product");
  // The Ex form with the same f32 problem.
  Dev<float> C4(std::vector<float>(4, 1));
  std::vector<float *> Cs4 = {C4.P};
  Dev<float *> Cs4d(Cs4);
  int One[] = {1};
  ASSERT_EQ(cublasGemmGroupedBatchedEx(
                H, TA, TB, Ms, Ns, Ks, Alphas,
                reinterpret_cast<const void *const *>(Asd.P), CUDA_R_32F, Lda,
                reinterpret_cast<const void *const *>(Bsd.P), CUDA_R_32F, Ldb,
                Betas, reinterpret_cast<void *const *>(Cs4d.P), CUDA_R_32F, Ldc,
                1, One, CUBLAS_COMPUTE_32F),
            CUBLAS_STATUS_SUCCESS);
  expectNear(toC(C4.get()), toC(C1.get()), 1e-6, "GemmGroupedBatchedEx");
  int Bad[] = {-1, 1};
  EXPECT_EQ(cublasSgemmGroupedBatched(H, TA, TB, Ms, Ns, Ks, Alphas, Asd.P, Lda,
                                      Bsd.P, Ldb, Betas, Csd.P, Ldc, 2, Bad),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasDestroy(H);
}

// --- batched factorizations --------------------------------------------------

/// A device array of the matrices' addresses.
template <typename T> struct PtrArray {
  std::vector<T *> Host;
  Dev<T *> *D = nullptr;
  explicit PtrArray(std::vector<T *> P) : Host(std::move(P)) {
    D = new Dev<T *>(Host);
  }
  ~PtrArray() { delete D; }
  T **get() const { return D->P; }
};

/// A diagonally dominant N x N matrix (LU without pivoting works on it).
template <typename T> std::vector<T> dominant(int N, int Ld, unsigned Seed) {
  std::vector<T> A = random<T>(Ld * N, Seed);
  for (int I = 0; I < N; ++I)
    A[I * Ld + I] = fromC<T>(toC(A[I * Ld + I]) + cd(N + 1.0));
  return A;
}

TYPED_TEST(CublasTyped, BatchedLu) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int N = 4, Ld = 5, Nrhs = 2, Batch = 2;
  std::vector<std::vector<T>> Mats = {random<T>(Ld * N, 50),
                                      dominant<T>(N, Ld, 51)};
  std::vector<Dev<T> *> Ds;
  for (auto &M : Mats)
    Ds.push_back(new Dev<T>(M));
  PtrArray<T> Arr({Ds[0]->P, Ds[1]->P});
  Dev<int> Piv(std::vector<int>(N * Batch)), Info(std::vector<int>(Batch, 7));
  ASSERT_EQ(A::getrf(H, N, Arr.get(), Ld, Piv.P, Info.P, Batch),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Info.get(), (std::vector<int>{0, 0}));
  // getrs: A X = B, checked by multiplying back.
  std::vector<std::vector<T>> Rhs = {random<T>(Ld * Nrhs, 52),
                                     random<T>(Ld * Nrhs, 53)};
  Dev<T> B0(Rhs[0]), B1(Rhs[1]);
  PtrArray<T> Barr({B0.P, B1.P});
  int HostInfo = 5;
  ASSERT_EQ(A::getrs(H, CUBLAS_OP_N, N, Nrhs, Arr.get(), Ld, Piv.P, Barr.get(),
                     Ld, &HostInfo, Batch),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(HostInfo, 0);
  std::vector<T> X0 = B0.get(), X1 = B1.get();
  for (int Bt = 0; Bt < Batch; ++Bt) {
    std::vector<cd> Ax =
        product<T>(CUBLAS_OP_N, CUBLAS_OP_N, N, Nrhs, N, 1, toC(Mats[Bt]), Ld,
                   toC(Bt ? X1 : X0), Ld, 0, toC(Rhs[Bt]), Ld);
    expectNear(Ax, toC(Rhs[Bt]), tol<T>() * 20, "getrs A X = B");
  }
  // getri: inv(A) A = I, out of place.
  Dev<T> Inv0(std::vector<T>(Ld * N)), Inv1(std::vector<T>(Ld * N));
  PtrArray<T> Carr({Inv0.P, Inv1.P});
  ASSERT_EQ(A::getri(H, N, const_cast<const T **>(Arr.get()), Ld, Piv.P,
                     Carr.get(), Ld, Info.P, Batch),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Info.get(), (std::vector<int>{0, 0}));
  std::vector<cd> Eye(Ld * N);
  for (int I = 0; I < N; ++I)
    Eye[I * Ld + I] = 1;
  for (int Bt = 0; Bt < Batch; ++Bt) {
    std::vector<cd> P = product<T>(CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, 1,
                                   toC((Bt ? Inv1 : Inv0).get()), Ld,
                                   toC(Mats[Bt]), Ld, 0, Eye, Ld);
    expectNear(P, Eye, tol<T>() * 50, "getri inv(A) A");
  }
  // No pivoting (a null pivot array) on the diagonally dominant matrix,
  // then getri without pivots.
  Dev<T> D2(Mats[1]), Inv2(std::vector<T>(Ld * N));
  PtrArray<T> One({D2.P}), OneInv({Inv2.P});
  ASSERT_EQ(A::getrf(H, N, One.get(), Ld, nullptr, Info.P, 1),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(A::getri(H, N, const_cast<const T **>(One.get()), Ld, nullptr,
                     OneInv.get(), Ld, Info.P, 1),
            CUBLAS_STATUS_SUCCESS);
  std::vector<cd> P =
      product<T>(CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, 1, toC(Inv2.get()), Ld,
                 toC(Mats[1]), Ld, 0, Eye, Ld);
  expectNear(P, Eye, tol<T>() * 50, "getrf/getri without pivoting");
  // A singular matrix: info names the zero pivot.
  std::vector<T> Sing(Ld * N);
  Sing[0] = fromC<T>(1);
  Dev<T> Sd(Sing);
  PtrArray<T> SArr({Sd.P});
  ASSERT_EQ(A::getrf(H, N, SArr.get(), Ld, Piv.P, Info.P, 1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Info.get()[0], 2);
  // matinv: the inverse in one call; n > 32 is refused.
  Dev<T> Inv3(std::vector<T>(Ld * N));
  PtrArray<T> MInv({Inv3.P});
  Dev<T> Orig(Mats[0]);
  PtrArray<T> OArr({Orig.P});
  ASSERT_EQ(A::matinv(H, N, const_cast<const T **>(OArr.get()), Ld, MInv.get(),
                      Ld, Info.P, 1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Info.get()[0], 0);
  P = product<T>(CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, 1, toC(Inv3.get()), Ld,
                 toC(Mats[0]), Ld, 0, Eye, Ld);
  expectNear(P, Eye, tol<T>() * 50, "matinv");
  EXPECT_EQ(A::matinv(H, 33, const_cast<const T **>(OArr.get()), 33, MInv.get(),
                      33, Info.P, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  // getrs reports an invalid argument by its position.
  EXPECT_EQ(A::getrs(H, CUBLAS_OP_N, -1, Nrhs, Arr.get(), Ld, Piv.P, Barr.get(),
                     Ld, &HostInfo, Batch),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(HostInfo, -3);
  EXPECT_EQ(A::getrf(H, N, Arr.get(), N - 1, Piv.P, Info.P, Batch),
            CUBLAS_STATUS_INVALID_VALUE);
  for (Dev<T> *D : Ds)
    delete D;
}

TYPED_TEST(CublasTyped, BatchedQrAndLeastSquares) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int M = 6, N = 3, Ld = 7, Nrhs = 2;
  std::vector<T> Ah = random<T>(Ld * N, 60), Ch = random<T>(Ld * Nrhs, 61);
  std::vector<cd> Am = toC(Ah), Cm = toC(Ch);
  { // geqrf: A^H A = R^H R (Q has orthonormal columns)
    Dev<T> Ad(Ah), Tau{std::vector<T>(N)};
    PtrArray<T> Arr({Ad.P}), TauArr({Tau.P});
    int Info = 9;
    ASSERT_EQ(A::geqrf(H, M, N, Arr.get(), Ld, TauArr.get(), &Info, 1),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(Info, 0);
    std::vector<cd> Rm = toC(Ad.get());
    for (int J = 0; J < N; ++J)
      for (int I = J + 1; I < Ld; ++I)
        Rm[J * Ld + I] = 0;
    std::vector<cd> Zero(N * N);
    expectNear(product<T>(CUBLAS_OP_C, CUBLAS_OP_N, N, N, N, 1, Rm, Ld, Rm, Ld,
                          0, Zero, N),
               product<T>(CUBLAS_OP_C, CUBLAS_OP_N, N, N, M, 1, Am, Ld, Am, Ld,
                          0, Zero, N),
               tol<T>() * 20, "geqrf R^H R = A^H A");
    EXPECT_EQ(A::geqrf(H, M, N, Arr.get(), M - 1, TauArr.get(), &Info, 1),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(Info, -5);
  }
  { // gels: the residual is orthogonal to A's columns
    Dev<T> Ad(Ah), Cd(Ch);
    Dev<int> DevInfo(std::vector<int>{5});
    PtrArray<T> Arr({Ad.P}), CArr({Cd.P});
    int Info = 9;
    ASSERT_EQ(A::gels(H, CUBLAS_OP_N, M, N, Nrhs, Arr.get(), Ld, CArr.get(), Ld,
                      &Info, DevInfo.P, 1),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(Info, 0);
    EXPECT_EQ(DevInfo.get()[0], 0);
    std::vector<cd> X = toC(Cd.get());
    std::vector<cd> Resid = product<T>(CUBLAS_OP_N, CUBLAS_OP_N, M, Nrhs, N, 1,
                                       Am, Ld, X, Ld, -1, Cm, Ld);
    std::vector<cd> Zero(N * Nrhs);
    expectNear(product<T>(CUBLAS_OP_C, CUBLAS_OP_N, N, Nrhs, M, 1, Am, Ld,
                          Resid, Ld, 0, Zero, N),
               Zero, tol<T>() * 20, "gels normal equations");
    EXPECT_EQ(A::gels(H, CUBLAS_OP_N, N, M, Nrhs, Arr.get(), Ld, CArr.get(), Ld,
                      &Info, DevInfo.P, 1),
              CUBLAS_STATUS_NOT_SUPPORTED);
    EXPECT_EQ(A::gels(H, CUBLAS_OP_T, M, N, Nrhs, Arr.get(), Ld, CArr.get(), Ld,
                      &Info, DevInfo.P, 1),
              CUBLAS_STATUS_NOT_SUPPORTED);
  }
}

TYPED_TEST(CublasTyped, BatchedTrsmAndGemv) {
  using T = TypeParam;
  using A = Api<T>;
  cublasHandle_t H = this->H;
  const int M = 4, N = 3, Ld = 5;
  T Alpha = this->scalar(2, -1), Beta = this->scalar(0.5, 0.5);
  { // trsmBatched: op(T) X = alpha B on the right side
    std::vector<T> Th = triangle<T>(N, Ld, 70), Bh = random<T>(Ld * N, 71);
    Dev<T> Td(Th), Bd(Bh);
    PtrArray<T> TArr({Td.P}), BArr({Bd.P});
    ASSERT_EQ(A::trsmBatched(H, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER,
                             CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, M, N, &Alpha,
                             const_cast<const T **>(TArr.get()), Ld, BArr.get(),
                             Ld, 1),
              CUBLAS_STATUS_SUCCESS);
    std::vector<cd> Tm = toC(Th);
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < J; ++I)
        Tm[J * Ld + I] = 0;
    std::vector<cd> XT = product<T>(CUBLAS_OP_N, CUBLAS_OP_T, M, N, N, 1,
                                    toC(Bd.get()), Ld, Tm, Ld, 0, toC(Bh), Ld);
    std::vector<cd> Want = toC(Bh);
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < M; ++I)
        Want[J * Ld + I] *= toC(Alpha);
    expectNear(XT, Want, tol<T>() * 10, "trsmBatched");
  }
  // gemvBatched and gemvStridedBatched over two entries.
  std::vector<T> Ah = random<T>(2 * Ld * N, 72), Xh = random<T>(2 * N, 73),
                 Yh = random<T>(2 * M, 74);
  std::vector<cd> Am = toC(Ah), X = toC(Xh), Y = toC(Yh);
  std::vector<cd> Want = Y;
  for (int Bt = 0; Bt < 2; ++Bt)
    for (int I = 0; I < M; ++I) {
      cd Sum = 0;
      for (int J = 0; J < N; ++J)
        Sum += Am[Bt * Ld * N + J * Ld + I] * X[Bt * N + J];
      Want[Bt * M + I] = toC(Alpha) * Sum + toC(Beta) * Y[Bt * M + I];
    }
  {
    Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
    ASSERT_EQ(A::gemvStrided(H, CUBLAS_OP_N, M, N, &Alpha, Ad.P, Ld, Ld * N,
                             Xd.P, 1, N, &Beta, Yd.P, 1, M, 2),
              CUBLAS_STATUS_SUCCESS);
    expectNear(Yd.get(), Want, "gemvStridedBatched");
  }
  {
    Dev<T> Ad(Ah), Xd(Xh), Yd(Yh);
    PtrArray<T> AArr({Ad.P, Ad.P + Ld * N}), XArr({Xd.P, Xd.P + N}),
        YArr({Yd.P, Yd.P + M});
    ASSERT_EQ(A::gemvBatched(H, CUBLAS_OP_N, M, N, &Alpha,
                             const_cast<const T **>(AArr.get()), Ld,
                             const_cast<const T **>(XArr.get()), 1, &Beta,
                             YArr.get(), 1, 2),
              CUBLAS_STATUS_SUCCESS);
    expectNear(Yd.get(), Want, "gemvBatched");
    EXPECT_EQ(A::gemvBatched(H, CUBLAS_OP_N, M, N, &Alpha,
                             const_cast<const T **>(AArr.get()), Ld,
                             const_cast<const T **>(XArr.get()), 1, &Beta,
                             YArr.get(), 1, -1),
              CUBLAS_STATUS_INVALID_VALUE);
  }
}

TEST(CublasBatched, MixedPrecisionGemv) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  const int M = 3, N = 2;
  std::vector<float> Af = {1, 2, 3, -1, 0.5f, 2}, Xf = {2, -1}, Yf = {1, 1, 1};
  std::vector<__half> Ah, Xh, Yh;
  std::vector<__nv_bfloat16> Ab, Xb;
  for (float V : Af) {
    Ah.push_back(__float2half(V));
    Ab.push_back(__float2bfloat16(V));
  }
  for (float V : Xf) {
    Xh.push_back(__float2half(V));
    Xb.push_back(__float2bfloat16(V));
  }
  for (float V : Yf)
    Yh.push_back(__float2half(V));
  float Alpha = 2, Beta = 3;
  std::vector<float> Want(M);
  for (int I = 0; I < M; ++I)
    Want[I] = Alpha * (Af[I] * Xf[0] + Af[3 + I] * Xf[1]) + Beta * Yf[I];
  { // HSH: f16 in and out
    Dev<__half> Ad(Ah), Xd(Xh), Yd(Yh);
    ASSERT_EQ(cublasHSHgemvStridedBatched(H, CUBLAS_OP_N, M, N, &Alpha, Ad.P, M,
                                          0, Xd.P, 1, 0, &Beta, Yd.P, 1, 0, 1),
              CUBLAS_STATUS_SUCCESS);
    std::vector<__half> Got = Yd.get();
    for (int I = 0; I < M; ++I)
      EXPECT_EQ(__half2float(Got[I]), Want[I]);
  }
  { // TSS: bf16 in, f32 out, pointer arrays
    Dev<__nv_bfloat16> Ad(Ab), Xd(Xb);
    Dev<float> Yd(Yf);
    std::vector<const __nv_bfloat16 *> Ap = {Ad.P}, Xp = {Xd.P};
    std::vector<float *> Yp = {Yd.P};
    Dev<const __nv_bfloat16 *> Apd(Ap), Xpd(Xp);
    Dev<float *> Ypd(Yp);
    ASSERT_EQ(cublasTSSgemvBatched(H, CUBLAS_OP_N, M, N, &Alpha, Apd.P, M,
                                   Xpd.P, 1, &Beta, Ypd.P, 1, 1),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(Yd.get(), Want);
  }
  cublasDestroy(H);
}

// --- Ex forms ----------------------------------------------------------------

TEST(CublasEx, StandardTypes) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  std::vector<cuComplex> Xh = {{1, 2}, {-3, 0.5f}, {0, -1}},
                         Yh = {{2, 0}, {1, 1}, {-1, 2}};
  std::vector<cd> X = toC(Xh), Y = toC(Yh);
  Dev<cuComplex> Xd(Xh), Yd(Yh);
  cuComplex R;
  ASSERT_EQ(cublasDotcEx(H, 3, Xd.P, CUDA_C_32F, 1, Yd.P, CUDA_C_32F, 1, &R,
                         CUDA_C_32F, CUDA_C_32F),
            CUBLAS_STATUS_SUCCESS);
  cd Want = 0, WantU = 0;
  for (int I = 0; I < 3; ++I) {
    Want += std::conj(X[I]) * Y[I];
    WantU += X[I] * Y[I];
  }
  expectNear(toC(R), Want, 2e-5, "DotcEx");
  ASSERT_EQ(cublasDotEx(H, 3, Xd.P, CUDA_C_32F, 1, Yd.P, CUDA_C_32F, 1, &R,
                        CUDA_C_32F, CUDA_C_32F),
            CUBLAS_STATUS_SUCCESS);
  expectNear(toC(R), WantU, 2e-5, "DotEx complex");
  float Asum = 0, Nrm = 0;
  ASSERT_EQ(
      cublasAsumEx(H, 3, Xd.P, CUDA_C_32F, 1, &Asum, CUDA_R_32F, CUDA_R_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_NEAR(Asum, 3 + 3.5 + 1, 1e-5);
  ASSERT_EQ(
      cublasNrm2Ex(H, 3, Xd.P, CUDA_C_32F, 1, &Nrm, CUDA_R_32F, CUDA_R_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_NEAR(Nrm, std::sqrt(5 + 9.25 + 1), 1e-5);
  int64_t Imax = 0;
  int Imin = 0;
  ASSERT_EQ(cublasIamaxEx_64(H, 3, Xd.P, CUDA_C_32F, 1, &Imax),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasIaminEx(H, 3, Xd.P, CUDA_C_32F, 1, &Imin),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Imax, 2);
  EXPECT_EQ(Imin, 3);
  cuComplex Alpha{0, 1};
  ASSERT_EQ(cublasAxpyEx(H, 3, &Alpha, CUDA_C_32F, Xd.P, CUDA_C_32F, 1, Yd.P,
                         CUDA_C_32F, 1, CUDA_C_32F),
            CUBLAS_STATUS_SUCCESS);
  std::vector<cd> WantY = Y;
  for (int I = 0; I < 3; ++I)
    WantY[I] += cd(0, 1) * X[I];
  expectNear(Yd.get(), WantY, "AxpyEx complex");
  float Half = 0.5f;
  ASSERT_EQ(
      cublasScalEx(H, 3, &Half, CUDA_R_32F, Yd.P, CUDA_C_32F, 1, CUDA_C_32F),
      CUBLAS_STATUS_SUCCESS);
  for (cd &V : WantY)
    V *= 0.5;
  expectNear(Yd.get(), WantY, "ScalEx real alpha, complex x");
  // RotEx with real c and s on double vectors.
  std::vector<double> Dx = {1, 2}, Dy = {3, 4};
  Dev<double> Dxd(Dx), Dyd(Dy);
  double C = 0, S = 1;
  ASSERT_EQ(cublasRotEx(H, 2, Dxd.P, CUDA_R_64F, 1, Dyd.P, CUDA_R_64F, 1, &C,
                        &S, CUDA_R_64F, CUDA_R_64F),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Dxd.get(), (std::vector<double>{3, 4}));
  EXPECT_EQ(Dyd.get(), (std::vector<double>{-1, -2}));
  // CopyEx and SwapEx move 16-bit elements too.
  std::vector<__half> Hx = {__float2half(1), __float2half(2)},
                      Hy = {__float2half(0), __float2half(0)};
  Dev<__half> Hxd(Hx), Hyd(Hy);
  ASSERT_EQ(cublasCopyEx(H, 2, Hxd.P, CUDA_R_16F, 1, Hyd.P, CUDA_R_16F, -1),
            CUBLAS_STATUS_SUCCESS);
  std::vector<__half> Got = Hyd.get();
  EXPECT_EQ(__half2float(Got[0]), 2);
  EXPECT_EQ(__half2float(Got[1]), 1);
  // Types that name nothing, and combinations not done.
  EXPECT_EQ(cublasAsumEx(H, 3, Xd.P, static_cast<cudaDataType>(77), 1, &Asum,
                         CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(
      cublasAsumEx(H, 3, Xd.P, CUDA_C_32F, 1, &Asum, CUDA_R_64F, CUDA_R_64F),
      CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(cublasCopyEx(H, 2, Hxd.P, CUDA_R_16F, 1, Hyd.P, CUDA_R_32F, 1),
            CUBLAS_STATUS_NOT_SUPPORTED);
  cublasDestroy(H);
}

// --- cublasXt ----------------------------------------------------------------

TEST(CublasXt, HostMemoryProducts) {
  cublasXtHandle_t X;
  ASSERT_EQ(cublasXtCreate(&X), CUBLAS_STATUS_SUCCESS);
  int Devices[] = {0}, Bad[] = {7}, Dim = 0;
  EXPECT_EQ(cublasXtDeviceSelect(X, 1, Devices), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasXtDeviceSelect(X, 1, Bad), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasXtSetBlockDim(X, 256), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasXtGetBlockDim(X, &Dim), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Dim, 256);
  // Operands in ordinary host memory; the call returns with C written.
  const int M = 3, N = 4, K = 2;
  std::vector<double> A = random<double>(M * K, 80),
                      B = random<double>(K * N, 81),
                      C = random<double>(M * N, 82);
  std::vector<cd> Want = product<double>(CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, 2,
                                         toC(A), M, toC(B), K, -1, toC(C), M);
  double Alpha = 2, Beta = -1;
  ASSERT_EQ(cublasXtDgemm(X, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &Alpha,
                          A.data(), M, B.data(), K, &Beta, C.data(), M),
            CUBLAS_STATUS_SUCCESS);
  expectNear(toC(C), Want, 1e-12, "cublasXtDgemm");
  // spmm: the symmetric matrix packed (lower), on the left.
  std::vector<cuComplex> Full = random<cuComplex>(M * M, 83),
                         Bc = random<cuComplex>(M * N, 84),
                         Cc = random<cuComplex>(M * N, 85), Packed;
  for (cd V : pack(toC(Full), M, M, CUBLAS_FILL_MODE_LOWER))
    Packed.push_back(fromC<cuComplex>(V));
  cuComplex Ca{1, 1}, Cb{0, 0};
  std::vector<cd> WantC = product<cuComplex>(
      CUBLAS_OP_N, CUBLAS_OP_N, M, N, M, toC(Ca),
      fullSymmetric<cuComplex>(toC(Full), M, M, CUBLAS_FILL_MODE_LOWER, false),
      M, toC(Bc), M, 0, toC(Cc), M);
  ASSERT_EQ(cublasXtCspmm(X, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, M, N,
                          &Ca, Packed.data(), Bc.data(), M, &Cb, Cc.data(), M),
            CUBLAS_STATUS_SUCCESS);
  expectNear(Cc, WantC, "cublasXtCspmm");
  EXPECT_EQ(cublasXtSgemm(X, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, nullptr,
                          nullptr, 2, nullptr, 2, nullptr, nullptr, 2),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasXtDestroy(X), CUBLAS_STATUS_SUCCESS);
}

// --- handle settings, streams, exports ---------------------------------------

} // namespace

// Undocumented (no header declares them); libcusolver calls them.
extern "C" cublasStatus_t cublasSetEnvironmentMode(cublasHandle_t, int);
extern "C" cublasStatus_t cublasGetEnvironmentMode(cublasHandle_t, int *);

namespace {

TEST(CublasHandle, SettingsLibrariesUse) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  int Mode = -1;
  EXPECT_EQ(cublasGetEnvironmentMode(H, &Mode), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Mode, 0);
  EXPECT_EQ(cublasSetEnvironmentMode(H, 1), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasGetEnvironmentMode(H, &Mode), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Mode, 1);
  EXPECT_EQ(cublasSetEnvironmentMode(H, 2), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasGetEnvironmentMode(H, nullptr), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasSetEnvironmentMode(nullptr, 0),
            CUBLAS_STATUS_NOT_INITIALIZED);
  cublasEmulationStrategy_t St;
  EXPECT_EQ(cublasSetEmulationStrategy(H, CUBLAS_EMULATION_STRATEGY_EAGER),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasGetEmulationStrategy(H, &St), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(St, CUBLAS_EMULATION_STRATEGY_EAGER);
  EXPECT_EQ(
      cublasSetEmulationStrategy(H, static_cast<cublasEmulationStrategy_t>(3)),
      CUBLAS_STATUS_INVALID_VALUE);
  int Bits = -1;
  EXPECT_EQ(cublasSetFixedPointEmulationMaxMantissaBitCount(H, 40),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasGetFixedPointEmulationMaxMantissaBitCount(H, &Bits),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Bits, 40);
  EXPECT_EQ(cublasSetFixedPointEmulationMaxMantissaBitCount(H, -1),
            CUBLAS_STATUS_INVALID_VALUE);
  cudaEmulationMantissaControl Ctl;
  EXPECT_EQ(cublasGetFixedPointEmulationMantissaControl(H, &Ctl),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Ctl, CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC);
  cudaEmulationSpecialValuesSupport Mask;
  EXPECT_EQ(cublasGetEmulationSpecialValuesSupport(H, &Mask),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Mask, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT);
  cublasDestroy(H);
}

TEST(CublasStreams, OrderAndCapture) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  ASSERT_EQ(cublasSetStream(H, S), CUBLAS_STATUS_SUCCESS);
  // A copy after an async upload on the handle's stream sees the upload;
  // the download after it sees the copy.
  std::vector<cuDoubleComplex> In = {{1, 2}, {3, 4}, {5, 6}}, Out(3);
  cuDoubleComplex *X, *Y;
  cudaMalloc(reinterpret_cast<void **>(&X), 3 * sizeof(cuDoubleComplex));
  cudaMalloc(reinterpret_cast<void **>(&Y), 3 * sizeof(cuDoubleComplex));
  cudaMemsetAsync(Y, 0, 3 * sizeof(cuDoubleComplex), S);
  cudaMemcpyAsync(X, In.data(), 3 * sizeof(cuDoubleComplex),
                  cudaMemcpyHostToDevice, S);
  ASSERT_EQ(cublasZcopy(H, 3, X, 1, Y, 1), CUBLAS_STATUS_SUCCESS);
  cudaMemcpyAsync(Out.data(), Y, 3 * sizeof(cuDoubleComplex),
                  cudaMemcpyDeviceToHost, S);
  cudaStreamSynchronize(S);
  for (int I = 0; I < 3; ++I) {
    EXPECT_EQ(Out[I].x, In[I].x);
    EXPECT_EQ(Out[I].y, In[I].y);
  }
  // Captured into a graph, the routine runs at each launch.
  cudaGraph_t G;
  cudaGraphExec_t E;
  cuDoubleComplex Alpha{1, 0};
  ASSERT_EQ(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal),
            cudaSuccess);
  ASSERT_EQ(cublasZaxpy(H, 3, &Alpha, X, 1, Y, 1), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cudaStreamEndCapture(S, &G), cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&E, G, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(E, S), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(E, S), cudaSuccess);
  cudaMemcpyAsync(Out.data(), Y, 3 * sizeof(cuDoubleComplex),
                  cudaMemcpyDeviceToHost, S);
  cudaStreamSynchronize(S);
  for (int I = 0; I < 3; ++I) {
    EXPECT_EQ(Out[I].x, 3 * In[I].x);
    EXPECT_EQ(Out[I].y, 3 * In[I].y);
  }
  cudaGraphExecDestroy(E);
  cudaGraphDestroy(G);
  cudaFree(X);
  cudaFree(Y);
  cublasDestroy(H);
  cudaStreamDestroy(S);
}

TEST(CublasHipBackend, TypedRoutinesAnswerNotSupported) {
  if (!onHipBackendOrRerun(STANDIN_HIP_PATH, "CublasHipBackend.*",
                           "CUHIP_ROCBLAS_LIBRARY=/nonexistent"))
    return;
  // On the HIP backend: the typed routines are not forwarded and say so;
  // the handle's settings still work.
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  cuDoubleComplex *X = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&X), 64), cudaSuccess);
  EXPECT_EQ(cublasZcopy(H, 2, X, 1, X + 2, 1), CUBLAS_STATUS_NOT_SUPPORTED);
  cuDoubleComplex One{1, 0};
  EXPECT_EQ(cublasZgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &One, X, 1, X,
                        1, &One, X, 1),
            CUBLAS_STATUS_NOT_SUPPORTED);
  // Argument checks come first.
  EXPECT_EQ(cublasZcopy(nullptr, 2, X, 1, X, 1),
            CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(cublasSetEnvironmentMode(H, 1), CUBLAS_STATUS_SUCCESS);
  cudaFree(X);
  cublasDestroy(H);
}

TEST(CublasExports, EveryNameNvidiasLibraryExports) {
  std::string Nvidia = CUHIP_CUDA_PATH "/lib64/libcublas.so.13";
  if (access(Nvidia.c_str(), R_OK) != 0)
    GTEST_SKIP() << Nvidia << " is not installed";
  void *Ours = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(Ours, nullptr) << "cuhip's libcublas.so.13 is not loaded";
  std::vector<std::string> Names = dynamicExports(Nvidia.c_str());
  ASSERT_GT(Names.size(), 700u);
  std::vector<std::string> Missing;
  for (const std::string &Name : Names)
    if (Name[0] != '_' && !dlvsym(Ours, Name.c_str(), "libcublas.so.13"))
      Missing.push_back(Name);
  EXPECT_TRUE(Missing.empty())
      << Missing.size() << " missing, first " << Missing.front();
  // Not an empty look-up: a name NVIDIA's library lacks is not found.
  EXPECT_EQ(dlvsym(Ours, "cublasNoSuchRoutine", "libcublas.so.13"), nullptr);
  dlclose(Ours);
}

TEST(CublasExports, StubsAnswerNotSupported) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasUint8gemmBias(H, CUBLAS_OP_N, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1,
                                1, nullptr, 0, 1, nullptr, 0, 1, nullptr, 0, 1,
                                1, 0),
            CUBLAS_STATUS_NOT_SUPPORTED);
  cublasDestroy(H);
}

} // namespace
