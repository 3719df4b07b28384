// HIP twin of samples/vector_add.cu's kernel.
#include "twin.h"

extern "C" __global__ void vectorAdd(const float *a, const float *b, float *c,
                                     int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * twinBlockDimX() +
          __builtin_amdgcn_workitem_id_x();
  if (i < n)
    c[i] = a[i] + b[i];
}
