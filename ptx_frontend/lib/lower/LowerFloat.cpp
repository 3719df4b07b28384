//===- LowerFloat.cpp - Floating-point instructions -----------------------===//
//
// The floating-point family of the PTX ISA (sections 9.7.3 and 9.7.4): f32
// and f64 add, sub, mul, fma, mad, div, rcp, sqrt, rsqrt, the .approx
// transcendentals, min/max, abs, neg, copysign and testp, and the f16, f16x2,
// bf16 and bf16x2 forms of add, sub, mul, fma, neg, abs, min, max, ex2 and
// tanh. Round-to-nearest f32/f64 arithmetic uses the host's IEEE operations.
// Every other rounding (the directed modes .rz/.rm/.rp, and all rounding to
// the 16-bit formats) is done without touching the host's floating-point
// environment: the operation is evaluated in f64 as a rounded value S plus
// the sign of its exact error (an error-free transformation: TwoSum for
// sums, the remainder fma(-q, b, a) for quotients, fma(-s, s, x) for square
// roots; f64 products and fused multiply-adds use exact integer
// significands instead), and one integer rounding step then produces the
// destination bits in the requested direction, including subnormals and
// overflow. The .approx forms are computed at least as accurately as the
// ISA's stated error bounds.
//
//===----------------------------------------------------------------------===//
#include "ApproxMath.h"
#include "LowerImpl.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace cuhip::ptx::lower {

FloatMods FunctionLowering::floatMods(const Instruction &I) {
  FloatMods M;
  for (const auto &X : I.Modifiers) {
    if (X == "rn" || X == "rz" || X == "rm" || X == "rp" || X == "rni" ||
        X == "rzi" || X == "rmi" || X == "rpi" || X == "rna" || X == "rs")
      M.Rounding = X;
    else if (X == "ftz")
      M.Ftz = true;
    else if (X == "sat")
      M.Sat = true;
    else if (X == "approx")
      M.Approx = true;
    else if (X == "full")
      M.Full = true;
  }
  return M;
}

/// Flushes an f32 subnormal to a zero of the same sign (the .ftz modifier).
Value *FunctionLowering::flush(Value *V) {
  if (!V->getType()->isFloatTy())
    return V;
  Value *Abs = callIntrinsic(Intrinsic::fabs, {V->getType()}, {V});
  Value *Tiny = B.CreateFCmpOLT(
      Abs, ConstantFP::get(V->getType(), 1.17549435082228750797e-38));
  Value *Zero = callIntrinsic(Intrinsic::copysign, {V->getType()},
                              {ConstantFP::get(V->getType(), 0.0), V});
  return B.CreateSelect(Tiny, Zero, V);
}

/// The .sat modifier of float results: clamp to [0, 1], NaN becomes +0.
/// Written with compares rather than minnum/maxnum so that the result does
/// not depend on how the target orders signed zeros: -0.0 lies inside
/// [0.0, 1.0] and is kept.
Value *FunctionLowering::saturate(Value *V) {
  Type *Ty = V->getType();
  Value *Zero = ConstantFP::get(Ty, 0.0), *One = ConstantFP::get(Ty, 1.0);
  Value *Low = B.CreateFCmpULT(V, Zero); // NaN or negative
  Value *High = B.CreateFCmpOGT(V, One);
  return B.CreateSelect(Low, Zero, B.CreateSelect(High, One, V));
}

namespace {

enum class Rounding { NearestEven, TowardZero, Down, Up };

/// A binary floating-point format: storage width, significand precision
/// (hidden bit included) and the exponents of its normal range.
struct FloatFormat {
  unsigned Width;
  unsigned Precision;
  int EMin, EMax;

  uint64_t signBit() const { return uint64_t(1) << (Width - 1); }
  uint64_t infBits() const {
    return uint64_t(EMax - EMin + 2) << (Precision - 1);
  }
  uint64_t fracMask() const { return (uint64_t(1) << (Precision - 1)) - 1; }
  uint64_t oneBits() const { return uint64_t(1 - EMin) << (Precision - 1); }
  /// PTX's canonical NaN: every bit but the sign set.
  uint64_t canonicalNaN() const { return signBit() - 1; }
};

constexpr FloatFormat HalfFormat{16, 11, -14, 15};
constexpr FloatFormat BFloatFormat{16, 8, -126, 127};
constexpr FloatFormat SingleFormat{32, 24, -126, 127};
constexpr FloatFormat DoubleFormat{64, 53, -1022, 1023};
/// The upper word of an f64 ("1.11.20") that rcp.approx.ftz.f64 and
/// rsqrt.approx.ftz.f64 compute with.
constexpr FloatFormat DoubleHighFormat{32, 21, -1022, 1023};

const FloatFormat &formatOf(ScalarType T) {
  switch (T) {
  case ScalarType::F16:
  case ScalarType::F16x2:
    return HalfFormat;
  case ScalarType::BF16:
  case ScalarType::BF16x2:
    return BFloatFormat;
  case ScalarType::F32:
    return SingleFormat;
  default:
    return DoubleFormat;
  }
}

/// A finite nonzero f64 taken apart: Value = Sig * 2^(Exp - 52) with the
/// leading one of Sig at bit 52, subnormals included.
struct Unpacked {
  Value *Neg; // i1
  Value *Exp; // i32
  Value *Sig; // i64
};

/// IR building blocks for exact rounding. All of them are branch-free:
/// special operands are handled by selecting the host's IEEE result, whose
/// value is exact for zeros, infinities and NaNs.
class FloatEmitter {
public:
  explicit FloatEmitter(FunctionLowering &L) : L(L), B(L.B) {}

  FunctionLowering &L;
  IRBuilder<> &B;

  Type *i32() { return B.getInt32Ty(); }
  Type *i64() { return B.getInt64Ty(); }
  Type *i128() { return B.getInt128Ty(); }
  Type *f64() { return B.getDoubleTy(); }
  Value *dbl(double V) { return ConstantFP::get(f64(), V); }
  Value *bitsConst(const FloatFormat &F, uint64_t V) {
    return B.getIntN(F.Width, V);
  }

  Value *fma(Value *A, Value *X, Value *C) {
    return L.callIntrinsic(Intrinsic::fma, {A->getType()}, {A, X, C});
  }
  Value *fabs(Value *V) {
    return L.callIntrinsic(Intrinsic::fabs, {V->getType()}, {V});
  }
  Value *isNaN(Value *V) { return B.CreateFCmpUNO(V, V); }
  Value *isInf(Value *V) {
    return B.CreateFCmpOEQ(fabs(V), ConstantFP::getInfinity(V->getType()));
  }
  Value *isFinite(Value *V) {
    return B.CreateFCmpONE(fabs(V), ConstantFP::getInfinity(V->getType()));
  }
  Value *isZero(Value *V) {
    return B.CreateFCmpOEQ(V, ConstantFP::get(V->getType(), 0.0));
  }
  Value *signOf(Value *V) {
    Type *IntTy = B.getIntNTy(V->getType()->getPrimitiveSizeInBits());
    return B.CreateICmpSLT(B.CreateBitCast(V, IntTy),
                           ConstantInt::get(IntTy, 0));
  }
  Value *bitsOf(Value *V) {
    return B.CreateBitCast(V,
                           B.getIntNTy(V->getType()->getPrimitiveSizeInBits()));
  }

  /// TwoSum: the exact error of S = A + B (valid whenever S is finite).
  Value *sumError(Value *A, Value *Bv, Value *S) {
    Value *BVirtual = B.CreateFSub(S, A);
    Value *AVirtual = B.CreateFSub(S, BVirtual);
    return B.CreateFAdd(B.CreateFSub(A, AVirtual), B.CreateFSub(Bv, BVirtual));
  }

  /// The bits of an overflowed result: infinity, or the largest finite value
  /// when the rounding direction points back toward zero.
  Value *overflowBits(Value *Neg, Rounding RM, const FloatFormat &F, Type *Ty) {
    Constant *Inf = ConstantInt::get(Ty, F.infBits());
    Constant *Max = ConstantInt::get(Ty, F.infBits() - 1);
    switch (RM) {
    case Rounding::NearestEven:
      return Inf;
    case Rounding::TowardZero:
      return Max;
    case Rounding::Down:
      return B.CreateSelect(Neg, Inf, Max);
    case Rounding::Up:
      return B.CreateSelect(Neg, Max, Inf);
    }
    return Inf;
  }

  /// Rounds the exact value (-1)^Neg * Sig * 2^(Exp - 63) to format F in
  /// direction RM and returns its bits (an iWidth). Sig (i64) must be
  /// nonzero; its lowest bit may be a sticky bit standing for nonzero bits
  /// further down, which is exact as long as it lies at least two places
  /// below F's last significand bit (callers keep 8 or more). Exp (i32) may
  /// lie far outside F's range: results below it become subnormal or zero,
  /// results above it overflow as the rounding direction says.
  Value *roundToFormat(Value *Neg, Value *Exp, Value *Sig, Rounding RM,
                       const FloatFormat &F) {
    Value *Lz = L.callIntrinsic(Intrinsic::ctlz, {i64()}, {Sig, B.getFalse()});
    Sig = B.CreateShl(Sig, Lz);
    Exp = B.CreateSub(Exp, B.CreateTrunc(Lz, i32()));
    // The leading one is at bit 63 now and Exp is its exponent. Keep
    // Precision bits, or fewer when the result is below the normal range.
    Value *Extra =
        L.callIntrinsic(Intrinsic::smax, {i32()},
                        {B.CreateSub(B.getInt32(F.EMin), Exp), B.getInt32(0)});
    Value *Drop = L.callIntrinsic(
        Intrinsic::smin, {i32()},
        {B.CreateAdd(Extra, B.getInt32(64 - F.Precision)), B.getInt32(65)});
    Value *Drop128 = B.CreateZExt(Drop, i128());
    Value *S = B.CreateZExt(Sig, i128());
    Value *One = ConstantInt::get(i128(), 1);
    Value *Kept = B.CreateLShr(S, Drop128);
    Value *Rem = B.CreateAnd(S, B.CreateSub(B.CreateShl(One, Drop128), One));
    Value *Inexact = B.CreateICmpNE(Rem, ConstantInt::get(i128(), 0));
    Value *Inc = nullptr;
    switch (RM) {
    case Rounding::NearestEven: {
      Value *Half = B.CreateShl(One, B.CreateSub(Drop128, One));
      Value *Odd = B.CreateTrunc(Kept, B.getInt1Ty());
      Inc = B.CreateOr(B.CreateICmpUGT(Rem, Half),
                       B.CreateAnd(B.CreateICmpEQ(Rem, Half), Odd));
      break;
    }
    case Rounding::TowardZero:
      Inc = B.getFalse();
      break;
    case Rounding::Down:
      Inc = B.CreateAnd(Neg, Inexact);
      break;
    case Rounding::Up:
      Inc = B.CreateAnd(B.CreateNot(Neg), Inexact);
      break;
    }
    Kept = B.CreateAdd(Kept, B.CreateZExt(Inc, i128()));
    // Adding the kept significand (hidden bit included) to the biased
    // exponent field lets a carry out of the significand bump the exponent,
    // and a subnormal that rounds up become the smallest normal.
    Value *ExpC = L.callIntrinsic(Intrinsic::smin, {i32()},
                                  {Exp, B.getInt32(F.EMax + 1)});
    Value *Field =
        B.CreateSelect(B.CreateICmpSGE(Exp, B.getInt32(F.EMin)),
                       B.CreateSub(ExpC, B.getInt32(F.EMin)), B.getInt32(0));
    Value *Bits = B.CreateAdd(
        B.CreateShl(B.CreateZExt(Field, i128()), F.Precision - 1), Kept);
    Value *Ovf = B.CreateICmpUGE(Bits, ConstantInt::get(i128(), F.infBits()));
    Bits = B.CreateSelect(Ovf, overflowBits(Neg, RM, F, i128()), Bits);
    Type *Out = B.getIntNTy(F.Width);
    return B.CreateOr(
        B.CreateTrunc(Bits, Out),
        B.CreateSelect(Neg, bitsConst(F, F.signBit()), bitsConst(F, 0)));
  }

  /// Takes a finite nonzero double apart, normalizing subnormals.
  Unpacked unpack(Value *D) {
    Value *Bits = B.CreateBitCast(D, i64());
    Value *Neg = B.CreateICmpSLT(Bits, B.getInt64(0));
    Value *BiasedExp = B.CreateTrunc(
        B.CreateAnd(B.CreateLShr(Bits, 52), B.getInt64(0x7ff)), i32());
    Value *Frac = B.CreateAnd(Bits, B.getInt64((uint64_t(1) << 52) - 1));
    Value *IsSub = B.CreateICmpEQ(BiasedExp, B.getInt32(0));
    Value *Sig = B.CreateSelect(
        IsSub, Frac, B.CreateOr(Frac, B.getInt64(uint64_t(1) << 52)));
    Value *Exp = B.CreateSub(B.CreateSelect(IsSub, B.getInt32(1), BiasedExp),
                             B.getInt32(1023));
    Value *Lz = L.callIntrinsic(Intrinsic::ctlz, {i64()}, {Sig, B.getFalse()});
    Value *Shift = B.CreateSub(Lz, B.getInt64(11));
    Sig = B.CreateShl(Sig, Shift);
    Exp = B.CreateSub(Exp, B.CreateTrunc(Shift, i32()));
    return {Neg, Exp, Sig};
  }

  /// The significand of U as a double in [1, 2), or [2, 4) with Twice.
  Value *unitValue(const Unpacked &U, Value *Twice = nullptr) {
    Value *Frac = B.CreateAnd(U.Sig, B.getInt64((uint64_t(1) << 52) - 1));
    Value *Biased = B.getInt64(1023);
    if (Twice)
      Biased = B.CreateAdd(Biased, B.CreateZExt(Twice, i64()));
    return B.CreateBitCast(B.CreateOr(B.CreateShl(Biased, 52), Frac), f64());
  }

  /// Rounds (-1)^Neg * (AbsS + e) * 2^Scale to F, where AbsS is a finite
  /// positive double, e an error with |e| < ulp(AbsS)/2 of which only the
  /// sign is known: MagErr > 0 if the exact magnitude exceeds AbsS, < 0 if
  /// it is below, 0 (or NaN) if AbsS is exact. The error becomes a sticky
  /// bit eight places below AbsS's last bit, on its side of AbsS: the
  /// value then lies strictly between the same two neighbouring multiples
  /// of ulp(AbsS)/4 as the exact one, so no rounding boundary of any format
  /// up to f64 precision separates them.
  Value *roundMagnitude(Value *Neg, Value *AbsS, Value *MagErr, Value *Scale,
                        Rounding RM, const FloatFormat &F) {
    Unpacked U = unpack(AbsS);
    Value *Sig = B.CreateShl(U.Sig, 8);
    Value *Up = B.CreateFCmpOGT(MagErr, ConstantFP::get(MagErr->getType(), 0));
    Value *Down =
        B.CreateFCmpOLT(MagErr, ConstantFP::get(MagErr->getType(), 0));
    Value *Jam = B.CreateSelect(
        Up, B.getInt64(1),
        B.CreateSelect(Down, B.getInt64(uint64_t(-1)), B.getInt64(0)));
    Sig = B.CreateAdd(Sig, Jam);
    Value *Exp = B.CreateAdd(U.Exp, B.getInt32(3));
    if (Scale)
      Exp = B.CreateAdd(Exp, Scale);
    return roundToFormat(Neg, Exp, Sig, RM, F);
  }

  /// Rounds S + e to F, S being any double and Err carrying the sign of the
  /// exact error e (zero or NaN when S is exact). NaN becomes F's canonical
  /// NaN; infinities and zeros are exact.
  Value *roundDouble(Value *S, Value *Err, Rounding RM, const FloatFormat &F) {
    if (&F == &SingleFormat && RM != Rounding::NearestEven)
      return roundDoubleToSingle(S, Err, RM);
    Value *Neg = signOf(S);
    Value *MagErr =
        Err ? B.CreateSelect(Neg, B.CreateFNeg(Err), Err) : dbl(0.0);
    Value *Finite = roundMagnitude(Neg, fabs(S), MagErr, nullptr, RM, F);
    Value *SignBits =
        B.CreateSelect(Neg, bitsConst(F, F.signBit()), bitsConst(F, 0));
    Value *R = B.CreateSelect(
        isZero(S), SignBits,
        B.CreateSelect(
            isInf(S), B.CreateOr(SignBits, bitsConst(F, F.infBits())), Finite));
    return B.CreateSelect(isNaN(S), bitsConst(F, F.canonicalNaN()), R);
  }

  /// roundDouble for f32 in a directed mode, from the host's conversion.
  /// No f32 value lies strictly between S and the exact value S + e (all
  /// f32 values are doubles and |e| is at most half an ulp of S), so the
  /// nearest f32 R of S is on the same side of the exact value as of S,
  /// or equal to S, where e's sign decides. A wrong R is one step off, and
  /// stepping the bits by one moves through subnormals and into or out of
  /// infinity exactly as the directed modes require.
  Value *roundDoubleToSingle(Value *S, Value *Err, Rounding RM) {
    Value *R = B.CreateFPTrunc(S, B.getFloatTy());
    Value *Back = B.CreateFPExt(R, f64());
    Value *Zero = dbl(0.0);
    Value *Tie = B.CreateFCmpOEQ(Back, S);
    Value *Above = B.CreateFCmpOGT(Back, S);
    Value *Below = B.CreateFCmpOLT(Back, S);
    if (Err) {
      Above = B.CreateOr(Above, B.CreateAnd(Tie, B.CreateFCmpOLT(Err, Zero)));
      Below = B.CreateOr(Below, B.CreateAnd(Tie, B.CreateFCmpOGT(Err, Zero)));
    }
    // The magnitude of R against the exact magnitude.
    Value *Neg = signOf(S);
    Value *MagAbove = B.CreateSelect(Neg, Below, Above);
    Value *MagBelow = B.CreateSelect(Neg, Above, Below);
    Value *Shrink = nullptr, *Grow = nullptr;
    switch (RM) {
    case Rounding::TowardZero:
      Shrink = MagAbove;
      Grow = B.getFalse();
      break;
    case Rounding::Down:
      Shrink = B.CreateAnd(B.CreateNot(Neg), MagAbove);
      Grow = B.CreateAnd(Neg, MagBelow);
      break;
    case Rounding::Up:
      Shrink = B.CreateAnd(Neg, MagAbove);
      Grow = B.CreateAnd(B.CreateNot(Neg), MagBelow);
      break;
    case Rounding::NearestEven:
      llvm_unreachable("round-to-nearest uses the host's operations");
    }
    Value *Bits = B.CreateBitCast(R, i32());
    Value *Step = B.CreateSelect(
        Shrink, B.getInt32(-1),
        B.CreateSelect(Grow, B.getInt32(1), B.getInt32(0)));
    Bits = B.CreateAdd(Bits, Step);
    return B.CreateSelect(isNaN(S), bitsConst(SingleFormat,
                                              SingleFormat.canonicalNaN()),
                          Bits);
  }

  /// An exact zero sum takes the sign of its addends when they agree and is
  /// +0 otherwise, except when rounding down, where it is -0 (IEEE 754
  /// 6.3). The host's round-to-nearest sum already has the first rule; this
  /// applies the second one to the bits of a sum S rounded down.
  Value *zeroSumSign(Value *Bits, Value *S, Value *NegA, Value *NegB,
                     Rounding RM, const FloatFormat &F) {
    if (RM != Rounding::Down)
      return Bits;
    Value *NegZero = B.CreateSelect(B.CreateOr(NegA, NegB),
                                    bitsConst(F, F.signBit()), bitsConst(F, 0));
    return B.CreateSelect(isZero(S), NegZero, Bits);
  }

  /// Shifts a nonzero i128 so its leading one is at bit 127 and folds the
  /// low half into a sticky bit: returns the i64 significand and the
  /// roundToFormat exponent for Value = X * 2^Exp0.
  std::pair<Value *, Value *> jamTo64(Value *X, Value *Exp0) {
    Value *Lz = L.callIntrinsic(Intrinsic::ctlz, {i128()}, {X, B.getFalse()});
    X = B.CreateShl(X, Lz);
    Value *Hi = B.CreateTrunc(B.CreateLShr(X, 64), i64());
    Value *Sticky = B.CreateICmpNE(B.CreateTrunc(X, i64()), B.getInt64(0));
    Value *Sig = B.CreateOr(Hi, B.CreateZExt(Sticky, i64()));
    Value *Exp = B.CreateSub(B.CreateAdd(Exp0, B.getInt32(127)),
                             B.CreateTrunc(Lz, i32()));
    return {Sig, Exp};
  }

  //===--------------------------------------------------------------------===//
  // f64 with directed rounding
  //===--------------------------------------------------------------------===//

  /// A + B (or A - B) in f64: TwoSum gives the exact error; a finite sum
  /// that overflowed to infinity is beyond the largest finite value. The
  /// host's own subtraction keeps a NaN operand's payload and sign.
  Value *addDouble(Value *A, Value *Bv, Rounding RM, bool Subtract) {
    Value *S = Subtract ? B.CreateFSub(A, Bv) : B.CreateFAdd(A, Bv);
    if (Subtract)
      Bv = B.CreateFNeg(Bv);
    Value *Err = sumError(A, Bv, S);
    Value *Bits = roundDouble(S, Err, RM, DoubleFormat);
    Bits = zeroSumSign(Bits, S, signOf(A), signOf(Bv), RM, DoubleFormat);
    Value *FiniteIn = B.CreateAnd(isFinite(A), isFinite(Bv));
    Value *Ovf = B.CreateAnd(FiniteIn, isInf(S));
    Value *OvfBits =
        B.CreateOr(overflowBits(signOf(S), RM, DoubleFormat, i64()),
                   B.CreateSelect(signOf(S), B.getInt64(DoubleFormat.signBit()),
                                  B.getInt64(0)));
    Bits = B.CreateSelect(Ovf, OvfBits, Bits);
    return B.CreateSelect(FiniteIn, Bits, bitsOf(S));
  }

  /// A * B in f64 from the exact 106-bit product of the significands.
  Value *mulDouble(Value *A, Value *Bv, Rounding RM) {
    Value *Regular = B.CreateAnd(
        B.CreateAnd(isFinite(A), isFinite(Bv)),
        B.CreateAnd(B.CreateNot(isZero(A)), B.CreateNot(isZero(Bv))));
    Unpacked UA = unpack(A), UB = unpack(Bv);
    Value *P =
        B.CreateMul(B.CreateZExt(UA.Sig, i128()), B.CreateZExt(UB.Sig, i128()));
    Value *Exp0 = B.CreateSub(B.CreateAdd(UA.Exp, UB.Exp), B.getInt32(104));
    auto [Sig, Exp] = jamTo64(P, Exp0);
    Value *Bits =
        roundToFormat(B.CreateXor(UA.Neg, UB.Neg), Exp, Sig, RM, DoubleFormat);
    return B.CreateSelect(Regular, Bits, bitsOf(B.CreateFMul(A, Bv)));
  }

  /// A * B + C in f64: the exact product (106 bits) and the addend are
  /// aligned in 128 bits, the smaller one shifted right with its shifted-out
  /// bits kept as a sticky bit. Both leading ones start at bit 125, so a
  /// sum cannot carry out, and the sticky bit only arises when the operands
  /// are two or more places apart, where cancellation removes at most one
  /// leading bit: it stays far below the rounding position.
  Value *fmaDouble(Value *A, Value *Bv, Value *C, Rounding RM) {
    Value *Regular = B.CreateAnd(
        B.CreateAnd(B.CreateAnd(isFinite(A), isFinite(Bv)), isFinite(C)),
        B.CreateAnd(B.CreateNot(isZero(A)), B.CreateNot(isZero(Bv))));
    Unpacked UA = unpack(A), UB = unpack(Bv), UC = unpack(C);
    Value *CZero = isZero(C);
    Value *NegP = B.CreateXor(UA.Neg, UB.Neg);
    Value *P =
        B.CreateMul(B.CreateZExt(UA.Sig, i128()), B.CreateZExt(UB.Sig, i128()));
    Value *LzP = B.CreateTrunc(
        L.callIntrinsic(Intrinsic::ctlz, {i128()}, {P, B.getFalse()}), i32());
    Value *ShP = B.CreateSub(LzP, B.getInt32(2));
    P = B.CreateShl(P, B.CreateZExt(ShP, i128()));
    Value *ExpP = B.CreateSub(
        B.CreateSub(B.CreateAdd(UA.Exp, UB.Exp), B.getInt32(104)), ShP);
    // c's leading one at bit 52 moves to bit 125. A zero addend sits far
    // below the product and contributes nothing.
    Value *Cs = B.CreateSelect(CZero, ConstantInt::get(i128(), 0),
                               B.CreateShl(B.CreateZExt(UC.Sig, i128()), 73));
    Value *ExpC = B.CreateSelect(CZero, B.CreateSub(ExpP, B.getInt32(1000)),
                                 B.CreateSub(UC.Exp, B.getInt32(52 + 73)));
    Value *PBig = B.CreateOr(
        B.CreateICmpSGT(ExpP, ExpC),
        B.CreateAnd(B.CreateICmpEQ(ExpP, ExpC), B.CreateICmpUGE(P, Cs)));
    Value *Large = B.CreateSelect(PBig, P, Cs);
    Value *Small = B.CreateSelect(PBig, Cs, P);
    Value *ExpL = B.CreateSelect(PBig, ExpP, ExpC);
    Value *Dist = B.CreateSub(ExpL, B.CreateSelect(PBig, ExpC, ExpP));
    Value *DistC =
        L.callIntrinsic(Intrinsic::umin, {i32()}, {Dist, B.getInt32(127)});
    Value *D128 = B.CreateZExt(DistC, i128());
    Value *One = ConstantInt::get(i128(), 1);
    Value *Lost = B.CreateAnd(Small, B.CreateSub(B.CreateShl(One, D128), One));
    Value *Aligned = B.CreateOr(
        B.CreateLShr(Small, D128),
        B.CreateZExt(B.CreateICmpNE(Lost, ConstantInt::get(i128(), 0)),
                     i128()));
    Value *NegC = B.CreateSelect(CZero, NegP, UC.Neg);
    Value *Same = B.CreateICmpEQ(NegP, NegC);
    Value *Sum = B.CreateSelect(Same, B.CreateAdd(Large, Aligned),
                                B.CreateSub(Large, Aligned));
    Value *Neg = B.CreateSelect(PBig, NegP, NegC);
    Value *SumZero = B.CreateICmpEQ(Sum, ConstantInt::get(i128(), 0));
    // An exact cancellation is +0, or -0 when rounding down.
    Value *ZeroBits =
        B.getInt64(RM == Rounding::Down ? DoubleFormat.signBit() : 0);
    auto [Sig, Exp] = jamTo64(B.CreateSelect(SumZero, One, Sum), ExpL);
    Value *Bits = roundToFormat(Neg, Exp, Sig, RM, DoubleFormat);
    Bits = B.CreateSelect(SumZero, ZeroBits, Bits);
    // Zeros, infinities and NaNs: the host's fused result is exact; only the
    // sign of an exact zero sum differs when rounding down.
    Value *Native = fma(A, Bv, C);
    Value *NativeBits =
        zeroSumSign(bitsOf(Native), Native, NegP, signOf(C), RM, DoubleFormat);
    return B.CreateSelect(Regular, Bits, NativeBits);
  }

  /// A / B in f64: both significands scaled to [1, 2) so that the
  /// remainder fma(-q, b, a) is exact, the exponent difference added back
  /// by the rounding step.
  Value *divDouble(Value *A, Value *Bv, Rounding RM) {
    Value *Regular = B.CreateAnd(
        B.CreateAnd(isFinite(A), isFinite(Bv)),
        B.CreateAnd(B.CreateNot(isZero(A)), B.CreateNot(isZero(Bv))));
    Unpacked UA = unpack(A), UB = unpack(Bv);
    Value *UnitA = unitValue(UA), *UnitB = unitValue(UB);
    Value *Q = B.CreateFDiv(UnitA, UnitB);
    Value *Rem = fma(B.CreateFNeg(Q), UnitB, UnitA);
    Value *Bits = roundMagnitude(B.CreateXor(UA.Neg, UB.Neg), Q, Rem,
                                 B.CreateSub(UA.Exp, UB.Exp), RM, DoubleFormat);
    return B.CreateSelect(Regular, Bits, bitsOf(B.CreateFDiv(A, Bv)));
  }

  /// sqrt(A) in f64 from the significand scaled to [1, 4) with an even
  /// exponent; the residual fma(-s, s, x) is then exact.
  Value *sqrtDouble(Value *A, Rounding RM) {
    Value *Regular = B.CreateAnd(isFinite(A), B.CreateFCmpOGT(A, dbl(0.0)));
    Unpacked U = unpack(A);
    Value *Odd = B.CreateTrunc(U.Exp, B.getInt1Ty());
    Value *X = unitValue(U, Odd);
    Value *S = L.callIntrinsic(Intrinsic::sqrt, {f64()}, {X});
    Value *Res = fma(B.CreateFNeg(S), S, X);
    Value *Bits = roundMagnitude(B.getFalse(), S, Res, B.CreateAShr(U.Exp, 1),
                                 RM, DoubleFormat);
    return B.CreateSelect(
        Regular, Bits, bitsOf(L.callIntrinsic(Intrinsic::sqrt, {f64()}, {A})));
  }

  //===--------------------------------------------------------------------===//
  // f32 and 16-bit results from exact f64 evaluation
  //===--------------------------------------------------------------------===//
  //
  // Operands of f32 and narrower formats are exact doubles, and f64 has
  // room for their products (48 bits), for the TwoSum error of any sum and
  // for quotient and square-root remainders without underflow, so every
  // operation below is an f64 result plus the sign of its exact error,
  // rounded once to the destination format: no double rounding.

  Value *addNarrow(Value *A, Value *Bv, Rounding RM, const FloatFormat &F) {
    Value *S = B.CreateFAdd(A, Bv);
    Value *Bits = roundDouble(S, sumError(A, Bv, S), RM, F);
    return zeroSumSign(Bits, S, signOf(A), signOf(Bv), RM, F);
  }
  Value *mulNarrow(Value *A, Value *Bv, Rounding RM, const FloatFormat &F) {
    // At most 2 x 24 significant bits: the f64 product is exact.
    return roundDouble(B.CreateFMul(A, Bv), nullptr, RM, F);
  }
  Value *fmaNarrow(Value *A, Value *Bv, Value *C, Rounding RM,
                   const FloatFormat &F) {
    Value *P = B.CreateFMul(A, Bv); // exact, including the sign of zero
    Value *S = B.CreateFAdd(P, C);
    Value *Bits = roundDouble(S, sumError(P, C, S), RM, F);
    return zeroSumSign(Bits, S, signOf(P), signOf(C), RM, F);
  }
  Value *divNarrow(Value *A, Value *Bv, Rounding RM, const FloatFormat &F) {
    Value *Q = B.CreateFDiv(A, Bv);
    // a/b - q = r/b: the error has the sign of r times the sign of b.
    Value *Rem = fma(B.CreateFNeg(Q), Bv, A);
    Value *Err = B.CreateSelect(signOf(Bv), B.CreateFNeg(Rem), Rem);
    return roundDouble(Q, Err, RM, F);
  }
  Value *sqrtNarrow(Value *A, Rounding RM, const FloatFormat &F) {
    Value *S = L.callIntrinsic(Intrinsic::sqrt, {f64()}, {A});
    return roundDouble(S, fma(B.CreateFNeg(S), S, A), RM, F);
  }

  //===--------------------------------------------------------------------===//
  // 16-bit values
  //===--------------------------------------------------------------------===//

  /// The exact double value of f16 or bf16 bits (an i16).
  Value *halfToDouble(Value *H, const FloatFormat &F) {
    if (&F == &BFloatFormat) {
      Value *W = B.CreateShl(B.CreateZExt(H, i32()), 16);
      return B.CreateFPExt(B.CreateBitCast(W, B.getFloatTy()), f64());
    }
    // f16 by hand, so that no half-precision support of the host is needed.
    Value *X = B.CreateZExt(H, i64());
    Value *Sign = B.CreateShl(B.CreateLShr(X, 15), 63);
    Value *E = B.CreateAnd(B.CreateLShr(X, 10), B.getInt64(31));
    Value *M = B.CreateAnd(X, B.getInt64(0x3ff));
    Value *Normal = B.CreateOr(
        Sign, B.CreateOr(B.CreateShl(B.CreateAdd(E, B.getInt64(1023 - 15)), 52),
                         B.CreateShl(M, 42)));
    Value *Special =
        B.CreateOr(Sign, B.CreateOr(B.getInt64(uint64_t(0x7ff) << 52),
                                    B.CreateShl(M, 42)));
    Value *Sub = B.CreateFMul(B.CreateUIToFP(M, f64()), dbl(0x1p-24));
    Sub = B.CreateSelect(B.CreateICmpNE(Sign, B.getInt64(0)), B.CreateFNeg(Sub),
                         Sub);
    Value *FromBits = B.CreateBitCast(
        B.CreateSelect(B.CreateICmpEQ(E, B.getInt64(31)), Special, Normal),
        f64());
    return B.CreateSelect(B.CreateICmpEQ(E, B.getInt64(0)), Sub, FromBits);
  }

  Value *isNaNBits(Value *H, const FloatFormat &F) {
    Value *Mag = B.CreateAnd(H, bitsConst(F, F.signBit() - 1));
    return B.CreateICmpUGT(Mag, bitsConst(F, F.infBits()));
  }
  /// .ftz on bits: a subnormal becomes a zero of the same sign.
  Value *flushBits(Value *H, const FloatFormat &F) {
    Value *Exp = B.CreateAnd(H, bitsConst(F, F.infBits()));
    return B.CreateSelect(B.CreateICmpEQ(Exp, bitsConst(F, 0)),
                          B.CreateAnd(H, bitsConst(F, F.signBit())), H);
  }
  /// .sat on bits: NaN and negative values become +0, values above 1.0
  /// become 1.0, -0.0 is kept (see FunctionLowering::saturate).
  Value *saturateBits(Value *H, const FloatFormat &F) {
    Value *Mag = B.CreateAnd(H, bitsConst(F, F.signBit() - 1));
    Value *Neg = B.CreateICmpNE(B.CreateAnd(H, bitsConst(F, F.signBit())),
                                bitsConst(F, 0));
    Value *Low =
        B.CreateOr(isNaNBits(H, F),
                   B.CreateAnd(Neg, B.CreateICmpNE(Mag, bitsConst(F, 0))));
    Value *High = B.CreateAnd(B.CreateNot(Neg),
                              B.CreateICmpUGT(Mag, bitsConst(F, F.oneBits())));
    return B.CreateSelect(Low, bitsConst(F, 0),
                          B.CreateSelect(High, bitsConst(F, F.oneBits()), H));
  }
};

//===----------------------------------------------------------------------===//
// Modifiers
//===----------------------------------------------------------------------===//

constexpr unsigned ModRnd = 1 << 0, ModFtz = 1 << 1, ModSat = 1 << 2,
                   ModApprox = 1 << 3, ModFull = 1 << 4, ModNaN = 1 << 5,
                   ModXorsign = 1 << 6, ModAbs = 1 << 7, ModRelu = 1 << 8,
                   ModOob = 1 << 9;

/// The modifiers of one floating-point instruction, with the first one that
/// this family does not know and the number of type modifiers.
struct ArithMods {
  unsigned Present = 0;
  Rounding Rnd = Rounding::NearestEven;
  std::string RoundingName;
  std::string Unknown;
  unsigned Types = 0;

  bool has(unsigned Bits) const { return (Present & Bits) == Bits; }
  bool any(unsigned Bits) const { return (Present & Bits) != 0; }
};

ArithMods parseMods(const Instruction &I) {
  static const struct {
    const char *Name;
    unsigned Bit;
  } Table[] = {{"ftz", ModFtz},   {"sat", ModSat},   {"approx", ModApprox},
               {"full", ModFull}, {"NaN", ModNaN},   {"xorsign", ModXorsign},
               {"abs", ModAbs},   {"relu", ModRelu}, {"oob", ModOob}};
  ArithMods M;
  for (const auto &X : I.Modifiers) {
    if (parseScalarType(X) != ScalarType::None) {
      ++M.Types;
      continue;
    }
    if (X == "rn" || X == "rz" || X == "rm" || X == "rp") {
      M.Present |= ModRnd;
      M.RoundingName = X;
      M.Rnd = X == "rn"   ? Rounding::NearestEven
              : X == "rz" ? Rounding::TowardZero
              : X == "rm" ? Rounding::Down
                          : Rounding::Up;
      continue;
    }
    bool Known = false;
    for (const auto &E : Table)
      if (X == E.Name) {
        M.Present |= E.Bit;
        Known = true;
      }
    if (!Known && M.Unknown.empty())
      M.Unknown = X;
  }
  return M;
}

const char *modName(unsigned Bit) {
  switch (Bit) {
  case ModRnd:
    return "rounding modifier";
  case ModFtz:
    return ".ftz";
  case ModSat:
    return ".sat";
  case ModApprox:
    return ".approx";
  case ModFull:
    return ".full";
  case ModNaN:
    return ".NaN";
  case ModXorsign:
    return ".xorsign";
  case ModAbs:
    return ".abs";
  case ModRelu:
    return ".relu";
  case ModOob:
    return ".oob";
  }
  return "modifier";
}

/// Reports modifiers outside Allowed (the ISA's syntax for this form).
bool checkMods(FunctionLowering &L, const Instruction &I, const ArithMods &M,
               unsigned Allowed, StringRef Form) {
  if (!M.Unknown.empty()) {
    L.unsupported(I, "." + M.Unknown + " is not a modifier of " + Form);
    return false;
  }
  if (unsigned Extra = M.Present & ~Allowed) {
    unsigned Bit = Extra & -Extra;
    if (Bit == ModOob)
      L.unsupported(I, ".oob (out-of-bounds NaN operands) is not implemented");
    else
      L.unsupported(I, Twine(modName(Bit)) + " is not valid for " + Form);
    return false;
  }
  return true;
}

/// PTX ISA 1.0-1.3 let div, rcp, sqrt, rsqrt and the transcendentals omit
/// .approx or the rounding modifier (ISA 9.7.3, "PTX ISA Notes").
bool isLegacyPtx(const FunctionLowering &L) {
  const Module &M = L.ML.PM;
  return M.VersionMajor < 1 || (M.VersionMajor == 1 && M.VersionMinor < 4);
}

bool targetsSm1x(const FunctionLowering &L) {
  for (const auto &T : L.ML.PM.Targets)
    if (T.size() == 5 && T.rfind("sm_1", 0) == 0)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// min / max
//===----------------------------------------------------------------------===//

/// Bits and value (in a format that holds it exactly) of a min/max operand.
struct MinMaxOperand {
  Value *Bits;
  Value *Val;
};

/// min/max per ISA 9.7.3.11/9.7.3.12 and 9.7.4.7/9.7.4.8: a NaN operand
/// yields the other one (both NaN: NaN), .NaN makes any NaN operand give the
/// canonical NaN, -0.0 orders below +0.0, .abs compares magnitudes and
/// .xorsign gives a non-NaN result the XOR of the two inputs' signs.
Value *emitMinMax(FloatEmitter &E, bool IsMax, ArrayRef<MinMaxOperand> Ops,
                  const ArithMods &M, const FloatFormat &F) {
  IRBuilder<> &B = E.B;
  Value *SignMask = E.bitsConst(F, F.signBit());
  Value *Xor = nullptr;
  if (M.any(ModXorsign))
    Xor = B.CreateAnd(B.CreateXor(Ops[0].Bits, Ops[1].Bits), SignMask);
  SmallVector<MinMaxOperand, 3> X(Ops.begin(), Ops.end());
  if (M.any(ModAbs))
    for (auto &O : X) {
      O.Bits = B.CreateAnd(O.Bits, E.bitsConst(F, F.signBit() - 1));
      O.Val = E.fabs(O.Val);
    }
  Value *Canonical = E.bitsConst(F, F.canonicalNaN());
  auto two = [&](MinMaxOperand P, MinMaxOperand Q) -> MinMaxOperand {
    Value *PNaN = E.isNaN(P.Val), *QNaN = E.isNaN(Q.Val);
    Value *PNeg = E.signOf(P.Val), *QNeg = E.signOf(Q.Val);
    // Q is preferred, as in (p < q) ? p : q; equal zeros order by sign.
    Value *Strict =
        IsMax ? B.CreateFCmpOGT(P.Val, Q.Val) : B.CreateFCmpOLT(P.Val, Q.Val);
    Value *ZeroOrder = IsMax ? B.CreateAnd(B.CreateNot(PNeg), QNeg)
                             : B.CreateAnd(PNeg, B.CreateNot(QNeg));
    Value *TakeP = B.CreateOr(
        Strict, B.CreateAnd(B.CreateFCmpOEQ(P.Val, Q.Val), ZeroOrder));
    Value *Bits = B.CreateSelect(TakeP, P.Bits, Q.Bits);
    Value *Val = B.CreateSelect(TakeP, P.Val, Q.Val);
    if (M.any(ModNaN)) {
      Bits = B.CreateSelect(B.CreateOr(PNaN, QNaN), Canonical, Bits);
    } else {
      Bits = B.CreateSelect(PNaN, B.CreateSelect(QNaN, Canonical, Q.Bits),
                            B.CreateSelect(QNaN, P.Bits, Bits));
      Val = B.CreateSelect(PNaN, Q.Val, B.CreateSelect(QNaN, P.Val, Val));
    }
    // A NaN result keeps a NaN value for a following comparison.
    Val = B.CreateSelect(E.isNaNBits(Bits, F),
                         ConstantFP::getNaN(Val->getType()), Val);
    return {Bits, Val};
  };
  MinMaxOperand R = two(X[0], X[1]);
  if (X.size() == 3)
    R = two(R, X[2]);
  if (!Xor)
    return R.Bits;
  Value *Signed =
      B.CreateOr(B.CreateAnd(R.Bits, E.bitsConst(F, F.signBit() - 1)), Xor);
  return B.CreateSelect(E.isNaNBits(R.Bits, F), R.Bits, Signed);
}

//===----------------------------------------------------------------------===//
// f32 and f64
//===----------------------------------------------------------------------===//

/// Rounds to the 20-bit significand of rcp/rsqrt.approx.ftz.f64 and builds
/// the f64 result: upper word as computed, lower word zero, subnormal
/// results flushed, NaN as the canonical 0x7fffffff00000000.
Value *highWordResult(FloatEmitter &E, Value *S, Value *Err) {
  IRBuilder<> &B = E.B;
  Value *Hi = E.roundDouble(S, Err, Rounding::NearestEven, DoubleHighFormat);
  Hi = E.flushBits(Hi, DoubleHighFormat);
  return B.CreateBitCast(B.CreateShl(B.CreateZExt(Hi, E.i64()), 32), E.f64());
}

void lowerRcpApproxFtzF64(FloatEmitter &E, const Instruction &I) {
  IRBuilder<> &B = E.B;
  Value *A = E.L.read(I, 1, E.f64(), false);
  if (!A)
    return;
  // Only the upper word of the operand takes part (ISA 9.7.3.14).
  Value *Hi = B.CreateAnd(B.CreateBitCast(A, E.i64()),
                          B.getInt64(0xffffffff00000000ull));
  Value *T = B.CreateBitCast(Hi, E.f64());
  Value *Neg = E.signOf(T);
  Value *Tiny = B.CreateICmpEQ(
      B.CreateAnd(Hi, B.getInt64(uint64_t(0x7ff) << 52)), B.getInt64(0));
  Value *SignedInf = B.CreateSelect(Neg, ConstantFP::getInfinity(E.f64(), true),
                                    ConstantFP::getInfinity(E.f64(), false));
  Value *Q = B.CreateFDiv(E.dbl(1.0), T);
  Value *Rem = E.fma(B.CreateFNeg(Q), T, E.dbl(1.0));
  Value *Err = B.CreateSelect(Neg, B.CreateFNeg(Rem), Rem);
  Value *R = highWordResult(E, B.CreateSelect(Tiny, SignedInf, Q), Err);
  E.L.write(I.Operands[0], R, false);
}

void lowerRsqrtApproxFtzF64(FloatEmitter &E, const Instruction &I) {
  IRBuilder<> &B = E.B;
  Value *A = E.L.read(I, 1, E.f64(), false);
  if (!A)
    return;
  Value *Hi = B.CreateAnd(B.CreateBitCast(A, E.i64()),
                          B.getInt64(0xffffffff00000000ull));
  Value *T = B.CreateBitCast(Hi, E.f64());
  Value *Neg = E.signOf(T);
  // Zeros and subnormals count as signed zeros: 1/sqrt(+-0) = +-inf.
  Value *Tiny = B.CreateICmpEQ(
      B.CreateAnd(Hi, B.getInt64(uint64_t(0x7ff) << 52)), B.getInt64(0));
  Value *SignedInf = B.CreateSelect(Neg, ConstantFP::getInfinity(E.f64(), true),
                                    ConstantFP::getInfinity(E.f64(), false));
  Value *Root = E.L.callIntrinsic(Intrinsic::sqrt, {E.f64()}, {T});
  Value *Y = B.CreateFDiv(E.dbl(1.0), Root); // NaN for negative inputs
  Value *R = highWordResult(E, B.CreateSelect(Tiny, SignedInf, Y), nullptr);
  E.L.write(I.Operands[0], R, false);
}

/// The f32 value of the bits an f32 rounding step produced.
Value *narrowToSingle(FloatEmitter &E, Value *Bits) {
  return E.B.CreateBitCast(Bits, E.B.getFloatTy());
}

void lowerScalarFloat(FunctionLowering &L, const Instruction &I, ScalarType T,
                      const ArithMods &M) {
  FloatEmitter E(L);
  IRBuilder<> &B = L.B;
  const std::string &Op = I.Opcode;
  bool IsF32 = T == ScalarType::F32;
  Type *Ty = llvmType(L.Ctx, T);
  std::string Form = Op + "." + std::string(scalarTypeName(T));
  unsigned Ftz32 = IsF32 ? ModFtz : 0;
  bool Legacy = isLegacyPtx(L);
  // On sm_1x every f32 arithmetic instruction flushes subnormal inputs and
  // results (ISA "Subnormal numbers: sm_1x"), .ftz or not.
  bool Sm1x = IsF32 && targetsSm1x(L);
  bool Ftz = M.any(ModFtz) || Sm1x;

  auto in = [&](unsigned Idx) -> Value * {
    Value *V = L.read(I, Idx, Ty, false);
    return V && Ftz ? L.flush(V) : V;
  };
  auto finish = [&](Value *R) {
    if (Ftz)
      R = L.flush(R);
    if (M.any(ModSat))
      R = L.saturate(R);
    L.write(I.Operands[0], R, false);
  };
  auto wide = [&](Value *V) { return IsF32 ? B.CreateFPExt(V, E.f64()) : V; };
  auto narrow = [&](Value *D) {
    return IsF32 ? B.CreateFPTrunc(D, B.getFloatTy()) : D;
  };
  Rounding RM = M.Rnd;
  bool Directed = M.any(ModRnd) && RM != Rounding::NearestEven;

  if (Op == "add" || Op == "sub" || Op == "mul") {
    if (!checkMods(L, I, M, ModRnd | Ftz32 | (IsF32 ? ModSat : 0), Form))
      return;
    Value *A = in(1), *Bv = in(2);
    if (!A || !Bv)
      return;
    bool Sub = Op == "sub";
    Value *R;
    if (!Directed)
      R = Op == "mul" ? B.CreateFMul(A, Bv)
          : Sub       ? B.CreateFSub(A, Bv)
                      : B.CreateFAdd(A, Bv);
    else if (!IsF32)
      R = B.CreateBitCast(Op == "mul" ? E.mulDouble(A, Bv, RM)
                                      : E.addDouble(A, Bv, RM, Sub),
                          E.f64());
    else if (Op == "mul")
      R = narrowToSingle(E, E.mulNarrow(wide(A), wide(Bv), RM, SingleFormat));
    else
      R = narrowToSingle(E,
                         E.addNarrow(wide(A), wide(Sub ? B.CreateFNeg(Bv) : Bv),
                                     RM, SingleFormat));
    finish(R);
    return;
  }

  if (Op == "fma" || Op == "mad") {
    if (!checkMods(L, I, M, ModRnd | Ftz32 | (IsF32 ? ModSat : 0), Form))
      return;
    if (!M.any(ModRnd)) {
      // fma has no default rounding. mad.f64 without one is legacy PTX
      // that maps to mad.rn.f64, and mad.f32 without one is fma.rn.f32.
      // On sm_1x the ISA's notes truncate the product before the add, but
      // the GPUs that run sm_1x PTX today fuse it (an H200 gave fma.rn's
      // results, with sm_1x's flushing): cuhip does what they do.
      if (Op == "fma") {
        L.unsupported(I, "fma requires a rounding modifier");
        return;
      }
    }
    Value *A = in(1), *Bv = in(2), *C = in(3);
    if (!A || !Bv || !C)
      return;
    Value *R;
    if (!Directed)
      R = E.fma(A, Bv, C);
    else if (IsF32)
      R = narrowToSingle(
          E, E.fmaNarrow(wide(A), wide(Bv), wide(C), RM, SingleFormat));
    else
      R = B.CreateBitCast(E.fmaDouble(A, Bv, C, RM), E.f64());
    finish(R);
    return;
  }

  if (Op == "div" || Op == "rcp" || Op == "sqrt") {
    bool IsDiv = Op == "div";
    unsigned Allowed = IsF32
                           ? ModRnd | ModApprox | ModFtz | (IsDiv ? ModFull : 0)
                           : ModRnd | (Op == "rcp" ? ModApprox | ModFtz : 0);
    if (!checkMods(L, I, M, Allowed, Form))
      return;
    unsigned Kinds = (M.any(ModRnd) ? 1 : 0) + (M.any(ModApprox) ? 1 : 0) +
                     (M.any(ModFull) ? 1 : 0);
    bool Approx = M.any(ModApprox), Full = M.any(ModFull);
    if (Kinds > 1) {
      L.unsupported(I, "at most one of .approx, .full and a rounding "
                       "modifier may be given");
      return;
    }
    if (Kinds == 0) {
      if (!Legacy) {
        L.unsupported(I, Twine(Op) + " requires " +
                             (IsF32 ? (IsDiv ? ".approx, .full or a rounding "
                                               "modifier"
                                             : ".approx or a rounding "
                                               "modifier")
                                    : "a rounding modifier"));
        return;
      }
      // PTX ISA 1.0-1.3: f32 defaults to .approx.ftz, f64 to .rn.
      if (IsF32) {
        Approx = true;
        Ftz = true;
      }
    }
    if (!IsF32 && M.any(ModFtz) && !Approx) {
      L.unsupported(I, ".ftz is valid for f64 only in rcp.approx.ftz.f64");
      return;
    }
    if (!IsF32 && Approx) {
      // rcp.approx.ftz.f64, the only f64 .approx form of the three.
      if (!M.any(ModFtz)) {
        L.unsupported(I, "rcp.approx.f64 exists only as rcp.approx.ftz.f64");
        return;
      }
      lowerRcpApproxFtzF64(E, I);
      return;
    }
    Value *A = IsDiv ? in(1) : (Op == "rcp" ? ConstantFP::get(Ty, 1.0) : in(1));
    Value *Bv = IsDiv ? in(2) : (Op == "rcp" ? in(1) : nullptr);
    if (!A || (Op != "sqrt" && !Bv))
      return;
    Value *R;
    if (Op == "sqrt") {
      // sqrt.approx.f32 allows a relative error of 2^-23; the correctly
      // rounded root is within it.
      if (!Directed)
        R = L.callIntrinsic(Intrinsic::sqrt, {Ty}, {A});
      else if (IsF32)
        R = narrowToSingle(E, E.sqrtNarrow(wide(A), RM, SingleFormat));
      else
        R = B.CreateBitCast(E.sqrtDouble(A, RM), E.f64());
    } else if (Approx && IsDiv) {
      // div.approx.f32 is a * (1/b): for 2^126 < |b| the reciprocal is a
      // signed zero, so the result is a signed zero, or NaN for infinite a.
      // Elsewhere the correctly rounded quotient is within its 2 ulp.
      Value *Huge = B.CreateFCmpOGT(E.fabs(Bv), ConstantFP::get(Ty, 0x1p126));
      Value *RecipZero = L.callIntrinsic(Intrinsic::copysign, {Ty},
                                         {ConstantFP::get(Ty, 0.0), Bv});
      R = B.CreateSelect(Huge, B.CreateFMul(A, RecipZero), B.CreateFDiv(A, Bv));
    } else if (!Directed) {
      // .rn, div.full (2 ulp) and rcp.approx (1 ulp): the correctly rounded
      // quotient.
      (void)Full;
      R = B.CreateFDiv(A, Bv);
    } else if (IsF32) {
      R = narrowToSingle(E, E.divNarrow(wide(A), wide(Bv), RM, SingleFormat));
    } else {
      R = B.CreateBitCast(E.divDouble(A, Bv, RM), E.f64());
    }
    if (Ftz)
      R = L.flush(R);
    L.write(I.Operands[0], R, false);
    return;
  }

  if (Op == "rsqrt") {
    if (!checkMods(L, I, M, ModApprox | ModFtz, Form))
      return;
    bool Approx = M.any(ModApprox);
    if (!Approx && !Legacy) {
      L.unsupported(I, "rsqrt requires .approx");
      return;
    }
    if (!Approx && IsF32)
      Ftz = true; // legacy rsqrt.f32 is rsqrt.approx.ftz.f32
    if (!IsF32 && M.any(ModFtz)) {
      lowerRsqrtApproxFtzF64(E, I);
      return;
    }
    Value *A = in(1);
    if (!A)
      return;
    // In f64 for f32 (relative error about 2^-24, within 2^-22.9); f64
    // itself, for which the ISA states no bound, is within about 1.5 ulp.
    Value *Root = L.callIntrinsic(Intrinsic::sqrt, {E.f64()}, {wide(A)});
    Value *R = narrow(B.CreateFDiv(E.dbl(1.0), Root));
    if (Ftz)
      R = L.flush(R);
    L.write(I.Operands[0], R, false);
    return;
  }

  if (Op == "sin" || Op == "cos" || Op == "lg2" || Op == "ex2" ||
      Op == "tanh") {
    bool IsTanh = Op == "tanh";
    if (!IsF32) {
      L.unsupported(I, Twine(Op) + " exists for .f32 and the 16-bit types "
                                   "only");
      return;
    }
    if (!checkMods(L, I, M, ModApprox | (IsTanh ? 0 : ModFtz), Form))
      return;
    if (!M.any(ModApprox)) {
      if (!Legacy || IsTanh) {
        L.unsupported(I, Twine(Op) + " requires .approx");
        return;
      }
      Ftz = true; // PTX ISA 1.0-1.3 default: .approx.ftz
    }
    // Flushing a subnormal operand cannot change ex2 (1 either way), sin
    // (the result, +-subnormal, is flushed to the same signed zero) or cos
    // (1): only lg2 needs it.
    Value *A = Op == "lg2" ? in(1) : L.read(I, 1, Ty, false);
    if (!A)
      return;
    // The inline f64 sequences rounded once to f32 are within half an ulp
    // plus 2^-10 ulp or less, inside every .approx bound (sin/cos 2^-20.5
    // absolute, lg2 2^-22, ex2 2 ulp, tanh 2^-11 relative); ApproxMath.cpp
    // derives the error of each. tanh passes subnormals through as the ISA
    // notes, since tanh(x) rounds to x there.
    Value *W = wide(A);
    Value *D = Op == "sin"   ? emitApproxSinCos(B, W, /*Cos=*/false)
               : Op == "cos" ? emitApproxSinCos(B, W, /*Cos=*/true)
               : Op == "lg2" ? emitApproxLog2(B, W)
               : Op == "ex2" ? emitApproxExp2(B, W)
                             : emitApproxTanh(B, W);
    Value *R = narrow(D);
    if (Ftz)
      R = L.flush(R);
    L.write(I.Operands[0], R, false);
    return;
  }

  if (Op == "abs" || Op == "neg") {
    if (!checkMods(L, I, M, Ftz32, Form))
      return;
    Value *A = in(1);
    if (!A)
      return;
    Value *R;
    if (Op == "neg") {
      R = B.CreateFNeg(A);
    } else {
      R = E.fabs(A);
      // abs.f64 passes a NaN through with its sign (ISA 9.7.3.9); an H200
      // quiets a signaling one, so cuhip does too.
      if (!IsF32) {
        Value *Quiet = B.CreateBitCast(
            B.CreateOr(B.CreateBitCast(A, B.getInt64Ty()),
                       B.getInt64(uint64_t(1) << 51)),
            A->getType());
        R = B.CreateSelect(E.isNaN(A), Quiet, R);
      }
    }
    finish(R);
    return;
  }

  if (Op == "min" || Op == "max") {
    if (!checkMods(L, I, M, IsF32 ? ModFtz | ModNaN | ModXorsign | ModAbs : 0,
                   Form))
      return;
    bool Three = I.Operands.size() == 4;
    if (Three ? M.any(ModXorsign)
              : M.any(ModXorsign | ModAbs) && !M.has(ModXorsign | ModAbs)) {
      L.unsupported(I, Three ? ".xorsign is not valid with three inputs"
                             : ".xorsign and .abs go together");
      return;
    }
    SmallVector<MinMaxOperand, 3> Ops;
    for (unsigned Idx = 1; Idx < I.Operands.size(); ++Idx) {
      Value *V = in(Idx);
      if (!V)
        return;
      Ops.push_back({E.bitsOf(V), V});
    }
    if (Ops.size() != 2 && Ops.size() != 3) {
      L.unsupported(I, "expected two or three source operands");
      return;
    }
    Value *Bits = emitMinMax(E, Op == "max", Ops, M, formatOf(T));
    L.write(I.Operands[0], B.CreateBitCast(Bits, Ty), false);
    return;
  }

  L.unsupported(I, "not a floating-point instruction");
}

//===----------------------------------------------------------------------===//
// f16, f16x2, bf16, bf16x2
//===----------------------------------------------------------------------===//

/// Applies Fn to each 16-bit element (element 0 in the low half of a
/// packed register).
Value *perElement(IRBuilder<> &B, bool Packed, ArrayRef<Value *> Ops,
                  function_ref<Value *(ArrayRef<Value *>)> Fn) {
  if (!Packed)
    return Fn(Ops);
  SmallVector<Value *, 3> Lo, Hi;
  for (Value *V : Ops) {
    Lo.push_back(B.CreateTrunc(V, B.getInt16Ty()));
    Hi.push_back(B.CreateTrunc(B.CreateLShr(V, 16), B.getInt16Ty()));
  }
  Value *R0 = B.CreateZExt(Fn(Lo), B.getInt32Ty());
  Value *R1 = B.CreateZExt(Fn(Hi), B.getInt32Ty());
  return B.CreateOr(R0, B.CreateShl(R1, 16));
}

void lowerHalfFloat(FunctionLowering &L, const Instruction &I, ScalarType T,
                    const ArithMods &M) {
  FloatEmitter E(L);
  IRBuilder<> &B = L.B;
  const std::string &Op = I.Opcode;
  const FloatFormat &F = formatOf(T);
  bool IsBF = &F == &BFloatFormat;
  bool Packed = T == ScalarType::F16x2 || T == ScalarType::BF16x2;
  std::string Form = Op + "." + std::string(scalarTypeName(T));
  unsigned FtzF16 = IsBF ? 0 : ModFtz;
  bool Ftz = M.any(ModFtz);
  Type *Storage = llvmType(L.Ctx, T); // half, bfloat or i32
  Type *IntTy = B.getIntNTy(Packed ? 32 : 16);

  if (M.any(ModRnd) && M.Rnd != Rounding::NearestEven) {
    L.unsupported(I, "." + M.RoundingName + " is not valid for " + Form +
                         " (only .rn)");
    return;
  }
  SmallVector<Value *, 3> Ops;
  auto readAll = [&](unsigned N) {
    for (unsigned Idx = 1; Idx <= N; ++Idx) {
      Value *V = L.read(I, Idx, Storage, false);
      if (!V)
        return false;
      Ops.push_back(B.CreateBitCast(V, IntTy));
    }
    return true;
  };
  auto emit = [&](unsigned N, function_ref<Value *(ArrayRef<Value *>)> Fn) {
    if (!readAll(N))
      return;
    Value *R = perElement(B, Packed, Ops, [&](ArrayRef<Value *> X) {
      SmallVector<Value *, 3> In(X.begin(), X.end());
      if (Ftz)
        for (Value *&V : In)
          V = E.flushBits(V, F);
      Value *R = Fn(In);
      return Ftz ? E.flushBits(R, F) : R;
    });
    L.write(I.Operands[0], B.CreateBitCast(R, Storage), false);
  };
  auto dbl = [&](Value *H) { return E.halfToDouble(H, F); };

  if (Op == "add" || Op == "sub" || Op == "mul") {
    if (!checkMods(L, I, M, ModRnd | FtzF16 | (IsBF ? 0 : ModSat), Form))
      return;
    bool Sat = M.any(ModSat);
    emit(2, [&](ArrayRef<Value *> X) {
      Value *A = dbl(X[0]), *Bv = dbl(X[1]);
      if (Op == "sub")
        Bv = B.CreateFNeg(Bv);
      Value *R = Op == "mul" ? E.mulNarrow(A, Bv, Rounding::NearestEven, F)
                             : E.addNarrow(A, Bv, Rounding::NearestEven, F);
      return Sat ? E.saturateBits(R, F) : R;
    });
    return;
  }

  if (Op == "fma") {
    if (!checkMods(L, I, M,
                   ModRnd | ModRelu | ModOob | (IsBF ? 0 : ModFtz | ModSat),
                   Form))
      return;
    if (M.any(ModOob)) {
      L.unsupported(I, ".oob (out-of-bounds NaN operands) is not "
                       "implemented");
      return;
    }
    // The syntax spells fma.rnd, but the ISA's notes give the 16-bit forms
    // a default of .rn (ISA 9.7.4.4), the only rounding they have.
    if (M.has(ModSat | ModRelu)) {
      L.unsupported(I, ".sat and .relu are separate forms");
      return;
    }
    bool Sat = M.any(ModSat), Relu = M.any(ModRelu);
    emit(3, [&](ArrayRef<Value *> X) {
      Value *R = E.fmaNarrow(dbl(X[0]), dbl(X[1]), dbl(X[2]),
                             Rounding::NearestEven, F);
      if (Sat)
        R = E.saturateBits(R, F);
      if (Relu) {
        // Negative results become 0, a NaN result the canonical NaN.
        Value *Negative = B.CreateICmpUGT(R, E.bitsConst(F, F.signBit()));
        R = B.CreateSelect(E.isNaNBits(R, F), E.bitsConst(F, F.canonicalNaN()),
                           B.CreateSelect(Negative, E.bitsConst(F, 0), R));
      }
      return R;
    });
    return;
  }

  if (Op == "neg" || Op == "abs") {
    if (!checkMods(L, I, M, FtzF16, Form))
      return;
    bool Neg = Op == "neg";
    emit(1, [&](ArrayRef<Value *> X) {
      return Neg ? B.CreateXor(X[0], E.bitsConst(F, F.signBit()))
                 : B.CreateAnd(X[0], E.bitsConst(F, F.signBit() - 1));
    });
    return;
  }

  if (Op == "min" || Op == "max") {
    if (!checkMods(L, I, M, FtzF16 | ModNaN | ModXorsign | ModAbs, Form))
      return;
    if (M.any(ModXorsign | ModAbs) && !M.has(ModXorsign | ModAbs)) {
      L.unsupported(I, ".xorsign and .abs go together");
      return;
    }
    emit(2, [&](ArrayRef<Value *> X) {
      MinMaxOperand P[2] = {{X[0], dbl(X[0])}, {X[1], dbl(X[1])}};
      return emitMinMax(E, Op == "max", P, M, F);
    });
    return;
  }

  if (Op == "ex2" || Op == "tanh") {
    bool IsEx2 = Op == "ex2";
    // ex2.approx.atype (f16) has no .ftz; ex2.approx.ftz.btype (bf16)
    // requires it; tanh.approx takes neither.
    unsigned Allowed = ModApprox | (IsEx2 && IsBF ? ModFtz : 0);
    if (!checkMods(L, I, M, Allowed, Form))
      return;
    if (!M.any(ModApprox) || (IsEx2 && IsBF && !Ftz)) {
      L.unsupported(I, IsEx2 && IsBF ? "ex2 on bf16 is ex2.approx.ftz"
                                     : Twine(Op) + " requires .approx");
      return;
    }
    // The inline f64 sequence rounded once to the 16-bit format: within
    // half an ulp plus a tiny fraction of one, well inside the bounds (ex2:
    // 2^-9.9 / 2^-7 relative, tanh: 2^-10.987 / 2^-8 absolute).
    emit(1, [&](ArrayRef<Value *> X) {
      Value *Y = IsEx2 ? emitApproxExp2(B, dbl(X[0]))
                       : emitApproxTanh(B, dbl(X[0]));
      return E.roundDouble(Y, nullptr, Rounding::NearestEven, F);
    });
    return;
  }

  L.unsupported(I, "not defined for 16-bit floating-point types");
}

//===----------------------------------------------------------------------===//
// copysign, testp
//===----------------------------------------------------------------------===//

void lowerCopysign(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  ArithMods M = parseMods(I);
  if ((T != ScalarType::F32 && T != ScalarType::F64) || M.Types != 1) {
    L.unsupported(I, "copysign takes .f32 or .f64");
    return;
  }
  if (!checkMods(L, I, M, 0, "copysign"))
    return;
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false), *Bv = L.read(I, 2, Ty, false);
  if (!A || !Bv)
    return;
  // d is b with the sign bit of a, bit for bit (NaNs included).
  FloatEmitter E(L);
  const FloatFormat &F = formatOf(T);
  Value *Bits =
      L.B.CreateOr(L.B.CreateAnd(E.bitsOf(Bv), E.bitsConst(F, F.signBit() - 1)),
                   L.B.CreateAnd(E.bitsOf(A), E.bitsConst(F, F.signBit())));
  L.write(I.Operands[0], L.B.CreateBitCast(Bits, Ty), false);
}

void lowerTestp(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if ((T != ScalarType::F32 && T != ScalarType::F64) ||
      I.Modifiers.size() != 2) {
    L.unsupported(I, "expected testp.op.f32 or testp.op.f64");
    return;
  }
  const std::string &What = I.Modifiers[0];
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false);
  if (!A)
    return;
  FloatEmitter E(L);
  IRBuilder<> &B = L.B;
  const FloatFormat &F = formatOf(T);
  Value *Bits = E.bitsOf(A);
  Value *ExpBits = B.CreateAnd(Bits, E.bitsConst(F, F.infBits()));
  Value *Frac = B.CreateAnd(Bits, E.bitsConst(F, F.fracMask()));
  Value *ExpMax = B.CreateICmpEQ(ExpBits, E.bitsConst(F, F.infBits()));
  Value *ExpZero = B.CreateICmpEQ(ExpBits, E.bitsConst(F, 0));
  Value *FracZero = B.CreateICmpEQ(Frac, E.bitsConst(F, 0));
  Value *NaN = B.CreateAnd(ExpMax, B.CreateNot(FracZero));
  Value *Inf = B.CreateAnd(ExpMax, FracZero);
  Value *Sub = B.CreateAnd(ExpZero, B.CreateNot(FracZero));
  Value *R = nullptr;
  if (What == "finite")
    R = B.CreateNot(ExpMax);
  else if (What == "infinite")
    R = Inf;
  else if (What == "number")
    R = B.CreateNot(NaN);
  else if (What == "notanumber")
    R = NaN;
  else if (What == "normal") // zeros count as normal (ISA 9.7.3.1)
    R = B.CreateNot(B.CreateOr(ExpMax, Sub));
  else if (What == "subnormal")
    R = Sub;
  if (!R) {
    L.unsupported(I, "unknown property ." + What);
    return;
  }
  L.write(I.Operands[0], R, false);
}

} // namespace

void lowerFloatArith(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  ArithMods M = parseMods(I);
  if (M.Types > 1) {
    L.unsupported(I, "mixed-precision forms are not implemented");
    return;
  }
  switch (T) {
  case ScalarType::F32:
  case ScalarType::F64:
    lowerScalarFloat(L, I, T, M);
    return;
  case ScalarType::F16:
  case ScalarType::F16x2:
  case ScalarType::BF16:
  case ScalarType::BF16x2:
    lowerHalfFloat(L, I, T, M);
    return;
  default:
    L.unsupported(I, "expected a floating-point type");
    return;
  }
}

void registerFloatInstructions(OpcodeTable &T) {
  // Float-only opcodes; the shared ones (add, mul, min, ...) are dispatched
  // by type in Lower.cpp.
  for (const char *Op :
       {"fma", "sqrt", "rcp", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh"})
    T[Op] = lowerFloatArith;
  T["copysign"] = lowerCopysign;
  T["testp"] = lowerTestp;
}

} // namespace cuhip::ptx::lower
