//===- LowerConvert.cpp - Moves, comparisons and conversions --------------===//
//
// mov (including vector pack/unpack and symbol addresses), the comparisons
// setp and set, the selections selp and slct, and cvt/cvt.pack between the
// integer and floating-point types of the PTX ISA, including the packed
// f16x2/bf16x2, tf32 and fp8 (e4m3, e5m2) forms. A conversion whose rounding
// LLVM IR cannot state exactly (directed modes, bf16/fp8/tf32 results,
// f64-to-f16, integers to halves, .satfinite and .relu) is done on the bit
// patterns with integer arithmetic: the value is unpacked into sign,
// significand and exponent and rounded once, in the requested direction, to
// the destination format. Results therefore never depend on how a target
// lowers fptrunc or on its floating-point environment. Forms the ISA does not
// define, and the ones not implemented (stochastic rounding, fp4/fp6/ue8m0),
// are reported by name.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

namespace {

//===----------------------------------------------------------------------===//
// Floating-point formats and exact rounding on bit patterns
//===----------------------------------------------------------------------===//

/// A binary floating-point encoding: a sign bit, ExpBits of biased exponent
/// and ManBits of fraction. fp8's e4m3 has no infinities: its all-ones
/// exponent still holds finite values, except S.1111.111 which is NaN.
struct FloatFormat {
  unsigned ExpBits, ManBits;
  bool HasInf;
  uint64_t CanonicalNaN; // the NaN a conversion writes

  unsigned width() const { return 1 + ExpBits + ManBits; }
  int bias() const { return (1 << (ExpBits - 1)) - 1; }
  int minExp() const { return 1 - bias(); }
  uint64_t signBit() const { return uint64_t(1) << (ExpBits + ManBits); }
  uint64_t expMask() const { return ((uint64_t(1) << ExpBits) - 1) << ManBits; }
  uint64_t infBits() const { return expMask(); }
  uint64_t maxFinite() const { return HasInf ? infBits() - 1 : signBit() - 2; }
};

constexpr FloatFormat F64Format{11, 52, true, 0x7fffffffffffffffull};
constexpr FloatFormat F32Format{8, 23, true, 0x7fffffff};
constexpr FloatFormat F16Format{5, 10, true, 0x7fff};
constexpr FloatFormat BF16Format{8, 7, true, 0x7fff};
// tf32 keeps f32's exponent and 10 fraction bits; cvt stores it in the upper
// 19 bits of a .b32, so its encoding is shifted left by 13 afterwards.
constexpr FloatFormat TF32Format{8, 10, true, 0x3ffff};
constexpr FloatFormat E4M3Format{4, 3, false, 0x7f};
constexpr FloatFormat E5M2Format{5, 2, true, 0x7f};

const FloatFormat &formatOf(ScalarType T) {
  switch (T) {
  case ScalarType::F16:
    return F16Format;
  case ScalarType::BF16:
    return BF16Format;
  case ScalarType::F32:
    return F32Format;
  default:
    return F64Format;
  }
}

enum class Rounding { RN, RNA, RZ, RM, RP };

/// A value as (-1)^Sign * Mant * 2^Exp, with the NaN and infinity classes
/// beside it (Mant and Exp are meaningless for those).
struct Unpacked {
  Value *Sign;  // i1
  Value *Mant;  // i64, may be zero
  Value *Exp;   // i32
  Value *IsNaN; // i1
  Value *IsInf; // i1
};

Unpacked unpackFloat(IRBuilderBase &B, Value *Bits, const FloatFormat &F) {
  unsigned M = F.ManBits;
  uint64_t ExpAllOnes = (uint64_t(1) << F.ExpBits) - 1;
  Value *X = B.CreateZExt(Bits, B.getInt64Ty());
  Value *ExpField = B.CreateAnd(B.CreateLShr(X, M), ExpAllOnes);
  Value *Frac = B.CreateAnd(X, (uint64_t(1) << M) - 1);
  Value *IsSubnormal = B.CreateICmpEQ(ExpField, B.getInt64(0));
  Unpacked U;
  U.Sign = B.CreateICmpNE(B.CreateAnd(X, F.signBit()), B.getInt64(0));
  U.Mant =
      B.CreateSelect(IsSubnormal, Frac, B.CreateOr(Frac, uint64_t(1) << M));
  // Subnormals share the exponent of the smallest normal binade.
  Value *Biased = B.CreateTrunc(
      B.CreateSelect(IsSubnormal, B.getInt64(1), ExpField), B.getInt32Ty());
  U.Exp = B.CreateSub(Biased, B.getInt32(F.bias() + int(M)));
  if (F.HasInf) {
    Value *Special = B.CreateICmpEQ(ExpField, B.getInt64(ExpAllOnes));
    Value *FracZero = B.CreateICmpEQ(Frac, B.getInt64(0));
    U.IsInf = B.CreateAnd(Special, FracZero);
    U.IsNaN = B.CreateAnd(Special, B.CreateNot(FracZero));
  } else {
    U.IsInf = B.getFalse();
    U.IsNaN = B.CreateICmpEQ(B.CreateAnd(X, F.signBit() - 1),
                             B.getInt64(F.signBit() - 1));
  }
  return U;
}

Unpacked unpackInteger(IRBuilderBase &B, Value *V, bool Signed) {
  Value *X = Signed ? B.CreateSExt(V, B.getInt64Ty())
                    : B.CreateZExt(V, B.getInt64Ty());
  Unpacked U;
  U.Sign = Signed ? B.CreateICmpSLT(X, B.getInt64(0)) : B.getFalse();
  // The magnitude of INT64_MIN wraps to 2^63, which is right as unsigned.
  U.Mant = Signed ? B.CreateSelect(U.Sign, B.CreateNeg(X), X) : X;
  U.Exp = B.getInt32(0);
  U.IsNaN = B.getFalse();
  U.IsInf = B.getFalse();
  return U;
}

/// Rounds U once to F in direction R and returns its encoding (an integer of
/// F.width() bits). Overflow follows IEEE 754 for the direction, or gives the
/// largest finite value under SatFinite (also for infinite inputs). NaN gives
/// F's canonical NaN. Relu turns every negative result into +0.
Value *roundToFormat(IRBuilderBase &B, const Unpacked &U, const FloatFormat &F,
                     Rounding R, bool SatFinite, bool Relu) {
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  int M = int(F.ManBits), MinExp = F.minExp();
  // Exponent of the leading significand bit, and of the result's last place:
  // that of the value's binade, or of the subnormal range below MinExp.
  Value *Lz = B.CreateTrunc(
      B.CreateIntrinsic(Intrinsic::ctlz, {I64}, {U.Mant, B.getFalse()}), I32);
  Value *Lead = B.CreateAdd(B.CreateSub(B.getInt32(63), Lz), U.Exp);
  Value *Quantum = B.CreateSub(
      B.CreateBinaryIntrinsic(Intrinsic::smax, Lead, B.getInt32(MinExp)),
      B.getInt32(M));
  Value *Shift = B.CreateSub(Quantum, U.Exp);
  // A right shift drops bits into the remainder. Shifts past 63 are clamped:
  // only float sources get there, and their significands (< 2^53) are then
  // below half of the clamped unit, which rounds the same way.
  Value *RShift = B.CreateZExt(
      B.CreateBinaryIntrinsic(
          Intrinsic::umin,
          B.CreateBinaryIntrinsic(Intrinsic::smax, Shift, B.getInt32(0)),
          B.getInt32(63)),
      I64);
  Value *LShift =
      B.CreateZExt(B.CreateBinaryIntrinsic(Intrinsic::smax, B.CreateNeg(Shift),
                                           B.getInt32(0)),
                   I64);
  // (Each IR value is built in a statement of its own so that the
  // instruction order does not depend on C++ argument evaluation order.)
  Value *IsLeft = B.CreateICmpSLT(Shift, B.getInt32(0));
  Value *Left = B.CreateShl(U.Mant, LShift);
  Value *Right = B.CreateLShr(U.Mant, RShift);
  Value *N = B.CreateSelect(IsLeft, Left, Right);
  Value *Unit = B.CreateShl(B.getInt64(1), RShift);
  Value *Rem = B.CreateAnd(U.Mant, B.CreateSub(Unit, B.getInt64(1)));
  Value *Half = B.CreateLShr(Unit, 1);
  Value *Inexact = B.CreateICmpNE(Rem, B.getInt64(0));
  Value *Up = nullptr;
  switch (R) {
  case Rounding::RN: {
    Value *Odd = B.CreateTrunc(N, B.getInt1Ty());
    Value *Tie = B.CreateAnd(B.CreateICmpEQ(Rem, Half), Inexact);
    Value *Above = B.CreateICmpUGT(Rem, Half);
    Up = B.CreateOr(Above, B.CreateAnd(Tie, Odd));
    break;
  }
  case Rounding::RNA:
    Up = B.CreateAnd(B.CreateICmpUGE(Rem, Half), Inexact);
    break;
  case Rounding::RZ:
    Up = B.getFalse();
    break;
  case Rounding::RP:
    Up = B.CreateAnd(Inexact, B.CreateNot(U.Sign));
    break;
  case Rounding::RM:
    Up = B.CreateAnd(Inexact, U.Sign);
    break;
  }
  N = B.CreateAdd(N, B.CreateZExt(Up, I64));
  // Biased exponent minus one, times 2^M, plus the significand with its
  // leading bit: a carry out of the significand moves to the next binade,
  // and a subnormal that rounds up becomes the smallest normal.
  Value *ExpPart =
      B.CreateZExt(B.CreateBinaryIntrinsic(
                       Intrinsic::smax, B.CreateSub(Lead, B.getInt32(MinExp)),
                       B.getInt32(0)),
                   I64);
  Value *Bits = B.CreateAdd(B.CreateShl(ExpPart, uint64_t(M)), N);

  Constant *Max = B.getInt64(F.maxFinite());
  Constant *Inf = B.getInt64(F.HasInf ? F.infBits() : F.maxFinite());
  Value *Overflow = nullptr;
  if (SatFinite || !F.HasInf) {
    Overflow = Max;
  } else {
    switch (R) {
    case Rounding::RN:
    case Rounding::RNA:
      Overflow = Inf;
      break;
    case Rounding::RZ:
      Overflow = Max;
      break;
    case Rounding::RP:
      Overflow = B.CreateSelect(U.Sign, Max, Inf);
      break;
    case Rounding::RM:
      Overflow = B.CreateSelect(U.Sign, Inf, Max);
      break;
    }
  }
  Bits = B.CreateSelect(B.CreateICmpUGT(Bits, Max), Overflow, Bits);
  Bits = B.CreateSelect(B.CreateICmpEQ(U.Mant, B.getInt64(0)), B.getInt64(0),
                        Bits);
  Bits = B.CreateSelect(U.IsInf, SatFinite ? Max : Inf, Bits);
  Bits = B.CreateOr(
      Bits, B.CreateSelect(U.Sign, B.getInt64(F.signBit()), B.getInt64(0)));
  if (Relu)
    Bits = B.CreateSelect(U.Sign, B.getInt64(0), Bits);
  Bits = B.CreateSelect(U.IsNaN, B.getInt64(F.CanonicalNaN), Bits);
  return B.CreateTrunc(Bits, B.getIntNTy(F.width()));
}

/// Subnormal encodings of F become a zero of the same sign (.ftz).
Value *flushBits(IRBuilderBase &B, Value *Bits, const FloatFormat &F) {
  Type *Ty = Bits->getType();
  Value *Tiny =
      B.CreateICmpEQ(B.CreateAnd(Bits, ConstantInt::get(Ty, F.expMask())),
                     ConstantInt::get(Ty, 0));
  return B.CreateSelect(
      Tiny, B.CreateAnd(Bits, ConstantInt::get(Ty, F.signBit())), Bits);
}

/// .ftz on an f16 or f32 value.
Value *flushValue(IRBuilderBase &B, Value *V) {
  const FloatFormat &F = V->getType()->isHalfTy() ? F16Format : F32Format;
  Type *IntTy = B.getIntNTy(F.width());
  return B.CreateBitCast(flushBits(B, B.CreateBitCast(V, IntTy), F),
                         V->getType());
}

/// The .sat modifier of float results: clamp to [0, 1]; NaN (and -0) give +0.
Value *saturateUnit(IRBuilderBase &B, Value *V) {
  Type *Ty = V->getType();
  Constant *Zero = ConstantFP::get(Ty, 0.0), *One = ConstantFP::get(Ty, 1.0);
  Value *Clamped = B.CreateSelect(B.CreateFCmpOGT(V, One), One, V);
  return B.CreateSelect(B.CreateFCmpOGT(V, Zero), Clamped, Zero);
}

/// bf16 bits widened exactly to f32 (the upper half of its encoding).
Value *bf16BitsToFloat(IRBuilderBase &B, Value *Bits) {
  return B.CreateBitCast(B.CreateShl(B.CreateZExt(Bits, B.getInt32Ty()), 16),
                         B.getFloatTy());
}

/// An f16 or bf16 encoding widened exactly to f32.
Value *halfBitsToFloat(IRBuilderBase &B, Value *Bits, bool IsBF16) {
  if (IsBF16)
    return bf16BitsToFloat(B, Bits);
  return B.CreateFPExt(B.CreateBitCast(Bits, B.getHalfTy()), B.getFloatTy());
}

//===----------------------------------------------------------------------===//
// Modifiers
//===----------------------------------------------------------------------===//

/// Element types of cvt that are not register types.
bool isPackedCvtTypeName(StringRef N) {
  return N == "tf32" || N == "e4m3x2" || N == "e5m2x2" || N == "e2m1x2" ||
         N == "e2m3x2" || N == "e3m2x2" || N == "ue8m0x2" || N == "e4m3x4" ||
         N == "e5m2x4" || N == "e2m1x4" || N == "e2m3x4" || N == "e3m2x4" ||
         N == "s2f6x2" || N == "u2" || N == "s2" || N == "u4" || N == "s4";
}

/// The modifiers of a cvt, classified; order matters only among the types.
struct CvtModifiers {
  std::string Rnd; // "", rn, rna, rz, rm, rp, rni, rzi, rmi, rpi, rs
  bool Ftz = false, Sat = false, Relu = false, SatFinite = false, Pack = false;
  std::vector<std::string> Types;
  std::string Unknown; // the first modifier that is none of these
  bool TwoRoundings = false;

  bool floatRounding() const {
    return Rnd == "rn" || Rnd == "rz" || Rnd == "rm" || Rnd == "rp";
  }
  bool integerRounding() const {
    return Rnd == "rni" || Rnd == "rzi" || Rnd == "rmi" || Rnd == "rpi";
  }
  Rounding rounding() const {
    if (Rnd == "rz")
      return Rounding::RZ;
    if (Rnd == "rm")
      return Rounding::RM;
    if (Rnd == "rp")
      return Rounding::RP;
    if (Rnd == "rna")
      return Rounding::RNA;
    return Rounding::RN;
  }
};

CvtModifiers classifyCvt(const Instruction &I) {
  CvtModifiers M;
  for (const std::string &X : I.Modifiers) {
    if (X == "rn" || X == "rna" || X == "rz" || X == "rm" || X == "rp" ||
        X == "rni" || X == "rzi" || X == "rmi" || X == "rpi" || X == "rs") {
      M.TwoRoundings |= !M.Rnd.empty();
      M.Rnd = X;
    } else if (X == "ftz") {
      M.Ftz = true;
    } else if (X == "sat") {
      M.Sat = true;
    } else if (X == "relu") {
      M.Relu = true;
    } else if (X == "satfinite") {
      M.SatFinite = true;
    } else if (X == "pack") {
      M.Pack = true;
    } else if (parseScalarType(X) != ScalarType::None ||
               isPackedCvtTypeName(X)) {
      M.Types.push_back(X);
    } else if (M.Unknown.empty()) {
      M.Unknown = X;
    }
  }
  return M;
}

bool operandCount(FunctionLowering &L, const Instruction &I, size_t N) {
  if (I.Operands.size() == N)
    return true;
  L.error(I.Loc,
          Twine("'") + I.fullName() + "' takes " + Twine(N) + " operands");
  return false;
}

/// Reads operand Idx as a value of float type T and returns its encoding.
Value *readFloatBits(FunctionLowering &L, const Instruction &I, unsigned Idx,
                     ScalarType T) {
  Value *V = L.read(I, Idx, llvmType(L.Ctx, T), false);
  return V ? L.B.CreateBitCast(V, L.B.getIntNTy(scalarTypeBits(T))) : nullptr;
}

//===----------------------------------------------------------------------===//
// cvt between scalar types
//===----------------------------------------------------------------------===//

Value *convertIntToInt(FunctionLowering &L, Value *A, ScalarType DT,
                       ScalarType ST, bool Sat) {
  IRBuilderBase &B = L.B;
  Type *DTy = llvmType(L.Ctx, DT);
  if (!Sat)
    return isSignedInt(ST) ? B.CreateSExtOrTrunc(A, DTy)
                           : B.CreateZExtOrTrunc(A, DTy);
  // .sat clamps to the destination range, compared in a type wide enough
  // for both ranges.
  unsigned DW = scalarTypeBits(DT), SW = scalarTypeBits(ST);
  unsigned WW = std::max(DW, SW) + 1;
  Type *WTy = B.getIntNTy(WW);
  Value *X = isSignedInt(ST) ? B.CreateSExt(A, WTy) : B.CreateZExt(A, WTy);
  APInt Lo = isSignedInt(DT) ? APInt::getSignedMinValue(DW).sext(WW)
                             : APInt::getZero(WW);
  APInt Hi = isSignedInt(DT) ? APInt::getSignedMaxValue(DW).sext(WW)
                             : APInt::getMaxValue(DW).zext(WW);
  X = B.CreateBinaryIntrinsic(Intrinsic::smax, X, ConstantInt::get(WTy, Lo));
  X = B.CreateBinaryIntrinsic(Intrinsic::smin, X, ConstantInt::get(WTy, Hi));
  return B.CreateTrunc(X, DTy);
}

Intrinsic::ID integralRounding(StringRef Rnd) {
  if (Rnd == "rni")
    return Intrinsic::roundeven;
  if (Rnd == "rmi")
    return Intrinsic::floor;
  if (Rnd == "rpi")
    return Intrinsic::ceil;
  return Intrinsic::trunc;
}

/// Float to integer: round to an integral value as the modifier says, then
/// clamp to the destination range (PTX saturates by default). NaN gives 0,
/// except from .f64 or into 64-bit types, where it gives 1 << (width - 1).
Value *convertFloatToInt(FunctionLowering &L, Value *Bits, ScalarType DT,
                         ScalarType ST, const CvtModifiers &M) {
  IRBuilderBase &B = L.B;
  Value *X;
  if (ST == ScalarType::F16 || ST == ScalarType::BF16) {
    X = halfBitsToFloat(B, Bits, ST == ScalarType::BF16);
  } else {
    if (M.Ftz)
      Bits = flushBits(B, Bits, F32Format);
    X = B.CreateBitCast(Bits, llvmType(L.Ctx, ST));
  }
  Value *Rounded = B.CreateUnaryIntrinsic(integralRounding(M.Rnd), X);
  Type *DTy = llvmType(L.Ctx, DT);
  Value *R = B.CreateIntrinsic(isSignedInt(DT) ? Intrinsic::fptosi_sat
                                               : Intrinsic::fptoui_sat,
                               {DTy, X->getType()}, {Rounded});
  unsigned DW = scalarTypeBits(DT);
  if (ST == ScalarType::F64 || DW == 64)
    R = B.CreateSelect(B.CreateFCmpUNO(X, X),
                       ConstantInt::get(DTy, APInt::getSignMask(DW)), R);
  return R;
}

/// Integer to float with PTX's rounding: sitofp/uitofp are exact RN into f32
/// and f64; everything else rounds on the integer itself.
Value *convertIntToFloat(FunctionLowering &L, Value *A, ScalarType DT,
                         ScalarType ST, Rounding R) {
  IRBuilderBase &B = L.B;
  Type *DTy = llvmType(L.Ctx, DT);
  bool Signed = isSignedInt(ST);
  if (R == Rounding::RN && (DT == ScalarType::F32 || DT == ScalarType::F64))
    return Signed ? B.CreateSIToFP(A, DTy) : B.CreateUIToFP(A, DTy);
  Value *Bits = roundToFormat(B, unpackInteger(B, A, Signed), formatOf(DT), R,
                              false, false);
  return B.CreateBitCast(Bits, DTy);
}

/// f32 to bf16 rounded to nearest even: bf16 is f32's upper half, so adding
/// just under half of the dropped part (plus its lowest kept bit, for ties)
/// rounds, carries into the exponent where needed, and overflows to
/// infinity; subnormals need no special case. NaN becomes the canonical one.
Value *f32BitsToBF16Nearest(IRBuilderBase &B, Value *Bits) {
  Value *Odd = B.CreateAnd(B.CreateLShr(Bits, 16), 1);
  Value *Sum = B.CreateAdd(Bits, B.CreateAdd(B.getInt32(0x7fff), Odd));
  Value *R = B.CreateTrunc(B.CreateLShr(Sum, 16), B.getInt16Ty());
  Value *IsNaN =
      B.CreateICmpUGT(B.CreateAnd(Bits, 0x7fffffff), B.getInt32(0x7f800000));
  return B.CreateSelect(IsNaN, B.getInt16(BF16Format.CanonicalNaN), R);
}

/// Float to a float type that is narrower or of another 16-bit format. The
/// conversions with exact round-to-nearest hardware everywhere (f64 to f32,
/// f32 to f16) use fptrunc, f32 to bf16 a short integer sequence; the
/// others round the bit pattern.
Value *convertFloatNarrowing(FunctionLowering &L, Value *Bits, ScalarType DT,
                             ScalarType ST, const CvtModifiers &M) {
  IRBuilderBase &B = L.B;
  Rounding R = M.rounding();
  bool Plain = R == Rounding::RN && !M.Relu && !M.SatFinite;
  if (Plain && ((ST == ScalarType::F64 && DT == ScalarType::F32) ||
                (ST == ScalarType::F32 && DT == ScalarType::F16)))
    return B.CreateFPTrunc(B.CreateBitCast(Bits, llvmType(L.Ctx, ST)),
                           llvmType(L.Ctx, DT));
  if (Plain && ST == ScalarType::F32 && DT == ScalarType::BF16)
    return B.CreateBitCast(f32BitsToBF16Nearest(B, Bits), B.getBFloatTy());
  Value *Out = roundToFormat(B, unpackFloat(B, Bits, formatOf(ST)),
                             formatOf(DT), R, M.SatFinite, M.Relu);
  return B.CreateBitCast(Out, llvmType(L.Ctx, DT));
}

/// Exact widening: f16/bf16 to f32/f64, f32 to f64.
Value *convertFloatWidening(FunctionLowering &L, Value *Bits, ScalarType DT,
                            ScalarType ST) {
  IRBuilderBase &B = L.B;
  Value *X = ST == ScalarType::BF16
                 ? bf16BitsToFloat(B, Bits)
                 : B.CreateBitCast(Bits, llvmType(L.Ctx, ST));
  Type *DTy = llvmType(L.Ctx, DT);
  return X->getType() == DTy ? X : B.CreateFPExt(X, DTy);
}

/// Same-type rounding to an integral value (cvt.rni.f32.f32 and friends).
Value *roundToIntegral(FunctionLowering &L, Value *Bits, ScalarType T,
                       StringRef Rnd) {
  IRBuilderBase &B = L.B;
  Intrinsic::ID ID = integralRounding(Rnd);
  if (T == ScalarType::BF16) {
    // Integral values of bf16 are bf16 values, so the f32 result's upper
    // half is exact.
    Value *R = B.CreateUnaryIntrinsic(ID, bf16BitsToFloat(B, Bits));
    return B.CreateBitCast(
        B.CreateTrunc(B.CreateLShr(B.CreateBitCast(R, B.getInt32Ty()), 16),
                      B.getInt16Ty()),
        B.getBFloatTy());
  }
  return B.CreateUnaryIntrinsic(ID, B.CreateBitCast(Bits, llvmType(L.Ctx, T)));
}

bool isCvtScalarType(ScalarType T) {
  return isSignedInt(T) || isUnsignedInt(T) || T == ScalarType::F16 ||
         T == ScalarType::BF16 || T == ScalarType::F32 || T == ScalarType::F64;
}

void lowerScalarCvt(FunctionLowering &L, const Instruction &I,
                    const CvtModifiers &M, ScalarType DT, ScalarType ST) {
  if (!isCvtScalarType(DT) || !isCvtScalarType(ST)) {
    L.unsupported(
        I, "cvt converts between integer and float types; ." +
               std::string(scalarTypeName(isCvtScalarType(DT) ? ST : DT)) +
               " is not one");
    return;
  }
  if (!operandCount(L, I, 2))
    return;
  bool DF = isFloat(DT), SF = isFloat(ST);
  if (M.Rnd == "rs" || M.Rnd == "rna") {
    L.unsupported(I, "rounding ." + M.Rnd +
                         " is only defined for packed conversions");
    return;
  }
  if (M.Ftz && DT != ScalarType::F32 && ST != ScalarType::F32) {
    L.unsupported(I, ".ftz needs an .f32 source or destination");
    return;
  }
  if ((M.Relu || M.SatFinite) &&
      !(ST == ScalarType::F32 &&
        (DT == ScalarType::F16 || DT == ScalarType::BF16) &&
        (M.Rnd == "rn" || M.Rnd == "rz"))) {
    L.unsupported(I, ".relu and .satfinite are defined for cvt.rn/.rz from "
                     ".f32 to .f16/.bf16");
    return;
  }
  if (M.Sat && DF && DT == ScalarType::BF16) {
    L.unsupported(I, ".sat is not defined for .bf16 results");
    return;
  }
  IRBuilderBase &B = L.B;
  Value *R = nullptr;

  if (!SF && !DF) {
    if (!M.Rnd.empty() || M.Ftz) {
      L.unsupported(I, "integer-to-integer cvt takes no rounding or .ftz");
      return;
    }
    // .sat is only allowed where the destination range does not hold the
    // whole source range.
    unsigned DW = scalarTypeBits(DT), SW = scalarTypeBits(ST);
    bool Holds = isSignedInt(DT) ? (DW > SW || (DW == SW && isSignedInt(ST)))
                                 : (!isSignedInt(ST) && DW >= SW);
    if (M.Sat && Holds) {
      L.unsupported(I, ".sat is not allowed where the destination type holds "
                       "every source value");
      return;
    }
    Value *A = L.read(I, 1, llvmType(L.Ctx, ST), isSignedInt(ST));
    if (!A)
      return;
    R = convertIntToInt(L, A, DT, ST, M.Sat);
    L.write(I.Operands[0], R, isSignedInt(DT));
    return;
  }

  if (SF && !DF) {
    if (!M.integerRounding()) {
      L.unsupported(I, "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
      return;
    }
    Value *Bits = readFloatBits(L, I, 1, ST);
    if (!Bits)
      return;
    R = convertFloatToInt(L, Bits, DT, ST, M);
    L.write(I.Operands[0], R, isSignedInt(DT));
    return;
  }

  if (!SF) {
    if (!M.floatRounding()) {
      L.unsupported(I, "integer-to-float cvt needs .rn, .rz, .rm or .rp");
      return;
    }
    Value *A = L.read(I, 1, llvmType(L.Ctx, ST), isSignedInt(ST));
    if (!A)
      return;
    R = convertIntToFloat(L, A, DT, ST, M.rounding());
  } else {
    Value *Bits = readFloatBits(L, I, 1, ST);
    if (!Bits)
      return;
    // .ftz flushes an f32 subnormal input, except into f16: an H200 (sm_90)
    // rounded those inputs as they are, .ftz written or not (cvt.rp.ftz of
    // a positive subnormal gave f16's smallest subnormal, not +0).
    if (M.Ftz && ST == ScalarType::F32 && DT != ScalarType::F16)
      Bits = flushBits(B, Bits, F32Format);
    unsigned DW = scalarTypeBits(DT), SW = scalarTypeBits(ST);
    if (DT == ST) {
      if (M.floatRounding()) {
        L.unsupported(I, "a same-type cvt rounds only to integral values "
                         "(.rni, .rzi, .rmi, .rpi)");
        return;
      }
      R = M.integerRounding() ? roundToIntegral(L, Bits, ST, M.Rnd)
                              : B.CreateBitCast(Bits, llvmType(L.Ctx, ST));
    } else if (DW > SW) {
      if (!M.Rnd.empty()) {
        L.unsupported(I, "widening float conversions are exact and take no "
                         "rounding modifier");
        return;
      }
      R = convertFloatWidening(L, Bits, DT, ST);
    } else {
      if (!M.floatRounding()) {
        L.unsupported(I, M.integerRounding()
                             ? "integer rounding applies to float-to-integer "
                               "and same-type float conversions only"
                             : "narrowing float conversions need .rn, .rz, "
                               ".rm or .rp");
        return;
      }
      R = convertFloatNarrowing(L, Bits, DT, ST, M);
    }
  }
  if (M.Ftz && DT == ScalarType::F32)
    R = flushValue(B, R);
  if (M.Sat)
    R = saturateUnit(B, R);
  L.write(I.Operands[0], R, false);
}

//===----------------------------------------------------------------------===//
// cvt with packed and narrow formats
//===----------------------------------------------------------------------===//

/// f32 to f16 or bf16 encoding, for the packed forms.
Value *f32BitsToHalf(IRBuilderBase &B, Value *Bits, bool IsBF16,
                     const CvtModifiers &M) {
  if (M.Rnd == "rn" && !M.Relu && !M.SatFinite)
    return IsBF16 ? f32BitsToBF16Nearest(B, Bits)
                  : B.CreateBitCast(
                        B.CreateFPTrunc(B.CreateBitCast(Bits, B.getFloatTy()),
                                        B.getHalfTy()),
                        B.getInt16Ty());
  return roundToFormat(B, unpackFloat(B, Bits, F32Format),
                       IsBF16 ? BF16Format : F16Format, M.rounding(),
                       M.SatFinite, M.Relu);
}

/// cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a goes to the
/// upper half of d, b to the lower.
void lowerCvtHalfPair(FunctionLowering &L, const Instruction &I,
                      const CvtModifiers &M, bool IsBF16) {
  if (M.Rnd != "rn" && M.Rnd != "rz") {
    L.unsupported(I, M.Rnd == "rs" ? "stochastic rounding .rs is not "
                                     "implemented"
                                   : "packed half conversions need .rn or .rz");
    return;
  }
  if (M.Ftz || M.Sat) {
    L.unsupported(I, ".ftz and .sat are not defined for packed conversions");
    return;
  }
  if (!operandCount(L, I, 3))
    return;
  Value *A = readFloatBits(L, I, 1, ScalarType::F32);
  Value *Bv = readFloatBits(L, I, 2, ScalarType::F32);
  if (!A || !Bv)
    return;
  IRBuilderBase &B = L.B;
  Value *Hi = B.CreateZExt(f32BitsToHalf(B, A, IsBF16, M), B.getInt32Ty());
  Value *Lo = B.CreateZExt(f32BitsToHalf(B, Bv, IsBF16, M), B.getInt32Ty());
  L.write(I.Operands[0], B.CreateOr(B.CreateShl(Hi, 16), Lo), false);
}

/// cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32.
void lowerCvtTF32(FunctionLowering &L, const Instruction &I,
                  const CvtModifiers &M) {
  bool Ok = M.Rnd == "rna" ? !M.Relu : (M.Rnd == "rn" || M.Rnd == "rz");
  if (!Ok || M.Ftz || M.Sat) {
    L.unsupported(I, "tf32 conversions are .rna{.satfinite} or "
                     ".rn/.rz{.satfinite}{.relu}");
    return;
  }
  if (!operandCount(L, I, 2))
    return;
  Value *A = readFloatBits(L, I, 1, ScalarType::F32);
  if (!A)
    return;
  IRBuilderBase &B = L.B;
  Value *T = roundToFormat(B, unpackFloat(B, A, F32Format), TF32Format,
                           M.rounding(), M.SatFinite, M.Relu);
  L.write(I.Operands[0], B.CreateShl(B.CreateZExt(T, B.getInt32Ty()), 13),
          false);
}

/// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2,bf16x2}: the value
/// from a (or from a's upper half) goes to the upper byte of d.
void lowerCvtToFP8(FunctionLowering &L, const Instruction &I,
                   const CvtModifiers &M, const FloatFormat &F8,
                   StringRef Src) {
  if (M.Rnd != "rn" || !M.SatFinite || M.Ftz || M.Sat) {
    L.unsupported(I, "fp8 conversions are cvt.rn.satfinite{.relu}");
    return;
  }
  IRBuilderBase &B = L.B;
  Value *Hi, *Lo;
  if (Src == "f32") {
    if (!operandCount(L, I, 3))
      return;
    Value *A = readFloatBits(L, I, 1, ScalarType::F32);
    Value *Bv = readFloatBits(L, I, 2, ScalarType::F32);
    if (!A || !Bv)
      return;
    Hi = roundToFormat(B, unpackFloat(B, A, F32Format), F8, Rounding::RN, true,
                       M.Relu);
    Lo = roundToFormat(B, unpackFloat(B, Bv, F32Format), F8, Rounding::RN, true,
                       M.Relu);
  } else if (Src == "f16x2" || Src == "bf16x2") {
    if (!operandCount(L, I, 2))
      return;
    Value *A = L.read(I, 1, B.getInt32Ty(), false);
    if (!A)
      return;
    const FloatFormat &HF = Src == "f16x2" ? F16Format : BF16Format;
    Value *AHi = B.CreateTrunc(B.CreateLShr(A, 16), B.getInt16Ty());
    Value *ALo = B.CreateTrunc(A, B.getInt16Ty());
    Hi = roundToFormat(B, unpackFloat(B, AHi, HF), F8, Rounding::RN, true,
                       M.Relu);
    Lo = roundToFormat(B, unpackFloat(B, ALo, HF), F8, Rounding::RN, true,
                       M.Relu);
  } else {
    L.unsupported(I, "fp8 conversions take .f32, .f16x2 or .bf16x2 sources");
    return;
  }
  Value *HiByte = B.CreateShl(B.CreateZExt(Hi, B.getInt16Ty()), 8);
  Value *D = B.CreateOr(HiByte, B.CreateZExt(Lo, B.getInt16Ty()));
  L.write(I.Operands[0], D, false);
}

/// cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}: exact widening of both bytes.
void lowerCvtFromFP8(FunctionLowering &L, const Instruction &I,
                     const CvtModifiers &M, const FloatFormat &F8) {
  if (M.Rnd != "rn" || M.SatFinite || M.Ftz || M.Sat) {
    L.unsupported(I, "fp8 to f16x2 conversions are cvt.rn{.relu}");
    return;
  }
  if (!operandCount(L, I, 2))
    return;
  IRBuilderBase &B = L.B;
  Value *A = L.read(I, 1, B.getInt16Ty(), false);
  if (!A)
    return;
  auto widen = [&](Value *Byte) {
    return B.CreateZExt(roundToFormat(B, unpackFloat(B, Byte, F8), F16Format,
                                      Rounding::RN, false, M.Relu),
                        B.getInt32Ty());
  };
  Value *Hi = widen(B.CreateTrunc(B.CreateLShr(A, 8), B.getInt8Ty()));
  Value *Lo = widen(B.CreateTrunc(A, B.getInt8Ty()));
  L.write(I.Operands[0], B.CreateOr(B.CreateShl(Hi, 16), Lo), false);
}

/// cvt.pack.sat.{u16,s16}.s32 d, a, b and
/// cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c: a and b saturate to
/// the narrow type, b in the lowest bits and a above it; c fills the rest.
void lowerCvtPack(FunctionLowering &L, const Instruction &I,
                  const CvtModifiers &M) {
  static const struct {
    const char *Name;
    unsigned Bits;
    bool Signed;
  } Kinds[] = {{"u16", 16, false}, {"s16", 16, true}, {"u8", 8, false},
               {"s8", 8, true},    {"u4", 4, false},  {"s4", 4, true},
               {"u2", 2, false},   {"s2", 2, true}};
  const auto *K =
      std::find_if(std::begin(Kinds), std::end(Kinds), [&](auto &X) {
        return !M.Types.empty() && M.Types[0] == X.Name;
      });
  bool Wide = K != std::end(Kinds) && K->Bits == 16;
  bool TypesOk = K != std::end(Kinds) && M.Types.size() == (Wide ? 2u : 3u) &&
                 M.Types[1] == "s32" && (Wide || M.Types[2] == "b32");
  if (!TypesOk || !M.Sat || !M.Rnd.empty() || M.Ftz || M.Relu || M.SatFinite) {
    L.unsupported(I, "expected cvt.pack.sat.{u16,s16}.s32 or "
                     "cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32");
    return;
  }
  if (!operandCount(L, I, Wide ? 3 : 4))
    return;
  IRBuilderBase &B = L.B;
  Type *I32 = B.getInt32Ty();
  Value *A = L.read(I, 1, I32, true), *Bv = L.read(I, 2, I32, true);
  Value *C = Wide ? nullptr : L.read(I, 3, I32, false);
  if (!A || !Bv || (!Wide && !C))
    return;
  int64_t Lo = K->Signed ? -(int64_t(1) << (K->Bits - 1)) : 0;
  int64_t Hi = K->Signed ? (int64_t(1) << (K->Bits - 1)) - 1
                         : (int64_t(1) << K->Bits) - 1;
  uint64_t Mask = (uint64_t(1) << K->Bits) - 1;
  auto clamp = [&](Value *X) {
    X = B.CreateBinaryIntrinsic(Intrinsic::smax, X, B.getInt32(int32_t(Lo)));
    X = B.CreateBinaryIntrinsic(Intrinsic::smin, X, B.getInt32(int32_t(Hi)));
    return B.CreateAnd(X, Mask);
  };
  Value *TA = clamp(A);
  Value *TB = clamp(Bv);
  Value *D = B.CreateOr(B.CreateShl(TA, K->Bits), TB);
  if (!Wide)
    D = B.CreateOr(D, B.CreateShl(C, 2 * K->Bits));
  L.write(I.Operands[0], D, false);
}

void lowerCvt(FunctionLowering &L, const Instruction &I) {
  CvtModifiers M = classifyCvt(I);
  if (!M.Unknown.empty()) {
    L.unsupported(I, "modifier ." + M.Unknown);
    return;
  }
  if (M.TwoRoundings) {
    L.unsupported(I, "more than one rounding modifier");
    return;
  }
  if (M.Pack) {
    lowerCvtPack(L, I, M);
    return;
  }
  if (M.Types.size() != 2) {
    L.unsupported(I, "expected cvt.dtype.atype");
    return;
  }
  StringRef D = M.Types[0], S = M.Types[1];
  if ((D == "e4m3x2" || D == "e5m2x2")) {
    lowerCvtToFP8(L, I, M, D == "e4m3x2" ? E4M3Format : E5M2Format, S);
    return;
  }
  if (D == "f16x2" && (S == "e4m3x2" || S == "e5m2x2")) {
    lowerCvtFromFP8(L, I, M, S == "e4m3x2" ? E4M3Format : E5M2Format);
    return;
  }
  if (D == "tf32" && S == "f32") {
    lowerCvtTF32(L, I, M);
    return;
  }
  if ((D == "f16x2" || D == "bf16x2") && S == "f32") {
    lowerCvtHalfPair(L, I, M, D == "bf16x2");
    return;
  }
  if (isPackedCvtTypeName(D) || isPackedCvtTypeName(S) || D == "f16x2" ||
      D == "bf16x2" || S == "f16x2" || S == "bf16x2") {
    L.unsupported(I, "conversion ." + D.str() + "." + S.str() +
                         " is not implemented");
    return;
  }
  lowerScalarCvt(L, I, M, parseScalarType(D), parseScalarType(S));
}

//===----------------------------------------------------------------------===//
// Comparisons: setp and set
//===----------------------------------------------------------------------===//

/// The comparison, BoolOp and .ftz modifiers of setp/set.
struct CompareModifiers {
  std::string Cmp, BoolOp, Unknown;
  bool Ftz = false;
};

CompareModifiers classifyCompare(const Instruction &I) {
  CompareModifiers C;
  for (size_t K = 0; K < I.Modifiers.size(); ++K) {
    const std::string &X = I.Modifiers[K];
    if (K == 0)
      C.Cmp = X;
    else if (X == "and" || X == "or" || X == "xor")
      C.BoolOp = X;
    else if (X == "ftz")
      C.Ftz = true;
    else if (parseScalarType(X) == ScalarType::None && C.Unknown.empty())
      C.Unknown = X;
  }
  return C;
}

bool isHalfType(ScalarType T) {
  return T == ScalarType::F16 || T == ScalarType::BF16 ||
         T == ScalarType::F16x2 || T == ScalarType::BF16x2;
}

/// Operand types setp and set compare (the 8-bit and 128-bit types are not).
bool isComparableType(ScalarType T) {
  switch (T) {
  case ScalarType::B16:
  case ScalarType::B32:
  case ScalarType::B64:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
  case ScalarType::S16:
  case ScalarType::S32:
  case ScalarType::S64:
  case ScalarType::F16:
  case ScalarType::F16x2:
  case ScalarType::BF16:
  case ScalarType::BF16x2:
  case ScalarType::F32:
  case ScalarType::F64:
    return true;
  default:
    return false;
  }
}

/// `a CmpOp b` for one lane. Floats arrive as f32/f64 (halves widened
/// exactly); the unordered forms are true when either operand is NaN.
Value *compareLane(FunctionLowering &L, const Instruction &I, StringRef Cmp,
                   ScalarType T, Value *A, Value *Bv) {
  static const struct {
    const char *Name;
    CmpInst::Predicate Signed, Unsigned, Float;
  } Table[] = {
      {"eq", ICmpInst::ICMP_EQ, ICmpInst::ICMP_EQ, FCmpInst::FCMP_OEQ},
      {"ne", ICmpInst::ICMP_NE, ICmpInst::ICMP_NE, FCmpInst::FCMP_ONE},
      {"lt", ICmpInst::ICMP_SLT, ICmpInst::ICMP_ULT, FCmpInst::FCMP_OLT},
      {"le", ICmpInst::ICMP_SLE, ICmpInst::ICMP_ULE, FCmpInst::FCMP_OLE},
      {"gt", ICmpInst::ICMP_SGT, ICmpInst::ICMP_UGT, FCmpInst::FCMP_OGT},
      {"ge", ICmpInst::ICMP_SGE, ICmpInst::ICMP_UGE, FCmpInst::FCMP_OGE},
      {"lo", CmpInst::BAD_ICMP_PREDICATE, ICmpInst::ICMP_ULT,
       CmpInst::BAD_FCMP_PREDICATE},
      {"ls", CmpInst::BAD_ICMP_PREDICATE, ICmpInst::ICMP_ULE,
       CmpInst::BAD_FCMP_PREDICATE},
      {"hi", CmpInst::BAD_ICMP_PREDICATE, ICmpInst::ICMP_UGT,
       CmpInst::BAD_FCMP_PREDICATE},
      {"hs", CmpInst::BAD_ICMP_PREDICATE, ICmpInst::ICMP_UGE,
       CmpInst::BAD_FCMP_PREDICATE},
      {"equ", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_UEQ},
      {"neu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_UNE},
      {"ltu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_ULT},
      {"leu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_ULE},
      {"gtu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_UGT},
      {"geu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_UGE},
      {"num", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_ORD},
      {"nan", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE,
       FCmpInst::FCMP_UNO},
  };
  CmpInst::Predicate P = CmpInst::BAD_ICMP_PREDICATE;
  bool Found = false;
  for (const auto &E : Table)
    if (Cmp == E.Name) {
      Found = true;
      P = isFloat(T) ? E.Float : isSignedInt(T) ? E.Signed : E.Unsigned;
      // The untyped bit-size comparisons are eq and ne only.
      if (isBitType(T) && Cmp != "eq" && Cmp != "ne")
        P = CmpInst::BAD_ICMP_PREDICATE;
    }
  if (!Found) {
    L.unsupported(I, "unknown comparison ." + Cmp);
    return nullptr;
  }
  if (P == CmpInst::BAD_ICMP_PREDICATE || P == CmpInst::BAD_FCMP_PREDICATE) {
    L.unsupported(I, "comparison ." + Cmp + " is not defined for ." +
                         std::string(scalarTypeName(T)));
    return nullptr;
  }
  return isFloat(T) ? L.B.CreateFCmp(P, A, Bv) : L.B.CreateICmp(P, A, Bv);
}

/// `a CmpOp b` of setp/set: one result, or two for f16x2/bf16x2 (the lower
/// half's first). .ftz flushes f32 and f16 subnormal inputs.
SmallVector<Value *, 2> compareOperands(FunctionLowering &L,
                                        const Instruction &I,
                                        const CompareModifiers &C,
                                        ScalarType T) {
  IRBuilderBase &B = L.B;
  if (C.Ftz && T != ScalarType::F32 && T != ScalarType::F16 &&
      T != ScalarType::F16x2) {
    L.unsupported(I, ".ftz applies to .f32, .f16 and .f16x2 comparisons only");
    return {};
  }
  if (!isHalfType(T)) {
    Type *Ty = llvmType(L.Ctx, T);
    Value *A = L.read(I, 1, Ty, isSignedInt(T));
    Value *Bv = L.read(I, 2, Ty, isSignedInt(T));
    if (!A || !Bv)
      return {};
    if (C.Ftz) {
      A = flushValue(B, A);
      Bv = flushValue(B, Bv);
    }
    Value *R = compareLane(L, I, C.Cmp, T, A, Bv);
    if (!R)
      return {};
    return {R};
  }
  bool Pair = T == ScalarType::F16x2 || T == ScalarType::BF16x2;
  bool IsBF16 = T == ScalarType::BF16 || T == ScalarType::BF16x2;
  Type *Ty = Pair ? B.getInt32Ty() : B.getInt16Ty();
  Value *A = L.read(I, 1, Ty, false), *Bv = L.read(I, 2, Ty, false);
  if (!A || !Bv)
    return {};
  SmallVector<Value *, 2> Out;
  for (unsigned Lane = 0; Lane < (Pair ? 2u : 1u); ++Lane) {
    auto half = [&](Value *X) {
      Value *H = B.CreateTrunc(Lane ? B.CreateLShr(X, 16) : X, B.getInt16Ty());
      if (C.Ftz)
        H = flushBits(B, H, F16Format);
      return halfBitsToFloat(B, H, IsBF16);
    };
    Value *HA = half(A);
    Value *HB = half(Bv);
    Value *R = compareLane(L, I, C.Cmp, ScalarType::F32, HA, HB);
    if (!R)
      return {};
    Out.push_back(R);
  }
  return Out;
}

/// BoolOp(t, c) when the instruction has a BoolOp, else t.
Value *combinePredicate(FunctionLowering &L, StringRef BoolOp, Value *T,
                        Value *C) {
  if (BoolOp.empty())
    return T;
  if (BoolOp == "and")
    return L.B.CreateAnd(T, C);
  if (BoolOp == "or")
    return L.B.CreateOr(T, C);
  return L.B.CreateXor(T, C);
}

/// Reads the {!}c operand of a BoolOp form; checks the operand count.
bool readBoolOperand(FunctionLowering &L, const Instruction &I,
                     const CompareModifiers &C, Value *&Pred) {
  if (!operandCount(L, I, C.BoolOp.empty() ? 3 : 4))
    return false;
  Pred = nullptr;
  if (C.BoolOp.empty())
    return true;
  Pred = L.read(I, 3, L.B.getInt1Ty(), false);
  return Pred != nullptr;
}

/// setp.CmpOp{.BoolOp}{.ftz}.type p[|q], a, b{, {!}c}. For scalar types q is
/// BoolOp(!t, c); for f16x2/bf16x2, p and q are the lower and upper halves.
void lowerSetp(FunctionLowering &L, const Instruction &I) {
  CompareModifiers C = classifyCompare(I);
  ScalarType T = L.instrType(I);
  if (!C.Unknown.empty() || L.instrType(I, 1) != ScalarType::None ||
      !isComparableType(T)) {
    L.unsupported(I, !C.Unknown.empty() ? "modifier ." + C.Unknown
                                        : std::string("expected one of the "
                                                      "setp operand types"));
    return;
  }
  Value *Pred;
  if (!readBoolOperand(L, I, C, Pred))
    return;
  bool Pair = T == ScalarType::F16x2 || T == ScalarType::BF16x2;
  const Operand &D = I.Operands[0];
  if (Pair && !D.Pair) {
    L.unsupported(I, "setp." + std::string(scalarTypeName(T)) +
                         " writes two predicates, p|q");
    return;
  }
  if (!Pair && D.Pair && isHalfType(T)) {
    L.unsupported(I, "setp on a single half value writes one predicate");
    return;
  }
  SmallVector<Value *, 2> Ts = compareOperands(L, I, C, T);
  if (Ts.empty())
    return;
  if (Pair) {
    L.write(D, combinePredicate(L, C.BoolOp, Ts[0], Pred), false);
    L.write(*D.Pair, combinePredicate(L, C.BoolOp, Ts[1], Pred), false);
    return;
  }
  L.write(D, combinePredicate(L, C.BoolOp, Ts[0], Pred), false);
  if (D.Pair)
    L.write(*D.Pair, combinePredicate(L, C.BoolOp, L.B.CreateNot(Ts[0]), Pred),
            false);
}

/// Whether set.dtype.stype is a form the ISA defines: u32/s32/f32 results of
/// the setp types, f16/bf16 results of any scalar type, u16/s16 results of
/// f16/bf16 compares, and u32/s32 or the same packed type from f16x2/bf16x2.
bool isSetForm(ScalarType DT, ScalarType ST) {
  if (!isComparableType(ST))
    return false;
  bool PairSrc = ST == ScalarType::F16x2 || ST == ScalarType::BF16x2;
  if (PairSrc)
    return DT == ScalarType::U32 || DT == ScalarType::S32 || DT == ST;
  switch (DT) {
  case ScalarType::U32:
  case ScalarType::S32:
    return true;
  case ScalarType::F32:
    return !isHalfType(ST);
  case ScalarType::U16:
  case ScalarType::S16:
    return ST == ScalarType::F16 || ST == ScalarType::BF16;
  case ScalarType::F16:
  case ScalarType::BF16:
    return true;
  default:
    return false;
  }
}

/// set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, {!}c}: all ones (of the
/// destination width, or per half) or 1.0 for true, zero for false.
void lowerSet(FunctionLowering &L, const Instruction &I) {
  CompareModifiers C = classifyCompare(I);
  ScalarType DT = L.instrType(I, 0), ST = L.instrType(I, 1);
  if (!C.Unknown.empty() || L.instrType(I, 2) != ScalarType::None ||
      !isSetForm(DT, ST)) {
    L.unsupported(I, !C.Unknown.empty() ? "modifier ." + C.Unknown
                                        : std::string("not a set.dtype.stype "
                                                      "form of the PTX ISA"));
    return;
  }
  Value *Pred;
  if (!readBoolOperand(L, I, C, Pred))
    return;
  SmallVector<Value *, 2> Ts = compareOperands(L, I, C, ST);
  if (Ts.empty())
    return;
  IRBuilderBase &B = L.B;
  uint64_t True;
  switch (DT) {
  case ScalarType::F32:
    True = 0x3f800000;
    break;
  case ScalarType::F16:
  case ScalarType::F16x2:
    True = 0x3c00;
    break;
  case ScalarType::BF16:
  case ScalarType::BF16x2:
    True = 0x3f80;
    break;
  case ScalarType::U16:
  case ScalarType::S16:
    True = 0xffff;
    break;
  default:
    True = Ts.size() == 2 ? 0xffff : 0xffffffff;
    break;
  }
  unsigned LaneBits = Ts.size() == 2 ? 16 : scalarTypeBits(DT);
  Type *LaneTy = B.getIntNTy(LaneBits);
  Value *D = nullptr;
  for (unsigned Lane = 0; Lane < Ts.size(); ++Lane) {
    Value *V = B.CreateSelect(combinePredicate(L, C.BoolOp, Ts[Lane], Pred),
                              ConstantInt::get(LaneTy, True),
                              ConstantInt::get(LaneTy, 0));
    if (Ts.size() == 1) {
      D = V;
      break;
    }
    V = B.CreateShl(B.CreateZExt(V, B.getInt32Ty()), 16 * Lane);
    D = D ? B.CreateOr(D, V) : V;
  }
  L.write(I.Operands[0], D, false);
}

//===----------------------------------------------------------------------===//
// Moves and selections
//===----------------------------------------------------------------------===//

/// mov.type d, a: registers, special registers, immediates, addresses of
/// variables and functions, and vector operands that pack or unpack.
void lowerMov(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None || I.Operands.size() != 2) {
    L.unsupported(I, "expected mov.type d, a");
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  unsigned Vec = I.hasModifier("v2") ? 2 : I.hasModifier("v4") ? 4 : 0;
  if (Vec) {
    // mov.v4.f32 {a, b, c, d}, V and the like: element by element (vector
    // registers arrive as their element lists). All sources are read before
    // any destination is written, so overlapping lists move as a whole.
    const Operand &D = I.Operands[0], &A = I.Operands[1];
    if (D.K != Operand::Vector || D.Elements.size() != Vec ||
        A.K != Operand::Vector || A.Elements.size() != Vec) {
      L.unsupported(I, "mov.v" + std::to_string(Vec) + " moves a vector of " +
                           std::to_string(Vec) + " elements to another");
      return;
    }
    SmallVector<Value *, 4> Vals;
    for (const Operand &E : A.Elements)
      if (Value *V = L.readOperand(E, Ty, false))
        Vals.push_back(V);
      else
        return;
    for (unsigned E = 0; E < Vec; ++E)
      L.write(D.Elements[E], Vals[E], false);
    return;
  }
  L.write(I.Operands[0], L.read(I, 1, Ty, false), false);
}

/// Types selp and slct move (selp's, and slct's destination types).
bool isSelectType(ScalarType T) {
  return isComparableType(T) && !isHalfType(T);
}

/// selp.type d, a, b, c: d = c ? a : b.
void lowerSelp(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (!isSelectType(T) || L.instrType(I, 1) != ScalarType::None ||
      I.Modifiers.size() != 1) {
    L.unsupported(I, "selp types are .b16-.b64, .u16-.u64, .s16-.s64, .f32 "
                     "and .f64");
    return;
  }
  if (!operandCount(L, I, 4))
    return;
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, isSignedInt(T));
  Value *Bv = L.read(I, 2, Ty, isSignedInt(T));
  Value *C = L.read(I, 3, L.B.getInt1Ty(), false);
  if (!A || !Bv || !C)
    return;
  L.write(I.Operands[0], L.B.CreateSelect(C, A, Bv), isSignedInt(T));
}

/// slct.dtype.s32 and slct{.ftz}.dtype.f32 d, a, b, c: d = c >= 0 ? a : b,
/// moving a or b unchanged. For f32, -0 counts as zero and NaN selects b.
void lowerSlct(FunctionLowering &L, const Instruction &I) {
  ScalarType DT = L.instrType(I, 0), CT = L.instrType(I, 1);
  bool Ftz = I.hasModifier("ftz");
  size_t Expected = 2 + (Ftz ? 1 : 0);
  if (!isSelectType(DT) || (CT != ScalarType::S32 && CT != ScalarType::F32) ||
      I.Modifiers.size() != Expected || (Ftz && CT != ScalarType::F32)) {
    L.unsupported(I, "expected slct.dtype.s32 or slct{.ftz}.dtype.f32 with "
                     "dtype one of .b16-.b64, .u16-.u64, .s16-.s64, .f32, "
                     ".f64");
    return;
  }
  if (!operandCount(L, I, 4))
    return;
  IRBuilderBase &B = L.B;
  Type *Ty = B.getIntNTy(scalarTypeBits(DT));
  Value *A = L.read(I, 1, Ty, false), *Bv = L.read(I, 2, Ty, false);
  Value *C = L.read(I, 3, llvmType(L.Ctx, CT), CT == ScalarType::S32);
  if (!A || !Bv || !C)
    return;
  Value *Cond;
  if (CT == ScalarType::S32) {
    Cond = B.CreateICmpSGE(C, B.getInt32(0));
  } else {
    if (Ftz)
      C = flushValue(B, C);
    Cond = B.CreateFCmpOGE(C, ConstantFP::get(C->getType(), 0.0));
  }
  L.write(I.Operands[0], B.CreateSelect(Cond, A, Bv), isSignedInt(DT));
}

} // namespace

void registerMovementInstructions(OpcodeTable &T) {
  T["mov"] = lowerMov;
  T["setp"] = lowerSetp;
  T["set"] = lowerSet;
  T["selp"] = lowerSelp;
  T["slct"] = lowerSlct;
  T["cvt"] = lowerCvt;
}

} // namespace cuhip::ptx::lower
