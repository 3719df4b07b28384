//===- LowerInteger.cpp - Integer and bit instructions --------------------===//
//
// The integer arithmetic (add/sub with the CC.CF carry chain, mul/mad in all
// modes, mul24/mad24, sad, div/rem, min/max, abs/neg), the logic and shift
// instructions (and/or/xor/not/cnot, lop3, shl/shr, shf) and the bit
// instructions (popc, clz, bfind, fns, brev, bfe, bfi, szext, bmsk, prmt,
// dp4a/dp2a). PTX defines results for operands that LLVM leaves undefined
// (division by zero, shift amounts and bit positions past the width), so
// every handler guards such operands with selects: the IR never relies on a
// poison value and never traps the host. Forms the ISA does not define for an
// instruction, or that are not implemented, are reported by name.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

#include <array>

namespace cuhip::ptx::lower {

namespace {

using TypeList = std::initializer_list<ScalarType>;
using ModifierList = std::initializer_list<std::string_view>;

/// The instruction type of I if it is one of Allowed; otherwise reports I
/// and returns None.
ScalarType requireType(FunctionLowering &L, const Instruction &I,
                       TypeList Allowed, unsigned Nth = 0) {
  ScalarType T = L.instrType(I, Nth);
  for (ScalarType A : Allowed)
    if (T == A)
      return T;
  L.unsupported(I, T == ScalarType::None
                       ? std::string("no operand type")
                       : "type ." + std::string(scalarTypeName(T)) +
                             " is not defined for this instruction");
  return ScalarType::None;
}

/// True when every modifier of I is a type name or one of Allowed; otherwise
/// reports the first other modifier, so that a form we do not implement is
/// never lowered as if it were a plainer one.
bool onlyModifiers(FunctionLowering &L, const Instruction &I,
                   ModifierList Allowed) {
  for (const std::string &M : I.Modifiers) {
    if (parseScalarType(M) != ScalarType::None)
      continue;
    bool Known = false;
    for (std::string_view A : Allowed)
      Known |= M == A;
    if (!Known) {
      L.unsupported(I, "modifier ." + M);
      return false;
    }
  }
  return true;
}

bool checkOperandCount(FunctionLowering &L, const Instruction &I, size_t N) {
  if (I.Operands.size() == N)
    return true;
  L.error(I.Loc,
          "'" + Twine(I.fullName()) + "' expects " + Twine(N) + " operands");
  return false;
}

bool isIntegerType(ScalarType T) {
  return isSignedInt(T) || isUnsignedInt(T) || isBitType(T);
}

bool isCarryType(ScalarType T) {
  return T == ScalarType::U32 || T == ScalarType::S32 || T == ScalarType::U64 ||
         T == ScalarType::S64;
}

Value *allOnes(Type *Ty) { return ConstantInt::getAllOnesValue(Ty); }
Value *constant(Type *Ty, uint64_t V) { return ConstantInt::get(Ty, V); }

/// V << Amt, or 0 when Amt is at least the width. The shift of the other
/// select arm is poison for such amounts, which select does not propagate.
Value *shlOrZero(IRBuilder<> &B, Value *V, Value *Amt) {
  Type *Ty = V->getType();
  Value *Big = B.CreateICmpUGE(Amt, constant(Ty, Ty->getIntegerBitWidth()));
  return B.CreateSelect(Big, constant(Ty, 0), B.CreateShl(V, Amt));
}

/// V >> Amt (logical), or 0 when Amt is at least the width.
Value *lshrOrZero(IRBuilder<> &B, Value *V, Value *Amt) {
  Type *Ty = V->getType();
  Value *Big = B.CreateICmpUGE(Amt, constant(Ty, Ty->getIntegerBitWidth()));
  return B.CreateSelect(Big, constant(Ty, 0), B.CreateLShr(V, Amt));
}

/// The K low bits set, for 0 <= K <= width.
Value *lowMask(IRBuilder<> &B, Value *K) {
  Type *Ty = K->getType();
  Value *Full = B.CreateICmpUGE(K, constant(Ty, Ty->getIntegerBitWidth()));
  return B.CreateSelect(
      Full, allOnes(Ty),
      B.CreateSub(B.CreateShl(constant(Ty, 1), K), constant(Ty, 1)));
}

Value *extend(IRBuilder<> &B, Value *V, Type *To, bool Signed) {
  return Signed ? B.CreateSExt(V, To) : B.CreateZExt(V, To);
}

/// The i64 Hi:Lo of two i32 values.
Value *concat64(IRBuilder<> &B, Value *Hi, Value *Lo) {
  Value *High = B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32);
  return B.CreateOr(High, B.CreateZExt(Lo, B.getInt64Ty()));
}

//===----------------------------------------------------------------------===//
// The carry flag
//===----------------------------------------------------------------------===//

AllocaInst *carrySlot(FunctionLowering &L) {
  if (!L.CarryFlag) {
    L.CarryFlag = L.createSlot(L.B.getInt1Ty(), "cc.cf");
    // Reading CC.CF before an instruction wrote it is undefined in PTX; a
    // defined 0 keeps such a read deterministic instead of undef.
    IRBuilder<> EB(L.AllocaBlock);
    if (llvm::Instruction *Term = L.AllocaBlock->getTerminator())
      EB.SetInsertPoint(Term);
    EB.CreateStore(EB.getFalse(), L.CarryFlag);
  }
  return L.CarryFlag;
}

Value *readCarry(FunctionLowering &L) {
  return L.B.CreateLoad(L.B.getInt1Ty(), carrySlot(L), "cf");
}

void writeCarry(FunctionLowering &L, Value *CF) {
  L.B.CreateStore(CF, carrySlot(L));
}

/// A + B, plus CC.CF with CarryIn; with CarryOut the unsigned carry out of
/// the full-width sum becomes the new CC.CF.
Value *addChained(FunctionLowering &L, Value *A, Value *B, bool CarryIn,
                  bool CarryOut) {
  Type *Ty = A->getType();
  Value *In = CarryIn ? L.B.CreateZExt(readCarry(L), Ty) : nullptr;
  if (!CarryOut) {
    Value *Sum = L.B.CreateAdd(A, B);
    return In ? L.B.CreateAdd(Sum, In) : Sum;
  }
  Value *S1 = L.callIntrinsic(Intrinsic::uadd_with_overflow, {Ty}, {A, B});
  Value *Sum = L.B.CreateExtractValue(S1, 0);
  Value *Carry = L.B.CreateExtractValue(S1, 1);
  if (In) {
    Value *S2 = L.callIntrinsic(Intrinsic::uadd_with_overflow, {Ty}, {Sum, In});
    Sum = L.B.CreateExtractValue(S2, 0);
    // At most one of the two additions can carry, so or-ing them is exact.
    Carry = L.B.CreateOr(Carry, L.B.CreateExtractValue(S2, 1));
  }
  writeCarry(L, Carry);
  return Sum;
}

/// A - B as NVIDIA hardware computes it: A + ~B + 1 for sub, A + ~B + CC.CF
/// for subc. CC.CF therefore holds the complement of the borrow (1 when no
/// borrow occurred), and subc subtracts the borrow that flag stands for.
/// Chains of sub.cc/subc give the same differences either way, but a
/// following addc reads this flag, and so does subc after add.cc; real
/// programs mix them (bignum code takes the final borrow with addc).
Value *subChained(FunctionLowering &L, Value *A, Value *B, bool CarryIn,
                  bool CarryOut) {
  Type *Ty = A->getType();
  if (!CarryOut) {
    Value *Diff = L.B.CreateSub(A, B);
    if (!CarryIn)
      return Diff;
    Value *Borrow = L.B.CreateZExt(L.B.CreateNot(readCarry(L)), Ty);
    return L.B.CreateSub(Diff, Borrow);
  }
  Value *In = CarryIn ? L.B.CreateZExt(readCarry(L), Ty) : constant(Ty, 1);
  Value *S1 =
      L.callIntrinsic(Intrinsic::uadd_with_overflow, {Ty}, {A, L.B.CreateNot(B)});
  Value *S2 = L.callIntrinsic(Intrinsic::uadd_with_overflow, {Ty},
                              {L.B.CreateExtractValue(S1, 0), In});
  // At most one of the two additions can carry, so or-ing them is exact.
  writeCarry(L, L.B.CreateOr(L.B.CreateExtractValue(S1, 1),
                             L.B.CreateExtractValue(S2, 1)));
  return L.B.CreateExtractValue(S2, 0);
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

/// add, sub, addc, subc, with .cc and .sat. CC.CF is the carry out of
/// add.cc/addc.cc and, as on NVIDIA hardware, the complement of the borrow
/// out of sub.cc/subc.cc (see subChained); chains of either kind are exact.
void lowerAddSub(FunctionLowering &L, const Instruction &I) {
  const std::string &Op = I.Opcode;
  bool IsAdd = Op == "add" || Op == "addc";
  bool CarryIn = Op == "addc" || Op == "subc";
  bool CarryOut = I.hasModifier("cc");
  bool Sat = I.hasModifier("sat");
  if (!onlyModifiers(L, I, {"cc", "sat"}))
    return;
  ScalarType T = L.instrType(I);
  if ((CarryIn || CarryOut) && !isCarryType(T)) {
    L.unsupported(I, "the carry chain is defined for .u32, .s32, .u64 and "
                     ".s64 only");
    return;
  }
  if (Sat && (T != ScalarType::S32 || CarryIn || CarryOut)) {
    L.unsupported(I, ".sat applies to add.s32 and sub.s32 only");
    return;
  }
  if (!checkOperandCount(L, I, 3))
    return;
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, Signed);
  Value *Bv = L.read(I, 2, Ty, Signed);
  if (!A || !Bv)
    return;
  Value *R;
  if (Sat) {
    R = L.callIntrinsic(IsAdd ? Intrinsic::sadd_sat : Intrinsic::ssub_sat, {Ty},
                        {A, Bv});
  } else if (CarryIn || CarryOut) {
    R = IsAdd ? addChained(L, A, Bv, CarryIn, CarryOut)
              : subChained(L, A, Bv, CarryIn, CarryOut);
  } else {
    R = IsAdd ? L.B.CreateAdd(A, Bv) : L.B.CreateSub(A, Bv);
  }
  L.write(I.Operands[0], R, Signed);
}

/// mul/mad .lo/.hi/.wide, mad.hi.sat.s32, mad.cc and madc. The high half
/// and the wide forms multiply at twice the width (i128 for 64-bit .hi).
void lowerMulMad(FunctionLowering &L, const Instruction &I) {
  const std::string &Op = I.Opcode;
  bool IsMul = Op == "mul";
  bool CarryIn = Op == "madc";
  bool CarryOut = I.hasModifier("cc");
  bool Hi = I.hasModifier("hi"), Lo = I.hasModifier("lo");
  bool Wide = I.hasModifier("wide"), Sat = I.hasModifier("sat");
  if (!onlyModifiers(L, I, {"hi", "lo", "wide", "sat", "cc"}))
    return;
  ScalarType T = L.instrType(I);
  if (int(Hi) + int(Lo) + int(Wide) != 1) {
    L.unsupported(I, "expects exactly one of .lo, .hi and .wide");
    return;
  }
  unsigned W = scalarTypeBits(T);
  if (Wide && W == 64) {
    L.unsupported(I, ".wide applies to 16- and 32-bit types only");
    return;
  }
  if (IsMul && (Sat || CarryOut)) {
    L.unsupported(I, "mul has no ." + std::string(Sat ? "sat" : "cc"));
    return;
  }
  if ((CarryIn || CarryOut) && (Wide || !isCarryType(T))) {
    L.unsupported(I, "the carry chain is defined for .lo/.hi on .u32, .s32, "
                     ".u64 and .s64 only");
    return;
  }
  if (Sat && (!Hi || T != ScalarType::S32 || CarryIn || CarryOut)) {
    L.unsupported(I, ".sat applies to mad.hi.s32 only");
    return;
  }
  if (!checkOperandCount(L, I, IsMul ? 3 : 4))
    return;
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(L.Ctx, T);
  Type *WTy = L.B.getIntNTy(2 * W);
  Value *A = L.read(I, 1, Ty, Signed);
  Value *Bv = L.read(I, 2, Ty, Signed);
  Value *C = nullptr;
  if (!IsMul)
    C = L.read(I, 3, Wide ? WTy : Ty, Signed);
  if (!A || !Bv || (!IsMul && !C))
    return;

  Value *R;
  if (Lo) {
    R = L.B.CreateMul(A, Bv);
  } else {
    Value *AW = extend(L.B, A, WTy, Signed);
    Value *BW = extend(L.B, Bv, WTy, Signed);
    Value *P = L.B.CreateMul(AW, BW);
    R = Wide ? P : L.B.CreateTrunc(L.B.CreateLShr(P, W), Ty);
  }
  if (C) {
    if (Sat) {
      R = L.callIntrinsic(Intrinsic::sadd_sat, {Ty}, {R, C});
    } else if (CarryIn || CarryOut) {
      R = addChained(L, R, C, CarryIn, CarryOut);
    } else {
      R = L.B.CreateAdd(R, C);
    }
  }
  L.write(I.Operands[0], R, Signed);
}

/// mul24/mad24: the operands are the 24-bit integers in the low bits of the
/// 32-bit sources (CUDA's __mul24 documents that the high 8 bits are
/// ignored); the product is exact in 48 bits, .lo returns bits 31..0 and
/// .hi bits 47..16.
void lowerMul24(FunctionLowering &L, const Instruction &I) {
  bool IsMad = I.Opcode == "mad24";
  bool Hi = I.hasModifier("hi"), Lo = I.hasModifier("lo");
  bool Sat = I.hasModifier("sat");
  if (!onlyModifiers(L, I, {"hi", "lo", "sat"}))
    return;
  ScalarType T = requireType(L, I, {ScalarType::U32, ScalarType::S32});
  if (T == ScalarType::None)
    return;
  if (Hi == Lo) {
    L.unsupported(I, "expects exactly one of .lo and .hi");
    return;
  }
  if (Sat && (!IsMad || !Hi || T != ScalarType::S32)) {
    L.unsupported(I, ".sat applies to mad24.hi.s32 only");
    return;
  }
  if (!checkOperandCount(L, I, IsMad ? 4 : 3))
    return;
  bool Signed = T == ScalarType::S32;
  Type *I32 = L.B.getInt32Ty(), *I24 = L.B.getIntNTy(24);
  Type *I64 = L.B.getInt64Ty();
  Value *A = L.read(I, 1, I32, Signed);
  Value *Bv = L.read(I, 2, I32, Signed);
  Value *C = IsMad ? L.read(I, 3, I32, Signed) : nullptr;
  if (!A || !Bv || (IsMad && !C))
    return;
  Value *A24 = extend(L.B, L.B.CreateTrunc(A, I24), I64, Signed);
  Value *B24 = extend(L.B, L.B.CreateTrunc(Bv, I24), I64, Signed);
  Value *P = L.B.CreateMul(A24, B24);
  Value *R = L.B.CreateTrunc(Hi ? L.B.CreateLShr(P, 16) : P, I32);
  if (C)
    R = Sat ? L.callIntrinsic(Intrinsic::sadd_sat, {I32}, {R, C})
            : L.B.CreateAdd(R, C);
  L.write(I.Operands[0], R, Signed);
}

/// sad: c + |a - b| with a and b compared in the instruction's signedness.
void lowerSad(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T =
      requireType(L, I,
                  {ScalarType::U16, ScalarType::U32, ScalarType::U64,
                   ScalarType::S16, ScalarType::S32, ScalarType::S64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 4))
    return;
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, Signed);
  Value *Bv = L.read(I, 2, Ty, Signed);
  Value *C = L.read(I, 3, Ty, Signed);
  if (!A || !Bv || !C)
    return;
  Value *Less = Signed ? L.B.CreateICmpSLT(A, Bv) : L.B.CreateICmpULT(A, Bv);
  Value *BMinusA = L.B.CreateSub(Bv, A), *AMinusB = L.B.CreateSub(A, Bv);
  Value *Diff = L.B.CreateSelect(Less, BMinusA, AMinusB);
  L.write(I.Operands[0], L.B.CreateAdd(C, Diff), Signed);
}

void lowerDivRem(FunctionLowering &L, const Instruction &I, ScalarType T) {
  if (!onlyModifiers(L, I, {}) || !checkOperandCount(L, I, 3))
    return;
  bool IsDiv = I.Opcode == "div";
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, Signed);
  Value *Bv = L.read(I, 2, Ty, Signed);
  if (!A || !Bv)
    return;
  // PTX leaves division by zero unspecified but it must not trap the host:
  // divide by 1 instead and return all ones (what NVIDIA GPUs produce for
  // unsigned division) or the dividend for rem.
  Value *Zero = constant(Ty, 0);
  Value *IsZero = L.B.CreateICmpEQ(Bv, Zero);
  Value *Safe = L.B.CreateSelect(IsZero, constant(Ty, 1), Bv);
  Value *R;
  if (Signed) {
    // INT_MIN / -1 overflows (and traps on x86): its PTX result wraps. A
    // divisor of -1 is therefore never divided by (the quotient is -A, the
    // remainder 0), which keeps the divisor free of the dividend: a divisor
    // that is the same for every thread stays uniform for the vectorizer.
    Value *MinusOne = L.B.CreateICmpEQ(Bv, allOnes(Ty));
    Safe = L.B.CreateSelect(MinusOne, constant(Ty, 1), Safe);
    Value *Q = IsDiv ? L.B.CreateSDiv(A, Safe) : L.B.CreateSRem(A, Safe);
    Q = L.B.CreateSelect(MinusOne, IsDiv ? L.B.CreateNeg(A) : Zero, Q);
    R = L.B.CreateSelect(IsZero, IsDiv ? allOnes(Ty) : A, Q);
  } else {
    Value *Q = IsDiv ? L.B.CreateUDiv(A, Safe) : L.B.CreateURem(A, Safe);
    R = L.B.CreateSelect(IsZero, IsDiv ? allOnes(Ty) : A, Q);
  }
  L.write(I.Operands[0], R, Signed);
}

/// min/max, and their .relu form on s32, which clamps a negative result to 0.
void lowerMinMax(FunctionLowering &L, const Instruction &I, ScalarType T) {
  if (!onlyModifiers(L, I, {"relu"}) || !checkOperandCount(L, I, 3))
    return;
  bool Relu = I.hasModifier("relu");
  if (Relu && T != ScalarType::S32) {
    L.unsupported(I, ".relu applies to .s32 (and .s16x2) only");
    return;
  }
  bool Signed = isSignedInt(T);
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, Signed);
  Value *Bv = L.read(I, 2, Ty, Signed);
  if (!A || !Bv)
    return;
  bool IsMin = I.Opcode == "min";
  Intrinsic::ID ID = IsMin ? (Signed ? Intrinsic::smin : Intrinsic::umin)
                           : (Signed ? Intrinsic::smax : Intrinsic::umax);
  Value *R = L.callIntrinsic(ID, {Ty}, {A, Bv});
  if (Relu)
    R = L.callIntrinsic(Intrinsic::smax, {Ty}, {R, constant(Ty, 0)});
  L.write(I.Operands[0], R, Signed);
}

/// abs and neg are defined on signed types; both wrap at INT_MIN.
void lowerAbsNeg(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T =
      requireType(L, I, {ScalarType::S16, ScalarType::S32, ScalarType::S64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 2))
    return;
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, true);
  if (!A)
    return;
  Value *R = I.Opcode == "abs"
                 ? L.callIntrinsic(Intrinsic::abs, {Ty}, {A, L.B.getFalse()})
                 : L.B.CreateNeg(A);
  L.write(I.Operands[0], R, true);
}

//===----------------------------------------------------------------------===//
// Logic and shifts
//===----------------------------------------------------------------------===//

void lowerLogic(FunctionLowering &L, const Instruction &I) {
  bool IsCnot = I.Opcode == "cnot";
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T =
      IsCnot ? requireType(L, I,
                           {ScalarType::B16, ScalarType::B32, ScalarType::B64})
             : requireType(L, I,
                           {ScalarType::Pred, ScalarType::B16, ScalarType::B32,
                            ScalarType::B64});
  bool Unary = IsCnot || I.Opcode == "not";
  if (T == ScalarType::None || !checkOperandCount(L, I, Unary ? 2 : 3))
    return;
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false);
  if (!A)
    return;
  Value *R;
  if (I.Opcode == "not") {
    R = L.B.CreateNot(A);
  } else if (IsCnot) {
    R = L.B.CreateZExt(L.B.CreateICmpEQ(A, constant(Ty, 0)), Ty);
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

/// lop3: bit i of d is bit ((a_i << 2) | (b_i << 1) | c_i) of immLut, so d
/// is the or of the minterms whose bit is set in immLut. With .or/.and the
/// predicate p = (d != 0) BoolOp q is written as well.
void lowerLop3(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {"or", "and"}))
    return;
  if (requireType(L, I, {ScalarType::B32}) == ScalarType::None)
    return;
  bool Or = I.hasModifier("or"), And = I.hasModifier("and");
  bool BoolOp = Or || And;
  if (Or && And) {
    L.unsupported(I, "expects at most one of .or and .and");
    return;
  }
  if (!checkOperandCount(L, I, BoolOp ? 6 : 5))
    return;
  if (BoolOp != bool(I.Operands[0].Pair)) {
    L.error(I.Loc, "'" + Twine(I.fullName()) + "' " +
                       (BoolOp ? "needs a predicate destination 'd|p'"
                               : "has no predicate destination"));
    return;
  }
  const Operand &Lut = I.Operands[4];
  if (Lut.K != Operand::IntImm || Lut.IntValue > 0xff) {
    L.error(Lut.Loc, "lop3's immLut must be an integer constant in 0..255");
    return;
  }
  Type *Ty = L.B.getInt32Ty();
  Value *A = L.read(I, 1, Ty, false);
  Value *Bv = L.read(I, 2, Ty, false);
  Value *C = L.read(I, 3, Ty, false);
  Value *Q = BoolOp ? L.read(I, 5, L.B.getInt1Ty(), false) : nullptr;
  if (!A || !Bv || !C || (BoolOp && !Q))
    return;
  // Complements are made on first use so that the IR holds only what the
  // table needs.
  Value *Inputs[3] = {A, Bv, C};
  Value *Negated[3] = {nullptr, nullptr, nullptr};
  auto literal = [&](unsigned Idx, bool Set) {
    if (Set)
      return Inputs[Idx];
    if (!Negated[Idx])
      Negated[Idx] = L.B.CreateNot(Inputs[Idx]);
    return Negated[Idx];
  };
  Value *R = nullptr;
  for (unsigned K = 0; K < 8; ++K) {
    if (!(Lut.IntValue >> K & 1))
      continue;
    Value *LA = literal(0, K & 4), *LB = literal(1, K & 2);
    Value *LC = literal(2, K & 1);
    Value *Term = L.B.CreateAnd(L.B.CreateAnd(LA, LB), LC);
    R = R ? L.B.CreateOr(R, Term) : Term;
  }
  if (!R)
    R = constant(Ty, 0);
  L.write(I.Operands[0], R, false);
  if (BoolOp) {
    Value *NonZero = L.B.CreateICmpNE(R, constant(Ty, 0));
    L.write(*I.Operands[0].Pair,
            Or ? L.B.CreateOr(NonZero, Q) : L.B.CreateAnd(NonZero, Q), false);
  }
}

/// shl/shr: PTX clamps shift amounts larger than the width, giving 0 (shl,
/// unsigned shr) or the sign (signed shr); LLVM would give poison.
void lowerShift(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T =
      I.Opcode == "shl"
          ? requireType(L, I,
                        {ScalarType::B16, ScalarType::B32, ScalarType::B64})
          : requireType(L, I,
                        {ScalarType::B16, ScalarType::B32, ScalarType::B64,
                         ScalarType::U16, ScalarType::U32, ScalarType::U64,
                         ScalarType::S16, ScalarType::S32, ScalarType::S64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 3))
    return;
  Type *Ty = llvmType(L.Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  Value *A = L.read(I, 1, Ty, false);
  Value *Amt = L.read(I, 2, L.B.getInt32Ty(), false);
  if (!A || !Amt)
    return;
  Value *Big = L.B.CreateICmpUGE(Amt, L.B.getInt32(W));
  Value *AmtW = L.B.CreateZExtOrTrunc(
      L.B.CreateSelect(Big, L.B.getInt32(W - 1), Amt), Ty);
  Value *R;
  if (I.Opcode == "shl") {
    R = L.B.CreateSelect(Big, constant(Ty, 0), L.B.CreateShl(A, AmtW));
  } else if (isSignedInt(T)) {
    R = L.B.CreateAShr(A, AmtW);
  } else {
    R = L.B.CreateSelect(Big, constant(Ty, 0), L.B.CreateLShr(A, AmtW));
  }
  L.write(I.Operands[0], R, false);
}

/// shf.l/shf.r: shift the 64-bit b:a by c (clamped to 32, or taken mod 32)
/// and return its upper (l) or lower (r) 32 bits.
void lowerFunnelShift(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {"l", "r", "clamp", "wrap"}))
    return;
  if (requireType(L, I, {ScalarType::B32}) == ScalarType::None)
    return;
  bool Left = I.hasModifier("l"), Right = I.hasModifier("r");
  bool Clamp = I.hasModifier("clamp"), Wrap = I.hasModifier("wrap");
  if (Left == Right || Clamp == Wrap) {
    L.unsupported(I, "expects one of .l/.r and one of .clamp/.wrap");
    return;
  }
  if (!checkOperandCount(L, I, 4))
    return;
  Type *I32 = L.B.getInt32Ty(), *I64 = L.B.getInt64Ty();
  Value *A = L.read(I, 1, I32, false);
  Value *Bv = L.read(I, 2, I32, false);
  Value *C = L.read(I, 3, I32, false);
  if (!A || !Bv || !C)
    return;
  Value *N =
      Clamp ? L.callIntrinsic(Intrinsic::umin, {I32}, {C, L.B.getInt32(32)})
            : L.B.CreateAnd(C, 31);
  Value *N64 = L.B.CreateZExt(N, I64);
  Value *Cat = concat64(L.B, Bv, A);
  Value *R = Left ? L.B.CreateLShr(L.B.CreateShl(Cat, N64), 32)
                  : L.B.CreateLShr(Cat, N64);
  L.write(I.Operands[0], L.B.CreateTrunc(R, I32), false);
}

//===----------------------------------------------------------------------===//
// Bit manipulation
//===----------------------------------------------------------------------===//

/// popc and clz count into a u32; brev reverses in the instruction type.
void lowerBitCount(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T = requireType(L, I, {ScalarType::B32, ScalarType::B64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 2))
    return;
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

/// bfind: the position of the most significant bit that differs from the
/// sign (signed types: negative inputs are complemented first), or with
/// .shiftamt the left shift that moves it to the msb; 0xffffffff if none.
void lowerBfind(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {"shiftamt"}))
    return;
  ScalarType T = requireType(
      L, I,
      {ScalarType::U32, ScalarType::U64, ScalarType::S32, ScalarType::S64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 2))
    return;
  Type *Ty = llvmType(L.Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  Value *A = L.read(I, 1, Ty, false);
  if (!A)
    return;
  if (isSignedInt(T)) {
    Value *Negative = L.B.CreateICmpSLT(A, constant(Ty, 0));
    A = L.B.CreateSelect(Negative, L.B.CreateNot(A), A);
  }
  Value *Lz = L.B.CreateZExtOrTrunc(
      L.callIntrinsic(Intrinsic::ctlz, {Ty}, {A, L.B.getFalse()}),
      L.B.getInt32Ty());
  Value *R =
      I.hasModifier("shiftamt") ? Lz : L.B.CreateSub(L.B.getInt32(W - 1), Lz);
  R = L.B.CreateSelect(L.B.CreateICmpEQ(A, constant(Ty, 0)),
                       L.B.getInt32(0xffffffffu), R);
  L.write(I.Operands[0], R, false);
}

/// The bit position of the N-th (1-based) set bit of the i32 X counted
/// from bit 0, or 0xffffffff if X has fewer than N set bits: a binary
/// search that skips the low half of the window whenever it holds fewer
/// than N set bits.
Value *nthSetBit(IRBuilder<> &B, Value *X, Value *N) {
  Type *I32 = B.getInt32Ty();
  Value *Pos = B.getInt32(0);
  for (unsigned Width : {16u, 8u, 4u, 2u, 1u}) {
    Value *Low = B.CreateAnd(X, B.getInt32((1u << Width) - 1));
    Value *Count = B.CreateIntrinsic(Intrinsic::ctpop, {I32}, {Low});
    Value *Skip = B.CreateICmpUGT(N, Count);
    N = B.CreateSelect(Skip, B.CreateSub(N, Count), N);
    X = B.CreateSelect(Skip, B.CreateLShr(X, Width), X);
    Pos = B.CreateSelect(Skip, B.CreateAdd(Pos, B.getInt32(Width)), Pos);
  }
  Value *Last = B.CreateICmpEQ(N, B.getInt32(1));
  Value *Found = B.CreateAnd(Last, B.CreateTrunc(X, B.getInt1Ty()));
  return B.CreateSelect(Found, Pos, B.getInt32(0xffffffffu));
}

/// fns: find the offset-th set bit of mask from base upwards (offset > 0),
/// downwards (offset < 0), or base itself (offset == 0). The ISA leaves
/// base > 31 undefined; such a base finds nothing here.
void lowerFns(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  if (requireType(L, I, {ScalarType::B32}) == ScalarType::None ||
      !checkOperandCount(L, I, 4))
    return;
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty();
  Value *Mask = L.read(I, 1, I32, false);
  Value *Base = L.read(I, 2, I32, false);
  Value *Off = L.read(I, 3, I32, true);
  if (!Mask || !Base || !Off)
    return;
  Value *NotFound = B.getInt32(0xffffffffu);
  Value *BaseOk = B.CreateICmpULT(Base, B.getInt32(32));
  Value *AtBase = B.CreateTrunc(lshrOrZero(B, Mask, Base), B.getInt1Ty());
  Value *Here = B.CreateSelect(AtBase, Base, NotFound);
  // Upwards: the bits at and above base, counted from the bottom.
  Value *Up =
      nthSetBit(B, B.CreateAnd(Mask, shlOrZero(B, allOnes(I32), Base)), Off);
  // Downwards: reverse the mask so that base..0 become 31-base..31.
  Value *Rev = L.callIntrinsic(Intrinsic::bitreverse, {I32}, {Mask});
  Value *RevBase = B.CreateSub(B.getInt32(31), Base);
  Value *Below = B.CreateAnd(Rev, shlOrZero(B, allOnes(I32), RevBase));
  Value *DownRev = nthSetBit(B, Below, B.CreateNeg(Off));
  Value *DownMissing = B.CreateICmpEQ(DownRev, NotFound);
  Value *Down = B.CreateSelect(DownMissing, NotFound,
                               B.CreateSub(B.getInt32(31), DownRev));
  Value *Forward = B.CreateICmpSGT(Off, B.getInt32(0));
  Value *Moved = B.CreateSelect(Forward, Up, Down);
  Value *R = B.CreateSelect(B.CreateICmpEQ(Off, B.getInt32(0)), Here, Moved);
  L.write(I.Operands[0], B.CreateSelect(BaseOk, R, NotFound), false);
}

/// The number of field bits of a field at Pos of length Len that lie inside
/// the W-bit value: min(Len, W - Pos), 0 if Pos is past the msb.
Value *bitsInside(IRBuilder<> &B, Value *Pos, Value *Len) {
  Type *Ty = Pos->getType();
  unsigned W = Ty->getIntegerBitWidth();
  Value *PosBig = B.CreateICmpUGE(Pos, constant(Ty, W));
  Value *Avail = B.CreateSelect(PosBig, constant(Ty, 0),
                                B.CreateSub(constant(Ty, W), Pos));
  return B.CreateIntrinsic(Intrinsic::umin, {Ty}, {Len, Avail});
}

/// bfe: extract len bits at pos (both taken mod 256); signed types fill
/// from the field's top bit (a[min(pos+len-1, msb)]), unsigned ones with 0.
void lowerBfe(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T = requireType(
      L, I,
      {ScalarType::U32, ScalarType::U64, ScalarType::S32, ScalarType::S64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 4))
    return;
  IRBuilder<> &B = L.B;
  Type *Ty = llvmType(L.Ctx, T);
  unsigned W = Ty->getIntegerBitWidth();
  Value *A = L.read(I, 1, Ty, false);
  Value *PosIn = L.read(I, 2, B.getInt32Ty(), false);
  Value *LenIn = L.read(I, 3, B.getInt32Ty(), false);
  if (!A || !PosIn || !LenIn)
    return;
  Value *Pos = B.CreateZExtOrTrunc(B.CreateAnd(PosIn, 0xff), Ty);
  Value *Len = B.CreateZExtOrTrunc(B.CreateAnd(LenIn, 0xff), Ty);
  Value *Mask = lowMask(B, bitsInside(B, Pos, Len));
  Value *R = B.CreateAnd(lshrOrZero(B, A, Pos), Mask);
  if (isSignedInt(T)) {
    // pos + len - 1 <= 509, so it cannot wrap even in 32 bits.
    Value *Top =
        B.CreateIntrinsic(Intrinsic::umin, {Ty},
                          {B.CreateSub(B.CreateAdd(Pos, Len), constant(Ty, 1)),
                           constant(Ty, W - 1)});
    Value *TopBit = B.CreateTrunc(B.CreateLShr(A, Top), B.getInt1Ty());
    Value *Sign = B.CreateAnd(TopBit, B.CreateICmpNE(Len, constant(Ty, 0)));
    R = B.CreateSelect(Sign, B.CreateOr(R, B.CreateNot(Mask)), R);
  }
  L.write(I.Operands[0], R, false);
}

/// bfi: insert the low len bits of a into b at pos (both taken mod 256);
/// bits that would land past the msb are dropped.
void lowerBfi(FunctionLowering &L, const Instruction &I) {
  if (!onlyModifiers(L, I, {}))
    return;
  ScalarType T = requireType(L, I, {ScalarType::B32, ScalarType::B64});
  if (T == ScalarType::None || !checkOperandCount(L, I, 5))
    return;
  IRBuilder<> &B = L.B;
  Type *Ty = llvmType(L.Ctx, T);
  Value *A = L.read(I, 1, Ty, false);
  Value *Bv = L.read(I, 2, Ty, false);
  Value *PosIn = L.read(I, 3, B.getInt32Ty(), false);
  Value *LenIn = L.read(I, 4, B.getInt32Ty(), false);
  if (!A || !Bv || !PosIn || !LenIn)
    return;
  Value *Pos = B.CreateZExtOrTrunc(B.CreateAnd(PosIn, 0xff), Ty);
  Value *Len = B.CreateZExtOrTrunc(B.CreateAnd(LenIn, 0xff), Ty);
  Value *Field = shlOrZero(B, lowMask(B, bitsInside(B, Pos, Len)), Pos);
  Value *Kept = B.CreateAnd(Bv, B.CreateNot(Field));
  Value *Inserted = B.CreateAnd(shlOrZero(B, A, Pos), Field);
  Value *R = B.CreateOr(Kept, Inserted);
  L.write(I.Operands[0], R, false);
}

/// szext and bmsk: `.clamp` or `.wrap` (exactly one), a b32/u32/s32 type
/// from Types, and operands d, a, b read as i32. Returns false after
/// reporting what is wrong.
static bool readClampWrapOperands(FunctionLowering &L, const Instruction &I,
                                  std::initializer_list<ScalarType> Types,
                                  ScalarType &T, bool &Clamp, Value *&A,
                                  Value *&Bv) {
  if (!onlyModifiers(L, I, {"clamp", "wrap"}))
    return false;
  T = requireType(L, I, Types);
  if (T == ScalarType::None)
    return false;
  Clamp = I.hasModifier("clamp");
  if (Clamp == I.hasModifier("wrap")) {
    L.unsupported(I, "expects one of .clamp and .wrap");
    return false;
  }
  if (!checkOperandCount(L, I, 3))
    return false;
  A = L.read(I, 1, L.B.getInt32Ty(), false);
  Bv = L.read(I, 2, L.B.getInt32Ty(), false);
  return A && Bv;
}

/// szext: sign- or zero-extend the low N = b bits of a. .wrap takes N mod
/// 32; .clamp makes N >= 32 keep all of a. N = 0 gives 0.
void lowerSzext(FunctionLowering &L, const Instruction &I) {
  ScalarType T;
  bool Clamp;
  Value *A, *N;
  if (!readClampWrapOperands(L, I, {ScalarType::U32, ScalarType::S32}, T,
                             Clamp, A, N))
    return;
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty();
  Value *N1 = B.CreateAnd(N, 31);
  Value *TooLarge = Clamp ? B.CreateICmpUGE(N, B.getInt32(32)) : B.getFalse();
  // The bits above the field; N1 < 32, so the shift is defined.
  Value *Upper =
      B.CreateSelect(TooLarge, B.getInt32(0), B.CreateShl(allOnes(I32), N1));
  Value *R = B.CreateAnd(A, B.CreateNot(Upper));
  if (T == ScalarType::S32) {
    Value *SignPos = B.CreateAnd(B.CreateSub(N1, B.getInt32(1)), 31);
    Value *SignBit = B.CreateTrunc(B.CreateLShr(A, SignPos), B.getInt1Ty());
    Value *HasField = B.CreateICmpNE(N1, B.getInt32(0));
    HasField = B.CreateAnd(HasField, B.CreateNot(TooLarge));
    Value *Sign = B.CreateAnd(SignBit, HasField);
    R = B.CreateSelect(Sign, B.CreateOr(R, Upper), R);
  }
  L.write(I.Operands[0], R, false);
}

/// bmsk: a mask of b bits starting at bit a, following the ISA's
/// definition of the .clamp and .wrap overflow cases.
void lowerBmsk(FunctionLowering &L, const Instruction &I) {
  ScalarType T;
  bool Clamp;
  Value *A, *Bv;
  if (!readClampWrapOperands(L, I, {ScalarType::B32}, T, Clamp, A, Bv))
    return;
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty();
  Value *A1 = B.CreateAnd(A, 31), *B1 = B.CreateAnd(Bv, 31);
  Value *Sum = B.CreateAdd(A1, B1);
  Value *PosOvf = Clamp ? B.CreateICmpUGE(A, B.getInt32(32)) : B.getFalse();
  Value *WidthOvf = Clamp ? B.CreateICmpUGE(Bv, B.getInt32(32)) : B.getFalse();
  Value *SumOvf = B.CreateICmpUGE(Sum, B.getInt32(32));
  Value *Mask0 =
      B.CreateSelect(PosOvf, B.getInt32(0), B.CreateShl(allOnes(I32), A1));
  Value *Overflow = B.CreateOr(B.CreateOr(SumOvf, PosOvf), WidthOvf);
  Value *NoWidth = B.CreateICmpEQ(B1, B.getInt32(0));
  Value *Mask1 =
      B.CreateSelect(NoWidth, allOnes(I32), shlOrZero(B, allOnes(I32), Sum));
  Mask1 = B.CreateSelect(Overflow, B.getInt32(0), Mask1);
  L.write(I.Operands[0], B.CreateAnd(Mask0, B.CreateNot(Mask1)), false);
}

/// The byte selectors of prmt's special modes for each value of c[1:0], in
/// the ISA's table order: d.b3, d.b2, d.b1, d.b0.
struct PrmtMode {
  std::string_view Name;
  std::array<std::array<uint8_t, 4>, 4> Rows;
};
constexpr PrmtMode PrmtModes[] = {
    {"f4e", {{{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}}},
    {"b4e", {{{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}}},
    {"rc8", {{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}}},
    {"ecl", {{{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}}},
    {"ecr", {{{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}}},
    {"rc16", {{{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}}},
};

/// prmt: pick four bytes out of the eight of {b, a}. The default mode takes
/// a 4-bit selector per result byte from c (bit 3 replicates the byte's
/// sign); the special modes are the ISA's fixed selector tables indexed by
/// c[1:0], which lower to the same byte picking with a selector word looked
/// up from a 64-bit constant (16 bits per row).
void lowerPrmt(FunctionLowering &L, const Instruction &I) {
  const PrmtMode *Mode = nullptr;
  for (const std::string &M : I.Modifiers) {
    if (parseScalarType(M) != ScalarType::None)
      continue;
    const PrmtMode *Found = nullptr;
    for (const PrmtMode &PM : PrmtModes)
      if (M == PM.Name)
        Found = &PM;
    if (!Found || Mode) {
      L.unsupported(I, Found ? "more than one mode" : "modifier ." + M);
      return;
    }
    Mode = Found;
  }
  if (requireType(L, I, {ScalarType::B32}) == ScalarType::None ||
      !checkOperandCount(L, I, 4))
    return;
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Value *A = L.read(I, 1, I32, false);
  Value *Bv = L.read(I, 2, I32, false);
  Value *C = L.read(I, 3, I32, false);
  if (!A || !Bv || !C)
    return;
  Value *Bytes = concat64(B, Bv, A);
  Value *Ctl = C;
  if (Mode) {
    uint64_t Table = 0;
    for (unsigned Row = 0; Row < 4; ++Row) {
      uint64_t Word = 0;
      for (unsigned Byte = 0; Byte < 4; ++Byte)
        Word |= uint64_t(Mode->Rows[Row][3 - Byte]) << (4 * Byte);
      Table |= Word << (16 * Row);
    }
    Value *Shift = B.CreateZExt(B.CreateShl(B.CreateAnd(C, 3), 4), I64);
    Ctl = B.CreateTrunc(B.CreateLShr(B.getInt64(Table), Shift), I32);
  }
  Value *R = nullptr;
  for (unsigned Byte = 0; Byte < 4; ++Byte) {
    Value *Sel = Byte ? B.CreateLShr(Ctl, 4 * Byte) : Ctl;
    Sel = B.CreateAnd(Sel, 0xf);
    Value *Shift = B.CreateZExt(B.CreateShl(B.CreateAnd(Sel, 7), 3), I64);
    Value *V = B.CreateTrunc(B.CreateLShr(Bytes, Shift), B.getInt8Ty());
    if (!Mode) {
      Value *Replicate = B.CreateICmpUGE(Sel, B.getInt32(8));
      V = B.CreateSelect(Replicate, B.CreateAShr(V, 7), V);
    }
    V = B.CreateZExt(V, I32);
    R = Byte ? B.CreateOr(R, B.CreateShl(V, 8 * Byte)) : V;
  }
  L.write(I.Operands[0], R, false);
}

/// dp4a/dp2a: c plus the dot product of a's bytes (dp4a) or half-words
/// (dp2a) with b's bytes (dp2a: the low or high pair), each extended by its
/// own type's signedness; the sum wraps at 32 bits.
void lowerDotProduct(FunctionLowering &L, const Instruction &I) {
  bool Dp2 = I.Opcode == "dp2a";
  if (!onlyModifiers(L, I, Dp2 ? ModifierList{"lo", "hi"} : ModifierList{}))
    return;
  ScalarType AT = requireType(L, I, {ScalarType::U32, ScalarType::S32}, 0);
  if (AT == ScalarType::None)
    return;
  ScalarType BT = requireType(L, I, {ScalarType::U32, ScalarType::S32}, 1);
  if (BT == ScalarType::None)
    return;
  bool Hi = I.hasModifier("hi");
  if (Dp2 && Hi == I.hasModifier("lo")) {
    L.unsupported(I, "expects one of .lo and .hi");
    return;
  }
  if (!checkOperandCount(L, I, 4))
    return;
  IRBuilder<> &B = L.B;
  Type *I32 = B.getInt32Ty();
  bool ASigned = AT == ScalarType::S32, BSigned = BT == ScalarType::S32;
  Value *A = L.read(I, 1, I32, false);
  Value *Bv = L.read(I, 2, I32, false);
  Value *C = L.read(I, 3, I32, false);
  if (!A || !Bv || !C)
    return;
  auto element = [&](Value *V, unsigned Bits, unsigned Idx, bool Signed) {
    Value *E = B.CreateTrunc(B.CreateLShr(V, Bits * Idx), B.getIntNTy(Bits));
    return extend(B, E, I32, Signed);
  };
  Value *R = C;
  unsigned N = Dp2 ? 2 : 4, ABits = Dp2 ? 16 : 8, BFirst = Dp2 && Hi ? 2 : 0;
  for (unsigned K = 0; K < N; ++K) {
    Value *EA = element(A, ABits, K, ASigned);
    Value *EB = element(Bv, 8, BFirst + K, BSigned);
    R = B.CreateAdd(R, B.CreateMul(EA, EB));
  }
  L.write(I.Operands[0], R, false);
}

} // namespace

/// add, sub, mul, mad, div, rem, min, max, abs and neg on integer types
/// (Lower.cpp routes them here by type).
void lowerIntArith(FunctionLowering &L, const Instruction &I) {
  const std::string &Op = I.Opcode;
  ScalarType T = L.instrType(I);
  if (!isIntegerType(T) || T == ScalarType::B128 || scalarTypeBits(T) < 16) {
    L.unsupported(I, "no integer type of 16, 32 or 64 bits");
    return;
  }
  if (Op == "add" || Op == "sub")
    lowerAddSub(L, I);
  else if (Op == "mul" || Op == "mad")
    lowerMulMad(L, I);
  else if (Op == "div" || Op == "rem")
    lowerDivRem(L, I, T);
  else if (Op == "min" || Op == "max")
    lowerMinMax(L, I, T);
  else if (Op == "abs" || Op == "neg")
    lowerAbsNeg(L, I);
  else
    L.unsupported(I);
}

/// add/sub wrap in each 16-bit half; min/max compare each half with the
/// type's signedness, and .relu (s16x2 only) clamps negative halves to 0.
void lowerPackedIntArith(FunctionLowering &L, const Instruction &I) {
  ScalarType T = L.instrType(I);
  bool Signed = T == ScalarType::S16x2;
  const std::string &Op = I.Opcode;
  bool Relu = I.hasModifier("relu");
  bool MinMax = Op == "min" || Op == "max";
  for (const auto &M : I.Modifiers)
    if (M != "u16x2" && M != "s16x2" && !(M == "relu" && MinMax && Signed)) {
      L.unsupported(I, "modifier ." + M + " is not defined for packed 16-bit "
                       "integers");
      return;
    }
  if ((Op != "add" && Op != "sub" && !MinMax) || I.Operands.size() != 3) {
    L.unsupported(I, "packed 16-bit integers support add, sub, min and max");
    return;
  }
  auto *V2 = FixedVectorType::get(L.B.getInt16Ty(), 2);
  Value *A = L.read(I, 1, L.B.getInt32Ty(), false);
  Value *Bv = L.read(I, 2, L.B.getInt32Ty(), false);
  if (!A || !Bv)
    return;
  A = L.B.CreateBitCast(A, V2);
  Bv = L.B.CreateBitCast(Bv, V2);
  Value *R;
  if (Op == "add")
    R = L.B.CreateAdd(A, Bv);
  else if (Op == "sub")
    R = L.B.CreateSub(A, Bv);
  else
    R = L.B.CreateBinaryIntrinsic(
        Op == "min" ? (Signed ? Intrinsic::smin : Intrinsic::umin)
                    : (Signed ? Intrinsic::smax : Intrinsic::umax),
        A, Bv);
  if (Relu)
    R = L.B.CreateBinaryIntrinsic(Intrinsic::smax, R,
                                  Constant::getNullValue(V2));
  L.write(I.Operands[0], L.B.CreateBitCast(R, L.B.getInt32Ty()), false);
}

void registerIntegerInstructions(OpcodeTable &T) {
  T["addc"] = lowerAddSub;
  T["subc"] = lowerAddSub;
  T["madc"] = lowerMulMad;
  T["mul24"] = lowerMul24;
  T["mad24"] = lowerMul24;
  T["sad"] = lowerSad;
  for (const char *Op : {"and", "or", "xor", "not", "cnot"})
    T[Op] = lowerLogic;
  T["lop3"] = lowerLop3;
  for (const char *Op : {"shl", "shr"})
    T[Op] = lowerShift;
  T["shf"] = lowerFunnelShift;
  for (const char *Op : {"popc", "clz", "brev"})
    T[Op] = lowerBitCount;
  T["bfind"] = lowerBfind;
  T["fns"] = lowerFns;
  T["bfe"] = lowerBfe;
  T["bfi"] = lowerBfi;
  T["szext"] = lowerSzext;
  T["bmsk"] = lowerBmsk;
  T["prmt"] = lowerPrmt;
  T["dp4a"] = lowerDotProduct;
  T["dp2a"] = lowerDotProduct;
}

} // namespace cuhip::ptx::lower
