//===- Gemm.cpp - GEMM on the host with OpenBLAS, and its dispatch --------===//
//
// f32 and f64 GEMMs go to cblas_sgemm/cblas_dgemm on the caller's memory
// with no copies, one call per batch entry: that is what makes cuhip's
// cuBLAS as fast as OpenBLAS on the CPU backend. Other real types are
// widened to f32 (or f64) block by block, multiplied by the same routines
// and narrowed to the output type with round to nearest even, so the
// memory used stays bounded whatever the matrix sizes. gemm() puts the
// work on the stream's order: a host function on the CPU backend, rocBLAS
// on the HIP backend.
//
//===----------------------------------------------------------------------===//
#include "Gemm.h"
#include "HostJob.h"

#include "cuhip/runtime/Log.h"
#include "cuhip/runtime/Runtime.h"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace cuhip::blas {

namespace {

/// Rows and columns of the matrix op(X) is taken from.
inline int64_t storedRows(Op T, int64_t OpRows, int64_t OpCols) {
  return T == Op::N ? OpRows : OpCols;
}

CBLAS_TRANSPOSE cblasOp(Op T) {
  return T == Op::N ? CblasNoTrans : CblasTrans; // real types only
}

double readScalar(Compute C, const void *P) {
  switch (C) {
  case Compute::F16: {
    uint16_t H;
    std::memcpy(&H, P, 2);
    return halfToFloat(H);
  }
  case Compute::F64: {
    double D;
    std::memcpy(&D, P, 8);
    return D;
  }
  case Compute::I32: {
    int32_t I;
    std::memcpy(&I, P, 4);
    return I;
  }
  case Compute::F32:
    break;
  }
  float F;
  std::memcpy(&F, P, 4);
  return F;
}

template <typename T> T load(DType Type, const void *Base, int64_t Index) {
  switch (Type) {
  case DType::F32:
    return static_cast<T>(static_cast<const float *>(Base)[Index]);
  case DType::F64:
    return static_cast<T>(static_cast<const double *>(Base)[Index]);
  case DType::F16:
    return static_cast<T>(halfToFloat(static_cast<const uint16_t *>(Base)[Index]));
  case DType::BF16:
    return static_cast<T>(bf16ToFloat(static_cast<const uint16_t *>(Base)[Index]));
  default:
    return T(0);
  }
}

template <typename T> void store(DType Type, void *Base, int64_t Index, T V) {
  switch (Type) {
  case DType::F32:
    static_cast<float *>(Base)[Index] = static_cast<float>(V);
    break;
  case DType::F64:
    static_cast<double *>(Base)[Index] = static_cast<double>(V);
    break;
  case DType::F16:
    static_cast<uint16_t *>(Base)[Index] = floatToHalf(static_cast<float>(V));
    break;
  case DType::BF16:
    static_cast<uint16_t *>(Base)[Index] = floatToBf16(static_cast<float>(V));
    break;
  default:
    break;
  }
}

/// Copies the Rows x Cols block at (Row0, Col0) of a column-major matrix of
/// Type into Out (tight, column-major), widened to T.
template <typename T>
void widenBlock(DType Type, const void *Base, int64_t Ld, int64_t Row0,
                int64_t Col0, int64_t Rows, int64_t Cols, T *Out) {
  for (int64_t J = 0; J < Cols; ++J) {
    int64_t Col = (Col0 + J) * Ld + Row0;
    T *O = Out + J * Rows;
    if (Type == DType::F16) {
      const uint16_t *S = static_cast<const uint16_t *>(Base) + Col;
      for (int64_t I = 0; I < Rows; ++I)
        O[I] = static_cast<T>(halfToFloat(S[I]));
    } else if (Type == DType::BF16) {
      const uint16_t *S = static_cast<const uint16_t *>(Base) + Col;
      for (int64_t I = 0; I < Rows; ++I)
        O[I] = static_cast<T>(bf16ToFloat(S[I]));
    } else {
      for (int64_t I = 0; I < Rows; ++I)
        O[I] = load<T>(Type, Base, Col + I);
    }
  }
}

template <typename T>
void blasGemm(Op TA, Op TB, int64_t M, int64_t N, int64_t K, T Alpha,
              const T *A, int64_t Lda, const T *B, int64_t Ldb, T Beta, T *C,
              int64_t Ldc) {
  if constexpr (sizeof(T) == 4)
    cblas_sgemm(CblasColMajor, cblasOp(TA), cblasOp(TB), M, N, K, Alpha, A,
                Lda, B, Ldb, Beta, C, Ldc);
  else
    cblas_dgemm(CblasColMajor, cblasOp(TA), cblasOp(TB), M, N, K, Alpha, A,
                Lda, B, Ldb, Beta, C, Ldc);
}

/// One batch entry of a GEMM whose types are all T (f32 or f64): straight
/// to BLAS on the caller's memory. C is copied into D first when they
/// differ (cuBLASLt's out-of-place form) and beta reads it.
template <typename T>
void directGemm(const GemmDesc &G, double Alpha, double Beta, const void *A,
                const void *B, const void *C, void *D) {
  if (C != D && Beta != 0.0) {
    for (int64_t J = 0; J < G.N; ++J)
      std::memmove(static_cast<T *>(D) + J * G.Ldd,
                   static_cast<const T *>(C) + J * G.Ldc, G.M * sizeof(T));
  }
  blasGemm<T>(G.TransA, G.TransB, G.M, G.N, G.K, static_cast<T>(Alpha),
              static_cast<const T *>(A), G.Lda, static_cast<const T *>(B),
              G.Ldb, static_cast<T>(Beta), static_cast<T *>(D), G.Ldd);
}

int64_t ConversionBudget = 32 << 20;

/// One batch entry with any real types, computed in T: blocks of D are
/// computed from widened blocks of op(A) (BlockM x K) and op(B) (K x
/// BlockN), so the scratch memory stays within a fixed budget (beyond it
/// only for K so large that 256 rows exceed it).
template <typename T>
void convertedGemm(const GemmDesc &G, double Alpha, double Beta, const void *A,
                   const void *B, const void *C, void *D) {
  // Blocks as large as a scratch budget allows: OpenBLAS runs best on
  // whole matrices, and each block of op(B) is widened once per block of
  // rows. At least 256 rows and columns, so the widening (O(MK + KN*M/
  // BlockM)) stays small against the 2MNK multiply even for a huge K.
  const int64_t Budget = ConversionBudget; // bytes per scratch buffer
  const int64_t Elem = sizeof(T);
  const int64_t BlockM =
      std::min(G.M, std::max<int64_t>(256, Budget / (Elem * std::max<int64_t>(1, G.K))));
  const int64_t BlockN = std::min(
      G.N, std::max<int64_t>(256, Budget / (Elem * (std::max<int64_t>(1, G.K) + BlockM))));
  // Kept per thread between calls: fresh pages for every GEMM would cost
  // page faults comparable to the widening itself.
  thread_local std::vector<T> ABuf, BBuf, CBuf;
  for (int64_t M0 = 0; M0 < G.M; M0 += BlockM) {
    int64_t Mb = std::min(BlockM, G.M - M0);
    // op(A) rows M0..M0+Mb: stored rows (N) or stored columns (T).
    ABuf.resize(Mb * G.K);
    if (G.TransA == Op::N)
      widenBlock<T>(G.TypeA, A, G.Lda, M0, 0, Mb, G.K, ABuf.data());
    else
      widenBlock<T>(G.TypeA, A, G.Lda, 0, M0, G.K, Mb, ABuf.data());
    int64_t LdA = G.TransA == Op::N ? Mb : G.K;
    for (int64_t N0 = 0; N0 < G.N; N0 += BlockN) {
      int64_t Nb = std::min(BlockN, G.N - N0);
      BBuf.resize(G.K * Nb);
      if (G.TransB == Op::N)
        widenBlock<T>(G.TypeB, B, G.Ldb, 0, N0, G.K, Nb, BBuf.data());
      else
        widenBlock<T>(G.TypeB, B, G.Ldb, N0, 0, Nb, G.K, BBuf.data());
      int64_t LdB = G.TransB == Op::N ? G.K : Nb;
      CBuf.resize(Mb * Nb);
      if (Beta != 0.0)
        widenBlock<T>(G.TypeC, C, G.Ldc, M0, N0, Mb, Nb, CBuf.data());
      blasGemm<T>(G.TransA, G.TransB, Mb, Nb, G.K, static_cast<T>(Alpha),
                  ABuf.data(), std::max<int64_t>(1, LdA), BBuf.data(),
                  std::max<int64_t>(1, LdB), static_cast<T>(Beta),
                  CBuf.data(), Mb);
      for (int64_t J = 0; J < Nb; ++J)
        for (int64_t I = 0; I < Mb; ++I)
          store<T>(G.TypeD, D, (N0 + J) * G.Ldd + M0 + I, CBuf[J * Mb + I]);
    }
  }
}

const char *elementAt(const void *Base, int64_t Stride, int64_t Batch,
                      DType T) {
  return static_cast<const char *>(Base) + Batch * Stride * dtypeSize(T);
}

bool isRealFloat(DType T) {
  return T == DType::F32 || T == DType::F64 || T == DType::F16 ||
         T == DType::BF16;
}

} // namespace

void setConversionBudget(int64_t Bytes) {
  ConversionBudget = Bytes > 0 ? Bytes : 32 << 20;
}

bool gemmSupported(const GemmDesc &G, const char **Why) {
  const char *Reason = nullptr;
  if (!isRealFloat(G.TypeA) || !isRealFloat(G.TypeB) ||
      !isRealFloat(G.TypeC) || !isRealFloat(G.TypeD))
    Reason = "integer and complex GEMMs are not implemented; use f32, f64, "
             "f16 or bf16 matrices";
  else if (G.ComputeType == Compute::I32)
    Reason = "the 32I compute type is only for integer GEMMs, which are not "
             "implemented";
  else if (G.ComputeType == Compute::F64 &&
           (G.TypeA != DType::F64 || G.TypeB != DType::F64 ||
            G.TypeC != DType::F64))
    Reason = "the 64F compute type needs f64 matrices";
  else if (G.ComputeType != Compute::F64 &&
           (G.TypeA == DType::F64 || G.TypeB == DType::F64 ||
            G.TypeC == DType::F64))
    Reason = "f64 matrices need the 64F compute type";
  else if (std::max({G.M, G.N, G.K, G.Lda, G.Ldb, G.Ldc, G.Ldd}) > INT32_MAX)
    Reason = "sizes and leading dimensions beyond 2^31-1 are not implemented "
             "(OpenBLAS takes 32-bit sizes)";
  if (Why)
    *Why = Reason;
  return Reason == nullptr;
}

void gemmOnHost(const GemmDesc &G) {
  if (G.M <= 0 || G.N <= 0 || G.BatchCount <= 0)
    return;
  double Alpha = readScalar(G.ComputeType, G.Alpha);
  double Beta = readScalar(G.ComputeType, G.Beta);
  bool AllF32 = G.TypeA == DType::F32 && G.TypeB == DType::F32 &&
                G.TypeC == DType::F32 && G.TypeD == DType::F32 &&
                G.ComputeType != Compute::F16;
  bool AllF64 = G.TypeA == DType::F64 && G.TypeB == DType::F64 &&
                G.TypeC == DType::F64 && G.TypeD == DType::F64;
  for (int64_t I = 0; I < G.BatchCount; ++I) {
    const void *A, *B, *C;
    void *D;
    if (G.AArray) {
      A = G.AArray[I];
      B = G.BArray[I];
      C = G.CArray ? G.CArray[I] : G.DArray[I];
      D = G.DArray[I];
    } else {
      A = elementAt(G.A, G.StrideA, I, G.TypeA);
      B = elementAt(G.B, G.StrideB, I, G.TypeB);
      C = G.C ? elementAt(G.C, G.StrideC, I, G.TypeC) : nullptr;
      D = const_cast<char *>(elementAt(G.D, G.StrideD, I, G.TypeD));
      if (!C)
        C = D;
    }
    if (AllF32)
      directGemm<float>(G, Alpha, Beta, A, B, C, D);
    else if (AllF64)
      directGemm<double>(G, Alpha, Beta, A, B, C, D);
    else if (G.ComputeType == Compute::F64)
      convertedGemm<double>(G, Alpha, Beta, A, B, C, D);
    else
      convertedGemm<float>(G, Alpha, Beta, A, B, C, D);
  }
}

namespace {

/// A GEMM waiting on its stream. Host-mode scalars are copied when the
/// call is made (cuBLAS lets the caller reuse them at once); device-mode
/// ones are read when the GEMM runs.
struct GemmJob {
  GemmDesc Desc;
  alignas(8) unsigned char AlphaValue[8], BetaValue[8];
  bool OneShot = true;
};

void runGemmJob(void *P) {
  auto *J = static_cast<GemmJob *>(P);
  gemmOnHost(J->Desc);
  if (J->OneShot)
    delete J;
}

unsigned scalarSize(Compute C) {
  return C == Compute::F16 ? 2 : C == Compute::F64 ? 8 : 4;
}

} // namespace

int gemm(const GemmDesc &Desc, void *Stream) {
  return runAlphaBetaJob<GemmJob>(Desc, Stream, scalarSize(Desc.ComputeType),
                                  rocblas::gemm, runGemmJob);
}

} // namespace cuhip::blas
