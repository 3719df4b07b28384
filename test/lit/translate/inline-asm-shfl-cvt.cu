// The shuffle and bf16-pack idioms of inline PTX: shfl.sync in its four
// modes, with the lane, the packed clamp/width word and the member mask as
// operands or literals, and cvt.rn.bf16x2.f32 (first source in the upper
// half). For HIP 5.2 the compat definitions of the functions written are
// added although the file never named them; the result compiles.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.hip 2>%t.err
// RUN: FileCheck %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err

#include <cuda_runtime.h>
#include <cuda_bf16.h>

// CHECK: {{^}}#define CUHIP_COMPAT_{{WARP}}_SYNC
__global__ void k(unsigned *o, const float *f) {
  unsigned v = o[threadIdx.x], r, s, t, u, lm = 4;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lm));
  // CHECK: {{^ *}}r = __shfl_xor_sync(0xffffffff, (v), (lm), 32);
  asm volatile("shfl.sync.down.b32 %0, %1, 8, 0x101f, 0xffffffff;" : "=r"(s) : "r"(v));
  // CHECK: {{^ *}}s = __shfl_down_sync(0xffffffff, (v), 8, 16);
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0x0, 0xffffffff;" : "=r"(t) : "r"(v));
  // CHECK: {{^ *}}t = __shfl_up_sync(0xffffffff, (v), 1, 32);
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(u) : "r"(v), "r"(lm), "r"(0x1f), "r"(0xffffffffu));
  // CHECK: {{^ *}}u = __shfl_sync((0xffffffffu), (v), (lm), 32 - ((0x1f) >> 8));
  unsigned p;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(f[0]), "f"(f[1]));
  // CHECK: {{^ *}}p = ({ __hip_bfloat162 CuhipPair = __floats2bfloat162_rn(f[1], f[0]); unsigned CuhipBits; __builtin_memcpy(&CuhipBits, &CuhipPair, sizeof(CuhipBits)); CuhipBits; });
  o[threadIdx.x] = r + s + t + u + p;
}
// DIAG-NOT: inline-asm
