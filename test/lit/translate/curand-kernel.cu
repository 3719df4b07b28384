// cuRAND's device API becomes hipRAND's: curand_kernel.h becomes
// hiprand/hiprand_kernel.h, the state types and the generator functions are
// renamed, in code and in macro definitions. The translation compiles against
// Debian's hipRAND where its headers are installed.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path -o %t.hip 2>%t.err
// RUN: FileCheck --match-full-lines %s < %t.hip
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err
// RUN: %if hipcc && hiprand %{ %hipcc --offload-arch=gfx90a -c %t.hip -o %t.o %}

#include <curand_kernel.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hiprand/hiprand_kernel.h>

#define UNIFORM(s) curand_uniform(s)
// CHECK: #define UNIFORM(s) hiprand_uniform(s)

__global__ void setup(curandState *states, unsigned long long seed) {
  // CHECK: __global__ void setup(hiprandState *states, unsigned long long seed) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curand_init(seed, id, 0, &states[id]);
  // CHECK:   hiprand_init(seed, id, 0, &states[id]);
}

__global__ void sample(curandState *states, float *u, float *n, unsigned *r) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curandState local = states[id];
  // CHECK:   hiprandState local = states[id];
  u[id] = UNIFORM(&local);
  n[id] = curand_normal(&local);
  // CHECK:   n[id] = hiprand_normal(&local);
  r[id] = curand(&local);
  // CHECK:   r[id] = hiprand(&local);
  states[id] = local;
}

__global__ void philox(float4 *out, unsigned long long seed) {
  curandStatePhilox4_32_10_t st;
  // CHECK:   hiprandStatePhilox4_32_10_t st;
  curand_init(seed, threadIdx.x, 0, &st);
  out[threadIdx.x] = curand_normal4(&st);
  // CHECK:   out[threadIdx.x] = hiprand_normal4(&st);
}
// DIAG-NOT: warning
