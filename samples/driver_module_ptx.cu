// driver_module_ptx: the CUDA driver API on its own, as JIT-style code uses
// it. A PTX kernel embedded as a string is loaded with cuModuleLoadData; a
// __constant__-like `.const` scale is set through cuModuleGetGlobal, and the
// kernel (y[i] = scale * x[i] + y[i], counting the elements it touched in a
// `.global` counter) is launched once with kernelParams and once with the
// `extra` parameter buffer. Checks every element and prints PASS or FAIL.
#include <cstdint>
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

// What nvcc emits for a kernel reading a __constant__ float and adding to a
// __device__ counter, written out by hand.
static const char *SaxpyPtx = R"(
.version 7.5
.target sm_75
.address_size 64

.const .align 4 .f32 scale = 0f3F800000;
.global .align 4 .u32 touched;

.visible .entry saxpy_const(
  .param .u64 p_x,
  .param .u64 p_y,
  .param .u32 p_n
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_y];
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
  add.s64 %rd7, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  ld.global.f32 %f2, [%rd7];
  ld.const.f32 %f3, [scale];
  fma.rn.f32 %f4, %f3, %f1, %f2;
  st.global.f32 [%rd7], %f4;
  red.global.add.u32 [touched], 1;
DONE:
  ret;
}
)";

int main() {
  const unsigned n = 10000;
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  char name[256];
  CHECK(cuDeviceGetName(name, sizeof(name), dev));
  std::printf("device 0: %s\n", name);
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, SaxpyPtx));
  CUfunction saxpy;
  CHECK(cuModuleGetFunction(&saxpy, mod, "saxpy_const"));
  CUdeviceptr scale, touched;
  size_t scaleBytes = 0, touchedBytes = 0;
  CHECK(cuModuleGetGlobal(&scale, &scaleBytes, mod, "scale"));
  CHECK(cuModuleGetGlobal(&touched, &touchedBytes, mod, "touched"));
  if (scaleBytes != 4 || touchedBytes != 4) {
    std::printf("FAIL: variable sizes %zu and %zu\n", scaleBytes, touchedBytes);
    return 1;
  }
  float initial = 0;
  CHECK(cuMemcpyDtoH(&initial, scale, sizeof(float)));
  const float a = 2.5f;
  CHECK(cuMemcpyHtoD(scale, &a, sizeof(float)));
  CHECK(cuMemsetD32(touched, 0, 1));

  std::vector<float> x(n), y(n), out(n);
  for (unsigned i = 0; i < n; ++i) {
    x[i] = float(i % 97) * 0.5f;
    y[i] = float(i % 13) - 6.0f;
  }
  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));

  // First launch: one pointer per parameter.
  unsigned count = n;
  void *args[] = {&dx, &dy, &count};
  const unsigned block = 128, grid = (n + block - 1) / block;
  CHECK(cuLaunchKernel(saxpy, grid, 1, 1, block, 1, 1, 0, nullptr, args,
                       nullptr));

  // Second launch: the parameters packed into one buffer at their PTX
  // offsets (two pointers, then the count).
  struct {
    CUdeviceptr x, y;
    unsigned n;
  } packed = {dx, dy, n};
  size_t packedSize = sizeof(packed);
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &packedSize,
                   CU_LAUNCH_PARAM_END};
  CUstream stream;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuLaunchKernel(saxpy, grid, 1, 1, block, 1, 1, 0, stream, nullptr,
                       extra));
  CHECK(cuStreamSynchronize(stream));

  CHECK(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
  unsigned hits = 0;
  CHECK(cuMemcpyDtoH(&hits, touched, sizeof(hits)));
  // A device-to-device copy of the result must match too.
  CUdeviceptr dz;
  CHECK(cuMemAlloc(&dz, n * sizeof(float)));
  CHECK(cuMemcpyDtoD(dz, dy, n * sizeof(float)));
  std::vector<float> copy(n);
  CHECK(cuMemcpy(reinterpret_cast<CUdeviceptr>(copy.data()), dz,
                 n * sizeof(float)));

  int errors = 0;
  for (unsigned i = 0; i < n; ++i) {
    float once = a * x[i] + y[i];
    float expect = a * x[i] + once;
    if (out[i] != expect || copy[i] != expect) {
      if (errors++ < 5)
        std::printf("mismatch at %u: %f (copy %f), expected %f\n", i, out[i],
                    copy[i], expect);
    }
  }
  std::printf("initial scale %.2f, %u elements touched\n", initial, hits);
  if (initial != 1.0f || hits != 2 * n)
    ++errors;

  CHECK(cuStreamDestroy(stream));
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  CHECK(cuMemFree(dz));
  CHECK(cuModuleUnload(mod));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  std::printf("%s\n", errors ? "FAIL" : "PASS");
  return errors ? 1 : 0;
}
