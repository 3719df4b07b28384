// driver_link: the driver API's JIT linker. Two independent PTX modules —
// one squares a vector, one reverses it — are added to a link with
// cuLinkAddData, linked by cuLinkComplete into one image, loaded with
// cuModuleLoadData and run one after the other. Checks the result and
// prints PASS or FAIL.
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult err_ = (call);                                                    \
    if (err_ != CUDA_SUCCESS) {                                                \
      const char *name_ = "?";                                                 \
      cuGetErrorName(err_, &name_);                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, name_);                                              \
      std::printf("FAIL\n");                                                   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static const char *SquarePtx = R"(
.version 7.5
.target sm_75
.address_size 64

.visible .entry square(.param .u64 p_data, .param .u32 p_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p_data];
  ld.param.u32 %r1, [p_n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r6, [%rd4];
  mul.lo.s32 %r7, %r6, %r6;
  st.global.u32 [%rd4], %r7;
DONE:
  ret;
}
)";

static const char *ReversePtx = R"(
.version 7.5
.target sm_75
.address_size 64

.visible .entry reverse(.param .u64 p_in, .param .u64 p_out, .param .u32 p_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [p_in];
  ld.param.u64 %rd2, [p_out];
  ld.param.u32 %r1, [p_n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r6, [%rd6];
  sub.s32 %r7, %r1, %r5;
  sub.s32 %r8, %r7, 1;
  mul.wide.u32 %rd7, %r8, 4;
  add.s64 %rd8, %rd4, %rd7;
  st.global.u32 [%rd8], %r6;
DONE:
  ret;
}
)";

int main() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  char errorLog[4096] = {}, infoLog[4096] = {};
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                    infoLog, reinterpret_cast<void *>(sizeof(infoLog)),
                    reinterpret_cast<void *>(1)};
  CUlinkState link;
  CHECK(cuLinkCreate(5, options, values, &link));
  CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char *>(SquarePtx),
                      std::strlen(SquarePtx) + 1, "square.ptx", 0, nullptr,
                      nullptr));
  CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char *>(ReversePtx),
                      std::strlen(ReversePtx) + 1, "reverse.ptx", 0, nullptr,
                      nullptr));
  void *image = nullptr;
  size_t imageSize = 0;
  CUresult linked = cuLinkComplete(link, &image, &imageSize);
  if (linked != CUDA_SUCCESS) {
    std::printf("cuLinkComplete failed; error log:\n%s\nFAIL\n", errorLog);
    return 1;
  }
  std::printf("linked image: %zu bytes\n", imageSize);
  // The image belongs to the link state: load it before destroying that.
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, image));
  CHECK(cuLinkDestroy(link));
  CUfunction square, reverse;
  CHECK(cuModuleGetFunction(&square, mod, "square"));
  CHECK(cuModuleGetFunction(&reverse, mod, "reverse"));

  const unsigned n = 777;
  std::vector<int> host(n);
  for (unsigned i = 0; i < n; ++i)
    host[i] = int(i) - 300;
  CUdeviceptr a, b;
  CHECK(cuMemAlloc(&a, n * sizeof(int)));
  CHECK(cuMemAlloc(&b, n * sizeof(int)));
  CHECK(cuMemcpyHtoD(a, host.data(), n * sizeof(int)));
  unsigned count = n;
  void *squareArgs[] = {&a, &count};
  void *reverseArgs[] = {&a, &b, &count};
  const unsigned block = 64, grid = (n + block - 1) / block;
  CHECK(cuLaunchKernel(square, grid, 1, 1, block, 1, 1, 0, nullptr, squareArgs,
                       nullptr));
  CHECK(cuLaunchKernel(reverse, grid, 1, 1, block, 1, 1, 0, nullptr,
                       reverseArgs, nullptr));
  std::vector<int> out(n);
  CHECK(cuMemcpyDtoH(out.data(), b, n * sizeof(int)));
  int errors = 0;
  for (unsigned i = 0; i < n; ++i) {
    int v = host[n - 1 - i];
    if (out[i] != v * v && errors++ < 5)
      std::printf("out[%u] = %d, expected %d\n", i, out[i], v * v);
  }
  CHECK(cuMemFree(a));
  CHECK(cuMemFree(b));
  CHECK(cuModuleUnload(mod));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  std::printf("%s\n", errors ? "FAIL" : "PASS");
  return errors ? 1 : 0;
}
