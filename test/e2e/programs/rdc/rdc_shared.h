// Declarations shared by the three files of the relocatable device code test.
#pragma once

extern __device__ int rdcScale;
extern __device__ int rdcBias[4];
__device__ int rdcSquare(int X);
__device__ int rdcScaled(int X);
__device__ int rdcOffset(int X);
__global__ void rdcFill(int *Out, int N);
