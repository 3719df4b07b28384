// A program that starts with the runtime API and then uses the driver API
// on the same thread, as JIT-linking programs do: the runtime has made the
// device's primary context current, so cuCtxGetCurrent names it and
// cuLinkCreate, cuModuleLoadData and cuLaunchKernel work on memory the
// runtime allocated, without the program touching contexts itself. Built
// with the shared and with the static runtime; launch-configuration errors
// of <<<>>> are checked too, since the static runtime reaches them through
// the driver.
#include "Expect.h"

#include <cuda.h>
#include <cstring>

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *n_ = nullptr;                                                \
      cuGetErrorName(r_, &n_);                                                 \
      printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #call,                   \
             n_ ? n_ : "?");                                                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

// Adds Delta to each of N ints; JIT-linked from two PTX units, the kernel
// calling a function the second unit defines.
static const char *KernelPtx = R"(
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 r) bump(.param .b32 v, .param .b32 d);
.visible .entry addDelta(.param .u64 p, .param .u32 n, .param .u32 d)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r2, [d];
  mov.u32 %r3, %tid.x;
  setp.ge.u32 %p, %r3, %r1;
  @%p bra DONE;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 rv;
    st.param.b32 [a0], %r4;
    st.param.b32 [a1], %r2;
    call (rv), bump, (a0, a1);
    ld.param.b32 %r5, [rv];
  }
  st.global.u32 [%rd3], %r5;
DONE:
  ret;
}
)";

static const char *HelperPtx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .func (.param .b32 r) bump(.param .b32 v, .param .b32 d)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [v];
  ld.param.b32 %r2, [d];
  add.s32 %r3, %r1, %r2;
  st.param.b32 [r], %r3;
  ret;
}
)";

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  const unsigned N = 64;
  int *Dev = nullptr;
  CHECK(cudaMalloc(&Dev, N * sizeof(int)));
  touch<<<1, N>>>(Dev);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // The runtime made the primary context current on this thread.
  CUcontext Current = nullptr, Primary = nullptr;
  CHECK_CU(cuCtxGetCurrent(&Current));
  EXPECT(Current != nullptr);
  CHECK_CU(cuDevicePrimaryCtxRetain(&Primary, 0));
  EXPECT(Current == Primary);
  CHECK_CU(cuDevicePrimaryCtxRelease(0));

  char ErrorLog[4096] = "";
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog, reinterpret_cast<void *>(sizeof(ErrorLog))};
  CUlinkState Link = nullptr;
  CHECK_CU(cuLinkCreate(2, Options, Values, &Link));
  CHECK_CU(cuLinkAddData(Link, CU_JIT_INPUT_PTX, (void *)KernelPtx,
                         strlen(KernelPtx) + 1, "kernel.ptx", 0, nullptr,
                         nullptr));
  CHECK_CU(cuLinkAddData(Link, CU_JIT_INPUT_PTX, (void *)HelperPtx,
                         strlen(HelperPtx) + 1, "helper.ptx", 0, nullptr,
                         nullptr));
  void *Image = nullptr;
  size_t ImageSize = 0;
  CHECK_CU(cuLinkComplete(Link, &Image, &ImageSize));
  CUmodule Mod = nullptr;
  CHECK_CU(cuModuleLoadData(&Mod, Image));
  CHECK_CU(cuLinkDestroy(Link));
  if (*ErrorLog)
    printf("link log: %s\n", ErrorLog);
  CUfunction F = nullptr;
  CHECK_CU(cuModuleGetFunction(&F, Mod, "addDelta"));
  CUdeviceptr P = reinterpret_cast<CUdeviceptr>(Dev);
  unsigned Count = N, Delta = 100;
  void *Args[] = {&P, &Count, &Delta};
  CHECK_CU(cuLaunchKernel(F, 1, 1, 1, N, 1, 1, 0, nullptr, Args, nullptr));
  CHECK_CU(cuCtxSynchronize());
  int Host[N];
  CHECK(cudaMemcpy(Host, Dev, sizeof(Host), cudaMemcpyDeviceToHost));
  unsigned Wrong = 0;
  for (unsigned I = 0; I < N; ++I)
    Wrong += Host[I] != int(I + 100);
  EXPECT(Wrong == 0);
  CHECK_CU(cuModuleUnload(Mod));

  // Too many threads per block is a configuration error, reported at the
  // launch and by cudaGetLastError, with either runtime.
  touch<<<1, 4096>>>(Dev);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
  touch<<<dim3(1, 1 << 17), 1>>>(Dev);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
  CHECK(cudaFree(Dev));
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
