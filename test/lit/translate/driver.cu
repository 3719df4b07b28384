// The driver API: functions (both the spelling cuda.h's macros give and the
// _v2 entry point), handle types and enumerators; the error-string functions
// HIP 5.4 added get a compat definition for older HIP; calls with no HIP
// counterpart are reported, and the linker's get a stub that fails.
// REQUIRES: cuda-headers
// RUN: %cuhip translate %s --hip-version 5.2 --cuda-path %cuda_path 2>%t.err | FileCheck --match-full-lines --check-prefixes=CHECK,HIP52 %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err
// RUN: %cuhip translate %s --hip-version 6.2 --cuda-path %cuda_path 2>/dev/null | FileCheck --match-full-lines --check-prefixes=CHECK,HIP62 %s

#include <cuda.h>
// CHECK: #include <hip/hip_runtime.h>
// HIP52: // cuhip: drv_error, for HIP before 5.4
// HIP52-NEXT: #if HIP_VERSION < 50400000 && !defined(CUHIP_COMPAT_{{DRV}}_ERROR)
// HIP52: inline hipError_t hipDrvGetErrorName(hipError_t Error, const char **Str) {
// HIP62-NOT: drv_error
// CHECK: // cuhip: cu_link, which HIP does not have
// CHECK-NEXT: #if !defined(CUHIP_COMPAT_{{CU}}_LINK)
// CHECK: inline hipError_t cuLinkDestroy(CUlinkState) { return hipErrorNotSupported; }

int run(const void *image, void **args) {
  CUresult r = cuInit(0);
  // CHECK: hipError_t r = hipInit(0);
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUdeviceptr ptr;
  CUstream stream;
  // CHECK: hipDevice_t dev;
  // CHECK-NEXT: hipCtx_t ctx;
  // CHECK-NEXT: hipModule_t mod;
  // CHECK-NEXT: hipFunction_t fn;
  // CHECK-NEXT: hipDeviceptr_t ptr;
  // CHECK-NEXT: hipStream_t stream;
  cuDeviceGet(&dev, 0);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  // CHECK: hipDeviceGet(&dev, 0);
  // CHECK-NEXT: hipDevicePrimaryCtxRetain(&ctx, dev);
  int sms;
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  // CHECK: hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev);
  cuModuleLoadData(&mod, image);
  cuModuleGetFunction(&fn, mod, "k");
  // CHECK: hipModuleLoadData(&mod, image);
  // CHECK-NEXT: hipModuleGetFunction(&fn, mod, "k");
  cuMemAlloc(&ptr, 64);
  cuMemAlloc_v2(&ptr, 64);
  // CHECK: hipMalloc(&ptr, 64);
  // CHECK-NEXT: hipMalloc(&ptr, 64);
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  // CHECK: hipStreamCreateWithFlags(&stream, hipStreamNonBlocking);
  cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, stream, args, nullptr);
  // CHECK: hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, stream, args, nullptr);
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_INVALID_VALUE) {
    // CHECK: if (r != hipSuccess && r != hipErrorInvalidValue) {
    const char *name;
    cuGetErrorName(r, &name);
    // CHECK: hipDrvGetErrorName(r, &name);
  }
  CUlinkState link;
  cuLinkCreate(0, nullptr, nullptr, &link);
  // CHECK: CUlinkState link;
  // CHECK-NEXT: cuLinkCreate(0, nullptr, nullptr, &link);
  // DIAG: driver.cu:[[@LINE-4]]:3: warning: 'CUlinkState' has no HIP counterpart: {{.*}}hipErrorNotSupported{{.*}} [cuhip-unsupported]
  // DIAG: driver.cu:[[@LINE-4]]:3: warning: 'cuLinkCreate' has no HIP counterpart: {{.*}} [cuhip-unsupported]
  CUcontext own;
  cuCtxCreate(&own, nullptr, 0, dev);
  // CHECK: cuCtxCreate(&own, nullptr, 0, dev);
  // DIAG: driver.cu:[[@LINE-2]]:3: warning: 'cuCtxCreate' has no HIP counterpart: CUDA 13 spells cuCtxCreate_v4 {{.*}} [cuhip-unsupported]
  cuMemFree(ptr);
  // CHECK: hipFree(ptr);
  return sms;
}
