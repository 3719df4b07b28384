// mlp_multifile, file 1 of 4: the GELU activation (tanh form, as GPT-2 uses
// it) reading its coefficients from a __constant__ array that main.cu sets
// with cudaMemcpyToSymbol.
#include "mlp.h"

__constant__ float GeluCoeff[2];

__device__ float geluTanh(float X) {
  float Inner = GeluCoeff[0] * (X + GeluCoeff[1] * X * X * X);
  return 0.5f * X * (1.0f + tanhf(Inner));
}
