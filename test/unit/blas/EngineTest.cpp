//===- EngineTest.cpp - The GEMM engine against a naive reference ---------===//
//
// gemmOnHost over every real type combination, transposes, odd sizes,
// leading dimensions larger than the rows, strided and pointer-array
// batches and out-of-place C/D, compared with a double-precision triple
// loop; the conversions' rounding; the level-1/2 operations; the typed
// level-1 routines done in pieces (as vectors beyond 2^31-1 elements are)
// against the same routines done whole.
//
//===----------------------------------------------------------------------===//
#include "Blas.h"
#include "Gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace cuhip::blas;

namespace {

/// A column-major matrix of any engine type, kept as bytes plus the double
/// values it holds (after rounding to its type).
struct Matrix {
  DType Type;
  int64_t Rows, Cols, Ld;
  std::vector<unsigned char> Bytes;
  Matrix(DType T, int64_t R, int64_t C, int64_t Ld)
      : Type(T), Rows(R), Cols(C), Ld(Ld), Bytes(dtypeSize(T) * Ld * C) {}
  double get(int64_t I, int64_t J) const {
    int64_t K = J * Ld + I;
    switch (Type) {
    case DType::F32:
      return reinterpret_cast<const float *>(Bytes.data())[K];
    case DType::F64:
      return reinterpret_cast<const double *>(Bytes.data())[K];
    case DType::F16:
      return halfToFloat(reinterpret_cast<const uint16_t *>(Bytes.data())[K]);
    default:
      return bf16ToFloat(reinterpret_cast<const uint16_t *>(Bytes.data())[K]);
    }
  }
  void set(int64_t I, int64_t J, double V) {
    int64_t K = J * Ld + I;
    switch (Type) {
    case DType::F32:
      reinterpret_cast<float *>(Bytes.data())[K] = static_cast<float>(V);
      break;
    case DType::F64:
      reinterpret_cast<double *>(Bytes.data())[K] = V;
      break;
    case DType::F16:
      reinterpret_cast<uint16_t *>(Bytes.data())[K] =
          floatToHalf(static_cast<float>(V));
      break;
    default:
      reinterpret_cast<uint16_t *>(Bytes.data())[K] =
          floatToBf16(static_cast<float>(V));
      break;
    }
  }
  void fill(std::mt19937 &Rng) {
    std::uniform_real_distribution<double> D(-1, 1);
    for (int64_t J = 0; J < Cols; ++J)
      for (int64_t I = 0; I < Ld; ++I)
        set(I, J, D(Rng));
  }
};

double unitRoundoff(DType T) {
  switch (T) {
  case DType::F64:
    return 1.2e-16;
  case DType::F32:
    return 6e-8;
  case DType::F16:
    return 4.9e-4;
  default:
    return 3.9e-3;
  }
}

struct Case {
  DType In, Out;
  Compute C;
};

void scalarBytes(Compute C, double V, unsigned char *Out) {
  if (C == Compute::F16) {
    uint16_t H = floatToHalf(static_cast<float>(V));
    std::memcpy(Out, &H, 2);
  } else if (C == Compute::F64) {
    std::memcpy(Out, &V, 8);
  } else {
    float F = static_cast<float>(V);
    std::memcpy(Out, &F, 4);
  }
}

/// Runs one GEMM (optionally batched, strided or with pointer arrays, in or
/// out of place) and checks every element of every batch entry.
void checkGemm(Case K, Op TA, Op TB, int64_t M, int64_t N, int64_t KD,
               double Alpha, double Beta, int64_t Batch, bool PointerArrays,
               bool OutOfPlace) {
  SCOPED_TRACE(testing::Message()
               << "in " << int(K.In) << " out " << int(K.Out) << " compute "
               << int(K.C) << " ta " << int(TA) << " tb " << int(TB) << " M "
               << M << " N " << N << " K " << KD << " batch " << Batch
               << (PointerArrays ? " arrays" : "") << (OutOfPlace ? " ooP" : ""));
  std::mt19937 Rng(M * 131 + N * 17 + KD);
  int64_t AR = TA == Op::N ? M : KD, AC = TA == Op::N ? KD : M;
  int64_t BR = TB == Op::N ? KD : N, BC = TB == Op::N ? N : KD;
  std::vector<Matrix> As, Bs, Cs, Ds;
  for (int64_t I = 0; I < Batch; ++I) {
    As.emplace_back(K.In, AR, AC, AR + 3);
    Bs.emplace_back(K.In, BR, BC, BR + 1);
    Cs.emplace_back(K.Out, M, N, M + 2);
    As.back().fill(Rng);
    Bs.back().fill(Rng);
    Cs.back().fill(Rng);
    Ds.push_back(Cs.back());
    if (OutOfPlace)
      Ds.back().fill(Rng);
  }
  // Reference before the GEMM overwrites D.
  std::vector<std::vector<double>> Want(Batch, std::vector<double>(M * N));
  std::vector<std::vector<double>> Bound(Batch, std::vector<double>(M * N));
  for (int64_t Bi = 0; Bi < Batch; ++Bi)
    for (int64_t J = 0; J < N; ++J)
      for (int64_t I = 0; I < M; ++I) {
        double S = 0, SAbs = 0;
        for (int64_t P = 0; P < KD; ++P) {
          double A = TA == Op::N ? As[Bi].get(I, P) : As[Bi].get(P, I);
          double B = TB == Op::N ? Bs[Bi].get(P, J) : Bs[Bi].get(J, P);
          S += A * B;
          SAbs += std::fabs(A * B);
        }
        double C = Cs[Bi].get(I, J);
        Want[Bi][J * M + I] = Alpha * S + Beta * C;
        // Accumulation in the compute type plus the final rounding.
        double Acc = K.C == Compute::F64 ? 1.2e-16 : 6e-8;
        Bound[Bi][J * M + I] =
            (KD + 2) * Acc * (std::fabs(Alpha) * SAbs + std::fabs(Beta * C)) +
            2 * unitRoundoff(K.Out) * std::fabs(Want[Bi][J * M + I]) + 1e-30;
      }

  GemmDesc G;
  G.TransA = TA;
  G.TransB = TB;
  G.M = M;
  G.N = N;
  G.K = KD;
  G.TypeA = G.TypeB = K.In;
  G.TypeC = G.TypeD = K.Out;
  G.ComputeType = K.C;
  G.Lda = As[0].Ld;
  G.Ldb = Bs[0].Ld;
  G.Ldc = Cs[0].Ld;
  G.Ldd = Ds[0].Ld;
  G.BatchCount = Batch;
  unsigned char AlphaB[8], BetaB[8];
  scalarBytes(K.C, Alpha, AlphaB);
  scalarBytes(K.C, Beta, BetaB);
  G.Alpha = AlphaB;
  G.Beta = BetaB;
  // Strided batches live in one buffer each; arrays point at separate ones.
  std::vector<unsigned char> AAll, BAll, CAll, DAll;
  std::vector<const void *> AP, BP, CP;
  std::vector<void *> DP;
  if (PointerArrays) {
    for (int64_t I = 0; I < Batch; ++I) {
      AP.push_back(As[I].Bytes.data());
      BP.push_back(Bs[I].Bytes.data());
      CP.push_back(Cs[I].Bytes.data());
      DP.push_back(OutOfPlace ? Ds[I].Bytes.data() : Cs[I].Bytes.data());
    }
    G.AArray = AP.data();
    G.BArray = BP.data();
    G.CArray = CP.data();
    G.DArray = DP.data();
  } else {
    for (int64_t I = 0; I < Batch; ++I) {
      AAll.insert(AAll.end(), As[I].Bytes.begin(), As[I].Bytes.end());
      BAll.insert(BAll.end(), Bs[I].Bytes.begin(), Bs[I].Bytes.end());
      CAll.insert(CAll.end(), Cs[I].Bytes.begin(), Cs[I].Bytes.end());
      DAll.insert(DAll.end(), Ds[I].Bytes.begin(), Ds[I].Bytes.end());
    }
    G.StrideA = As[0].Ld * AC;
    G.StrideB = Bs[0].Ld * BC;
    G.StrideC = G.StrideD = Cs[0].Ld * N;
    G.A = AAll.data();
    G.B = BAll.data();
    G.C = CAll.data();
    G.D = OutOfPlace ? DAll.data() : CAll.data();
  }
  const char *Why = nullptr;
  ASSERT_TRUE(gemmSupported(G, &Why)) << Why;
  gemmOnHost(G);
  for (int64_t Bi = 0; Bi < Batch; ++Bi) {
    Matrix Got = OutOfPlace ? Ds[Bi] : Cs[Bi];
    if (!PointerArrays) {
      const auto &All = OutOfPlace ? DAll : CAll;
      size_t Size = Got.Bytes.size();
      std::memcpy(Got.Bytes.data(), All.data() + Bi * Size, Size);
    }
    for (int64_t J = 0; J < N; ++J)
      for (int64_t I = 0; I < M; ++I)
        ASSERT_NEAR(Got.get(I, J), Want[Bi][J * M + I], Bound[Bi][J * M + I])
            << "batch " << Bi << " (" << I << ", " << J << ")";
    // Rows past M in the leading dimension are untouched.
    Matrix Before = OutOfPlace ? Ds[Bi] : Cs[Bi];
    if (!PointerArrays) {
      for (int64_t J = 0; J < N; ++J)
        for (int64_t I = M; I < Got.Ld; ++I)
          ASSERT_EQ(Got.get(I, J), Before.get(I, J));
    }
  }
}

const Case Cases[] = {
    {DType::F32, DType::F32, Compute::F32},
    {DType::F64, DType::F64, Compute::F64},
    {DType::F16, DType::F16, Compute::F32},
    {DType::F16, DType::F32, Compute::F32},
    {DType::BF16, DType::BF16, Compute::F32},
    {DType::BF16, DType::F32, Compute::F32},
    {DType::F16, DType::F16, Compute::F16},
};

} // namespace

TEST(BlasEngine, GemmEveryTypeAndTranspose) {
  for (const Case &K : Cases)
    for (Op TA : {Op::N, Op::T})
      for (Op TB : {Op::N, Op::T}) {
        checkGemm(K, TA, TB, 7, 5, 9, 1.0, 0.0, 1, false, false);
        checkGemm(K, TA, TB, 33, 17, 65, 0.5, -1.5, 1, false, false);
      }
}

TEST(BlasEngine, GemmBatchesAndOutOfPlace) {
  for (const Case &K : Cases) {
    checkGemm(K, Op::T, Op::N, 16, 16, 8, 1.0, 0.0, 3, false, false);
    checkGemm(K, Op::N, Op::T, 9, 11, 13, 2.0, 0.5, 4, true, false);
    checkGemm(K, Op::N, Op::N, 9, 11, 13, 1.0, 1.0, 2, false, true);
    checkGemm(K, Op::T, Op::T, 5, 3, 7, -1.0, 0.25, 2, true, true);
  }
}

TEST(BlasEngine, GemmLargerThanOneBlock) {
  // The converted path works in blocks of D of at least 256 x 256 that fit
  // the scratch budget: 64 KiB makes them 256 x 256 here.
  setConversionBudget(64 << 10);
  checkGemm({DType::BF16, DType::BF16, Compute::F32}, Op::T, Op::N, 600, 530,
            40, 1.0, 0.5, 1, false, false);
  checkGemm({DType::F16, DType::F32, Compute::F32}, Op::N, Op::T, 515, 700, 3,
            1.0, 0.0, 1, false, true);
  checkGemm({DType::F16, DType::F16, Compute::F16}, Op::T, Op::T, 300, 260,
            700, 1.0, 1.0, 1, false, false);
  setConversionBudget(0);
}

TEST(BlasEngine, GemmKZeroScalesC) {
  checkGemm({DType::F32, DType::F32, Compute::F32}, Op::N, Op::N, 4, 4, 0,
            1.0, 2.0, 1, false, false);
  checkGemm({DType::F16, DType::F16, Compute::F32}, Op::N, Op::N, 4, 4, 0,
            1.0, 2.0, 1, false, false);
}

TEST(BlasEngine, BetaZeroIgnoresNanInC) {
  for (DType T : {DType::F32, DType::BF16}) {
    Matrix A(T, 2, 2, 2), B(T, 2, 2, 2), C(T, 2, 2, 2);
    for (int I = 0; I < 2; ++I)
      for (int J = 0; J < 2; ++J) {
        A.set(I, J, I == J);
        B.set(I, J, I + 2 * J);
        C.set(I, J, std::numeric_limits<double>::quiet_NaN());
      }
    GemmDesc G;
    G.M = G.N = G.K = 2;
    G.TypeA = G.TypeB = G.TypeC = G.TypeD = T;
    G.A = A.Bytes.data();
    G.B = B.Bytes.data();
    G.C = G.D = C.Bytes.data();
    G.Lda = G.Ldb = G.Ldc = G.Ldd = 2;
    float One = 1, Zero = 0;
    G.Alpha = &One;
    G.Beta = &Zero;
    gemmOnHost(G);
    for (int I = 0; I < 2; ++I)
      for (int J = 0; J < 2; ++J)
        EXPECT_EQ(C.get(I, J), I + 2 * J);
  }
}

TEST(BlasEngine, UnsupportedCombinationsSayWhy) {
  GemmDesc G;
  G.TypeA = G.TypeB = DType::I8;
  G.TypeC = G.TypeD = DType::I32;
  G.ComputeType = Compute::I32;
  const char *Why = nullptr;
  EXPECT_FALSE(gemmSupported(G, &Why));
  EXPECT_NE(Why, nullptr);
  G = GemmDesc();
  G.TypeA = DType::F64;
  EXPECT_FALSE(gemmSupported(G, &Why));
  G = GemmDesc();
  G.TypeA = G.TypeB = G.TypeC = G.TypeD = DType::F16;
  G.ComputeType = Compute::F16;
  EXPECT_TRUE(gemmSupported(G, &Why));
}

TEST(BlasEngine, HalfConversionRoundsToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // the tie rounds up to inf
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // tie to even 0
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002); // 1.5 ulp -> 2
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
  // Every half survives the round trip.
  for (uint32_t H = 0; H < 0x10000; ++H) {
    if ((H & 0x7c00) == 0x7c00 && (H & 0x3ff))
      continue; // NaNs
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(H))), H) << H;
  }
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
}

TEST(BlasEngine, Bf16ConversionRoundsToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1.
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  EXPECT_EQ(bf16ToFloat(0x4049), 3.140625f);
}

TEST(BlasEngine, VectorOperations) {
  std::vector<float> X = {1, -7, 3, 7, 2}, Y = {1, 1, 1, 1, 1};
  float Alpha = 2, Result = 0;
  VectorDesc V;
  V.N = 5;
  V.X = X.data();
  V.Y = Y.data();
  V.Alpha = &Alpha;
  V.Result = &Result;
  V.Kind = VectorOp::Axpy;
  vectorOpOnHost(V);
  EXPECT_EQ(Y, (std::vector<float>{3, -13, 7, 15, 5}));
  V.Kind = VectorOp::Dot;
  vectorOpOnHost(V);
  EXPECT_EQ(Result, 3 + 91 + 21 + 105 + 10);
  V.Kind = VectorOp::Nrm2;
  vectorOpOnHost(V);
  EXPECT_NEAR(Result, std::sqrt(1 + 49 + 9 + 49 + 4.0), 1e-5);
  int32_t Index = -1;
  V.Kind = VectorOp::Amax;
  V.Result = &Index;
  vectorOpOnHost(V);
  EXPECT_EQ(Index, 2); // the first of |-7| and |7|, 1-based
  V.N = 0;
  vectorOpOnHost(V);
  EXPECT_EQ(Index, 0);
  V.N = 5;
  V.Kind = VectorOp::Scal;
  V.IncX = 2;
  V.N = 3;
  vectorOpOnHost(V);
  EXPECT_EQ(X, (std::vector<float>{2, -7, 6, 7, 4}));
  // A negative increment walks y from its far end (BLAS).
  std::vector<double> Xd = {1, 2}, Yd = {10, 20};
  double AlphaD = 1, Dot = 0;
  VectorDesc W;
  W.XType = W.YType = W.ScalarType = W.ExecType = DType::F64;
  W.Kind = VectorOp::Dot;
  W.N = 2;
  W.X = Xd.data();
  W.Y = Yd.data();
  W.IncY = -1;
  W.Alpha = &AlphaD;
  W.Result = &Dot;
  vectorOpOnHost(W);
  EXPECT_EQ(Dot, 1 * 20 + 2 * 10);
}

TEST(BlasEngine, VectorExTypes) {
  // axpy with half vectors and a float scalar, computed in f32.
  std::vector<uint16_t> X = {floatToHalf(1.5f), floatToHalf(-2)},
                        Y = {floatToHalf(1), floatToHalf(1)};
  float Alpha = 2;
  VectorDesc V;
  V.Kind = VectorOp::Axpy;
  V.XType = V.YType = DType::F16;
  V.N = 2;
  V.X = X.data();
  V.Y = Y.data();
  V.Alpha = &Alpha;
  const char *Why;
  ASSERT_TRUE(vectorSupported(V, &Why));
  vectorOpOnHost(V);
  EXPECT_EQ(halfToFloat(Y[0]), 4);
  EXPECT_EQ(halfToFloat(Y[1]), -3);
  float Dot = 0;
  V.Kind = VectorOp::Dot;
  V.Result = &Dot;
  vectorOpOnHost(V);
  EXPECT_EQ(Dot, 1.5f * 4 + 6);
  std::vector<uint16_t> B = {floatToBf16(3), floatToBf16(4)};
  float Norm = 0;
  VectorDesc N;
  N.Kind = VectorOp::Nrm2;
  N.XType = DType::BF16;
  N.N = 2;
  N.X = B.data();
  N.Result = &Norm;
  vectorOpOnHost(N);
  EXPECT_EQ(Norm, 5);
}

TEST(BlasEngine, Gemv) {
  // A = [1 2 3; 4 5 6] (2 x 3, lda 3).
  std::vector<float> A = {1, 4, 0, 2, 5, 0, 3, 6, 0};
  std::vector<float> X = {1, 1, 1}, Y = {1, 1};
  float Alpha = 1, Beta = 2;
  GemvDesc G;
  G.M = 2;
  G.N = 3;
  G.A = A.data();
  G.Lda = 3;
  G.X = X.data();
  G.Y = Y.data();
  G.Alpha = &Alpha;
  G.Beta = &Beta;
  gemvOnHost(G);
  EXPECT_EQ(Y, (std::vector<float>{8, 17}));
  std::vector<float> Xt = {1, 2}, Yt = {0, 0, 0};
  G.Trans = Op::T;
  G.X = Xt.data();
  G.Y = Yt.data();
  Beta = 0;
  gemvOnHost(G);
  EXPECT_EQ(Yt, (std::vector<float>{9, 12, 15}));
}

TEST(BlasEngine, TypedLevel1InPieces) {
  // Pieces of 3 over vectors of 10 with increments 2 and -3 must give what
  // one call gives: every piece is a BLAS vector of its own.
  using C = std::complex<double>;
  const int64_t N = 10, IncX = 2, IncY = -3;
  std::mt19937 Rng(5);
  std::uniform_real_distribution<double> D(-1, 1);
  std::vector<C> X0(N * 2), Y0(N * 3);
  for (C &V : X0)
    V = C(D(Rng), D(Rng));
  for (C &V : Y0)
    V = C(D(Rng), D(Rng));
  struct Results {
    std::vector<C> X, Y;
    C Dot;
    double Nrm2, Asum;
  };
  auto Run = [&](int64_t Piece) {
    host::setLevel1Piece(Piece);
    Results R{X0, Y0, 0, 0, 0};
    host::axpy(N, C(0.5, -1), R.X.data(), IncX, R.Y.data(), IncY);
    host::rot(N, R.X.data(), IncX, R.Y.data(), IncY, 0.6, C(0.8, 0.1));
    host::scal(N, C(2, 1), R.X.data(), IncX);
    host::swap(N - 1, R.X.data(), IncX, R.Y.data(), IncY);
    R.Dot = host::dot(N, R.X.data(), IncX, R.Y.data(), IncY, true);
    R.Nrm2 = host::nrm2(N, R.X.data(), IncX);
    R.Asum = host::asum(N, R.Y.data(), 3);
    host::copy(N, R.Y.data(), IncY, R.X.data(), IncX);
    host::setLevel1Piece(0);
    return R;
  };
  Results Whole = Run(0), Split = Run(3);
  for (size_t I = 0; I < Whole.X.size(); ++I)
    EXPECT_NEAR(std::abs(Whole.X[I] - Split.X[I]), 0, 1e-14) << I;
  for (size_t I = 0; I < Whole.Y.size(); ++I)
    EXPECT_NEAR(std::abs(Whole.Y[I] - Split.Y[I]), 0, 1e-14) << I;
  EXPECT_NEAR(std::abs(Whole.Dot - Split.Dot), 0, 1e-13);
  EXPECT_NEAR(Whole.Nrm2, Split.Nrm2, 1e-13);
  EXPECT_NEAR(Whole.Asum, Split.Asum, 1e-13);
  // And the pieces agree with the definition: y(i) at (N-1-i)*3.
  std::vector<double> Xr(2 * N), Yr(3 * N);
  for (size_t I = 0; I < Xr.size(); ++I)
    Xr[I] = I;
  host::setLevel1Piece(4);
  host::copy<double>(N, Xr.data(), IncX, Yr.data(), IncY);
  host::setLevel1Piece(0);
  for (int64_t I = 0; I < N; ++I)
    EXPECT_EQ(Yr[(N - 1 - I) * 3], 2.0 * I);
}

TEST(BlasEngine, MixedPrecisionGemv) {
  // y = 2 A^T x + 0.5 y with bf16 A and x, f16 y... of one type: bf16 in,
  // f32 out, then f16 in and out.
  std::vector<uint16_t> A = {floatToBf16(1), floatToBf16(2), floatToBf16(3),
                             floatToBf16(4)},
                        X = {floatToBf16(1), floatToBf16(-1)};
  std::vector<float> Y = {1, 2};
  host::gemvMixed(Op::T, 2, 2, 2, DType::BF16, A.data(), 2, X.data(), 1, 0.5f,
                  DType::F32, Y.data(), 1);
  EXPECT_EQ(Y, (std::vector<float>{2 * (1 - 2) + 0.5f, 2 * (3 - 4) + 1}));
  std::vector<uint16_t> Ah = {floatToHalf(1), floatToHalf(2), floatToHalf(3),
                              floatToHalf(4)},
                        Xh = {floatToHalf(1), floatToHalf(1)},
                        Yh = {floatToHalf(NAN), floatToHalf(NAN)};
  // Beta 0 does not read y.
  host::gemvMixed(Op::N, 2, 2, 1, DType::F16, Ah.data(), 2, Xh.data(), 1, 0,
                  DType::F16, Yh.data(), -1);
  EXPECT_EQ(halfToFloat(Yh[1]), 4);
  EXPECT_EQ(halfToFloat(Yh[0]), 6);
}
