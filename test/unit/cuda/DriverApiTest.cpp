//===- DriverApiTest.cpp - libcuda.so.1 through the real cuda.h -----------===//
//
// Programs written against the toolkit's cuda.h, linked with cuhip's
// libcuda.so.1 (not the toolkit's stub): every family of the driver API,
// its documented errors, module loading from PTX, from a fatbin and from an
// object file nvcc built, both forms of cuLaunchKernel parameters, and
// cuGetProcAddress's version and flag rules. ctest runs each test in a
// process of its own; the first test must run before anything calls cuInit.
//
//===----------------------------------------------------------------------===//
#include "DriverTestKernels.h"

#include <cuda.h>
#include <cudaProfiler.h>

#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using cuhip::test::ScalePtx;
using cuhip::test::AddPtx;

// A kernel calling a function and writing a variable of another module.
const char *CallerPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.extern .func (.param .b32 r) helper(.param .b32 x);
.extern .global .align 4 .u32 counter;

.visible .entry caller(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  {
  .param .b32 p;
  .param .b32 r;
  st.param.b32 [p], 20;
  call (r), helper, (p);
  ld.param.b32 %r1, [r];
  }
  st.global.u32 [%rd2], %r1;
  mov.u32 %r2, 7;
  st.global.u32 [counter], %r2;
  ret;
}
)";

const char *HelperPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .global .align 4 .u32 counter = 1;

.visible .func (.param .b32 r) helper(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mad.lo.s32 %r2, %r1, 2, 2;
  st.param.b32 [r], %r2;
  ret;
}
)";

// Declares what no module defines.
const char *UnresolvedPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.extern .func missingHelper();

.visible .entry lonely()
{
  call missingHelper;
  ret;
}
)";

const char *BrokenPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry broken()
{
  frobnicate.u32 %r1;
  ret;
}
)";

// Module-scope variables: a .const factor with an initializer and a
// .global accumulator (nvcc declares both without .visible), plus a visible
// table.
const char *GlobalsPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.const .align 4 .f32 factor = 0f40000000;
.global .align 4 .f32 total;
.visible .global .align 8 .u64 table[4] = {1, 2, 3, 4};

.visible .entry accumulate(.param .f32 p_x)
{
  .reg .f32 %f<4>;
  ld.param.f32 %f1, [p_x];
  ld.const.f32 %f2, [factor];
  mul.f32 %f3, %f1, %f2;
  red.global.add.f32 [total], %f3;
  ret;
}
)";

/// cuInit, and the primary context of device 0 current on this thread.
class Driver : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&Dev, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
    CHECK_CU(cuCtxSetCurrent(Ctx));
  }
  void TearDown() override { cuDevicePrimaryCtxRelease(Dev); }

  /// Loads ScalePtx and returns its kernel.
  CUfunction scaleKernel() {
    EXPECT_EQ(cuModuleLoadData(&Mod, ScalePtx), CUDA_SUCCESS);
    CUfunction F = nullptr;
    EXPECT_EQ(cuModuleGetFunction(&F, Mod, "scale"), CUDA_SUCCESS);
    return F;
  }

  /// Runs F (a scale kernel) over 100 floats 0..99 with factor 2 and
  /// checks the result.
  void runScale(CUfunction F) {
    constexpr unsigned N = 100;
    std::vector<float> Host(N);
    for (unsigned I = 0; I < N; ++I)
      Host[I] = float(I);
    CUdeviceptr D;
    CHECK_CU(cuMemAlloc(&D, N * sizeof(float)));
    CHECK_CU(cuMemcpyHtoD(D, Host.data(), N * sizeof(float)));
    float Factor = 2;
    unsigned Count = N;
    void *Args[] = {&D, &Factor, &Count};
    CHECK_CU(cuLaunchKernel(F, 2, 1, 1, 64, 1, 1, 0, nullptr, Args, nullptr));
    CHECK_CU(cuMemcpyDtoH(Host.data(), D, N * sizeof(float)));
    for (unsigned I = 0; I < N; ++I)
      ASSERT_EQ(Host[I], 2.0f * I) << I;
    CHECK_CU(cuMemFree(D));
  }

  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUmodule Mod = nullptr;
};

//===----------------------------------------------------------------------===//
// Initialisation, devices, errors
//===----------------------------------------------------------------------===//

TEST(DriverInit, CallsBeforeCuInitFail) {
  int N = -1;
  EXPECT_EQ(cuDeviceGetCount(&N), CUDA_ERROR_NOT_INITIALIZED);
  CUdeviceptr P;
  EXPECT_EQ(cuMemAlloc(&P, 16), CUDA_ERROR_NOT_INITIALIZED);
  int V = 0;
  EXPECT_EQ(cuDriverGetVersion(&V), CUDA_SUCCESS); // needs no cuInit
  EXPECT_GE(V, 13000);
  EXPECT_EQ(cuInit(1), CUDA_ERROR_INVALID_VALUE); // flags must be 0
  EXPECT_EQ(cuDeviceGetCount(&N), CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(cuInit(0), CUDA_SUCCESS);
  EXPECT_EQ(cuDeviceGetCount(&N), CUDA_SUCCESS);
  EXPECT_EQ(N, 1);
}

TEST(DriverInit, DeviceQueries) {
  CHECK_CU(cuInit(0));
  CUdevice D;
  EXPECT_EQ(cuDeviceGet(&D, 1), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGet(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuDeviceGet(&D, 0));
  char Name[256];
  CHECK_CU(cuDeviceGetName(Name, sizeof(Name), D));
  EXPECT_NE(std::strstr(Name, "cuhip"), nullptr);
  char Short[6];
  CHECK_CU(cuDeviceGetName(Short, sizeof(Short), D));
  EXPECT_EQ(std::strlen(Short), 5u);
  CUuuid U;
  CHECK_CU(cuDeviceGetUuid(&U, D));
  EXPECT_EQ(std::memcmp(U.bytes, "cuhip-cpu-devic", 15), 0);
  size_t Mem = 0;
  CHECK_CU(cuDeviceTotalMem(&Mem, D));
  EXPECT_GT(Mem, size_t(1) << 28);
  int Major, Minor, AttrMajor, Warp, Sms, Coop;
  CHECK_CU(cuDeviceComputeCapability(&Major, &Minor, D));
  CHECK_CU(cuDeviceGetAttribute(&AttrMajor,
                                CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, D));
  EXPECT_EQ(Major, AttrMajor);
  CHECK_CU(cuDeviceGetAttribute(&Warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, D));
  EXPECT_EQ(Warp, 32);
  CHECK_CU(cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, D));
  EXPECT_EQ(unsigned(Sms), std::thread::hardware_concurrency());
  CHECK_CU(cuDeviceGetAttribute(&Coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, D));
  EXPECT_EQ(Coop, 1);
  // Every attribute CUDA 13 defines has a value.
  for (int A = 1; A < CU_DEVICE_ATTRIBUTE_MAX; ++A) {
    int V = -12345;
    EXPECT_EQ(cuDeviceGetAttribute(&V, CUdevice_attribute(A), D), CUDA_SUCCESS)
        << A;
    EXPECT_NE(V, -12345) << A;
  }
  int V;
  EXPECT_EQ(cuDeviceGetAttribute(&V, CUdevice_attribute(9999), D),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetAttribute(&V, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 7),
            CUDA_ERROR_INVALID_DEVICE);
  CUdevprop P;
  CHECK_CU(cuDeviceGetProperties(&P, D));
  EXPECT_EQ(P.SIMDWidth, 32);
  EXPECT_EQ(P.maxThreadsPerBlock, 1024);
}

TEST(DriverInit, ErrorNamesAndStrings) {
  const char *S = nullptr;
  CHECK_CU(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &S));
  EXPECT_STREQ(S, "CUDA_ERROR_INVALID_VALUE");
  CHECK_CU(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &S));
  EXPECT_STREQ(S, "out of memory");
  CHECK_CU(cuGetErrorName(CUDA_ERROR_UNKNOWN, &S));
  EXPECT_STREQ(S, "CUDA_ERROR_UNKNOWN");
  // Every code of cuda.h has a name and a string.
  for (int E = 0; E < 1000; ++E) {
    const char *N = nullptr, *Str = nullptr;
    if (cuGetErrorName(CUresult(E), &N) == CUDA_SUCCESS) {
      EXPECT_EQ(cuGetErrorString(CUresult(E), &Str), CUDA_SUCCESS);
      ASSERT_NE(Str, nullptr);
      EXPECT_GT(std::strlen(Str), 2u);
    }
  }
  EXPECT_EQ(cuGetErrorName(CUresult(12345), &S), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGetErrorString(CUresult(12345), &S), CUDA_ERROR_INVALID_VALUE);
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

TEST(DriverContext, ExplicitContextsAndStaleHandles) {
  CHECK_CU(cuInit(0));
  CUdeviceptr P;
  EXPECT_EQ(cuMemAlloc(&P, 16), CUDA_ERROR_INVALID_CONTEXT); // none current
  CUcontext A, B, Cur;
  CHECK_CU(cuCtxCreate(&A, nullptr, 0, 0));
  CHECK_CU(cuCtxGetCurrent(&Cur));
  EXPECT_EQ(Cur, A);
  CHECK_CU(cuCtxCreate(&B, nullptr, 0, 0));
  CHECK_CU(cuCtxGetCurrent(&Cur));
  EXPECT_EQ(Cur, B);
  CUcontext Popped;
  CHECK_CU(cuCtxPopCurrent(&Popped));
  EXPECT_EQ(Popped, B);
  CHECK_CU(cuCtxGetCurrent(&Cur));
  EXPECT_EQ(Cur, A);
  CHECK_CU(cuCtxPushCurrent(B));
  CUdevice D = -1;
  CHECK_CU(cuCtxGetDevice(&D));
  EXPECT_EQ(D, 0);
  unsigned Ver = 0;
  CHECK_CU(cuCtxGetApiVersion(B, &Ver));
  EXPECT_GE(Ver, 3020u);
  CHECK_CU(cuCtxSynchronize());
  // The current context belongs to the thread.
  std::thread([] {
    CUcontext C = reinterpret_cast<CUcontext>(1);
    EXPECT_EQ(cuCtxGetCurrent(&C), CUDA_SUCCESS);
    EXPECT_EQ(C, nullptr);
    CUdeviceptr Q;
    EXPECT_EQ(cuMemAlloc(&Q, 16), CUDA_ERROR_INVALID_CONTEXT);
  }).join();
  // Destroying B pops it; A is current again.
  CHECK_CU(cuCtxDestroy(B));
  CHECK_CU(cuCtxGetCurrent(&Cur));
  EXPECT_EQ(Cur, A);
  EXPECT_EQ(cuCtxDestroy(B), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxSetCurrent(B), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxPushCurrent(B), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxGetApiVersion(B, &Ver), CUDA_ERROR_INVALID_CONTEXT);
  // A context destroyed while current on this thread leaves it stale.
  CHECK_CU(cuCtxPushCurrent(A));
  CHECK_CU(cuCtxCreate(&B, nullptr, 0, 0));
  CHECK_CU(cuCtxPopCurrent(&Popped));
  CHECK_CU(cuCtxDestroy(A));
  CHECK_CU(cuCtxGetCurrent(&Cur));
  EXPECT_EQ(Cur, A);
  EXPECT_EQ(cuMemAlloc(&P, 16), CUDA_ERROR_INVALID_CONTEXT);
  CHECK_CU(cuCtxSetCurrent(B));
  CHECK_CU(cuMemAlloc(&P, 16));
  CHECK_CU(cuMemFree(P));
  CHECK_CU(cuCtxDestroy(B));
  EXPECT_EQ(cuCtxCreate(&A, nullptr, 0, 5), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuCtxCreate(&A, nullptr, 0x1000, 0), CUDA_ERROR_INVALID_VALUE);
}

// Profiler control needs a current context and, with no profiling tool
// attached, succeeds without effect.
TEST(DriverContext, ProfilerControlNeedsOnlyAContext) {
  CHECK_CU(cuInit(0));
  EXPECT_EQ(cuProfilerStart(), CUDA_ERROR_INVALID_CONTEXT);
  CUcontext C;
  CHECK_CU(cuCtxCreate(&C, nullptr, 0, 0));
  EXPECT_EQ(cuProfilerStart(), CUDA_SUCCESS);
  EXPECT_EQ(cuProfilerStop(), CUDA_SUCCESS);
  EXPECT_EQ(cuProfilerStop(), CUDA_SUCCESS);
  CHECK_CU(cuCtxDestroy(C));
}

TEST(DriverContext, PrimaryContextState) {
  CHECK_CU(cuInit(0));
  unsigned Flags = 99;
  int Active = -1;
  CHECK_CU(cuDevicePrimaryCtxGetState(0, &Flags, &Active));
  EXPECT_EQ(Active, 0);
  CHECK_CU(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC));
  CUcontext P1, P2;
  CHECK_CU(cuDevicePrimaryCtxRetain(&P1, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&P2, 0));
  EXPECT_EQ(P1, P2);
  CHECK_CU(cuDevicePrimaryCtxGetState(0, &Flags, &Active));
  EXPECT_EQ(Active, 1);
  EXPECT_EQ(Flags, unsigned(CU_CTX_SCHED_BLOCKING_SYNC));
  CHECK_CU(cuCtxSetCurrent(P1));
  unsigned CtxFlags = 0;
  CHECK_CU(cuCtxGetFlags(&CtxFlags));
  EXPECT_EQ(CtxFlags, unsigned(CU_CTX_SCHED_BLOCKING_SYNC));
  EXPECT_EQ(cuCtxDestroy(P1), CUDA_ERROR_INVALID_CONTEXT); // not by destroy
  CHECK_CU(cuDevicePrimaryCtxRelease(0));
  CHECK_CU(cuDevicePrimaryCtxRelease(0));
  EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
  CHECK_CU(cuDevicePrimaryCtxGetState(0, &Flags, &Active));
  EXPECT_EQ(Active, 0);
  CUdeviceptr P;
  EXPECT_EQ(cuMemAlloc(&P, 16), CUDA_ERROR_INVALID_CONTEXT); // released
  CHECK_CU(cuDevicePrimaryCtxRetain(&P2, 0));
  EXPECT_EQ(P1, P2); // the same handle again
  CHECK_CU(cuMemAlloc(&P, 16));
  CHECK_CU(cuMemFree(P));
  CHECK_CU(cuDevicePrimaryCtxReset(0));
  EXPECT_EQ(cuMemAlloc(&P, 16), CUDA_ERROR_INVALID_CONTEXT);
}

TEST_F(Driver, Limits) {
  size_t V = 0;
  CHECK_CU(cuCtxGetLimit(&V, CU_LIMIT_STACK_SIZE));
  EXPECT_GT(V, 0u);
  CHECK_CU(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 << 20));
  CHECK_CU(cuCtxGetLimit(&V, CU_LIMIT_MALLOC_HEAP_SIZE));
  EXPECT_EQ(V, size_t(64 << 20));
  // The device's limit, whichever context set it.
  CUcontext Mine, Primary;
  CHECK_CU(cuCtxGetCurrent(&Primary));
  CHECK_CU(cuCtxCreate(&Mine, nullptr, 0, 0));
  CHECK_CU(cuCtxGetLimit(&V, CU_LIMIT_MALLOC_HEAP_SIZE));
  EXPECT_EQ(V, size_t(64 << 20));
  CHECK_CU(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20));
  CHECK_CU(cuCtxDestroy(Mine));
  CHECK_CU(cuCtxSetCurrent(Primary));
  CHECK_CU(cuCtxGetLimit(&V, CU_LIMIT_MALLOC_HEAP_SIZE));
  EXPECT_EQ(V, size_t(8 << 20));
  // Dynamic parallelism's limits (the CPU backend's device runtime).
  CHECK_CU(cuCtxGetLimit(&V, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
  EXPECT_EQ(V, 2048u);
  CHECK_CU(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 16));
  CHECK_CU(cuCtxGetLimit(&V, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
  EXPECT_EQ(V, 16u);
  CHECK_CU(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 2048));
  EXPECT_EQ(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 25),
            CUDA_ERROR_INVALID_VALUE); // deeper than grids can nest
  EXPECT_EQ(cuCtxGetLimit(&V, CUlimit(99)), CUDA_ERROR_UNSUPPORTED_LIMIT);
  int Least, Greatest;
  CHECK_CU(cuCtxGetStreamPriorityRange(&Least, &Greatest));
  EXPECT_GE(Least, Greatest);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST_F(Driver, LinearCopiesAndMemsets) {
  CUdeviceptr A, B;
  EXPECT_EQ(cuMemAlloc(&A, 0), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemAlloc(&A, 1024));
  CHECK_CU(cuMemAlloc(&B, 1024));
  std::vector<uint8_t> H(1024), Out(1024);
  for (int I = 0; I < 1024; ++I)
    H[I] = uint8_t(I * 7);
  CHECK_CU(cuMemcpyHtoD(A, H.data(), 1024));
  CHECK_CU(cuMemcpyDtoD(B, A, 1024));
  CHECK_CU(cuMemcpyDtoH(Out.data(), B, 1024));
  EXPECT_EQ(H, Out);
  EXPECT_EQ(cuMemcpyHtoD(A + 1000, H.data(), 100), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemcpyHtoDAsync(A, H.data() + 1, 512, nullptr));
  CHECK_CU(cuMemcpy(B, A, 512));
  CHECK_CU(cuMemcpyDtoHAsync(Out.data(), B, 512, nullptr));
  CHECK_CU(cuStreamSynchronize(nullptr));
  EXPECT_EQ(Out[0], H[1]);

  CHECK_CU(cuMemsetD8(A, 0xab, 1024));
  CHECK_CU(cuMemsetD16(A + 2, 0x1234, 3));
  CHECK_CU(cuMemsetD32(A + 16, 0xdeadbeef, 4));
  CHECK_CU(cuMemsetD32Async(A + 32, 0x01010101, 2, nullptr));
  CHECK_CU(cuMemcpyDtoH(Out.data(), A, 64));
  EXPECT_EQ(Out[0], 0xab);
  uint16_t S16;
  std::memcpy(&S16, &Out[6], 2);
  EXPECT_EQ(S16, 0x1234);
  EXPECT_EQ(Out[8], 0xab);
  uint32_t S32;
  std::memcpy(&S32, &Out[28], 4);
  EXPECT_EQ(S32, 0xdeadbeefu);
  EXPECT_EQ(Out[39], 0x01);
  EXPECT_EQ(cuMemsetD32(A + 2, 0, 1), CUDA_ERROR_INVALID_VALUE); // unaligned

  CUdeviceptr Base;
  size_t Size;
  CHECK_CU(cuMemGetAddressRange(&Base, &Size, A + 100));
  EXPECT_EQ(Base, A);
  EXPECT_EQ(Size, 1024u);
  size_t Free, Total;
  CHECK_CU(cuMemGetInfo(&Free, &Total));
  EXPECT_LE(Free, Total);

  CHECK_CU(cuMemFree(A));
  EXPECT_EQ(cuMemFree(A), CUDA_ERROR_INVALID_VALUE); // already freed
  EXPECT_EQ(cuMemGetAddressRange(&Base, &Size, A), CUDA_ERROR_NOT_FOUND);
  CHECK_CU(cuMemFree(B));
}

TEST_F(Driver, PitchedAnd3DCopies) {
  CUdeviceptr D;
  size_t Pitch;
  EXPECT_EQ(cuMemAllocPitch(&D, &Pitch, 100, 4, 3), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemAllocPitch(&D, &Pitch, 100, 4, 4));
  EXPECT_GE(Pitch, 100u);
  std::vector<uint8_t> H(400), Out(400, 0);
  for (int I = 0; I < 400; ++I)
    H[I] = uint8_t(I);
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = H.data();
  C.srcPitch = 100;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = D;
  C.dstPitch = Pitch;
  C.WidthInBytes = 100;
  C.Height = 4;
  CHECK_CU(cuMemcpy2D(&C));
  // Back with an offset: rows 1..3, columns 10..59, unaligned.
  CUDA_MEMCPY2D Back = {};
  Back.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  Back.srcDevice = D;
  Back.srcPitch = Pitch;
  Back.srcXInBytes = 10;
  Back.srcY = 1;
  Back.dstMemoryType = CU_MEMORYTYPE_HOST;
  Back.dstHost = Out.data();
  Back.dstPitch = 50;
  Back.WidthInBytes = 50;
  Back.Height = 3;
  CHECK_CU(cuMemcpy2DUnaligned(&Back));
  for (int Y = 0; Y < 3; ++Y)
    for (int X = 0; X < 50; ++X)
      ASSERT_EQ(Out[Y * 50 + X], H[(Y + 1) * 100 + 10 + X]);
  Back.dstPitch = 10; // narrower than a row
  EXPECT_EQ(cuMemcpy2D(&Back), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemsetD2D32(D, Pitch, 0x11223344, 25, 4));
  uint32_t W;
  CHECK_CU(cuMemcpyDtoH(&W, D + 3 * Pitch + 96, 4));
  EXPECT_EQ(W, 0x11223344u);

  // 3D: a 4x3x2 box of bytes through device memory and back.
  std::vector<uint8_t> Box(24), Box2(24, 0);
  for (int I = 0; I < 24; ++I)
    Box[I] = uint8_t(100 + I);
  CUDA_MEMCPY3D C3 = {};
  C3.srcMemoryType = CU_MEMORYTYPE_HOST;
  C3.srcHost = Box.data();
  C3.srcPitch = 4;
  C3.srcHeight = 3;
  C3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C3.dstDevice = D;
  C3.dstPitch = Pitch;
  C3.dstHeight = 2; // slices of 2 rows: rows 0-1 and 2-3 hold z=0, z=1
  C3.WidthInBytes = 4;
  C3.Height = 2;
  C3.Depth = 2;
  CHECK_CU(cuMemcpy3D(&C3));
  uint8_t Row[4];
  CHECK_CU(cuMemcpyDtoH(Row, D + 2 * Pitch, 4)); // z=1, y=0
  EXPECT_EQ(Row[0], Box[12]);
  std::swap(C3.srcMemoryType, C3.dstMemoryType);
  C3.srcDevice = D;
  C3.srcPitch = Pitch;
  C3.srcHeight = 2;
  C3.dstHost = Box2.data();
  C3.dstPitch = 4;
  C3.dstHeight = 3;
  CHECK_CU(cuMemcpy3DAsync(&C3, nullptr));
  CHECK_CU(cuCtxSynchronize());
  for (int Z = 0; Z < 2; ++Z)
    for (int I = 0; I < 8; ++I)
      ASSERT_EQ(Box2[Z * 12 + I], Box[Z * 12 + I]);
  CHECK_CU(cuMemFree(D));
}

TEST_F(Driver, HostMemoryAndPointerAttributes) {
  void *H = nullptr;
  CHECK_CU(cuMemAllocHost(&H, 4096));
  CUdeviceptr DP;
  CHECK_CU(cuMemHostGetDevicePointer(&DP, H, 0));
  unsigned Type = 0;
  CHECK_CU(cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, DP));
  EXPECT_EQ(Type, unsigned(CU_MEMORYTYPE_HOST));
  CHECK_CU(cuMemFreeHost(H));
  EXPECT_EQ(cuMemFreeHost(H), CUDA_ERROR_INVALID_VALUE);

  std::vector<float> V(256, 1.0f);
  CHECK_CU(cuMemHostRegister(V.data(), V.size() * 4, 0));
  EXPECT_EQ(cuMemHostRegister(V.data(), 16, 0),
            CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  CHECK_CU(cuMemHostGetDevicePointer(&DP, V.data() + 5, 0));
  EXPECT_EQ(DP, CUdeviceptr(uintptr_t(V.data() + 5)));
  CHECK_CU(cuMemHostUnregister(V.data()));
  EXPECT_EQ(cuMemHostUnregister(V.data()),
            CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);

  CUdeviceptr D, M;
  CHECK_CU(cuMemAlloc(&D, 256));
  CHECK_CU(cuMemAllocManaged(&M, 256, CU_MEM_ATTACH_GLOBAL));
  CHECK_CU(cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, D + 8));
  EXPECT_EQ(Type, unsigned(CU_MEMORYTYPE_DEVICE));
  CUcontext C = nullptr;
  CHECK_CU(cuPointerGetAttribute(&C, CU_POINTER_ATTRIBUTE_CONTEXT, D));
  EXPECT_EQ(C, Ctx);
  CUdeviceptr Start;
  size_t Size;
  int Managed = -1;
  CUpointer_attribute Attrs[] = {CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                 CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                 CU_POINTER_ATTRIBUTE_IS_MANAGED};
  void *Data[] = {&Start, &Size, &Managed};
  CHECK_CU(cuPointerGetAttributes(3, Attrs, Data, M + 10));
  EXPECT_EQ(Start, M);
  EXPECT_EQ(Size, 256u);
  EXPECT_EQ(Managed, 1);
  int Stack;
  EXPECT_EQ(cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                  CUdeviceptr(uintptr_t(&Stack))),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemFree(D));
  CHECK_CU(cuMemFree(M));
}

// Physical allocations and pools name their device and need no current
// context (memMapIPCDrv creates and exports its allocations after
// destroying the contexts it made; a static-runtime child imports pool
// pointers before the runtime made any context current).
TEST_F(Driver, PhysicalAllocationsNeedNoContext) {
  CHECK_CU(cuCtxSetCurrent(nullptr));
  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = 0;
  Prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t Gran = 0;
  CHECK_CU(cuMemGetAllocationGranularity(&Gran, &Prop,
                                         CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle H, Imported;
  CHECK_CU(cuMemCreate(&H, Gran, &Prop, 0));
  int Fd = -1;
  CHECK_CU(cuMemExportToShareableHandle(
      &Fd, H, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK_CU(
      cuMemImportFromShareableHandle(&Imported, (void *)(uintptr_t)Fd,
                                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(Fd);
  // A descriptor that is no allocation is refused.
  EXPECT_EQ(
      cuMemImportFromShareableHandle(&Imported, (void *)(uintptr_t)-1,
                                     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
      CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemRelease(Imported));
  CHECK_CU(cuMemRelease(H));
  CUmemPoolPtrExportData Data = {};
  CUdeviceptr P = 0;
  CUmemoryPool Pool = nullptr;
  CHECK_CU(cuDeviceGetDefaultMemPool(&Pool, Dev));
  // The default pool imports nothing: an argument error, not a context one.
  EXPECT_EQ(cuMemPoolImportPointer(&P, Pool, &Data), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(Driver, VirtualMemoryManagement) {
  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = 0;
  size_t Gran = 0;
  CHECK_CU(cuMemGetAllocationGranularity(&Gran, &Prop,
                                         CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  ASSERT_GT(Gran, 0u);
  CUmemGenericAllocationHandle H;
  EXPECT_EQ(cuMemCreate(&H, Gran + 1, &Prop, 0), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemCreate(&H, 2 * Gran, &Prop, 0));
  CUdeviceptr VA;
  CHECK_CU(cuMemAddressReserve(&VA, 4 * Gran, 0, 0, 0));
  // The same physical memory at two addresses.
  CHECK_CU(cuMemMap(VA, 2 * Gran, 0, H, 0));
  CHECK_CU(cuMemMap(VA + 2 * Gran, 2 * Gran, 0, H, 0));
  CHECK_CU(cuMemRelease(H)); // the mappings keep it
  CUmemAccessDesc Access = {};
  Access.location = Prop.location;
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK_CU(cuMemSetAccess(VA, 4 * Gran, &Access, 1));
  uint32_t In = 0xcafe, Out = 0;
  CHECK_CU(cuMemcpyHtoD(VA + 64, &In, 4));
  CHECK_CU(cuMemcpyDtoH(&Out, VA + 2 * Gran + 64, 4));
  EXPECT_EQ(Out, In);
  CHECK_CU(cuMemsetD32(VA, 7, Gran / 4));
  // Adjacent mappings are one run of device memory: copies and sets may
  // cross from one into the next (memory pools that grow map so).
  std::vector<uint32_t> Across(64, 0);
  CHECK_CU(cuMemsetD32(VA + 2 * Gran - 128, 9, 64));
  CHECK_CU(cuMemcpyDtoH(Across.data(), VA + 2 * Gran - 128, 256));
  EXPECT_EQ(Across[0], 9u);
  EXPECT_EQ(Across[63], 9u);
  CUdeviceptr Plain;
  CHECK_CU(cuMemAlloc(&Plain, 256));
  CHECK_CU(cuMemcpyDtoD(Plain, VA + 2 * Gran - 128, 256));
  CHECK_CU(cuMemcpyDtoD(VA + 2 * Gran - 100, Plain, 256));
  CHECK_CU(cuMemFree(Plain));
  // The run ends where the reservation's mappings end.
  EXPECT_EQ(cuMemcpyDtoH(Across.data(), VA + 4 * Gran - 128, 256),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemFree(VA), CUDA_ERROR_INVALID_VALUE); // not cuMemAlloc's
  EXPECT_EQ(cuMemAddressFree(VA, 4 * Gran), CUDA_ERROR_INVALID_VALUE); // mapped
  // Part of a mapping cannot be unmapped; two whole ones at once can.
  EXPECT_EQ(cuMemUnmap(VA, Gran), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemUnmap(VA, 3 * Gran), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemUnmap(VA, 4 * Gran));
  EXPECT_EQ(cuMemcpyHtoD(VA + 64, &In, 4), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemcpyHtoD(VA + 3 * Gran, &In, 4), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemAddressFree(VA, 4 * Gran));
}

//===----------------------------------------------------------------------===//
// Modules, libraries, linking, launches
//===----------------------------------------------------------------------===//

TEST_F(Driver, ModuleFromPtxAndBothLaunchForms) {
  CUfunction F = scaleKernel();
  ASSERT_NE(F, nullptr);
  runScale(F);

  // The `extra` form: one buffer laid out as the parameter list.
  float H[4] = {1, 2, 3, 4};
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, sizeof(H)));
  CHECK_CU(cuMemcpyHtoD(D, H, sizeof(H)));
  struct {
    CUdeviceptr Data;
    float Factor;
    unsigned N;
  } Params = {D, 3.0f, 3};
  size_t Size = sizeof(Params);
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &Params,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &Size, CU_LAUNCH_PARAM_END};
  CHECK_CU(cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, Extra));
  CHECK_CU(cuMemcpyDtoH(H, D, sizeof(H)));
  EXPECT_EQ(H[0], 3.0f);
  EXPECT_EQ(H[2], 9.0f);
  EXPECT_EQ(H[3], 4.0f); // N = 3
  Size = 8; // too small for the parameters
  EXPECT_EQ(cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, Extra),
            CUDA_ERROR_INVALID_VALUE);
  void *Args[] = {&D, &Params.Factor, &Params.N};
  EXPECT_EQ(cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 0, nullptr, Args, Extra),
            CUDA_ERROR_INVALID_VALUE); // both forms at once

  // cuLaunchKernelEx, cooperatively.
  CUlaunchAttribute Attr = {};
  Attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  Attr.value.cooperative = 1;
  CUlaunchConfig Config = {};
  Config.gridDimX = Config.gridDimY = Config.gridDimZ = 1;
  Config.blockDimX = 32;
  Config.blockDimY = Config.blockDimZ = 1;
  Config.attrs = &Attr;
  Config.numAttrs = 1;
  CHECK_CU(cuLaunchKernelEx(&Config, F, Args, nullptr));
  CHECK_CU(cuLaunchCooperativeKernel(F, 1, 1, 1, 32, 1, 1, 0, nullptr, Args));
  CHECK_CU(cuMemcpyDtoH(H, D, sizeof(H)));
  EXPECT_EQ(H[0], 3.0f * 3.0f * 3.0f);

  // Attributes.
  int V = 0;
  CHECK_CU(cuFuncGetAttribute(&V, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, F));
  EXPECT_EQ(V, 1024);
  CHECK_CU(cuFuncGetAttribute(&V, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, F));
  EXPECT_EQ(V, 0);
  CHECK_CU(cuFuncGetAttribute(&V, CU_FUNC_ATTRIBUTE_PTX_VERSION, F));
  EXPECT_GT(V, 0);
  EXPECT_EQ(cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 64 << 10, nullptr, Args,
                           nullptr),
            CUDA_ERROR_INVALID_VALUE); // over 48 KiB without opting in
  CHECK_CU(cuFuncSetAttribute(F, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              64 << 10));
  CHECK_CU(cuFuncGetAttribute(&V, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              F));
  EXPECT_EQ(V, 64 << 10);
  CHECK_CU(cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 64 << 10, nullptr, Args,
                          nullptr));
  EXPECT_EQ(cuFuncSetAttribute(F, CU_FUNC_ATTRIBUTE_NUM_REGS, 3),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuFuncSetCacheConfig(F, CU_FUNC_CACHE_PREFER_SHARED));
  CHECK_CU(cuFuncGetAttribute(
      &V, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, F));
  EXPECT_EQ(V, -1);
  CHECK_CU(cuFuncSetAttribute(
      F, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
  CHECK_CU(cuFuncGetAttribute(
      &V, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, F));
  EXPECT_EQ(V, 50);
  EXPECT_EQ(cuFuncSetAttribute(
                F, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101),
            CUDA_ERROR_INVALID_VALUE);
  const char *Name = nullptr;
  CHECK_CU(cuFuncGetName(&Name, F));
  EXPECT_STREQ(Name, "scale");
  int Blocks = 0;
  CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, F, 256, 0));
  EXPECT_EQ(Blocks, 8); // 2048 threads per multiprocessor
  // The largest block size that fills a multiprocessor's 2048 threads, and
  // a grid that fills every multiprocessor with it.
  int MinGrid = 0, BlockSize = 0, Sms = 0;
  CHECK_CU(cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                0));
  CHECK_CU(cuOccupancyMaxPotentialBlockSize(&MinGrid, &BlockSize, F, nullptr, 0,
                                            0));
  EXPECT_EQ(BlockSize, 1024);
  EXPECT_EQ(MinGrid, 2 * Sms);
  // Under a limit of 100 threads the sizes tried are 100, 96, 64 and 32:
  // 16 blocks of 100 (4 warps each) keep 1600 threads, 21 of 96 keep 2016,
  // and 32 of 64 (the most blocks a multiprocessor takes) all 2048.
  CHECK_CU(cuOccupancyMaxPotentialBlockSizeWithFlags(&MinGrid, &BlockSize, F,
                                                     nullptr, 0, 100, 0));
  EXPECT_EQ(BlockSize, 64);
  EXPECT_EQ(MinGrid, 32 * Sms);
  // Shared memory growing with the block: 100 bytes a thread out of the
  // multiprocessor's 160 KiB makes 3 blocks of 544 threads the best.
  CHECK_CU(cuOccupancyMaxPotentialBlockSize(
      &MinGrid, &BlockSize, F,
      [](int Size) -> size_t { return size_t(Size) * 100; }, 0, 0));
  EXPECT_EQ(BlockSize, 544);
  EXPECT_EQ(MinGrid, 3 * Sms);
  EXPECT_EQ(cuOccupancyMaxPotentialBlockSize(nullptr, &BlockSize, F, nullptr, 0,
                                             0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuOccupancyMaxPotentialBlockSizeWithFlags(&MinGrid, &BlockSize, F,
                                                      nullptr, 0, 0, 2),
            CUDA_ERROR_INVALID_VALUE);

  CUfunction Missing;
  EXPECT_EQ(cuModuleGetFunction(&Missing, Mod, "nope"), CUDA_ERROR_NOT_FOUND);
  unsigned Count = 0;
  CHECK_CU(cuModuleGetFunctionCount(&Count, Mod));
  EXPECT_EQ(Count, 1u);
  CUdeviceptr G;
  size_t GSize;
  EXPECT_EQ(cuModuleGetGlobal(&G, &GSize, Mod, "x"), CUDA_ERROR_NOT_FOUND);
  CHECK_CU(cuModuleUnload(Mod));
  EXPECT_EQ(cuModuleUnload(Mod), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuModuleGetFunction(&Missing, Mod, "scale"),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuLaunchKernel(F, 1, 1, 1, 32, 1, 1, 0, nullptr, Args, nullptr),
            CUDA_ERROR_INVALID_HANDLE); // the function died with its module
  CHECK_CU(cuMemFree(D));
}

TEST_F(Driver, ModuleGlobals) {
  CHECK_CU(cuModuleLoadData(&Mod, GlobalsPtx));
  CUdeviceptr Factor = 0, Total = 0, Table = 0;
  size_t Size = 0;
  CHECK_CU(cuModuleGetGlobal(&Factor, &Size, Mod, "factor"));
  EXPECT_NE(Factor, 0u);
  EXPECT_EQ(Size, 4u);
  CHECK_CU(cuModuleGetGlobal(&Total, &Size, Mod, "total"));
  EXPECT_EQ(Size, 4u);
  CHECK_CU(cuModuleGetGlobal(&Table, &Size, Mod, "table"));
  EXPECT_EQ(Size, 32u);
  // Either output may be omitted.
  size_t OnlySize = 0;
  CHECK_CU(cuModuleGetGlobal(nullptr, &OnlySize, Mod, "table"));
  EXPECT_EQ(OnlySize, 32u);
  CUdeviceptr OnlyPtr = 0;
  CHECK_CU(cuModuleGetGlobal(&OnlyPtr, nullptr, Mod, "factor"));
  EXPECT_EQ(OnlyPtr, Factor);

  // Initializers are in place; the addresses are device memory for copies
  // and for the kernel.
  float F = 0;
  CHECK_CU(cuMemcpyDtoH(&F, Factor, 4));
  EXPECT_EQ(F, 2.0f);
  uint64_t T[4] = {};
  CHECK_CU(cuMemcpyDtoH(T, Table, sizeof(T)));
  EXPECT_EQ(T[3], 4u);
  F = 3;
  CHECK_CU(cuMemcpyHtoD(Factor, &F, 4));
  CHECK_CU(cuMemsetD32(Total, 0, 1));
  CUfunction K;
  CHECK_CU(cuModuleGetFunction(&K, Mod, "accumulate"));
  float X = 1.5f;
  void *Args[] = {&X};
  CHECK_CU(cuLaunchKernel(K, 2, 1, 1, 32, 1, 1, 0, nullptr, Args, nullptr));
  CHECK_CU(cuMemcpyDtoH(&F, Total, 4));
  EXPECT_EQ(F, 64 * 1.5f * 3.0f);

  // The documented errors.
  EXPECT_EQ(cuModuleGetGlobal(&Total, &Size, Mod, "accumulate"),
            CUDA_ERROR_NOT_FOUND); // a kernel, not a variable
  EXPECT_EQ(cuModuleGetGlobal(&Total, &Size, Mod, "missing"),
            CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(cuModuleGetGlobal(&Total, &Size, Mod, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuModuleGetGlobal(&Total, &Size, nullptr, "total"),
            CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuModuleUnload(Mod));
  EXPECT_EQ(cuModuleGetGlobal(&Total, &Size, Mod, "total"),
            CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(Driver, LibraryGlobals) {
  CUlibrary L;
  CHECK_CU(cuLibraryLoadData(&L, GlobalsPtx, nullptr, nullptr, 0, nullptr,
                             nullptr, 0));
  CUdeviceptr Factor = 0;
  size_t Size = 0;
  CHECK_CU(cuLibraryGetGlobal(&Factor, &Size, L, "factor"));
  EXPECT_EQ(Size, 4u);
  float F = 0;
  CHECK_CU(cuMemcpyDtoH(&F, Factor, 4));
  EXPECT_EQ(F, 2.0f);
  // The library's module sees the same variable.
  CUmodule M;
  CHECK_CU(cuLibraryGetModule(&M, L));
  CUdeviceptr Same = 0;
  CHECK_CU(cuModuleGetGlobal(&Same, nullptr, M, "factor"));
  EXPECT_EQ(Same, Factor);
  EXPECT_EQ(cuLibraryGetGlobal(&Factor, &Size, L, "nope"),
            CUDA_ERROR_NOT_FOUND);
  CHECK_CU(cuLibraryUnload(L));
  EXPECT_EQ(cuLibraryGetGlobal(&Factor, &Size, L, "factor"),
            CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(Driver, LoadDataExFillsTheErrorLog) {
  char Log[4096] = {};
  char Info[256] = {};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_OPTIMIZATION_LEVEL};
  void *Vals[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof(Log))), Info,
                  reinterpret_cast<void *>(uintptr_t(sizeof(Info))),
                  reinterpret_cast<void *>(uintptr_t(3))};
  CUmodule M = nullptr;
  EXPECT_EQ(cuModuleLoadDataEx(&M, BrokenPtx, 5, Opts, Vals),
            CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(std::strstr(Log, "frobnicate"), nullptr) << Log;
  EXPECT_NE(std::strstr(Log, ":8:"), nullptr) << Log; // the line number
  EXPECT_EQ(uintptr_t(Vals[1]), std::strlen(Log) + 1);
  CHECK_CU(cuModuleLoadDataEx(&M, ScalePtx, 5, Opts, Vals));
  EXPECT_STREQ(Log, "");
  CHECK_CU(cuModuleUnload(M));
  CUjit_option Bad = CUjit_option(1000);
  void *BadVal = nullptr;
  EXPECT_EQ(cuModuleLoadDataEx(&M, ScalePtx, 1, &Bad, &BadVal),
            CUDA_ERROR_INVALID_VALUE);
}

#ifdef CUHIP_TEST_FATBIN
TEST_F(Driver, ModuleFromFatbinFile) {
  CUmodule M;
  CHECK_CU(cuModuleLoad(&M, CUHIP_TEST_FATBIN));
  CUfunction F;
  CHECK_CU(cuModuleGetFunction(&F, M, "scale"));
  runScale(F);
  // The same bytes through cuModuleLoadFatBinary.
  std::ifstream In(CUHIP_TEST_FATBIN, std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)), {});
  CUmodule M2;
  CHECK_CU(cuModuleLoadFatBinary(&M2, Bytes.data()));
  CHECK_CU(cuModuleGetFunction(&F, M2, "scale"));
  runScale(F);
  CHECK_CU(cuModuleUnload(M));
  CHECK_CU(cuModuleUnload(M2));
}

TEST_F(Driver, ModuleFromElfObjectThatCarriesPtx) {
  CUmodule M;
  CHECK_CU(cuModuleLoad(&M, CUHIP_TEST_OBJECT));
  CUfunction F;
  CHECK_CU(cuModuleGetFunction(&F, M, "scale"));
  runScale(F);
  CHECK_CU(cuModuleUnload(M));
}

TEST_F(Driver, CubinIsRefusedWithALogLine) {
  CUmodule M;
  EXPECT_EQ(cuModuleLoad(&M, CUHIP_TEST_CUBIN), CUDA_ERROR_NO_BINARY_FOR_GPU);
}
#endif

TEST_F(Driver, MissingModuleFile) {
  CUmodule M;
  EXPECT_EQ(cuModuleLoad(&M, "/nonexistent/kernels.ptx"),
            CUDA_ERROR_FILE_NOT_FOUND);
}

TEST(DriverLibrary, LibraryKernelsWithoutAContext) {
  CHECK_CU(cuInit(0));
  CUlibrary L;
  CHECK_CU(cuLibraryLoadData(&L, ScalePtx, nullptr, nullptr, 0, nullptr,
                             nullptr, 0));
  CUkernel K;
  CHECK_CU(cuLibraryGetKernel(&K, L, "scale"));
  EXPECT_EQ(cuLibraryGetKernel(&K, L, "other"), CUDA_ERROR_NOT_FOUND);
  CHECK_CU(cuLibraryGetKernel(&K, L, "scale"));
  int V = 0;
  CHECK_CU(cuKernelGetAttribute(&V, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, K,
                                0));
  EXPECT_EQ(V, 1024);
  CUcontext C;
  CHECK_CU(cuDevicePrimaryCtxRetain(&C, 0));
  CHECK_CU(cuCtxSetCurrent(C));
  CUfunction F;
  CHECK_CU(cuKernelGetFunction(&F, K));
  CUmodule M;
  CHECK_CU(cuLibraryGetModule(&M, L));
  CUfunction F2;
  CHECK_CU(cuModuleGetFunction(&F2, M, "scale"));
  EXPECT_EQ(F, F2);
  float H = 5;
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, 4));
  CHECK_CU(cuMemcpyHtoD(D, &H, 4));
  float Factor = 4;
  unsigned N = 1;
  void *Args[] = {&D, &Factor, &N};
  // A CUkernel is accepted where a CUfunction is.
  CHECK_CU(cuLaunchKernel(reinterpret_cast<CUfunction>(K), 1, 1, 1, 1, 1, 1, 0,
                          nullptr, Args, nullptr));
  CHECK_CU(cuMemcpyDtoH(&H, D, 4));
  EXPECT_EQ(H, 20.0f);
  CHECK_CU(cuLibraryUnload(L));
  EXPECT_EQ(cuLibraryUnload(L), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuKernelGetFunction(&F, K), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuMemFree(D));
}

TEST_F(Driver, LinkIndependentModules) {
  char Log[1024] = {};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Vals[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof(Log)))};
  CUlinkState S;
  CHECK_CU(cuLinkCreate(2, Opts, Vals, &S));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(ScalePtx),
                         std::strlen(ScalePtx) + 1, "scale.ptx", 0, nullptr,
                         nullptr));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(AddPtx),
                         std::strlen(AddPtx) + 1, "add.ptx", 0, nullptr,
                         nullptr));
  EXPECT_EQ(cuLinkAddData(S, CU_JIT_INPUT_CUBIN, const_cast<char *>(AddPtx), 4,
                          "x.cubin", 0, nullptr, nullptr),
            CUDA_ERROR_NOT_SUPPORTED);
  void *Image;
  size_t Size;
  CHECK_CU(cuLinkComplete(S, &Image, &Size));
  CUmodule M;
  CHECK_CU(cuModuleLoadData(&M, Image));
  CHECK_CU(cuLinkDestroy(S));
  EXPECT_EQ(cuLinkDestroy(S), CUDA_ERROR_INVALID_HANDLE);
  CUfunction Scale, Add;
  CHECK_CU(cuModuleGetFunction(&Scale, M, "scale"));
  CHECK_CU(cuModuleGetFunction(&Add, M, "add_one"));
  runScale(Scale);
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, 4));
  CHECK_CU(cuMemsetD32(D, 41, 1));
  void *Args[] = {&D};
  CHECK_CU(cuLaunchKernel(Add, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr));
  unsigned V;
  CHECK_CU(cuMemcpyDtoH(&V, D, 4));
  EXPECT_EQ(V, 42u);
  CHECK_CU(cuMemFree(D));
  CHECK_CU(cuModuleUnload(M));
}

TEST_F(Driver, LinkResolvesCrossModuleReferences) {
  CUlinkState S;
  CHECK_CU(cuLinkCreate(0, nullptr, nullptr, &S));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(CallerPtx), 0,
                         "caller.ptx", 0, nullptr, nullptr));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(HelperPtx), 0,
                         "helper.ptx", 0, nullptr, nullptr));
  void *Image;
  size_t Size;
  CHECK_CU(cuLinkComplete(S, &Image, &Size));
  CUmodule M;
  CHECK_CU(cuModuleLoadData(&M, Image));
  CHECK_CU(cuLinkDestroy(S));
  CUfunction Caller;
  CHECK_CU(cuModuleGetFunction(&Caller, M, "caller"));
  CUdeviceptr Counter;
  size_t CounterSize;
  CHECK_CU(cuModuleGetGlobal(&Counter, &CounterSize, M, "counter"));
  EXPECT_EQ(CounterSize, 4u);
  unsigned V = 0;
  CHECK_CU(cuMemcpyDtoH(&V, Counter, 4));
  EXPECT_EQ(V, 1u); // helper.ptx's initializer
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, 4));
  void *Args[] = {&D};
  CHECK_CU(cuLaunchKernel(Caller, 1, 1, 1, 1, 1, 1, 0, nullptr, Args, nullptr));
  CHECK_CU(cuMemcpyDtoH(&V, D, 4));
  EXPECT_EQ(V, 42u);
  CHECK_CU(cuMemcpyDtoH(&V, Counter, 4));
  EXPECT_EQ(V, 7u);
  CHECK_CU(cuMemFree(D));
  CHECK_CU(cuModuleUnload(M));
}

TEST_F(Driver, LinkReportsUnresolvedAndDuplicateSymbols) {
  char Log[1024] = {};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Vals[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof(Log)))};
  CUlinkState S;
  CHECK_CU(cuLinkCreate(2, Opts, Vals, &S));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(UnresolvedPtx),
                         0, "lonely.ptx", 0, nullptr, nullptr));
  void *Image;
  size_t Size;
  EXPECT_EQ(cuLinkComplete(S, &Image, &Size), CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(std::strstr(Log, "missingHelper"), nullptr) << Log;
  CHECK_CU(cuLinkDestroy(S));

  std::memset(Log, 0, sizeof(Log));
  CHECK_CU(cuLinkCreate(2, Opts, Vals, &S));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(HelperPtx), 0,
                         "first.ptx", 0, nullptr, nullptr));
  CHECK_CU(cuLinkAddData(S, CU_JIT_INPUT_PTX, const_cast<char *>(HelperPtx), 0,
                         "second.ptx", 0, nullptr, nullptr));
  EXPECT_EQ(cuLinkComplete(S, &Image, &Size), CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(std::strstr(Log, "'helper' is defined in both first.ptx and "
                             "second.ptx"),
            nullptr)
      << Log;
  CHECK_CU(cuLinkDestroy(S));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

// Attaching managed memory to a stream (UnifiedMemoryStreams does it per
// task with the static runtime): every flag CUDA defines is accepted, others
// and bad handles are refused, and the memory stays usable from the host.
TEST_F(Driver, StreamAttachMemAsync) {
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  CUdeviceptr M;
  CHECK_CU(cuMemAllocManaged(&M, 256, CU_MEM_ATTACH_GLOBAL));
  CHECK_CU(cuStreamAttachMemAsync(S, M, 0, CU_MEM_ATTACH_SINGLE));
  CHECK_CU(cuStreamAttachMemAsync(S, M, 0, CU_MEM_ATTACH_HOST));
  CHECK_CU(cuStreamAttachMemAsync(nullptr, M, 0, CU_MEM_ATTACH_GLOBAL));
  CHECK_CU(cuStreamSynchronize(S));
  reinterpret_cast<int *>(M)[3] = 7;
  EXPECT_EQ(reinterpret_cast<int *>(M)[3], 7);
  EXPECT_EQ(cuStreamAttachMemAsync(S, M, 0, 3), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamAttachMemAsync(S, 0, 0, CU_MEM_ATTACH_SINGLE),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamAttachMemAsync(reinterpret_cast<CUstream>(0x1234), M, 0,
                                   CU_MEM_ATTACH_SINGLE),
            CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuMemFree(M));
  CHECK_CU(cuStreamDestroy(S));
}

// Stream-ordered allocation through the driver API (programs built with
// the static runtime reach pools this way): the default pool, a created
// pool, attributes, access and trimming.
TEST_F(Driver, MemoryPools) {
  CUmemoryPool Default = nullptr, Current = nullptr;
  CHECK_CU(cuDeviceGetDefaultMemPool(&Default, 0));
  ASSERT_NE(Default, nullptr);
  CHECK_CU(cuDeviceGetMemPool(&Current, 0));
  EXPECT_EQ(Current, Default);
  cuuint64_t Threshold = 1 << 20;
  CHECK_CU(cuMemPoolSetAttribute(Default, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                 &Threshold));
  cuuint64_t Got = 0;
  CHECK_CU(cuMemPoolGetAttribute(Default, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                 &Got));
  EXPECT_EQ(Got, Threshold);
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  CUdeviceptr A = 0;
  CHECK_CU(cuMemAllocAsync(&A, 4096, S));
  CHECK_CU(cuMemsetD8Async(A, 0x5a, 4096, S));
  CHECK_CU(cuStreamSynchronize(S));
  EXPECT_EQ(reinterpret_cast<unsigned char *>(A)[4095], 0x5a);
  CHECK_CU(cuMemFreeAsync(A, S));

  CUmemPoolProps Props = {};
  Props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  Props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Props.location.id = 0;
  CUmemoryPool Pool = nullptr;
  CHECK_CU(cuMemPoolCreate(&Pool, &Props));
  CUdeviceptr B = 0;
  CHECK_CU(cuMemAllocFromPoolAsync(&B, 1 << 16, Pool, S));
  EXPECT_NE(B, 0u);
  CHECK_CU(cuMemFreeAsync(B, S));
  CHECK_CU(cuStreamSynchronize(S));
  CUmemAccessDesc Access = {};
  Access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Access.location.id = 0;
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK_CU(cuMemPoolSetAccess(Pool, &Access, 1));
  CUmemAccess_flags Flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CHECK_CU(cuMemPoolGetAccess(&Flags, Pool, &Access.location));
  EXPECT_EQ(Flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CHECK_CU(cuMemPoolTrimTo(Pool, 0));
  CHECK_CU(cuDeviceSetMemPool(0, Pool));
  CHECK_CU(cuDeviceGetMemPool(&Current, 0));
  EXPECT_EQ(Current, Pool);
  CHECK_CU(cuDeviceSetMemPool(0, Default));
  CHECK_CU(cuMemPoolDestroy(Pool));
  EXPECT_EQ(cuMemAllocFromPoolAsync(&B, 16, Pool, S), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAllocFromPoolAsync(&B, 16, nullptr, S),
            CUDA_ERROR_INVALID_VALUE);
  Props.location.id = 7;
  EXPECT_EQ(cuMemPoolCreate(&Pool, &Props), CUDA_ERROR_INVALID_DEVICE);
  CHECK_CU(cuStreamDestroy(S));
}

TEST_F(Driver, StreamsEventsAndCallbacks) {
  CUstream S;
  CHECK_CU(cuStreamCreateWithPriority(&S, CU_STREAM_NON_BLOCKING, 0));
  unsigned Flags = 0;
  CHECK_CU(cuStreamGetFlags(S, &Flags));
  EXPECT_EQ(Flags, unsigned(CU_STREAM_NON_BLOCKING));
  int Prio = 1;
  CHECK_CU(cuStreamGetPriority(S, &Prio));
  CUevent A, B;
  CHECK_CU(cuEventCreate(&A, CU_EVENT_DEFAULT));
  CHECK_CU(cuEventCreate(&B, CU_EVENT_DEFAULT));
  CHECK_CU(cuEventRecord(A, S));
  CUfunction F = scaleKernel();
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, 4096));
  float Factor = 1;
  unsigned N = 1024;
  void *Args[] = {&D, &Factor, &N};
  CHECK_CU(cuLaunchKernel(F, 4, 1, 1, 256, 1, 1, 0, S, Args, nullptr));
  int Calls = 0;
  CHECK_CU(cuLaunchHostFunc(S, [](void *P) { ++*static_cast<int *>(P); },
                            &Calls));
  CHECK_CU(cuStreamAddCallback(
      S,
      [](CUstream, CUresult Status, void *P) {
        EXPECT_EQ(Status, CUDA_SUCCESS);
        *static_cast<int *>(P) += 10;
      },
      &Calls, 0));
  CHECK_CU(cuEventRecord(B, S));
  CHECK_CU(cuStreamWaitEvent(nullptr, B, 0));
  CHECK_CU(cuEventSynchronize(B));
  CHECK_CU(cuStreamSynchronize(S));
  EXPECT_EQ(Calls, 11);
  EXPECT_EQ(cuStreamQuery(S), CUDA_SUCCESS);
  EXPECT_EQ(cuEventQuery(B), CUDA_SUCCESS);
  float Ms = -1;
  CHECK_CU(cuEventElapsedTime(&Ms, A, B));
  EXPECT_GE(Ms, 0.0f);
  EXPECT_EQ(cuStreamAddCallback(S, nullptr, nullptr, 0),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuStreamDestroy(S));
  EXPECT_EQ(cuStreamSynchronize(S), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuStreamDestroy(S), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuEventDestroy(A));
  EXPECT_EQ(cuEventRecord(A, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuEventElapsedTime(&Ms, A, B), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuEventDestroy(B));
  CHECK_CU(cuMemFree(D));
  CHECK_CU(cuModuleUnload(Mod));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

void *exported(const char *Name) { return dlsym(RTLD_DEFAULT, Name); }

TEST(DriverProcAddress, VersionsFlagsAndMissingSymbols) {
  CHECK_CU(cuInit(0));
  void *Fn = nullptr;
  CUdriverProcAddressQueryResult St;
  CHECK_CU(cuGetProcAddress("cuMemAlloc", &Fn, 13000, 0, &St));
  EXPECT_EQ(St, CU_GET_PROC_ADDRESS_SUCCESS);
  EXPECT_EQ(Fn, exported("cuMemAlloc_v2"));
  CHECK_CU(cuGetProcAddress("cuMemAlloc", &Fn, 2000, 0, &St));
  EXPECT_EQ(Fn, exported("cuMemAlloc"));
  CHECK_CU(cuGetProcAddress("cuMemAlloc", &Fn, 3020, 0, &St));
  EXPECT_EQ(Fn, exported("cuMemAlloc_v2"));
  CHECK_CU(cuGetProcAddress("cuCtxCreate", &Fn, 12000, 0, &St));
  EXPECT_EQ(Fn, exported("cuCtxCreate_v3"));
  CHECK_CU(cuGetProcAddress("cuCtxCreate", &Fn, 13000, 0, &St));
  EXPECT_EQ(Fn, exported("cuCtxCreate_v4"));
  // Per-thread default stream variants only with the flag.
  CHECK_CU(cuGetProcAddress("cuMemcpyHtoD", &Fn, 13000,
                            CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &St));
  EXPECT_EQ(Fn, exported("cuMemcpyHtoD_v2_ptds"));
  CHECK_CU(cuGetProcAddress("cuMemcpyHtoD", &Fn, 13000,
                            CU_GET_PROC_ADDRESS_LEGACY_STREAM, &St));
  EXPECT_EQ(Fn, exported("cuMemcpyHtoD_v2"));
  CHECK_CU(cuGetProcAddress("cuLaunchKernel", &Fn, 13000,
                            CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &St));
  EXPECT_EQ(Fn, exported("cuLaunchKernel_ptsz"));
  CHECK_CU(cuGetProcAddress("cuLaunchKernel", &Fn, 13000,
                            CU_GET_PROC_ADDRESS_DEFAULT, &St));
  EXPECT_EQ(Fn, exported("cuLaunchKernel"));
  // A name without a per-thread form gives the legacy one with the flag.
  CHECK_CU(cuGetProcAddress("cuInit", &Fn, 13000,
                            CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &St));
  EXPECT_EQ(Fn, exported("cuInit"));
  // Missing symbols and versions: success, a null pointer and a status.
  Fn = exported("cuInit");
  CHECK_CU(cuGetProcAddress("cuNoSuchFunction", &Fn, 13000, 0, &St));
  EXPECT_EQ(Fn, nullptr);
  EXPECT_EQ(St, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  CHECK_CU(cuGetProcAddress("cuGetProcAddress", &Fn, 11020, 0, &St));
  EXPECT_EQ(Fn, nullptr);
  EXPECT_EQ(St, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  CHECK_CU(cuGetProcAddress("cuGetProcAddress", &Fn, 12000, 0, &St));
  EXPECT_EQ(Fn, exported("cuGetProcAddress_v2"));
  EXPECT_EQ(cuGetProcAddress("cuMemAlloc", &Fn, 99000, 0, &St),
            CUDA_ERROR_INVALID_VALUE); // newer than the driver
  EXPECT_EQ(cuGetProcAddress(nullptr, &Fn, 13000, 0, &St),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGetProcAddress("cuInit", &Fn, 13000, 3, &St),
            CUDA_ERROR_INVALID_VALUE);
  // CUDA 11.3's form reports a missing symbol as an error.
  using V1 = CUresult (*)(const char *, void **, int, cuuint64_t);
  auto GetV1 = reinterpret_cast<V1>(exported("cuGetProcAddress"));
  ASSERT_NE(GetV1, nullptr);
  EXPECT_EQ(GetV1("cuNoSuchFunction", &Fn, 13000, 0), CUDA_ERROR_NOT_FOUND);
  CHECK_CU(GetV1("cuMemFree", &Fn, 13000, 0));
  EXPECT_EQ(Fn, exported("cuMemFree_v2"));
  // Whatever it returns is callable.
  CHECK_CU(cuGetProcAddress("cuDriverGetVersion", &Fn, 13000, 0, &St));
  int Ver = 0;
  CHECK_CU(reinterpret_cast<CUresult (*)(int *)>(Fn)(&Ver));
  EXPECT_EQ(Ver, 13000);
}

TEST(DriverProcAddress, UnimplementedFunctionsSayNotSupported) {
  CHECK_CU(cuInit(0));
  // Multicast objects (NVLink multicast) are not implemented.
  CUmemGenericAllocationHandle H;
  CUmulticastObjectProp Prop = {};
  EXPECT_EQ(cuMulticastCreate(&H, &Prop), CUDA_ERROR_NOT_SUPPORTED);
  // An export table cuhip does not know is not found (the static runtime
  // copes with that for its optional ones).
  const void *Table = reinterpret_cast<const void *>(1);
  CUuuid Id = {};
  EXPECT_EQ(cuGetExportTable(&Table, &Id), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(Table, nullptr);
  // Every name the toolkit's libcuda exports is there.
  void *Fn = nullptr;
  CUdriverProcAddressQueryResult St;
  CHECK_CU(cuGetProcAddress("cuGraphCreate", &Fn, 13000, 0, &St));
  EXPECT_EQ(Fn, exported("cuGraphCreate"));
}

} // namespace
