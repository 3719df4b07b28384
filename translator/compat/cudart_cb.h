// CUDA's calling-convention macro for host callbacks (cudaStreamCallback_t,
// cudaHostFn_t). CUDA defines it empty everywhere but Windows, where it is
// __stdcall; HIP has none, and its callbacks use the default convention.
#ifndef CUDART_CB
#define CUDART_CB
#endif
