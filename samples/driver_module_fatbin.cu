// driver_module_fatbin: loads kernels from a fatbin file (argv[1], built by
// `nvcc -fatbin` from driver_module_fatbin_kernels.cu) three ways — by path
// with cuModuleLoad, from memory with cuModuleLoadFatBinary, and as a CUDA
// 12 library with cuLibraryLoadData and cuLibraryGetKernel — launches them,
// reads a __device__ counter through cuModuleGetGlobal, and checks every
// result. Prints PASS or FAIL.
#include <cstdio>
#include <cuda.h>
#include <fstream>
#include <iterator>
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

static int errors = 0;

static void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("check failed: %s\n", what);
    ++errors;
  }
}

// Runs scale_add (y = 3x + y) over n elements and checks y and the
// module's `written` counter, which must grow by n.
static int runScaleAdd(CUfunction f, CUdeviceptr written, unsigned before) {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  float a = 3;
  int count = n;
  void *args[] = {&dy, &dx, &a, &count};
  CHECK(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args,
                       nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    if (y[i] != 3.0f * i + 1.0f) {
      std::printf("scale_add: y[%d] = %f\n", i, y[i]);
      ++errors;
      break;
    }
  unsigned after = 0;
  CHECK(cuMemcpyDtoH(&after, written, sizeof(after)));
  expect(after == before + n, "the written counter grew by n");
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s KERNELS.fatbin\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  if (image.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  // 1. By path.
  CUmodule byPath;
  CHECK(cuModuleLoad(&byPath, argv[1]));
  CUfunction scaleAdd;
  CHECK(cuModuleGetFunction(&scaleAdd, byPath, "scale_add"));
  CUdeviceptr written;
  size_t writtenBytes = 0;
  CHECK(cuModuleGetGlobal(&written, &writtenBytes, byPath, "written"));
  expect(writtenBytes == sizeof(unsigned), "the counter's size");
  if (runScaleAdd(scaleAdd, written, 0) || runScaleAdd(scaleAdd, written, 1000))
    return 1;

  // 2. From memory; a second module has variables of its own.
  CUmodule fromMemory;
  CHECK(cuModuleLoadFatBinary(&fromMemory, image.data()));
  CUfunction scaleAdd2;
  CHECK(cuModuleGetFunction(&scaleAdd2, fromMemory, "scale_add"));
  CUdeviceptr written2;
  CHECK(cuModuleGetGlobal(&written2, nullptr, fromMemory, "written"));
  expect(written2 != written, "each module has its own variables");
  if (runScaleAdd(scaleAdd2, written2, 0))
    return 1;
  unsigned count = 0;
  CHECK(cuModuleGetFunctionCount(&count, fromMemory));
  expect(count == 2, "two kernels in the fatbin");

  // 3. As a library: kernels exist without a context and become functions
  // of the current one.
  CUlibrary lib;
  CHECK(cuLibraryLoadData(&lib, image.data(), nullptr, nullptr, 0, nullptr,
                          nullptr, 0));
  CUkernel fillKernel;
  CHECK(cuLibraryGetKernel(&fillKernel, lib, "fill"));
  CUfunction fill;
  CHECK(cuKernelGetFunction(&fill, fillKernel));
  const int n = 5000;
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, n * sizeof(int)));
  int base = 7, total = n;
  void *args[] = {&out, &base, &total};
  CHECK(cuLaunchKernel(fill, 4, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  std::vector<int> host(n);
  CHECK(cuMemcpyDtoH(host.data(), out, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    if (host[i] != base + i) {
      std::printf("fill: out[%d] = %d\n", i, host[i]);
      ++errors;
      break;
    }
  CUdeviceptr libWritten;
  CHECK(cuLibraryGetGlobal(&libWritten, nullptr, lib, "written"));
  unsigned untouched = 1;
  CHECK(cuMemcpyDtoH(&untouched, libWritten, sizeof(untouched)));
  expect(untouched == 0, "fill writes no counter");

  CHECK(cuMemFree(out));
  CHECK(cuLibraryUnload(lib));
  CHECK(cuModuleUnload(fromMemory));
  CHECK(cuModuleUnload(byPath));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  std::printf("%s\n", errors ? "FAIL" : "PASS");
  return errors ? 1 : 0;
}
