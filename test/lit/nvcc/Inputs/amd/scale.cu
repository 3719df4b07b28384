#include "scale.h"
__global__ void scale(float *X, float A, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= A;
}
int main() {
  float *X;
  cudaMalloc(&X, 256 * sizeof(float));
  scale<<<1, 256>>>(X, 2.0f, 256);
  return scaleSync() == cudaSuccess ? 0 : 1;
}
