// Code that assumes a 32-lane warp is reported at the exact place; with
// --warp-size-safe and the 32-lane compat warp functions (HIP 5.2), device
// code's warpSize becomes 32 and nothing else changes.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --check-prefix=KEEP %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err
// RUN: %cuhip translate %s --hip-version 5.2 --warp-size-safe --cuda-path %cuda_path 2>/dev/null | FileCheck --check-prefix=SAFE %s
// RUN: %cuhip translate %s --hip-version 6.2 --warp-size-safe --cuda-path %cuda_path 2>/dev/null | FileCheck --check-prefix=KEEP %s

#include <cuda_runtime.h>

__global__ void sum(float *p, unsigned *out) {
  unsigned lane = threadIdx.x % 32;
  unsigned warp = threadIdx.x >> 5;
  float v = p[threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  unsigned b = __ballot_sync(~0u, v > 0);
  out[warp] = __popc(__ballot_sync(0xffffffffu, lane & 1)) + b;
}
// KEEP: {{^ *}}for (int o = warpSize / 2; o > 0; o /= 2)
// SAFE: {{^ *}}unsigned lane = threadIdx.x % 32;
// SAFE: {{^ *}}for (int o = 32 / 2; o > 0; o /= 2)
// SAFE: {{^ *}}v += __shfl_down_sync(0xffffffff, v, o);
// DIAG: warp-size.cu:13:33: warning: '32' takes the warp to be 32 lanes {{.*}} [cuhip-warp-size]
// DIAG: warp-size.cu:14:34: warning: '5' takes the warp to be 32 lanes
// DIAG: warp-size.cu:16:16: warning: warpSize is the wavefront size in HIP (64 on CDNA), CUDA code means 32
// DIAG: warp-size.cu:17:27: warning: member mask of '__shfl_down_sync' names 32 lanes
// DIAG: warp-size.cu:18:12: warning: 'b' keeps a __ballot_sync result in 32 bits
// DIAG: warp-size.cu:18:30: warning: member mask of '__ballot_sync' names 32 lanes
// DIAG: warp-size.cu:19:15: warning: __popc counts the low 32 bits of a __ballot_sync result
// DIAG: warp-size.cu:19:36: warning: member mask of '__ballot_sync' names 32 lanes
