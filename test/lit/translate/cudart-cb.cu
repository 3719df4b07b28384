// CUDART_CB, CUDA's calling convention for host callbacks, has no HIP
// counterpart: it stays, reported, and a compat definition (empty, as CUDA's
// outside Windows) makes the callback compile with every HIP version.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.hip 2>%t.err
// RUN: FileCheck --match-full-lines %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG %s < %t.err
// RUN: %cuhip translate %t.hip --hip-version 5.2 --cuda-path %cuda_path -o %t.twice.hip 2>/dev/null
// RUN: cmp %t.hip %t.twice.hip

#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: // cuhip: cudart_cb, which HIP does not have
// CHECK-NEXT: #if !defined(CUHIP_COMPAT_{{CUDART}}_CB)
// CHECK: #ifndef CUDART_CB
// CHECK-NEXT: #define CUDART_CB
// CHECK-NEXT: #endif
// CHECK-NEXT: #endif

static void CUDART_CB done(void *flag) { *static_cast<int *>(flag) = 1; }
// CHECK: static void CUDART_CB done(void *flag) { *static_cast<int *>(flag) = 1; }
// DIAG: cudart-cb.cu:[[@LINE-2]]:13: warning: 'CUDART_CB' has no HIP counterpart: HIP has no callback calling-convention macro{{.*}} [cuhip-unsupported]

int enqueue(cudaStream_t s, int *flag) {
  return cudaLaunchHostFunc(s, done, flag) == cudaSuccess ? 0 : 1;
  // CHECK: return hipLaunchHostFunc(s, done, flag) == hipSuccess ? 0 : 1;
}
