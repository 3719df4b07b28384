// mlp_multifile: declarations shared by the files of the sample. The device
// functions, the __constant__ and __device__ variables and the kernels each
// live in one file and are used from the others, so the program only links
// with relocatable device code (nvcc -rdc=true, or -dc and -dlink as CMake's
// separable compilation does).
#pragma once

#include <cuda_runtime.h>

// activations.cu
extern __constant__ float GeluCoeff[2]; // sqrt(2/pi) and 0.044715
__device__ float geluTanh(float X);

// linear.cu
extern __device__ unsigned long long MacCount; // multiply-adds done
__global__ void linearGelu(float *Out, const float *In, const float *Weight,
                           const float *Bias, int Rows, int InDim, int OutDim);

// residual.cu
__device__ float residualScale(float X, float Residual, float Alpha);
__global__ void residualAdd(float *Out, const float *X, const float *Residual,
                            float Alpha, int N);
