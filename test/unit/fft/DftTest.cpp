//===- DftTest.cpp - libcufft's transforms against a direct DFT -----------===//
//
// The one-dimensional transform (mixed radix and Bluestein) and the batched
// multi-dimensional one (Transform) against a DFT summed directly in long
// double, over lengths that exercise every butterfly, the generic prime
// one, Bluestein's convolution, the real transforms' half spectra, and the
// advanced and basic data layouts.
//
//===----------------------------------------------------------------------===//
#include "Dft.h"
#include "cuhip/runtime/HalfFloat.h"
#include "Transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

using namespace cuhip::fft;

namespace {

using LD = long double;

/// Output K of the DFT of X, summed directly over a table of the roots.
std::complex<LD> directTerm(const std::vector<std::complex<LD>> &X,
                            const std::vector<std::complex<LD>> &Roots,
                            size_t K) {
  size_t N = X.size();
  std::complex<LD> S = 0;
  size_t E = 0; // J * K mod N
  for (size_t J = 0; J < N; ++J) {
    S += X[J] * Roots[E];
    E += K;
    if (E >= N)
      E -= N;
  }
  return S;
}

/// exp(Sign 2 pi i k / N) for k < N, in long double.
std::vector<std::complex<LD>> rootsOf(size_t N, int Sign) {
  const LD Pi = 3.141592653589793238462643383279502884L;
  std::vector<std::complex<LD>> R(N);
  for (size_t K = 0; K < N; ++K) {
    LD A = Sign * 2 * Pi * LD(K) / LD(N);
    R[K] = {std::cos(A), std::sin(A)};
  }
  return R;
}

/// The DFT of X along one dimension of length N, summed directly.
std::vector<std::complex<LD>> directDft(const std::vector<std::complex<LD>> &X,
                                        int Sign) {
  auto Roots = rootsOf(X.size(), Sign);
  std::vector<std::complex<LD>> Y(X.size());
  for (size_t K = 0; K < X.size(); ++K)
    Y[K] = directTerm(X, Roots, K);
  return Y;
}

std::vector<std::complex<LD>> randomSignal(size_t N, unsigned Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<std::complex<LD>> X(N);
  for (auto &V : X)
    V = {U(Gen), U(Gen)};
  return X;
}

/// The largest error a transform of length N may have, relative to the
/// size of its outputs (about sqrt(N) for unit inputs).
template <typename T> LD tolerance(size_t N) {
  LD Eps = sizeof(T) == 4 ? 1.2e-7L : 2.3e-16L;
  return 8 * Eps * std::sqrt(LD(N)) * (std::log2(LD(N)) + 2);
}

/// Checks the transform of length N against the direct sum: every output
/// up to 4096 points, 97 spread over the range beyond.
template <typename T> void checkLength(size_t N, int Sign) {
  Dft F(N);
  auto X = randomSignal(N, unsigned(N * 7 + (Sign > 0)));
  auto Roots = rootsOf(N, Sign);
  std::vector<std::complex<T>> In(N), Out(N), Scratch(F.scratchSize());
  for (size_t I = 0; I < N; ++I)
    In[I] = {T(X[I].real()), T(X[I].imag())};
  auto Before = In;
  F.run<T>(In.data(), Out.data(), Scratch.data(), Sign);
  size_t Step = N <= 4096 ? 1 : N / 97;
  LD Worst = 0;
  for (size_t K = 0; K < N; K += Step)
    Worst = std::max(Worst, std::abs(std::complex<LD>(Out[K].real(), Out[K].imag()) -
                                     directTerm(X, Roots, K)));
  EXPECT_LE(Worst, tolerance<T>(N))
      << "length " << N << (sizeof(T) == 4 ? " float" : " double")
      << (Sign < 0 ? " forward" : " inverse");
  EXPECT_EQ(In, Before) << "the input of length " << N << " was changed";
}

} // namespace

TEST(Dft, EverySmallLength) {
  for (size_t N = 1; N <= 130; ++N) {
    checkLength<float>(N, -1);
    checkLength<double>(N, +1);
  }
}

TEST(Dft, LargerLengths) {
  // Powers of 2 and 3, mixed radices, a generic prime factor (61),
  // and lengths with a large prime factor (Bluestein).
  for (size_t N : {243u, 256u, 1000u, 1024u, 61u * 8u, 2u * 1031u, 1009u,
                   4096u, 65537u}) {
    checkLength<float>(N, -1);
    checkLength<double>(N, -1);
    checkLength<double>(N, +1);
  }
}

TEST(Dft, PlansBluesteinOnlyForLargePrimeFactors) {
  EXPECT_EQ(Dft(1024).radices(), (std::vector<unsigned>{4, 4, 4, 4, 4}));
  EXPECT_EQ(Dft(360).radices(), (std::vector<unsigned>{4, 2, 3, 3, 5}));
  EXPECT_EQ(Dft(2 * 61).radices(), (std::vector<unsigned>{2, 61}));
  EXPECT_TRUE(Dft(67).radices().empty());
  EXPECT_GE(Dft(67).scratchSize(), 2u * 133u);
  EXPECT_EQ(Dft(64).scratchSize(), 0u);
}

namespace {

/// The multi-dimensional DFT of a dense row-major array, one dimension at
/// a time, in long double.
std::vector<std::complex<LD>> directNd(std::vector<std::complex<LD>> X,
                                       const std::vector<int64_t> &N,
                                       int Sign) {
  int64_t Total = X.size();
  for (size_t D = 0; D < N.size(); ++D) {
    int64_t Step = 1;
    for (size_t I = D + 1; I < N.size(); ++I)
      Step *= N[I];
    for (int64_t Line = 0; Line < Total / N[D]; ++Line) {
      int64_t Base = (Line / Step) * N[D] * Step + Line % Step;
      std::vector<std::complex<LD>> V(N[D]);
      for (int64_t I = 0; I < N[D]; ++I)
        V[I] = X[Base + I * Step];
      V = directDft(V, Sign);
      for (int64_t I = 0; I < N[D]; ++I)
        X[Base + I * Step] = V[I];
    }
  }
  return X;
}

int64_t product(const std::vector<int64_t> &V) {
  int64_t P = 1;
  for (int64_t X : V)
    P *= X;
  return P;
}

} // namespace

TEST(Transform, ComplexToComplexBatchedAdvancedLayout) {
  // 2D 6x10 transforms, batch 3, input elements 2 apart in rows of 12, each
  // batch 200 elements apart; output packed.
  TransformDesc D;
  D.K = Kind::C2C;
  D.N = {6, 10};
  D.Batch = 3;
  D.In = D.Out = Elem::C64F;
  D.Advanced = true;
  D.InLayout = {{6, 12}, 2, 200};
  D.OutLayout = {{6, 10}, 1, 60};
  PlanError Error;
  auto T = Transform::create(D, Error);
  ASSERT_TRUE(T) << Error.Message;
  EXPECT_EQ(T->extentBytes(false, false),
            uint64_t(2 * 200 + (5 * 12 + 9) * 2 + 1) * 16);
  std::vector<std::complex<double>> In(600, {99, 99}), Out(180);
  std::vector<std::vector<std::complex<LD>>> Dense(3);
  for (int B = 0; B < 3; ++B) {
    Dense[B] = randomSignal(60, B + 1);
    for (int I = 0; I < 6; ++I)
      for (int J = 0; J < 10; ++J) {
        auto V = Dense[B][I * 10 + J];
        In[B * 200 + (I * 12 + J) * 2] = {double(V.real()), double(V.imag())};
      }
  }
  T->execute(In.data(), Out.data(), +1, 2);
  for (int B = 0; B < 3; ++B) {
    auto Want = directNd(Dense[B], D.N, +1);
    for (int I = 0; I < 60; ++I)
      EXPECT_NEAR(std::abs(std::complex<LD>(Out[B * 60 + I]) - Want[I]), 0, 1e-12)
          << "batch " << B << " element " << I;
  }
}

TEST(Transform, RealToComplexAndBackEveryRank) {
  for (std::vector<int64_t> N : std::vector<std::vector<int64_t>>{
           {1}, {2}, {7}, {16}, {67}, {5, 8}, {4, 9}, {3, 4, 6}, {2, 5, 7}}) {
    int64_t Total = product(N), Half = Total / N.back() * (N.back() / 2 + 1);
    TransformDesc F;
    F.K = Kind::R2C;
    F.N = N;
    F.Batch = 2;
    F.In = Elem::R32F;
    F.Out = Elem::C32F;
    PlanError Error;
    auto Fwd = Transform::create(F, Error);
    ASSERT_TRUE(Fwd) << Error.Message;
    TransformDesc I = F;
    I.K = Kind::C2R;
    I.In = Elem::C32F;
    I.Out = Elem::R32F;
    auto Inv = Transform::create(I, Error);
    ASSERT_TRUE(Inv) << Error.Message;

    std::vector<float> Real(2 * Total);
    std::mt19937 Gen{static_cast<unsigned>(Total)};
    std::uniform_real_distribution<float> U(-1, 1);
    for (float &V : Real)
      V = U(Gen);
    std::vector<std::complex<float>> Spec(2 * Half);
    Fwd->execute(Real.data(), Spec.data(), -1, 1);
    for (int B = 0; B < 2; ++B) {
      std::vector<std::complex<LD>> Dense(Total);
      for (int64_t K = 0; K < Total; ++K)
        Dense[K] = Real[B * Total + K];
      auto Want = directNd(Dense, N, -1);
      int64_t Cols = N.back() / 2 + 1;
      for (int64_t K = 0; K < Half; ++K) {
        int64_t Row = K / Cols, Col = K % Cols;
        auto W = Want[Row * N.back() + Col];
        EXPECT_LE(std::abs(std::complex<LD>(Spec[B * Half + K].real(),
                                            Spec[B * Half + K].imag()) - W),
                  tolerance<float>(Total))
            << "R2C size " << Total << " batch " << B << " element " << K;
      }
    }
    // C2R of the spectrum is the input times the number of elements.
    std::vector<float> Back(2 * Total);
    Inv->execute(Spec.data(), Back.data(), +1, 1);
    for (int64_t K = 0; K < 2 * Total; ++K)
      EXPECT_NEAR(Back[K] / Total, Real[K], 1e-5)
          << "C2R size " << Total << " element " << K;
  }
}

TEST(Transform, ComplexToRealIgnoresTheImaginaryPartsItMust) {
  // A C2R transform reads X[0] and (n even) X[n/2] as real: their
  // imaginary parts change nothing.
  TransformDesc D;
  D.K = Kind::C2R;
  D.N = {8};
  D.In = Elem::C64F;
  D.Out = Elem::R64F;
  PlanError Error;
  auto T = Transform::create(D, Error);
  ASSERT_TRUE(T) << Error.Message;
  std::vector<std::complex<double>> X = {{1, 0}, {2, 1}, {0, -1}, {3, 2}, {-1, 0}};
  std::vector<double> A(8), B(8);
  T->execute(X.data(), A.data(), +1, 1);
  X[0].imag(5);
  X[4].imag(-7);
  T->execute(X.data(), B.data(), +1, 1);
  EXPECT_EQ(A, B);
  // And the result is the inverse of the Hermitian array X completes.
  std::vector<std::complex<LD>> Full(8);
  for (int K = 0; K < 5; ++K)
    Full[K] = {X[K].real(), K == 0 || K == 4 ? 0 : X[K].imag()};
  for (int K = 5; K < 8; ++K)
    Full[K] = std::conj(Full[8 - K]);
  auto Want = directDft(Full, +1);
  for (int K = 0; K < 8; ++K)
    EXPECT_NEAR(A[K], double(Want[K].real()), 1e-12) << K;
}

TEST(Transform, InPlaceBasicLayoutPadsRealRows) {
  // In place, a 2D R2C transform's real rows are 2 * (n/2 + 1) elements.
  TransformDesc D;
  D.K = Kind::R2C;
  D.N = {3, 6};
  D.In = Elem::R32F;
  D.Out = Elem::C32F;
  PlanError Error;
  auto T = Transform::create(D, Error);
  ASSERT_TRUE(T) << Error.Message;
  EXPECT_EQ(T->layout(false, true).Embed, (std::vector<int64_t>{3, 8}));
  EXPECT_EQ(T->layout(false, false).Embed, (std::vector<int64_t>{3, 6}));
  std::vector<float> Buf(3 * 8, -100); // padding poisoned
  std::vector<std::complex<LD>> Dense(18);
  for (int R = 0; R < 3; ++R)
    for (int C = 0; C < 6; ++C)
      Dense[R * 6 + C] = Buf[R * 8 + C] = float(R * 6 + C) / 7 - 1;
  T->execute(Buf.data(), Buf.data(), -1, 1);
  auto Want = directNd(Dense, D.N, -1);
  auto *Out = reinterpret_cast<std::complex<float> *>(Buf.data());
  for (int R = 0; R < 3; ++R)
    for (int C = 0; C < 4; ++C)
      EXPECT_LE(std::abs(std::complex<LD>(Out[R * 4 + C].real(), Out[R * 4 + C].imag()) -
                         Want[R * 6 + C]),
                1e-5)
          << R << "," << C;
}

TEST(Transform, OverlappingBatchesReadTheOriginalInput) {
  // In place with the output's batches wider than the input's: batch 1's
  // output overwrites batch 2's input, which must still be read as given.
  TransformDesc D;
  D.K = Kind::C2C;
  D.N = {4};
  D.Batch = 3;
  D.In = D.Out = Elem::C64F;
  D.Advanced = true;
  D.InLayout = {{4}, 1, 4};
  D.OutLayout = {{4}, 1, 5};
  PlanError Error;
  auto T = Transform::create(D, Error);
  ASSERT_TRUE(T) << Error.Message;
  std::vector<std::complex<double>> Buf(15);
  for (int I = 0; I < 12; ++I)
    Buf[I] = {double(I), double(-I)};
  auto Orig = Buf;
  T->execute(Buf.data(), Buf.data(), -1, 1);
  for (int B = 0; B < 3; ++B) {
    std::vector<std::complex<LD>> X(4);
    for (int I = 0; I < 4; ++I)
      X[I] = std::complex<LD>(Orig[B * 4 + I]);
    auto Want = directDft(X, -1);
    for (int I = 0; I < 4; ++I)
      EXPECT_NEAR(std::abs(std::complex<LD>(Buf[B * 5 + I]) - Want[I]), 0, 1e-12)
          << B << "," << I;
  }
}

TEST(Transform, HalfAndBfloat16Elements) {
  for (Elem E : {Elem::C16F, Elem::C16BF}) {
    TransformDesc D;
    D.K = Kind::C2C;
    D.N = {16};
    D.In = D.Out = E;
    PlanError Error;
    auto T = Transform::create(D, Error);
    ASSERT_TRUE(T) << Error.Message;
    // Small integers are exact in both formats; so is their sum at k = 0.
    std::vector<uint16_t> In(32), Out(32);
    for (int I = 0; I < 16; ++I) {
      float V = float(I % 5);
      In[2 * I] = E == Elem::C16F ? cuhip::floatToHalf(V)
                                  : cuhip::floatToBf16(V);
      In[2 * I + 1] = 0;
    }
    T->execute(In.data(), Out.data(), -1, 1);
    float Dc = E == Elem::C16F ? cuhip::halfToFloat(Out[0])
                               : cuhip::bf16ToFloat(Out[0]);
    EXPECT_EQ(Dc, 30.0f) << elemName(E);
  }
}

TEST(Transform, RefusesWhatIsNotATransform) {
  PlanError Error;
  TransformDesc D;
  D.N = {};
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Size);
  EXPECT_NE(Error.Message.find("rank"), std::string::npos) << Error.Message;
  D.N = {4, 0};
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Size);
  EXPECT_NE(Error.Message.find("not positive"), std::string::npos) << Error.Message;
  D.N = {4};
  D.K = Kind::R2C; // complex input
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Type);
  EXPECT_NE(Error.Message.find("do not fit"), std::string::npos) << Error.Message;
  D.K = Kind::C2C;
  D.Out = Elem::C64F; // mixed precision
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Type);
  D.Out = Elem::C32F;
  D.Advanced = true;
  D.InLayout = {{4, 2}, 1, 8}; // wrong rank
  D.OutLayout = {{4}, 1, 4};
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Layout);
  D.N = {4, 3};
  D.OutLayout = {{4, 3}, 1, 12}; // inembed[1] = 2 < 3
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Layout);
  EXPECT_NE(Error.Message.find("inembed[1]"), std::string::npos) << Error.Message;
  D.N = {int64_t(1) << 20, int64_t(1) << 20};
  D.Advanced = false;
  EXPECT_FALSE(Transform::create(D, Error));
  EXPECT_EQ(Error.K, PlanError::Size);
  EXPECT_NE(Error.Message.find("too many"), std::string::npos) << Error.Message;
}
