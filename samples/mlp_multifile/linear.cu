// mlp_multifile, file 2 of 4: a fully connected layer, Out = gelu(In W^T + b),
// one thread per output element. It calls geluTanh from activations.cu and
// counts its multiply-adds in a __device__ variable that main.cu reads back.
#include "mlp.h"

__device__ unsigned long long MacCount = 0;

__global__ void linearGelu(float *Out, const float *In, const float *Weight,
                           const float *Bias, int Rows, int InDim, int OutDim) {
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = blockIdx.y;
  if (Row >= Rows || Col >= OutDim)
    return;
  const float *X = In + (size_t)Row * InDim;
  const float *W = Weight + (size_t)Col * InDim;
  float Acc = Bias[Col];
  for (int K = 0; K < InDim; ++K)
    Acc = fmaf(X[K], W[K], Acc);
  Out[(size_t)Row * OutDim + Col] = geluTanh(Acc);
  atomicAdd(&MacCount, (unsigned long long)InDim);
}
