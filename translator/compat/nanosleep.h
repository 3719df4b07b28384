// CUDA's __nanosleep for HIP versions without it. CUDA sleeps for roughly
// the time asked (anywhere from 0 to twice it); s_sleep 1 waits about 64
// clocks, so waiting Ns / 64 of them stays in that range at GPU clock rates
// of 1 GHz and above.
template <typename = void> __device__ inline void __nanosleep(unsigned Ns) {
  for (unsigned I = 0; I < Ns / 64; ++I)
    __builtin_amdgcn_s_sleep(1);
}
