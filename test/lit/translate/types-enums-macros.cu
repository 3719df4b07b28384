// Types, enumerators and macros are renamed wherever they are spelled: in
// code, in a macro definition, in an #if branch this configuration does not
// take, in a template and in a lambda. Compiler macros whose meaning differs
// (__CUDA_ARCH__, CUDART_VERSION) are reported and left as written.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <cuda_runtime.h>

#define IS_OK(e) ((e) == cudaSuccess || (e) == cudaErrorNotReady)
// CHECK: #define IS_OK(e) ((e) == hipSuccess || (e) == hipErrorNotReady)

#ifdef __CUDACC__
// CHECK: #ifdef __HIPCC__
static const cudaMemcpyKind kDir = cudaMemcpyHostToDevice;
// CHECK: static const hipMemcpyKind kDir = hipMemcpyHostToDevice;
#endif

#if 0
cudaStream_t neverCompiled(cudaEvent_t e) { return cudaStreamPerThread; }
// CHECK: hipStream_t neverCompiled(hipEvent_t e) { return hipStreamPerThread; }
#endif

template <typename T> cudaError_t fill(T *p, cudaStream_t s) {
  // CHECK: template <typename T> hipError_t fill(T *p, hipStream_t s) {
  return cudaMemsetAsync(p, 0, sizeof(T), s);
  // CHECK: return hipMemsetAsync(p, 0, sizeof(T), s);
}

int run() {
  auto query = [](cudaEvent_t e) -> cudaError_t { return cudaEventQuery(e); };
  // CHECK: auto query = [](hipEvent_t e) -> hipError_t { return hipEventQuery(e); };
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  // CHECK: hipEventCreateWithFlags(&e, hipEventDisableTiming);
  cudaError_t err = query(e);
  float *p = nullptr;
  fill(p, cudaStreamPerThread);
  // CHECK: fill(p, hipStreamPerThread);
#if CUDART_VERSION >= 12000
  // CHECK: #if CUDART_VERSION >= 12000
  // DIAG: types-enums-macros.cu:[[@LINE-2]]:5: warning: 'CUDART_VERSION' has no HIP counterpart: the CUDA runtime version {{.*}} [cuhip-unsupported]
  err = cudaGetLastError();
#endif
  return IS_OK(err) ? 0 : 1;
}

__global__ void k(float *out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // CHECK: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // DIAG: types-enums-macros.cu:[[@LINE-2]]:13: warning: '__CUDA_ARCH__' has no HIP counterpart: its value is the SM number {{.*}} [cuhip-unsupported]
  out[0] = 1;
#endif
}
