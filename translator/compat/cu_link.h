// CUDA's JIT linker (cuLink*) for HIP, which has no counterpart: it links PTX
// and cubin, which an AMD GPU cannot run, and hiprtcLink* (HIP 5.3 and later)
// links LLVM bitcode with other types. These stubs keep a translated file
// compiling; every call fails with hipErrorNotSupported, so the program takes
// its error path at run time instead of running code it cannot have.
typedef struct CUlinkState_st *CUlinkState;
typedef enum CUjitInputType_enum {
  CU_JIT_INPUT_CUBIN = 0,
  CU_JIT_INPUT_PTX = 1,
  CU_JIT_INPUT_FATBINARY = 2,
  CU_JIT_INPUT_OBJECT = 3,
  CU_JIT_INPUT_LIBRARY = 4
} CUjitInputType;
inline hipError_t cuLinkCreate(unsigned, hipJitOption *, void **,
                               CUlinkState *State) {
  if (State)
    *State = nullptr;
  return hipErrorNotSupported;
}
inline hipError_t cuLinkAddData(CUlinkState, CUjitInputType, void *, size_t,
                                const char *, unsigned, hipJitOption *,
                                void **) {
  return hipErrorNotSupported;
}
inline hipError_t cuLinkAddFile(CUlinkState, CUjitInputType, const char *,
                                unsigned, hipJitOption *, void **) {
  return hipErrorNotSupported;
}
inline hipError_t cuLinkComplete(CUlinkState, void **Image, size_t *Size) {
  if (Image)
    *Image = nullptr;
  if (Size)
    *Size = 0;
  return hipErrorNotSupported;
}
inline hipError_t cuLinkDestroy(CUlinkState) { return hipErrorNotSupported; }
