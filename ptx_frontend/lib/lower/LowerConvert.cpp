//===- LowerConvert.cpp - Moves, comparisons and conversions ----------------===//
//
// mov (including vector pack/unpack), setp/selp, and cvt between integer
// and floating-point types with PTX's rounding and saturation rules.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

static void lowerMov(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None || I.Operands.size() != 2) {
    L.unsupported(I, "expected mov.type d, a");
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  L.write(I.Operands[0], L.read(I, 1, Ty, false), false);
}

static void lowerSetp(FunctionLowering &L, const Instruction &I) {
  // setp.CmpOp[.ftz][.BoolOp].type p[|q], a, b[, {!}c]
  if (I.Modifiers.size() < 2) {
    L.unsupported(I);
    return;
  }
  const std::string &Cmp = I.Modifiers[0];
  ScalarType T = L.instrType(I);
  std::string BoolOp;
  for (const auto &M : I.Modifiers)
    if (M == "and" || M == "or" || M == "xor")
      BoolOp = M;
  if (T == ScalarType::None || I.Operands.size() < 3) {
    L.unsupported(I);
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  bool IsF = isFloat(T);
  if (IsF && T != ScalarType::F32 && T != ScalarType::F64) {
    L.unsupported(I, "half-precision compares are not implemented yet");
    return;
  }
  Value *A = L.read(I, 1, Ty, isSignedInt(T));
  Value *Bv = L.read(I, 2, Ty, isSignedInt(T));
  if (!A || !Bv)
    return;
  if (IsF && I.hasModifier("ftz")) {
    A = L.flush(A);
    Bv = L.flush(Bv);
  }
  CmpInst::Predicate P;
  bool S = isSignedInt(T);
  static const struct {
    const char *N;
    CmpInst::Predicate SI, UI, F;
  } Table[] = {
      {"eq", ICmpInst::ICMP_EQ, ICmpInst::ICMP_EQ, FCmpInst::FCMP_OEQ},
      {"ne", ICmpInst::ICMP_NE, ICmpInst::ICMP_NE, FCmpInst::FCMP_ONE},
      {"lt", ICmpInst::ICMP_SLT, ICmpInst::ICMP_ULT, FCmpInst::FCMP_OLT},
      {"le", ICmpInst::ICMP_SLE, ICmpInst::ICMP_ULE, FCmpInst::FCMP_OLE},
      {"gt", ICmpInst::ICMP_SGT, ICmpInst::ICMP_UGT, FCmpInst::FCMP_OGT},
      {"ge", ICmpInst::ICMP_SGE, ICmpInst::ICMP_UGE, FCmpInst::FCMP_OGE},
      {"lo", ICmpInst::ICMP_ULT, ICmpInst::ICMP_ULT, CmpInst::BAD_FCMP_PREDICATE},
      {"ls", ICmpInst::ICMP_ULE, ICmpInst::ICMP_ULE, CmpInst::BAD_FCMP_PREDICATE},
      {"hi", ICmpInst::ICMP_UGT, ICmpInst::ICMP_UGT, CmpInst::BAD_FCMP_PREDICATE},
      {"hs", ICmpInst::ICMP_UGE, ICmpInst::ICMP_UGE, CmpInst::BAD_FCMP_PREDICATE},
      {"equ", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UEQ},
      {"neu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UNE},
      {"ltu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_ULT},
      {"leu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_ULE},
      {"gtu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UGT},
      {"geu", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UGE},
      {"num", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_ORD},
      {"nan", CmpInst::BAD_ICMP_PREDICATE, CmpInst::BAD_ICMP_PREDICATE, FCmpInst::FCMP_UNO},
  };
  P = CmpInst::BAD_ICMP_PREDICATE;
  for (const auto &E : Table)
    if (Cmp == E.N)
      P = IsF ? E.F : (S ? E.SI : E.UI);
  if (P == CmpInst::BAD_ICMP_PREDICATE || P == CmpInst::BAD_FCMP_PREDICATE) {
    L.unsupported(I, "comparison ." + Cmp + " for this type");
    return;
  }
  Value *R = IsF ? L.B.CreateFCmp(P, A, Bv) : L.B.CreateICmp(P, A, Bv);
  Value *Q = nullptr;
  if (!BoolOp.empty()) {
    Value *C = L.read(I, 3, L.B.getInt1Ty(), false);
    if (!C)
      return;
    auto combine = [&](Value *X) {
      return BoolOp == "and" ? L.B.CreateAnd(X, C)
             : BoolOp == "or" ? L.B.CreateOr(X, C)
                              : L.B.CreateXor(X, C);
    };
    if (I.Operands[0].Pair)
      Q = combine(L.B.CreateNot(R));
    R = combine(R);
  } else if (I.Operands[0].Pair) {
    Q = L.B.CreateNot(R);
  }
  L.write(I.Operands[0], R, false);
  if (Q)
    L.write(*I.Operands[0].Pair, Q, false);
}

static void lowerSelp(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None) {
    L.unsupported(I);
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, isSignedInt(T));
  Value *Bv = L.read(I, 2, Ty, isSignedInt(T));
  Value *C = L.read(I, 3, L.B.getInt1Ty(), false);
  if (!A || !Bv || !C)
    return;
  L.write(I.Operands[0], L.B.CreateSelect(C, A, Bv), isSignedInt(T));
}

static void lowerCvt(FunctionLowering &L, const Instruction &I) {
  ScalarType DT = L.instrType(I, 0), ST = L.instrType(I, 1);
  if (DT == ScalarType::None || ST == ScalarType::None ||
      I.Operands.size() != 2) {
    L.unsupported(I, "expected cvt.dtype.stype d, a");
    return;
  }
  FloatMods M = L.floatMods(I);
  Type *DTy = llvmType(L.Ctx, DT), *STy = llvmType(L.Ctx, ST);
  bool DF = isFloat(DT), SF = isFloat(ST);
  auto isPlainFloat = [](ScalarType T) {
    return T == ScalarType::F32 || T == ScalarType::F64 ||
           T == ScalarType::F16 || T == ScalarType::BF16;
  };
  if ((DF && !isPlainFloat(DT)) || (SF && !isPlainFloat(ST))) {
    L.unsupported(I, "packed conversions are not implemented yet");
    return;
  }
  Value *A = L.read(I, 1, STy, isSignedInt(ST));
  if (!A)
    return;
  if (SF && M.Ftz)
    A = L.flush(A);
  Value *R = nullptr;
  if (!DF && !SF) {
    // Integer resize; .sat clamps to the destination range.
    if (M.Sat) {
      unsigned DW = DTy->getIntegerBitWidth(), SW = STy->getIntegerBitWidth();
      unsigned WW = std::max(DW, SW) + 1;
      Type *WTy = L.B.getIntNTy(WW);
      Value *X = isSignedInt(ST) ? L.B.CreateSExt(A, WTy) : L.B.CreateZExt(A, WTy);
      APInt Lo = isSignedInt(DT) ? APInt::getSignedMinValue(DW).sext(WW)
                                 : APInt::getZero(WW);
      APInt Hi = isSignedInt(DT) ? APInt::getSignedMaxValue(DW).sext(WW)
                                 : APInt::getMaxValue(DW).zext(WW);
      X = L.callIntrinsic(Intrinsic::smax, {WTy}, {X, ConstantInt::get(WTy, Lo)});
      X = L.callIntrinsic(Intrinsic::smin, {WTy}, {X, ConstantInt::get(WTy, Hi)});
      R = L.B.CreateTrunc(X, DTy);
    } else {
      R = isSignedInt(ST) ? L.B.CreateSExtOrTrunc(A, DTy)
                          : L.B.CreateZExtOrTrunc(A, DTy);
    }
  } else if (SF && !DF) {
    // Float to integer: the rounding is part of the instruction (.rzi is
    // C's truncation); out-of-range values saturate and NaN gives 0.
    Intrinsic::ID Round = Intrinsic::trunc;
    if (M.Rounding == "rni")
      Round = Intrinsic::roundeven;
    else if (M.Rounding == "rmi")
      Round = Intrinsic::floor;
    else if (M.Rounding == "rpi")
      Round = Intrinsic::ceil;
    else if (M.Rounding != "rzi") {
      L.unsupported(I, "float-to-integer conversion needs .rni/.rzi/.rmi/.rpi");
      return;
    }
    if (!STy->isFloatTy() && !STy->isDoubleTy())
      A = L.B.CreateFPExt(A, L.B.getFloatTy());
    Value *Rounded = L.callIntrinsic(Round, {A->getType()}, {A});
    R = L.callIntrinsic(isSignedInt(DT) ? Intrinsic::fptosi_sat
                                      : Intrinsic::fptoui_sat,
                      {DTy, A->getType()}, {Rounded});
  } else if (!SF && DF) {
    if (!M.Rounding.empty() && M.Rounding != "rn") {
      L.unsupported(I, "rounding mode ." + M.Rounding);
      return;
    }
    R = isSignedInt(ST) ? L.B.CreateSIToFP(A, DTy) : L.B.CreateUIToFP(A, DTy);
  } else {
    unsigned DW = DTy->getPrimitiveSizeInBits(), SW = STy->getPrimitiveSizeInBits();
    if (DW > SW || (DW == SW && DTy != STy)) {
      R = L.B.CreateFPExt(A, DW > SW ? DTy : L.B.getFloatTy());
      if (R->getType() != DTy)
        R = L.B.CreateFPTrunc(R, DTy);
    } else if (DW < SW) {
      if (!M.Rounding.empty() && M.Rounding != "rn") {
        L.unsupported(I, "rounding mode ." + M.Rounding);
        return;
      }
      R = L.B.CreateFPTrunc(A, DTy);
    } else {
      // Same type: round to an integral value.
      Intrinsic::ID Round = Intrinsic::not_intrinsic;
      if (M.Rounding == "rni")
        Round = Intrinsic::roundeven;
      else if (M.Rounding == "rzi")
        Round = Intrinsic::trunc;
      else if (M.Rounding == "rmi")
        Round = Intrinsic::floor;
      else if (M.Rounding == "rpi")
        Round = Intrinsic::ceil;
      R = Round == Intrinsic::not_intrinsic
              ? A
              : L.callIntrinsic(Round, {DTy}, {A});
    }
  }
  if (DF && M.Ftz)
    R = L.flush(R);
  if (DF && M.Sat)
    R = L.saturate(R);
  L.write(I.Operands[0], R, isSignedInt(DT));
}

void registerMovementInstructions(OpcodeTable &T) {
  T["mov"] = lowerMov;
  T["setp"] = lowerSetp;
  T["selp"] = lowerSelp;
  T["cvt"] = lowerCvt;
}

} // namespace cuhip::ptx::lower
