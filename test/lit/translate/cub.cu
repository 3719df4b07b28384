// CUB becomes hipCUB through one namespace row: the token `cub` is renamed to
// `hipcub` wherever it is spelled (qualified names, using-declarations,
// namespace aliases, macro bodies), and the name after `::` is kept, since
// hipCUB declares CUB's names (BlockReduce, DeviceReduce, ...) itself.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG --allow-empty %s < %t.err

#include <cub/cub.cuh>
#include <cub/block/block_reduce.cuh>
// CHECK: {{^ *}}#include <hipcub/hipcub.hpp>
// CHECK: {{^ *}}#include <hipcub/hipcub.hpp>

#define WARP_SUM(T) cub::WarpReduce<T>
// CHECK: {{^ *}}#define WARP_SUM(T) hipcub::WarpReduce<T>

template <int Threads>
__global__ void blockSum(const float *in, float *out) {
  using BlockReduce = cub::BlockReduce<float, Threads>;
  // CHECK: {{^ *}}using BlockReduce = hipcub::BlockReduce<float, Threads>;
  __shared__ typename BlockReduce::TempStorage temp;
  float sum = BlockReduce(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = sum;
}
template __global__ void blockSum<128>(const float *, float *);

namespace algo = cub;
// CHECK: {{^ *}}namespace algo = hipcub;

int deviceSum(const float *in, float *out, int n, cudaStream_t s) {
  void *temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  // CHECK: {{^ *}}hipcub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  cudaMalloc(&temp, bytes);
  algo::DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);
  // CHECK: {{^ *}}algo::DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);
  cudaFree(temp);
  return 0;
}
// DIAG-NOT: warning
