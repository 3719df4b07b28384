//===- BlasBench.cpp - cuhip's cuBLAS against OpenBLAS called directly ----===//
//
// GFLOP/s of single-precision GEMMs through cuhip's libcublas.so.13 (on the
// CPU backend, where cublasSgemm ends in OpenBLAS's sgemm) next to the same
// GEMM through cblas_sgemm called directly, measured in the same run with
// the repetitions interleaved so that machine load affects both alike. The
// shapes are a 1024^3 cube and GPT-2's MLP up-projection as llm.c calls
// it (4096 tokens x 768 channels -> 3072: m=3072 n=4096 k=768, A
// transposed). The figure of merit is the ratio, target >= 0.9. Also shown:
// GemmEx with bf16 inputs (converted to f32 and back), against sgemm.
//
// usage: blas_bench [--quick] [--reps N]
//
//===----------------------------------------------------------------------===//
#include "CublasTypes.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

// What this program calls of libcublas.so.13 and libcudart.so.13.
extern "C" {
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc);
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k,
                            const void *alpha, const void *A, cudaDataType Atype,
                            int lda, const void *B, cudaDataType Btype, int ldb,
                            const void *beta, void *C, cudaDataType Ctype,
                            int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo);
int cudaMalloc(void **DevPtr, size_t Size);
int cudaFree(void *DevPtr);
int cudaDeviceSynchronize();
}

namespace {

double seconds(const std::function<void()> &F) {
  auto T0 = std::chrono::steady_clock::now();
  F();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
      .count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

void *deviceFloats(size_t N, float Value) {
  void *P = nullptr;
  if (cudaMalloc(&P, N * sizeof(float)) != 0) {
    std::fprintf(stderr, "blas_bench: cudaMalloc of %zu floats failed\n", N);
    std::exit(1);
  }
  float *F = static_cast<float *>(P); // host-addressable on the CPU backend
  for (size_t I = 0; I < N; ++I)
    F[I] = Value * static_cast<float>((I % 17) - 8) / 8;
  return P;
}

struct Shape {
  const char *Name;
  cublasOperation_t TA;
  int M, N, K;
};

} // namespace

int main(int argc, char **argv) {
  bool Quick = false;
  int Reps = 7;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--quick"))
      Quick = true;
    else if (!std::strcmp(argv[I], "--reps") && I + 1 < argc)
      Reps = std::atoi(argv[++I]);
    else {
      std::fprintf(stderr, "usage: blas_bench [--quick] [--reps N]\n");
      return 2;
    }
  }
  if (Quick)
    Reps = 1;
  cublasHandle_t H;
  if (cublasCreate_v2(&H) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "blas_bench: cublasCreate failed (is a backend "
                         "available? see `cuhip info`)\n");
    return 1;
  }
  const Shape Shapes[] = {
      {"sgemm 1024x1024x1024", CUBLAS_OP_N, 1024, 1024, 1024},
      {"sgemm 4096x768x3072 (llm.c fc)", CUBLAS_OP_T, 3072, 4096, 768},
  };
  const Shape QuickShapes[] = {{"sgemm 128x128x128", CUBLAS_OP_N, 128, 128, 128}};
  std::printf("%-34s %12s %12s %8s\n", "GEMM", "cuhip GF/s", "OpenBLAS GF/s",
              "ratio");
  int Failures = 0;
  auto Run = [&](const Shape &S) {
    int Lda = S.TA == CUBLAS_OP_N ? S.M : S.K;
    float *A = static_cast<float *>(deviceFloats(size_t(S.M) * S.K, 1));
    float *B = static_cast<float *>(deviceFloats(size_t(S.K) * S.N, 0.5f));
    float *C = static_cast<float *>(deviceFloats(size_t(S.M) * S.N, 0));
    float One = 1, Zero = 0;
    auto Cuhip = [&] {
      if (cublasSgemm_v2(H, S.TA, CUBLAS_OP_N, S.M, S.N, S.K, &One, A, Lda, B,
                         S.K, &Zero, C, S.M) != CUBLAS_STATUS_SUCCESS)
        ++Failures;
      cudaDeviceSynchronize();
    };
    auto Direct = [&] {
      cblas_sgemm(CblasColMajor,
                  S.TA == CUBLAS_OP_N ? CblasNoTrans : CblasTrans,
                  CblasNoTrans, S.M, S.N, S.K, 1, A, Lda, B, S.K, 0, C, S.M);
    };
    Cuhip(); // warm both up (OpenBLAS's threads, first touch)
    Direct();
    std::vector<double> TC, TD;
    for (int R = 0; R < Reps; ++R) {
      TC.push_back(seconds(Cuhip));
      TD.push_back(seconds(Direct));
    }
    double Flops = 2.0 * S.M * S.N * S.K;
    double GC = Flops / median(TC) / 1e9, GD = Flops / median(TD) / 1e9;
    std::printf("%-34s %12.1f %12.1f %8.3f\n", S.Name, GC, GD, GC / GD);
    // bf16 inputs through GemmEx, against the sgemm above.
    std::vector<uint16_t> Ab(size_t(S.M) * S.K, 0x3f80),
        Bb(size_t(S.K) * S.N, 0x3f00);
    void *DA, *DB;
    cudaMalloc(&DA, Ab.size() * 2);
    cudaMalloc(&DB, Bb.size() * 2);
    std::memcpy(DA, Ab.data(), Ab.size() * 2);
    std::memcpy(DB, Bb.data(), Bb.size() * 2);
    auto Bf16 = [&] {
      if (cublasGemmEx(H, S.TA, CUBLAS_OP_N, S.M, S.N, S.K, &One, DA,
                       CUDA_R_16BF, Lda, DB, CUDA_R_16BF, S.K, &Zero, C,
                       CUDA_R_32F, S.M, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
        ++Failures;
      cudaDeviceSynchronize();
    };
    Bf16();
    std::vector<double> TB;
    for (int R = 0; R < std::max(1, Reps / 2); ++R)
      TB.push_back(seconds(Bf16));
    double GB = Flops / median(TB) / 1e9;
    std::printf("%-34s %12.1f %12.1f %8.3f\n", "  GemmEx bf16 in, f32 out", GB,
                GD, GB / GD);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cudaFree(DA);
    cudaFree(DB);
  };
  if (Quick)
    for (const Shape &S : QuickShapes)
      Run(S);
  else
    for (const Shape &S : Shapes)
      Run(S);
  cublasDestroy_v2(H);
  if (Failures) {
    std::fprintf(stderr, "blas_bench: %d cuBLAS calls failed\n", Failures);
    return 1;
  }
  return 0;
}
