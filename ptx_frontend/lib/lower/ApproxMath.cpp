//===- ApproxMath.cpp - Inline f64 sequences for the .approx functions ----===//
//
// ex2, lg2, sin, cos and tanh as straight-line f64 IR. The target-neutral
// lowering used to call llvm.exp2.f64 and friends, which on the host are
// libm calls: slow, and opaque to the warp vectorizer, which turns each into
// one scalar call per lane. These sequences are plain arithmetic, fma,
// roundeven and integer bit manipulation with selects for the special
// values, so they vectorize and run on any target.
//
// Every sequence computes the f64 result with an error far below half an
// f32 ulp (the bounds are derived beside each one); the caller rounds it
// once to f32, f16 or bf16, so the destination is within half an ulp plus
// a small fraction of one of the exact result (correctly rounded for all
// but a handful of inputs). That is inside every bound the PTX ISA states:
// ex2 2 ulp, lg2 2^-22 absolute in (0.5, 2) and 2^-22 relative elsewhere,
// sin/cos 2^-20.5 absolute, tanh 2^-11 relative (16-bit forms: coarser).
//
// Polynomial coefficients are the Taylor coefficients, computed with mpmath
// at 200 bits and rounded to the nearest f64 (their rounding adds at most
// 2^-53 relative per term, negligible beside the truncation bounds below).
// Truncation bounds are the Lagrange remainder of the series on the reduced
// interval. test/unit/ptx_frontend/ApproxMathTest.cpp checks the f32
// results against a long double reference over a strided sweep of all 2^32
// inputs (CUHIP_APPROX_EXHAUSTIVE=1: every input) and the 16-bit forms on
// every f16 and bf16 input.
//
//===----------------------------------------------------------------------===//
#include "ApproxMath.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace cuhip::ptx::lower {
namespace {

/// 1.5 * 2^52: adding it to an f64 of magnitude below 2^51 rounds that
/// value to an integer (ties to even) held in the low bits of the sum.
constexpr double RoundingMagic = 0x1.8p52;
constexpr uint64_t RoundingMagicBits = 0x4338000000000000ULL;

class ApproxEmitter {
public:
  explicit ApproxEmitter(IRBuilder<> &B) : B(B) {}

  IRBuilder<> &B;

  Type *f64() { return B.getDoubleTy(); }
  Type *i64() { return B.getInt64Ty(); }
  Value *dbl(double V) { return ConstantFP::get(f64(), V); }
  Value *fma(Value *A, Value *X, Value *C) {
    return B.CreateIntrinsic(Intrinsic::fma, {f64()}, {A, X, C});
  }
  Value *fabs(Value *V) {
    return B.CreateIntrinsic(Intrinsic::fabs, {f64()}, {V});
  }
  Value *bits(Value *V) { return B.CreateBitCast(V, i64()); }
  Value *fromBits(Value *V) { return B.CreateBitCast(V, f64()); }

  /// Horner's scheme, highest coefficient last in \p C.
  Value *horner(Value *X, ArrayRef<double> C) {
    Value *P = dbl(C.back());
    for (size_t I = C.size() - 1; I-- > 0;)
      P = fma(P, X, dbl(C[I]));
    return P;
  }

  /// Rounds \p V (|V| < 2^51, or NaN/inf) to an integer: returns the
  /// integer as an f64 and, through \p LowBits, the low bits of the sum
  /// with the magic constant, which hold the integer in two's complement.
  /// Written as an add and a subtract rather than fptosi so that NaN and
  /// infinite operands give a NaN/inf value, never poison.
  Value *roundToInteger(Value *V, Value *&LowBits) {
    Value *T = B.CreateFAdd(V, dbl(RoundingMagic));
    LowBits = B.CreateSub(bits(T), B.getInt64(RoundingMagicBits));
    return B.CreateFSub(T, dbl(RoundingMagic));
  }

  /// 2^Y = Scale * (1 + FQ) for |Y| <= 200 (or NaN): Scale = 2^n with
  /// n = round(Y), FQ = 2^f - 1 for f = Y - n in [-1/2, 1/2].
  ///
  /// 2^f - 1 = f * q(f), q(f) = sum_{k=1..9} (ln 2)^k f^(k-1) / k!. The
  /// Taylor remainder of 2^f after the f^9 term is at most
  /// (ln2/2)^10 / 10! * sqrt(2) < 2^-36.7 on |f| <= 1/2: a relative
  /// error below 2^-36 of 2^f (>= 2^-1/2) and, since |2^f - 1| >= 0.7|f|
  /// ln 2 there, below 2^-31 of 2^f - 1 itself. f is exact (Y - n of an
  /// f64 with |Y| < 2^51), and the evaluation adds a few 2^-53.
  void exp2Parts(Value *Y, Value *&Scale, Value *&FQ) {
    Value *N;
    Value *NF = roundToInteger(Y, N);
    Value *F = B.CreateFSub(Y, NF);
    static const double Q[] = {
        0x1.62e42fefa39efp-1, 0x1.ebfbdff82c58fp-3, 0x1.c6b08d704a0c0p-5,
        0x1.3b2ab6fba4e77p-7, 0x1.5d87fe78a6731p-10, 0x1.430912f86c787p-13,
        0x1.ffcbfc588b0c7p-17, 0x1.62c0223a5c824p-20, 0x1.b5253d395e7c4p-24};
    FQ = B.CreateFMul(F, horner(F, Q));
    // |n| <= 200 keeps 2^n a normal f64, built from its exponent field.
    Scale = fromBits(B.CreateShl(B.CreateAdd(N, B.getInt64(1023)), 52));
  }

  /// Clamps V into [Lo, Hi]; a NaN passes through (both compares fail).
  Value *clamp(Value *V, double Lo, double Hi) {
    V = B.CreateSelect(B.CreateFCmpOLT(V, dbl(Lo)), dbl(Lo), V);
    return B.CreateSelect(B.CreateFCmpOGT(V, dbl(Hi)), dbl(Hi), V);
  }
};

} // namespace

Value *emitApproxExp2(IRBuilder<> &B, Value *X) {
  ApproxEmitter E(B);
  // Beyond +-200 every destination (f32 and narrower) has overflowed to inf
  // or underflowed to zero: 2^200 and 2^-200 round the same way as 2^X.
  // Infinities clamp too, giving inf and +0; NaN passes through.
  Value *Y = E.clamp(X, -200.0, 200.0);
  Value *Scale, *FQ;
  E.exp2Parts(Y, Scale, FQ);
  // Scale * (1 + FQ) in one rounding; exact scaling, then the caller's one
  // rounding to the destination handles its overflow and subnormals.
  return E.fma(Scale, FQ, Scale);
}

Value *emitApproxLog2(IRBuilder<> &B, Value *X) {
  ApproxEmitter E(B);
  // X = 2^e * m with m in [sqrt(1/2), sqrt(2)): subtracting the bits of
  // sqrt(1/2) makes the exponent field of the difference e, since the
  // significand borrows exactly when m would be below sqrt(2)/2 * 2.
  Value *Bits = E.bits(X);
  Value *U = B.CreateSub(Bits, B.getInt64(0x3fe6a09e667f3bcdULL));
  Value *Exp = B.CreateAShr(U, 52);
  Value *M = E.fromBits(B.CreateSub(Bits, B.CreateShl(Exp, 52)));
  Value *EF = B.CreateSIToFP(B.CreateTrunc(Exp, B.getInt32Ty()), E.f64());
  // log2 m = (2/ln2) atanh(s), s = (m-1)/(m+1), |s| <= 3 - 2 sqrt(2) =
  // 0.1716. m - 1 and m + 1 are exact (m has 24 significant bits). The
  // series sum_j s^(2j+1)/(2j+1) truncated after s^11 leaves at most
  // s^13 / (13 (1 - s^2)): 2^-35.2 absolute and 2^-34.1 relative to log2 m,
  // so e + log2 m is within 2^-34 relative everywhere (|e| >= 1 makes
  // |result| >= 1/2 when e != 0; e = 0 is the relative bound itself).
  Value *S = B.CreateFDiv(B.CreateFSub(M, E.dbl(1.0)),
                          B.CreateFAdd(M, E.dbl(1.0)));
  Value *S2 = B.CreateFMul(S, S);
  static const double C[] = {0x1.71547652b82fep+1, 0x1.ec709dc3a03fdp-1,
                             0x1.2776c50ef9bfep-1, 0x1.a61762a7aded9p-2,
                             0x1.484b13d7c02a9p-2, 0x1.0c9a84994022dp-2};
  Value *R = E.fma(S, E.horner(S2, C), EF);
  // log2(+inf) = +inf, log2(+-0) = -inf, log2(x < 0) = NaN, NaN stays.
  Type *F64 = E.f64();
  R = B.CreateSelect(B.CreateFCmpOEQ(X, ConstantFP::getInfinity(F64)),
                     ConstantFP::getInfinity(F64), R);
  R = B.CreateSelect(B.CreateFCmpOEQ(X, E.dbl(0.0)),
                     ConstantFP::getInfinity(F64, /*Negative=*/true), R);
  R = B.CreateSelect(B.CreateFCmpOLT(X, E.dbl(0.0)), ConstantFP::getNaN(F64),
                     R);
  return B.CreateSelect(B.CreateFCmpUNO(X, X), X, R);
}

Value *emitApproxSinCos(IRBuilder<> &B, Value *X, bool Cos) {
  ApproxEmitter E(B);
  // Reduction: X = k * pi/2 + r with |r| <= pi/4 (plus a hair); the
  // quadrant k mod 4 picks +-sin r or +-cos r.
  //
  // |X| < 2^40: k = round(X * 2/pi) (fma into the magic constant, off from
  // the nearest integer by at most 2^-13, so |r| < 0.786), and r = X - k P1
  // - k P2 with pi/2 = P1 + P2 + P3, P1, P2 the leading f64 parts. Each
  // fma computes k Pi exactly and rounds once: r1 = X - k P1 has magnitude
  // below 0.8 + 2^-13 and r below 0.786, so the two roundings are 2^-53
  // each, and the dropped k P3 is below 2^40 * 2^-108.9. Absolute error of
  // r: below 2^-51.9.
  Value *KBits;
  Value *T = E.fma(X, E.dbl(0x1.45f306dc9c883p-1), E.dbl(RoundingMagic));
  KBits = B.CreateSub(E.bits(T), B.getInt64(RoundingMagicBits));
  Value *K = B.CreateFSub(T, E.dbl(RoundingMagic));
  Value *NegK = B.CreateFNeg(K);
  Value *R = E.fma(NegK, E.dbl(0x1.921fb54442d18p+0), X);
  R = E.fma(NegK, E.dbl(0x1.1a62633145c07p-54), R);

  // |X| >= 2^40 (up to the f32 maximum): X * 2/pi mod 4, with 2/pi split
  // into nine pieces of 24 bits each (c0 holds bits 2^-1..2^-24 and so
  // on; their sum is within 2^-216 of 2/pi, below 2^-88 once multiplied by
  // X < 2^128). X has 24 significant bits, so every X * ci is exact; each
  // is reduced mod 4 exactly (t - 4 roundeven(t/4): t/4 is exact, and the
  // difference is a representable multiple of t's last bit), which zeroes
  // the terms whose last bit is 4 or more. The nine residues in [-2, 2]
  // are summed with eight roundings of at most 2^-49 each; the sum s is
  // then X * 2/pi mod 4 within 2^-45.9, k = round(s) and r = (s - k) pi/2
  // within 2^-45.2 (the f64 pi/2 and the product add 2^-52).
  static const double TwoOverPiPieces[] = {
      0x1.45f3060000000p-1,   0x1.b939100000000p-26,  0x1.529fc00000000p-52,
      0x1.3abe880000000p-75,  0x1.ea69ba0000000p-97,  0x1.81b6c40000000p-121,
      0x1.2b32780000000p-145, 0x1.0e41040000000p-170, 0x1.fca2c60000000p-193};
  Value *Sum = nullptr;
  for (double C : TwoOverPiPieces) {
    Value *Term = B.CreateFMul(X, E.dbl(C));
    Value *Quarter = B.CreateIntrinsic(Intrinsic::roundeven, {E.f64()},
                                       {B.CreateFMul(Term, E.dbl(0.25))});
    Value *Residue = E.fma(Quarter, E.dbl(-4.0), Term);
    Sum = Sum ? B.CreateFAdd(Sum, Residue) : Residue;
  }
  Value *HugeKBits;
  Value *HugeK = E.roundToInteger(Sum, HugeKBits);
  Value *HugeR =
      B.CreateFMul(B.CreateFSub(Sum, HugeK), E.dbl(0x1.921fb54442d18p+0));
  Value *Huge = B.CreateFCmpUGE(E.fabs(X), E.dbl(0x1p40));
  R = B.CreateSelect(Huge, HugeR, R);
  KBits = B.CreateSelect(Huge, HugeKBits, KBits);

  // sin r = r + r^3 S(r^2) through r^13 and cos r = 1 + r^2 C(r^2) through
  // r^14 (Taylor). For |r| <= 0.786 the remainders are below
  // 0.786^15/15! = 2^-45.5 and 0.786^16/16! = 2^-49.8; with the reduction
  // error the result is within 2^-44.9 absolute, and within a few 2^-53
  // relative for small |X| where r = X exactly.
  Value *R2 = B.CreateFMul(R, R);
  static const double SinC[] = {-0x1.5555555555555p-3, 0x1.1111111111111p-7,
                                -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
                                -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33};
  static const double CosC[] = {-0x1.0000000000000p-1, 0x1.5555555555555p-5,
                                -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16,
                                -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29,
                                -0x1.93974a8c07c9dp-37};
  Value *SinR = E.fma(B.CreateFMul(R, R2), E.horner(R2, SinC), R);
  Value *CosR = E.fma(R2, E.horner(R2, CosC), E.dbl(1.0));
  // cos x = sin(x + pi/2): one quadrant further.
  Value *Quadrant = Cos ? B.CreateAdd(KBits, B.getInt64(1)) : KBits;
  Value *Odd = B.CreateTrunc(Quadrant, B.getInt1Ty());
  Value *Negate = B.CreateICmpNE(B.CreateAnd(Quadrant, B.getInt64(2)),
                                 B.getInt64(0));
  Value *V = B.CreateSelect(Odd, CosR, SinR);
  V = B.CreateSelect(Negate, B.CreateFNeg(V), V);
  // sin(-0) = -0 (the polynomial's fma would give +0); infinities and NaN
  // already came out as NaN through the reduction.
  if (!Cos)
    V = B.CreateSelect(B.CreateFCmpOEQ(X, E.dbl(0.0)), X, V);
  return V;
}

Value *emitApproxTanh(IRBuilder<> &B, Value *X) {
  ApproxEmitter E(B);
  // tanh |x| = E / (E + 2) with E = e^(2|x|) - 1 = 2^y - 1, y = 2|x| log2 e.
  // With 2^y = 2^n (1 + FQ), E = (2^n - 1) + 2^n FQ: for n = 0 that is FQ
  // (relative error below 2^-31, see exp2Parts), and for n >= 1 both terms
  // are positive or the first dominates (E >= 0.4), so E keeps that
  // relative accuracy; the division and the rounding of y add a few 2^-53.
  // Beyond |x| = 20 tanh rounds to 1 in every destination format, so
  // clamping there keeps 2^n finite; infinities clamp to +-1, NaN passes.
  Value *AX = E.clamp(E.fabs(X), 0.0, 20.0);
  Value *Y = B.CreateFMul(AX, E.dbl(0x1.71547652b82fep+1));
  Value *Scale, *FQ;
  E.exp2Parts(Y, Scale, FQ);
  Value *EM1 = E.fma(Scale, FQ, B.CreateFSub(Scale, E.dbl(1.0)));
  Value *T = B.CreateFDiv(EM1, B.CreateFAdd(EM1, E.dbl(2.0)));
  return B.CreateIntrinsic(Intrinsic::copysign, {E.f64()}, {T, X});
}

} // namespace cuhip::ptx::lower
