#include "mlp.h"

__global__ void geluForward(float *out, const float *inp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = geluValue(inp[i]);
}
