//===- Matmul.cpp - cublasLtMatmul on the host: engine GEMM + epilogue ----===//
//
// A matmul without per-element work goes to the engine as one GEMM over the
// column-major view of the operands (a row-ordered matrix is the transpose
// of a column-major one, so orders become transposes, and a row-ordered D
// is computed as D^T = op(B)^T op(A)^T). With an epilogue the engine writes
// alpha*op(A)op(B) into a column-major f32 scratch matrix and one pass here
// adds beta*C and the bias, stores the auxiliary matrix, applies the
// activation or its gradient and reduces the bias gradient, reading and
// writing every matrix in its own type and order.
//
//===----------------------------------------------------------------------===//
#include "Matmul.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace cuhip::blaslt {

using blas::DType;
using blas::Op;

namespace {

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H >> 15) << 31;
  uint32_t Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  uint32_t Bits;
  if (Exp == 0x1f) {
    Bits = Sign | 0x7f800000u | (Man << 13);
  } else if (Exp != 0) {
    Bits = Sign | ((Exp + 112) << 23) | (Man << 13);
  } else if (Man == 0) {
    Bits = Sign;
  } else { // subnormal half: a normal float
    int Shift = 0;
    while (!(Man & 0x400)) {
      Man <<= 1;
      ++Shift;
    }
    Bits = Sign | (uint32_t(113 - Shift) << 23) | ((Man & 0x3ff) << 13);
  }
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

uint16_t floatToHalf(float F) { // round to nearest even
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  uint16_t Sign = uint16_t((Bits >> 16) & 0x8000);
  uint32_t Abs = Bits & 0x7fffffffu;
  if (Abs >= 0x7f800000u) // inf, nan
    return Sign | 0x7c00 | (Abs > 0x7f800000u ? 0x200 : 0);
  if (Abs >= 0x477ff000u) // rounds past 65504
    return Sign | 0x7c00;
  if (Abs < 0x38800000u) { // below the smallest normal half: subnormal
    if (Abs < 0x33000001u)
      return Sign;
    // value = Man * 2^(Exp-150); the half's unit here is 2^-24.
    uint32_t Exp = Abs >> 23, Man = (Abs & 0x7fffff) | 0x800000;
    uint32_t S = 126 - Exp; // 14..24
    uint32_t Q = Man >> S, Rem = Man & ((1u << S) - 1), HalfWay = 1u << (S - 1);
    if (Rem > HalfWay || (Rem == HalfWay && (Q & 1)))
      ++Q;
    return Sign | uint16_t(Q);
  }
  uint32_t R = Abs + 0xfff + ((Abs >> 13) & 1);
  return Sign | uint16_t(((R >> 13) - (112 << 10)) & 0x7fff);
}

float bf16ToFloat(uint16_t H) {
  uint32_t Bits = uint32_t(H) << 16;
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

uint16_t floatToBf16(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  if ((Bits & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((Bits >> 16) | 0x40);
  Bits += 0x7fff + ((Bits >> 16) & 1);
  return uint16_t(Bits >> 16);
}

Op flip(Op O) { return O == Op::N ? Op::T : Op::N; }

/// The transpose the engine applies to M's column-major storage so that it
/// reads op(M) where Want is the program's op.
Op engineOp(const MatrixRef &M, Op Want) {
  return M.RowMajor ? flip(Want) : Want;
}

float readScalar(const MatmulProblem &P, const void *Ptr, double Captured) {
  if (!P.ScalarsOnDevice)
    return float(Captured);
  if (P.ScaleF64)
    return float(*static_cast<const double *>(Ptr));
  return *static_cast<const float *>(Ptr);
}

char *byteAt(const void *Base, DType T, int64_t Elements) {
  size_t Size = T == DType::F64 ? 8 : (T == DType::F16 || T == DType::BF16) ? 2 : 4;
  return const_cast<char *>(static_cast<const char *>(Base)) + Elements * int64_t(Size);
}

/// D = alpha*op(A)op(B) + beta*C straight through the engine.
void gemmDirect(const MatmulProblem &P) {
  blas::GemmDesc G;
  G.K = P.K;
  G.ComputeType = P.ComputeType;
  G.BatchCount = P.BatchCount;
  G.C = P.C.Ptr ? P.C.Ptr : P.DOut;
  G.D = P.DOut;
  G.TypeC = P.C.Ptr ? P.C.Type : P.D.Type;
  G.TypeD = P.D.Type;
  G.Ldc = P.C.Ptr ? P.C.Ld : P.D.Ld;
  G.Ldd = P.D.Ld;
  G.StrideC = P.C.Ptr ? P.C.BatchStride : P.D.BatchStride;
  G.StrideD = P.D.BatchStride;
  const MatrixRef *X = &P.A, *Y = &P.B;
  Op OpX = engineOp(P.A, P.TransA), OpY = engineOp(P.B, P.TransB);
  G.M = P.M;
  G.N = P.N;
  if (P.D.RowMajor) { // D^T = op(B)^T op(A)^T, all column-major
    std::swap(X, Y);
    OpX = flip(engineOp(P.B, P.TransB));
    OpY = flip(engineOp(P.A, P.TransA));
    G.M = P.N;
    G.N = P.M;
  }
  G.TransA = OpX;
  G.TransB = OpY;
  G.A = X->Ptr;
  G.B = Y->Ptr;
  G.TypeA = X->Type;
  G.TypeB = Y->Type;
  G.Lda = X->Ld;
  G.Ldb = Y->Ld;
  G.StrideA = X->BatchStride;
  G.StrideB = Y->BatchStride;
  if (P.ComputeType == blas::Compute::F64) {
    double Alpha = P.ScalarsOnDevice ? *static_cast<const double *>(P.AlphaPtr)
                                     : P.Alpha;
    double Beta = P.ScalarsOnDevice ? *static_cast<const double *>(P.BetaPtr)
                                    : P.Beta;
    G.Alpha = &Alpha;
    G.Beta = &Beta;
    blas::gemmOnHost(G);
    return;
  }
  float Alpha = readScalar(P, P.AlphaPtr, P.Alpha);
  float Beta = readScalar(P, P.BetaPtr, P.Beta);
  G.Alpha = &Alpha;
  G.Beta = &Beta;
  blas::gemmOnHost(G);
}

/// Scratch (column-major M x N f32 per batch entry) = alpha*op(A)op(B).
void gemmToScratch(const MatmulProblem &P, float Alpha, float *Scratch) {
  blas::GemmDesc G;
  G.TransA = engineOp(P.A, P.TransA);
  G.TransB = engineOp(P.B, P.TransB);
  G.M = P.M;
  G.N = P.N;
  G.K = P.K;
  G.TypeA = P.A.Type;
  G.TypeB = P.B.Type;
  G.TypeC = G.TypeD = DType::F32;
  G.ComputeType = blas::Compute::F32;
  G.A = P.A.Ptr;
  G.B = P.B.Ptr;
  G.C = G.D = Scratch;
  G.Lda = P.A.Ld;
  G.Ldb = P.B.Ld;
  G.Ldc = G.Ldd = P.M;
  G.BatchCount = P.BatchCount;
  G.StrideA = P.A.BatchStride;
  G.StrideB = P.B.BatchStride;
  G.StrideC = G.StrideD = P.M * P.N;
  float Zero = 0;
  G.Alpha = &Alpha;
  G.Beta = &Zero;
  blas::gemmOnHost(G);
}

void epilogue(const MatmulProblem &P, const float *Scratch, float Beta) {
  const EpilogueOps &E = P.Ops;
  std::vector<float> Grad;
  for (int64_t Bt = 0; Bt < P.BatchCount; ++Bt) {
    const float *S = Scratch + Bt * P.M * P.N;
    const char *C = P.C.Ptr && Beta != 0
                        ? byteAt(P.C.Ptr, P.C.Type, Bt * P.C.BatchStride)
                        : nullptr;
    char *D = byteAt(P.DOut, P.D.Type, Bt * P.D.BatchStride);
    char *Bias = P.Bias ? byteAt(P.Bias, P.BiasType, Bt * P.BiasBatchStride)
                        : nullptr;
    char *Aux = P.Aux.Ptr ? byteAt(P.Aux.Ptr, P.Aux.Type, Bt * P.Aux.BatchStride)
                          : nullptr;
    if (E.BiasGradD)
      Grad.assign(P.M, 0.0f);
    for (int64_t J = 0; J < P.N; ++J) {
      for (int64_t I = 0; I < P.M; ++I) {
        float X = S[I + J * P.M];
        if (C)
          X += Beta * loadElement(C, P.C.Type, P.C.offset(I, J));
        if (E.AddBias)
          X += loadElement(Bias, P.BiasType, I);
        if (E.StoreAux)
          storeElement(Aux, P.Aux.Type, P.Aux.offset(I, J), X);
        if (E.Relu)
          X = X > 0 ? X : 0;
        if (E.Gelu)
          X = geluTanh(X);
        if (E.DGelu)
          X *= geluTanhGrad(loadElement(Aux, P.Aux.Type, P.Aux.offset(I, J)));
        if (E.BiasGradD)
          Grad[I] += X;
        storeElement(D, P.D.Type, P.D.offset(I, J), X);
      }
    }
    if (E.BiasGradD)
      for (int64_t I = 0; I < P.M; ++I)
        storeElement(Bias, P.BiasType, I, Grad[I]);
  }
}

/// BGRADA: bias[i] = sum_k op(A)[i,k]; BGRADB: bias[j] = sum_k op(B)[k,j].
void inputBiasGradient(const MatmulProblem &P) {
  bool FromA = P.Ops.BiasGradA;
  const MatrixRef &X = FromA ? P.A : P.B;
  Op Trans = FromA ? P.TransA : P.TransB;
  int64_t Len = FromA ? P.M : P.N;
  std::vector<double> Sum;
  for (int64_t Bt = 0; Bt < P.BatchCount; ++Bt) {
    const char *Base = byteAt(X.Ptr, X.Type, Bt * X.BatchStride);
    Sum.assign(Len, 0.0);
    for (int64_t L = 0; L < Len; ++L)
      for (int64_t K = 0; K < P.K; ++K) {
        // op(A)[L,K] or op(B)[K,L] in terms of the stored matrix.
        int64_t R, C;
        if (FromA) {
          R = Trans == Op::N ? L : K;
          C = Trans == Op::N ? K : L;
        } else {
          R = Trans == Op::N ? K : L;
          C = Trans == Op::N ? L : K;
        }
        Sum[L] += loadElement(Base, X.Type, X.offset(R, C));
      }
    char *Bias = byteAt(P.Bias, P.BiasType, Bt * P.BiasBatchStride);
    for (int64_t L = 0; L < Len; ++L)
      storeElement(Bias, P.BiasType, L, float(Sum[L]));
  }
}

} // namespace

bool decodeEpilogue(uint32_t Epilogue, EpilogueOps &Out) {
  Out = EpilogueOps();
  switch (Epilogue) {
  case CUBLASLT_EPILOGUE_DEFAULT:
    return true;
  case CUBLASLT_EPILOGUE_RELU:
    Out.Relu = true;
    return true;
  case CUBLASLT_EPILOGUE_BIAS:
    Out.AddBias = true;
    return true;
  case CUBLASLT_EPILOGUE_RELU_BIAS:
    Out.Relu = Out.AddBias = true;
    return true;
  case CUBLASLT_EPILOGUE_GELU:
    Out.Gelu = true;
    return true;
  case CUBLASLT_EPILOGUE_GELU_AUX:
    Out.Gelu = Out.StoreAux = true;
    return true;
  case CUBLASLT_EPILOGUE_GELU_BIAS:
    Out.Gelu = Out.AddBias = true;
    return true;
  case CUBLASLT_EPILOGUE_GELU_AUX_BIAS:
    Out.Gelu = Out.StoreAux = Out.AddBias = true;
    return true;
  case CUBLASLT_EPILOGUE_DGELU:
    Out.DGelu = true;
    return true;
  case CUBLASLT_EPILOGUE_DGELU_BGRAD:
    Out.DGelu = Out.BiasGradD = true;
    return true;
  case CUBLASLT_EPILOGUE_BGRADA:
    Out.BiasGradA = true;
    return true;
  case CUBLASLT_EPILOGUE_BGRADB:
    Out.BiasGradB = true;
    return true;
  default: // RELU_AUX, RELU_AUX_BIAS, DRELU, DRELU_BGRAD: bit masks
    return false;
  }
}

float geluTanh(float X) {
  const float Scale = 0.7978845608028654f; // sqrt(2/pi)
  float U = Scale * (X + 0.044715f * X * X * X);
  return 0.5f * X * (1.0f + std::tanh(U));
}

float geluTanhGrad(float X) {
  const float Scale = 0.7978845608028654f;
  float U = Scale * (X + 0.044715f * X * X * X);
  float T = std::tanh(U);
  float DU = Scale * (1.0f + 3.0f * 0.044715f * X * X);
  return 0.5f * (1.0f + T) + 0.5f * X * (1.0f - T * T) * DU;
}

float loadElement(const void *Base, DType T, int64_t Index) {
  switch (T) {
  case DType::F16:
    return halfToFloat(static_cast<const uint16_t *>(Base)[Index]);
  case DType::BF16:
    return bf16ToFloat(static_cast<const uint16_t *>(Base)[Index]);
  case DType::F64:
    return float(static_cast<const double *>(Base)[Index]);
  default:
    return static_cast<const float *>(Base)[Index];
  }
}

void storeElement(void *Base, DType T, int64_t Index, float V) {
  switch (T) {
  case DType::F16:
    static_cast<uint16_t *>(Base)[Index] = floatToHalf(V);
    return;
  case DType::BF16:
    static_cast<uint16_t *>(Base)[Index] = floatToBf16(V);
    return;
  case DType::F64:
    static_cast<double *>(Base)[Index] = V;
    return;
  default:
    static_cast<float *>(Base)[Index] = V;
  }
}

void runOnHost(const MatmulProblem &P) {
  if (P.M == 0 || P.N == 0)
    return;
  // The engine writes D itself when nothing is done per element and C (if
  // read) is stored in D's order; otherwise the epilogue pass writes D.
  bool Direct = !P.Ops.elementwise() && (!P.C.Ptr || P.C.RowMajor == P.D.RowMajor);
  if (Direct) {
    gemmDirect(P);
  } else {
    float Alpha = readScalar(P, P.AlphaPtr, P.Alpha);
    float Beta = readScalar(P, P.BetaPtr, P.Beta);
    std::vector<float> Scratch(size_t(P.M * P.N * P.BatchCount));
    gemmToScratch(P, Alpha, Scratch.data());
    epilogue(P, Scratch.data(), Beta);
  }
  if (P.Ops.BiasGradA || P.Ops.BiasGradB)
    inputBiasGradient(P);
}

} // namespace cuhip::blaslt
