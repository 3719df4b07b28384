// A program that uses the runtime and the driver API together (built with
// -cudart shared -lcuda): both libraries are cuhip's under `cuhip run`, so
// memory from cudaMalloc is a CUdeviceptr, a kernel launched with <<<>>>
// and one loaded with cuModuleLoadData see the same buffers, and
// cudaGetDriverEntryPoint hands out the driver's functions. Prints PASS.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void iota(int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = I;
}

static const char *TwicePtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry twice(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.u32 %r3, [%rd2];
  shl.b32 %r4, %r3, 1;
  st.global.u32 [%rd2], %r4;
DONE:
  ret;
}
)";

#define CHECK(X)                                                               \
  do {                                                                         \
    int E_ = int(X);                                                           \
    if (E_ != 0) {                                                             \
      std::printf("FAIL: %s returned %d (line %d)\n", #X, E_, __LINE__);       \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  constexpr int N = 64;
  CHECK(cuInit(0));
  CUcontext Ctx;
  CHECK(cuDevicePrimaryCtxRetain(&Ctx, 0));
  CHECK(cuCtxSetCurrent(Ctx));

  int *D = nullptr;
  CHECK(cudaMalloc(&D, N * sizeof(int)));
  iota<<<1, N>>>(D, N);
  CHECK(cudaGetLastError());

  CUmodule M;
  CHECK(cuModuleLoadData(&M, TwicePtx));
  CUfunction Twice;
  CHECK(cuModuleGetFunction(&Twice, M, "twice"));
  CUdeviceptr P = CUdeviceptr(D);
  unsigned Count = N;
  void *Args[] = {&P, &Count};
  CHECK(cuLaunchKernel(Twice, 1, 1, 1, N, 1, 1, 0, nullptr, Args, nullptr));

  // The driver's copy, found through the runtime.
  void *Fn = nullptr;
  cudaDriverEntryPointQueryResult Status;
  CHECK(cudaGetDriverEntryPointByVersion("cuMemcpyDtoH", &Fn, 13000,
                                         cudaEnableDefault, &Status));
  if (!Fn || Status != cudaDriverEntryPointSuccess) {
    std::printf("FAIL: no cuMemcpyDtoH entry point\n");
    return 1;
  }
  int Host[N];
  auto MemcpyDtoH = reinterpret_cast<CUresult (*)(void *, CUdeviceptr, size_t)>(Fn);
  CHECK(MemcpyDtoH(Host, P, sizeof(Host)));
  for (int I = 0; I < N; ++I)
    if (Host[I] != 2 * I) {
      std::printf("FAIL: element %d is %d\n", I, Host[I]);
      return 1;
    }
  CHECK(cudaGetDriverEntryPointByVersion("cuNoSuchThing", &Fn, 13000,
                                         cudaEnableDefault, &Status));
  if (Fn || Status != cudaDriverEntryPointSymbolNotFound) {
    std::printf("FAIL: a missing symbol was found\n");
    return 1;
  }
  CHECK(cuModuleUnload(M));
  CHECK(cudaFree(D));
  CHECK(cuDevicePrimaryCtxRelease(0));
  std::printf("PASS\n");
  return 0;
}
