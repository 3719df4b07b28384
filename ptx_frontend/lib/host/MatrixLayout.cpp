//===- MatrixLayout.cpp - Decoding matrix calls into their forms ----------===//
//
// The names of the matrix calls LowerMatrix.cpp emits (NVVM intrinsics, or
// cuhip.* functions named by the same rules, LLVM's IntrinsicsNVVM.td)
// decoded into the MatrixDesc both the CPU backend and the AMDGPU lowering
// implement the instruction from.
//
//===----------------------------------------------------------------------===//
#include "cuhip/ptx/MatrixLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace cuhip::ptx::host {
namespace {

MatrixElem matrixElem(StringRef T) {
  return StringSwitch<MatrixElem>(T)
      .Case("f16", MatrixElem::F16)
      .Case("bf16", MatrixElem::BF16)
      .Case("tf32", MatrixElem::TF32)
      .Case("f32", MatrixElem::F32)
      .Case("f64", MatrixElem::F64)
      .Case("s8", MatrixElem::S8)
      .Case("u8", MatrixElem::U8)
      .Case("s32", MatrixElem::S32)
      .Case("b16", MatrixElem::B16)
      .Default(MatrixElem::None);
}

/// "m16n8k16" (or "m8n8") into D's M, N, K.
bool parseMatrixShape(StringRef S, MatrixDesc &D) {
  auto digit = [](char C) { return C >= '0' && C <= '9'; };
  unsigned M = 0, N = 0, K = 0;
  if (!S.consume_front("m"))
    return false;
  StringRef MS = S.take_while(digit);
  S = S.drop_front(MS.size());
  if (!S.consume_front("n"))
    return false;
  StringRef NS = S.take_while(digit);
  S = S.drop_front(NS.size());
  if (MS.getAsInteger(10, M) || NS.getAsInteger(10, N) ||
      (S.consume_front("k") ? S.getAsInteger(10, K) : !S.empty()))
    return false;
  D.M = uint8_t(M);
  D.N = uint8_t(N);
  D.K = uint8_t(K);
  return true;
}

/// The element types an mma/wmma signature suffix names: D and C for .f16
/// multiplicands ("f32.f16"), else A and B ("s8.u8"; "bf16" for both).
bool parseMatrixSignature(ArrayRef<StringRef> Sig, MatrixDesc &D) {
  auto half = [](StringRef T) { return T == "f16" || T == "f32"; };
  if (Sig.size() == 2 && half(Sig[0]) && half(Sig[1])) {
    D.A = D.B = MatrixElem::F16;
    D.D = matrixElem(Sig[0]);
    D.C = matrixElem(Sig[1]);
    return true;
  }
  if (Sig.empty() || Sig.size() > 2)
    return false;
  MatrixElem A = matrixElem(Sig[0]);
  MatrixElem B = Sig.size() == 2 ? matrixElem(Sig[1]) : A;
  switch (A) {
  case MatrixElem::BF16:
  case MatrixElem::TF32:
    D.C = D.D = MatrixElem::F32;
    if (B != A)
      return false;
    break;
  case MatrixElem::F64:
    D.C = D.D = MatrixElem::F64;
    if (B != A)
      return false;
    break;
  case MatrixElem::S8:
  case MatrixElem::U8:
    D.C = D.D = MatrixElem::S32;
    if (B != MatrixElem::S8 && B != MatrixElem::U8)
      return false;
    break;
  default:
    return false;
  }
  D.A = A;
  D.B = B;
  return true;
}

} // namespace

std::optional<MatrixCollective> decodeMatrixCollective(StringRef Name) {
  if (!Name.consume_front("llvm.nvvm.") && !Name.consume_front("cuhip."))
    return std::nullopt;
  SmallVector<StringRef, 12> Parts;
  Name.split(Parts, '.');
  // The mangled type of an overloaded pointer operand ("p3").
  if (Parts.size() > 1 && Parts.back().size() > 1 && Parts.back()[0] == 'p' &&
      all_of(Parts.back().drop_front(),
             [](char C) { return C >= '0' && C <= '9'; }))
    Parts.pop_back();
  ArrayRef<StringRef> R(Parts);
  auto take = [&](StringRef W) {
    if (R.empty() || R.front() != W)
      return false;
    R = R.drop_front();
    return true;
  };
  auto takeShape = [&](MatrixDesc &D) {
    if (R.empty() || !parseMatrixShape(R.front(), D))
      return false;
    R = R.drop_front();
    return true;
  };
  MatrixCollective MC;
  MatrixDesc &D = MC.Desc;
  if (!R.empty() && (R.front() == "ldmatrix" || R.front() == "stmatrix")) {
    MC.Op = R.front() == "ldmatrix" ? WarpOp::LdMatrix : WarpOp::StMatrix;
    R = R.drop_front();
    if (!take("sync") || !take("aligned") || !takeShape(D) || D.M != 8 ||
        D.N != 8 || D.K != 0)
      return std::nullopt;
    for (unsigned X : {1, 2, 4})
      if (take(("x" + Twine(X)).str()))
        D.K = uint8_t(X);
    if (take("trans"))
      D.Flags |= MatrixTrans;
    D.A = MatrixElem::B16;
    if (D.K == 0 || !take("b16") || !R.empty())
      return std::nullopt;
    return MC;
  }
  if (take("mma")) {
    MC.Op = WarpOp::Mma;
    if (!takeShape(D) || !take("row") || !take("col"))
      return std::nullopt;
    if (take("satfinite"))
      D.Flags |= MatrixSatFinite;
    if (!parseMatrixSignature(R, D))
      return std::nullopt;
    return MC;
  }
  if (!take("wmma") || !takeShape(D))
    return std::nullopt;
  if (take("mma")) {
    MC.Op = WarpOp::WmmaMma;
    // The layouts the fragments were loaded with do not matter: fragments
    // hold the matrix whatever its layout in memory (WarpRuntime.cpp).
    for (int L = 0; L < 2; ++L)
      if (!take("row") && !take("col"))
        return std::nullopt;
    take("rn");
    if (!R.empty() && R.back() == "satfinite") {
      D.Flags |= MatrixSatFinite;
      R = R.drop_back();
    }
    if (!parseMatrixSignature(R, D))
      return std::nullopt;
    return MC;
  }
  if (take("load"))
    MC.Op = WarpOp::WmmaLoad;
  else if (take("store"))
    MC.Op = WarpOp::WmmaStore;
  else
    return std::nullopt;
  if (take("a"))
    D.Flags |= MatrixFragA;
  else if (take("b"))
    D.Flags |= MatrixFragB;
  else if (!take(MC.Op == WarpOp::WmmaLoad ? "c" : "d"))
    return std::nullopt;
  else
    D.Flags |= MatrixFragC;
  if (take("col"))
    D.Flags |= MatrixColMajor;
  else if (!take("row"))
    return std::nullopt;
  MC.HasStride = take("stride");
  if (R.size() != 1 || (D.A = matrixElem(R[0])) == MatrixElem::None)
    return std::nullopt;
  return MC;
}

} // namespace cuhip::ptx::host
