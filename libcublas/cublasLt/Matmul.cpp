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

Op flip(Op O) { return O == Op::N ? Op::T : Op::N; }

/// The transpose the engine applies to M's column-major storage so that it
/// reads op(M) where Want is the program's op.
Op engineOp(const MatrixRef &M, Op Want) {
  return M.RowMajor ? flip(Want) : Want;
}

/// A scalar as the engine reads it for P's compute type: the value captured
/// at the call (host pointer mode) or the one in device memory now.
struct Scalar {
  alignas(8) unsigned char Bytes[8];
};
Scalar engineScalar(const MatmulProblem &P, const void *Ptr, double Captured) {
  Scalar S;
  if (P.ScalarsOnDevice) {
    std::memcpy(S.Bytes, Ptr, P.ComputeType == blas::Compute::F64   ? 8
                              : P.ComputeType == blas::Compute::F16 ? 2
                                                                   : 4);
    return S;
  }
  if (P.ComputeType == blas::Compute::F64) {
    std::memcpy(S.Bytes, &Captured, 8);
  } else if (P.ComputeType == blas::Compute::F16) {
    uint16_t H = blas::floatToHalf(float(Captured));
    std::memcpy(S.Bytes, &H, 2);
  } else {
    float F = float(Captured);
    std::memcpy(S.Bytes, &F, 4);
  }
  return S;
}

/// Alpha or beta as a float, for the f32 epilogue path.
float readScalar(const MatmulProblem &P, const void *Ptr, double Captured) {
  if (!P.ScalarsOnDevice)
    return float(Captured);
  return *static_cast<const float *>(Ptr);
}

char *byteAt(const void *Base, DType T, int64_t Elements) {
  return const_cast<char *>(static_cast<const char *>(Base)) +
         Elements * int64_t(blas::dtypeSize(T));
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
  Scalar Alpha = engineScalar(P, P.AlphaPtr, P.Alpha);
  Scalar Beta = engineScalar(P, P.BetaPtr, P.Beta);
  G.Alpha = Alpha.Bytes;
  G.Beta = Beta.Bytes;
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

/// Reads N elements of type T, Step apart from Base[First], as floats.
void loadStrided(const void *Base, DType T, int64_t First, int64_t Step,
                 int64_t N, float *Out) {
  switch (T) {
  case DType::F16: {
    const uint16_t *P = static_cast<const uint16_t *>(Base) + First;
    for (int64_t I = 0; I < N; ++I)
      Out[I] = blas::halfToFloat(P[I * Step]);
    return;
  }
  case DType::BF16: {
    const uint16_t *P = static_cast<const uint16_t *>(Base) + First;
    for (int64_t I = 0; I < N; ++I)
      Out[I] = blas::bf16ToFloat(P[I * Step]);
    return;
  }
  default: {
    const float *P = static_cast<const float *>(Base) + First;
    for (int64_t I = 0; I < N; ++I)
      Out[I] = P[I * Step];
    return;
  }
  }
}

/// Writes N floats as elements of type T, Step apart from Base[First].
void storeStrided(void *Base, DType T, int64_t First, int64_t Step, int64_t N,
                  const float *In) {
  switch (T) {
  case DType::F16: {
    uint16_t *P = static_cast<uint16_t *>(Base) + First;
    for (int64_t I = 0; I < N; ++I)
      P[I * Step] = blas::floatToHalf(In[I]);
    return;
  }
  case DType::BF16: {
    uint16_t *P = static_cast<uint16_t *>(Base) + First;
    for (int64_t I = 0; I < N; ++I)
      P[I * Step] = blas::floatToBf16(In[I]);
    return;
  }
  default: {
    float *P = static_cast<float *>(Base) + First;
    for (int64_t I = 0; I < N; ++I)
      P[I * Step] = In[I];
    return;
  }
  }
}

/// Where column J of M starts and how far apart its rows are.
int64_t columnStart(const MatrixRef &M, int64_t J) { return M.offset(0, J); }
int64_t rowStep(const MatrixRef &M) { return M.RowMajor ? M.Ld : 1; }

/// The per-element pass, one column of D at a time: the column of x (the
/// scratch plus beta*C plus the bias), then the auxiliary output, the
/// activation or its gradient, the bias gradient and D.
void epilogue(const MatmulProblem &P, const float *Scratch, float Beta) {
  const EpilogueOps &E = P.Ops;
  std::vector<float> Grad, BiasValues(size_t(P.M)), Column(size_t(P.M)),
      Other(size_t(P.M));
  float *X = Column.data();
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
    if (E.AddBias)
      loadStrided(Bias, P.BiasType, 0, 1, P.M, BiasValues.data());
    if (E.BiasGradD)
      Grad.assign(P.M, 0.0f);
    for (int64_t J = 0; J < P.N; ++J) {
      std::memcpy(X, S + J * P.M, sizeof(float) * P.M);
      if (C) {
        loadStrided(C, P.C.Type, columnStart(P.C, J), rowStep(P.C), P.M,
                    Other.data());
        for (int64_t I = 0; I < P.M; ++I)
          X[I] += Beta * Other[I];
      }
      if (E.AddBias)
        for (int64_t I = 0; I < P.M; ++I)
          X[I] += BiasValues[I];
      if (E.StoreAux)
        storeStrided(Aux, P.Aux.Type, columnStart(P.Aux, J), rowStep(P.Aux),
                     P.M, X);
      if (E.Relu)
        for (int64_t I = 0; I < P.M; ++I)
          X[I] = X[I] > 0 ? X[I] : 0;
      if (E.Gelu)
        for (int64_t I = 0; I < P.M; ++I)
          X[I] = geluTanh(X[I]);
      if (E.DGelu) {
        loadStrided(Aux, P.Aux.Type, columnStart(P.Aux, J), rowStep(P.Aux),
                    P.M, Other.data());
        for (int64_t I = 0; I < P.M; ++I)
          X[I] *= geluTanhGrad(Other[I]);
      }
      if (E.BiasGradD)
        for (int64_t I = 0; I < P.M; ++I)
          Grad[I] += X[I];
      storeStrided(D, P.D.Type, columnStart(P.D, J), rowStep(P.D), P.M, X);
    }
    if (E.BiasGradD)
      storeStrided(Bias, P.BiasType, 0, 1, P.M, Grad.data());
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
    return blas::halfToFloat(static_cast<const uint16_t *>(Base)[Index]);
  case DType::BF16:
    return blas::bf16ToFloat(static_cast<const uint16_t *>(Base)[Index]);
  case DType::F64:
    return float(static_cast<const double *>(Base)[Index]);
  default:
    return static_cast<const float *>(Base)[Index];
  }
}

void storeElement(void *Base, DType T, int64_t Index, float V) {
  switch (T) {
  case DType::F16:
    static_cast<uint16_t *>(Base)[Index] = blas::floatToHalf(V);
    return;
  case DType::BF16:
    static_cast<uint16_t *>(Base)[Index] = blas::floatToBf16(V);
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
    // Kept per thread and only grown: a training step runs the same shapes
    // over and over, and a fresh buffer would be zero-filled each time.
    thread_local std::vector<float> Scratch;
    size_t Need = size_t(P.M * P.N * P.BatchCount);
    if (Scratch.size() < Need)
      Scratch.resize(Need);
    gemmToScratch(P, Alpha, Scratch.data());
    epilogue(P, Scratch.data(), Beta);
  }
  if (P.Ops.BiasGradA || P.Ops.BiasGradB)
    inputBiasGradient(P);
}

} // namespace cuhip::blaslt
