// CUDA's warp shuffles with a member mask, for HIP versions before 6.2, which
// have only the mask-less forms. A CUDA warp is 32 lanes, so the default width
// is 32, not HIP's warpSize: on a 64-lane wavefront each 32-lane half then
// shuffles on its own, as a CUDA warp does. The mask is not needed for
// correctness on hardware whose wavefront runs in lockstep; CUDA requires
// every lane it names to take part, which these forms assume as well.
template <typename T>
__device__ inline T __shfl_sync(unsigned long long, T Var, int SrcLane,
                                int Width = 32) {
  return __shfl(Var, SrcLane, Width);
}
template <typename T>
__device__ inline T __shfl_up_sync(unsigned long long, T Var, unsigned Delta,
                                   int Width = 32) {
  return __shfl_up(Var, Delta, Width);
}
template <typename T>
__device__ inline T __shfl_down_sync(unsigned long long, T Var, unsigned Delta,
                                     int Width = 32) {
  return __shfl_down(Var, Delta, Width);
}
template <typename T>
__device__ inline T __shfl_xor_sync(unsigned long long, T Var, int LaneMask,
                                    int Width = 32) {
  return __shfl_xor(Var, LaneMask, Width);
}
