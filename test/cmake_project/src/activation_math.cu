#include "mlp.h"

#define GELU_SCALE 0.7978845608028654f // sqrt(2 / pi)

__device__ float geluValue(float x) {
  float cube = 0.044715f * x * x * x;
  return 0.5f * x * (1.0f + tanhf(GELU_SCALE * (x + cube)));
}
