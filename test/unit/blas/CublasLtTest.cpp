//===- CublasLtTest.cpp - libcublasLt.so.13 against a double reference ----===//
//
// Compiled against the toolkit's cublasLt.h and linked with cuhip's
// libcublasLt.so.13, as a program would be. cublasLtMatmul over row and
// column orders, transposes, batches, in-place C == D, f32/f16/bf16 and
// every epilogue cuhip implements, each compared with a double-precision
// reference written from cuBLASLt's documented definitions:
//   x = alpha * op(A) op(B) + beta * C  (then, per epilogue)
//   BIAS:      x += bias[row of D]            (bias has D's row count)
//   *_AUX:     aux(row, col) = x              (before the activation)
//   RELU/GELU: D = relu(x) / gelu_tanh(x)
//   DGELU:     D = x * gelu_tanh'(aux(row, col))
//   *_BGRAD:   bias[row] = sum over columns of D
//   BGRADA:    bias[row] = sum over k of op(A)(row, k), D = x
//   BGRADB:    bias[col] = sum over k of op(B)(k, col), D = x
// and the descriptors' attribute round trips and refusals.
//
//===----------------------------------------------------------------------===//
#include <cublasLt.h>

#include "Gemm.h" // the engine's f16/bf16 conversions
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace blas = cuhip::blas;

namespace {

unsigned elementSize(cudaDataType T) {
  return T == CUDA_R_32F ? 4 : T == CUDA_R_64F ? 8 : 2;
}

/// A batch of matrices in one of cuBLASLt's layouts, holding bytes, with
/// logical (row, column) access in double.
struct Mat {
  cudaDataType Type;
  cublasLtOrder_t Order;
  int64_t Rows, Cols, Ld, Batch, Stride;
  std::vector<unsigned char> Bytes;

  Mat(cudaDataType T, cublasLtOrder_t O, int64_t R, int64_t C, int64_t Batch,
      int64_t Pad = 2)
      : Type(T), Order(O), Rows(R), Cols(C),
        Ld((O == CUBLASLT_ORDER_COL ? R : C) + Pad), Batch(Batch) {
    Stride = Ld * (O == CUBLASLT_ORDER_COL ? C : R) + 3;
    Bytes.assign(size_t(Stride * Batch) * elementSize(T), 0);
  }
  int64_t index(int64_t B, int64_t I, int64_t J) const {
    return B * Stride + (Order == CUBLASLT_ORDER_COL ? I + J * Ld : I * Ld + J);
  }
  double get(int64_t B, int64_t I, int64_t J) const {
    int64_t K = index(B, I, J);
    switch (Type) {
    case CUDA_R_32F:
      return reinterpret_cast<const float *>(Bytes.data())[K];
    case CUDA_R_64F:
      return reinterpret_cast<const double *>(Bytes.data())[K];
    case CUDA_R_16F:
      return blas::halfToFloat(reinterpret_cast<const uint16_t *>(Bytes.data())[K]);
    default:
      return blas::bf16ToFloat(reinterpret_cast<const uint16_t *>(Bytes.data())[K]);
    }
  }
  void set(int64_t B, int64_t I, int64_t J, double V) {
    int64_t K = index(B, I, J);
    switch (Type) {
    case CUDA_R_32F:
      reinterpret_cast<float *>(Bytes.data())[K] = float(V);
      break;
    case CUDA_R_64F:
      reinterpret_cast<double *>(Bytes.data())[K] = V;
      break;
    case CUDA_R_16F:
      reinterpret_cast<uint16_t *>(Bytes.data())[K] = blas::floatToHalf(float(V));
      break;
    default:
      reinterpret_cast<uint16_t *>(Bytes.data())[K] = blas::floatToBf16(float(V));
      break;
    }
  }
  void fill(std::mt19937 &Rng) {
    std::uniform_real_distribution<double> U(-1, 1);
    for (int64_t B = 0; B < Batch; ++B)
      for (int64_t I = 0; I < Rows; ++I)
        for (int64_t J = 0; J < Cols; ++J)
          set(B, I, J, U(Rng));
  }
  void *data() { return Bytes.data(); }
  cublasLtMatrixLayout_t layout() const {
    cublasLtMatrixLayout_t L;
    EXPECT_EQ(cublasLtMatrixLayoutCreate(&L, Type, Rows, Cols, Ld),
              CUBLAS_STATUS_SUCCESS);
    int32_t O = Order, BatchCount = int32_t(Batch);
    EXPECT_EQ(cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                               &O, sizeof(O)),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(cublasLtMatrixLayoutSetAttribute(
                  L, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &BatchCount,
                  sizeof(BatchCount)),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(cublasLtMatrixLayoutSetAttribute(
                  L, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &Stride,
                  sizeof(Stride)),
              CUBLAS_STATUS_SUCCESS);
    return L;
  }
};

/// A packed vector (bias or bias gradient) per batch entry.
struct Vec {
  cudaDataType Type;
  int64_t Len, Stride, Batch;
  Mat M; // one column per batch entry
  Vec(cudaDataType T, int64_t Len, int64_t Batch)
      : Type(T), Len(Len), Stride(Len + 1), Batch(Batch),
        M(T, CUBLASLT_ORDER_COL, Len, 1, Batch, 0) {
    M.Stride = Stride;
    M.Bytes.assign(size_t(Stride * Batch) * elementSize(T), 0);
  }
  double get(int64_t B, int64_t I) const { return M.get(B, I, 0); }
};

double gelu(double X) {
  const double S = std::sqrt(2.0 / M_PI);
  return 0.5 * X * (1 + std::tanh(S * (X + 0.044715 * X * X * X)));
}

double geluGrad(double X) {
  const double S = std::sqrt(2.0 / M_PI);
  double T = std::tanh(S * (X + 0.044715 * X * X * X));
  return 0.5 * (1 + T) + 0.5 * X * (1 - T * T) * S * (1 + 3 * 0.044715 * X * X);
}

double unitRoundoff(cudaDataType T) {
  return T == CUDA_R_64F   ? 1.2e-16
         : T == CUDA_R_32F ? 6e-8
         : T == CUDA_R_16F ? 4.9e-4
                           : 3.9e-3;
}

const char *epilogueName(cublasLtEpilogue_t E) {
  switch (E) {
  case CUBLASLT_EPILOGUE_DEFAULT: return "DEFAULT";
  case CUBLASLT_EPILOGUE_RELU: return "RELU";
  case CUBLASLT_EPILOGUE_BIAS: return "BIAS";
  case CUBLASLT_EPILOGUE_RELU_BIAS: return "RELU_BIAS";
  case CUBLASLT_EPILOGUE_GELU: return "GELU";
  case CUBLASLT_EPILOGUE_GELU_AUX: return "GELU_AUX";
  case CUBLASLT_EPILOGUE_GELU_BIAS: return "GELU_BIAS";
  case CUBLASLT_EPILOGUE_GELU_AUX_BIAS: return "GELU_AUX_BIAS";
  case CUBLASLT_EPILOGUE_DGELU: return "DGELU";
  case CUBLASLT_EPILOGUE_DGELU_BGRAD: return "DGELU_BGRAD";
  case CUBLASLT_EPILOGUE_BGRADA: return "BGRADA";
  case CUBLASLT_EPILOGUE_BGRADB: return "BGRADB";
  default: return "?";
  }
}

struct Case {
  cudaDataType Type = CUDA_R_32F;
  cublasOperation_t TransA = CUBLAS_OP_N, TransB = CUBLAS_OP_N;
  cublasLtOrder_t OrderA = CUBLASLT_ORDER_COL, OrderB = CUBLASLT_ORDER_COL,
                  OrderD = CUBLASLT_ORDER_COL;
  bool OtherOrderC = false; // C in the order D is not in
  int64_t M = 5, N = 7, K = 6, Batch = 1;
  cublasLtEpilogue_t Epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  float Alpha = 1.5f, Beta = 0.5f;
  bool InPlace = false;
  bool DeviceScalars = false;
  cublasComputeType_t Compute = CUBLAS_COMPUTE_32F;
  cudaDataType ScaleType = CUDA_R_32F;

  std::string name() const {
    return std::string("type=") + std::to_string(int(Type)) + " opA=" +
           std::to_string(TransA) + " opB=" + std::to_string(TransB) +
           " orders=" + std::to_string(OrderA) + std::to_string(OrderB) +
           std::to_string(OrderD) + (OtherOrderC ? " C-other-order" : "") +
           " batch=" + std::to_string(Batch) +
           " epilogue=" + epilogueName(Epilogue) +
           (InPlace ? " in-place" : "") +
           (DeviceScalars ? " device-scalars" : "") +
           " compute=" + std::to_string(int(Compute));
  }
};

/// Runs one matmul through cuhip's cuBLASLt and checks every output.
void runCase(cublasLtHandle_t H, const Case &C) {
  SCOPED_TRACE(C.name());
  std::mt19937 Rng(1234);
  bool TA = C.TransA != CUBLAS_OP_N, TB = C.TransB != CUBLAS_OP_N;
  Mat A(C.Type, C.OrderA, TA ? C.K : C.M, TA ? C.M : C.K, C.Batch);
  Mat B(C.Type, C.OrderB, TB ? C.N : C.K, TB ? C.K : C.N, C.Batch);
  cublasLtOrder_t OrderC =
      C.OtherOrderC ? cublasLtOrder_t(1 - C.OrderD) : C.OrderD;
  Mat Cm(C.Type, OrderC, C.M, C.N, C.Batch);
  Mat D(C.Type, C.OrderD, C.M, C.N, C.Batch);
  A.fill(Rng);
  B.fill(Rng);
  Cm.fill(Rng);
  D.fill(Rng); // overwritten
  Mat Aux(C.Type, C.OrderD, C.M, C.N, C.Batch, 3);
  bool Forward = C.Epilogue == CUBLASLT_EPILOGUE_GELU_AUX ||
                 C.Epilogue == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  bool DGelu = C.Epilogue == CUBLASLT_EPILOGUE_DGELU ||
               C.Epilogue == CUBLASLT_EPILOGUE_DGELU_BGRAD;
  if (DGelu)
    Aux.fill(Rng);
  bool AddBias = C.Epilogue & CUBLASLT_EPILOGUE_BIAS;
  bool GradD = C.Epilogue == CUBLASLT_EPILOGUE_DGELU_BGRAD;
  bool GradA = C.Epilogue == CUBLASLT_EPILOGUE_BGRADA;
  bool GradB = C.Epilogue == CUBLASLT_EPILOGUE_BGRADB;
  Vec Bias(C.Type, GradB ? C.N : C.M, C.Batch);
  if (AddBias)
    Bias.M.fill(Rng);
  if (C.InPlace) // D starts as C's values and is passed as C too
    D = Cm;
  const Mat &Original = Cm;

  cublasLtMatmulDesc_t Desc;
  ASSERT_EQ(cublasLtMatmulDescCreate(&Desc, C.Compute, C.ScaleType),
            CUBLAS_STATUS_SUCCESS);
  int32_t TransA = C.TransA, TransB = C.TransB;
  uint32_t Epi = C.Epilogue;
  ASSERT_EQ(cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                           &TransA, sizeof(TransA)),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                           &TransB, sizeof(TransB)),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                           &Epi, sizeof(Epi)),
            CUBLAS_STATUS_SUCCESS);
  if (AddBias || GradA || GradB || GradD) {
    void *P = Bias.M.data();
    int64_t S = Bias.Stride;
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(
                  Desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &P, sizeof(P)),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(
                  Desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &S, sizeof(S)),
              CUBLAS_STATUS_SUCCESS);
  }
  if (Forward || DGelu) {
    void *P = Aux.data();
    int64_t Ld = Aux.Ld, S = Aux.Stride;
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(
                  Desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &P,
                  sizeof(P)),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(
                  Desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &Ld, sizeof(Ld)),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(
                  Desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &S,
                  sizeof(S)),
              CUBLAS_STATUS_SUCCESS);
  }
  // Alpha and beta in the scale type, wherever they live.
  struct Scalar {
    alignas(8) unsigned char Bytes[8];
  };
  auto scalar = [&](float V) {
    Scalar S;
    if (C.ScaleType == CUDA_R_64F) {
      double D = V;
      std::memcpy(S.Bytes, &D, 8);
    } else if (C.ScaleType == CUDA_R_16F) {
      uint16_t H = blas::floatToHalf(V);
      std::memcpy(S.Bytes, &H, 2);
    } else {
      std::memcpy(S.Bytes, &V, 4);
    }
    return S;
  };
  Scalar DevAlpha = scalar(C.Alpha), DevBeta = scalar(C.Beta);
  if (C.DeviceScalars) {
    int32_t Mode = CUBLASLT_POINTER_MODE_DEVICE;
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(
                  Desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &Mode, sizeof(Mode)),
              CUBLAS_STATUS_SUCCESS);
  }
  cublasLtMatrixLayout_t LA = A.layout(), LB = B.layout(), LC = Cm.layout(),
                         LD = D.layout();
  cublasLtMatmulPreference_t Pref;
  ASSERT_EQ(cublasLtMatmulPreferenceCreate(&Pref), CUBLAS_STATUS_SUCCESS);
  cublasLtMatmulHeuristicResult_t Result;
  int Count = 0;
  ASSERT_EQ(cublasLtMatmulAlgoGetHeuristic(H, Desc, LA, LB, LC, LD, Pref, 1,
                                           &Result, &Count),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(Count, 1);
  EXPECT_EQ(Result.state, CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Result.workspaceSize, 0u);
  const void *CPtr = C.InPlace ? D.data() : Cm.data();
  Scalar HostAlpha = scalar(C.Alpha), HostBeta = scalar(C.Beta);
  ASSERT_EQ(cublasLtMatmul(H, Desc,
                           C.DeviceScalars ? DevAlpha.Bytes : HostAlpha.Bytes,
                           A.data(), LA, B.data(), LB,
                           C.DeviceScalars ? DevBeta.Bytes : HostBeta.Bytes,
                           CPtr, LC,
                           D.data(), LD, &Result.algo, nullptr, 0, nullptr),
            CUBLAS_STATUS_SUCCESS);
  // The matmul runs in its stream's order, after the call returns.
  ASSERT_EQ(cuhip::rt::Runtime::get().streamSynchronize(nullptr),
            cuhip::rt::cudaSuccess);

  // A half-precision compute type rounds the sums too.
  double U = unitRoundoff(C.Compute == CUBLAS_COMPUTE_16F ? CUDA_R_16F : C.Type) *
             (C.Compute == CUBLAS_COMPUTE_16F ? C.K : 1);
  for (int64_t Bt = 0; Bt < C.Batch; ++Bt) {
    std::vector<double> GradRef(size_t(C.M), 0.0), GradMag(size_t(C.M), 0.0);
    for (int64_t I = 0; I < C.M; ++I)
      for (int64_t J = 0; J < C.N; ++J) {
        double Sum = 0, Mag = 0;
        for (int64_t K = 0; K < C.K; ++K) {
          double Av = TA ? A.get(Bt, K, I) : A.get(Bt, I, K);
          double Bv = TB ? B.get(Bt, J, K) : B.get(Bt, K, J);
          Sum += Av * Bv;
          Mag += std::fabs(Av * Bv);
        }
        double X = C.Alpha * Sum + C.Beta * Original.get(Bt, I, J);
        Mag = std::fabs(C.Alpha) * Mag + std::fabs(C.Beta * Original.get(Bt, I, J));
        if (AddBias) {
          X += Bias.get(Bt, I);
          Mag += std::fabs(Bias.get(Bt, I));
        }
        if (Forward) {
          EXPECT_NEAR(Aux.get(Bt, I, J), X, 4 * U * Mag + 1e-6)
              << "aux at " << I << "," << J;
        }
        double Want = X;
        switch (C.Epilogue) {
        case CUBLASLT_EPILOGUE_RELU:
        case CUBLASLT_EPILOGUE_RELU_BIAS:
          Want = X > 0 ? X : 0;
          break;
        case CUBLASLT_EPILOGUE_GELU:
        case CUBLASLT_EPILOGUE_GELU_BIAS:
        case CUBLASLT_EPILOGUE_GELU_AUX:
        case CUBLASLT_EPILOGUE_GELU_AUX_BIAS:
          Want = gelu(X);
          break;
        case CUBLASLT_EPILOGUE_DGELU:
        case CUBLASLT_EPILOGUE_DGELU_BGRAD:
          Want = X * geluGrad(Aux.get(Bt, I, J));
          Mag *= 1.2;
          break;
        default:
          break;
        }
        GradRef[I] += Want;
        GradMag[I] += Mag;
        EXPECT_NEAR(D.get(Bt, I, J), Want, 4 * U * (Mag + 1) + 1e-6)
            << "D at batch " << Bt << " (" << I << "," << J << ")";
      }
    if (GradD) {
      for (int64_t I = 0; I < C.M; ++I)
        EXPECT_NEAR(Bias.get(Bt, I), GradRef[I], 4 * U * (GradMag[I] + 1))
            << "bias gradient " << I;
    }
    if (GradA) {
      for (int64_t I = 0; I < C.M; ++I) {
        double S = 0, Mag = 0;
        for (int64_t K = 0; K < C.K; ++K) {
          double Av = TA ? A.get(Bt, K, I) : A.get(Bt, I, K);
          S += Av;
          Mag += std::fabs(Av);
        }
        EXPECT_NEAR(Bias.get(Bt, I), S, 4 * U * (Mag + 1)) << "BGRADA " << I;
      }
    }
    if (GradB) {
      for (int64_t J = 0; J < C.N; ++J) {
        double S = 0, Mag = 0;
        for (int64_t K = 0; K < C.K; ++K) {
          double Bv = TB ? B.get(Bt, J, K) : B.get(Bt, K, J);
          S += Bv;
          Mag += std::fabs(Bv);
        }
        EXPECT_NEAR(Bias.get(Bt, J), S, 4 * U * (Mag + 1)) << "BGRADB " << J;
      }
    }
  }
  cublasLtMatmulPreferenceDestroy(Pref);
  for (cublasLtMatrixLayout_t L : {LA, LB, LC, LD})
    cublasLtMatrixLayoutDestroy(L);
  cublasLtMatmulDescDestroy(Desc);
}

class CublasLt : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(cublasLtCreate(&Handle), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(cublasLtDestroy(Handle), CUBLAS_STATUS_SUCCESS);
  }
  cublasLtHandle_t Handle = nullptr;
};

const cublasLtEpilogue_t AllEpilogues[] = {
    CUBLASLT_EPILOGUE_DEFAULT,       CUBLASLT_EPILOGUE_RELU,
    CUBLASLT_EPILOGUE_BIAS,          CUBLASLT_EPILOGUE_RELU_BIAS,
    CUBLASLT_EPILOGUE_GELU,          CUBLASLT_EPILOGUE_GELU_AUX,
    CUBLASLT_EPILOGUE_GELU_BIAS,     CUBLASLT_EPILOGUE_GELU_AUX_BIAS,
    CUBLASLT_EPILOGUE_DGELU,         CUBLASLT_EPILOGUE_DGELU_BGRAD,
    CUBLASLT_EPILOGUE_BGRADA,        CUBLASLT_EPILOGUE_BGRADB};

TEST_F(CublasLt, LayoutsAndTransposes) {
  for (cudaDataType T : {CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF})
    for (int Bits = 0; Bits < 32; ++Bits) {
      Case C;
      C.Type = T;
      C.TransA = Bits & 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
      C.TransB = Bits & 2 ? CUBLAS_OP_T : CUBLAS_OP_N;
      C.OrderA = Bits & 4 ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
      C.OrderB = Bits & 8 ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
      C.OrderD = Bits & 16 ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
      runCase(Handle, C);
    }
}

TEST_F(CublasLt, EveryEpilogueEveryType) {
  for (cudaDataType T : {CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF})
    for (cublasLtEpilogue_t E : AllEpilogues)
      for (int Bits = 0; Bits < 4; ++Bits) {
        Case C;
        C.Type = T;
        C.Epilogue = E;
        C.TransA = Bits & 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
        C.OrderD = Bits & 2 ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
        C.OrderA = Bits & 2 ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
        runCase(Handle, C);
      }
}

TEST_F(CublasLt, BatchesInPlaceAndDeviceScalars) {
  for (cublasLtEpilogue_t E : AllEpilogues)
    for (int Bits = 0; Bits < 4; ++Bits) {
      Case C;
      C.Epilogue = E;
      C.Batch = 3;
      C.InPlace = Bits & 1;
      C.DeviceScalars = Bits & 2;
      C.TransB = CUBLAS_OP_T;
      runCase(Handle, C);
    }
}

// C stored in the other order than D (cuhip then writes D from its own
// pass rather than the engine's).
TEST_F(CublasLt, COrderDiffersFromD) {
  for (cublasLtEpilogue_t E : {CUBLASLT_EPILOGUE_DEFAULT, CUBLASLT_EPILOGUE_BGRADB,
                               CUBLASLT_EPILOGUE_GELU_BIAS})
    for (int Row = 0; Row < 2; ++Row) {
      Case C;
      C.Epilogue = E;
      C.OtherOrderC = true;
      C.OrderD = Row ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
      C.Type = CUDA_R_16BF;
      runCase(Handle, C);
    }
}

// The other compute types: 16F with f16 matrices and half scalars, 64F with
// f64 matrices, and the 32F variants that allow faster inputs.
TEST_F(CublasLt, ComputeTypes) {
  struct {
    cublasComputeType_t Compute;
    cudaDataType Scale, Type;
  } Kinds[] = {{CUBLAS_COMPUTE_16F, CUDA_R_16F, CUDA_R_16F},
               {CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDA_R_64F},
               {CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, CUDA_R_32F},
               {CUBLAS_COMPUTE_32F_FAST_16BF, CUDA_R_32F, CUDA_R_16BF},
               {CUBLAS_COMPUTE_32F_PEDANTIC, CUDA_R_32F, CUDA_R_16F}};
  for (auto K : Kinds)
    for (int Bits = 0; Bits < 4; ++Bits) {
      Case C;
      C.Compute = K.Compute;
      C.ScaleType = K.Scale;
      C.Type = K.Type;
      C.OrderD = Bits & 1 ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
      C.DeviceScalars = Bits & 2;
      C.TransA = CUBLAS_OP_T;
      C.Batch = 2;
      runCase(Handle, C);
    }
}

// llm.c's forward matmul: out (OC x B*T, column-major) = weight^T * inp +
// bias, GELU with the pre-activation kept in aux, beta 0.
TEST_F(CublasLt, LlmcForwardShape) {
  Case C;
  C.TransA = CUBLAS_OP_T;
  C.M = 24;
  C.N = 10;
  C.K = 16;
  C.Beta = 0;
  C.Alpha = 1;
  C.Epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  for (cudaDataType T : {CUDA_R_32F, CUDA_R_16BF}) {
    C.Type = T;
    runCase(Handle, C);
  }
}

// Getting an attribute of every kind gives back what was set; sizes are
// checked; a size query answers the size.
TEST(CublasLtDescriptors, AttributeRoundTrips) {
  cublasLtMatmulDesc_t D;
  ASSERT_EQ(cublasLtMatmulDescCreate(&D, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  int32_t Compute = 0, Scale = 0;
  size_t Written = 0;
  EXPECT_EQ(cublasLtMatmulDescGetAttribute(D, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE,
                                           &Compute, sizeof(Compute), &Written),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Compute, CUBLAS_COMPUTE_32F_FAST_TF32);
  EXPECT_EQ(Written, sizeof(int32_t));
  EXPECT_EQ(cublasLtMatmulDescGetAttribute(D, CUBLASLT_MATMUL_DESC_SCALE_TYPE,
                                           &Scale, sizeof(Scale), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Scale, CUDA_R_32F);
  uint32_t Epi = 0;
  EXPECT_EQ(cublasLtMatmulDescGetAttribute(D, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                           &Epi, sizeof(Epi), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Epi, uint32_t(CUBLASLT_EPILOGUE_DEFAULT));
  int32_t AuxType = 0;
  EXPECT_EQ(cublasLtMatmulDescGetAttribute(
                D, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, &AuxType,
                sizeof(AuxType), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(AuxType, -1);

  struct {
    cublasLtMatmulDescAttributes_t Attr;
    size_t Size;
  } Attrs[] = {{CUBLASLT_MATMUL_DESC_TRANSA, 4},
               {CUBLASLT_MATMUL_DESC_TRANSB, 4},
               {CUBLASLT_MATMUL_DESC_POINTER_MODE, 4},
               {CUBLASLT_MATMUL_DESC_EPILOGUE, 4},
               {CUBLASLT_MATMUL_DESC_BIAS_POINTER, 8},
               {CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, 4},
               {CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, 8},
               {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, 8},
               {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, 8},
               {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, 8},
               {CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, 4},
               {CUBLASLT_MATMUL_DESC_FAST_ACCUM, 1}};
  for (auto [Attr, Size] : Attrs) {
    SCOPED_TRACE(int(Attr));
    uint64_t In = Size == 1 ? 1 : Size == 4 ? 1 : 0x123456789abcull, Out = 0;
    ASSERT_EQ(cublasLtMatmulDescSetAttribute(D, Attr, &In, Size),
              CUBLAS_STATUS_SUCCESS);
    size_t Need = 0;
    ASSERT_EQ(cublasLtMatmulDescGetAttribute(D, Attr, nullptr, 0, &Need),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(Need, Size);
    ASSERT_EQ(cublasLtMatmulDescGetAttribute(D, Attr, &Out, Size, &Written),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(std::memcmp(&In, &Out, Size), 0);
    // The wrong size is refused either way.
    EXPECT_EQ(cublasLtMatmulDescSetAttribute(D, Attr, &In, Size + 1),
              CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_EQ(cublasLtMatmulDescGetAttribute(D, Attr, &Out, Size + 1, nullptr),
              CUBLAS_STATUS_INVALID_VALUE);
  }
  int32_t BadOp = 7;
  EXPECT_EQ(cublasLtMatmulDescSetAttribute(D, CUBLASLT_MATMUL_DESC_TRANSA,
                                           &BadOp, sizeof(BadOp)),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasLtMatmulDescGetAttribute(D, CUBLASLT_MATMUL_DESC_TRANSA,
                                           nullptr, 0, nullptr),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasLtMatmulDescSetAttribute(
                D, cublasLtMatmulDescAttributes_t(9), &BadOp, sizeof(BadOp)),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(D);

  cublasLtMatrixLayout_t L;
  ASSERT_EQ(cublasLtMatrixLayoutCreate(&L, CUDA_R_16BF, 3, 4, 5),
            CUBLAS_STATUS_SUCCESS);
  uint32_t Type = 0;
  uint64_t Rows = 0, Cols = 0;
  int64_t Ld = 0, Stride = 0;
  int32_t Order = -1, Batch = 0;
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(L, CUBLASLT_MATRIX_LAYOUT_TYPE,
                                             &Type, sizeof(Type), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ROWS,
                                             &Rows, sizeof(Rows), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(L, CUBLASLT_MATRIX_LAYOUT_COLS,
                                             &Cols, sizeof(Cols), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(L, CUBLASLT_MATRIX_LAYOUT_LD, &Ld,
                                             sizeof(Ld), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                             &Order, sizeof(Order), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(
                L, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &Batch, sizeof(Batch),
                nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(
                L, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &Stride,
                sizeof(Stride), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Type, uint32_t(CUDA_R_16BF));
  EXPECT_EQ(Rows, 3u);
  EXPECT_EQ(Cols, 4u);
  EXPECT_EQ(Ld, 5);
  EXPECT_EQ(Order, CUBLASLT_ORDER_COL);
  EXPECT_EQ(Batch, 1);
  EXPECT_EQ(Stride, 0);
  int32_t Row = CUBLASLT_ORDER_ROW;
  EXPECT_EQ(cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                             &Row, sizeof(Row)),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ORDER,
                                             &Order, sizeof(Order), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Order, CUBLASLT_ORDER_ROW);
  EXPECT_EQ(cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_ROWS,
                                             &Row, sizeof(Row)),
            CUBLAS_STATUS_INVALID_VALUE); // ROWS is a uint64_t
  cublasLtMatrixLayoutDestroy(L);

  cublasLtMatmulPreference_t P;
  ASSERT_EQ(cublasLtMatmulPreferenceCreate(&P), CUBLAS_STATUS_SUCCESS);
  uint64_t Ws = 1 << 20, WsOut = 0;
  EXPECT_EQ(cublasLtMatmulPreferenceSetAttribute(
                P, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &Ws, sizeof(Ws)),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatmulPreferenceGetAttribute(
                P, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &WsOut,
                sizeof(WsOut), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(WsOut, Ws);
  uint32_t Mode = 5;
  EXPECT_EQ(cublasLtMatmulPreferenceGetAttribute(
                P, CUBLASLT_MATMUL_PREF_SEARCH_MODE, &Mode, sizeof(Mode),
                nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Mode, uint32_t(CUBLASLT_SEARCH_BEST_FIT));
  EXPECT_EQ(cublasLtMatmulPreferenceSetAttribute(
                P, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &Mode, sizeof(Mode)),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulPreferenceDestroy(P);
}

// The *Init forms fill storage the program owns (cublasLt.h's inline
// cublasLtMatmulDescInit calls cublasLtMatmulDescInit_internal).
TEST(CublasLtDescriptors, InitFormsUseCallerStorage) {
  cublasLtMatmulDescOpaque_t DescStorage;
  cublasLtMatrixLayoutOpaque_t LayoutStorage;
  cublasLtMatmulPreferenceOpaque_t PrefStorage;
  ASSERT_EQ(cublasLtMatmulDescInit(&DescStorage, CUBLAS_COMPUTE_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasLtMatrixLayoutInit(&LayoutStorage, CUDA_R_32F, 2, 3, 2),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasLtMatmulPreferenceInit(&PrefStorage), CUBLAS_STATUS_SUCCESS);
  uint64_t Cols = 0;
  EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(&LayoutStorage,
                                             CUBLASLT_MATRIX_LAYOUT_COLS, &Cols,
                                             sizeof(Cols), nullptr),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Cols, 3u);
  EXPECT_EQ(cublasLtMatmulDescInit_internal(&DescStorage, 8, CUBLAS_COMPUTE_32F,
                                            CUDA_R_32F),
            CUBLAS_STATUS_ALLOC_FAILED);
}

TEST(CublasLtMisc, VersionsStatusStrings) {
  EXPECT_EQ(cublasLtGetVersion() / 10000, 13u);
  int Major = 0, Minor = -1, Patch = -1;
  EXPECT_EQ(cublasLtGetProperty(MAJOR_VERSION, &Major), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtGetProperty(MINOR_VERSION, &Minor), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtGetProperty(PATCH_LEVEL, &Patch), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(size_t(Major * 10000 + Minor * 100 + Patch), cublasLtGetVersion());
  EXPECT_EQ(cublasLtGetCudartVersion() / 1000, 13u);
  EXPECT_STREQ(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED),
               "CUBLAS_STATUS_NOT_SUPPORTED");
  EXPECT_STRNE(cublasLtGetStatusString(CUBLAS_STATUS_INVALID_VALUE), "");
  EXPECT_EQ(cublasLtDestroy(nullptr), CUBLAS_STATUS_NOT_INITIALIZED);
}

// Refusals: what cuhip does not do says NOT_SUPPORTED (and why, through the
// cuBLASLt logger's callback), bad shapes INVALID_VALUE.
std::vector<std::string> Logged;
void recordLog(int Level, const char *Fn, const char *Msg) {
  Logged.push_back(std::to_string(Level) + " " + Fn + ": " + Msg);
}

TEST_F(CublasLt, RefusalsAndLogger) {
  ASSERT_EQ(cublasLtLoggerSetCallback(recordLog), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasLtLoggerSetLevel(5), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtLoggerSetLevel(6), CUBLAS_STATUS_INVALID_VALUE);
  Logged.clear();

  std::vector<float> Buf(64, 1.0f);
  cublasLtMatmulDesc_t Desc;
  ASSERT_EQ(cublasLtMatmulDescCreate(&Desc, CUBLAS_COMPUTE_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  cublasLtMatrixLayout_t A, B, C, Bad;
  cublasLtMatrixLayoutCreate(&A, CUDA_R_32F, 2, 3, 2);
  cublasLtMatrixLayoutCreate(&B, CUDA_R_32F, 3, 4, 3);
  cublasLtMatrixLayoutCreate(&C, CUDA_R_32F, 2, 4, 2);
  cublasLtMatrixLayoutCreate(&Bad, CUDA_R_32F, 3, 4, 3); // wrong for D
  float One = 1, Zero = 0;
  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), A, Buf.data(), B,
                           &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_SUCCESS);
  // Buf must outlive the queued matmul.
  EXPECT_EQ(cuhip::rt::Runtime::get().streamSynchronize(nullptr),
            cuhip::rt::cudaSuccess);
  bool Traced = false;
  for (const std::string &L : Logged)
    Traced |= L.rfind("5 cublasLtMatmul:", 0) == 0;
  EXPECT_TRUE(Traced) << "no API trace line for cublasLtMatmul";

  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), A, Buf.data(), B,
                           &Zero, Buf.data(), C, Buf.data(), Bad, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatrixLayout_t SmallLd;
  cublasLtMatrixLayoutCreate(&SmallLd, CUDA_R_32F, 2, 3, 1);
  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), SmallLd, Buf.data(),
                           B, &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasLtMatmul(nullptr, Desc, &One, Buf.data(), A, Buf.data(), B,
                           &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_NOT_INITIALIZED);

  Logged.clear();
  uint32_t Epi = CUBLASLT_EPILOGUE_RELU_AUX;
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &Epi,
                                 sizeof(Epi));
  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), A, Buf.data(), B,
                           &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_NOT_SUPPORTED);
  ASSERT_FALSE(Logged.empty());
  EXPECT_NE(Logged.back().find("epilogue"), std::string::npos) << Logged.back();
  EXPECT_EQ(Logged.back()[0], '1'); // an error-level message

  // The bias epilogue without a bias pointer.
  Epi = CUBLASLT_EPILOGUE_BIAS;
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &Epi,
                                 sizeof(Epi));
  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), A, Buf.data(), B,
                           &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_INVALID_VALUE);

  // Tiled orders and integer compute are not done.
  cublasLtMatrixLayout_t Tiled;
  cublasLtMatrixLayoutCreate(&Tiled, CUDA_R_32F, 2, 3, 64);
  int32_t Col32 = CUBLASLT_ORDER_COL32;
  cublasLtMatrixLayoutSetAttribute(Tiled, CUBLASLT_MATRIX_LAYOUT_ORDER, &Col32,
                                   sizeof(Col32));
  Epi = CUBLASLT_EPILOGUE_DEFAULT;
  cublasLtMatmulDescSetAttribute(Desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &Epi,
                                 sizeof(Epi));
  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), Tiled, Buf.data(),
                           B, &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_NOT_SUPPORTED);
  cublasLtMatmulPreference_t Pref;
  cublasLtMatmulPreferenceCreate(&Pref);
  cublasLtMatmulHeuristicResult_t R;
  int Count = -1;
  EXPECT_EQ(cublasLtMatmulAlgoGetHeuristic(Handle, Desc, Tiled, B, C, C, Pref,
                                           1, &R, &Count),
            CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(Count, 0);
  EXPECT_EQ(cublasLtMatmulAlgoGetHeuristic(Handle, Desc, A, B, C, C, Pref, 0,
                                           &R, &Count),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(Desc);
  ASSERT_EQ(cublasLtMatmulDescCreate(&Desc, CUBLAS_COMPUTE_32I, CUDA_R_32I),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatmul(Handle, Desc, &One, Buf.data(), A, Buf.data(), B,
                           &Zero, Buf.data(), C, Buf.data(), C, nullptr,
                           nullptr, 0, nullptr),
            CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(cublasLtMatmulAlgoInit(Handle, CUBLAS_COMPUTE_32F, CUDA_R_32F,
                                   CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                   CUDA_R_32F, 0, nullptr),
            CUBLAS_STATUS_NOT_SUPPORTED);

  cublasLtLoggerSetLevel(0);
  cublasLtLoggerSetCallback(nullptr);
  cublasLtMatmulPreferenceDestroy(Pref);
  for (cublasLtMatrixLayout_t L : {A, B, C, Bad, SmallLd, Tiled})
    cublasLtMatrixLayoutDestroy(L);
  cublasLtMatmulDescDestroy(Desc);
}

} // namespace
