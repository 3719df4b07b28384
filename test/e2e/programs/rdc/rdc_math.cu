// Relocatable device code, file 1 of 3: device functions and a device
// variable other files reach through extern declarations.
#include "rdc_shared.h"

__device__ int rdcScale = 1;

__device__ int rdcSquare(int X) { return X * X; }
__device__ int rdcScaled(int X) { return X * rdcScale; }

// A kernel of this file, launched from main.cu through its host stub.
__global__ void rdcFill(int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = rdcOffset(I);
}
