// CUDA 12's library API (cuLibrary*, cuKernel*) on HIP's module API, which
// HIP lacks. A CUDA library is context-independent and loaded into each
// context on use; here it is a module loaded into the current context when
// the library is loaded, which is the same for a program with one context.
// A kernel handle is the module's function.
typedef hipModule_t CUlibrary;
typedef hipFunction_t CUkernel;
inline hipError_t cuLibraryLoadData(CUlibrary *Lib, const void *Image,
                                    hipJitOption *, void **, unsigned, void *,
                                    void **, unsigned) {
  return hipModuleLoadData(Lib, Image);
}
inline hipError_t cuLibraryLoadFromFile(CUlibrary *Lib, const char *Path,
                                        hipJitOption *, void **, unsigned,
                                        void *, void **, unsigned) {
  return hipModuleLoad(Lib, Path);
}
inline hipError_t cuLibraryUnload(CUlibrary Lib) {
  return hipModuleUnload(Lib);
}
inline hipError_t cuLibraryGetModule(hipModule_t *Mod, CUlibrary Lib) {
  *Mod = Lib;
  return hipSuccess;
}
inline hipError_t cuLibraryGetKernel(CUkernel *Kernel, CUlibrary Lib,
                                     const char *Name) {
  return hipModuleGetFunction(Kernel, Lib, Name);
}
inline hipError_t cuKernelGetFunction(hipFunction_t *Func, CUkernel Kernel) {
  *Func = Kernel;
  return hipSuccess;
}
inline hipError_t cuLibraryGetGlobal(hipDeviceptr_t *Ptr, size_t *Bytes,
                                     CUlibrary Lib, const char *Name) {
  return hipModuleGetGlobal(Ptr, Bytes, Lib, Name);
}
