// thread_block_tile::meta_group_rank() and meta_group_size(), which HIP's
// cooperative groups lack: the tile's index among the tiles of its thread
// block, and their number. This is the CUDA definition for a tile
// partitioned from the thread block (tiled_partition(this_thread_block(),
// N) or tiled_partition<N>(block)); cuhip translate rewrites
// tile.meta_group_rank() to cuhip_cg::meta_group_rank(tile) and says so.
namespace cuhip_cg {
template <class Tile>
__device__ inline unsigned meta_group_rank(const Tile &T) {
  unsigned Linear =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return Linear / T.size();
}
template <class Tile>
__device__ inline unsigned meta_group_size(const Tile &T) {
  unsigned Threads = blockDim.x * blockDim.y * blockDim.z;
  return (Threads + T.size() - 1) / T.size();
}
} // namespace cuhip_cg
