//===- MemoryTest.cpp - The memory family of the runtime core -------------===//
//
// Page-locked, registered and managed memory, pointer attributes, memory
// information, pitched 2D/3D copies and sets, peer copies, device variables
// reached by their host shadow address, and memory pools, on the CPU
// backend: what each call does and the CUDA error code of each misuse.
// The device arena those allocations come from: alignment, slack, guard
// pages, reuse, large allocations, accounting and concurrent use.
//
//===----------------------------------------------------------------------===//
#include "DeviceArena.h"
#include "Ipc.h"
#include "cuhip/runtime/FatbinWriter.h"
#include "cuhip/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace cuhip::rt;

namespace {

void *const BadStream = reinterpret_cast<void *>(uintptr_t(0x1234560));

class MemoryTest : public ::testing::Test {
protected:
  Runtime &R = Runtime::get();
  void SetUp() override { R.getLastError(); }
};

TEST_F(MemoryTest, FreeChecksWhatItIsGiven) {
  EXPECT_EQ(R.free(nullptr), cudaSuccess);
  int Local;
  EXPECT_EQ(R.free(&Local), cudaErrorInvalidValue);
  void *D;
  ASSERT_EQ(R.malloc(&D, 64), cudaSuccess);
  EXPECT_EQ(R.free(static_cast<char *>(D) + 4), cudaErrorInvalidValue);
  EXPECT_EQ(R.free(D), cudaSuccess);
  EXPECT_EQ(R.free(D), cudaErrorInvalidValue);
  EXPECT_EQ(R.getLastError(), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, PageLockedHostMemory) {
  void *H = nullptr;
  ASSERT_EQ(R.hostAlloc(&H, 4096, /*Portable|Mapped*/ 0x3), cudaSuccess);
  ASSERT_NE(H, nullptr);
  std::memset(H, 7, 4096);
  unsigned Flags = 0;
  EXPECT_EQ(R.hostGetFlags(&Flags, H), cudaSuccess);
  EXPECT_EQ(Flags, 0x3u);
  // Interior pointers name the allocation too.
  EXPECT_EQ(R.hostGetFlags(&Flags, static_cast<char *>(H) + 100), cudaSuccess);
  void *Dev = nullptr;
  EXPECT_EQ(R.hostGetDevicePointer(&Dev, H, 0), cudaSuccess);
  EXPECT_EQ(Dev, H);
  EXPECT_EQ(R.hostGetDevicePointer(&Dev, H, 1), cudaErrorInvalidValue);
  // Copies to and from device memory accept it in every direction.
  void *D;
  ASSERT_EQ(R.malloc(&D, 4096), cudaSuccess);
  EXPECT_EQ(R.memcpy(D, H, 4096, CopyKind::DeviceToDevice), cudaSuccess);
  EXPECT_EQ(static_cast<unsigned char *>(D)[4095], 7);
  // It is not device memory to cudaFree, and device memory is not
  // cudaFreeHost's.
  EXPECT_EQ(R.free(H), cudaErrorInvalidValue);
  EXPECT_EQ(R.freeHost(D), cudaErrorInvalidValue);
  EXPECT_EQ(R.free(D), cudaSuccess);
  EXPECT_EQ(R.freeHost(H), cudaSuccess);
  EXPECT_EQ(R.freeHost(H), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostGetFlags(&Flags, H), cudaErrorInvalidValue);
  EXPECT_EQ(R.freeHost(nullptr), cudaSuccess);

  EXPECT_EQ(R.hostAlloc(nullptr, 16, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostAlloc(&H, 16, 0x8), cudaErrorInvalidValue);
  int Local;
  EXPECT_EQ(R.hostGetDevicePointer(&Dev, &Local, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostGetFlags(nullptr, &Local), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, RegisteredHostMemory) {
  std::vector<int> Host(1024, 5);
  void *P = Host.data();
  size_t Bytes = Host.size() * sizeof(int);
  ASSERT_EQ(R.hostRegister(P, Bytes, /*Mapped*/ 0x2), cudaSuccess);
  EXPECT_EQ(R.hostRegister(P, Bytes, 0), cudaErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(R.hostRegister(Host.data() + 10, 16, 0),
            cudaErrorHostMemoryAlreadyRegistered);
  unsigned Flags;
  EXPECT_EQ(R.hostGetFlags(&Flags, P), cudaSuccess);
  EXPECT_EQ(Flags, 0x2u);
  void *Dev;
  EXPECT_EQ(R.hostGetDevicePointer(&Dev, Host.data() + 1, 0), cudaSuccess);
  EXPECT_EQ(Dev, Host.data() + 1);
  // A device-to-device copy may name it, as with a mapped pointer.
  void *D;
  ASSERT_EQ(R.malloc(&D, Bytes), cudaSuccess);
  ASSERT_EQ(R.memset(D, 0, Bytes), cudaSuccess);
  EXPECT_EQ(R.memcpy(P, D, Bytes, CopyKind::DeviceToDevice), cudaSuccess);
  EXPECT_EQ(Host[1023], 0);
  PointerAttributes A;
  EXPECT_EQ(R.pointerGetAttributes(&A, P), cudaSuccess);
  EXPECT_EQ(A.Type, MemoryType::Host);
  EXPECT_EQ(R.free(P), cudaErrorInvalidValue);
  // Device memory is not host memory to register.
  EXPECT_EQ(R.hostRegister(D, 16, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.free(D), cudaSuccess);

  EXPECT_EQ(R.hostUnregister(Host.data() + 1),
            cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(R.hostUnregister(P), cudaSuccess);
  EXPECT_EQ(R.hostUnregister(P), cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(R.pointerGetAttributes(&A, P), cudaSuccess);
  EXPECT_EQ(A.Type, MemoryType::Unregistered);

  EXPECT_EQ(R.hostRegister(nullptr, 16, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostRegister(P, 0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostRegister(P, 16, 0x10), cudaErrorInvalidValue);
  EXPECT_EQ(R.hostRegister(P, 16, /*IoMemory*/ 0x4), cudaErrorNotSupported);
  EXPECT_EQ(R.hostUnregister(nullptr), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, ManagedMemoryAndHints) {
  void *M = nullptr;
  ASSERT_EQ(R.mallocManaged(&M, 1024, /*AttachGlobal*/ 1), cudaSuccess);
  static_cast<char *>(M)[1023] = 9;
  PointerAttributes A;
  ASSERT_EQ(R.pointerGetAttributes(&A, M), cudaSuccess);
  EXPECT_EQ(A.Type, MemoryType::Managed);
  EXPECT_EQ(A.DevicePointer, M);
  EXPECT_EQ(A.HostPointer, M);
  EXPECT_EQ(R.memAdvise(M, 1024, /*SetReadMostly*/ 1, 0, 0), cudaSuccess);
  EXPECT_EQ(R.memAdvise(M, 1024, /*SetPreferredLocation*/ 3, 1, 0),
            cudaSuccess);
  EXPECT_EQ(R.memAdvise(M, 1024, 3, /*Device*/ 1, 5), cudaErrorInvalidDevice);
  EXPECT_EQ(R.memAdvise(M, 1024, 7, 1, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.memAdvise(M, 1025, 1, 0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.memPrefetchAsync(M, 1024, /*Host*/ 2, 0, 0, nullptr),
            cudaSuccess);
  EXPECT_EQ(R.memPrefetchAsync(M, 1024, 1, 0, 0, BadStream),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.memPrefetchAsync(M, 1024, 1, 0, /*Flags*/ 1, nullptr),
            cudaErrorInvalidValue);
  void *D;
  ASSERT_EQ(R.malloc(&D, 64), cudaSuccess);
  EXPECT_EQ(R.memPrefetchAsync(D, 64, 1, 0, 0, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.free(D), cudaSuccess);
  EXPECT_EQ(R.free(M), cudaSuccess);
  EXPECT_EQ(R.pointerGetAttributes(&A, M), cudaSuccess);
  EXPECT_NE(A.Type, MemoryType::Managed);

  EXPECT_EQ(R.mallocManaged(&M, 0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocManaged(&M, 16, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocManaged(&M, 16, 4), cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocManaged(nullptr, 16, 1), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, PointerAttributes) {
  void *D;
  ASSERT_EQ(R.malloc(&D, 256), cudaSuccess);
  PointerAttributes A;
  ASSERT_EQ(R.pointerGetAttributes(&A, static_cast<char *>(D) + 10),
            cudaSuccess);
  EXPECT_EQ(A.Type, MemoryType::Device);
  EXPECT_EQ(A.Device, 0);
  EXPECT_EQ(A.DevicePointer, static_cast<char *>(D) + 10);
  EXPECT_EQ(A.HostPointer, nullptr);
  EXPECT_EQ(R.free(D), cudaSuccess);
  int Local;
  ASSERT_EQ(R.pointerGetAttributes(&A, &Local), cudaSuccess);
  EXPECT_EQ(A.Type, MemoryType::Unregistered);
  EXPECT_EQ(A.DevicePointer, nullptr);
  EXPECT_EQ(R.pointerGetAttributes(nullptr, &Local), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, MemGetInfoCountsAllocations) {
  size_t Free = 0, Total = 0;
  ASSERT_EQ(R.memGetInfo(&Free, &Total), cudaSuccess);
  EXPECT_EQ(Total, R.deviceInfo(0).TotalGlobalMem);
  EXPECT_LE(Free, Total);
  // Three quarters of the memory, never touched (mmap reserves it lazily).
  void *D;
  size_t Big = Total / 4 * 3;
  if (R.malloc(&D, Big) == cudaSuccess) {
    ASSERT_EQ(R.memGetInfo(&Free, &Total), cudaSuccess);
    EXPECT_LE(Free, Total - Big);
    EXPECT_EQ(R.free(D), cudaSuccess);
  }
  R.getLastError();
  EXPECT_EQ(R.memGetInfo(nullptr, &Total), cudaErrorInvalidValue);
  EXPECT_EQ(R.memGetInfo(&Free, nullptr), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, PitchedCopiesAndSets) {
  const size_t W = 100, H = 10;
  void *D = nullptr;
  size_t Pitch = 0;
  ASSERT_EQ(R.mallocPitch(&D, &Pitch, W, H), cudaSuccess);
  EXPECT_GE(Pitch, W);
  EXPECT_EQ(Pitch % 256, 0u);
  ASSERT_EQ(R.memset(D, 0x11, Pitch * H), cudaSuccess);

  std::vector<unsigned char> Src(W * H), Back(W * H, 0);
  for (size_t I = 0; I < Src.size(); ++I)
    Src[I] = static_cast<unsigned char>(I * 7);
  PitchedSide Dev{D, Pitch, H}, Host{Src.data(), W, H};
  ASSERT_EQ(R.memcpy3D(Dev, Host, W, H, 1, CopyKind::HostToDevice, nullptr,
                       false),
            cudaSuccess);
  // Row 3 starts at 3 * Pitch; the gap after each row is untouched.
  auto *Bytes = static_cast<unsigned char *>(D);
  EXPECT_EQ(Bytes[3 * Pitch + 5], Src[3 * W + 5]);
  EXPECT_EQ(Bytes[3 * Pitch + W], 0x11);
  PitchedSide Out{Back.data(), W, H};
  ASSERT_EQ(R.memcpy3D(Out, Dev, W, H, 1, CopyKind::DeviceToHost, BadStream,
                       false),
            cudaSuccess); // a synchronous copy ignores the stream
  EXPECT_EQ(Back, Src);
  // Default infers the direction.
  std::fill(Back.begin(), Back.end(), 0);
  ASSERT_EQ(R.memcpy3D(Out, Dev, W, H, 1, CopyKind::Default, nullptr, true),
            cudaSuccess);
  EXPECT_EQ(Back, Src);
  // Overlapping rows within one allocation: each row is moved as memmove.
  PitchedSide Shifted{Bytes + 1, Pitch, H - 1};
  EXPECT_EQ(R.memcpy3D(Shifted, Dev, W, H - 1, 1, CopyKind::DeviceToDevice,
                       nullptr, false),
            cudaSuccess);
  EXPECT_EQ(Bytes[1], Src[0]);

  // A row wider than a pitch, a region past the allocation, a bad stream.
  EXPECT_EQ(R.memcpy3D(Dev, Host, Pitch + 1, H, 1, CopyKind::HostToDevice,
                       nullptr, false),
            cudaErrorInvalidPitchValue);
  EXPECT_EQ(R.memcpy3D(Dev, Host, W, H + 1, 1, CopyKind::HostToDevice,
                       nullptr, false),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memcpy3D(Dev, Host, W, H, 1, CopyKind::HostToDevice, BadStream,
                       true),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.memcpy3D(Dev, Host, W, H, 1, static_cast<CopyKind>(7), nullptr,
                       false),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(R.memcpy3D(Dev, Host, 0, H, 1, CopyKind::HostToDevice, nullptr,
                       false),
            cudaSuccess);

  // memset2D sets Width bytes of each row and nothing between rows.
  ASSERT_EQ(R.memset(D, 0x11, Pitch * H), cudaSuccess);
  ASSERT_EQ(R.memset3D(Dev, 0x22, 50, H, 1, nullptr, false), cudaSuccess);
  EXPECT_EQ(Bytes[(H - 1) * Pitch + 49], 0x22);
  EXPECT_EQ(Bytes[(H - 1) * Pitch + 50], 0x11);
  EXPECT_EQ(R.memset3D(Dev, 0, Pitch + 1, H, 1, nullptr, false),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memset3D(Dev, 0, W, H + 1, 1, nullptr, false),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.free(D), cudaSuccess);

  EXPECT_EQ(R.mallocPitch(nullptr, &Pitch, W, H), cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocPitch(&D, nullptr, W, H), cudaErrorInvalidValue);
}

TEST_F(MemoryTest, ThreeDimensionalCopyOfABox) {
  // A 4 x 3 x 2 box (bytes x rows x slices) at position (2, 1, 1) of a
  // 16 x 5 x 3 pitched volume.
  const size_t VolW = 16, VolH = 5, VolD = 3;
  void *D;
  size_t Pitch;
  ASSERT_EQ(R.mallocPitch(&D, &Pitch, VolW, VolH * VolD), cudaSuccess);
  ASSERT_EQ(R.memset(D, 0, Pitch * VolH * VolD), cudaSuccess);
  std::vector<unsigned char> Box(4 * 3 * 2);
  for (size_t I = 0; I < Box.size(); ++I)
    Box[I] = static_cast<unsigned char>(I + 1);
  auto *Bytes = static_cast<unsigned char *>(D);
  PitchedSide Dst{Bytes + 1 * Pitch * VolH + 1 * Pitch + 2, Pitch, VolH};
  PitchedSide Src{Box.data(), 4, 3};
  ASSERT_EQ(R.memcpy3D(Dst, Src, 4, 3, 2, CopyKind::HostToDevice, nullptr,
                       false),
            cudaSuccess);
  // Element (x=3, y=2, z=1) of the box lands at (5, 3, 2) of the volume.
  EXPECT_EQ(Bytes[2 * Pitch * VolH + 3 * Pitch + 5], Box[1 * 12 + 2 * 4 + 3]);
  EXPECT_EQ(Bytes[2 * Pitch * VolH + 3 * Pitch + 6], 0);
  // Slices of fewer rows than the copy are an error.
  PitchedSide Thin{Box.data(), 4, 2};
  EXPECT_EQ(R.memcpy3D(Dst, Thin, 4, 3, 2, CopyKind::HostToDevice, nullptr,
                       false),
            cudaErrorInvalidValue);
  // One slice too many runs past the volume.
  EXPECT_EQ(R.memcpy3D(Dst, Src, 4, 3, 3, CopyKind::HostToDevice, nullptr,
                       false),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memset3D(Dst, 0x5a, 4, 3, 2, nullptr, true), cudaSuccess);
  ASSERT_EQ(R.streamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(Bytes[2 * Pitch * VolH + 3 * Pitch + 5], 0x5a);
  EXPECT_EQ(R.free(D), cudaSuccess);
}

TEST_F(MemoryTest, PeerCopiesOnDeviceZero) {
  void *A, *B;
  ASSERT_EQ(R.malloc(&A, 64), cudaSuccess);
  ASSERT_EQ(R.malloc(&B, 64), cudaSuccess);
  ASSERT_EQ(R.memset(A, 3, 64), cudaSuccess);
  EXPECT_EQ(R.memcpyPeer(B, 0, A, 0, 64, nullptr, false), cudaSuccess);
  EXPECT_EQ(static_cast<char *>(B)[63], 3);
  EXPECT_EQ(R.memcpyPeer(B, 1, A, 0, 64, nullptr, false),
            cudaErrorInvalidDevice);
  EXPECT_EQ(R.memcpyPeer(B, 0, A, -1, 64, nullptr, true),
            cudaErrorInvalidDevice);
  EXPECT_EQ(R.memcpyPeer(B, 0, A, 0, 65, nullptr, false),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.free(A), cudaSuccess);
  EXPECT_EQ(R.free(B), cudaSuccess);
}

// out[tid] = coef[tid] * scale; bumps `counter` once per thread. The
// variables are declared as nvcc declares __constant__ and __device__
// variables in whole-program mode: without .visible.
const char *VariablesPtx = R"(.version 9.0
.target sm_80
.address_size 64
.const .align 4 .b8 coef[16];
.global .align 4 .u32 counter;
.global .align 4 .f32 scale = 0f40000000;
.visible .entry scaleCoef(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  mov.u64 %rd4, coef;
  add.s64 %rd5, %rd4, %rd3;
  ld.const.f32 %f1, [%rd5];
  ld.global.f32 %f2, [scale];
  mul.f32 %f3, %f1, %f2;
  add.s64 %rd6, %rd2, %rd3;
  st.global.f32 [%rd6], %f3;
  atom.global.add.u32 %r2, [counter], 1;
  ret;
}
)";

// Host shadows: only their addresses matter.
float ShadowCoef[4];
unsigned ShadowCounter;
float ShadowScale;
unsigned ShadowUnregistered;
void stubScaleCoef() {}

TEST_F(MemoryTest, DeviceVariablesBySymbol) {
  static cuhip::fatbin::RegistrableFatbin F(VariablesPtx);
  void **H = R.registerFatBinary(&F.Wrapper);
  R.registerFunction(H, reinterpret_cast<const void *>(&stubScaleCoef),
                     "scaleCoef");
  R.registerVar(H, ShadowCoef, "coef", 16, true);
  R.registerVar(H, &ShadowCounter, "counter", 4, false);
  R.registerVar(H, &ShadowScale, "scale", 4, false);
  R.registerFatBinaryEnd(H);

  void *Addr = nullptr;
  size_t Size = 0;
  ASSERT_EQ(R.symbolAddress(ShadowCoef, &Addr, &Size), cudaSuccess);
  EXPECT_NE(Addr, nullptr);
  EXPECT_EQ(Size, 16u);
  // The initializer is the variable's first value.
  float Scale = 0;
  ASSERT_EQ(R.memcpyFromSymbol(&Scale, &ShadowScale, 4, 0,
                               CopyKind::DeviceToHost, nullptr, false),
            cudaSuccess);
  EXPECT_EQ(Scale, 2.0f);

  const float Coef[4] = {1, 2, 3, 4};
  ASSERT_EQ(R.memcpyToSymbol(ShadowCoef, Coef, 8, 0, CopyKind::HostToDevice,
                             nullptr, false),
            cudaSuccess);
  ASSERT_EQ(R.memcpyToSymbol(ShadowCoef, Coef + 2, 8, 8,
                             CopyKind::HostToDevice, nullptr, true),
            cudaSuccess);
  unsigned Zero = 0;
  ASSERT_EQ(R.memcpyToSymbol(&ShadowCounter, &Zero, 4, 0, CopyKind::Default,
                             nullptr, false),
            cudaSuccess);
  void *Out;
  ASSERT_EQ(R.malloc(&Out, 16), cudaSuccess);
  Kernel *K = R.kernelForHostFunction(reinterpret_cast<const void *>(&stubScaleCoef));
  ASSERT_NE(K, nullptr);
  void *Args[] = {&Out};
  ASSERT_EQ(R.launch(K, {1, 1, 1}, {4, 1, 1}, Args, 0, nullptr), cudaSuccess);
  float Result[4];
  ASSERT_EQ(R.memcpy(Result, Out, 16, CopyKind::DeviceToHost), cudaSuccess);
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(Result[I], Coef[I] * 2) << I;
  unsigned Count = 0;
  ASSERT_EQ(R.memcpyFromSymbol(&Count, &ShadowCounter, 4, 0,
                               CopyKind::DeviceToHost, nullptr, false),
            cudaSuccess);
  EXPECT_EQ(Count, 4u);
  // A device-to-device copy out of a variable into an allocation.
  ASSERT_EQ(R.memcpyFromSymbol(Out, ShadowCoef, 16, 0,
                               CopyKind::DeviceToDevice, nullptr, false),
            cudaSuccess);
  EXPECT_EQ(static_cast<float *>(Out)[3], 4.0f);

  EXPECT_EQ(R.memcpyToSymbol(ShadowCoef, Coef, 16, 4, CopyKind::HostToDevice,
                             nullptr, false),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memcpyToSymbol(ShadowCoef, Coef, 4, 0, CopyKind::DeviceToHost,
                             nullptr, false),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(R.memcpyFromSymbol(&Count, &ShadowCounter, 4, 0,
                               CopyKind::HostToDevice, nullptr, false),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(R.memcpyToSymbol(&ShadowUnregistered, Coef, 4, 0,
                             CopyKind::HostToDevice, nullptr, false),
            cudaErrorInvalidSymbol);
  EXPECT_EQ(R.symbolAddress(nullptr, &Addr, &Size), cudaErrorInvalidSymbol);
  EXPECT_EQ(R.memcpyToSymbol(&ShadowCounter, &Zero, 4, 0,
                             CopyKind::HostToDevice, BadStream, true),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.free(Out), cudaSuccess);
}

uint64_t poolValue(void *Pool, int Attr) {
  uint64_t V = ~uint64_t(0);
  EXPECT_EQ(Runtime::get().memPoolGetAttribute(Pool, Attr, &V), cudaSuccess);
  return V;
}

enum : int {
  ReleaseThreshold = 4,
  ReservedCurrent = 5,
  ReservedHigh = 6,
  UsedCurrent = 7,
  UsedHigh = 8,
};

TEST_F(MemoryTest, DefaultPoolAndStreamOrderedAllocation) {
  void *Default = nullptr, *Current = nullptr;
  ASSERT_EQ(R.deviceGetDefaultMemPool(&Default, 0), cudaSuccess);
  ASSERT_EQ(R.deviceGetMemPool(&Current, 0), cudaSuccess);
  EXPECT_EQ(Default, Current);
  EXPECT_EQ(R.deviceGetDefaultMemPool(&Default, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(R.deviceGetMemPool(nullptr, 0), cudaErrorInvalidValue);

  void *Stream;
  ASSERT_EQ(R.streamCreate(&Stream, 0, 0), cudaSuccess);
  uint64_t Used0 = poolValue(Default, UsedCurrent);
  void *P = nullptr;
  ASSERT_EQ(R.mallocFromPoolAsync(&P, 1000, nullptr, Stream), cudaSuccess);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(poolValue(Default, UsedCurrent), Used0 + 1024);
  EXPECT_TRUE(R.isDeviceRange(P, 1000));
  ASSERT_EQ(R.memset(P, 1, 1000), cudaSuccess);
  PointerAttributes A;
  ASSERT_EQ(R.pointerGetAttributes(&A, P), cudaSuccess);
  EXPECT_EQ(A.Type, MemoryType::Device);
  // Threshold 0: freed memory goes back at once.
  EXPECT_EQ(R.freeAsync(P, Stream), cudaSuccess);
  EXPECT_EQ(poolValue(Default, UsedCurrent), Used0);
  EXPECT_EQ(R.freeAsync(P, Stream), cudaErrorInvalidValue);

  EXPECT_EQ(R.mallocFromPoolAsync(&P, 0, nullptr, Stream),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocFromPoolAsync(nullptr, 16, nullptr, Stream),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocFromPoolAsync(&P, 16, nullptr, BadStream),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(R.freeAsync(nullptr, Stream), cudaErrorInvalidValue);
  // cudaFreeAsync also takes cudaMalloc memory.
  void *D;
  ASSERT_EQ(R.malloc(&D, 64), cudaSuccess);
  EXPECT_EQ(R.freeAsync(D, nullptr), cudaSuccess);
  EXPECT_EQ(R.streamDestroy(Stream), cudaSuccess);
}

TEST_F(MemoryTest, CreatedPoolKeepsMemoryUpToItsThreshold) {
  MemPoolProps Props;
  void *Pool = nullptr;
  ASSERT_EQ(R.memPoolCreate(&Pool, Props), cudaSuccess);
  uint64_t Threshold = 1 << 20;
  ASSERT_EQ(R.memPoolSetAttribute(Pool, ReleaseThreshold, &Threshold),
            cudaSuccess);
  EXPECT_EQ(poolValue(Pool, ReleaseThreshold), Threshold);

  void *A, *B;
  ASSERT_EQ(R.mallocFromPoolAsync(&A, 4096, Pool, nullptr), cudaSuccess);
  ASSERT_EQ(R.mallocFromPoolAsync(&B, 8192, Pool, nullptr), cudaSuccess);
  EXPECT_EQ(poolValue(Pool, UsedCurrent), 4096u + 8192u);
  EXPECT_EQ(poolValue(Pool, ReservedCurrent), 4096u + 8192u);
  // cudaFree of a pool block gives it back to the pool as well.
  EXPECT_EQ(R.free(B), cudaSuccess);
  EXPECT_EQ(R.freeAsync(A, nullptr), cudaSuccess);
  EXPECT_EQ(poolValue(Pool, UsedCurrent), 0u);
  EXPECT_EQ(poolValue(Pool, ReservedCurrent), 4096u + 8192u);
  EXPECT_EQ(poolValue(Pool, UsedHigh), 4096u + 8192u);
  // The freed block of the right size comes back.
  void *C;
  ASSERT_EQ(R.mallocFromPoolAsync(&C, 8000, Pool, nullptr), cudaSuccess);
  EXPECT_EQ(C, B);
  EXPECT_EQ(poolValue(Pool, ReservedCurrent), 4096u + 8192u);
  // Trimming releases only what is not in use.
  ASSERT_EQ(R.memPoolTrimTo(Pool, 0), cudaSuccess);
  EXPECT_EQ(poolValue(Pool, ReservedCurrent), 8192u);
  // The high watermarks reset to the current values; nothing else is set.
  uint64_t ZeroValue = 0, One = 1;
  EXPECT_EQ(R.memPoolSetAttribute(Pool, UsedHigh, &ZeroValue), cudaSuccess);
  EXPECT_EQ(poolValue(Pool, UsedHigh), 8192u);
  EXPECT_EQ(R.memPoolSetAttribute(Pool, ReservedHigh, &One),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memPoolSetAttribute(Pool, UsedCurrent, &ZeroValue),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memPoolSetAttribute(Pool, 99, &ZeroValue), cudaErrorInvalidValue);
  int Flag = 0;
  EXPECT_EQ(R.memPoolSetAttribute(Pool, /*ReuseAllowOpportunistic*/ 2, &Flag),
            cudaSuccess);
  Flag = 1;
  EXPECT_EQ(R.memPoolGetAttribute(Pool, 2, &Flag), cudaSuccess);
  EXPECT_EQ(Flag, 0);

  // The device's current pool serves cudaMallocAsync.
  ASSERT_EQ(R.deviceSetMemPool(0, Pool), cudaSuccess);
  void *Current, *D;
  ASSERT_EQ(R.deviceGetMemPool(&Current, 0), cudaSuccess);
  EXPECT_EQ(Current, Pool);
  ASSERT_EQ(R.mallocFromPoolAsync(&D, 256, nullptr, nullptr), cudaSuccess);
  EXPECT_EQ(poolValue(Pool, UsedCurrent), 8192u + 256u);
  EXPECT_EQ(R.freeAsync(D, nullptr), cudaSuccess);

  // Destroying the current pool makes the default pool current again; its
  // live block stays usable until freed.
  ASSERT_EQ(R.memPoolDestroy(Pool), cudaSuccess);
  ASSERT_EQ(R.deviceGetMemPool(&Current, 0), cudaSuccess);
  void *Default;
  ASSERT_EQ(R.deviceGetDefaultMemPool(&Default, 0), cudaSuccess);
  EXPECT_EQ(Current, Default);
  EXPECT_TRUE(R.isDeviceRange(C, 8000));
  EXPECT_EQ(R.freeAsync(C, nullptr), cudaSuccess);
  EXPECT_FALSE(R.isDeviceRange(C, 8000));
  EXPECT_EQ(R.memPoolDestroy(Pool), cudaErrorInvalidValue);
  EXPECT_EQ(R.memPoolTrimTo(Pool, 0), cudaErrorInvalidValue);
  EXPECT_EQ(R.deviceSetMemPool(0, Pool), cudaErrorInvalidValue);
  EXPECT_EQ(R.mallocFromPoolAsync(&D, 16, Pool, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memPoolDestroy(Default), cudaErrorInvalidValue);
}

// cudaMemPoolSetAccess/GetAccess: the pool's device reads and writes it,
// that cannot be lowered, and other devices and locations are refused.
TEST_F(MemoryTest, PoolAccessIsTheOwningDevices) {
  void *Default = nullptr;
  ASSERT_EQ(R.deviceGetDefaultMemPool(&Default, 0), cudaSuccess);
  void *Pool = nullptr;
  ASSERT_EQ(R.memPoolCreate(&Pool, MemPoolProps()), cudaSuccess);
  for (void *P : {Default, Pool}) {
    int Flags = -1;
    ASSERT_EQ(R.memPoolGetAccess(&Flags, P, 1, 0), cudaSuccess);
    EXPECT_EQ(Flags, 3);
    VirtualAccess RW{1, 0, 3};
    EXPECT_EQ(R.memPoolSetAccess(P, &RW, 1), cudaSuccess);
    VirtualAccess ReadOnly{1, 0, 1};
    EXPECT_EQ(R.memPoolSetAccess(P, &ReadOnly, 1), cudaErrorInvalidDevice);
    VirtualAccess Other{1, R.deviceCount(), 3};
    EXPECT_EQ(R.memPoolSetAccess(P, &Other, 1), cudaErrorInvalidDevice);
    VirtualAccess Host{2, 0, 3};
    EXPECT_EQ(R.memPoolSetAccess(P, &Host, 1), cudaErrorInvalidValue);
    VirtualAccess BadFlags{1, 0, 2};
    EXPECT_EQ(R.memPoolSetAccess(P, &BadFlags, 1), cudaErrorInvalidValue);
    EXPECT_EQ(R.memPoolSetAccess(P, nullptr, 0), cudaSuccess);
    EXPECT_EQ(R.memPoolSetAccess(P, nullptr, 1), cudaErrorInvalidValue);
    EXPECT_EQ(R.memPoolGetAccess(&Flags, P, 2, 0), cudaErrorInvalidValue);
    EXPECT_EQ(R.memPoolGetAccess(nullptr, P, 1, 0), cudaErrorInvalidValue);
  }
  ASSERT_EQ(R.memPoolDestroy(Pool), cudaSuccess);
  int Flags = 0;
  EXPECT_EQ(R.memPoolGetAccess(&Flags, Pool, 1, 0), cudaErrorInvalidValue);
  VirtualAccess RW{1, 0, 3};
  EXPECT_EQ(R.memPoolSetAccess(Pool, &RW, 1), cudaErrorInvalidValue);
  R.getLastError();
}

TEST_F(MemoryTest, PoolPropertiesAreChecked) {
  void *Pool;
  MemPoolProps P;
  P.AllocType = 0;
  EXPECT_EQ(R.memPoolCreate(&Pool, P), cudaErrorInvalidValue);
  P = MemPoolProps();
  P.LocationType = 2; // host
  EXPECT_EQ(R.memPoolCreate(&Pool, P), cudaErrorInvalidValue);
  P = MemPoolProps();
  P.LocationId = 3;
  EXPECT_EQ(R.memPoolCreate(&Pool, P), cudaErrorInvalidDevice);
  // POSIX descriptors (1) are the one shareable handle type; Win32 (2),
  // Win32 KMT (4) and fabric (8) handles are not.
  P = MemPoolProps();
  P.HandleTypes = 2;
  EXPECT_EQ(R.memPoolCreate(&Pool, P), cudaErrorNotSupported);
  P.HandleTypes = 1 | 8;
  EXPECT_EQ(R.memPoolCreate(&Pool, P), cudaErrorNotSupported);
  P.HandleTypes = 1;
  ASSERT_EQ(R.memPoolCreate(&Pool, P), cudaSuccess);
  int Fd = -1;
  EXPECT_EQ(R.memPoolExportToShareableHandle(&Fd, Pool, 1, 0), cudaSuccess);
  EXPECT_GE(Fd, 0);
  if (Fd >= 0)
    close(Fd);
  EXPECT_EQ(R.memPoolExportToShareableHandle(&Fd, Pool, 2, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(R.memPoolDestroy(Pool), cudaSuccess);
  EXPECT_EQ(R.memPoolCreate(nullptr, MemPoolProps()), cudaErrorInvalidValue);
  // A pool of at most 4 KiB.
  P = MemPoolProps();
  P.MaxSize = 4096;
  ASSERT_EQ(R.memPoolCreate(&Pool, P), cudaSuccess);
  void *A, *B;
  ASSERT_EQ(R.mallocFromPoolAsync(&A, 4096, Pool, nullptr), cudaSuccess);
  EXPECT_EQ(R.mallocFromPoolAsync(&B, 16, Pool, nullptr),
            cudaErrorMemoryAllocation);
  EXPECT_EQ(R.freeAsync(A, nullptr), cudaSuccess);
  EXPECT_EQ(R.mallocFromPoolAsync(&B, 16, Pool, nullptr), cudaSuccess);
  EXPECT_EQ(R.freeAsync(B, nullptr), cudaSuccess);
  EXPECT_EQ(R.memPoolDestroy(Pool), cudaSuccess);
}

//===----------------------------------------------------------------------===//
// The device arena
//===----------------------------------------------------------------------===//

/// Can the process read the byte at P? Writing it to a pipe fails with
/// EFAULT, instead of faulting, when it cannot.
bool readable(const void *P) {
  static int Fds[2] = {-1, -1};
  if (Fds[0] < 0 && pipe(Fds) != 0)
    return false;
  if (write(Fds[1], P, 1) != 1)
    return errno != EFAULT;
  char C;
  return read(Fds[0], &C, 1) == 1;
}

uintptr_t addr(const void *P) { return reinterpret_cast<uintptr_t>(P); }

size_t pageSize() { return size_t(sysconf(_SC_PAGESIZE)); }

DeviceArena::Options smallRegions() {
  DeviceArena::Options O;
  O.RegionBytes = size_t(1) << 30;
  return O;
}

TEST(DeviceArenaTest, AllocationsAreAlignedApartAndKeepTheirSlack) {
  DeviceArena A(smallRegions());
  const size_t Sizes[] = {1,    16,    100,   255,   256,   257,    1000,
                          4096, 10000, 32000, 32512, 32513, 100000, 1 << 20};
  std::vector<std::pair<char *, size_t>> Live;
  for (int Round = 0; Round < 100; ++Round)
    for (size_t Bytes : Sizes) {
      char *P = static_cast<char *>(A.allocate(Bytes));
      ASSERT_NE(P, nullptr);
      EXPECT_EQ(addr(P) % 256, 0u) << Bytes;
      EXPECT_TRUE(A.owns(P));
      size_t Foot = A.footprint(P);
      EXPECT_GE(Foot, Bytes + DeviceArena::MinSlack) << Bytes;
      EXPECT_EQ(Foot % 256, 0u);
      std::memset(P, 0x5a, Bytes);
      Live.push_back({P, Bytes});
    }
  // No allocation starts inside another's bytes or its slack.
  std::sort(Live.begin(), Live.end());
  for (size_t I = 1; I < Live.size(); ++I)
    EXPECT_GE(addr(Live[I].first), addr(Live[I - 1].first) +
                                       Live[I - 1].second +
                                       DeviceArena::MinSlack);
  // Nothing of the C heap.
  void *Host = std::malloc(64);
  EXPECT_FALSE(A.owns(Host));
  EXPECT_FALSE(A.release(Host));
  std::free(Host);
  size_t Sum = 0;
  for (auto &[P, Bytes] : Live)
    Sum += A.footprint(P);
  EXPECT_EQ(A.bytesInUse(), Sum);
  for (auto &[P, Bytes] : Live)
    EXPECT_TRUE(A.release(P));
  EXPECT_EQ(A.bytesInUse(), 0u);
}

TEST(DeviceArenaTest, GuardPagesFenceSlabsAndLargeAllocations) {
  DeviceArena A(smallRegions());
  // A fresh slab hands out its slots in address order; guards precede and
  // follow it.
  std::vector<char *> Slots;
  size_t PerSlab = DeviceArena::SlabBytes / 512; // 16 bytes take 512
  for (size_t I = 0; I < PerSlab; ++I)
    Slots.push_back(static_cast<char *>(A.allocate(16)));
  char *First = Slots.front();
  for (size_t I = 1; I < PerSlab; ++I)
    ASSERT_EQ(Slots[I], First + I * 512);
  EXPECT_FALSE(readable(First - 1));
  EXPECT_FALSE(readable(First - A.guardBytes()));
  EXPECT_TRUE(readable(First + DeviceArena::SlabBytes - 1));
  EXPECT_FALSE(readable(First + DeviceArena::SlabBytes));
  EXPECT_FALSE(readable(First + DeviceArena::SlabBytes + A.guardBytes() - 1));
  // The next slab lies beyond the guard.
  char *Next = static_cast<char *>(A.allocate(16));
  EXPECT_TRUE(
      addr(Next) >= addr(First) + DeviceArena::SlabBytes + A.guardBytes() ||
      addr(Next) + DeviceArena::SlabBytes + A.guardBytes() <= addr(First));

  // A large allocation has pages of its own: its slack runs to the next
  // page boundary at least MinSlack past its end, then the guard starts.
  const size_t Page = pageSize();
  for (size_t Bytes : {size_t(40000), size_t(1) << 20, (size_t(1) << 20) + 3,
                       size_t(5) << 20}) {
    char *P = static_cast<char *>(A.allocate(Bytes));
    ASSERT_NE(P, nullptr);
    size_t Body = (Bytes + DeviceArena::MinSlack + Page - 1) / Page * Page;
    EXPECT_EQ(A.footprint(P), Body);
    EXPECT_TRUE(readable(P + Bytes - 1));
    EXPECT_TRUE(readable(P + Bytes + DeviceArena::MinSlack - 1));
    EXPECT_FALSE(readable(P + Body)) << Bytes;
    EXPECT_FALSE(readable(P + Body + A.guardBytes() - 1)) << Bytes;
    EXPECT_FALSE(readable(P - 1)) << Bytes;
    EXPECT_FALSE(readable(P - A.guardBytes())) << Bytes;
    if (Bytes >= (size_t(2) << 20)) { // huge-page aligned
      EXPECT_EQ(addr(P) % (size_t(2) << 20), 0u);
    }
    EXPECT_TRUE(A.release(P));
  }
}

TEST(DeviceArenaTest, FreedMemoryIsReusedOrReturned) {
  DeviceArena A(smallRegions());
  char *S = static_cast<char *>(A.allocate(100));
  ASSERT_NE(S, nullptr);
  EXPECT_FALSE(A.release(S + 256)); // not the start of an allocation
  EXPECT_TRUE(A.release(S));
  EXPECT_FALSE(A.release(S)); // freed already
  EXPECT_EQ(A.footprint(S), 0u);
  EXPECT_EQ(A.allocate(200), S); // the same slot again
  EXPECT_TRUE(A.release(S));

  // A large allocation below 1 MiB stays mapped for the next one of its
  // size, so a loop makes no system calls.
  char *L = static_cast<char *>(A.allocate(100000));
  ASSERT_NE(L, nullptr);
  EXPECT_TRUE(A.release(L));
  EXPECT_FALSE(A.release(L));
  EXPECT_EQ(A.allocate(99000), L);
  EXPECT_TRUE(A.release(L));

  // Larger ones go back to the system: the pages fault afterwards.
  size_t Bytes = size_t(8) << 20;
  char *H = static_cast<char *>(A.allocate(Bytes));
  ASSERT_NE(H, nullptr);
  std::memset(H, 1, Bytes);
  EXPECT_TRUE(A.release(H));
  EXPECT_FALSE(readable(H));
  EXPECT_FALSE(readable(H + Bytes - 1));
  EXPECT_EQ(A.bytesInUse(), 0u);
  EXPECT_FALSE(A.release(nullptr));
}

TEST(DeviceArenaTest, ManyGigabytesAreReservedLazily) {
  DeviceArena A(smallRegions());
  long Pages = sysconf(_SC_PHYS_PAGES);
  size_t Phys = size_t(Pages) * pageSize();
  // Larger than a region, and never touched but at its ends: memory is
  // only taken when pages are written.
  size_t Bytes = std::min(size_t(8) << 30, Phys / 2);
  ASSERT_GT(Bytes, size_t(1) << 30);
  char *P = static_cast<char *>(A.allocate(Bytes));
  ASSERT_NE(P, nullptr);
  P[0] = 1;
  P[Bytes - 1] = 2;
  EXPECT_GE(A.bytesInUse(), Bytes);
  // A region of its own size (the default is 1 GiB here); small
  // allocations still find room.
  EXPECT_EQ(A.regionCount(), 1u);
  void *Small = A.allocate(64);
  ASSERT_NE(Small, nullptr);
  EXPECT_TRUE(A.owns(Small));
  EXPECT_TRUE(A.release(P));
  EXPECT_TRUE(A.release(Small));
  EXPECT_EQ(A.bytesInUse(), 0u);
}

TEST(DeviceArenaTest, CapacityBoundsLiveBytes) {
  DeviceArena::Options O = smallRegions();
  O.Capacity = size_t(1) << 20;
  DeviceArena A(O);
  void *P = A.allocate(512 << 10);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(A.allocate(600 << 10), nullptr);
  EXPECT_EQ(A.allocate(size_t(2) << 20), nullptr);
  EXPECT_TRUE(A.release(P));
  void *Q = A.allocate(600 << 10);
  EXPECT_NE(Q, nullptr);
  EXPECT_TRUE(A.release(Q));
}

TEST(DeviceArenaTest, ThreadsAllocateAndFreeConcurrently) {
  DeviceArena A(smallRegions());
  std::atomic<int> Errors{0};
  auto Work = [&](unsigned Seed) {
    std::mt19937 Rng(Seed);
    std::vector<std::pair<unsigned char *, size_t>> Mine;
    for (int I = 0; I < 20000; ++I) {
      if (Mine.size() < 64 && (Mine.empty() || Rng() % 3)) {
        size_t Bytes = Rng() % 8 == 0 ? 1 + Rng() % 300000 : 1 + Rng() % 4000;
        auto *P = static_cast<unsigned char *>(A.allocate(Bytes));
        if (!P) {
          ++Errors;
          continue;
        }
        // Each allocation carries its owner's tag at both ends.
        P[0] = P[Bytes - 1] = static_cast<unsigned char>(Seed);
        Mine.push_back({P, Bytes});
      } else {
        size_t K = Rng() % Mine.size();
        auto [P, Bytes] = Mine[K];
        if (P[0] != static_cast<unsigned char>(Seed) ||
            P[Bytes - 1] != static_cast<unsigned char>(Seed) || !A.release(P))
          ++Errors;
        Mine[K] = Mine.back();
        Mine.pop_back();
      }
    }
    for (auto [P, Bytes] : Mine)
      if (!A.release(P))
        ++Errors;
  };
  std::vector<std::thread> Threads;
  for (unsigned T = 1; T <= 4; ++T)
    Threads.emplace_back(Work, T);
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Errors.load(), 0);
  EXPECT_EQ(A.bytesInUse(), 0u);
}

TEST_F(MemoryTest, DeviceMemoryComesFromTheArena) {
  DeviceArena &A = deviceArena();
  std::vector<void *> Device;
  void *P;
  for (size_t Bytes : {size_t(16), size_t(4000), size_t(1) << 20}) {
    ASSERT_EQ(R.malloc(&P, Bytes), cudaSuccess);
    Device.push_back(P);
  }
  size_t Pitch;
  ASSERT_EQ(R.mallocPitch(&P, &Pitch, 100, 10), cudaSuccess);
  Device.push_back(P);
  void *Managed, *Pinned, *Pooled;
  ASSERT_EQ(R.mallocManaged(&Managed, 1000, /*AttachGlobal*/ 1), cudaSuccess);
  ASSERT_EQ(R.hostAlloc(&Pinned, 1000, 0), cudaSuccess);
  ASSERT_EQ(R.mallocFromPoolAsync(&Pooled, 1000, nullptr, nullptr),
            cudaSuccess);
  for (void *D : Device)
    EXPECT_TRUE(A.owns(D));
  EXPECT_TRUE(A.owns(Managed));
  EXPECT_TRUE(A.owns(Pinned));
  EXPECT_TRUE(A.owns(Pooled));
  // The 1 MiB allocation is fenced: a write far past it faults instead of
  // reaching host memory.
  char *Big = static_cast<char *>(Device[2]);
  size_t Page = pageSize();
  EXPECT_FALSE(readable(Big - 1));
  EXPECT_FALSE(readable(Big + (1 << 20) + 8 * Page));
  // Pointer lookups still see the exact size asked for.
  void *Base;
  size_t Size;
  EXPECT_EQ(R.allocationRange(Big + 100, &Base, &Size), cudaSuccess);
  EXPECT_EQ(Base, Big);
  EXPECT_EQ(Size, size_t(1) << 20);
  EXPECT_FALSE(R.isDeviceRange(Big, (1 << 20) + 1));
  for (void *D : Device)
    EXPECT_EQ(R.free(D), cudaSuccess);
  EXPECT_EQ(R.free(Managed), cudaSuccess);
  EXPECT_EQ(R.freeHost(Pinned), cudaSuccess);
  EXPECT_EQ(R.freeAsync(Pooled, nullptr), cudaSuccess);
  // Freed memory faults afterwards.
  EXPECT_FALSE(readable(Big));
}

TEST_F(MemoryTest, MemGetInfoCountsWhatAllocationsTake) {
  DeviceArena &A = deviceArena();
  size_t Free, Total;
  ASSERT_EQ(R.memGetInfo(&Free, &Total), cudaSuccess);
  // Leave the device 256 MiB (a reservation, never touched), so that the
  // free memory reported is the device's and not the host's free memory.
  const size_t Headroom = size_t(256) << 20;
  void *Big;
  if (R.malloc(&Big, Total - A.bytesInUse() - Headroom) != cudaSuccess)
    GTEST_SKIP() << "the host does not let a process map its memory size";
  ASSERT_EQ(R.memGetInfo(&Free, &Total), cudaSuccess);
  EXPECT_LE(Free, Headroom);
  if (Free < Headroom - (size_t(1) << 20))
    GTEST_SKIP() << "the host has less than 256 MiB of memory free";
  // Each small allocation takes a whole slot (its size rounded, plus its
  // slack) from the device, and cudaMemGetInfo says so.
  std::vector<void *> Live(1000);
  for (void *&P : Live)
    ASSERT_EQ(R.malloc(&P, 16), cudaSuccess);
  size_t FreeAfter;
  ASSERT_EQ(R.memGetInfo(&FreeAfter, &Total), cudaSuccess);
  EXPECT_EQ(Free - FreeAfter, Live.size() * 512);
  // Page-locked memory is the host's, although it comes from the arena.
  void *Pinned;
  ASSERT_EQ(R.hostAlloc(&Pinned, size_t(64) << 20, 0), cudaSuccess);
  size_t FreePinned;
  ASSERT_EQ(R.memGetInfo(&FreePinned, &Total), cudaSuccess);
  EXPECT_EQ(FreePinned, FreeAfter);
  EXPECT_EQ(R.freeHost(Pinned), cudaSuccess);
  for (void *P : Live)
    EXPECT_EQ(R.free(P), cudaSuccess);
  EXPECT_EQ(R.free(Big), cudaSuccess);
  ASSERT_EQ(R.memGetInfo(&FreeAfter, &Total), cudaSuccess);
  EXPECT_GT(FreeAfter, Headroom);
}

} // namespace

// A memory handle that names more than its memfd holds (a corrupt or
// forged one) is refused, instead of mapping pages whose first access
// would kill the process with SIGBUS.
TEST(IpcTest, MappingStaysInsideTheFile) {
  int Fd = memfd_create("ipc-test", MFD_CLOEXEC);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(ftruncate(Fd, 8192), 0);
  void *P = ipc::mapShared(Fd, 4096 + 256, 1024);
  ASSERT_NE(P, nullptr);
  static_cast<char *>(P)[1023] = 1; // inside the file
  ipc::unmapShared(P, 1024);
  EXPECT_EQ(ipc::mapShared(Fd, 4096, 8192), nullptr);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(ipc::mapShared(Fd, 16384, 16), nullptr);
  EXPECT_EQ(ipc::mapShared(Fd, 0, 0), nullptr);
  EXPECT_EQ(ipc::mapShared(Fd, ~uint64_t(0) - 8, 16), nullptr);
  close(Fd);
  // Handles round-trip; bytes that are no handle do not decode.
  ipc::Handle H, Back;
  H.Ref = {1234, 7, 11, 13};
  H.Offset = 256;
  H.Bytes = 1000;
  H.Owner = 99;
  char Bytes[ipc::HandleBytes];
  ipc::encode(H, Bytes);
  ASSERT_TRUE(ipc::decode(Bytes, ipc::HandleKind::Memory, &Back));
  EXPECT_EQ(Back.Ref.Pid, 1234);
  EXPECT_EQ(Back.Ref.Ino, 13u);
  EXPECT_EQ(Back.Offset, 256u);
  EXPECT_EQ(Back.Bytes, 1000u);
  EXPECT_EQ(Back.Owner, 99u);
  EXPECT_FALSE(ipc::decode(Bytes, ipc::HandleKind::Event, &Back));
  std::memset(Bytes, 0, sizeof(Bytes));
  EXPECT_FALSE(ipc::decode(Bytes, ipc::HandleKind::Memory, &Back));
}
