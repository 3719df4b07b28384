#include "scale.h"
__global__ void broken(float *X) {
  // The compat block and the HIP include the translator adds above must not
  // move this line: the error below is reported at broken.cu:5.
  X[threadIdx.x] = __shfl_sync(0xffffffff, not_declared, 0);
}
