//===- DeviceTest.cpp - Device settings and kernel attributes in the core -===//
//
// The runtime core's device state and per-kernel attributes, on kernels
// loaded from PTX text: cudaFuncGetAttributes' facts, the dynamic shared
// memory limit a launch checks and cudaFuncSetAttribute raises, the
// in-kernel malloc heap limit, and cudaDeviceReset freeing memory and
// streams and clearing a sticky kernel fault.
//
//===----------------------------------------------------------------------===//
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>
#include <vector>

#include <cstdint>
#include <string>

using namespace cuhip::rt;

namespace {

const char *Ptx = R"(
.version 9.0
.target sm_75
.address_size 64

.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);
.extern .func free(.param .b64 free_param_0);
.extern .shared .align 16 .b8 dyn[];

// out[0] = tile[0] + dyn[last word]: both kinds of shared memory work.
.visible .entry sharedUser(.param .u64 out, .param .u32 dynWords)
.maxntid 256, 1, 1
{
  .shared .align 4 .b8 tile[1024];
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [dynWords];
  mov.u32 %r2, %tid.x;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  mov.u32 %r3, 5;
  st.shared.u32 [tile], %r3;
  sub.u32 %r4, %r1, 1;
  mul.wide.u32 %rd2, %r4, 4;
  mov.u64 %rd3, dyn;
  add.s64 %rd3, %rd3, %rd2;
  mov.u32 %r5, 37;
  st.shared.u32 [%rd3], %r5;
  ld.shared.u32 %r6, [tile];
  ld.shared.u32 %r7, [%rd3];
  add.u32 %r6, %r6, %r7;
  cvta.to.global.u64 %rd4, %rd1;
  st.global.u32 [%rd4], %r6;
DONE:
  ret;
}

// out[0] = 1 if malloc(size) succeeded (the block is freed again).
.visible .entry heapUser(.param .u64 out, .param .u64 size)
{
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [size];
  cvta.to.global.u64 %rd1, %rd1;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b64 retval0;
  call.uni (retval0), malloc, (param0);
  ld.param.b64 %rd3, [retval0];
  }
  setp.ne.s64 %p1, %rd3, 0;
  selp.u64 %rd4, 1, 0, %p1;
  st.global.u64 [%rd1], %rd4;
  @!%p1 bra DONE;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd3;
  call.uni free, (param0);
  }
DONE:
  ret;
}

// Stores to an address no allocation covers: a kernel fault.
.visible .entry wild()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, 16;
  mov.u32 %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

Kernel *kernel(const char *Name) {
  static Module *M = [] {
    Module *Out = nullptr;
    EXPECT_EQ(Runtime::get().loadModuleData(Ptx, 0, "device_test.ptx", &Out),
              cudaSuccess);
    return Out;
  }();
  Kernel *K = nullptr;
  EXPECT_NE(M, nullptr);
  if (M) {
    EXPECT_EQ(Runtime::get().moduleGetFunction(M, Name, &K), cudaSuccess);
  }
  return K;
}

TEST(DeviceAttributes, KernelFactsComeFromThePtx) {
  Runtime &R = Runtime::get();
  Kernel *K = kernel("sharedUser");
  ASSERT_NE(K, nullptr);
  KernelAttributes A;
  ASSERT_EQ(R.kernelAttributes(K, &A), cudaSuccess);
  const DeviceInfo &D = R.deviceInfo(0);
  EXPECT_EQ(A.StaticSharedBytes, 1024u);
  EXPECT_EQ(A.MaxThreadsPerBlock, 256); // .maxntid
  EXPECT_EQ(A.PtxVersion, 75);          // .target sm_75
  EXPECT_EQ(A.BinaryVersion, D.Major * 10 + D.Minor);
  EXPECT_EQ(size_t(A.MaxDynamicSharedBytes), D.SharedMemPerBlock - 1024);
  EXPECT_GT(A.NumRegs, 0);
  EXPECT_EQ(A.PreferredShmemCarveout, -1);
  EXPECT_STREQ(R.kernelName(K), "sharedUser");
  // (.param .u64 out, .param .u32 dynWords)
  size_t Offset = 1, Size = 0;
  EXPECT_EQ(R.kernelParamInfo(K, 0, &Offset, &Size), cudaSuccess);
  EXPECT_EQ(Offset, 0u);
  EXPECT_EQ(Size, 8u);
  EXPECT_EQ(R.kernelParamInfo(K, 1, &Offset, &Size), cudaSuccess);
  EXPECT_EQ(Offset, 8u);
  EXPECT_EQ(Size, 4u);
  EXPECT_EQ(R.kernelParamInfo(K, 2, &Offset, &Size), cudaErrorInvalidValue);
  EXPECT_EQ(R.kernelAttributes(nullptr, &A), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(R.kernelAttributes(K, nullptr), cudaErrorInvalidValue);
  R.getLastError();
}

TEST(DeviceAttributes, DynamicSharedMemoryNeedsTheAttributeAbove48K) {
  Runtime &R = Runtime::get();
  Kernel *K = kernel("sharedUser");
  ASSERT_NE(K, nullptr);
  const DeviceInfo &D = R.deviceInfo(0);
  void *Out = nullptr;
  ASSERT_EQ(R.malloc(&Out, 4), cudaSuccess);
  const size_t Big = 64 * 1024;
  unsigned Words = unsigned(Big / 4);
  void *Args[] = {&Out, &Words};
  EXPECT_EQ(R.launch(K, {1, 1, 1}, {32, 1, 1}, Args, Big, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidValue);
  // Within the default limit it runs.
  unsigned SmallWords = 1024;
  void *SmallArgs[] = {&Out, &SmallWords};
  EXPECT_EQ(R.launch(K, {1, 1, 1}, {32, 1, 1}, SmallArgs, 4096, nullptr),
            cudaSuccess);
  // Raised, the big launch runs and sees all of its shared memory.
  ASSERT_EQ(R.setKernelAttribute(K, KernelAttr::MaxDynamicSharedMemorySize,
                                 int(Big)),
            cudaSuccess);
  KernelAttributes A;
  ASSERT_EQ(R.kernelAttributes(K, &A), cudaSuccess);
  EXPECT_EQ(size_t(A.MaxDynamicSharedBytes), Big);
  ASSERT_EQ(R.launch(K, {1, 1, 1}, {32, 1, 1}, Args, Big, nullptr),
            cudaSuccess);
  uint32_t Result = 0;
  ASSERT_EQ(R.memcpy(&Result, Out, 4, CopyKind::DeviceToHost), cudaSuccess);
  EXPECT_EQ(Result, 42u);
  // More than the opt-in limit leaves with the static part is refused.
  EXPECT_EQ(R.setKernelAttribute(K, KernelAttr::MaxDynamicSharedMemorySize,
                                 int(D.SharedMemPerBlockOptin - 1024 + 1)),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.setKernelAttribute(K, KernelAttr::MaxDynamicSharedMemorySize, -1),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.setKernelAttribute(K, KernelAttr::PreferredSharedMemoryCarveout,
                                 101),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.setKernelAttribute(K, KernelAttr::RequiredClusterWidth, 2),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.setKernelAttribute(K, KernelAttr::PreferredSharedMemoryCarveout,
                                 50),
            cudaSuccess);
  // cudaOccupancyAvailableDynamicSMemPerBlock: one block may use all of
  // the opt-in limit but the static part.
  size_t Avail = 0;
  EXPECT_EQ(R.availableDynamicShared(K, 1, 32, &Avail), cudaSuccess);
  EXPECT_EQ(Avail, std::min(D.SharedMemPerMultiprocessor,
                            D.SharedMemPerBlockOptin) -
                       1024);
  EXPECT_EQ(R.availableDynamicShared(K, 0, 32, &Avail), cudaErrorInvalidValue);
  EXPECT_EQ(R.free(Out), cudaSuccess);
  // cudaDeviceReset forgets the raised limit.
  ASSERT_EQ(R.deviceReset(), cudaSuccess);
  ASSERT_EQ(R.kernelAttributes(K, &A), cudaSuccess);
  EXPECT_EQ(size_t(A.MaxDynamicSharedBytes), D.SharedMemPerBlock - 1024);
  EXPECT_EQ(A.PreferredShmemCarveout, -1);
  R.getLastError();
}

TEST(DeviceLimits, MallocHeapSizeBoundsInKernelMalloc) {
  Runtime &R = Runtime::get();
  Kernel *K = kernel("heapUser");
  ASSERT_NE(K, nullptr);
  void *Out = nullptr;
  ASSERT_EQ(R.malloc(&Out, 8), cudaSuccess);
  auto tryMalloc = [&](uint64_t Bytes) {
    void *Args[] = {&Out, &Bytes};
    EXPECT_EQ(R.launch(K, {1, 1, 1}, {1, 1, 1}, Args, 0, nullptr), cudaSuccess);
    uint64_t Ok = 2;
    EXPECT_EQ(R.memcpy(&Ok, Out, 8, CopyKind::DeviceToHost), cudaSuccess);
    return Ok;
  };
  size_t Limit = 0;
  ASSERT_EQ(R.getLimit(DeviceLimit::MallocHeapSize, &Limit), cudaSuccess);
  EXPECT_EQ(Limit, size_t(8) << 20);
  EXPECT_EQ(tryMalloc(1 << 20), 1u);
  EXPECT_EQ(tryMalloc(16 << 20), 0u); // more than the 8 MiB heap
  ASSERT_EQ(R.setLimit(DeviceLimit::MallocHeapSize, size_t(64) << 20),
            cudaSuccess);
  EXPECT_EQ(tryMalloc(16 << 20), 1u);
  ASSERT_EQ(R.setLimit(DeviceLimit::MallocHeapSize, size_t(8) << 20),
            cudaSuccess);
  EXPECT_EQ(R.getLimit(DeviceLimit::DevRuntimeSyncDepth, &Limit),
            cudaSuccess); // the CPU backend's device runtime
  EXPECT_EQ(Limit, 2u);
  EXPECT_EQ(R.free(Out), cudaSuccess);
  R.getLastError();
}

TEST(DeviceReset, FreesMemoryAndStreamsAndClearsAStickyFault) {
  Runtime &R = Runtime::get();
  Kernel *Wild = kernel("wild");
  ASSERT_NE(Wild, nullptr);
  void *Ptr = nullptr, *Stream = nullptr;
  ASSERT_EQ(R.malloc(&Ptr, 1024), cudaSuccess);
  ASSERT_EQ(R.streamCreate(&Stream, 0, 0), cudaSuccess);
  // The launch is queued; the fault surfaces when the host waits for it.
  ASSERT_EQ(R.launch(Wild, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr),
            cudaSuccess);
  EXPECT_EQ(R.synchronize(), cudaErrorIllegalAddress);
  // Sticky: every later call reports it, and reading it does not clear it.
  EXPECT_EQ(R.getLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(R.getLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(R.peekLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(R.synchronize(), cudaErrorIllegalAddress);
  EXPECT_EQ(R.memset(Ptr, 0, 1024), cudaErrorIllegalAddress);
  size_t Limit = 0;
  EXPECT_EQ(R.getLimit(DeviceLimit::StackSize, &Limit), cudaErrorIllegalAddress);
  EXPECT_EQ(R.setDeviceFlags(0), cudaErrorIllegalAddress);
  KernelAttributes A;
  EXPECT_EQ(R.kernelAttributes(Wild, &A), cudaErrorIllegalAddress);
  ASSERT_EQ(R.deviceReset(), cudaSuccess);
  EXPECT_EQ(R.getLastError(), cudaSuccess);
  EXPECT_EQ(R.synchronize(), cudaSuccess);
  EXPECT_FALSE(R.isDeviceRange(Ptr, 1));
  EXPECT_FALSE(R.isStreamHandle(Stream));
  EXPECT_EQ(R.free(Ptr), cudaErrorInvalidValue);
  R.getLastError();
}

TEST(DeviceReset, EndsHostAllocationsRegistrationsAndPools) {
  Runtime &R = Runtime::get();
  void *Pinned = nullptr, *Managed = nullptr, *Pooled = nullptr;
  std::vector<char> Host(4096);
  ASSERT_EQ(R.hostAlloc(&Pinned, 256, 0), cudaSuccess);
  ASSERT_EQ(R.mallocManaged(&Managed, 256, 1), cudaSuccess);
  ASSERT_EQ(R.hostRegister(Host.data(), Host.size(), 0), cudaSuccess);
  ASSERT_EQ(R.mallocFromPoolAsync(&Pooled, 256, nullptr, nullptr),
            cudaSuccess);
  ASSERT_EQ(R.deviceReset(), cudaSuccess);
  // All four are gone: freeing or unregistering again is an error.
  EXPECT_EQ(R.freeHost(Pinned), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostUnregister(Host.data()), cudaErrorHostMemoryNotRegistered);
  EXPECT_FALSE(R.isDeviceRange(Managed, 1));
  EXPECT_FALSE(R.isDeviceRange(Pooled, 1));
  EXPECT_FALSE(R.isDeviceRange(Host.data(), 1));
  R.getLastError();
}

TEST(DeviceSettings, FlagsAndCachePreferences) {
  Runtime &R = Runtime::get();
  unsigned Flags = 0;
  EXPECT_EQ(R.setDeviceFlags(0x01 | 0x04), cudaErrorInvalidValue);
  EXPECT_EQ(R.setDeviceFlags(0x200), cudaErrorInvalidValue);
  ASSERT_EQ(R.setDeviceFlags(0x02 | 0x10), cudaSuccess);
  ASSERT_EQ(R.getDeviceFlags(&Flags), cudaSuccess);
  EXPECT_EQ(Flags, 0x02u | 0x10u | 0x08u); // MapHost is always on
  int C = -1;
  EXPECT_EQ(R.setCacheConfig(4), cudaErrorInvalidValue);
  ASSERT_EQ(R.setCacheConfig(2), cudaSuccess);
  ASSERT_EQ(R.getCacheConfig(&C), cudaSuccess);
  EXPECT_EQ(C, 2);
  ASSERT_EQ(R.deviceReset(), cudaSuccess);
  ASSERT_EQ(R.getDeviceFlags(&Flags), cudaSuccess);
  EXPECT_EQ(Flags, 0x08u);
  ASSERT_EQ(R.getCacheConfig(&C), cudaSuccess);
  EXPECT_EQ(C, 0);
  R.getLastError();
}

} // namespace
