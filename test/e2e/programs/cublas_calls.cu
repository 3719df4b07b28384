// A program linked against NVIDIA's libcublas, run through `cuhip run`,
// which serves cuhip's libcublas.so.13 instead: a kernel writes the
// operands on a stream, cuBLAS multiplies them on the same stream (sgemm,
// GemmEx with bf16 inputs, strided-batched GemmEx as attention's Q*K^T
// does), and another kernel reads the result. Prints PASS when every
// element matches a host reference.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(X)                                                               \
  do {                                                                         \
    auto Rc = (X);                                                             \
    if (Rc != 0) {                                                             \
      std::printf("FAIL: %s returned %d\n", #X, (int)Rc);                     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void fill(float *P, int N, int Seed) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    P[I] = (float)((I * 7 + Seed) % 11 - 5) / 4;
}

__global__ void toBf16(const float *In, __nv_bfloat16 *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = __float2bfloat16(In[I]);
}

__global__ void addOne(float *P, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    P[I] += 1;
}

static float hostValue(int I, int Seed) {
  return (float)((I * 7 + Seed) % 11 - 5) / 4;
}

int main() {
  const int M = 37, N = 29, K = 45, Batch = 4;
  cudaStream_t S;
  CHECK(cudaStreamCreate(&S));
  cublasHandle_t H;
  CHECK(cublasCreate(&H));
  CHECK(cublasSetStream(H, S));
  float *A, *B, *C;
  __nv_bfloat16 *Ab, *Bb;
  CHECK(cudaMalloc(&A, sizeof(float) * K * M * Batch));
  CHECK(cudaMalloc(&B, sizeof(float) * K * N * Batch));
  CHECK(cudaMalloc(&C, sizeof(float) * M * N * Batch));
  CHECK(cudaMalloc(&Ab, sizeof(__nv_bfloat16) * K * M));
  CHECK(cudaMalloc(&Bb, sizeof(__nv_bfloat16) * K * N));
  fill<<<(K * M * Batch + 127) / 128, 128, 0, S>>>(A, K * M * Batch, 1);
  fill<<<(K * N * Batch + 127) / 128, 128, 0, S>>>(B, K * N * Batch, 2);
  toBf16<<<(K * M + 127) / 128, 128, 0, S>>>(A, Ab, K * M);
  toBf16<<<(K * N + 127) / 128, 128, 0, S>>>(B, Bb, K * N);
  std::vector<float> Got(M * N * Batch);
  int Bad = 0;
  // C = A^T * B with A stored K x M (lda K) and B K x N (ldb K), as
  // attention's scores are Q^T K per head.
  auto Check = [&](int Entries, float Plus, float Scale) {
    for (int Bt = 0; Bt < Entries; ++Bt)
      for (int J = 0; J < N; ++J)
        for (int I = 0; I < M; ++I) {
          double R = 0;
          for (int P = 0; P < K; ++P)
            R += (double)hostValue(Bt * K * M + I * K + P, 1) *
                 hostValue(Bt * K * N + J * K + P, 2);
          R = R * Scale + Plus;
          if (std::fabs(Got[Bt * M * N + J * M + I] - R) > 1e-3 * (1 + std::fabs(R)))
            ++Bad;
        }
  };
  const float One = 1, Zero = 0, Scale = 0.125f;
  CHECK(cublasSgemm(H, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &One, A, K, B, K,
                    &Zero, C, M));
  addOne<<<(M * N + 127) / 128, 128, 0, S>>>(C, M * N);
  CHECK(cudaMemcpyAsync(Got.data(), C, sizeof(float) * M * N,
                        cudaMemcpyDeviceToHost, S));
  CHECK(cudaStreamSynchronize(S));
  Check(1, 1, 1);
  // bf16 inputs, f32 output (the inputs are exact in bf16).
  CHECK(cublasGemmEx(H, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &One, Ab,
                     CUDA_R_16BF, K, Bb, CUDA_R_16BF, K, &Zero, C, CUDA_R_32F,
                     M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  CHECK(cudaMemcpyAsync(Got.data(), C, sizeof(float) * M * N,
                        cudaMemcpyDeviceToHost, S));
  CHECK(cudaStreamSynchronize(S));
  Check(1, 0, 1);
  // Per-head scores, scaled, in one strided-batched call.
  CHECK(cublasGemmStridedBatchedEx(
      H, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &Scale, A, CUDA_R_32F, K,
      (long long)K * M, B, CUDA_R_32F, K, (long long)K * N, &Zero, C,
      CUDA_R_32F, M, (long long)M * N, Batch, CUBLAS_COMPUTE_32F_FAST_TF32,
      CUBLAS_GEMM_DEFAULT));
  CHECK(cudaMemcpyAsync(Got.data(), C, sizeof(float) * M * N * Batch,
                        cudaMemcpyDeviceToHost, S));
  CHECK(cudaStreamSynchronize(S));
  Check(Batch, 0, Scale);
  CHECK(cublasDestroy(H));
  CHECK(cudaStreamDestroy(S));
  if (Bad) {
    std::printf("FAIL: %d elements differ from the host reference\n", Bad);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
