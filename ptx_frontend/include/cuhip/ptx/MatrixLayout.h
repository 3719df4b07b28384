//===- MatrixLayout.h - Fragment layouts of warp-level matrix instructions ===//
//
// Which element of which matrix each lane's fragment registers hold, for
// mma (the PTX ISA's "Matrix Fragments for mma.mMnNkK" sections) and wmma
// (cuhip's own layout: the ISA leaves WMMA fragments opaque), and the
// decoding of a matrix call's name (LowerMatrix.cpp) into its form. Both
// the CPU backend (WarpRuntime.cpp, WorkGroupLowering.cpp) and the AMDGPU
// lowering (LowerAmdgpuMatrix.cpp) use these, so the two agree on every
// fragment by construction.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "cuhip/ptx/HostTarget.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace cuhip::ptx::host {

inline unsigned elemBits(MatrixElem T) {
  switch (T) {
  case MatrixElem::F16:
  case MatrixElem::BF16:
  case MatrixElem::B16:
    return 16;
  case MatrixElem::S8:
  case MatrixElem::U8:
    return 8;
  case MatrixElem::F64:
    return 64;
  default:
    return 32;
  }
}

inline bool isInt8(MatrixElem T) {
  return T == MatrixElem::S8 || T == MatrixElem::U8;
}

struct Coord {
  unsigned Row, Col;
};
enum MatrixOperand { OperandA, OperandB, OperandC };

/// Row and column of element I of lane L's mma fragment of an operand
/// (C and D share theirs), with groupID = L >> 2 and threadID_in_group =
/// L % 4 as the ISA writes them.
inline Coord mmaCoord(const MatrixDesc &D, MatrixOperand Op, unsigned L,
                      unsigned I) {
  const unsigned G = L >> 2, T = L & 3;
  if (Op == OperandC) {
    if (D.M == 8) // m8n8k16 .s32, m8n8k4 .f64: c0, c1
      return {G, T * 2 + I};
    // m16n8kK: row groupID for c0, c1 and groupID + 8 for c2, c3;
    // col threadID_in_group * 2 + (i & 1).
    return {G + 8 * (I >> 1), T * 2 + (I & 1)};
  }
  if (D.M == 8) {
    // m8n8k16 .s8/.u8: row groupID, col threadID_in_group * 4 + i (A);
    // m8n8k4 .f64: row groupID, col threadID_in_group; B transposed.
    unsigned PerThread = D.K / 4;
    return Op == OperandA ? Coord{G, T * PerThread + I}
                          : Coord{T * PerThread + I, G};
  }
  MatrixElem Ty = Op == OperandA ? D.A : D.B;
  if (Ty == MatrixElem::TF32) {
    // m16n8k8 .tf32, A: row groupID for a0, a2 and groupID + 8 for a1, a3;
    // col threadID_in_group for a0, a1 and + 4 for a2, a3.
    // B: row threadID_in_group for b0 and + 4 for b1; col groupID.
    if (Op == OperandA)
      return {G + 8 * (I & 1), T + 4 * (I >> 1)};
    return {T + 4 * I, G};
  }
  // .f16/.bf16 (two per register) and .s8/.u8 (four): register r of a lane
  // holds a run of consecutive columns of A (rows of B) that starts at
  // threadID_in_group * run. A's registers alternate between rows groupID
  // and groupID + 8, and its third and fourth registers continue K/2
  // further (m16n8k16 .f16: col + 8; m16n8k32: col + 16); B's registers
  // continue K/2 further each.
  unsigned Run = isInt8(Ty) ? 4 : 2;
  unsigned Reg = I / Run, J = I % Run;
  if (Op == OperandA)
    return {G + 8 * (Reg & 1), T * Run + J + (Reg >> 1) * 4 * Run};
  return {T * Run + J + Reg * 4 * Run, G};
}

/// WMMA fragments: a lane holds E consecutive elements of its matrix in
/// row-major order (A, C, D) or column-major order (B), lane L the L-th run
/// of E. Where a warp holds more elements than the matrix has (16 per lane
/// of an .f16 A or B), the runs repeat: lane L holds run L mod (Rows x Cols
/// / E).
inline Coord wmmaCoord(unsigned Rows, unsigned Cols, bool ColumnOrder,
                       unsigned E, unsigned L, unsigned I) {
  unsigned Idx = (L % (Rows * Cols / E)) * E + I;
  return ColumnOrder ? Coord{Idx % Rows, Idx / Rows}
                     : Coord{Idx / Cols, Idx % Cols};
}

/// Dimensions and elements per lane of WMMA fragment Op.
struct WmmaFragment {
  unsigned Rows, Cols, Elems;
  bool ColumnOrder;
};
inline WmmaFragment wmmaFragment(const MatrixDesc &D, MatrixOperand Op,
                                 MatrixElem T) {
  WmmaFragment F;
  F.Rows = Op == OperandB ? D.K : D.M;
  F.Cols = Op == OperandA ? D.K : D.N;
  F.ColumnOrder = Op == OperandB;
  F.Elems = T == MatrixElem::F16 && Op != OperandC ? 16 : F.Rows * F.Cols / 32;
  return F;
}

/// A matrix instruction's call: the collective and the form it has.
struct MatrixCollective {
  WarpOp Op = WarpOp::None;
  MatrixDesc Desc{};
  bool HasStride = false; // wmma.load/store: the last argument is the stride
};

/// Decodes the callee name of a matrix instruction: the NVVM intrinsic
/// (llvm.nvvm.ldmatrix/stmatrix/mma/wmma.*) or the cuhip.* function that
/// LowerMatrix.cpp calls where LLVM has none. Only the forms LowerMatrix.cpp
/// emits are recognised.
std::optional<MatrixCollective> decodeMatrixCollective(llvm::StringRef Name);

} // namespace cuhip::ptx::host
