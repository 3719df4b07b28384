// Relocatable device code, file 2 of 3: a device function that itself calls
// into file 1 and reads a variable defined in file 1.
#include "rdc_shared.h"

__device__ int rdcBias[4] = {10, 20, 30, 40};

__device__ int rdcOffset(int X) { return rdcBias[X & 3] + rdcScaled(1); }
