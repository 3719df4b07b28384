//===- WarpRuntime.cpp - Warp collectives and barriers for block functions ===//
//
// A block function that contains warp-level collectives runs each warp's
// lanes one at a time up to their next collective, then calls
// cuhip_warp_step, which evaluates the collective over the lanes waiting at
// it exactly as the PTX ISA defines it (source-lane formulas with clamp and
// segment mask for shfl, member masks for vote/match/redux/elect) and hands
// every lane its result through its frame's WarpExchange. Matrix
// instructions (ldmatrix, stmatrix, mma, wmma) are collectives too: they
// gather the warp's fragments from each frame's MatrixExchange, run the
// whole operation and scatter the results. Writing these in C++ keeps the
// generated code small and the semantics in one place.
//
//===----------------------------------------------------------------------===//
#include "HalfBits.h"

#include "cuhip/ptx/HostTarget.h"
#include "cuhip/ptx/MatrixLayout.h"
#include "cuhip/ptx/Mbarrier.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

namespace cuhip::ptx::host {
namespace {

inline WarpExchange &exchange(uint8_t *WarpFrames, uint32_t FrameBytes,
                              unsigned Lane) {
  return *reinterpret_cast<WarpExchange *>(WarpFrames + size_t(Lane) * FrameBytes);
}

inline uint8_t &stateOf(uint8_t *Frames, const WarpSchedule *S, size_t T) {
  return Frames[T * S->FrameBytes + S->StateOffset];
}

inline uint32_t &resumeOf(uint8_t *Frames, const WarpSchedule *S, size_t T) {
  return *reinterpret_cast<uint32_t *>(Frames + T * S->FrameBytes +
                                       S->ResumeOffset);
}

/// Evaluates shfl for lane L per the ISA: b selects the source lane, c
/// holds the clamp value (bits 4:0) and the segment mask (bits 12:8).
void shuffle(WarpOp Op, uint8_t *WF, uint32_t FB, uint32_t Waiting,
             unsigned Lane) {
  WarpExchange &X = exchange(WF, FB, Lane);
  int BVal = int(X.B & 31);
  int CVal = int(X.C & 31);
  int SegMask = int((X.C >> 8) & 31);
  int L = int(Lane);
  int MaxLane = (L & SegMask) | (CVal & ~SegMask);
  int MinLane = L & SegMask;
  int J = 0;
  bool P = false;
  switch (Op) {
  case WarpOp::ShflUp:
    J = L - BVal;
    P = J >= MaxLane;
    break;
  case WarpOp::ShflDown:
    J = L + BVal;
    P = J <= MaxLane;
    break;
  case WarpOp::ShflBfly:
    J = L ^ BVal;
    P = J <= MaxLane;
    break;
  default: // ShflIdx
    J = MinLane | (BVal & ~SegMask);
    P = J <= MaxLane;
    break;
  }
  if (!P)
    J = L;
  // A source lane that is not taking part gives an undefined value in PTX;
  // an H200 gave 0 when that lane had exited, which is what code that lets
  // the lanes past the end of its data return early relies on, so 0 it is.
  // (Out of range, J is the lane itself, which takes part.)
  uint64_t V = (J >= 0 && J < 32 && (Waiting >> J & 1))
                   ? exchange(WF, FB, unsigned(J)).Value
                   : 0;
  X.Result = uint32_t(V);
  X.Pred = P;
}

//===----------------------------------------------------------------------===//
// Matrix instructions
//
// The lanes' fragments are gathered into whole matrices, the warp's
// operation runs on those, and the result is scattered back. mma fragments
// follow the PTX ISA's "Matrix Fragments for mma.mMnNkK" sections exactly.
// WMMA fragments are opaque in the ISA, so the layout is ours (wmmaCoord);
// wmma.load, wmma.mma and wmma.store agree on it. Both layouts live in
// MatrixLayout.h, shared with the AMDGPU target.
//
// Arithmetic: integer products are summed exactly and the s32 result wraps
// modulo 2^32, or is clamped to [INT32_MIN, INT32_MAX] with .satfinite.
// Floating-point elements are accumulated in the accumulator's precision
// (f32, f64 for .f64) by one fused multiply-add per k, in increasing k,
// starting from C: d = fma(a[k], b[k], d), rounding to nearest even; .f16
// results are rounded from that f32 once. Every .f16/.bf16/.tf32 product is
// exact in f32, so each step rounds only the sum. Hardware adds the k
// products of a step in an order and internal precision of its own, so
// when partial sums are not exact in f32 its last bit may differ from ours.
// .tf32 operands are the f32 bit patterns with the low 13 mantissa bits
// ignored (the format's 10-bit mantissa).
//===----------------------------------------------------------------------===//

inline MatrixExchange &matrixExchange(uint8_t *WF, uint32_t FB, unsigned Lane) {
  return *reinterpret_cast<MatrixExchange *>(WF + size_t(Lane) * FB +
                                             sizeof(WarpExchange));
}

/// Element I of a fragment stored from word W. Narrow elements fill each
/// 32-bit register from its low bits ("low to high" in the ISA); an f64
/// takes two words.
uint64_t getElement(const uint32_t *W, MatrixElem T, unsigned I) {
  unsigned Bits = elemBits(T);
  if (Bits == 64) {
    uint64_t V;
    std::memcpy(&V, W + 2 * I, 8);
    return V;
  }
  if (Bits == 32)
    return W[I];
  unsigned PerWord = 32 / Bits;
  return (W[I / PerWord] >> (I % PerWord * Bits)) & ((1u << Bits) - 1);
}

void setElement(uint32_t *W, MatrixElem T, unsigned I, uint64_t V) {
  unsigned Bits = elemBits(T);
  if (Bits == 64) {
    std::memcpy(W + 2 * I, &V, 8);
    return;
  }
  if (Bits == 32) {
    W[I] = uint32_t(V);
    return;
  }
  unsigned PerWord = 32 / Bits, Shift = I % PerWord * Bits;
  uint32_t Mask = ((1u << Bits) - 1) << Shift;
  W[I / PerWord] = (W[I / PerWord] & ~Mask) | ((uint32_t(V) << Shift) & Mask);
}

/// Words that E elements of T take.
unsigned fragmentWords(unsigned E, MatrixElem T) {
  return E * elemBits(T) / 32;
}

float floatOf(MatrixElem T, uint64_t Bits) {
  switch (T) {
  case MatrixElem::F16:
    return halfToFloat(uint16_t(Bits));
  case MatrixElem::BF16:
    return std::bit_cast<float>(uint32_t(Bits) << 16);
  case MatrixElem::TF32:
    return std::bit_cast<float>(uint32_t(Bits) & 0xffffe000u);
  default:
    return std::bit_cast<float>(uint32_t(Bits));
  }
}

uint64_t floatBits(MatrixElem T, float F) {
  if (T == MatrixElem::F16) {
    _Float16 H = _Float16(F); // round to nearest even
    uint16_t U;
    std::memcpy(&U, &H, 2);
    return U;
  }
  return std::bit_cast<uint32_t>(F);
}

int64_t intOf(MatrixElem T, uint64_t Bits) {
  if (T == MatrixElem::S8)
    return int8_t(uint8_t(Bits));
  if (T == MatrixElem::U8)
    return uint8_t(Bits);
  return int32_t(uint32_t(Bits));
}

/// Acc[r][c] = fma(A[r][k], B[k][c], Acc[r][c]) for k = 0, 1, ... K - 1 in
/// turn: each element sees its products in increasing k. With N known
/// (the shapes' 8, 16 and 32 columns) a row of Acc stays in vector
/// registers.
template <unsigned N, typename T>
[[gnu::always_inline]] inline void fmaRows(unsigned M, unsigned K,
                                           const T *__restrict A,
                                           const T *__restrict B,
                                           T *__restrict Acc) {
  for (unsigned R = 0; R < M; ++R) {
    T Row[N];
    for (unsigned Col = 0; Col < N; ++Col)
      Row[Col] = Acc[R * N + Col];
    for (unsigned I = 0; I < K; ++I) {
      T V = A[R * K + I];
      const T *BI = B + I * N;
      for (unsigned Col = 0; Col < N; ++Col)
        Row[Col] = std::fma(V, BI[Col], Row[Col]);
    }
    for (unsigned Col = 0; Col < N; ++Col)
      Acc[R * N + Col] = Row[Col];
  }
}

/// fmaRows for any shape. A CPU with FMA (and so AVX) gets a clone that
/// uses its instructions instead of calls into the C library.
template <typename T>
[[gnu::always_inline]] inline void fmaAnyShape(unsigned M, unsigned N,
                                               unsigned K,
                                               const T *__restrict A,
                                               const T *__restrict B,
                                               T *__restrict Acc) {
  switch (N) {
  case 8:
    return fmaRows<8>(M, K, A, B, Acc);
  case 16:
    return fmaRows<16>(M, K, A, B, Acc);
  case 32:
    return fmaRows<32>(M, K, A, B, Acc);
  default:
    for (unsigned R = 0; R < M; ++R)
      for (unsigned I = 0; I < K; ++I)
        for (unsigned Col = 0; Col < N; ++Col)
          Acc[R * N + Col] =
              std::fma(A[R * K + I], B[I * N + Col], Acc[R * N + Col]);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("fma", "default")))
#endif
void fmaProducts(unsigned M, unsigned N, unsigned K,
                 const float *__restrict A, const float *__restrict B,
                 float *__restrict Acc) {
  fmaAnyShape(M, N, K, A, B, Acc);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("fma", "default")))
#endif
void fmaProducts(unsigned M, unsigned N, unsigned K,
                 const double *__restrict A, const double *__restrict B,
                 double *__restrict Acc) {
  fmaAnyShape(M, N, K, A, B, Acc);
}

/// Out = A * B + C for row-major M x K, K x N and M x N matrices of
/// integer or f64 element bits; see the section header for the arithmetic.
void multiplyAccumulate(const MatrixDesc &D, const uint64_t *A,
                        const uint64_t *B, const uint64_t *C, uint64_t *Out) {
  const unsigned M = D.M, N = D.N, K = D.K;
  if (isInt8(D.A)) {
    for (unsigned R = 0; R < M; ++R)
      for (unsigned Col = 0; Col < N; ++Col) {
        unsigned At = R * N + Col;
        int64_t Acc = intOf(D.C, C[At]);
        for (unsigned I = 0; I < K; ++I)
          Acc += intOf(D.A, A[R * K + I]) * intOf(D.B, B[I * N + Col]);
        if (D.Flags & MatrixSatFinite)
          Acc = std::clamp<int64_t>(Acc, INT32_MIN, INT32_MAX);
        Out[At] = uint32_t(uint64_t(Acc));
      }
    return;
  }
  if (D.A == MatrixElem::F64) {
    // The same fused multiply-adds in the same order, in FMA registers.
    double DA[512], DB[512], Acc[512];
    for (unsigned I = 0; I < M * K; ++I)
      DA[I] = std::bit_cast<double>(A[I]);
    for (unsigned I = 0; I < K * N; ++I)
      DB[I] = std::bit_cast<double>(B[I]);
    for (unsigned I = 0; I < M * N; ++I)
      Acc[I] = std::bit_cast<double>(C[I]);
    fmaProducts(M, N, K, DA, DB, Acc);
    for (unsigned I = 0; I < M * N; ++I)
      Out[I] = std::bit_cast<uint64_t>(Acc[I]);
  }
  // Floating point: multiplyWarp computes it with fmaProducts.
}

template <typename Fn> void forEachLane(uint32_t Set, Fn &&F) {
  for (uint32_t M = Set; M; M &= M - 1)
    F(unsigned(std::countr_zero(M)));
}

/// ldmatrix/stmatrix .m8n8.b16: lane 8j + r gives the address of row r of
/// matrix j (its column r with .trans); lane t holds elements (t / 4,
/// 2 (t % 4)) and (t / 4, 2 (t % 4) + 1) of each matrix in its register j,
/// the first in the low half.
void loadStoreMatrix(bool Load, uint8_t *WF, uint32_t FB, uint32_t Waiting,
                     const MatrixDesc &D) {
  uint16_t Rows[4][8][8] = {}; // [matrix][row in memory][element]
  bool Trans = D.Flags & MatrixTrans;
  auto element = [&](unsigned J, unsigned R, unsigned C) -> uint16_t & {
    return Trans ? Rows[J][C][R] : Rows[J][R][C];
  };
  auto address = [&](unsigned L) {
    return reinterpret_cast<void *>(
        uintptr_t(matrixExchange(WF, FB, L).Address));
  };
  if (Load) {
    for (unsigned J = 0; J < D.K; ++J)
      for (unsigned R = 0; R < 8; ++R)
        if (Waiting >> (8 * J + R) & 1)
          std::memcpy(Rows[J][R], address(8 * J + R), 16);
    forEachLane(Waiting, [&](unsigned T) {
      uint32_t *W = matrixExchange(WF, FB, T).Words;
      for (unsigned J = 0; J < D.K; ++J)
        W[J] = element(J, T / 4, 2 * (T % 4)) |
               uint32_t(element(J, T / 4, 2 * (T % 4) + 1)) << 16;
    });
    return;
  }
  forEachLane(Waiting, [&](unsigned T) {
    const uint32_t *W = matrixExchange(WF, FB, T).Words;
    for (unsigned J = 0; J < D.K; ++J) {
      element(J, T / 4, 2 * (T % 4)) = uint16_t(W[J]);
      element(J, T / 4, 2 * (T % 4) + 1) = uint16_t(W[J] >> 16);
    }
  });
  for (unsigned J = 0; J < D.K; ++J)
    for (unsigned R = 0; R < 8; ++R)
      if (Waiting >> (8 * J + R) & 1)
        std::memcpy(address(8 * J + R), Rows[J][R], 16);
}

/// Where each lane's fragment elements sit in the row-major matrices of
/// one form of multiply (mma or wmma, shape and types): the index of lane
/// L's element I is at [L * 32 + I]. Worked out once per form and thread,
/// instead of with divisions for every element of every multiply.
struct FragmentPlaces {
  uint64_t Desc;
  bool Wmma;
  unsigned EA, EB, EC;
  uint16_t A[32 * 32], B[32 * 32], C[32 * 32];
};

const FragmentPlaces &fragmentPlaces(bool Wmma, const MatrixDesc &D) {
  uint64_t Key;
  static_assert(sizeof(Key) == sizeof(MatrixDesc));
  std::memcpy(&Key, &D, sizeof(Key));
  thread_local std::vector<std::unique_ptr<FragmentPlaces>> Cache;
  for (const auto &P : Cache)
    if (P->Desc == Key && P->Wmma == Wmma)
      return *P;
  auto P = std::make_unique<FragmentPlaces>();
  P->Desc = Key;
  P->Wmma = Wmma;
  const unsigned M = D.M, N = D.N, K = D.K;
  WmmaFragment FA = wmmaFragment(D, OperandA, D.A),
               FBf = wmmaFragment(D, OperandB, D.B),
               FC = wmmaFragment(D, OperandC, D.C);
  P->EA = Wmma ? FA.Elems : M * K / 32;
  P->EB = Wmma ? FBf.Elems : K * N / 32;
  P->EC = M * N / 32;
  auto coord = [&](MatrixOperand Op, const WmmaFragment &F, unsigned L,
                   unsigned I) {
    return Wmma ? wmmaCoord(F.Rows, F.Cols, F.ColumnOrder, F.Elems, L, I)
                : mmaCoord(D, Op, L, I);
  };
  for (unsigned L = 0; L < 32; ++L) {
    for (unsigned I = 0; I < P->EA; ++I) {
      Coord C = coord(OperandA, FA, L, I);
      P->A[L * 32 + I] = uint16_t(C.Row * K + C.Col);
    }
    for (unsigned I = 0; I < P->EB; ++I) {
      Coord C = coord(OperandB, FBf, L, I);
      P->B[L * 32 + I] = uint16_t(C.Row * N + C.Col);
    }
    // D's places are C's: the fragment layout does not depend on the type.
    for (unsigned I = 0; I < P->EC; ++I) {
      Coord C = coord(OperandC, FC, L, I);
      P->C[L * 32 + I] = uint16_t(C.Row * N + C.Col);
    }
  }
  Cache.push_back(std::move(P));
  return *Cache.back();
}

/// getElement for an element width known to be 8, 16, 32 or 64 bits,
/// with shifts instead of divisions.
inline uint64_t elementOf(const uint32_t *W, unsigned Bits, unsigned I) {
  switch (Bits) {
  case 8:
    return (W[I >> 2] >> (I & 3) * 8) & 0xff;
  case 16:
    return (W[I >> 1] >> (I & 1) * 16) & 0xffff;
  case 32:
    return W[I];
  default:
    return getElement(W, MatrixElem::F64, I);
  }
}

/// mma.sync and wmma.mma: gathers A, B and C from the waiting lanes'
/// fragments, computes D and hands every waiting lane its fragment of D.
void multiplyWarp(bool Wmma, uint8_t *WF, uint32_t FB, uint32_t Waiting,
                  const MatrixDesc &D) {
  const unsigned M = D.M, N = D.N, K = D.K;
  const FragmentPlaces &P = fragmentPlaces(Wmma, D);
  const unsigned EA = P.EA, EB = P.EB, EC = P.EC;
  const unsigned BitsA = elemBits(D.A), BitsB = elemBits(D.B),
                 BitsC = elemBits(D.C);
  const unsigned WA = fragmentWords(EA, D.A), WB = fragmentWords(EB, D.B);
  if (!isInt8(D.A) && D.A != MatrixElem::F64) {
    // Largest shapes: 32 x 16 A (m32n8k16), 16 x 32 B (m8n32k16). The
    // elements are converted to f32 as they are gathered.
    float FA[512], FBm[512], Acc[512];
    std::fill_n(FA, M * K, 0.0f);
    std::fill_n(FBm, K * N, 0.0f);
    std::fill_n(Acc, M * N, 0.0f);
    for (int L = 31; L >= 0; --L) {
      if (!(Waiting >> L & 1))
        continue;
      const uint32_t *W = matrixExchange(WF, FB, unsigned(L)).Words;
      const uint16_t *PA = P.A + L * 32, *PB = P.B + L * 32,
                     *PC = P.C + L * 32;
      for (unsigned I = 0; I < EA; ++I)
        FA[PA[I]] = floatOf(D.A, elementOf(W, BitsA, I));
      for (unsigned I = 0; I < EB; ++I)
        FBm[PB[I]] = floatOf(D.B, elementOf(W + WA, BitsB, I));
      for (unsigned I = 0; I < EC; ++I)
        Acc[PC[I]] = floatOf(D.C, elementOf(W + WA + WB, BitsC, I));
    }
    fmaProducts(M, N, K, FA, FBm, Acc);
    forEachLane(Waiting, [&](unsigned L) {
      uint32_t *W = matrixExchange(WF, FB, L).Words;
      std::fill_n(W, fragmentWords(EC, D.D), 0u);
      const uint16_t *PC = P.C + L * 32;
      for (unsigned I = 0; I < EC; ++I)
        setElement(W, D.D, I, floatBits(D.D, Acc[PC[I]]));
    });
    return;
  }
  // Integers and f64.
  uint64_t A[512], B[512], C[512], Out[512];
  std::fill_n(A, M * K, 0);
  std::fill_n(B, K * N, 0);
  std::fill_n(C, M * N, 0);
  // Highest lane first, so that of repeated WMMA elements the lowest lane's
  // copy counts.
  for (int L = 31; L >= 0; --L) {
    if (!(Waiting >> L & 1))
      continue;
    const uint32_t *W = matrixExchange(WF, FB, unsigned(L)).Words;
    const uint16_t *PA = P.A + L * 32, *PB = P.B + L * 32, *PC = P.C + L * 32;
    for (unsigned I = 0; I < EA; ++I)
      A[PA[I]] = elementOf(W, BitsA, I);
    for (unsigned I = 0; I < EB; ++I)
      B[PB[I]] = elementOf(W + WA, BitsB, I);
    for (unsigned I = 0; I < EC; ++I)
      C[PC[I]] = elementOf(W + WA + WB, BitsC, I);
  }
  multiplyAccumulate(D, A, B, C, Out);
  forEachLane(Waiting, [&](unsigned L) {
    uint32_t *W = matrixExchange(WF, FB, L).Words;
    std::fill_n(W, fragmentWords(EC, D.D), 0u);
    const uint16_t *PC = P.C + L * 32;
    for (unsigned I = 0; I < EC; ++I)
      setElement(W, D.D, I, Out[PC[I]]);
  });
}

/// wmma.load and wmma.store: every lane moves its own fragment (the
/// address and stride are the same in all lanes). Element (row, col) is at
/// row * stride + col (.row) or col * stride + row (.col); the default
/// stride is the matrix's row (column) length.
/// Row and column of each element of each lane of one WMMA fragment shape
/// ([L * 32 + I]), worked out once per shape and thread.
struct WmmaPlaces {
  unsigned Rows, Cols, Elems;
  bool ColumnOrder;
  uint8_t Row[32 * 32], Col[32 * 32];
};

const WmmaPlaces &wmmaPlaces(const WmmaFragment &F) {
  thread_local std::vector<std::unique_ptr<WmmaPlaces>> Cache;
  for (const auto &P : Cache)
    if (P->Rows == F.Rows && P->Cols == F.Cols && P->Elems == F.Elems &&
        P->ColumnOrder == F.ColumnOrder)
      return *P;
  auto P = std::make_unique<WmmaPlaces>();
  P->Rows = F.Rows;
  P->Cols = F.Cols;
  P->Elems = F.Elems;
  P->ColumnOrder = F.ColumnOrder;
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned I = 0; I < F.Elems; ++I) {
      Coord C = wmmaCoord(F.Rows, F.Cols, F.ColumnOrder, F.Elems, L, I);
      P->Row[L * 32 + I] = uint8_t(C.Row);
      P->Col[L * 32 + I] = uint8_t(C.Col);
    }
  Cache.push_back(std::move(P));
  return *Cache.back();
}

/// Moves one lane's WMMA fragment of Bytes-sized elements between memory
/// and its registers.
template <unsigned Bytes>
void moveWmmaFragment(bool Load, MatrixExchange &X, MatrixElem T,
                      const WmmaPlaces &P, unsigned L, bool ColMajor,
                      uint64_t Stride) {
  auto *Base = reinterpret_cast<uint8_t *>(uintptr_t(X.Address));
  const uint8_t *Rows = P.Row + L * 32, *Cols = P.Col + L * 32;
  for (unsigned I = 0; I < P.Elems; ++I) {
    uint64_t R = Rows[I], C = Cols[I];
    uint8_t *At = Base + (ColMajor ? C * Stride + R : R * Stride + C) * Bytes;
    uint64_t V = 0;
    if (Load) {
      std::memcpy(&V, At, Bytes);
      setElement(X.Words, T, I, V);
    } else {
      V = getElement(X.Words, T, I);
      std::memcpy(At, &V, Bytes);
    }
  }
}

void loadStoreWmma(bool Load, uint8_t *WF, uint32_t FB, uint32_t Waiting,
                   const MatrixDesc &D) {
  unsigned Frag = D.Flags & MatrixFragMask;
  MatrixOperand Op = Frag == MatrixFragA   ? OperandA
                     : Frag == MatrixFragB ? OperandB
                                           : OperandC;
  WmmaFragment F = wmmaFragment(D, Op, D.A);
  const WmmaPlaces &P = wmmaPlaces(F);
  bool ColMajor = D.Flags & MatrixColMajor;
  unsigned Bytes = elemBits(D.A) / 8;
  forEachLane(Waiting, [&](unsigned L) {
    MatrixExchange &X = matrixExchange(WF, FB, L);
    uint64_t Stride = X.Stride ? X.Stride : ColMajor ? F.Rows : F.Cols;
    if (Load)
      std::fill_n(X.Words, fragmentWords(F.Elems, D.A), 0u);
    switch (Bytes) {
    case 1:
      moveWmmaFragment<1>(Load, X, D.A, P, L, ColMajor, Stride);
      break;
    case 2:
      moveWmmaFragment<2>(Load, X, D.A, P, L, ColMajor, Stride);
      break;
    case 4:
      moveWmmaFragment<4>(Load, X, D.A, P, L, ColMajor, Stride);
      break;
    default:
      moveWmmaFragment<8>(Load, X, D.A, P, L, ColMajor, Stride);
      break;
    }
  });
}

void runMatrix(WarpOp Op, uint8_t *WF, uint32_t FB, uint32_t Waiting,
               const MatrixDesc &D) {
  switch (Op) {
  case WarpOp::LdMatrix:
  case WarpOp::StMatrix:
    loadStoreMatrix(Op == WarpOp::LdMatrix, WF, FB, Waiting, D);
    break;
  case WarpOp::Mma:
  case WarpOp::WmmaMma:
    multiplyWarp(Op == WarpOp::WmmaMma, WF, FB, Waiting, D);
    break;
  case WarpOp::WmmaLoad:
  case WarpOp::WmmaStore:
    loadStoreWmma(Op == WarpOp::WmmaLoad, WF, FB, Waiting, D);
    break;
  default:
    break;
  }
}

} // namespace

extern "C" void cuhip_matrix_lanes(MatrixLanes *ML, uint32_t WordsIn,
                                   uint32_t WordsOut, uint32_t Active,
                                   uint32_t Op, uint64_t Desc) {
  // The scalar path's frame layout, one record per lane.
  constexpr uint32_t FB = sizeof(WarpExchange) + sizeof(MatrixExchange);
  alignas(8) uint8_t Frames[32 * FB];
  MatrixDesc D;
  std::memcpy(&D, &Desc, sizeof(D));
  WordsIn = std::min<uint32_t>(WordsIn, 32);
  WordsOut = std::min<uint32_t>(WordsOut, 32);
  forEachLane(Active, [&](unsigned L) {
    MatrixExchange &X = matrixExchange(Frames, FB, L);
    X.Desc = D;
    X.Address = ML->Address[L];
    X.Stride = ML->Stride[L];
    for (uint32_t W = 0; W < WordsIn; ++W)
      X.Words[W] = ML->Words[W][L];
  });
  runMatrix(WarpOp(Op), Frames, FB, Active, D);
  forEachLane(Active, [&](unsigned L) {
    const MatrixExchange &X = matrixExchange(Frames, FB, L);
    for (uint32_t W = 0; W < WordsOut; ++W)
      ML->Words[W][L] = X.Words[W];
  });
}

extern "C" uint32_t cuhip_warp_step(uint8_t *WF, uint32_t Lanes,
                                    const WarpSchedule *S) {
  const uint32_t FB = S->FrameBytes;
  unsigned First = 32;
  for (unsigned L = 0; L < Lanes; ++L)
    if (stateOf(WF, S, L) == LaneAtWarpOp) {
      First = L;
      break;
    }
  if (First == 32)
    return 0;
  // A collective completes when every lane of its member masks that has
  // not exited has arrived (vote.sync, shfl.sync, ... wait for them). When
  // lanes wait at several collectives, serve the lowest-lane one whose
  // members are all there; lanes still missing from the others may be held
  // at one of those. If none is complete (code whose member masks name
  // lanes that never arrive, which PTX leaves undefined), the lowest-lane
  // collective goes ahead with the lanes it has.
  uint32_t Live = 0;
  for (unsigned L = 0; L < Lanes; ++L)
    if (stateOf(WF, S, L) != LaneExited)
      Live |= 1u << L;
  auto opOf = [&](uint32_t R) {
    return R < S->NumRegions ? WarpOp(S->OpOfRegion[R]) : WarpOp::None;
  };
  auto waitingAt = [&](uint32_t R) {
    uint32_t W = 0;
    for (unsigned L = First; L < Lanes; ++L)
      if (stateOf(WF, S, L) == LaneAtWarpOp && resumeOf(WF, S, L) == R)
        W |= 1u << L;
    return W;
  };
  auto complete = [&](uint32_t R, uint32_t W) {
    switch (opOf(R)) {
    case WarpOp::ShflUp: case WarpOp::ShflDown: case WarpOp::ShflBfly:
    case WarpOp::ShflIdx: case WarpOp::VoteAll: case WarpOp::VoteAny:
    case WarpOp::VoteUni: case WarpOp::VoteBallot: case WarpOp::MatchAny32:
    case WarpOp::MatchAny64: case WarpOp::MatchAll32: case WarpOp::MatchAll64:
    case WarpOp::ReduxAdd: case WarpOp::ReduxMin: case WarpOp::ReduxMax:
    case WarpOp::ReduxUMin: case WarpOp::ReduxUMax: case WarpOp::ReduxAnd:
    case WarpOp::ReduxOr: case WarpOp::ReduxXor: case WarpOp::WarpSync:
    case WarpOp::Elect:
      for (uint32_t M = W; M; M &= M - 1) {
        unsigned L = unsigned(std::countr_zero(M));
        if (exchange(WF, FB, L).Mask & Live & ~W)
          return false;
      }
      return true;
    default:
      return true; // no member mask
    }
  };
  uint32_t Region = resumeOf(WF, S, First);
  uint32_t Waiting = waitingAt(Region);
  if (!complete(Region, Waiting)) {
    uint32_t Seen = Waiting;
    bool Found = false;
    for (unsigned L = First + 1; L < Lanes; ++L) {
      if (Seen >> L & 1 || stateOf(WF, S, L) != LaneAtWarpOp)
        continue;
      uint32_t R = resumeOf(WF, S, L), W = waitingAt(R);
      Seen |= W;
      if (complete(R, W)) {
        Region = R;
        Waiting = W;
        Found = true;
        break;
      }
    }
    // A member lane waiting for an mbarrier phase will arrive once the
    // phase completes: the collective waits for it (the block step
    // releases the mbarrier wait), as it would on a GPU.
    if (!Found) {
      uint32_t Named = 0;
      for (uint32_t M = Seen; M; M &= M - 1)
        Named |= exchange(WF, FB, unsigned(std::countr_zero(M))).Mask;
      for (uint32_t M = Named & Live & ~Seen; M; M &= M - 1) {
        unsigned L = unsigned(std::countr_zero(M));
        if (L < Lanes && stateOf(WF, S, L) == LaneAtBarrier &&
            opOf(resumeOf(WF, S, L)) == WarpOp::MbarrierWait)
          return 0;
      }
    }
  }
  WarpOp Op = opOf(Region);

  auto forEach = [&](auto &&Fn) {
    for (uint32_t M = Waiting; M; M &= M - 1)
      Fn(unsigned(std::countr_zero(M)));
  };
  // Lanes taking part: waiting here and named by the lane's member mask.
  auto members = [&](unsigned L) { return Waiting & exchange(WF, FB, L).Mask; };
  auto ballot = [&](uint32_t Set) {
    uint32_t B = 0;
    for (uint32_t M = Set; M; M &= M - 1) {
      unsigned J = unsigned(std::countr_zero(M));
      if (exchange(WF, FB, J).Value & 1)
        B |= 1u << J;
    }
    return B;
  };

  switch (Op) {
  case WarpOp::ShflUp:
  case WarpOp::ShflDown:
  case WarpOp::ShflBfly:
  case WarpOp::ShflIdx: {
    // All sources are read before any result is written: results share
    // the exchange area with nothing, but keep the order obvious.
    forEach([&](unsigned L) { shuffle(Op, WF, FB, Waiting, L); });
    break;
  }
  case WarpOp::VoteAll:
  case WarpOp::VoteAny:
  case WarpOp::VoteUni:
  case WarpOp::VoteBallot:
    forEach([&](unsigned L) {
      uint32_t Set = members(L), B = ballot(Set);
      WarpExchange &X = exchange(WF, FB, L);
      switch (Op) {
      case WarpOp::VoteAll: X.Result = B == Set; break;
      case WarpOp::VoteAny: X.Result = B != 0; break;
      case WarpOp::VoteUni: X.Result = B == 0 || B == Set; break;
      default: X.Result = B; break;
      }
    });
    break;
  case WarpOp::MatchAny32:
  case WarpOp::MatchAny64:
  case WarpOp::MatchAll32:
  case WarpOp::MatchAll64: {
    bool Wide = Op == WarpOp::MatchAny64 || Op == WarpOp::MatchAll64;
    auto value = [&](unsigned J) {
      uint64_t V = exchange(WF, FB, J).Value;
      return Wide ? V : uint32_t(V);
    };
    forEach([&](unsigned L) {
      uint32_t Set = members(L), Same = 0;
      for (uint32_t M = Set; M; M &= M - 1) {
        unsigned J = unsigned(std::countr_zero(M));
        if (value(J) == value(L))
          Same |= 1u << J;
      }
      WarpExchange &X = exchange(WF, FB, L);
      if (Op == WarpOp::MatchAny32 || Op == WarpOp::MatchAny64) {
        X.Result = Same;
      } else {
        bool All = Same == Set;
        X.Result = All ? Set : 0;
        X.Pred = All;
      }
    });
    break;
  }
  case WarpOp::ReduxAdd:
  case WarpOp::ReduxMin:
  case WarpOp::ReduxMax:
  case WarpOp::ReduxUMin:
  case WarpOp::ReduxUMax:
  case WarpOp::ReduxAnd:
  case WarpOp::ReduxOr:
  case WarpOp::ReduxXor:
    forEach([&](unsigned L) {
      uint32_t Set = members(L);
      bool First = true;
      uint32_t Acc = 0;
      for (uint32_t M = Set; M; M &= M - 1) {
        uint32_t V = uint32_t(exchange(WF, FB, unsigned(std::countr_zero(M))).Value);
        if (First) {
          Acc = V;
          First = false;
          continue;
        }
        switch (Op) {
        case WarpOp::ReduxAdd: Acc += V; break;
        case WarpOp::ReduxMin: Acc = uint32_t(std::min(int32_t(Acc), int32_t(V))); break;
        case WarpOp::ReduxMax: Acc = uint32_t(std::max(int32_t(Acc), int32_t(V))); break;
        case WarpOp::ReduxUMin: Acc = std::min(Acc, V); break;
        case WarpOp::ReduxUMax: Acc = std::max(Acc, V); break;
        case WarpOp::ReduxAnd: Acc &= V; break;
        case WarpOp::ReduxOr: Acc |= V; break;
        default: Acc ^= V; break;
        }
      }
      exchange(WF, FB, L).Result = Acc;
    });
    break;
  case WarpOp::ActiveMask:
    forEach([&](unsigned L) { exchange(WF, FB, L).Result = Waiting; });
    break;
  case WarpOp::Elect:
    forEach([&](unsigned L) {
      uint32_t Set = members(L);
      unsigned Leader = Set ? unsigned(std::countr_zero(Set)) : L;
      WarpExchange &X = exchange(WF, FB, L);
      X.Result = Leader;
      X.Pred = L == Leader;
    });
    break;
  case WarpOp::LdMatrix:
  case WarpOp::StMatrix:
  case WarpOp::Mma:
  case WarpOp::WmmaLoad:
  case WarpOp::WmmaStore:
  case WarpOp::WmmaMma:
    runMatrix(Op, WF, FB, Waiting, matrixExchange(WF, FB, First).Desc);
    break;
  case WarpOp::WarpSync:
  case WarpOp::Converge:
  case WarpOp::None:
    break;
  case WarpOp::BarRedPopc:
  case WarpOp::BarRedAnd:
  case WarpOp::BarRedOr:
  case WarpOp::BarSyncCount:
  case WarpOp::BarArrive:
  case WarpOp::MbarrierWait:
    // Block-level: cuhip_barrier_step handles these, never a warp step.
    break;
  }
  forEach([&](unsigned L) { stateOf(WF, S, L) = LaneRunnable; });
  return 1;
}

static bool isBarRed(WarpOp Op) {
  return Op == WarpOp::BarRedPopc || Op == WarpOp::BarRedAnd ||
         Op == WarpOp::BarRedOr;
}

extern "C" uint32_t cuhip_barrier_step(uint8_t *Frames, uint32_t Threads,
                                       const WarpSchedule *S) {
  const uint32_t FB = S->FrameBytes;
  auto opAt = [&](uint32_t Region) {
    return Region < S->NumRegions ? WarpOp(S->OpOfRegion[Region]) : WarpOp::None;
  };
  uint32_t *Counters =
      S->CounterOffset ? reinterpret_cast<uint32_t *>(Frames + S->CounterOffset)
                       : nullptr;
  bool Progress = false;
  uint32_t Running = 0;
  // Named barriers: waiting lanes and their expected thread count per id.
  uint32_t NamedWaiting[NumNamedBarriers] = {}, NamedCount[NumNamedBarriers] = {};
  bool AnyNamed = false;
  // Lanes at an mbarrier wait whose phase has not completed, and lanes at
  // a warp collective that waits for such lanes (cuhip_warp_step).
  uint32_t MbarrierBlocked = 0, AtWarpOp = 0;
  for (uint32_t T = 0; T < Threads; ++T) {
    uint8_t St = stateOf(Frames, S, T);
    if (St == LaneExited)
      continue;
    ++Running;
    if (St == LaneAtWarpOp) {
      ++AtWarpOp;
      continue;
    }
    if (St != LaneAtBarrier)
      return 2;
    WarpOp Op = opAt(resumeOf(Frames, S, T));
    if (Op == WarpOp::MbarrierWait) {
      // The lane runs on (and tests the object itself) once its phase is
      // over; the object is in this block's shared memory.
      const WarpExchange &X = exchange(Frames, FB, T);
      if (mbarrier::phaseCompleted(*reinterpret_cast<const uint64_t *>(X.Value),
                                   X.B)) {
        stateOf(Frames, S, T) = LaneRunnable;
        Progress = true;
      } else {
        ++MbarrierBlocked;
      }
      continue;
    }
    if (Op != WarpOp::BarArrive && Op != WarpOp::BarSyncCount &&
        !isBarRed(Op))
      continue;
    WarpExchange &X = exchange(Frames, FB, T);
    uint32_t Id = X.Mask % NumNamedBarriers;
    if (Op == WarpOp::BarArrive) {
      // Arriving never waits: count it and let the lane run on.
      if (Counters)
        ++Counters[Id];
      stateOf(Frames, S, T) = LaneRunnable;
      Progress = true;
    } else {
      ++NamedWaiting[Id];
      NamedCount[Id] = X.B;
      AnyNamed = true;
    }
  }
  if (Running == 0)
    return 1;
  if (AnyNamed) {
    for (unsigned Id = 0; Id < NumNamedBarriers; ++Id) {
      if (!NamedWaiting[Id])
        continue;
      // A count of 0 (bar.red without one) means the whole block.
      uint32_t Expected = NamedCount[Id] ? NamedCount[Id] : Running;
      uint32_t Arrived = NamedWaiting[Id] + (Counters ? Counters[Id] : 0);
      if (Arrived < Expected)
        continue;
      auto waitsHere = [&](uint32_t T) {
        if (stateOf(Frames, S, T) != LaneAtBarrier)
          return false;
        WarpOp Op = opAt(resumeOf(Frames, S, T));
        return (Op == WarpOp::BarSyncCount || isBarRed(Op)) &&
               exchange(Frames, FB, T).Mask % NumNamedBarriers == Id;
      };
      // bar.red: every waiting thread gets the reduction of their
      // predicates.
      uint32_t True = 0, Waiting = 0;
      WarpOp RedOp = WarpOp::None;
      for (uint32_t T = 0; T < Threads; ++T)
        if (waitsHere(T)) {
          ++Waiting;
          True += exchange(Frames, FB, T).Value & 1;
          if (isBarRed(opAt(resumeOf(Frames, S, T))))
            RedOp = opAt(resumeOf(Frames, S, T));
        }
      uint64_t R = RedOp == WarpOp::BarRedPopc  ? True
                   : RedOp == WarpOp::BarRedAnd ? uint64_t(True == Waiting)
                                                : uint64_t(True != 0);
      for (uint32_t T = 0; T < Threads; ++T)
        if (waitsHere(T)) {
          if (RedOp != WarpOp::None)
            exchange(Frames, FB, T).Result = R;
          stateOf(Frames, S, T) = LaneRunnable;
        }
      if (Counters)
        Counters[Id] = 0;
      Progress = true;
    }
  }
  uint32_t *Stalls = Counters ? &Counters[NumNamedBarriers] : nullptr;
  if (Progress) {
    if (Stalls)
      *Stalls = 0;
    return 0;
  }

  if (!AnyNamed && !MbarrierBlocked && !AtWarpOp) {
    // An ordinary barrier: every running lane must wait at the same one.
    uint32_t Barrier = 0;
    bool Any = false;
    for (uint32_t T = 0; T < Threads; ++T) {
      if (stateOf(Frames, S, T) != LaneAtBarrier)
        continue;
      uint32_t R = resumeOf(Frames, S, T);
      if (Any && R != Barrier)
        return 2;
      Any = true;
      Barrier = R;
    }
    for (uint32_t T = 0; T < Threads; ++T)
      if (stateOf(Frames, S, T) == LaneAtBarrier)
        stateOf(Frames, S, T) = LaneRunnable;
    if (Stalls)
      *Stalls = 0;
    return 0;
  }
  if (!MbarrierBlocked)
    return 2; // named barriers that will never fill, or a stuck collective
  // Nothing can run, and some lanes wait for mbarrier phases: let them test
  // once more (the test fails, as a try_wait that timed out), so that code
  // which then does something else goes on. Lanes that just wait again
  // come back here; after MaxMbarrierStalls such rounds the block hangs.
  if (!Stalls || *Stalls >= MaxMbarrierStalls)
    return 3;
  ++*Stalls;
  for (uint32_t T = 0; T < Threads; ++T)
    if (stateOf(Frames, S, T) == LaneAtBarrier &&
        opAt(resumeOf(Frames, S, T)) == WarpOp::MbarrierWait)
      stateOf(Frames, S, T) = LaneRunnable;
  return 0;
}

extern "C" uint64_t cuhip_globaltimer(void) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

} // namespace cuhip::ptx::host
