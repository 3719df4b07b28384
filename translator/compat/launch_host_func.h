// hipLaunchHostFunc for HIP before 5.3: HIP 5.2's header declares it, but its
// libamdhip64 does not define it, so a call fails to link. The same ordering
// comes from hipStreamAddCallback, which runs its callback on a host thread
// once the stream's earlier work is done, as CUDA's host functions run.
struct CuhipHostFnCall {
  hipHostFn_t Fn;
  void *Data;
};
static void cuhipRunHostFn(hipStream_t, hipError_t, void *P) {
  CuhipHostFnCall *Call = static_cast<CuhipHostFnCall *>(P);
  Call->Fn(Call->Data);
  delete Call;
}
static inline hipError_t cuhipLaunchHostFunc(hipStream_t Stream, hipHostFn_t Fn,
                                             void *Data) {
  if (!Fn)
    return hipErrorInvalidValue;
  CuhipHostFnCall *Call = new CuhipHostFnCall{Fn, Data};
  hipError_t E = hipStreamAddCallback(Stream, cuhipRunHostFn, Call, 0);
  if (E != hipSuccess)
    delete Call;
  return E;
}
#define hipLaunchHostFunc cuhipLaunchHostFunc
