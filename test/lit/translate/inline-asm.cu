// Inline PTX idioms become HIP code; anything else is reported with its
// location and text. The result compiles with hipcc once the unknown
// statement is gone (-DNO_BARRIER).
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <cuda_runtime.h>

__global__ void k(float *p, unsigned *q) {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  // CHECK: {{^ *}}id = __lane_id() & 31;
  float f;
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(f) : "l"(p));
  // CHECK: {{^ *}}f = __ldg(p);
  unsigned packed, x = q[0], y = q[1], sel = 0x5410;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(packed) : "r"(x), "r"(y), "r"(sel));
  // CHECK: {{^ *}}packed = __byte_perm(x, y, sel);
  unsigned short lo, hi;
  asm("mov.b32 {%0,%1}, %2;" : "=h"(lo), "=h"(hi) : "r"(packed));
  // CHECK: {{^ *}}lo = (unsigned short)(packed), hi = (unsigned short)((unsigned)(packed) >> 16);
  unsigned both;
  asm("mov.b32 %0, {%1,%2};" : "=r"(both) : "h"(lo), "h"(hi));
  // CHECK: {{^ *}}both = (unsigned)(unsigned short)(lo) | (unsigned)(unsigned short)(hi) << 16;
  asm volatile("bar.sync 0;");
  // CHECK: {{^ *}}asm volatile("bar.sync 0;");
  p[id] = f + both;
}
// DIAG: inline-asm.cu:26:3: warning: inline PTX has no HIP translation: 'bar.sync 0'; rewrite it with HIP device functions [cuhip-inline-asm]
// DIAG-NOT: inline PTX
