//===- LowerFloat.cpp - Floating-point instructions -------------------------===//
//
// f32/f64 arithmetic with PTX's modifiers: .ftz flushes subnormal inputs
// and results, .sat clamps to [0, 1], round-to-nearest is IEEE's default.
// Directed rounding is reported until it is implemented exactly.
//
//===----------------------------------------------------------------------===//
#include "LowerImpl.h"

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

/// The .sat modifier of float results: clamp to [0, 1], NaN becomes 0.
Value *FunctionLowering::saturate(Value *V) {
  Type *Ty = V->getType();
  Value *Lo = callIntrinsic(Intrinsic::maxnum, {Ty}, {V, ConstantFP::get(Ty, 0.0)});
  return callIntrinsic(Intrinsic::minnum, {Ty}, {Lo, ConstantFP::get(Ty, 1.0)});
}

/// Only round-to-nearest is implemented for now; directed rounding modes are
/// reported rather than silently computed with the wrong rounding.
bool FunctionLowering::checkRounding(const Instruction &I,
                                     const FloatMods &M) {
  if (M.Rounding.empty() || M.Rounding == "rn")
    return true;
  unsupported(I, "rounding mode ." + M.Rounding + " is not implemented yet");
  return false;
}

void lowerFloatArith(FunctionLowering &L, const Instruction &I) {
  const std::string &Op = I.Opcode;
  ScalarType T = L.instrType(I);
  if (T != ScalarType::F32 && T != ScalarType::F64) {
    L.unsupported(I, "only f32 and f64 arithmetic is implemented yet");
    return;
  }
  FloatMods M = L.floatMods(I);
  Type *Ty = llvmType(L.Ctx, T);
  bool Unary = Op == "abs" || Op == "neg" || Op == "sqrt" || Op == "rcp" ||
               Op == "rsqrt" || Op == "ex2" || Op == "lg2" || Op == "sin" ||
               Op == "cos" || Op == "tanh";
  if (!L.checkRounding(I, M))
    return;
  if (I.hasModifier("NaN") || I.hasModifier("xorsign") ||
      I.hasModifier("oob")) {
    L.unsupported(I);
    return;
  }
  auto in = [&](unsigned Idx) -> Value * {
    Value *V = L.read(I, Idx, Ty, false);
    return V && M.Ftz ? L.flush(V) : V;
  };
  Value *R = nullptr;
  if (Unary) {
    Value *A = in(1);
    if (!A)
      return;
    if (Op == "abs")
      R = L.callIntrinsic(Intrinsic::fabs, {Ty}, {A});
    else if (Op == "neg")
      R = L.B.CreateFNeg(A);
    else if (Op == "sqrt")
      R = L.callIntrinsic(Intrinsic::sqrt, {Ty}, {A});
    else if (Op == "rcp")
      R = L.B.CreateFDiv(ConstantFP::get(Ty, 1.0), A);
    else if (Op == "rsqrt")
      R = L.B.CreateFDiv(ConstantFP::get(Ty, 1.0),
                       L.callIntrinsic(Intrinsic::sqrt, {Ty}, {A}));
    else if (Op == "ex2")
      R = L.callIntrinsic(Intrinsic::exp2, {Ty}, {A});
    else if (Op == "lg2")
      R = L.callIntrinsic(Intrinsic::log2, {Ty}, {A});
    else if (Op == "sin")
      R = L.callIntrinsic(Intrinsic::sin, {Ty}, {A});
    else if (Op == "cos")
      R = L.callIntrinsic(Intrinsic::cos, {Ty}, {A});
    else if (Op == "tanh")
      R = L.callIntrinsic(Intrinsic::tanh, {Ty}, {A});
  } else {
    Value *A = in(1), *Bv = in(2);
    if (!A || !Bv)
      return;
    if (Op == "add")
      R = L.B.CreateFAdd(A, Bv);
    else if (Op == "sub")
      R = L.B.CreateFSub(A, Bv);
    else if (Op == "mul")
      R = L.B.CreateFMul(A, Bv);
    else if (Op == "div")
      R = L.B.CreateFDiv(A, Bv);
    else if (Op == "min")
      R = L.callIntrinsic(Intrinsic::minnum, {Ty}, {A, Bv});
    else if (Op == "max")
      R = L.callIntrinsic(Intrinsic::maxnum, {Ty}, {A, Bv});
    else if (Op == "fma" || Op == "mad") {
      if (Op == "mad" && M.Rounding.empty() && T == ScalarType::F64) {
        L.unsupported(I, "mad.f64 requires a rounding modifier");
        return;
      }
      Value *C = in(3);
      if (!C)
        return;
      // mad.f32 without rounding is an unfused multiply-add on sm_1x but a
      // fused one on every target PTX 9 still supports.
      R = L.callIntrinsic(Intrinsic::fma, {Ty}, {A, Bv, C});
    } else {
      L.unsupported(I);
      return;
    }
  }
  if (M.Ftz)
    R = L.flush(R);
  if (M.Sat)
    R = L.saturate(R);
  L.write(I.Operands[0], R, false);
}

void registerFloatInstructions(OpcodeTable &T) {
  // Float-only opcodes; the shared ones (add, mul, ...) are dispatched by
  // type in Lower.cpp.
  for (const char *Op : {"fma", "sqrt", "rcp", "rsqrt", "ex2", "lg2", "sin",
                         "cos", "tanh"})
    T[Op] = lowerFloatArith;
}

} // namespace cuhip::ptx::lower
