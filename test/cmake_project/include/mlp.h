// The kernels of a transformer MLP's activation stage, and the host helpers
// that move buffers (a plain C++ file calling the CUDA runtime).
#pragma once
#include <cuda_runtime.h>

// gelu.cu: GPT-2's tanh GELU, forward (the kernel of samples/gelu.cu).
__global__ void geluForward(float *out, const float *inp, int n);
// bias.cu: out[r][c] = gelu(x[r][c] + bias[c]), through geluValue in
// activation_math.cu (device code across files: separable compilation).
__global__ void biasGelu(float *out, const float *x, const float *bias,
                         int rows, int cols);
__device__ float geluValue(float x);

// host_buffers.cpp
float *deviceCopyOf(const float *host, int n);
bool hostCopyOf(float *host, const float *device, int n);
