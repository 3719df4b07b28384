// Atomics: the device-scope and system-scope forms HIP has keep their names;
// the _block forms become the device-scope atomic (a stronger scope than the
// one asked for, so the program stays correct); atomicInc_system and
// atomicDec_system have no HIP counterpart and are reported where they are
// called.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>

__global__ void counters(int *i, unsigned *u, float *f, unsigned long long *ull) {
  atomicAdd(f, 1.0f);
  atomicSub(i, 1);
  atomicExch(u, 7u);
  // CHECK:   atomicAdd(f, 1.0f);
  // CHECK-NEXT:   atomicSub(i, 1);
  // CHECK-NEXT:   atomicExch(u, 7u);
  atomicMin(i, 0);
  atomicMax(u, 9u);
  atomicCAS(ull, 0ull, 1ull);
  // CHECK:   atomicMin(i, 0);
  // CHECK-NEXT:   atomicMax(u, 9u);
  // CHECK-NEXT:   atomicCAS(ull, 0ull, 1ull);
  atomicAnd(u, 0xf0u);
  atomicOr(u, 1u);
  atomicXor(i, 3);
  // CHECK:   atomicAnd(u, 0xf0u);
  // CHECK-NEXT:   atomicOr(u, 1u);
  // CHECK-NEXT:   atomicXor(i, 3);
  atomicAdd_block(i, 2);
  atomicCAS_block(u, 0u, 1u);
  // CHECK:   atomicAdd(i, 2);
  // CHECK-NEXT:   atomicCAS(u, 0u, 1u);
  atomicAdd_system(f, 0.5f);
  // CHECK:   atomicAdd_system(f, 0.5f);
  atomicInc_system(u, 100u);
  // CHECK:   atomicInc_system(u, 100u);
}
// DIAG: device-atomics.cu:38:3: warning: 'atomicInc_system' has no HIP counterpart: HIP has no system-scope atomicInc; rewrite with atomicCAS_system [cuhip-unsupported]
// DIAG-NOT: warning
