// --hip-launch: <<<>>> launches become hipLaunchKernelGGL; a kernel with
// template arguments goes into HIP_KERNEL_NAME; the shared-memory size and
// stream default to 0; a launch inside a macro is left as <<<>>> (valid
// HIP) with a warning. Without --hip-launch nothing changes. The result
// compiles with hipcc.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-launch -o %t.hip 2>%t.err
// RUN: FileCheck %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG %s < %t.err
// RUN: %cuhip translate %s -o %t.plain.hip
// RUN: FileCheck --check-prefix=PLAIN %s < %t.plain.hip
// RUN: not grep -E '^[^/]*hipLaunchKernelGGL' %t.plain.hip
// RUN: %cuhip translate %t.hip --hip-launch -o %t.again.hip
// RUN: cmp %t.hip %t.again.hip

#include <cuda_runtime.h>

__global__ void zero() {}
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
template <typename T, int N> __global__ void fill(T *p, T v) {
  p[blockIdx.x * N + threadIdx.x] = v;
}
#define LAUNCH_ZERO(g) zero<<<g, 1>>>()
// CHECK: {{^ *}}#define LAUNCH_ZERO(g) zero<<<g, 1>>>()

// A launch in a function template is rewritten once, not once per
// instantiation; so is one in a template nobody instantiates.
template <typename T> void run_fill(T *p, T v, cudaStream_t s) {
  fill<T, 64><<<dim3(4), 64, 0, s>>>(p, v);
}
// CHECK: {{^ *}}template <typename T> void run_fill(T *p, T v, hipStream_t s) {
// CHECK-NEXT: {{^ *}}hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<T, 64>), dim3(4), dim3(64), 0, s, p, v);
template <typename T> void never_used(T *p) { fill<T, 32><<<1, 32>>>(p, T()); }
// CHECK: {{^ *}}template <typename T> void never_used(T *p) { hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<T, 32>), dim3(1), dim3(32), 0, 0, p, T()); }

int main() {
  float *x, *y;
  cudaMalloc(&x, 256 * sizeof(float));
  cudaMalloc(&y, 256 * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  zero<<<1, 1>>>();
  // CHECK: {{^ *}}hipLaunchKernelGGL(zero, dim3(1), dim3(1), 0, 0);
  axpy<<<2, 128>>>(2.0f, x, y, 256);
  // CHECK: {{^ *}}hipLaunchKernelGGL(axpy, dim3(2), dim3(128), 0, 0, 2.0f, x, y, 256);
  axpy<<<2, 128, 32>>>(2.0f, x, y, 256);
  // CHECK: {{^ *}}hipLaunchKernelGGL(axpy, dim3(2), dim3(128), 32, 0, 2.0f, x, y, 256);
  axpy<<<dim3(2, 1), dim3(128), 64 * sizeof(float), s>>>(2.0f, x, y, 256);
  // CHECK: {{^ *}}hipLaunchKernelGGL(axpy, dim3(2, 1), dim3(128), 64 * sizeof(float), s, 2.0f, x, y, 256);
  axpy<<<2, 128, 0, s>>>(
      2.0f, x,
      y, 256);
  // CHECK: {{^ *}}hipLaunchKernelGGL(axpy, dim3(2), dim3(128), 0, s, 
  // CHECK-NEXT: {{^ *}}2.0f, x,
  // CHECK-NEXT: {{^ *}}y, 256);
  fill<float, 64><<<4, 64>>>(y, 1.0f);
  // CHECK: {{^ *}}hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<float, 64>), dim3(4), dim3(64), 0, 0, y, 1.0f);
  run_fill(x, 3.0f, s);
  run_fill<float>(y, 4.0f, nullptr);
  run_fill<int>(reinterpret_cast<int *>(y), 4, s);
  auto go = [&](int n) { axpy<<<(n + 127) / 128, 128>>>(1.0f, x, y, n); };
  // CHECK: {{^ *}}auto go = [&](int n) { hipLaunchKernelGGL(axpy, dim3((n + 127) / 128), dim3(128), 0, 0, 1.0f, x, y, n); };
  go(256);
  LAUNCH_ZERO(1);
  // CHECK: {{^ *}}LAUNCH_ZERO(1);
  // DIAG: launch.cu:[[@LINE-2]]:3: warning: kernel launch inside a macro left as <<<>>> (valid HIP); --hip-launch rewrites only launches written out in the file [cuhip-launch]
  // DIAG-NOT: warning
  cudaDeviceSynchronize();
  return 0;
}
// PLAIN: {{^ *}}zero<<<1, 1>>>();
// PLAIN: {{^ *}}fill<float, 64><<<4, 64>>>(y, 1.0f);
