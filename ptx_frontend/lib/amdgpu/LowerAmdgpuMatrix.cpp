//===- LowerAmdgpuMatrix.cpp - Warp-level matrix instructions on AMDGPU ---===//
//
// ldmatrix, stmatrix, mma.sync and wmma.load/store/mma reach this target as
// one call per instruction carrying the lane's fragment registers
// (LowerMatrix.cpp). They are lowered exactly, without MFMA/WMMA hardware
// instructions and without LDS: each lane computes its own fragment of D,
// reading the A, B and C elements it needs from the other lanes of its
// 32-lane warp with ds_bpermute (32-bit words; +32 lanes in the upper half
// of a wave64 wavefront). The owner lane and fragment index of every matrix
// element come from inverting, at compile time, the layout functions the CPU
// backend uses (MatrixLayout.h: mmaCoord, wmmaCoord); where the repeated
// WMMA .f16 fragments hold an element twice, the lowest lane's copy counts,
// as in WarpRuntime.cpp. A per-lane quantity (source lane, word, shift) is
// emitted as bit operations on the lane index: a constant, bits copied from
// the lane index, or, for any other function, one 32-bit truth-table
// constant per result bit. Where the word holding an element differs between
// lanes, every candidate word is read and the lane selects its own. The
// arithmetic is WarpRuntime.cpp's multiplyAccumulate: one fused
// multiply-add per k in increasing k starting from C, in f32 (f64 for
// .f64), .f16 results rounded once from f32; integer sums in 32 bits
// (exact: |sum of products| < 2^21), .satfinite as a saturating add of C.
// ldmatrix/stmatrix exchange the row addresses (lane 8j + r holds row r of
// matrix j) and each lane loads or stores its own elements; wmma.load/store
// need no exchange at all (every lane moves its own fragment).
//
// All lanes of the warp must execute the instruction (PTX requires it for
// .sync.aligned); the result for a partial warp is not that of the CPU
// backend, which reads zeros for the absent lanes.
//
//===----------------------------------------------------------------------===//
#include "LowerAmdgpuMatrix.h"
#include "LowerAmdgpuWarp.h"

#include "cuhip/ptx/MatrixLayout.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

#include <array>
#include <map>
#include <set>

using namespace llvm;

namespace cuhip::ptx::amdgpu {
namespace {

using host::Coord;
using host::elemBits;
using host::MatrixCollective;
using host::MatrixDesc;
using host::MatrixElem;
using host::MatrixOperand;
using host::WmmaFragment;

/// A value for each of the 32 lanes of a warp, known at compile time.
using LaneTable = std::array<uint32_t, 32>;

/// Where an element of a fragment lives: lane and index in its fragment.
struct Owner {
  unsigned Lane = 0, Index = 0;
};
using OwnerTable = std::array<Owner, 32>;

class MatrixLowering {
public:
  MatrixLowering(CallBase &CB, const Target &T, const MatrixCollective &MC)
      : CB(CB), B(&CB), Wave64(T.WavefrontSize == 64), MC(MC), D(this->MC.Desc),
        DL(CB.getModule()->getDataLayout()) {}

  void run();

private:
  CallBase &CB;
  IRBuilder<> B;
  bool Wave64;
  MatrixCollective MC;
  const MatrixDesc &D;
  const DataLayout &DL;
  Value *Base = nullptr; // the warp's first wavefront lane (0 or 32)
  Value *Lane = nullptr; // the lane's index in its warp
  std::map<std::pair<Value *, LaneTable>, Value *> Reads;

  Value *laneFunction(const LaneTable &V);
  Value *readLane(Value *Word, const LaneTable &Src);
  Value *readPointer(Value *Ptr, const LaneTable &Src);
  Value *readElement(ArrayRef<Value *> Words, MatrixElem T,
                     const OwnerTable &Own);
  Value *elementValue(Value *Bits, MatrixElem T);
  void appendWords(Value *V, SmallVectorImpl<Value *> &Words);
  Value *packResult(ArrayRef<Value *> Elems, unsigned ElemBits);
  Value *byteAddress(Value *Ptr, Value *Offset);

  void loadStoreMatrix(bool Load);
  void multiply(bool Wmma);
  void loadStoreWmma(bool Load);

  void replace(Value *V) {
    if (V)
      CB.replaceAllUsesWith(V);
    CB.eraseFromParent();
  }
};

/// The value V[lane] in the lane, as bit operations on the lane index.
Value *MatrixLowering::laneFunction(const LaneTable &V) {
  if (llvm::all_equal(V))
    return B.getInt32(V[0]);
  // Lanes whose index has bit j set, j = 0..4.
  static constexpr uint32_t LaneBit[5] = {0xaaaaaaaau, 0xccccccccu, 0xf0f0f0f0u,
                                          0xff00ff00u, 0xffff0000u};
  uint32_t Max = *llvm::max_element(V), Const = 0;
  std::map<int, uint32_t> Copies; // shift left by (result bit - lane bit)
  Value *R = nullptr;
  auto orIn = [&](Value *X) { R = R ? B.CreateOr(R, X) : X; };
  for (unsigned Bit = 0; Bit < 32 && (Max >> Bit); ++Bit) {
    // Column: bit L is bit Bit of V[L], the truth table of this result bit.
    uint32_t Column = 0;
    for (unsigned L = 0; L < 32; ++L)
      Column |= ((V[L] >> Bit) & 1u) << L;
    if (Column == 0)
      continue;
    if (Column == ~0u) {
      Const |= 1u << Bit;
      continue;
    }
    const uint32_t *J = llvm::find(LaneBit, Column);
    if (J != std::end(LaneBit)) {
      Copies[int(Bit) - int(J - LaneBit)] |= 1u << (J - LaneBit);
      continue;
    }
    Value *T = B.CreateAnd(B.CreateLShr(B.getInt32(Column), Lane), 1);
    orIn(Bit ? B.CreateShl(T, Bit) : T);
  }
  for (auto [Shift, Mask] : Copies) {
    Value *X = B.CreateAnd(Lane, Mask);
    if (Shift > 0)
      X = B.CreateShl(X, Shift);
    else if (Shift < 0)
      X = B.CreateLShr(X, -Shift);
    orIn(X);
  }
  if (Const)
    orIn(B.getInt32(Const));
  return R;
}

/// Word (an i32 every lane has) as lane Src[lane] of the warp holds it.
Value *MatrixLowering::readLane(Value *Word, const LaneTable &Src) {
  bool Own = true;
  for (unsigned L = 0; L < 32; ++L)
    Own &= Src[L] == L;
  if (Own)
    return Word;
  Value *&V = Reads[{Word, Src}];
  if (!V) {
    Value *AbsLane = laneFunction(Src);
    if (Wave64)
      AbsLane = B.CreateAdd(AbsLane, Base);
    Value *Addr = B.CreateShl(AbsLane, 2, "mma.addr");
    V = B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {}, {Addr, Word},
                          nullptr, "mma.read");
  }
  return V;
}

/// Ptr as lane Src[lane] holds it. LDS (3) and private (5) pointers are 32
/// bits on AMDGPU and take one word, the others two. (The module gets the
/// AMDGPU data layout only after this lowering, so it cannot say.)
Value *MatrixLowering::readPointer(Value *Ptr, const LaneTable &Src) {
  Type *PtrTy = Ptr->getType();
  unsigned AS = PtrTy->getPointerAddressSpace();
  unsigned Bits = AS == 3 || AS == 5 ? 32 : 64;
  Value *Int = B.CreatePtrToInt(Ptr, B.getIntNTy(Bits));
  if (Bits == 32)
    return B.CreateIntToPtr(readLane(Int, Src), PtrTy);
  Value *Lo = readLane(B.CreateTrunc(Int, B.getInt32Ty()), Src);
  Value *Hi =
      readLane(B.CreateTrunc(B.CreateLShr(Int, 32), B.getInt32Ty()), Src);
  Value *R = B.CreateOr(B.CreateZExt(Lo, B.getInt64Ty()),
                        B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32));
  return B.CreateIntToPtr(R, PtrTy);
}

/// The bits (iN, N = the element's width) of the element that lane
/// Own[lane].Lane holds at index Own[lane].Index of the fragment whose
/// 32-bit words are Words. Elements fill each word from its low bits, an
/// f64 takes two words (WarpRuntime.cpp's getElement).
Value *MatrixLowering::readElement(ArrayRef<Value *> Words, MatrixElem T,
                                   const OwnerTable &Own) {
  unsigned Bits = elemBits(T);
  LaneTable Src, Word, Shift;
  std::set<uint32_t> Candidates;
  for (unsigned L = 0; L < 32; ++L) {
    Src[L] = Own[L].Lane;
    Word[L] = Own[L].Index * Bits / 32;
    Shift[L] = Own[L].Index * Bits % 32;
    Candidates.insert(Word[L]);
  }
  auto fetch = [&](unsigned W) -> Value * {
    if (Bits < 64)
      return readLane(Words[W], Src);
    Value *Lo = B.CreateZExt(readLane(Words[W], Src), B.getInt64Ty());
    Value *Hi = B.CreateZExt(readLane(Words[W + 1], Src), B.getInt64Ty());
    return B.CreateOr(Lo, B.CreateShl(Hi, 32));
  };
  Value *WordOfLane = Candidates.size() > 1 ? laneFunction(Word) : nullptr;
  Value *V = nullptr;
  for (uint32_t W : Candidates) {
    Value *X = fetch(W);
    V = V ? B.CreateSelect(B.CreateICmpEQ(WordOfLane, B.getInt32(W)), X, V) : X;
  }
  if (Bits >= 32)
    return V;
  if (!llvm::all_equal(Shift) || Shift[0])
    V = B.CreateLShr(V, laneFunction(Shift));
  return B.CreateTrunc(V, B.getIntNTy(Bits));
}

/// The element's value for the arithmetic: f32 for the floating-point
/// inputs (WarpRuntime.cpp's floatOf: .tf32 ignores the low 13 mantissa
/// bits), f64, or an i32 for the integers.
Value *MatrixLowering::elementValue(Value *Bits, MatrixElem T) {
  Type *F32 = B.getFloatTy();
  switch (T) {
  case MatrixElem::F16:
    return B.CreateFPExt(B.CreateBitCast(Bits, B.getHalfTy()), F32);
  case MatrixElem::BF16:
    return B.CreateBitCast(B.CreateShl(B.CreateZExt(Bits, B.getInt32Ty()), 16),
                           F32);
  case MatrixElem::TF32:
    return B.CreateBitCast(B.CreateAnd(Bits, 0xffffe000u), F32);
  case MatrixElem::F32:
    return B.CreateBitCast(Bits, F32);
  case MatrixElem::F64:
    return B.CreateBitCast(Bits, B.getDoubleTy());
  case MatrixElem::S8:
    return B.CreateSExt(Bits, B.getInt32Ty());
  case MatrixElem::U8:
    return B.CreateZExt(Bits, B.getInt32Ty());
  default:
    return Bits;
  }
}

/// Appends V's 32-bit words, low word first.
void MatrixLowering::appendWords(Value *V, SmallVectorImpl<Value *> &Words) {
  unsigned Bits = unsigned(DL.getTypeSizeInBits(V->getType()));
  Value *Int = B.CreateBitCast(V, B.getIntNTy(Bits));
  for (unsigned W = 0; W < Bits / 32; ++W)
    Words.push_back(
        B.CreateTrunc(W ? B.CreateLShr(Int, 32 * W) : Int, B.getInt32Ty()));
}

/// The call's result from the elements of the lane's fragment (each an
/// iN of ElemBits), packed into its registers as readElement reads them.
Value *MatrixLowering::packResult(ArrayRef<Value *> Elems, unsigned ElemBits) {
  Type *RT = CB.getType();
  auto *ST = dyn_cast<StructType>(RT);
  ArrayRef<Type *> Regs = ST ? ST->elements() : ArrayRef<Type *>(RT);
  Value *R = ST ? PoisonValue::get(RT) : nullptr;
  unsigned Next = 0;
  for (unsigned I = 0; I < Regs.size(); ++I) {
    unsigned RegBits = unsigned(DL.getTypeSizeInBits(Regs[I]));
    Type *IntTy = B.getIntNTy(RegBits);
    Value *Reg = ConstantInt::get(IntTy, 0);
    for (unsigned Shift = 0; Shift < RegBits; Shift += ElemBits) {
      Value *E = B.CreateZExt(Elems[Next++], IntTy);
      Reg = Shift ? B.CreateOr(Reg, B.CreateShl(E, Shift)) : E;
    }
    Reg = B.CreateBitCast(Reg, Regs[I]);
    R = ST ? B.CreateInsertValue(R, Reg, I) : Reg;
  }
  return R;
}

Value *MatrixLowering::byteAddress(Value *Ptr, Value *Offset) {
  return B.CreateGEP(B.getInt8Ty(), Ptr, Offset);
}

/// ldmatrix/stmatrix .m8n8(.trans).b16 (WarpRuntime.cpp's loadStoreMatrix):
/// lane 8j + r gives the address of row r of matrix j; lane t holds
/// elements (t / 4, 2 (t % 4)) and (t / 4, 2 (t % 4) + 1) of matrix j in
/// its register j, the first in the low half. With .trans, element (r, c)
/// of the fragment is element r of row c in memory.
void MatrixLowering::loadStoreMatrix(bool Load) {
  Value *Ptr = CB.getArgOperand(0);
  bool Trans = D.Flags & host::MatrixTrans;
  SmallVector<Value *, 4> Result;
  for (unsigned J = 0; J < D.K; ++J) {
    if (!Trans) {
      // The lane's two elements are adjacent in row t / 4: one word at
      // byte 4 (t % 4).
      LaneTable Src, Offset;
      for (unsigned T = 0; T < 32; ++T) {
        Src[T] = 8 * J + T / 4;
        Offset[T] = 4 * (T % 4);
      }
      Value *At = byteAddress(readPointer(Ptr, Src), laneFunction(Offset));
      if (Load)
        Result.push_back(B.CreateAlignedLoad(B.getInt32Ty(), At, Align(4)));
      else
        B.CreateAlignedStore(CB.getArgOperand(1 + J), At, Align(4));
      continue;
    }
    // .trans: the low half is element t / 4 of row 2 (t % 4), the high half
    // the same element of the next row.
    Value *Halves[2];
    for (unsigned H = 0; H < 2; ++H) {
      LaneTable Src, Offset;
      for (unsigned T = 0; T < 32; ++T) {
        Src[T] = 8 * J + 2 * (T % 4) + H;
        Offset[T] = 2 * (T / 4);
      }
      Value *At = byteAddress(readPointer(Ptr, Src), laneFunction(Offset));
      if (Load) {
        Halves[H] = B.CreateAlignedLoad(B.getInt16Ty(), At, Align(2));
        continue;
      }
      Value *W = CB.getArgOperand(1 + J);
      B.CreateAlignedStore(
          B.CreateTrunc(H ? B.CreateLShr(W, 16) : W, B.getInt16Ty()), At,
          Align(2));
    }
    if (Load)
      Result.push_back(
          B.CreateOr(B.CreateZExt(Halves[0], B.getInt32Ty()),
                     B.CreateShl(B.CreateZExt(Halves[1], B.getInt32Ty()), 16)));
  }
  replace(Load ? packResult(Result, 32) : nullptr);
}

/// mma.sync and wmma.mma (WarpRuntime.cpp's multiplyWarp and
/// multiplyAccumulate), computed by each lane for its own D elements.
void MatrixLowering::multiply(bool Wmma) {
  const unsigned M = D.M, N = D.N, K = D.K;
  WmmaFragment FA = host::wmmaFragment(D, host::OperandA, D.A),
               FB = host::wmmaFragment(D, host::OperandB, D.B),
               FC = host::wmmaFragment(D, host::OperandC, D.C);
  unsigned EA = Wmma ? FA.Elems : M * K / 32, EB = Wmma ? FB.Elems : K * N / 32,
           EC = M * N / 32;
  auto coord = [&](MatrixOperand Op, const WmmaFragment &F, unsigned L,
                   unsigned I) {
    return Wmma ? host::wmmaCoord(F.Rows, F.Cols, F.ColumnOrder, F.Elems, L, I)
                : host::mmaCoord(D, Op, L, I);
  };
  // The inverse layouts: who holds A(r, k) and B(k, c). Lowest lane last,
  // so that of repeated WMMA elements the lowest lane's copy counts.
  std::vector<Owner> OwnA(M * K), OwnB(K * N);
  for (int L = 31; L >= 0; --L) {
    for (unsigned I = 0; I < EA; ++I) {
      Coord P = coord(host::OperandA, FA, unsigned(L), I);
      OwnA[P.Row * K + P.Col] = {unsigned(L), I};
    }
    for (unsigned I = 0; I < EB; ++I) {
      Coord P = coord(host::OperandB, FB, unsigned(L), I);
      OwnB[P.Row * N + P.Col] = {unsigned(L), I};
    }
  }

  SmallVector<Value *, 32> Words;
  for (Value *Arg : CB.args())
    appendWords(Arg, Words);
  unsigned WA = EA * elemBits(D.A) / 32, WB = EB * elemBits(D.B) / 32;
  ArrayRef<Value *> All(Words);
  ArrayRef<Value *> AWords = All.slice(0, WA), BWords = All.slice(WA, WB),
                    CWords = All.drop_front(WA + WB);

  bool Int = host::isInt8(D.A);
  SmallVector<Value *, 8> Out;
  for (unsigned I = 0; I < EC; ++I) {
    std::array<Coord, 32> P;
    OwnerTable Self;
    for (unsigned L = 0; L < 32; ++L) {
      P[L] = coord(host::OperandC, FC, L, I);
      // C and D share the layout, so C(r, c) is the lane's own element I.
      Self[L] = {L, I};
    }
    Value *C = elementValue(readElement(CWords, D.C, Self), D.C);
    Value *Acc = Int ? B.getInt32(0) : C;
    for (unsigned Kk = 0; Kk < K; ++Kk) {
      OwnerTable OA, OB;
      for (unsigned L = 0; L < 32; ++L) {
        OA[L] = OwnA[P[L].Row * K + Kk];
        OB[L] = OwnB[Kk * N + P[L].Col];
      }
      Value *A = elementValue(readElement(AWords, D.A, OA), D.A);
      Value *Bv = elementValue(readElement(BWords, D.B, OB), D.B);
      Acc =
          Int ? B.CreateAdd(Acc, B.CreateMul(A, Bv))
              : B.CreateIntrinsic(Intrinsic::fma, {A->getType()}, {A, Bv, Acc});
    }
    Value *R;
    if (Int)
      R = D.Flags & host::MatrixSatFinite
              ? B.CreateBinaryIntrinsic(Intrinsic::sadd_sat, C, Acc)
              : B.CreateAdd(C, Acc);
    else if (D.D == MatrixElem::F16)
      // Rounded to f32 by the last fma, then to f16, as on the CPU backend.
      // The fence keeps the backend from fusing the two into one
      // v_fma_mix{lo,hi}_f16, which rounds the exact result to f16 once
      // and can differ in the last bit.
      R = B.CreateBitCast(
          B.CreateFPTrunc(B.CreateArithmeticFence(Acc, Acc->getType()),
                          B.getHalfTy()),
          B.getInt16Ty());
    else
      R = B.CreateBitCast(Acc, B.getIntNTy(elemBits(D.D)));
    Out.push_back(R);
  }
  replace(packResult(Out, elemBits(D.D)));
}

/// wmma.load/store (WarpRuntime.cpp's loadStoreWmma): element (row, col)
/// of the lane's fragment is at row * stride + col (.row) or col * stride
/// + row (.col) elements from the address; stride 0 or none means the
/// matrix's row (column) length.
void MatrixLowering::loadStoreWmma(bool Load) {
  unsigned Frag = D.Flags & host::MatrixFragMask;
  MatrixOperand Op = Frag == host::MatrixFragA   ? host::OperandA
                     : Frag == host::MatrixFragB ? host::OperandB
                                                 : host::OperandC;
  WmmaFragment F = host::wmmaFragment(D, Op, D.A);
  bool ColMajor = D.Flags & host::MatrixColMajor;
  unsigned Bits = elemBits(D.A);
  Type *I64 = B.getInt64Ty();
  Value *Ptr = CB.getArgOperand(0);
  Value *Default = B.getInt64(ColMajor ? F.Rows : F.Cols);
  Value *Stride = Default;
  if (MC.HasStride) {
    Value *S = B.CreateZExt(CB.getArgOperand(CB.arg_size() - 1), I64);
    Stride = B.CreateSelect(B.CreateICmpEQ(S, B.getInt64(0)), Default, S);
  }
  SmallVector<Value *, 16> Words;
  if (!Load)
    for (unsigned A = 1; A < CB.arg_size() - (MC.HasStride ? 1 : 0); ++A)
      appendWords(CB.getArgOperand(A), Words);
  SmallVector<Value *, 16> Elems;
  for (unsigned I = 0; I < F.Elems; ++I) {
    LaneTable Row, Col;
    for (unsigned L = 0; L < 32; ++L) {
      Coord P = host::wmmaCoord(F.Rows, F.Cols, F.ColumnOrder, F.Elems, L, I);
      Row[L] = P.Row;
      Col[L] = P.Col;
    }
    Value *R = B.CreateZExt(laneFunction(Row), I64);
    Value *C = B.CreateZExt(laneFunction(Col), I64);
    Value *Index = ColMajor ? B.CreateAdd(B.CreateMul(C, Stride), R)
                            : B.CreateAdd(B.CreateMul(R, Stride), C);
    Value *At = byteAddress(Ptr, B.CreateMul(Index, B.getInt64(Bits / 8)));
    Type *ElemTy = B.getIntNTy(Bits);
    if (Load) {
      Elems.push_back(B.CreateAlignedLoad(ElemTy, At, Align(Bits / 8)));
      continue;
    }
    OwnerTable Self;
    for (unsigned L = 0; L < 32; ++L)
      Self[L] = {L, I};
    B.CreateAlignedStore(readElement(Words, D.A, Self), At, Align(Bits / 8));
  }
  replace(Load ? packResult(Elems, Bits) : nullptr);
}

void MatrixLowering::run() {
  Value *WaveLane = emitLaneInWave(B, Wave64);
  Base = Wave64 ? B.CreateAnd(WaveLane, 32) : B.getInt32(0);
  Lane = Wave64 ? B.CreateAnd(WaveLane, 31, "warp.lane") : WaveLane;
  switch (MC.Op) {
  case host::WarpOp::LdMatrix:
  case host::WarpOp::StMatrix:
    loadStoreMatrix(MC.Op == host::WarpOp::LdMatrix);
    break;
  case host::WarpOp::Mma:
  case host::WarpOp::WmmaMma:
    multiply(MC.Op == host::WarpOp::WmmaMma);
    break;
  default: // WmmaLoad, WmmaStore: decodeMatrixCollective gives no other
    loadStoreWmma(MC.Op == host::WarpOp::WmmaLoad);
    break;
  }
}

} // namespace

bool lowerMatrixInstruction(CallBase &CB, const Target &T) {
  llvm::Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return false;
  std::optional<MatrixCollective> MC =
      host::decodeMatrixCollective(Callee->getName());
  if (!MC)
    return false;
  MatrixLowering(CB, T, *MC).run();
  return true;
}

} // namespace cuhip::ptx::amdgpu
