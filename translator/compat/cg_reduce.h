// cooperative_groups::reduce and its operators (CUDA's
// <cooperative_groups/reduce.h>), which HIP does not have. Every member of
// the group gets the reduction of all members' values: a shfl_down tree
// leaves it in rank 0 (a member adds its partner only when the partner is in
// the group, so any group size works), and rank 0 broadcasts it. The tree
// combines in a different order than CUDA may, which matters only for
// floating-point sums.
#include <hip/hip_cooperative_groups.h>
namespace cooperative_groups {
template <typename T> struct plus {
  __device__ T operator()(T A, T B) const { return A + B; }
};
template <typename T> struct less {
  __device__ T operator()(T A, T B) const { return B < A ? B : A; }
};
template <typename T> struct greater {
  __device__ T operator()(T A, T B) const { return A < B ? B : A; }
};
template <typename T> struct bit_and {
  __device__ T operator()(T A, T B) const { return A & B; }
};
template <typename T> struct bit_or {
  __device__ T operator()(T A, T B) const { return A | B; }
};
template <typename T> struct bit_xor {
  __device__ T operator()(T A, T B) const { return A ^ B; }
};
template <typename Group, typename T, typename Op>
__device__ T reduce(const Group &G, T Value, Op F) {
  unsigned Size = G.size(), Rank = G.thread_rank();
  for (unsigned Offset = 1; Offset < Size; Offset *= 2) {
    T Other = G.shfl_down(Value, Offset);
    if (Rank + Offset < Size)
      Value = F(Value, Other);
  }
  return G.shfl(Value, 0);
}
} // namespace cooperative_groups
