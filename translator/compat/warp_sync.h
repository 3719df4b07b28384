// CUDA's warp operations with a member mask, for HIP versions before 6.2,
// which have only the mask-less forms. A CUDA warp is 32 lanes, so these act
// on 32-lane groups: shuffles default to width 32, and on a 64-lane
// wavefront ballots, votes, matches and reductions see only the lane's own
// 32-lane half, with lane N of that half as bit N of a 32-bit mask, as on a
// CUDA warp. The mask is not needed for correctness on hardware whose
// wavefront runs in lockstep; CUDA requires every lane it names to take
// part, which these forms assume as well.
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
// The lane's 32-lane half of a wavefront ballot (the whole of it on wave32).
__device__ inline unsigned cuhipWarpHalf(unsigned long long Ballot) {
  return (unsigned)(Ballot >> (__lane_id() & ~31u));
}
__device__ inline unsigned __activemask() {
  return cuhipWarpHalf(__ballot(1));
}
__device__ inline unsigned __ballot_sync(unsigned long long Mask, int Pred) {
  return cuhipWarpHalf(__ballot(Pred)) & (unsigned)Mask;
}
__device__ inline int __any_sync(unsigned long long Mask, int Pred) {
  return __ballot_sync(Mask, Pred) != 0;
}
__device__ inline int __all_sync(unsigned long long Mask, int Pred) {
  unsigned Members = (unsigned)Mask & __activemask();
  return (__ballot_sync(Members, Pred) & Members) == Members;
}
__device__ inline int __uni_sync(unsigned long long Mask, int Pred) {
  unsigned Members = (unsigned)Mask & __activemask();
  unsigned Set = __ballot_sync(Members, Pred);
  return Set == 0 || Set == Members;
}
// Lanes of a wavefront run in lockstep; what __syncwarp adds is the memory
// ordering between them, which the wavefront-scope fences give.
__device__ inline void __syncwarp(unsigned long long = 0xffffffffu) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
__device__ inline unsigned __lanemask_le() {
  return (2u << (__lane_id() & 31u)) - 1u;
}
__device__ inline unsigned __lanemask_ge() {
  return ~((1u << (__lane_id() & 31u)) - 1u);
}
// match and reduce: every lane shuffles from each of the 32 lanes in turn
// (all lanes take part in every shuffle), keeping what the mask names.
template <typename T>
__device__ inline unsigned __match_any_sync(unsigned long long Mask, T Value) {
  unsigned Members = (unsigned)Mask & __activemask();
  unsigned Same = 0;
  for (int Lane = 0; Lane < 32; ++Lane) {
    T Other = __shfl(Value, Lane, 32);
    // CUDA compares the bits (a NaN matches itself).
    const unsigned char *A = (const unsigned char *)&Other;
    const unsigned char *B = (const unsigned char *)&Value;
    bool Equal = true;
    for (unsigned I = 0; I < sizeof(T); ++I)
      Equal &= A[I] == B[I];
    if ((Members >> Lane & 1u) && Equal)
      Same |= 1u << Lane;
  }
  return Same;
}
template <typename T>
__device__ inline unsigned __match_all_sync(unsigned long long Mask, T Value,
                                            int *Pred) {
  unsigned Members = (unsigned)Mask & __activemask();
  bool All = __match_any_sync(Members, Value) == Members;
  *Pred = All;
  return All ? Members : 0u;
}
template <typename T, typename Op>
__device__ inline T cuhipWarpReduce(unsigned long long Mask, T Value, Op F) {
  unsigned Members = (unsigned)Mask & __activemask();
  T Result = Value;
  for (int Lane = 0; Lane < 32; ++Lane) {
    T Other = __shfl(Value, Lane, 32);
    if ((Members >> Lane & 1u) && Lane != (int)(__lane_id() & 31u))
      Result = F(Result, Other);
  }
  return Result;
}
#define CUHIP_WARP_REDUCE(Name, Expr)                                          \
  __device__ inline unsigned Name(unsigned long long Mask, unsigned V) {       \
    return cuhipWarpReduce(Mask, V, [](unsigned A, unsigned B) { return Expr; }); \
  }                                                                            \
  __device__ inline int Name(unsigned long long Mask, int V) {                 \
    return cuhipWarpReduce(Mask, V, [](int A, int B) { return Expr; });        \
  }
CUHIP_WARP_REDUCE(__reduce_add_sync, A + B)
CUHIP_WARP_REDUCE(__reduce_min_sync, A < B ? A : B)
CUHIP_WARP_REDUCE(__reduce_max_sync, A > B ? A : B)
CUHIP_WARP_REDUCE(__reduce_and_sync, A & B)
CUHIP_WARP_REDUCE(__reduce_or_sync, A | B)
CUHIP_WARP_REDUCE(__reduce_xor_sync, A ^ B)
#undef CUHIP_WARP_REDUCE
