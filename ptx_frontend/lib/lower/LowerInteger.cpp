//===- LowerInteger.cpp - Integer and bit instructions ----------------------===//
//
// add/sub/mul/mad/div/rem/min/max/abs/neg on integer types, logic
// (and/or/xor/not/cnot), shifts and bit counts. PTX defines results that
// LLVM leaves undefined (division by zero, shifts past the width); each
// handler produces PTX's value without trapping the host.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

void lowerIntArith(FunctionLowering &L, const Instruction &I) {
  const std::string &Op = I.Opcode;
  ScalarType T = L.instrType(I);
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(L.Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  bool Hi = I.hasModifier("hi"), Wide = I.hasModifier("wide");
  bool Sat = I.hasModifier("sat");
  if (I.hasModifier("cc")) {
    L.unsupported(I, "carry chains");
    return;
  }
  if (Op == "abs" || Op == "neg") {
    Value *A = L.read(I, 1, Ty, Signed);
    if (!A)
      return;
    Value *R = Op == "abs" ? L.callIntrinsic(Intrinsic::abs, {Ty},
                                           {A, L.B.getFalse()})
                           : L.B.CreateNeg(A);
    L.write(I.Operands[0], R, Signed);
    return;
  }
  Value *A = L.read(I, 1, Ty, Signed);
  Value *Bv = L.read(I, 2, Ty, Signed);
  if (!A || !Bv)
    return;
  Value *R = nullptr;
  if (Op == "add" || Op == "sub") {
    if (Sat) {
      if (!Signed || W != 32) {
        L.unsupported(I, ".sat applies to s32 only");
        return;
      }
      R = L.callIntrinsic(Op == "add" ? Intrinsic::sadd_sat : Intrinsic::ssub_sat,
                        {Ty}, {A, Bv});
    } else {
      R = Op == "add" ? L.B.CreateAdd(A, Bv) : L.B.CreateSub(A, Bv);
    }
  } else if (Op == "mul" || Op == "mad") {
    Value *C = nullptr;
    if (Op == "mad") {
      C = L.read(I, 3, Wide ? L.B.getIntNTy(2 * W) : Ty, Signed);
      if (!C)
        return;
      if (Sat) {
        L.unsupported(I, "mad.sat");
        return;
      }
    }
    if (Wide || Hi) {
      Type *WTy = L.B.getIntNTy(2 * W);
      Value *P = L.B.CreateMul(Signed ? L.B.CreateSExt(A, WTy) : L.B.CreateZExt(A, WTy),
                             Signed ? L.B.CreateSExt(Bv, WTy)
                                    : L.B.CreateZExt(Bv, WTy));
      if (Hi) {
        R = L.B.CreateTrunc(L.B.CreateLShr(P, W), Ty);
        if (C)
          R = L.B.CreateAdd(R, C);
      } else {
        R = C ? L.B.CreateAdd(P, C) : P;
      }
      L.write(I.Operands[0], R, Signed);
      return;
    }
    R = L.B.CreateMul(A, Bv);
    if (C)
      R = L.B.CreateAdd(R, C);
  } else if (Op == "div" || Op == "rem") {
    // PTX leaves division by zero unspecified but it must not trap the host:
    // divide by 1 instead and return all ones (what NVIDIA GPUs produce for
    // unsigned division) or the dividend for rem.
    Value *Zero = ConstantInt::get(Ty, 0);
    Value *IsZero = L.B.CreateICmpEQ(Bv, Zero);
    Value *Safe = L.B.CreateSelect(IsZero, ConstantInt::get(Ty, 1), Bv);
    if (Signed) {
      // INT_MIN / -1 overflows (and traps on x86): its PTX result wraps.
      Value *Ovf = L.B.CreateAnd(
          L.B.CreateICmpEQ(A, ConstantInt::get(Ty, APInt::getSignedMinValue(W))),
          L.B.CreateICmpEQ(Bv, ConstantInt::getAllOnesValue(Ty)));
      Safe = L.B.CreateSelect(Ovf, ConstantInt::get(Ty, 1), Safe);
      Value *Q = Op == "div" ? L.B.CreateSDiv(A, Safe) : L.B.CreateSRem(A, Safe);
      Q = L.B.CreateSelect(Ovf, Op == "div" ? A : Zero, Q);
      R = L.B.CreateSelect(IsZero,
                         Op == "div" ? ConstantInt::getAllOnesValue(Ty) : A, Q);
    } else {
      Value *Q = Op == "div" ? L.B.CreateUDiv(A, Safe) : L.B.CreateURem(A, Safe);
      R = L.B.CreateSelect(IsZero,
                         Op == "div" ? ConstantInt::getAllOnesValue(Ty) : A, Q);
    }
  } else if (Op == "min" || Op == "max") {
    Intrinsic::ID ID = Op == "min" ? (Signed ? Intrinsic::smin : Intrinsic::umin)
                                   : (Signed ? Intrinsic::smax : Intrinsic::umax);
    R = L.callIntrinsic(ID, {Ty}, {A, Bv});
  } else {
    L.unsupported(I);
    return;
  }
  L.write(I.Operands[0], R, Signed);
}

static void lowerLogic(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None) {
    L.unsupported(I);
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false);
  if (!A)
    return;
  Value *R;
  if (I.Opcode == "not") {
    R = L.B.CreateNot(A);
  } else if (I.Opcode == "cnot") {
    R = L.B.CreateZExt(L.B.CreateICmpEQ(A, ConstantInt::get(Ty, 0)), Ty);
  } else {
    Value *Bv = L.read(I, 2, Ty, false);
    if (!Bv)
      return;
    R = I.Opcode == "and"  ? L.B.CreateAnd(A, Bv)
        : I.Opcode == "or" ? L.B.CreateOr(A, Bv)
                           : L.B.CreateXor(A, Bv);
  }
  L.write(I.Operands[0], R, false);
}

static void lowerShift(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None || isFloat(T) || T == ScalarType::Pred) {
    L.unsupported(I);
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  Value *A = L.read(I, 1, Ty, false);
  Value *Amt = L.read(I, 2, L.B.getInt32Ty(), false);
  if (!A || !Amt)
    return;
  // PTX clamps shift amounts larger than the width; LLVM would give poison.
  Value *Big = L.B.CreateICmpUGE(Amt, L.B.getInt32(W));
  Value *AmtW = L.B.CreateZExtOrTrunc(
      L.B.CreateSelect(Big, L.B.getInt32(W - 1), Amt), Ty);
  Value *R;
  if (I.Opcode == "shl") {
    R = L.B.CreateSelect(Big, ConstantInt::get(Ty, 0), L.B.CreateShl(A, AmtW));
  } else if (isSignedInt(T)) {
    R = L.B.CreateAShr(A, AmtW);
  } else {
    R = L.B.CreateSelect(Big, ConstantInt::get(Ty, 0), L.B.CreateLShr(A, AmtW));
  }
  L.write(I.Operands[0], R, false);
}

static void lowerBitCount(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  if (T == ScalarType::None || isFloat(T)) {
    L.unsupported(I);
    return;
  }
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false);
  if (!A)
    return;
  Value *R;
  if (I.Opcode == "popc")
    R = L.B.CreateZExtOrTrunc(L.callIntrinsic(Intrinsic::ctpop, {Ty}, {A}),
                            L.B.getInt32Ty());
  else if (I.Opcode == "clz")
    R = L.B.CreateZExtOrTrunc(
        L.callIntrinsic(Intrinsic::ctlz, {Ty}, {A, L.B.getFalse()}),
        L.B.getInt32Ty());
  else
    R = L.callIntrinsic(Intrinsic::bitreverse, {Ty}, {A});
  L.write(I.Operands[0], R, false);
}

void registerIntegerInstructions(OpcodeTable &T) {
  for (const char *Op : {"and", "or", "xor", "not", "cnot"})
    T[Op] = lowerLogic;
  for (const char *Op : {"shl", "shr"})
    T[Op] = lowerShift;
  for (const char *Op : {"popc", "clz", "brev"})
    T[Op] = lowerBitCount;
}

} // namespace cuhip::ptx::lower
