// HIP twin of samples/saxpy.cu's kernel (grid-stride loop).
#include "twin.h"

extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x,
                                 float *__restrict__ y) {
  for (int i = __builtin_amdgcn_workgroup_id_x() * twinBlockDimX() +
               __builtin_amdgcn_workitem_id_x();
       i < n; i += twinBlockDimX() * twinGridDimX())
    y[i] = a * x[i] + y[i];
}
