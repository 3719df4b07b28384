//===- LowerVideo.cpp - PTX video instructions ----------------------------===//
//
// The scalar video instructions (vadd, vsub, vabsdiff, vmin, vmax, vshl,
// vshr, vmad, vset) and the SIMD ones on half-word pairs and byte quads
// (vadd2 ... vmax2, vset2, vadd4 ... vmax4, vset4) become plain integer IR
// that follows the ISA's pseudo-code step by step: each source part is
// extracted and sign- or zero-extended by its operand type, the operation
// is exact in an integer wide enough for any input (i64; i128 for vshl,
// whose shifted value needs 65 bits, and for vmad's 128-bit product), then
// come the saturation, the secondary operation or data merge, and the low
// 32 bits are the result. Being plain IR, the same lowering serves every
// target. Selectors arrive on the operands (Operand::Selector), vmad's
// negations as Operand::Minus.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

namespace cuhip::ptx::lower {

namespace {

/// The modifiers of one video instruction, sorted by role; Bad names the
/// first one that has no role in this instruction.
struct VideoMods {
  SmallVector<ScalarType, 3> Types;
  bool Sat = false, Po = false;
  std::string Op2;     // add, min, max
  std::string Mode;    // clamp, wrap (vshl, vshr)
  unsigned Scale = 0;  // 7 or 15 (vmad .shr7/.shr15)
  std::string Cmp;     // eq, ne, lt, le, gt, ge (vset*)
  std::string Bad;
};

VideoMods parseMods(const Instruction &I) {
  VideoMods M;
  for (const std::string &Mod : I.Modifiers) {
    ScalarType T = parseScalarType(Mod);
    if (T == ScalarType::U32 || T == ScalarType::S32)
      M.Types.push_back(T);
    else if (Mod == "sat")
      M.Sat = true;
    else if (Mod == "po")
      M.Po = true;
    else if (Mod == "add" || Mod == "min" || Mod == "max")
      M.Op2 = Mod;
    else if (Mod == "clamp" || Mod == "wrap")
      M.Mode = Mod;
    else if (Mod == "shr7" || Mod == "shr15")
      M.Scale = Mod == "shr7" ? 7 : 15;
    else if (Mod == "eq" || Mod == "ne" || Mod == "lt" || Mod == "le" ||
             Mod == "gt" || Mod == "ge")
      M.Cmp = Mod;
    else if (M.Bad.empty())
      M.Bad = Mod;
  }
  return M;
}

Value *compare(IRBuilderBase &B, StringRef Cmp, Value *A, Value *Bv) {
  // Both sides are exact sign- or zero-extended values in a wider type, so
  // a signed comparison orders them correctly whatever their source types.
  if (Cmp == "eq")
    return B.CreateICmpEQ(A, Bv);
  if (Cmp == "ne")
    return B.CreateICmpNE(A, Bv);
  if (Cmp == "lt")
    return B.CreateICmpSLT(A, Bv);
  if (Cmp == "le")
    return B.CreateICmpSLE(A, Bv);
  if (Cmp == "gt")
    return B.CreateICmpSGT(A, Bv);
  return B.CreateICmpSGE(A, Bv);
}

Value *clampSigned(FunctionLowering &L, Value *V, int64_t Lo, int64_t Hi) {
  Type *Ty = V->getType();
  V = L.callIntrinsic(Intrinsic::smax, {Ty}, {V, ConstantInt::getSigned(Ty, Lo)});
  return L.callIntrinsic(Intrinsic::smin, {Ty}, {V, ConstantInt::getSigned(Ty, Hi)});
}

//===----------------------------------------------------------------------===//
// Scalar video instructions
//===----------------------------------------------------------------------===//

/// A scalar part selector: .b0-.b3 (a byte), .h0/.h1 (a half-word), or none
/// (the whole word).
struct Part {
  unsigned Bits = 32, Shift = 0;
};

bool parsePart(StringRef S, Part &P) {
  if (S.empty()) {
    P = Part();
    return true;
  }
  if (S.size() != 2 || (S[0] != 'b' && S[0] != 'h'))
    return false;
  unsigned N = S[1] - '0';
  if (S[0] == 'b' && N < 4) {
    P = {8, 8 * N};
    return true;
  }
  if (S[0] == 'h' && N < 2) {
    P = {16, 16 * N};
    return true;
  }
  return false;
}

/// partSelectSignExtend: the selected part of the 32-bit X, extended by the
/// operand type's signedness to Wide.
Value *selectPart(IRBuilderBase &B, Value *X, Part P, bool Signed,
                  Type *Wide) {
  if (P.Shift)
    X = B.CreateLShr(X, P.Shift);
  if (P.Bits != 32)
    X = B.CreateTrunc(X, B.getIntNTy(P.Bits));
  return Signed ? B.CreateSExt(X, Wide) : B.CreateZExt(X, Wide);
}

/// Reads source Idx of a video instruction as its 32 bits and its selector.
bool readVideoSource(FunctionLowering &L, const Instruction &I, unsigned Idx,
                     Value *&V, Part &P) {
  const Operand &O = I.Operands[Idx];
  if (!parsePart(O.Selector, P)) {
    L.error(O.Loc, "'." + O.Selector + "' is not a selector of '" + I.Opcode +
                       "'; scalar video operands take .b0-.b3, .h0 or .h1");
    return false;
  }
  V = L.readOperand(O, L.B.getInt32Ty(), false);
  return V != nullptr;
}

/// vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr and vset:
///   ta = partSelectSignExtend(a, atype, asel)   (vshl/vshr: b is .u32)
///   tmp = ta op tb                              (exact)
///   tmp = optSaturate(tmp, sat, isSigned(dtype), dsel)
///   d = optSecondaryOp(op2, tmp, c) or optMerge(dsel, tmp, c)
void lowerScalarVideo(FunctionLowering &L, const Instruction &I) {
  const std::string &Op = I.Opcode;
  bool IsSet = Op == "vset", IsShift = Op == "vshl" || Op == "vshr";
  VideoMods M = parseMods(I);
  size_t WantTypes = IsSet ? 2 : 3;
  if (!M.Bad.empty() || M.Po || M.Scale || M.Types.size() != WantTypes ||
      (IsSet != !M.Cmp.empty()) || (IsShift == M.Mode.empty()) ||
      (IsSet && M.Sat)) {
    std::string Form =
        IsSet ? "vset.atype.btype.cmp{.op2}"
        : IsShift ? Op + ".dtype.atype.u32{.sat}.mode{.op2} with .mode "
                         ".clamp or .wrap"
                  : Op + ".dtype.atype.btype{.sat}{.op2}";
    L.unsupported(I, "expected " + Form + ", types .u32 or .s32, .op2 one of "
                     ".add, .min, .max" +
                     (M.Bad.empty() ? "" : "; '." + M.Bad + "' has no role"));
    return;
  }
  // Operand types: vset has no dtype (its result is unsigned).
  ScalarType DT = IsSet ? ScalarType::U32 : M.Types[0];
  ScalarType AT = M.Types[IsSet ? 0 : 1], BT = M.Types[IsSet ? 1 : 2];
  if (IsShift && BT != ScalarType::U32) {
    L.unsupported(I, "the shift amount of " + Op + " is .u32");
    return;
  }
  size_t N = I.Operands.size();
  if (N != 3 && N != 4) {
    L.error(I.Loc, "'" + I.fullName() + "' takes d, a, b and, with a "
                   "secondary operation or destination selector, c");
    return;
  }
  const Operand &D = I.Operands[0];
  bool Merge = !D.Selector.empty();
  if (Merge && !M.Op2.empty()) {
    L.error(D.Loc, "a video instruction has a destination selector or a "
                   "secondary operation ('." + M.Op2 + "'), not both");
    return;
  }
  if ((N == 4) != (Merge || !M.Op2.empty())) {
    L.error(I.Loc, N == 4 ? "operand c of '" + I.fullName() + "' is used "
                            "only with a secondary operation (.add, .min, "
                            ".max) or a destination selector"
                          : "'" + I.fullName() + "' needs operand c to " +
                                (Merge ? "merge into" : "combine with"));
    return;
  }
  Part DSel;
  if (!parsePart(D.Selector, DSel)) {
    L.error(D.Loc, "'." + D.Selector + "' is not a destination selector of '" +
                       Op + "'; use .b0-.b3, .h0 or .h1");
    return;
  }

  IRBuilderBase &B = L.B;
  // vshl shifts a 33-bit value by up to 32 places.
  Type *W = Op == "vshl" ? B.getInt128Ty() : B.getInt64Ty();
  Value *A, *Bv;
  Part ASel, BSel;
  if (!readVideoSource(L, I, 1, A, ASel) || !readVideoSource(L, I, 2, Bv, BSel))
    return;
  Value *TA = selectPart(B, A, ASel, isSignedInt(AT), W);
  Value *TB = selectPart(B, Bv, BSel, isSignedInt(BT), W);

  Value *Tmp;
  if (Op == "vadd") {
    Tmp = B.CreateAdd(TA, TB);
  } else if (Op == "vsub") {
    Tmp = B.CreateSub(TA, TB);
  } else if (Op == "vabsdiff") {
    Tmp = L.callIntrinsic(Intrinsic::abs, {W}, {B.CreateSub(TA, TB), B.getFalse()});
  } else if (Op == "vmin") {
    Tmp = L.callIntrinsic(Intrinsic::smin, {W}, {TA, TB});
  } else if (Op == "vmax") {
    Tmp = L.callIntrinsic(Intrinsic::smax, {W}, {TA, TB});
  } else if (IsShift) {
    // .clamp: amounts above 32 shift by 32; .wrap: by the amount mod 32.
    Value *Amount = M.Mode == "clamp"
                        ? L.callIntrinsic(Intrinsic::umin, {W},
                                          {TB, ConstantInt::get(W, 32)})
                        : B.CreateAnd(TB, ConstantInt::get(W, 31));
    // ta is an exact signed value, so the right shift is arithmetic.
    Tmp = Op == "vshl" ? B.CreateShl(TA, Amount) : B.CreateAShr(TA, Amount);
  } else {
    Tmp = B.CreateZExt(compare(B, M.Cmp, TA, TB), W);
  }

  if (M.Sat) {
    bool S = isSignedInt(DT);
    unsigned Bits = DSel.Bits; // the destination part's width
    int64_t Lo = S ? -(int64_t(1) << (Bits - 1)) : 0;
    int64_t Hi = S ? (int64_t(1) << (Bits - 1)) - 1
                   : int64_t((uint64_t(1) << Bits) - 1);
    Tmp = clampSigned(L, Tmp, Lo, Hi);
  }

  Value *Result;
  if (N == 4) {
    Value *C = L.read(I, 3, B.getInt32Ty(), false);
    if (!C)
      return;
    if (Merge) {
      // optMerge: the part's low bits of tmp replace that part of c.
      uint32_t PartMask =
          uint32_t(((uint64_t(1) << DSel.Bits) - 1) << DSel.Shift);
      Value *Low = B.CreateTrunc(Tmp, B.getInt32Ty());
      Result = B.CreateOr(
          B.CreateAnd(B.CreateShl(Low, DSel.Shift), B.getInt32(PartMask)),
          B.CreateAnd(C, B.getInt32(~PartMask)));
    } else {
      // optSecondaryOp: c has the sign of dtype.
      Value *TC = isSignedInt(DT) ? B.CreateSExt(C, W) : B.CreateZExt(C, W);
      if (M.Op2 == "add")
        Tmp = B.CreateAdd(Tmp, TC);
      else
        Tmp = L.callIntrinsic(M.Op2 == "min" ? Intrinsic::smin : Intrinsic::smax,
                              {W}, {Tmp, TC});
      Result = B.CreateTrunc(Tmp, B.getInt32Ty());
    }
  } else {
    Result = B.CreateTrunc(Tmp, B.getInt32Ty());
  }
  L.write(I.Operands[0], Result, false);
}

/// vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a, {-}b, {-}c:
///   signedFinal = isSigned(atype) || isSigned(btype) ||
///                 (a.negate ^ b.negate) || c.negate
///   tmp[127:0] = ta * tb; lsb = 0
///   if .po: lsb = 1; else if a.negate ^ b.negate: tmp = ~tmp, lsb = 1;
///   else if c.negate: c = ~c, lsb = 1
///   tmp += (signedFinal ? sext32(c) : zext(c)) + lsb
///   result = (tmp >> scale) & 0xffffffffffffffff, clamped to the 32-bit
///   range of the final sign with .sat
void lowerVmad(FunctionLowering &L, const Instruction &I) {
  VideoMods M = parseMods(I);
  if (!M.Bad.empty() || M.Types.size() != 3 || !M.Op2.empty() ||
      !M.Mode.empty() || !M.Cmp.empty()) {
    L.unsupported(I, "expected vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15}"
                     " with types .u32 or .s32" +
                     (M.Bad.empty() ? std::string()
                                    : "; '." + M.Bad + "' has no role"));
    return;
  }
  if (I.Operands.size() != 4) {
    L.error(I.Loc, "'" + I.fullName() + "' takes d, a, b, c");
    return;
  }
  const Operand &D = I.Operands[0];
  if (!D.Selector.empty() || D.Minus) {
    L.error(D.Loc, "the destination of vmad is a whole register");
    return;
  }
  bool NegA = I.Operands[1].Minus, NegB = I.Operands[2].Minus,
       NegC = I.Operands[3].Minus;
  if (!I.Operands[3].Selector.empty()) {
    L.error(I.Operands[3].Loc, "operand c of vmad takes no selector");
    return;
  }
  if (M.Po && (NegA || NegB || NegC)) {
    L.error(I.Loc, "vmad.po takes no negated operands");
    return;
  }
  if ((NegA ^ NegB) && NegC) {
    L.error(I.Loc, "vmad negates the product (a*b) or c, not both");
    return;
  }
  IRBuilderBase &B = L.B;
  Type *W = B.getInt128Ty();
  ScalarType AT = M.Types[1], BT = M.Types[2];
  Value *A, *Bv;
  Part ASel, BSel;
  if (!readVideoSource(L, I, 1, A, ASel) || !readVideoSource(L, I, 2, Bv, BSel))
    return;
  Value *C = L.read(I, 3, B.getInt32Ty(), false);
  if (!C)
    return;
  bool SignedFinal = isSignedInt(AT) || isSignedInt(BT) || (NegA ^ NegB) || NegC;
  Value *Tmp = B.CreateMul(selectPart(B, A, ASel, isSignedInt(AT), W),
                           selectPart(B, Bv, BSel, isSignedInt(BT), W));
  bool Lsb = M.Po || (NegA ^ NegB) || NegC;
  if (!M.Po && (NegA ^ NegB))
    Tmp = B.CreateNot(Tmp);
  else if (!M.Po && NegC)
    C = B.CreateNot(C);
  Value *C128 = SignedFinal ? B.CreateSExt(C, W) : B.CreateZExt(C, W);
  Tmp = B.CreateAdd(Tmp, C128);
  if (Lsb)
    Tmp = B.CreateAdd(Tmp, ConstantInt::get(W, 1));
  if (M.Scale)
    Tmp = SignedFinal ? B.CreateAShr(Tmp, M.Scale) : B.CreateLShr(Tmp, M.Scale);
  Value *Result = B.CreateTrunc(Tmp, B.getInt64Ty());
  if (M.Sat) {
    if (SignedFinal)
      Result = clampSigned(L, Result, INT32_MIN, INT32_MAX);
    else
      Result = L.callIntrinsic(Intrinsic::umin, {B.getInt64Ty()},
                               {Result, B.getInt64(UINT32_MAX)});
  }
  L.write(D, B.CreateTrunc(Result, B.getInt32Ty()), false);
}

//===----------------------------------------------------------------------===//
// SIMD video instructions
//===----------------------------------------------------------------------===//

/// A SIMD source selector: for each of the Lanes results, which unit of the
/// 64-bit {b, a} pair (a's units first) feeds it. `.h10` lists lane 1's
/// unit, then lane 0's.
bool parseLaneSelector(StringRef S, unsigned Lanes, SmallVectorImpl<unsigned> &Units) {
  char Kind = Lanes == 2 ? 'h' : 'b';
  if (S.size() != Lanes + 1 || S[0] != Kind)
    return false;
  Units.assign(Lanes, 0);
  for (unsigned I = 0; I < Lanes; ++I) {
    unsigned U = S[Lanes - I] - '0';
    if (U >= 2 * Lanes)
      return false;
    Units[I] = U;
  }
  return true;
}

/// A SIMD destination mask: the lanes written (or accumulated), named in
/// descending order (.h10, .b31, .b3210).
bool parseLaneMask(StringRef S, unsigned Lanes, unsigned &Mask) {
  char Kind = Lanes == 2 ? 'h' : 'b';
  if (S.size() < 2 || S.size() > Lanes + 1 || S[0] != Kind)
    return false;
  Mask = 0;
  unsigned Prev = Lanes;
  for (char Ch : S.drop_front()) {
    unsigned U = Ch - '0';
    if (U >= Prev)
      return false;
    Mask |= 1u << U;
    Prev = U;
  }
  return true;
}

/// vadd2 ... vmax2, vset2 and their byte-quad forms:
///   Va = extractAndSignExt(a, b, asel, atype); Vb likewise with bsel, btype
///   t[i] = Va[i] op Vb[i] (vset: compare ? 1 : 0), clamped with .sat
///   .add: d = c + sum of the masked t[i]
///   else: d's masked lanes are t[i], the others c's
void lowerSimdVideo(FunctionLowering &L, const Instruction &I) {
  StringRef Op = I.Opcode;
  unsigned Lanes = Op.back() == '2' ? 2 : 4;
  unsigned LaneBits = 32 / Lanes;
  StringRef Base = Op.drop_back();
  bool IsSet = Base == "vset";
  VideoMods M = parseMods(I);
  size_t WantTypes = IsSet ? 2 : 3;
  bool BadOp2 = !M.Op2.empty() && M.Op2 != "add";
  if (!M.Bad.empty() || M.Po || M.Scale || !M.Mode.empty() || BadOp2 ||
      M.Types.size() != WantTypes || IsSet != !M.Cmp.empty() ||
      (IsSet && M.Sat)) {
    L.unsupported(I, "expected " + Base.str() + std::to_string(Lanes) +
                         (IsSet ? ".atype.btype.cmp{.add}"
                                : ".dtype.atype.btype{.sat}{.add}") +
                         " with types .u32 or .s32" +
                         (BadOp2 ? "; the secondary operation of SIMD video "
                                   "instructions is .add"
                          : M.Bad.empty() ? ""
                                          : "; '." + M.Bad + "' has no role"));
    return;
  }
  if (M.Sat && !M.Op2.empty()) {
    L.unsupported(I, ".sat cannot be combined with the .add accumulation");
    return;
  }
  if (I.Operands.size() != 4) {
    L.error(I.Loc, "'" + I.fullName() + "' takes d, a, b, c");
    return;
  }
  ScalarType DT = IsSet ? ScalarType::U32 : M.Types[0];
  ScalarType AT = M.Types[IsSet ? 0 : 1], BT = M.Types[IsSet ? 1 : 2];
  const Operand &D = I.Operands[0];
  std::string Example = Lanes == 2 ? ".h10" : ".b3210";
  unsigned Mask = (1u << Lanes) - 1;
  if (!D.Selector.empty() && !parseLaneMask(D.Selector, Lanes, Mask)) {
    L.error(D.Loc, "'." + D.Selector + "' is not a lane mask of '" + Op.str() +
                       "'; name the lanes in descending order, as in " +
                       Example);
    return;
  }
  SmallVector<unsigned, 4> ASel, BSel;
  for (unsigned I2 = 0; I2 < Lanes; ++I2) {
    ASel.push_back(I2);           // .h10 / .b3210
    BSel.push_back(I2 + Lanes);   // .h32 / .b7654
  }
  for (unsigned Idx : {1u, 2u}) {
    const Operand &O = I.Operands[Idx];
    if (O.Selector.empty())
      continue;
    if (!parseLaneSelector(O.Selector, Lanes, Idx == 1 ? ASel : BSel)) {
      L.error(O.Loc, "'." + O.Selector + "' is not a source selector of '" +
                         Op.str() + "'; it names one of the " +
                         std::to_string(2 * Lanes) + " " +
                         (Lanes == 2 ? "half-words" : "bytes") +
                         " of {b, a} per lane, as in " + Example);
      return;
    }
  }
  if (!I.Operands[3].Selector.empty()) {
    L.error(I.Operands[3].Loc, "operand c of '" + Op.str() + "' takes no selector");
    return;
  }
  IRBuilderBase &B = L.B;
  Value *A = L.read(I, 1, B.getInt32Ty(), false);
  Value *Bv = L.read(I, 2, B.getInt32Ty(), false);
  Value *C = L.read(I, 3, B.getInt32Ty(), false);
  if (!A || !Bv || !C)
    return;
  // The eight bytes (four half-words) that the selectors index: a's first.
  Value *Pair = B.CreateOr(B.CreateZExt(A, B.getInt64Ty()),
                           B.CreateShl(B.CreateZExt(Bv, B.getInt64Ty()), 32));
  Type *I32 = B.getInt32Ty();
  auto unit = [&](unsigned U, bool Signed) {
    Value *V = B.CreateTrunc(B.CreateLShr(Pair, U * LaneBits),
                             B.getIntNTy(LaneBits));
    return Signed ? B.CreateSExt(V, I32) : B.CreateZExt(V, I32);
  };
  uint32_t LaneMask = (uint32_t(1) << LaneBits) - 1;
  Value *Result = M.Op2 == "add" ? C : B.getInt32(0);
  for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
    Value *VA = unit(ASel[Lane], isSignedInt(AT));
    Value *VB = unit(BSel[Lane], isSignedInt(BT));
    Value *T;
    if (Base == "vadd") {
      T = B.CreateAdd(VA, VB);
    } else if (Base == "vsub") {
      T = B.CreateSub(VA, VB);
    } else if (Base == "vavrg") {
      // Rounds half up for non-negative sums, down (floor) otherwise.
      Value *Sum = B.CreateAdd(VA, VB);
      Value *Up = B.CreateAShr(B.CreateAdd(Sum, B.getInt32(1)), 1);
      T = B.CreateSelect(B.CreateICmpSGE(Sum, B.getInt32(0)), Up,
                         B.CreateAShr(Sum, 1));
    } else if (Base == "vabsdiff") {
      T = L.callIntrinsic(Intrinsic::abs, {I32}, {B.CreateSub(VA, VB), B.getFalse()});
    } else if (Base == "vmin") {
      T = L.callIntrinsic(Intrinsic::smin, {I32}, {VA, VB});
    } else if (Base == "vmax") {
      T = L.callIntrinsic(Intrinsic::smax, {I32}, {VA, VB});
    } else {
      T = B.CreateZExt(compare(B, M.Cmp, VA, VB), I32);
    }
    if (M.Sat) {
      bool S = isSignedInt(DT);
      int64_t Lo = S ? -(int64_t(1) << (LaneBits - 1)) : 0;
      int64_t Hi = S ? (int64_t(1) << (LaneBits - 1)) - 1 : int64_t(LaneMask);
      T = clampSigned(L, T, Lo, Hi);
    }
    bool On = Mask >> Lane & 1;
    if (M.Op2 == "add") {
      if (On)
        Result = B.CreateAdd(Result, T);
      continue;
    }
    unsigned Shift = Lane * LaneBits;
    Value *Part = On ? B.CreateAnd(B.CreateShl(T, Shift),
                                   B.getInt32(LaneMask << Shift))
                     : B.CreateAnd(C, B.getInt32(LaneMask << Shift));
    Result = B.CreateOr(Result, Part);
  }
  L.write(D, Result, false);
}

} // namespace

bool isVideoInstruction(StringRef Opcode) {
  static const StringRef Names[] = {
      "vadd",   "vsub",   "vabsdiff",  "vmin",  "vmax",  "vshl",  "vshr",
      "vmad",   "vset",   "vadd2",     "vsub2", "vavrg2", "vabsdiff2",
      "vmin2",  "vmax2",  "vset2",     "vadd4", "vsub4", "vavrg4",
      "vabsdiff4", "vmin4", "vmax4",   "vset4"};
  for (StringRef N : Names)
    if (Opcode == N)
      return true;
  return false;
}

void registerVideoInstructions(OpcodeTable &T) {
  for (const char *Op : {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl",
                         "vshr", "vset"})
    T[Op] = lowerScalarVideo;
  T["vmad"] = lowerVmad;
  for (const char *Op : {"vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2",
                         "vmax2", "vset2", "vadd4", "vsub4", "vavrg4",
                         "vabsdiff4", "vmin4", "vmax4", "vset4"})
    T[Op] = lowerSimdVideo;
}

} // namespace cuhip::ptx::lower
