// mlp_multifile, file 3 of 4: the residual connection, Out = X + Alpha * R,
// through a device function that main.cu's own kernel calls as well.
#include "mlp.h"

__device__ float residualScale(float X, float Residual, float Alpha) {
  return fmaf(Alpha, Residual, X);
}

__global__ void residualAdd(float *Out, const float *X, const float *Residual,
                            float Alpha, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = residualScale(X[I], Residual[I], Alpha);
}
