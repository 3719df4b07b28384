// The places a token-by-token rename must still get right: CUDA names in
// templates (dependent or not, instantiated or not), host and __device__
// lambdas, macros whose bodies call or name CUDA APIs and that are used in
// several places, and every #if branch whether or not it is taken here.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s -o %t.hip --print-stats=json 2>%t.err > %t.json
// RUN: FileCheck %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err
// RUN: python3 -m json.tool %t.json | FileCheck --check-prefix=STATS %s
// RUN: %cuhip translate %t.hip -o %t.again.hip
// RUN: cmp %t.hip %t.again.hip
// The one reference with no HIP counterpart is reported, nothing else.
// DIAG-NOT: warning
// DIAG: translate-hard-places.cu:106:13: warning: '__CUDA_ARCH__' has no HIP counterpart
// DIAG-NOT: warning
// STATS: "parse_errors": 0,
// STATS: "unconverted": 1,

#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>

// Macro definitions are rewritten once; every expansion then uses HIP.
#define CUDA_CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) return err_; } while (0)
#define DECLARE_STREAM(name) cudaStream_t name
#define ZERO_ASYNC(p, n, s) cudaMemsetAsync((p), 0, (n), (s))
// CHECK: #define CUDA_CHECK(x) do { hipError_t err_ = (x); if (err_ != hipSuccess) return err_; } while (0)
// CHECK: #define DECLARE_STREAM(name) hipStream_t name
// CHECK: #define ZERO_ASYNC(p, n, s) hipMemsetAsync((p), 0, (n), (s))

// Non-dependent CUDA names in a class template.
template <typename T> struct Buffer {
  T *ptr = nullptr;
  cudaError_t alloc(size_t n) { return cudaMalloc(&ptr, n * sizeof(T)); }
  cudaError_t release() { return cudaFree(ptr); }
};
// CHECK: hipError_t alloc(size_t n) { return hipMalloc(&ptr, n * sizeof(T)); }
// CHECK: hipError_t release() { return hipFree(ptr); }

// A call whose arguments depend on the template parameter.
template <typename T>
cudaError_t copy_dep(T *dst, const T *src, size_t n, cudaStream_t s) {
  return cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToDevice, s);
}
// CHECK: hipError_t copy_dep(T *dst, const T *src, size_t n, hipStream_t s) {
// CHECK-NEXT: return hipMemcpyAsync(dst, src, n * sizeof(T), hipMemcpyDeviceToDevice, s);

template <typename T> __device__ T load(const T *p) { return __ldg(p); }
// CHECK: template <typename T> __device__ T load(const T *p) { return __ldg(p); }

// A template nobody instantiates is still rewritten.
template <typename T> cudaError_t never_instantiated(T *p) {
  cudaPointerAttributes a;
  return cudaPointerGetAttributes(&a, p);
}
// CHECK: template <typename T> hipError_t never_instantiated(T *p) {
// CHECK-NEXT: hipPointerAttribute_t a;
// CHECK-NEXT: return hipPointerGetAttributes(&a, p);

__global__ void use_load(const float *in, float *out) {
  out[threadIdx.x] = load(in + threadIdx.x) + __expf(1.0f);
}

int lambdas(float *p) {
  auto host = [](void *q) { return cudaFree(q); };
  auto dev = [] __device__ (float x) { return __expf(x) + (float)cudaSuccess; };
  (void)dev;
  return host(p);
}
// CHECK: auto host = [](void *q) { return hipFree(q); };
// CHECK: auto dev = [] __device__ (float x) { return __expf(x) + (float)hipSuccess; };

cudaError_t macros(float *p, size_t n) {
  DECLARE_STREAM(s1);
  DECLARE_STREAM(s2);
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  CUDA_CHECK(ZERO_ASYNC(p, n, s1));
  CUDA_CHECK(ZERO_ASYNC(p, n, s2));
  Buffer<float> b;
  CUDA_CHECK(b.alloc(n));
  CUDA_CHECK(copy_dep(b.ptr, p, n, s1));
  return b.release();
}
// CHECK: hipError_t macros(float *p, size_t n) {
// CHECK-NEXT: DECLARE_STREAM(s1);
// CHECK-NEXT: DECLARE_STREAM(s2);
// CHECK-NEXT: CUDA_CHECK(hipStreamCreate(&s1));
// CHECK-NEXT: CUDA_CHECK(hipStreamCreate(&s2));
// CHECK-NEXT: CUDA_CHECK(ZERO_ASYNC(p, n, s1));
// CHECK-NEXT: CUDA_CHECK(ZERO_ASYNC(p, n, s2));

// Branches this configuration does not take.
#if 0
cudaEvent_t never_compiled;
#endif
// CHECK: #if 0
// CHECK-NEXT: hipEvent_t never_compiled;
#ifdef NOT_DEFINED
void not_defined() { cudaDeviceReset(); }
#else
void defined_else() { cudaDeviceSynchronize(); }
#endif
// CHECK: void not_defined() { hipDeviceReset(); }
// CHECK-NEXT: #else
// CHECK-NEXT: void defined_else() { hipDeviceSynchronize(); }
#if defined(__CUDA_ARCH__)
__device__ void device_side() { __syncthreads(); }
#else
void host_side() { cudaGetLastError(); }
#endif
// CHECK: __device__ void device_side() { __syncthreads(); }
// CHECK: void host_side() { hipGetLastError(); }

int main() {
  float *p = nullptr;
  return lambdas(p) + macros(p, 4);
}
