// Warp vote, ballot and shuffle: HIP 5.2 gets the 32-lane compat definitions
// (and the result compiles with hipcc), HIP 6.2 its own _sync functions.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.52.hip 2>/dev/null
// RUN: FileCheck --check-prefix=V52 %s < %t.52.hip
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path 2>/dev/null | FileCheck --check-prefix=V62 %s
// RUN: %if hipcc %{ %hipcc --offload-arch=gfx90a -c %t.52.hip -o %t.o %}

#include <cuda_runtime.h>

__global__ void vote(const int *in, unsigned *out) {
  int v = in[threadIdx.x];
  unsigned active = __activemask();
  unsigned b = __ballot_sync(active, v > 0);
  int any = __any_sync(active, v < 0), all = __all_sync(active, v != 0);
  __syncwarp();
  unsigned same = __match_any_sync(active, v);
  unsigned sum = __reduce_add_sync(active, (unsigned)v);
  out[threadIdx.x] = b + any + all + same + sum + __shfl_xor_sync(active, v, 1);
}
// V52: {{^ *}}// cuhip: warp_sync, for HIP before 6.2
// V52-NEXT: {{^ *}}#if HIP_VERSION < 60200000 && !defined({{CUHIP_COMPAT_WARP}}_SYNC)
// V52: {{^ *}}__device__ inline unsigned __ballot_sync(unsigned long long Mask, int Pred) {
// V52: {{^ *}}unsigned b = __ballot_sync(active, v > 0);
// V62-NOT: cuhip: warp_sync
// V62: {{^ *}}unsigned b = __ballot_sync(active, v > 0);
