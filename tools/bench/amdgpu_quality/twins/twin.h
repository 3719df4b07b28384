// Header-free HIP dialect for the benchmark's twins: the few names the
// sample kernels use, defined on clang's AMDGPU builtins, so that clang's own
// HIP compilation needs neither ROCm's HIP headers nor its device libraries
// (-nogpuinc -nogpulib). gridDim rounds up as HIP's ockl does, which is also
// what cuhip computes for %nctaid.
#pragma once

#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __device__ __attribute__((device))

static __device__ inline unsigned twinBlockDimX() {
  return __builtin_amdgcn_workgroup_size_x();
}
static __device__ inline unsigned twinGridDimX() {
  unsigned Size = __builtin_amdgcn_workgroup_size_x();
  unsigned Grid = __builtin_amdgcn_grid_size_x();
  return Grid / Size + (Grid % Size != 0);
}
static __device__ inline void twinSyncThreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
