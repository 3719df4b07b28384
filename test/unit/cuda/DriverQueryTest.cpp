//===- DriverQueryTest.cpp - libcuda's queries, peers and managed hints ---===//
//
// The driver functions around the core families, through the real cuda.h:
// context and stream identities (ids, a stream's context and device),
// context cache preferences, the one device's PCI identity and its peer
// answers, peer copies (copies within the device), managed-memory hints,
// cuPointerSetAttribute, a function's module and a kernel's library, the
// occupancy queries and the linear texture limit. Each checks values read
// back and the documented errors. The forms cuda.h 13 hides behind macros
// (the first cuMemAdvise, the `_ptsz` names) are called through dlsym.
//
//===----------------------------------------------------------------------===//
#include "DriverTestKernels.h"

#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <string>
#include <thread>
#include <vector>

namespace {

using cuhip::test::ScalePtx;

template <typename Fn> Fn exported(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, Name));
}

/// cuInit, and the primary context of device 0 current on this thread.
class DriverQueries : public ::testing::Test {
protected:
  void SetUp() override {
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&Primary, 0));
    CHECK_CU(cuCtxSetCurrent(Primary));
  }
  void TearDown() override { cuDevicePrimaryCtxRelease(0); }

  int attribute(CUdevice_attribute A) {
    int V = -1;
    EXPECT_EQ(cuDeviceGetAttribute(&V, A, 0), CUDA_SUCCESS) << A;
    return V;
  }

  CUcontext Primary = nullptr;
};

//===----------------------------------------------------------------------===//
// Contexts and streams
//===----------------------------------------------------------------------===//

TEST_F(DriverQueries, ContextIds) {
  unsigned long long PrimaryId = 0, Again = 0, Other = 0;
  CHECK_CU(cuCtxGetId(nullptr, &PrimaryId)); // the current context
  CHECK_CU(cuCtxGetId(Primary, &Again));
  EXPECT_NE(PrimaryId, 0u);
  EXPECT_EQ(PrimaryId, Again);
  CUcontext C;
  CHECK_CU(cuCtxCreate(&C, nullptr, 0, 0));
  CHECK_CU(cuCtxGetId(nullptr, &Other));
  EXPECT_NE(Other, PrimaryId);
  CHECK_CU(cuCtxGetId(Primary, &Again));
  EXPECT_EQ(Again, PrimaryId);
  EXPECT_EQ(cuCtxGetId(C, nullptr), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuCtxDestroy(C));
  EXPECT_EQ(cuCtxGetId(C, &Other), CUDA_ERROR_INVALID_CONTEXT);
  // A new context never reuses a number.
  CUcontext D;
  CHECK_CU(cuCtxCreate(&D, nullptr, 0, 0));
  unsigned long long DId = 0;
  CHECK_CU(cuCtxGetId(D, &DId));
  EXPECT_NE(DId, Other);
  EXPECT_NE(DId, PrimaryId);
  CHECK_CU(cuCtxDestroy(D));
}

TEST_F(DriverQueries, StreamIds) {
  CUstream A, B;
  CHECK_CU(cuStreamCreate(&A, CU_STREAM_NON_BLOCKING));
  CHECK_CU(cuStreamCreate(&B, CU_STREAM_DEFAULT));
  unsigned long long IdA = 0, IdB = 0, IdA2 = 0, Null = 0, Legacy = 0,
                     PerThread = 0, PtszNull = 0;
  CHECK_CU(cuStreamGetId(A, &IdA));
  CHECK_CU(cuStreamGetId(B, &IdB));
  CHECK_CU(cuStreamGetId(A, &IdA2));
  EXPECT_NE(IdA, IdB);
  EXPECT_EQ(IdA, IdA2);
  // The NULL stream is the legacy stream; the per-thread stream is another.
  CHECK_CU(cuStreamGetId(nullptr, &Null));
  CHECK_CU(cuStreamGetId(CU_STREAM_LEGACY, &Legacy));
  CHECK_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &PerThread));
  EXPECT_EQ(Null, Legacy);
  EXPECT_NE(PerThread, Legacy);
  // The `_ptsz` form reads NULL as the per-thread stream.
  using GetId = CUresult (*)(CUstream, unsigned long long *);
  auto GetIdPtsz = exported<GetId>("cuStreamGetId_ptsz");
  ASSERT_NE(GetIdPtsz, nullptr);
  CHECK_CU(GetIdPtsz(nullptr, &PtszNull));
  EXPECT_EQ(PtszNull, PerThread);
  EXPECT_EQ(cuStreamGetId(A, nullptr), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuStreamDestroy(A));
  EXPECT_EQ(cuStreamGetId(A, &IdA), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuStreamDestroy(B));
}

TEST_F(DriverQueries, StreamContextAndDevice) {
  // A stream belongs to the context current when it was made.
  CUcontext Mine;
  CHECK_CU(cuCtxCreate(&Mine, nullptr, 0, 0));
  CUstream InMine;
  CHECK_CU(cuStreamCreate(&InMine, CU_STREAM_NON_BLOCKING));
  CUcontext Popped;
  CHECK_CU(cuCtxPopCurrent(&Popped));
  ASSERT_EQ(Popped, Mine);
  CUstream InPrimary;
  CHECK_CU(cuStreamCreate(&InPrimary, CU_STREAM_NON_BLOCKING));
  CUcontext C = nullptr;
  CHECK_CU(cuStreamGetCtx(InMine, &C));
  EXPECT_EQ(C, Mine);
  CHECK_CU(cuStreamGetCtx(InPrimary, &C));
  EXPECT_EQ(C, Primary);
  // The special streams answer the current context.
  CHECK_CU(cuStreamGetCtx(nullptr, &C));
  EXPECT_EQ(C, Primary);
  CHECK_CU(cuStreamGetCtx(CU_STREAM_PER_THREAD, &C));
  EXPECT_EQ(C, Primary);
  CUgreenCtx Green = reinterpret_cast<CUgreenCtx>(1);
  CHECK_CU(cuStreamGetCtx_v2(InMine, &C, &Green));
  EXPECT_EQ(C, Mine);
  EXPECT_EQ(Green, nullptr);
  CUdevice Dev = -1;
  CHECK_CU(cuStreamGetDevice(InMine, &Dev));
  EXPECT_EQ(Dev, 0);
  Dev = -1;
  CHECK_CU(cuStreamGetDevice(nullptr, &Dev));
  EXPECT_EQ(Dev, 0);
  using GetCtx = CUresult (*)(CUstream, CUcontext *);
  auto GetCtxPtsz = exported<GetCtx>("cuStreamGetCtx_ptsz");
  ASSERT_NE(GetCtxPtsz, nullptr);
  CHECK_CU(GetCtxPtsz(InMine, &C));
  EXPECT_EQ(C, Mine);

  EXPECT_EQ(cuStreamGetCtx(InMine, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamGetCtx_v2(InMine, &C, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamGetDevice(InMine, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamGetCtx(reinterpret_cast<CUstream>(0x1234), &C),
            CUDA_ERROR_INVALID_HANDLE);
  // Without a current context the special streams have none.
  std::thread([] {
    CUcontext C = nullptr;
    EXPECT_EQ(cuStreamGetCtx(nullptr, &C), CUDA_ERROR_INVALID_CONTEXT);
    CUdevice D;
    EXPECT_EQ(cuStreamGetDevice(CU_STREAM_LEGACY, &D),
              CUDA_ERROR_INVALID_CONTEXT);
  }).join();
  // A created stream carries its context to other threads.
  std::thread([&] {
    CUcontext C = nullptr;
    EXPECT_EQ(cuStreamGetCtx(InMine, &C), CUDA_SUCCESS);
    EXPECT_EQ(C, Mine);
  }).join();
  // A stream whose context is gone has none.
  CHECK_CU(cuCtxDestroy(Mine));
  EXPECT_EQ(cuStreamGetCtx(InMine, &C), CUDA_ERROR_INVALID_CONTEXT);
  CHECK_CU(cuStreamDestroy(InMine));
  EXPECT_EQ(cuStreamGetCtx(InMine, &C), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuStreamDestroy(InPrimary));
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(DriverQueries, CacheAndSharedMemoryPreferences) {
  CUfunc_cache Cache = CU_FUNC_CACHE_PREFER_SHARED;
  CHECK_CU(cuCtxGetCacheConfig(&Cache));
  EXPECT_EQ(Cache, CU_FUNC_CACHE_PREFER_NONE);
  CHECK_CU(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1));
  CHECK_CU(cuCtxGetCacheConfig(&Cache));
  EXPECT_EQ(Cache, CU_FUNC_CACHE_PREFER_L1);
  EXPECT_EQ(cuCtxSetCacheConfig(CUfunc_cache(7)), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxGetCacheConfig(nullptr), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuCtxGetCacheConfig(&Cache));
  EXPECT_EQ(Cache, CU_FUNC_CACHE_PREFER_L1); // unchanged by the bad value
  CHECK_CU(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_NONE));

  CUsharedconfig Banks = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
  CHECK_CU(cuCtxGetSharedMemConfig(&Banks));
  EXPECT_EQ(Banks, CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE);
  CHECK_CU(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
  CHECK_CU(cuCtxGetSharedMemConfig(&Banks));
  EXPECT_EQ(Banks, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE);
  EXPECT_EQ(cuCtxSetSharedMemConfig(CUsharedconfig(3)),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxGetSharedMemConfig(nullptr), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));

  // Without a current context.
  std::thread([] {
    CUfunc_cache C;
    EXPECT_EQ(cuCtxGetCacheConfig(&C), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_EQ(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE),
              CUDA_ERROR_INVALID_CONTEXT);
  }).join();
}
#pragma GCC diagnostic pop

//===----------------------------------------------------------------------===//
// The device's PCI identity and peers
//===----------------------------------------------------------------------===//

TEST_F(DriverQueries, PciBusId) {
  char Id[32];
  CHECK_CU(cuDeviceGetPCIBusId(Id, sizeof(Id), 0));
  char Expected[32];
  std::snprintf(Expected, sizeof(Expected), "%04x:%02x:%02x.0",
                attribute(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
                attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
                attribute(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
  EXPECT_STREQ(Id, Expected);
  EXPECT_EQ(std::strlen(Id), 12u);
  CUdevice Dev = -1;
  CHECK_CU(cuDeviceGetByPCIBusId(&Dev, Id));
  EXPECT_EQ(Dev, 0);
  // The short forms: without the function, and without the domain.
  std::string NoFunction(Id, 10), NoDomain(Id + 5);
  Dev = -1;
  CHECK_CU(cuDeviceGetByPCIBusId(&Dev, NoFunction.c_str()));
  EXPECT_EQ(Dev, 0);
  Dev = -1;
  CHECK_CU(cuDeviceGetByPCIBusId(&Dev, NoDomain.c_str()));
  EXPECT_EQ(Dev, 0);
  // Truncated to the buffer, NUL included.
  char Short[5];
  CHECK_CU(cuDeviceGetPCIBusId(Short, sizeof(Short), 0));
  EXPECT_EQ(std::string(Short), std::string(Id, 4));

  EXPECT_EQ(cuDeviceGetPCIBusId(Id, 0, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetPCIBusId(nullptr, 16, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetPCIBusId(Id, sizeof(Id), 3), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGetByPCIBusId(&Dev, "not a bus id"),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetByPCIBusId(&Dev, "0000:7f:1f.0"),
            CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGetByPCIBusId(nullptr, Id), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(DriverQueries, PeersOfTheOneDevice) {
  int Can = -1;
  CHECK_CU(cuDeviceCanAccessPeer(&Can, 0, 0));
  EXPECT_EQ(Can, 0); // a device is not its own peer
  EXPECT_EQ(cuDeviceCanAccessPeer(&Can, 0, 1), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceCanAccessPeer(nullptr, 0, 0), CUDA_ERROR_INVALID_VALUE);
  int V = -1;
  EXPECT_EQ(cuDeviceGetP2PAttribute(
                &V, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0),
            CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGetP2PAttribute(
                &V, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1),
            CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGetP2PAttribute(&V, CUdevice_P2PAttribute(99), 0, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetP2PAttribute(
                nullptr, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0),
            CUDA_ERROR_INVALID_VALUE);

  CUcontext Other;
  CHECK_CU(cuCtxCreate(&Other, nullptr, 0, 0));
  CHECK_CU(cuCtxPopCurrent(nullptr));
  // Another context of the same device: no peer access to enable.
  EXPECT_EQ(cuCtxEnablePeerAccess(Other, 0),
            CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
  EXPECT_EQ(cuCtxEnablePeerAccess(Other, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxEnablePeerAccess(Primary, 0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxEnablePeerAccess(nullptr, 0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxDisablePeerAccess(Other), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
  CHECK_CU(cuCtxDestroy(Other));
  EXPECT_EQ(cuCtxEnablePeerAccess(Other, 0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxDisablePeerAccess(Other), CUDA_ERROR_INVALID_CONTEXT);
  std::thread([&] {
    EXPECT_EQ(cuCtxEnablePeerAccess(Primary, 0), CUDA_ERROR_INVALID_CONTEXT);
  }).join();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

TEST_F(DriverQueries, PeerCopiesAreCopiesWithinTheDevice) {
  CUcontext Other;
  CHECK_CU(cuCtxCreate(&Other, nullptr, 0, 0));
  CHECK_CU(cuCtxPopCurrent(nullptr));
  constexpr size_t N = 256;
  std::vector<uint8_t> H(N), Out(N, 0);
  for (size_t I = 0; I < N; ++I)
    H[I] = uint8_t(I * 3 + 1);
  CUdeviceptr A, B;
  CHECK_CU(cuMemAlloc(&A, N));
  CHECK_CU(cuMemAlloc(&B, N));
  CHECK_CU(cuMemcpyHtoD(A, H.data(), N));
  CHECK_CU(cuMemcpyPeer(B, Other, A, Primary, N));
  CHECK_CU(cuMemcpyDtoH(Out.data(), B, N));
  EXPECT_EQ(Out, H);

  CHECK_CU(cuMemsetD8(B, 0, N));
  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  CHECK_CU(cuMemcpyPeerAsync(B + 16, Primary, A, Other, 64, S));
  CHECK_CU(cuStreamSynchronize(S));
  CHECK_CU(cuMemcpyDtoH(Out.data(), B, N));
  EXPECT_EQ(Out[15], 0);
  EXPECT_EQ(std::memcmp(Out.data() + 16, H.data(), 64), 0);
  EXPECT_EQ(Out[80], 0);
  using PeerPtsz = CUresult (*)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext,
                                size_t, CUstream);
  auto AsyncPtsz = exported<PeerPtsz>("cuMemcpyPeerAsync_ptsz");
  ASSERT_NE(AsyncPtsz, nullptr);
  CHECK_CU(AsyncPtsz(B, Other, A + 128, Primary, 8, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(Out.data(), B, 8));
  EXPECT_EQ(std::memcmp(Out.data(), H.data() + 128, 8), 0);

  // 3D: a 4x2x2 box from host memory into device memory in rows of 32.
  std::vector<uint8_t> Box(16);
  for (int I = 0; I < 16; ++I)
    Box[I] = uint8_t(200 + I);
  CUDA_MEMCPY3D_PEER P = {};
  P.srcMemoryType = CU_MEMORYTYPE_HOST;
  P.srcHost = Box.data();
  P.srcContext = Primary;
  P.srcPitch = 4;
  P.srcHeight = 2;
  P.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  P.dstDevice = B;
  P.dstContext = Other;
  P.dstPitch = 32;
  P.dstHeight = 2;
  P.WidthInBytes = 4;
  P.Height = 2;
  P.Depth = 2;
  CHECK_CU(cuMemsetD8(B, 0, N));
  CHECK_CU(cuMemcpy3DPeer(&P));
  CHECK_CU(cuMemcpyDtoH(Out.data(), B, N));
  for (int Z = 0; Z < 2; ++Z)
    for (int Y = 0; Y < 2; ++Y)
      for (int X = 0; X < 4; ++X)
        ASSERT_EQ(Out[Z * 64 + Y * 32 + X], Box[Z * 8 + Y * 4 + X]);
  EXPECT_EQ(Out[4], 0);
  // And back, asynchronously.
  std::vector<uint8_t> Back(16, 0);
  CUDA_MEMCPY3D_PEER R = {};
  R.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  R.srcDevice = B;
  R.srcContext = Other;
  R.srcPitch = 32;
  R.srcHeight = 2;
  R.dstMemoryType = CU_MEMORYTYPE_HOST;
  R.dstHost = Back.data();
  R.dstContext = Primary;
  R.dstPitch = 4;
  R.dstHeight = 2;
  R.WidthInBytes = 4;
  R.Height = 2;
  R.Depth = 2;
  CHECK_CU(cuMemcpy3DPeerAsync(&R, S));
  CHECK_CU(cuStreamSynchronize(S));
  EXPECT_EQ(Back, Box);

  // Errors: ranges beyond an allocation, a context that is gone, no
  // parameters.
  EXPECT_EQ(cuMemcpyPeer(B + N - 8, Other, A, Primary, 16),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemcpy3DPeer(nullptr), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuCtxDestroy(Other));
  EXPECT_EQ(cuMemcpyPeer(B, Other, A, Primary, 16), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuMemcpyPeerAsync(B, Primary, A, Other, 16, S),
            CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuMemcpy3DPeer(&P), CUDA_ERROR_INVALID_CONTEXT);
  CHECK_CU(cuStreamDestroy(S));
  CHECK_CU(cuMemFree(A));
  CHECK_CU(cuMemFree(B));
}

TEST_F(DriverQueries, ManagedMemoryHints) {
  CUdeviceptr M, D;
  CHECK_CU(cuMemAllocManaged(&M, 4096, CU_MEM_ATTACH_GLOBAL));
  CHECK_CU(cuMemAlloc(&D, 4096));
  auto *Host = reinterpret_cast<int *>(M);
  for (int I = 0; I < 1024; ++I)
    Host[I] = I;
  CUmemLocation Dev0 = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemLocation HostLoc = {CU_MEM_LOCATION_TYPE_HOST, 0};
  CHECK_CU(cuMemAdvise(M, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, Dev0));
  CHECK_CU(cuMemAdvise(M, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, HostLoc));
  CHECK_CU(cuMemAdvise(M + 1024, 1024, CU_MEM_ADVISE_SET_ACCESSED_BY, Dev0));
  CHECK_CU(cuMemAdvise(M, 4096, CU_MEM_ADVISE_UNSET_READ_MOSTLY, Dev0));
  // The first form names a device, CU_DEVICE_CPU for the host.
  using AdviseV1 = CUresult (*)(CUdeviceptr, size_t, CUmem_advise, CUdevice);
  auto Advise1 = exported<AdviseV1>("cuMemAdvise");
  ASSERT_NE(Advise1, nullptr);
  CHECK_CU(
      Advise1(M, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU));
  CHECK_CU(Advise1(M, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, 0));
  EXPECT_EQ(Advise1(M, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, 5),
            CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(Advise1(M, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, CU_DEVICE_INVALID),
            CUDA_ERROR_INVALID_VALUE);
  // Only managed memory takes hints; advice numbers are checked.
  EXPECT_EQ(cuMemAdvise(D, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, Dev0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAdvise(M, 4096, CUmem_advise(9), Dev0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAdvise(M, 8192, CU_MEM_ADVISE_SET_READ_MOSTLY, Dev0),
            CUDA_ERROR_INVALID_VALUE); // beyond the allocation
  EXPECT_EQ(cuMemAdvise(M, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, Dev0),
            CUDA_ERROR_INVALID_VALUE);

  CUstream S;
  CHECK_CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  CHECK_CU(cuMemPrefetchAsync(M, 4096, Dev0, 0, S));
  CHECK_CU(cuMemPrefetchAsync(M, 2048, HostLoc, 0, nullptr));
  using PrefetchV1 = CUresult (*)(CUdeviceptr, size_t, CUdevice, CUstream);
  auto Prefetch1 = exported<PrefetchV1>("cuMemPrefetchAsync");
  auto Prefetch1Ptsz = exported<PrefetchV1>("cuMemPrefetchAsync_ptsz");
  using PrefetchV2 =
      CUresult (*)(CUdeviceptr, size_t, CUmemLocation, unsigned, CUstream);
  auto Prefetch2Ptsz = exported<PrefetchV2>("cuMemPrefetchAsync_v2_ptsz");
  ASSERT_NE(Prefetch1, nullptr);
  ASSERT_NE(Prefetch1Ptsz, nullptr);
  ASSERT_NE(Prefetch2Ptsz, nullptr);
  CHECK_CU(Prefetch1(M, 4096, 0, S));
  CHECK_CU(Prefetch1(M, 4096, CU_DEVICE_CPU, S));
  CHECK_CU(Prefetch1Ptsz(M, 4096, 0, nullptr));
  CHECK_CU(Prefetch2Ptsz(M, 4096, HostLoc, 0, nullptr));
  EXPECT_EQ(Prefetch1(M, 4096, 3, S), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuMemPrefetchAsync(M, 4096, Dev0, 1, S), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemPrefetchAsync(D, 4096, Dev0, 0, S), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(
      cuMemPrefetchAsync(M, 4096, Dev0, 0, reinterpret_cast<CUstream>(0x1234)),
      CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuStreamSynchronize(S));
  CHECK_CU(cuCtxSynchronize());
  // Hints change no data.
  for (int I = 0; I < 1024; ++I)
    ASSERT_EQ(Host[I], I);
  CHECK_CU(cuStreamDestroy(S));
  CHECK_CU(cuMemFree(M));
  CHECK_CU(cuMemFree(D));
}

TEST_F(DriverQueries, PointerSetAttributeTakesSyncMemops) {
  CUdeviceptr D;
  CHECK_CU(cuMemAlloc(&D, 256));
  int On = 1, Off = 0;
  CHECK_CU(cuPointerSetAttribute(&On, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, D));
  CHECK_CU(
      cuPointerSetAttribute(&Off, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, D + 8));
  int Sync = 0;
  CHECK_CU(cuPointerGetAttribute(&Sync, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, D));
  EXPECT_EQ(Sync, 1); // every copy here is synchronous
  EXPECT_EQ(cuPointerSetAttribute(&On, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, D),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuPointerSetAttribute(nullptr, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, D),
            CUDA_ERROR_INVALID_VALUE);
  int Stack = 0;
  EXPECT_EQ(cuPointerSetAttribute(&On, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                  CUdeviceptr(uintptr_t(&Stack))),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemFree(D));
  EXPECT_EQ(cuPointerSetAttribute(&On, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, D),
            CUDA_ERROR_INVALID_VALUE);
}

//===----------------------------------------------------------------------===//
// Functions, kernels, occupancy, textures
//===----------------------------------------------------------------------===//

TEST_F(DriverQueries, FunctionModuleAndKernelLibrary) {
  CUmodule M1, M2;
  CHECK_CU(cuModuleLoadData(&M1, ScalePtx));
  CHECK_CU(cuModuleLoadData(&M2, ScalePtx));
  CUfunction F1, F2;
  CHECK_CU(cuModuleGetFunction(&F1, M1, "scale"));
  CHECK_CU(cuModuleGetFunction(&F2, M2, "scale"));
  ASSERT_NE(F1, F2);
  CUmodule Got = nullptr;
  CHECK_CU(cuFuncGetModule(&Got, F1));
  EXPECT_EQ(Got, M1);
  CHECK_CU(cuFuncGetModule(&Got, F2));
  EXPECT_EQ(Got, M2);

  CUlibrary L;
  CHECK_CU(cuLibraryLoadData(&L, ScalePtx, nullptr, nullptr, 0, nullptr,
                             nullptr, 0));
  CUkernel K;
  CHECK_CU(cuLibraryGetKernel(&K, L, "scale"));
  CUlibrary GotLib = nullptr;
  CHECK_CU(cuKernelGetLibrary(&GotLib, K));
  EXPECT_EQ(GotLib, L);
  // The kernel's function is in the library's module.
  CUfunction FK;
  CHECK_CU(cuKernelGetFunction(&FK, K));
  CUmodule LibModule;
  CHECK_CU(cuLibraryGetModule(&LibModule, L));
  CHECK_CU(cuFuncGetModule(&Got, FK));
  EXPECT_EQ(Got, LibModule);

  EXPECT_EQ(cuFuncGetModule(nullptr, F1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuKernelGetLibrary(nullptr, K), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuFuncGetModule(&Got, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuFuncGetModule(&Got, reinterpret_cast<CUfunction>(&Got)),
            CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuModuleUnload(M1));
  EXPECT_EQ(cuFuncGetModule(&Got, F1), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuFuncGetModule(&Got, F2));
  EXPECT_EQ(Got, M2);
  CHECK_CU(cuLibraryUnload(L));
  EXPECT_EQ(cuKernelGetLibrary(&GotLib, K), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuModuleUnload(M2));
}

TEST_F(DriverQueries, OccupancyOfDynamicSharedMemoryAndClusters) {
  CUmodule M;
  CHECK_CU(cuModuleLoadData(&M, ScalePtx));
  CUfunction F;
  CHECK_CU(cuModuleGetFunction(&F, M, "scale"));
  // scale has no static shared memory: one block may have a block's
  // opt-in maximum, two share a multiprocessor's.
  size_t Bytes = 0;
  CHECK_CU(cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, F, 1, 128));
  int PerSm =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  int Optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  EXPECT_EQ(Bytes, size_t(std::min(PerSm, Optin)));
  CHECK_CU(cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, F, 2, 128));
  EXPECT_EQ(Bytes, size_t(std::min(PerSm / 2, Optin)));
  // More blocks of 1024 threads than a multiprocessor holds: none.
  CHECK_CU(cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, F, 1000, 1024));
  EXPECT_EQ(Bytes, 0u);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, F, 0, 128),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(nullptr, F, 1, 128),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, nullptr, 1, 128),
            CUDA_ERROR_INVALID_HANDLE);

  int PerSmBlocks = 0;
  CHECK_CU(
      cuOccupancyMaxActiveBlocksPerMultiprocessor(&PerSmBlocks, F, 128, 0));
  ASSERT_GT(PerSmBlocks, 0);
  int Sms = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  CUlaunchConfig C = {};
  C.gridDimX = C.gridDimY = C.gridDimZ = 1;
  C.blockDimX = 128;
  C.blockDimY = C.blockDimZ = 1;
  int Clusters = -1;
  CHECK_CU(cuOccupancyMaxActiveClusters(&Clusters, F, &C));
  EXPECT_EQ(Clusters, PerSmBlocks * Sms);
  CUlaunchAttribute Attr = {};
  Attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  Attr.value.clusterDim.x = Attr.value.clusterDim.y = Attr.value.clusterDim.z =
      1;
  C.attrs = &Attr;
  C.numAttrs = 1;
  Clusters = -1;
  CHECK_CU(cuOccupancyMaxActiveClusters(&Clusters, F, &C));
  EXPECT_EQ(Clusters, PerSmBlocks * Sms);
  Attr.value.clusterDim.x = 2;
  EXPECT_EQ(cuOccupancyMaxActiveClusters(&Clusters, F, &C),
            CUDA_ERROR_INVALID_CLUSTER_SIZE);
  C.numAttrs = 0;
  C.blockDimX = 0;
  EXPECT_EQ(cuOccupancyMaxActiveClusters(&Clusters, F, &C),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuOccupancyMaxActiveClusters(&Clusters, F, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  C.blockDimX = 128;
  EXPECT_EQ(cuOccupancyMaxActiveClusters(&Clusters, nullptr, &C),
            CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuModuleUnload(M));
}

TEST_F(DriverQueries, LinearTextureWidth) {
  size_t W = 0;
  CHECK_CU(cuDeviceGetTexture1DLinearMaxWidth(&W, CU_AD_FORMAT_FLOAT, 4, 0));
  EXPECT_EQ(
      W, size_t(attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH)));
  EXPECT_GT(W, 0u);
  size_t W8 = 0;
  CHECK_CU(cuDeviceGetTexture1DLinearMaxWidth(&W8, CU_AD_FORMAT_UNSIGNED_INT8,
                                              1, 0));
  EXPECT_EQ(W8, W);
  EXPECT_EQ(cuDeviceGetTexture1DLinearMaxWidth(&W, CU_AD_FORMAT_FLOAT, 3, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetTexture1DLinearMaxWidth(&W, CUarray_format(0x77), 1, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(
      cuDeviceGetTexture1DLinearMaxWidth(nullptr, CU_AD_FORMAT_FLOAT, 1, 0),
      CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetTexture1DLinearMaxWidth(&W, CU_AD_FORMAT_FLOAT, 1, 4),
            CUDA_ERROR_INVALID_DEVICE);
}

} // namespace
