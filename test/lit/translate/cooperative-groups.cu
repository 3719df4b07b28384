// Cooperative groups: cooperative_groups.h becomes hip/hip_cooperative_groups.h
// and the names HIP shares stay. HIP has no cooperative_groups::reduce
// (cooperative_groups/reduce.h brings in the cg_reduce compat definition)
// and no meta_group_rank()/meta_group_size() members: the member call becomes
// a call of the cuhip_cg function, with a note on its assumption.
// cooperative-groups-hipcc.test compiles the output.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #if __has_include(<hip/hip_cooperative_groups.h>)
// CHECK-NEXT: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #endif
// CHECK-DAG: // cuhip: cg_reduce, which HIP does not have
// CHECK-DAG: template <typename Group, typename T, typename Op>
// CHECK-DAG: // cuhip: cg_meta_group, which HIP does not have
// CHECK-DAG: namespace cuhip_cg {

namespace cg = cooperative_groups;
// CHECK: namespace cg = cooperative_groups;

__global__ void tileSum(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  // CHECK:   cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  // CHECK:   cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int sum = cg::reduce(tile, in[block.thread_rank()], cg::plus<int>());
  // CHECK:   int sum = cg::reduce(tile, in[block.thread_rank()], cg::plus<int>());
  if (tile.thread_rank() == 0)
    out[tile.meta_group_rank()] = sum + tile.meta_group_size();
  // CHECK:     out[cuhip_cg::meta_group_rank(tile)] = sum + cuhip_cg::meta_group_size(tile);
  // DIAG: cooperative-groups.cu:[[@LINE-2]]:9: note: 'meta_group_rank()' becomes cuhip_cg::meta_group_rank(), which assumes the tile was partitioned from its thread block [cuhip-tile-member]
  // DIAG: cooperative-groups.cu:[[@LINE-3]]:41: note: 'meta_group_size()' becomes cuhip_cg::meta_group_size(), which assumes the tile was partitioned from its thread block [cuhip-tile-member]
}

__device__ unsigned tiles(const cg::thread_block_tile<32> *ptr) {
  return ptr->meta_group_size();
  // CHECK:   return cuhip_cg::meta_group_size(*ptr);
  // DIAG: cooperative-groups.cu:[[@LINE-2]]:10: note: 'meta_group_size()' becomes cuhip_cg::meta_group_size(), which assumes the tile was partitioned from its thread block [cuhip-tile-member]
}
// DIAG-NOT: warning
