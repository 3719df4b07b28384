#include "mlp.h"

__global__ void biasGelu(float *out, const float *x, const float *bias,
                         int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = geluValue(x[r * cols + c] + bias[c]);
}
