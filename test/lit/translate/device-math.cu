// Float and double math functions and the integer and fast-math intrinsics
// have the same names in HIP: they stay as written, are counted as converted
// in the device family, and nothing is reported as unmapped.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.hip --print-stats=json > %t.json
// RUN: python3 -m json.tool %t.json | FileCheck --check-prefix=STATS %s
// RUN: %if hipcc %{ %hipcc --offload-arch=gfx90a -c %t.hip -o %t.o %}

#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>

__global__ void fmath(const float *in, float *out) {
  float x = in[threadIdx.x];
  float a = expf(x) + __expf(x) + __fdividef(x, 3.0f) + rsqrtf(x);
  // CHECK:   float a = expf(x) + __expf(x) + __fdividef(x, 3.0f) + rsqrtf(x);
  float b = fmaf(x, a, 1.0f) + tanhf(a) + erff(a);
  // CHECK:   float b = fmaf(x, a, 1.0f) + tanhf(a) + erff(a);
  float s, c;
  sincosf(x, &s, &c);
  // CHECK:   sincosf(x, &s, &c);
  out[threadIdx.x] = __saturatef(a + b + s * c);
  // CHECK:   out[threadIdx.x] = __saturatef(a + b + s * c);
}

__global__ void dmath(const double *in, double *out) {
  double x = in[threadIdx.x];
  double s, c;
  sincos(x, &s, &c);
  // CHECK:   sincos(x, &s, &c);
  out[threadIdx.x] = exp(x) + rsqrt(x) + fma(x, s, c) + tanh(x) + erf(x);
  // CHECK:   out[threadIdx.x] = exp(x) + rsqrt(x) + fma(x, s, c) + tanh(x) + erf(x);
}

__global__ void bits(const unsigned *in, unsigned *out) {
  unsigned v = in[threadIdx.x];
  int n = __popc(v) + __clz((int)v) + __ffs((int)v);
  // CHECK:   int n = __popc(v) + __clz((int)v) + __ffs((int)v);
  unsigned p = __byte_perm(v, n, 0x3210) ^ __funnelshift_l(v, n, 7);
  // CHECK:   unsigned p = __byte_perm(v, n, 0x3210) ^ __funnelshift_l(v, n, 7);
  out[threadIdx.x] = __umulhi(v, p);
  // CHECK:   out[threadIdx.x] = __umulhi(v, p);
}
// DIAG-NOT: warning
// The 21 calls above and the 6 threadIdx references.
// STATS: "device": {
// STATS-NEXT: "converted": 27,
// STATS-NEXT: "unconverted": 0
