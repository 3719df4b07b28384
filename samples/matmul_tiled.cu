// matmul_tiled: C = A * B with TILE x TILE shared-memory tiles, a 2-D grid of
// 2-D blocks and __syncthreads inside the tile loop. Sizes are not multiples
// of the tile so the edge guards run too. Checks against a host product and
// prints PASS or FAIL.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,  \
                   #call, cudaGetErrorName(err_), cudaGetErrorString(err_));   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int TILE = 16;

__global__ void matmulTiled(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 200;
  int N = argc > 2 ? std::atoi(argv[2]) : 150;
  int K = argc > 3 ? std::atoi(argv[3]) : 130;
  float *hA = (float *)std::malloc(sizeof(float) * M * K);
  float *hB = (float *)std::malloc(sizeof(float) * K * N);
  float *hC = (float *)std::malloc(sizeof(float) * M * N);
  for (int i = 0; i < M * K; ++i)
    hA[i] = float((i * 37) % 101) / 101.0f - 0.5f;
  for (int i = 0; i < K * N; ++i)
    hB[i] = float((i * 53) % 97) / 97.0f - 0.5f;

  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, sizeof(float) * M * K));
  CHECK(cudaMalloc(&dB, sizeof(float) * K * N));
  CHECK(cudaMalloc(&dC, sizeof(float) * M * N));
  CHECK(cudaMemcpy(dA, hA, sizeof(float) * M * K, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, sizeof(float) * K * N, cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmulTiled<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hC, dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost));

  int bad = 0;
  double maxErr = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
      for (int k = 0; k < K; ++k)
        want += double(hA[i * K + k]) * hB[k * N + j];
      double err = std::fabs(want - hC[i * N + j]);
      maxErr = err > maxErr ? err : maxErr;
      if (err > 1e-3 && bad++ < 5)
        std::fprintf(stderr, "mismatch at (%d,%d): %f != %f\n", i, j,
                     hC[i * N + j], want);
    }
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  std::free(hA);
  std::free(hB);
  std::free(hC);
  std::printf("matmul_tiled %dx%dx%d max error %.2e: %s\n", M, N, K, maxErr,
              bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
