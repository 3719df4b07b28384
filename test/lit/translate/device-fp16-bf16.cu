// Half and bfloat16: cuda_fp16.h becomes hip/hip_fp16.h and the __half names
// stay; cuda_bf16.h becomes hip/hip_bf16.h and __nv_bfloat16 becomes
// __hip_bfloat16. HIP 5.2 has no hip_bf16.h (5.7 added it) and no __hmax
// (6.0 added it): the include is kept behind __has_include and compat
// definitions are inserted; for HIP 6.2 the include is plain and no compat
// block is inserted. device-fp16-bf16-hipcc.test compiles the 5.2 output.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t52.err | FileCheck --match-full-lines --check-prefixes=CHECK,V52 %s
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path 2>%t62.err | FileCheck --match-full-lines --check-prefixes=CHECK,V62 %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t52.err
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t62.err

#include <cuda_fp16.h>
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_fp16.h>
// V52-NEXT: #if __has_include(<hip/hip_bf16.h>)
// V52-NEXT: #include <hip/hip_bf16.h>
// V52-NEXT: #endif
// V62-NEXT: #include <hip/hip_bf16.h>
// V52-DAG: #if HIP_VERSION < 50700000 && !defined({{CUHIP_COMPAT}}_BF16)
// V52-DAG: struct __hip_bfloat16 {
// V52-DAG: #if HIP_VERSION < 60000000 && !defined({{CUHIP_COMPAT}}_FP16)
// V52-DAG: template <typename = void> __device__ inline __half __hmax(__half A, __half B) {
// V62-NOT: {{^}}#define CUHIP_{{COMPAT_.*}}

__global__ void mix(const __half *h, const __nv_bfloat16 *b,
                    __nv_bfloat162 *b2, __half *out) {
  // CHECK: __global__ void mix(const __half *h, const __hip_bfloat16 *b,
  // CHECK-NEXT:                     __hip_bfloat162 *b2, __half *out) {
  int i = threadIdx.x;
  __half m = __hmax(h[i], __float2half(0.0f));
  // CHECK:   __half m = __hmax(h[i], __float2half(0.0f));
  float f = __bfloat162float(b[i]);
  b2[i] = __floats2bfloat162_rn(f, f);
  // CHECK:   float f = __bfloat162float(b[i]);
  // CHECK-NEXT:   b2[i] = __floats2bfloat162_rn(f, f);
  __nv_bfloat16_raw raw = b[i];
  // CHECK:   __hip_bfloat16_raw raw = b[i];
  out[i] = __hadd(m, __float2half(f + __bfloat162float(raw)));
  // CHECK:   out[i] = __hadd(m, __float2half(f + __bfloat162float(raw)));
}
// DIAG-NOT: warning
