// Thread-block clusters as cooperative groups see them on sm_90, for
// kernels launched without cluster dimensions: each block is a cluster of
// one, so this_cluster() has one block of rank 0, its sync() is a block
// barrier (barrier.cluster.arrive/wait), and cluster indices follow the
// grid. A launch asking for clusters of more than one block is refused.
#include "Expect.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void exchange(unsigned *out) {
  __shared__ unsigned slot[128];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned t = threadIdx.x;
  slot[t] = t * 3 + blockIdx.x;
  cluster.sync();
  // Read a neighbour's value, written before the cluster barrier.
  unsigned v = slot[(t + 1) % blockDim.x];
  unsigned *o = out + 4 * (blockIdx.x * blockDim.x + t);
  o[0] = v;
  o[1] = cluster.block_rank();
  o[2] = cluster.num_blocks();
  o[3] = cluster.block_index().x + 10 * cluster.dim_blocks().x;
}

int main() {
  const int Blocks = 3, Threads = 128, N = Blocks * Threads;
  unsigned *d;
  CHECK(cudaMalloc(&d, 4 * N * sizeof(unsigned)));
  exchange<<<Blocks, Threads>>>(d);
  CHECK(cudaGetLastError());
  unsigned h[4 * N];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < Blocks; ++b)
    for (int t = 0; t < Threads; ++t) {
      unsigned *o = h + 4 * (b * Threads + t);
      unsigned want = ((t + 1) % Threads) * 3 + b;
      if (o[0] != want || o[1] != 0 || o[2] != 1 || o[3] != 10) {
        if (bad++ < 4)
          printf("block %d thread %d: %u %u %u %u, expected %u 0 1 10\n", b,
                 t, o[0], o[1], o[2], o[3], want);
      }
    }
  EXPECT(bad == 0);

  // Clusters of two blocks are not run.
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2);
  cfg.blockDim = dim3(Threads);
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 2;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&cfg, exchange, d);
  EXPECT(e != cudaSuccess);
  cudaGetLastError();
  CHECK(cudaFree(d));
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
