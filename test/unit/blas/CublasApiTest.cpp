//===- CublasApiTest.cpp - libcublas.so.13 through the toolkit's headers --===//
//
// Programs call cuhip's cuBLAS through NVIDIA's cublas_v2.h; so does this
// test. Every GEMM entry point is compared with a double-precision naive
// product over transposes, odd sizes, leading dimensions larger than the
// rows, batches, host and device scalars and the compute types; then the
// level-1/2 routines, the handle functions and the argument checks.
//
//===----------------------------------------------------------------------===//
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

size_t typeSize(cudaDataType T) {
  switch (T) {
  case CUDA_R_64F:
    return 8;
  case CUDA_R_32F:
    return 4;
  default:
    return 2;
  }
}

double roundTo(cudaDataType T, double V) {
  switch (T) {
  case CUDA_R_64F:
    return V;
  case CUDA_R_32F:
    return static_cast<float>(V);
  case CUDA_R_16F:
    return __half2float(__float2half_rn(static_cast<float>(V)));
  default:
    return __bfloat162float(__float2bfloat16_rn(static_cast<float>(V)));
  }
}

void storeAs(cudaDataType T, void *P, size_t I, double V) {
  switch (T) {
  case CUDA_R_64F:
    static_cast<double *>(P)[I] = V;
    break;
  case CUDA_R_32F:
    static_cast<float *>(P)[I] = static_cast<float>(V);
    break;
  case CUDA_R_16F:
    static_cast<__half *>(P)[I] = __float2half_rn(static_cast<float>(V));
    break;
  default:
    static_cast<__nv_bfloat16 *>(P)[I] =
        __float2bfloat16_rn(static_cast<float>(V));
    break;
  }
}

double loadAs(cudaDataType T, const void *P, size_t I) {
  switch (T) {
  case CUDA_R_64F:
    return static_cast<const double *>(P)[I];
  case CUDA_R_32F:
    return static_cast<const float *>(P)[I];
  case CUDA_R_16F:
    return __half2float(static_cast<const __half *>(P)[I]);
  default:
    return __bfloat162float(static_cast<const __nv_bfloat16 *>(P)[I]);
  }
}

double unitRoundoff(cudaDataType T) {
  switch (T) {
  case CUDA_R_64F:
    return 1.2e-16;
  case CUDA_R_32F:
    return 6e-8;
  case CUDA_R_16F:
    return 4.9e-4;
  default:
    return 3.9e-3;
  }
}

/// Device memory holding Batch column-major matrices back to back
/// (Stride elements apart), with their values kept in double on the host.
struct DeviceMatrices {
  cudaDataType Type;
  int64_t Rows, Cols, Ld, Stride, Batch;
  std::vector<double> Values;
  void *Dev = nullptr;
  DeviceMatrices(cudaDataType T, int64_t R, int64_t C, int64_t Ld,
                 int64_t Batch, std::mt19937 &Rng)
      : Type(T), Rows(R), Cols(C), Ld(Ld), Stride(Ld * C + 5), Batch(Batch),
        Values(Stride * Batch) {
    std::uniform_real_distribution<double> D(-1, 1);
    for (double &V : Values)
      V = roundTo(T, D(Rng));
    std::vector<unsigned char> Bytes(Values.size() * typeSize(T));
    for (size_t I = 0; I < Values.size(); ++I)
      storeAs(T, Bytes.data(), I, Values[I]);
    EXPECT_EQ(cudaMalloc(&Dev, std::max<size_t>(1, Bytes.size())), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(Dev, Bytes.data(), Bytes.size(),
                         cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  ~DeviceMatrices() { cudaFree(Dev); }
  double at(int64_t B, int64_t I, int64_t J) const {
    return Values[B * Stride + J * Ld + I];
  }
  void *entry(int64_t B) const {
    return static_cast<char *>(Dev) + B * Stride * typeSize(Type);
  }
  std::vector<double> readBack() const {
    std::vector<unsigned char> Bytes(Values.size() * typeSize(Type));
    EXPECT_EQ(cudaMemcpy(Bytes.data(), Dev, Bytes.size(),
                         cudaMemcpyDeviceToHost),
              cudaSuccess);
    std::vector<double> Out(Values.size());
    for (size_t I = 0; I < Out.size(); ++I)
      Out[I] = loadAs(Type, Bytes.data(), I);
    return Out;
  }
  /// A device array of the entries' addresses (the Batched forms).
  void **pointerArray() {
    std::vector<void *> P;
    for (int64_t B = 0; B < Batch; ++B)
      P.push_back(entry(B));
    void **Dev2 = nullptr;
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&Dev2),
                         P.size() * sizeof(void *)),
              cudaSuccess);
    cudaMemcpy(Dev2, P.data(), P.size() * sizeof(void *),
               cudaMemcpyHostToDevice);
    Arrays.push_back(Dev2);
    return Dev2;
  }
  std::vector<void **> Arrays;
};

/// The arguments a GEMM entry point gets; Call runs one of them.
struct GemmArgs {
  cublasHandle_t H;
  cublasOperation_t TA, TB;
  int M, N, K;
  const void *Alpha, *Beta;
  DeviceMatrices *A, *B, *C;
  bool Arrays; // pass pointer arrays (the Batched forms)
};
using GemmEntry = std::function<cublasStatus_t(const GemmArgs &)>;

enum class Scalars { Float, Double, Half };

struct GemmSetup {
  cudaDataType AB, C;
  Scalars ScalarType;
  bool HalfAccumulate; // CUBLAS_COMPUTE_16F: cuhip accumulates in f32
};

class CublasGemm : public testing::Test {
protected:
  cublasHandle_t H = nullptr;
  void SetUp() override { ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS); }
  void TearDown() override { EXPECT_EQ(cublasDestroy(H), CUBLAS_STATUS_SUCCESS); }

  /// Runs Entry for every transpose pair and a few shapes, with host and
  /// device scalars, and checks the result against the naive product.
  void check(const char *Name, GemmSetup S, int64_t Batch, bool Arrays,
             const GemmEntry &Entry) {
    const int Shapes[][3] = {{7, 5, 9}, {1, 13, 3}, {33, 17, 65}};
    const double Alphas[] = {1.0, 0.5}, Betas[] = {0.0, -1.5};
    int Round = 0;
    for (cublasOperation_t TA : {CUBLAS_OP_N, CUBLAS_OP_T})
      for (cublasOperation_t TB : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C})
        for (const auto &Shape : Shapes)
          for (bool DeviceScalars : {false, true}) {
            ++Round;
            run(Name, S, Batch, Arrays, Entry, TA, TB, Shape[0], Shape[1],
                Shape[2], Alphas[Round % 2], Betas[(Round / 2) % 2],
                DeviceScalars);
            if (HasFatalFailure())
              return;
          }
  }

  void run(const char *Name, GemmSetup S, int64_t Batch, bool Arrays,
           const GemmEntry &Entry, cublasOperation_t TA, cublasOperation_t TB,
           int M, int N, int K, double Alpha, double Beta,
           bool DeviceScalars) {
    SCOPED_TRACE(testing::Message()
                 << Name << " ta " << TA << " tb " << TB << " m " << M << " n "
                 << N << " k " << K << " alpha " << Alpha << " beta " << Beta
                 << (DeviceScalars ? " device scalars" : " host scalars"));
    std::mt19937 Rng(M * 7 + N * 3 + K + TA * 11 + TB * 13);
    int64_t AR = TA == CUBLAS_OP_N ? M : K, AC = TA == CUBLAS_OP_N ? K : M;
    int64_t BR = TB == CUBLAS_OP_N ? K : N, BC = TB == CUBLAS_OP_N ? N : K;
    DeviceMatrices A(S.AB, AR, AC, AR + 2, Batch, Rng);
    DeviceMatrices B(S.AB, BR, BC, BR + 3, Batch, Rng);
    DeviceMatrices C(S.C, M, N, M + 1, Batch, Rng);
    // The scalars in the compute type's representation.
    unsigned char AlphaB[8], BetaB[8];
    size_t ScalarSize = 4;
    if (S.ScalarType == Scalars::Float) {
      float AF = Alpha, BF = Beta;
      std::memcpy(AlphaB, &AF, 4);
      std::memcpy(BetaB, &BF, 4);
    } else if (S.ScalarType == Scalars::Double) {
      std::memcpy(AlphaB, &Alpha, 8);
      std::memcpy(BetaB, &Beta, 8);
      ScalarSize = 8;
    } else {
      __half AH = __float2half(Alpha), BH = __float2half(Beta);
      std::memcpy(AlphaB, &AH, 2);
      std::memcpy(BetaB, &BH, 2);
      ScalarSize = 2;
    }
    void *DevScalars = nullptr;
    const void *AlphaP = AlphaB, *BetaP = BetaB;
    if (DeviceScalars) {
      ASSERT_EQ(cudaMalloc(&DevScalars, 16), cudaSuccess);
      cudaMemcpy(DevScalars, AlphaB, ScalarSize, cudaMemcpyHostToDevice);
      cudaMemcpy(static_cast<char *>(DevScalars) + 8, BetaB, ScalarSize,
                 cudaMemcpyHostToDevice);
      AlphaP = DevScalars;
      BetaP = static_cast<char *>(DevScalars) + 8;
      ASSERT_EQ(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE),
                CUBLAS_STATUS_SUCCESS);
    }
    GemmArgs Args{H, TA, TB, M, N, K, AlphaP, BetaP, &A, &B, &C, Arrays};
    cublasStatus_t St = Entry(Args);
    cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST);
    ASSERT_EQ(St, CUBLAS_STATUS_SUCCESS) << cublasGetStatusString(St);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(DevScalars);
    std::vector<double> Got = C.readBack();
    double Acc = S.AB == CUDA_R_64F ? 1.2e-16 : 6e-8;
    for (int64_t Bt = 0; Bt < Batch; ++Bt)
      for (int64_t J = 0; J < N; ++J)
        for (int64_t I = 0; I < M; ++I) {
          double Sum = 0, Abs = 0;
          for (int64_t P = 0; P < K; ++P) {
            double X = TA == CUBLAS_OP_N ? A.at(Bt, I, P) : A.at(Bt, P, I);
            double Y = TB == CUBLAS_OP_N ? B.at(Bt, P, J) : B.at(Bt, J, P);
            Sum += X * Y;
            Abs += std::fabs(X * Y);
          }
          double Old = C.at(Bt, I, J);
          double Want = Alpha * Sum + Beta * Old;
          double Bound = (K + 2) * Acc * (std::fabs(Alpha) * Abs +
                                          std::fabs(Beta * Old)) +
                         2 * unitRoundoff(S.C) * std::fabs(Want) + 1e-300;
          size_t At = Bt * C.Stride + J * C.Ld + I;
          ASSERT_NEAR(Got[At], Want, Bound)
              << "batch " << Bt << " (" << I << ", " << J << ")";
        }
    // Rows between M and ldc, and the gaps between batch entries, keep
    // their values.
    for (size_t At = 0; At < Got.size(); ++At) {
      int64_t InEntry = At % C.Stride;
      if (InEntry < C.Ld * N && InEntry % C.Ld < M)
        continue;
      ASSERT_EQ(Got[At], C.Values[At]) << "element " << At << " was written";
    }
  }
};

} // namespace

TEST_F(CublasGemm, Sgemm) {
  check("cublasSgemm", {CUDA_R_32F, CUDA_R_32F, Scalars::Float, false}, 1,
        false, [](const GemmArgs &G) {
          return cublasSgemm(G.H, G.TA, G.TB, G.M, G.N, G.K,
                             static_cast<const float *>(G.Alpha),
                             static_cast<const float *>(G.A->entry(0)),
                             G.A->Ld, static_cast<const float *>(G.B->entry(0)),
                             G.B->Ld, static_cast<const float *>(G.Beta),
                             static_cast<float *>(G.C->entry(0)), G.C->Ld);
        });
  check("cublasSgemm_64", {CUDA_R_32F, CUDA_R_32F, Scalars::Float, false}, 1,
        false, [](const GemmArgs &G) {
          return cublasSgemm_64(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const float *>(G.Alpha),
              static_cast<const float *>(G.A->entry(0)), G.A->Ld,
              static_cast<const float *>(G.B->entry(0)), G.B->Ld,
              static_cast<const float *>(G.Beta),
              static_cast<float *>(G.C->entry(0)), G.C->Ld);
        });
}

TEST_F(CublasGemm, DgemmAndHgemm) {
  check("cublasDgemm", {CUDA_R_64F, CUDA_R_64F, Scalars::Double, false}, 1,
        false, [](const GemmArgs &G) {
          return cublasDgemm(G.H, G.TA, G.TB, G.M, G.N, G.K,
                             static_cast<const double *>(G.Alpha),
                             static_cast<const double *>(G.A->entry(0)),
                             G.A->Ld,
                             static_cast<const double *>(G.B->entry(0)),
                             G.B->Ld, static_cast<const double *>(G.Beta),
                             static_cast<double *>(G.C->entry(0)), G.C->Ld);
        });
  check("cublasHgemm", {CUDA_R_16F, CUDA_R_16F, Scalars::Half, true}, 1, false,
        [](const GemmArgs &G) {
          return cublasHgemm(G.H, G.TA, G.TB, G.M, G.N, G.K,
                             static_cast<const __half *>(G.Alpha),
                             static_cast<const __half *>(G.A->entry(0)),
                             G.A->Ld,
                             static_cast<const __half *>(G.B->entry(0)),
                             G.B->Ld, static_cast<const __half *>(G.Beta),
                             static_cast<__half *>(G.C->entry(0)), G.C->Ld);
        });
}

TEST_F(CublasGemm, SgemmExTypes) {
  for (cudaDataType In : {CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF})
    for (cudaDataType Out : {CUDA_R_32F, In}) {
      check("cublasSgemmEx", {In, Out, Scalars::Float, false}, 1, false,
            [In, Out](const GemmArgs &G) {
              return cublasSgemmEx(
                  G.H, G.TA, G.TB, G.M, G.N, G.K,
                  static_cast<const float *>(G.Alpha), G.A->entry(0), In,
                  G.A->Ld, G.B->entry(0), In, G.B->Ld,
                  static_cast<const float *>(G.Beta), G.C->entry(0), Out,
                  G.C->Ld);
            });
      if (HasFatalFailure())
        return;
    }
}

TEST_F(CublasGemm, GemmExComputeTypes) {
  struct Combo {
    cudaDataType In, Out;
    cublasComputeType_t Compute;
    Scalars S;
  };
  const Combo Combos[] = {
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, Scalars::Float},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, Scalars::Float},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16BF, Scalars::Float},
      {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F, Scalars::Float},
      {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, Scalars::Float},
      {CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, Scalars::Float},
      {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, Scalars::Float},
      {CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, Scalars::Float},
      {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, Scalars::Half},
      {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, Scalars::Double},
  };
  for (const Combo &X : Combos) {
    check("cublasGemmEx", {X.In, X.Out, X.S, X.Compute == CUBLAS_COMPUTE_16F},
          1, false, [X](const GemmArgs &G) {
            return cublasGemmEx(G.H, G.TA, G.TB, G.M, G.N, G.K, G.Alpha,
                                G.A->entry(0), X.In, G.A->Ld, G.B->entry(0),
                                X.In, G.B->Ld, G.Beta, G.C->entry(0), X.Out,
                                G.C->Ld, X.Compute, CUBLAS_GEMM_DEFAULT);
          });
    if (HasFatalFailure())
      return;
  }
  check("cublasGemmEx_64", {CUDA_R_16BF, CUDA_R_16BF, Scalars::Float, false},
        1, false, [](const GemmArgs &G) {
          return cublasGemmEx_64(G.H, G.TA, G.TB, G.M, G.N, G.K, G.Alpha,
                                 G.A->entry(0), CUDA_R_16BF, G.A->Ld,
                                 G.B->entry(0), CUDA_R_16BF, G.B->Ld, G.Beta,
                                 G.C->entry(0), CUDA_R_16BF, G.C->Ld,
                                 CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT_TENSOR_OP);
        });
}

TEST_F(CublasGemm, StridedBatched) {
  check("cublasSgemmStridedBatched",
        {CUDA_R_32F, CUDA_R_32F, Scalars::Float, false}, 3, false,
        [](const GemmArgs &G) {
          return cublasSgemmStridedBatched(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const float *>(G.Alpha),
              static_cast<const float *>(G.A->entry(0)), G.A->Ld, G.A->Stride,
              static_cast<const float *>(G.B->entry(0)), G.B->Ld, G.B->Stride,
              static_cast<const float *>(G.Beta),
              static_cast<float *>(G.C->entry(0)), G.C->Ld, G.C->Stride,
              G.A->Batch);
        });
  check("cublasDgemmStridedBatched_64",
        {CUDA_R_64F, CUDA_R_64F, Scalars::Double, false}, 2, false,
        [](const GemmArgs &G) {
          return cublasDgemmStridedBatched_64(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const double *>(G.Alpha),
              static_cast<const double *>(G.A->entry(0)), G.A->Ld, G.A->Stride,
              static_cast<const double *>(G.B->entry(0)), G.B->Ld, G.B->Stride,
              static_cast<const double *>(G.Beta),
              static_cast<double *>(G.C->entry(0)), G.C->Ld, G.C->Stride,
              G.A->Batch);
        });
  check("cublasHgemmStridedBatched",
        {CUDA_R_16F, CUDA_R_16F, Scalars::Half, true}, 2, false,
        [](const GemmArgs &G) {
          return cublasHgemmStridedBatched(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const __half *>(G.Alpha),
              static_cast<const __half *>(G.A->entry(0)), G.A->Ld, G.A->Stride,
              static_cast<const __half *>(G.B->entry(0)), G.B->Ld, G.B->Stride,
              static_cast<const __half *>(G.Beta),
              static_cast<__half *>(G.C->entry(0)), G.C->Ld, G.C->Stride,
              G.A->Batch);
        });
  for (cudaDataType T : {CUDA_R_32F, CUDA_R_16BF, CUDA_R_16F}) {
    check("cublasGemmStridedBatchedEx", {T, T, Scalars::Float, false}, 4,
          false, [T](const GemmArgs &G) {
            return cublasGemmStridedBatchedEx(
                G.H, G.TA, G.TB, G.M, G.N, G.K, G.Alpha, G.A->entry(0), T,
                G.A->Ld, G.A->Stride, G.B->entry(0), T, G.B->Ld, G.B->Stride,
                G.Beta, G.C->entry(0), T, G.C->Ld, G.C->Stride, G.A->Batch,
                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
          });
    if (HasFatalFailure())
      return;
  }
  check("cublasGemmStridedBatchedEx_64",
        {CUDA_R_16BF, CUDA_R_32F, Scalars::Float, false}, 2, false,
        [](const GemmArgs &G) {
          return cublasGemmStridedBatchedEx_64(
              G.H, G.TA, G.TB, G.M, G.N, G.K, G.Alpha, G.A->entry(0),
              CUDA_R_16BF, G.A->Ld, G.A->Stride, G.B->entry(0), CUDA_R_16BF,
              G.B->Ld, G.B->Stride, G.Beta, G.C->entry(0), CUDA_R_32F, G.C->Ld,
              G.C->Stride, G.A->Batch, CUBLAS_COMPUTE_32F_FAST_16BF,
              CUBLAS_GEMM_DEFAULT);
        });
}

TEST_F(CublasGemm, PointerArrayBatches) {
  check("cublasSgemmBatched", {CUDA_R_32F, CUDA_R_32F, Scalars::Float, false},
        3, true, [](const GemmArgs &G) {
          return cublasSgemmBatched(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const float *>(G.Alpha),
              reinterpret_cast<const float *const *>(G.A->pointerArray()),
              G.A->Ld,
              reinterpret_cast<const float *const *>(G.B->pointerArray()),
              G.B->Ld, static_cast<const float *>(G.Beta),
              reinterpret_cast<float *const *>(G.C->pointerArray()), G.C->Ld,
              G.A->Batch);
        });
  check("cublasDgemmBatched", {CUDA_R_64F, CUDA_R_64F, Scalars::Double, false},
        2, true, [](const GemmArgs &G) {
          return cublasDgemmBatched(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const double *>(G.Alpha),
              reinterpret_cast<const double *const *>(G.A->pointerArray()),
              G.A->Ld,
              reinterpret_cast<const double *const *>(G.B->pointerArray()),
              G.B->Ld, static_cast<const double *>(G.Beta),
              reinterpret_cast<double *const *>(G.C->pointerArray()), G.C->Ld,
              G.A->Batch);
        });
  check("cublasHgemmBatched_64", {CUDA_R_16F, CUDA_R_16F, Scalars::Half, true},
        2, true, [](const GemmArgs &G) {
          return cublasHgemmBatched_64(
              G.H, G.TA, G.TB, G.M, G.N, G.K,
              static_cast<const __half *>(G.Alpha),
              reinterpret_cast<const __half *const *>(G.A->pointerArray()),
              G.A->Ld,
              reinterpret_cast<const __half *const *>(G.B->pointerArray()),
              G.B->Ld, static_cast<const __half *>(G.Beta),
              reinterpret_cast<__half *const *>(G.C->pointerArray()), G.C->Ld,
              G.A->Batch);
        });
  check("cublasGemmBatchedEx", {CUDA_R_16BF, CUDA_R_16BF, Scalars::Float, false},
        3, true, [](const GemmArgs &G) {
          return cublasGemmBatchedEx(
              G.H, G.TA, G.TB, G.M, G.N, G.K, G.Alpha,
              reinterpret_cast<const void *const *>(G.A->pointerArray()),
              CUDA_R_16BF, G.A->Ld,
              reinterpret_cast<const void *const *>(G.B->pointerArray()),
              CUDA_R_16BF, G.B->Ld, G.Beta,
              reinterpret_cast<void *const *>(G.C->pointerArray()),
              CUDA_R_16BF, G.C->Ld, G.A->Batch, CUBLAS_COMPUTE_32F,
              CUBLAS_GEMM_DEFAULT);
        });
}

// --- argument checks ----------------------------------------------------------

TEST_F(CublasGemm, ArgumentChecks) {
  float One = 1, Zero = 0;
  float *A = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&A), 64 * sizeof(float)),
            cudaSuccess);
  auto Sgemm = [&](cublasHandle_t Hd, cublasOperation_t TA, int M, int N,
                   int K, int Lda, int Ldb, int Ldc, const float *Alpha) {
    return cublasSgemm(Hd, TA, CUBLAS_OP_N, M, N, K, Alpha, A, Lda, A, Ldb,
                       &Zero, A, Ldc);
  };
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, 4, 4, 4, 4, 4, 4, &One),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Sgemm(nullptr, CUBLAS_OP_N, 4, 4, 4, 4, 4, 4, &One),
            CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, -1, 4, 4, 4, 4, 4, &One),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, 4, 4, 4, 3, 4, 4, &One), // lda < m
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_T, 4, 4, 2, 2, 4, 4, &One), // lda >= k: fine
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, 4, 4, 5, 4, 4, 4, &One), // ldb < k
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, 4, 4, 4, 4, 4, 3, &One), // ldc < m
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(Sgemm(H, static_cast<cublasOperation_t>(7), 4, 4, 4, 4, 4, 4,
                  &One),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, 4, 4, 4, 4, 4, 4, nullptr),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(Sgemm(H, CUBLAS_OP_N, 0, 4, 4, 1, 4, 1, &One),
            CUBLAS_STATUS_SUCCESS);
  // Types that name nothing, and combinations not done.
  EXPECT_EQ(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &One, A,
                         static_cast<cudaDataType>(99), 4, A, CUDA_R_32F, 4,
                         &Zero, A, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F,
                         CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &One, A,
                         CUDA_R_32F, 4, A, CUDA_R_32F, 4, &Zero, A, CUDA_R_32F,
                         4, static_cast<cublasComputeType_t>(12345),
                         CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &One, A,
                         CUDA_R_8I, 4, A, CUDA_R_8I, 4, &Zero, A, CUDA_R_32I,
                         4, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(cublasGemmStridedBatchedEx(
                H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &One, A, CUDA_R_32F, 2,
                4, A, CUDA_R_32F, 2, 4, &Zero, A, CUDA_R_32F, 2, 4, -1,
                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasSgemmBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &One,
                               nullptr, 2, nullptr, 2, &Zero, nullptr, 2, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  cudaFree(A);
}

TEST(Cublas, BetaZeroDoesNotReadC) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  float *M;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&M), 12 * sizeof(float)),
            cudaSuccess);
  float Host[12] = {1, 0, 0, 1, 2, 3, 4, 5, NAN, NAN, NAN, NAN};
  cudaMemcpy(M, Host, sizeof(Host), cudaMemcpyHostToDevice);
  float One = 1, Zero = 0;
  ASSERT_EQ(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &One, M, 2,
                        M + 4, 2, &Zero, M + 8, 2),
            CUBLAS_STATUS_SUCCESS);
  cudaMemcpy(Host, M, sizeof(Host), cudaMemcpyDeviceToHost);
  EXPECT_EQ(Host[8], 2);
  EXPECT_EQ(Host[9], 3);
  EXPECT_EQ(Host[10], 4);
  EXPECT_EQ(Host[11], 5);
  cudaFree(M);
  cublasDestroy(H);
}

// --- level 1 and 2 ------------------------------------------------------------

class CublasLevel12 : public CublasGemm {};

template <typename T> T *device(const std::vector<T> &V) {
  T *P = nullptr;
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void **>(&P),
                       std::max<size_t>(1, V.size()) * sizeof(T)),
            cudaSuccess);
  cudaMemcpy(P, V.data(), V.size() * sizeof(T), cudaMemcpyHostToDevice);
  return P;
}
template <typename T> std::vector<T> host(const T *P, size_t N) {
  std::vector<T> V(N);
  cudaMemcpy(V.data(), P, N * sizeof(T), cudaMemcpyDeviceToHost);
  return V;
}

TEST_F(CublasLevel12, SingleAndDouble) {
  float *X = device<float>({1, -7, 3, 7, 2}), *Y = device<float>({1, 1, 1, 1, 1});
  float Two = 2, R = 0;
  ASSERT_EQ(cublasSaxpy(H, 5, &Two, X, 1, Y, 1), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(host(Y, 5), (std::vector<float>{3, -13, 7, 15, 5}));
  ASSERT_EQ(cublasSdot(H, 5, X, 1, Y, 1, &R), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(R, 3 + 91 + 21 + 105 + 10);
  ASSERT_EQ(cublasSnrm2(H, 5, X, 1, &R), CUBLAS_STATUS_SUCCESS);
  EXPECT_NEAR(R, std::sqrt(112.0), 1e-5);
  int I = -1;
  ASSERT_EQ(cublasIsamax(H, 5, X, 1, &I), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(I, 2);
  ASSERT_EQ(cublasSscal(H, 3, &Two, X, 2), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(host(X, 5), (std::vector<float>{2, -7, 6, 7, 4}));
  // Device pointer mode: the result is written to device memory.
  float *DevR = device<float>({0});
  cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE);
  ASSERT_EQ(cublasSdot(H, 2, X, 1, X, 1, DevR), CUBLAS_STATUS_SUCCESS);
  cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST);
  cudaDeviceSynchronize();
  EXPECT_EQ(host(DevR, 1)[0], 4 + 49);

  double *Xd = device<double>({3, 4}), *Yd = device<double>({1, 2});
  double One = 1, Rd = 0;
  ASSERT_EQ(cublasDaxpy(H, 2, &One, Xd, 1, Yd, 1), CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasDdot(H, 2, Xd, 1, Yd, 1, &Rd), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Rd, 3 * 4 + 4 * 6);
  ASSERT_EQ(cublasDnrm2(H, 2, Xd, 1, &Rd), CUBLAS_STATUS_SUCCESS);
  EXPECT_DOUBLE_EQ(Rd, 5);
  ASSERT_EQ(cublasDscal(H, 2, &One, Xd, 1), CUBLAS_STATUS_SUCCESS);
  int64_t I64 = 0;
  ASSERT_EQ(cublasIdamax_64(H, 2, Xd, 1, &I64), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(I64, 2);
  ASSERT_EQ(cublasIdamax(H, 0, Xd, 1, &I), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(I, 0);
  ASSERT_EQ(cublasSdot_64(H, 0, X, 1, X, 1, &R), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(R, 0);
  // Checks.
  EXPECT_EQ(cublasSdot(H, 2, X, 1, X, 1, nullptr), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasSaxpy(nullptr, 2, &Two, X, 1, Y, 1),
            CUBLAS_STATUS_NOT_INITIALIZED);
  cudaFree(X);
  cudaFree(Y);
  cudaFree(DevR);
  cudaFree(Xd);
  cudaFree(Yd);
}

TEST_F(CublasLevel12, ExForms) {
  std::vector<__half> HX = {__float2half(1.5f), __float2half(-2.0f)},
                      HY = {__float2half(1.0f), __float2half(1.0f)};
  __half *X = device(HX), *Y = device(HY);
  float Two = 2, R = 0;
  ASSERT_EQ(cublasAxpyEx(H, 2, &Two, CUDA_R_32F, X, CUDA_R_16F, 1, Y,
                         CUDA_R_16F, 1, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  std::vector<__half> Got = host(Y, 2);
  EXPECT_EQ(__half2float(Got[0]), 4);
  EXPECT_EQ(__half2float(Got[1]), -3);
  ASSERT_EQ(cublasDotEx(H, 2, X, CUDA_R_16F, 1, Y, CUDA_R_16F, 1, &R,
                        CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(R, 12);
  ASSERT_EQ(cublasNrm2Ex(H, 2, Y, CUDA_R_16F, 1, &R, CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(R, 5);
  ASSERT_EQ(cublasScalEx(H, 2, &Two, CUDA_R_32F, Y, CUDA_R_16F, 1, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  Got = host(Y, 2);
  EXPECT_EQ(__half2float(Got[0]), 8);
  EXPECT_EQ(cublasNrm2Ex(H, 2, Y, static_cast<cudaDataType>(99), 1, &R,
                         CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasNrm2Ex(H, 2, Y, CUDA_R_16F, 1, &R, CUDA_R_32F, CUDA_R_16F),
            CUBLAS_STATUS_NOT_SUPPORTED);
  cudaFree(X);
  cudaFree(Y);
}

TEST_F(CublasLevel12, Gemv) {
  // A = [1 2 3; 4 5 6] with lda 3.
  float *A = device<float>({1, 4, 0, 2, 5, 0, 3, 6, 0});
  float *X = device<float>({1, 1, 1}), *Y = device<float>({1, 1});
  float One = 1, Two = 2, Zero = 0;
  ASSERT_EQ(cublasSgemv(H, CUBLAS_OP_N, 2, 3, &One, A, 3, X, 1, &Two, Y, 1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(host(Y, 2), (std::vector<float>{8, 17}));
  float *Xt = device<float>({1, 2}), *Yt = device<float>({9, 9, 9});
  ASSERT_EQ(cublasSgemv_64(H, CUBLAS_OP_T, 2, 3, &One, A, 3, Xt, 1, &Zero, Yt,
                           1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(host(Yt, 3), (std::vector<float>{9, 12, 15}));
  EXPECT_EQ(cublasSgemv(H, CUBLAS_OP_N, 2, 3, &One, A, 1, X, 1, &Two, Y, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasSgemv(H, CUBLAS_OP_N, 2, 3, &One, A, 3, X, 0, &Two, Y, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  double *Ad = device<double>({2, 0, 0, 2}), *Xd = device<double>({1, 3}),
         *Yd = device<double>({0, 0});
  double OneD = 1, ZeroD = 0;
  ASSERT_EQ(cublasDgemv(H, CUBLAS_OP_N, 2, 2, &OneD, Ad, 2, Xd, 1, &ZeroD, Yd,
                        1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(host(Yd, 2), (std::vector<double>{2, 6}));
  for (void *P : {static_cast<void *>(A), static_cast<void *>(X),
                  static_cast<void *>(Y), static_cast<void *>(Xt),
                  static_cast<void *>(Yt), static_cast<void *>(Ad),
                  static_cast<void *>(Xd), static_cast<void *>(Yd)})
    cudaFree(P);
}

// --- handles, modes, versions, logging, copies -------------------------------

namespace {
std::vector<std::string> Logged;
void logTo(const char *Msg) { Logged.push_back(Msg); }
} // namespace

TEST(Cublas, HandleState) {
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  EXPECT_EQ(cublasSetStream(H, S), CUBLAS_STATUS_SUCCESS);
  cudaStream_t Got = nullptr;
  EXPECT_EQ(cublasGetStream(H, &Got), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Got, S);
  cublasPointerMode_t PM;
  EXPECT_EQ(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasGetPointerMode(H, &PM), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(PM, CUBLAS_POINTER_MODE_DEVICE);
  EXPECT_EQ(cublasSetPointerMode(H, static_cast<cublasPointerMode_t>(5)),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasMath_t MM;
  EXPECT_EQ(cublasSetMathMode(H, CUBLAS_TF32_TENSOR_OP_MATH),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasGetMathMode(H, &MM), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(MM, CUBLAS_TF32_TENSOR_OP_MATH);
  EXPECT_EQ(cublasSetMathMode(H, static_cast<cublasMath_t>(
                                     CUBLAS_DEFAULT_MATH |
                                     CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasSetMathMode(H, static_cast<cublasMath_t>(5)),
            CUBLAS_STATUS_INVALID_VALUE);
  cublasAtomicsMode_t AM;
  EXPECT_EQ(cublasSetAtomicsMode(H, CUBLAS_ATOMICS_ALLOWED),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasGetAtomicsMode(H, &AM), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(AM, CUBLAS_ATOMICS_ALLOWED);
  void *Ws;
  ASSERT_EQ(cudaMalloc(&Ws, 1 << 20), cudaSuccess);
  EXPECT_EQ(cublasSetWorkspace(H, Ws, 1 << 20), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasSetWorkspace(H, nullptr, 16), CUBLAS_STATUS_INVALID_VALUE);
  int V = 0;
  EXPECT_EQ(cublasGetVersion(H, &V), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(V / 10000, 13);
  EXPECT_EQ(cublasGetProperty(MAJOR_VERSION, &V), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(V, 13);
  EXPECT_GE(cublasGetCudartVersion(), 13000u);
  EXPECT_STREQ(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE),
               "CUBLAS_STATUS_INVALID_VALUE");
  EXPECT_NE(std::string(cublasGetStatusString(CUBLAS_STATUS_NOT_SUPPORTED)),
            "");
  EXPECT_EQ(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasDestroy(H), CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(cublasSetStream(H, S), CUBLAS_STATUS_NOT_INITIALIZED);
  cudaFree(Ws);
  cudaStreamDestroy(S);
}

TEST(Cublas, LoggerCallback) {
  cublasHandle_t H;
  ASSERT_EQ(cublasSetLoggerCallback(logTo), CUBLAS_STATUS_SUCCESS);
  cublasLogCallback CB = nullptr;
  EXPECT_EQ(cublasGetLoggerCallback(&CB), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(CB, logTo);
  ASSERT_EQ(cublasLoggerConfigure(1, 0, 0, nullptr), CUBLAS_STATUS_SUCCESS);
  Logged.clear();
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  float One = 1, X[4] = {1, 2, 3, 4};
  float *D = device<float>({1, 2, 3, 4});
  ASSERT_EQ(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &One, D, 2, D, 2,
                        &One, D, 2),
            CUBLAS_STATUS_SUCCESS);
  cublasLoggerConfigure(0, 0, 0, nullptr);
  cublasSetLoggerCallback(nullptr);
  cublasDestroy(H);
  cudaFree(D);
  (void)X;
  ASSERT_GE(Logged.size(), 2u);
  EXPECT_NE(Logged[0].find("cublasCreate"), std::string::npos);
  EXPECT_NE(Logged[1].find("cublasSgemm"), std::string::npos);
}

TEST(Cublas, VectorAndMatrixCopies) {
  float Host[6] = {1, 2, 3, 4, 5, 6}, Back[6] = {};
  float *D;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&D), sizeof(Host) * 2),
            cudaSuccess);
  cudaMemset(D, 0, sizeof(Host) * 2);
  // Every other element of Host into consecutive device elements.
  ASSERT_EQ(cublasSetVector(3, sizeof(float), Host, 2, D, 1),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cublasGetVector(3, sizeof(float), D, 1, Back, 1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(Back[0], 1);
  EXPECT_EQ(Back[1], 3);
  EXPECT_EQ(Back[2], 5);
  // A 2 x 3 matrix with lda 2 into ldb 4.
  ASSERT_EQ(cublasSetMatrix(2, 3, sizeof(float), Host, 2, D, 4),
            CUBLAS_STATUS_SUCCESS);
  float Wide[12] = {};
  cudaMemcpy(Wide, D, sizeof(Wide), cudaMemcpyDeviceToHost);
  EXPECT_EQ(Wide[4], 3);
  EXPECT_EQ(Wide[9], 6);
  ASSERT_EQ(cublasGetMatrixAsync(2, 3, sizeof(float), D, 4, Back, 2, nullptr),
            CUBLAS_STATUS_SUCCESS);
  cudaDeviceSynchronize();
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(Back[I], Host[I]);
  EXPECT_EQ(cublasSetMatrix(3, 2, sizeof(float), Host, 2, D, 4),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasSetVector(3, sizeof(float), Host, 0, D, 1),
            CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_EQ(cublasSetVectorAsync_64(2, 0, Host, 1, D, 1, nullptr),
            CUBLAS_STATUS_INVALID_VALUE);
  cudaFree(D);
}

TEST(Cublas, StreamOrder) {
  // A GEMM on a created stream after an async copy into its operand sees
  // the copy's data, and a copy after it sees its result.
  cublasHandle_t H;
  ASSERT_EQ(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
  cudaStream_t S;
  cudaStreamCreate(&S);
  cublasSetStream(H, S);
  float *D;
  cudaMalloc(reinterpret_cast<void **>(&D), 12 * sizeof(float));
  float Host[12] = {2, 0, 0, 2, 1, 2, 3, 4, 0, 0, 0, 0}, Out[4];
  cudaMemcpyAsync(D, Host, sizeof(Host), cudaMemcpyHostToDevice, S);
  float One = 1, Zero = 0;
  ASSERT_EQ(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &One, D, 2,
                        D + 4, 2, &Zero, D + 8, 2),
            CUBLAS_STATUS_SUCCESS);
  cudaMemcpyAsync(Out, D + 8, sizeof(Out), cudaMemcpyDeviceToHost, S);
  cudaStreamSynchronize(S);
  EXPECT_EQ(Out[0], 2);
  EXPECT_EQ(Out[3], 8);
  cudaFree(D);
  cublasDestroy(H);
  cudaStreamDestroy(S);
}
