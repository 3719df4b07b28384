// HIP twin of samples/matmul_tiled.cu's kernel: 16x16 LDS tiles, two
// barriers per tile step.
#include "twin.h"

constexpr int TILE = 16;

extern "C" __global__ void matmulTiled(const float *A, const float *B,
                                       float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  unsigned tx = __builtin_amdgcn_workitem_id_x();
  unsigned ty = __builtin_amdgcn_workitem_id_y();
  int row = __builtin_amdgcn_workgroup_id_y() * TILE + ty;
  int col = __builtin_amdgcn_workgroup_id_x() * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + tx, bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    twinSyncThreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    twinSyncThreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
