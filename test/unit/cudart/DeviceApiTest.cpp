//===- DeviceApiTest.cpp - libcudart's device, error and function API -----===//
//
// Calls libcudart.so.13 through the CUDA 13 toolkit's own headers, as a
// program would: every cudaError_t enumerator of the installed headers has
// its own name, every cudaDeviceAttr enumerator is answered and agrees
// with the matching cudaDeviceProp field, and the documented error codes
// come back for invalid devices, limits, peers, functions and handles.
// The enumerator lists are read from driver_types.h at configure time.
//
//===----------------------------------------------------------------------===//
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

struct Enumerator {
  const char *Name;
  int Value;
};

const std::vector<Enumerator> ErrorCodes = {
#define CUHIP_ENUMERATOR(N) {#N, int(N)},
#include "cudaError.inc"
#undef CUHIP_ENUMERATOR
};

const std::vector<Enumerator> DeviceAttrs = {
#define CUHIP_ENUMERATOR(N) {#N, int(N)},
#include "cudaDeviceAttr.inc"
#undef CUHIP_ENUMERATOR
};

TEST(CudartErrors, EveryCodeHasItsOwnName) {
  // The header list is complete enough to be the real one.
  ASSERT_GT(ErrorCodes.size(), 100u);
  for (const Enumerator &E : ErrorCodes) {
    EXPECT_STREQ(cudaGetErrorName(cudaError_t(E.Value)), E.Name) << E.Value;
    std::string Desc = cudaGetErrorString(cudaError_t(E.Value));
    EXPECT_NE(Desc, "unrecognized error code") << E.Name;
    EXPECT_FALSE(Desc.empty()) << E.Name;
  }
  EXPECT_STREQ(cudaGetErrorName(cudaError_t(12345)), "unrecognized error code");
}

TEST(CudartErrors, LastErrorIsReportedOnceAndPeekKeepsIt) {
  (void)cudaGetLastError();
  EXPECT_EQ(cudaSetDevice(-1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

TEST(CudartVersions, RuntimeAndDriver) {
  int Runtime = 0, Driver = 0;
  EXPECT_EQ(cudaRuntimeGetVersion(&Runtime), cudaSuccess);
  EXPECT_EQ(Runtime, 13000);
  EXPECT_EQ(cudaDriverGetVersion(&Driver), cudaSuccess);
  EXPECT_GE(Driver, Runtime);
  EXPECT_EQ(cudaRuntimeGetVersion(nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDriverGetVersion(nullptr), cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST(CudartDevices, SelectionAndInvalidOrdinals) {
  int Count = 0, Device = -1;
  ASSERT_EQ(cudaGetDeviceCount(&Count), cudaSuccess);
  ASSERT_EQ(Count, 1);
  EXPECT_EQ(cudaGetDeviceCount(nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(Count), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetDevice(&Device), cudaSuccess);
  EXPECT_EQ(Device, 0);
  EXPECT_EQ(cudaInitDevice(0, 0, 0), cudaSuccess);
  EXPECT_EQ(cudaInitDevice(1, 0, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaInitDevice(0, 0, 2), cudaErrorInvalidValue);
  int Valid[] = {0};
  EXPECT_EQ(cudaSetValidDevices(Valid, 1), cudaSuccess);
  EXPECT_EQ(cudaSetValidDevices(nullptr, 0), cudaSuccess);
  int Invalid[] = {0, 3};
  EXPECT_EQ(cudaSetValidDevices(Invalid, 2), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaSetValidDevices(nullptr, 1), cudaErrorInvalidValue);
  cudaDeviceProp Want;
  std::memset(&Want, 0, sizeof(Want));
  Want.major = 8;
  Device = -1;
  EXPECT_EQ(cudaChooseDevice(&Device, &Want), cudaSuccess);
  EXPECT_EQ(Device, 0);
  EXPECT_EQ(cudaChooseDevice(&Device, nullptr), cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST(CudartDevices, FlagsAndInitDevice) {
  unsigned Flags = 0;
  ASSERT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
  ASSERT_EQ(cudaGetDeviceFlags(&Flags), cudaSuccess);
  EXPECT_EQ(Flags, unsigned(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  // Two scheduling policies at once, and unknown bits, are invalid.
  EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetDeviceFlags(nullptr), cudaErrorInvalidValue);
  ASSERT_EQ(cudaInitDevice(0, cudaDeviceScheduleSpin, cudaInitDeviceFlagsAreValid),
            cudaSuccess);
  ASSERT_EQ(cudaGetDeviceFlags(&Flags), cudaSuccess);
  EXPECT_EQ(Flags, unsigned(cudaDeviceScheduleSpin | cudaDeviceMapHost));
  EXPECT_EQ(cudaSetDeviceFlags(0), cudaSuccess);
  (void)cudaGetLastError();
}

TEST(CudartDevices, Limits) {
  size_t V = 0;
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitDevRuntimeSyncDepth), cudaSuccess);
  EXPECT_EQ(V, 2u);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(V, size_t(8) << 20);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(V, size_t(32) << 20);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, 4096), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(V, 4096u);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitPrintfFifoSize), cudaSuccess);
  EXPECT_EQ(V, size_t(1) << 20);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 100),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 128), cudaSuccess);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 4096),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitPersistingL2CacheSize), cudaSuccess);
  EXPECT_EQ(V, 4096u);
  // Dynamic parallelism's limits, with CUDA's defaults.
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitDevRuntimeSyncDepth), cudaSuccess);
  EXPECT_EQ(V, 2u);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 16), cudaSuccess);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 25),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitDevRuntimePendingLaunchCount),
            cudaSuccess);
  EXPECT_EQ(V, 2048u);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimit(42)), cudaErrorUnsupportedLimit);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimit(42), 1), cudaErrorUnsupportedLimit);
  EXPECT_EQ(cudaDeviceGetLimit(nullptr, cudaLimitStackSize), cudaErrorInvalidValue);
  // cudaDeviceReset restores the defaults.
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(V, size_t(8) << 20);
  EXPECT_EQ(cudaDeviceGetLimit(&V, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(V, 1024u);
  (void)cudaGetLastError();
}

TEST(CudartDevices, CacheAndSharedMemoryPreferences) {
  cudaFuncCache C = cudaFuncCachePreferNone;
  EXPECT_EQ(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetCacheConfig(&C), cudaSuccess);
  EXPECT_EQ(C, cudaFuncCachePreferShared);
  EXPECT_EQ(cudaDeviceSetCacheConfig(cudaFuncCache(7)), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetCacheConfig(nullptr), cudaErrorInvalidValue);
  cudaSharedMemConfig S = cudaSharedMemBankSizeDefault;
  EXPECT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceGetSharedMemConfig(&S), cudaSuccess);
  EXPECT_EQ(S, cudaSharedMemBankSizeEightByte);
  EXPECT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemConfig(3)),
            cudaErrorInvalidValue);
  int Least = 1, Greatest = 1;
  EXPECT_EQ(cudaDeviceGetStreamPriorityRange(&Least, &Greatest), cudaSuccess);
  EXPECT_LE(Greatest, Least);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetCacheConfig(&C), cudaSuccess);
  EXPECT_EQ(C, cudaFuncCachePreferNone);
  (void)cudaGetLastError();
}

TEST(CudartDevices, PciBusIdRoundTrips) {
  char Id[32] = {};
  ASSERT_EQ(cudaDeviceGetPCIBusId(Id, sizeof(Id), 0), cudaSuccess);
  EXPECT_STREQ(Id, "0000:00:00.0");
  int Device = -1;
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&Device, Id), cudaSuccess);
  EXPECT_EQ(Device, 0);
  Device = -1;
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&Device, "00:00.0"), cudaSuccess);
  EXPECT_EQ(Device, 0);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&Device, "0000:41:00.0"),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&Device, "not a bus id"),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetByPCIBusId(nullptr, Id), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetPCIBusId(Id, sizeof(Id), 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetPCIBusId(nullptr, 13, 0), cudaErrorInvalidValue);
  cudaDeviceProp P;
  ASSERT_EQ(cudaGetDeviceProperties(&P, 0), cudaSuccess);
  EXPECT_EQ(P.pciDomainID, 0);
  EXPECT_EQ(P.pciBusID, 0);
  EXPECT_EQ(P.pciDeviceID, 0);
  (void)cudaGetLastError();
}

TEST(CudartDevices, PeersOfTheOnlyDevice) {
  int Can = 1;
  EXPECT_EQ(cudaDeviceCanAccessPeer(&Can, 0, 0), cudaSuccess);
  EXPECT_EQ(Can, 0);
  EXPECT_EQ(cudaDeviceCanAccessPeer(&Can, 0, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceCanAccessPeer(nullptr, 0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(1, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(5), cudaErrorInvalidDevice);
  int V = 0;
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&V, cudaDevP2PAttrAccessSupported, 0, 0),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported,
                                      0, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&V, cudaDeviceP2PAttr(99), 0, 0),
            cudaErrorInvalidValue);
  cudaAtomicOperation Ops[] = {cudaAtomicOperationIntegerAdd};
  unsigned Caps[1] = {};
  EXPECT_EQ(cudaDeviceGetP2PAtomicCapabilities(Caps, Ops, 1, 0, 0),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetP2PAtomicCapabilities(nullptr, Ops, 1, 0, 0),
            cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

// Sharing with other processes is the e2e program `ipc`'s; here the
// argument checks of one process.
TEST(CudartDevices, IpcChecksItsArguments) {
  int Dummy;
  cudaIpcMemHandle_t M;
  cudaIpcEventHandle_t E;
  void *Ptr = nullptr;
  cudaEvent_t Ev = nullptr;
  std::memset(&M, 0, sizeof(M));
  std::memset(&E, 0, sizeof(E));
  // Host memory is no allocation to share, and zeros are no handle.
  EXPECT_EQ(cudaIpcGetMemHandle(&M, &Dummy), cudaErrorInvalidValue);
  EXPECT_EQ(cudaIpcOpenMemHandle(&Ptr, M, cudaIpcMemLazyEnablePeerAccess),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaIpcOpenMemHandle(&Ptr, M, 2), cudaErrorInvalidValue);
  EXPECT_EQ(cudaIpcCloseMemHandle(&Dummy), cudaErrorInvalidValue);
  EXPECT_EQ(cudaIpcGetEventHandle(&E, Ev), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaIpcOpenEventHandle(&Ev, E), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaIpcGetMemHandle(nullptr, &Dummy), cudaErrorInvalidValue);
  // A handle of this process's own memory cannot be opened here.
  void *Dev = nullptr;
  ASSERT_EQ(cudaMalloc(&Dev, 1024), cudaSuccess);
  EXPECT_EQ(cudaIpcGetMemHandle(&M, Dev), cudaSuccess);
  EXPECT_EQ(cudaIpcOpenMemHandle(&Ptr, M, cudaIpcMemLazyEnablePeerAccess),
            cudaErrorDeviceUninitialized);
  EXPECT_EQ(cudaFree(Dev), cudaSuccess);
  EXPECT_EQ(cudaDeviceFlushGPUDirectRDMAWrites(
                cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                cudaFlushGPUDirectRDMAWritesToOwner),
            cudaErrorNotSupported);
  EXPECT_EQ(cudaDeviceFlushGPUDirectRDMAWrites(
                cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                cudaFlushGPUDirectRDMAWritesScope(1)),
            cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST(CudartDevices, DeviceResetFreesMemoryAndStreams) {
  void *Ptr = nullptr;
  cudaStream_t S = nullptr;
  ASSERT_EQ(cudaMalloc(&Ptr, 4096), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  // The allocation and the stream are gone.
  EXPECT_EQ(cudaMemset(Ptr, 0, 4096), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(Ptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamSynchronize(S), cudaErrorInvalidResourceHandle);
  (void)cudaGetLastError();
}

//===----------------------------------------------------------------------===//
// Properties and attributes
//===----------------------------------------------------------------------===//

TEST(CudartProperties, PlausibleForTheBackend) {
  cudaDeviceProp P;
  ASSERT_EQ(cudaGetDeviceProperties(&P, 0), cudaSuccess);
  EXPECT_EQ(P.warpSize, 32);
  EXPECT_GT(std::strlen(P.name), 0u);
  EXPECT_GE(P.major, 7);
  EXPECT_GT(P.multiProcessorCount, 0);
  EXPECT_GT(P.totalGlobalMem, 0u);
  EXPECT_EQ(P.sharedMemPerBlock, 48u * 1024);
  EXPECT_GE(P.sharedMemPerBlockOptin, P.sharedMemPerBlock);
  EXPECT_GE(P.sharedMemPerMultiprocessor, P.sharedMemPerBlockOptin);
  EXPECT_EQ(P.maxThreadsPerBlock, 1024);
  EXPECT_GE(P.maxThreadsPerMultiProcessor, P.maxThreadsPerBlock);
  EXPECT_GT(P.l2CacheSize, 0);
  EXPECT_EQ(P.unifiedAddressing, 1);
  EXPECT_EQ(cudaGetDeviceProperties(&P, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetDeviceProperties(nullptr, 0), cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST(CudartAttributes, EveryHeaderEnumeratorIsAnswered) {
  ASSERT_GT(DeviceAttrs.size(), 100u);
  for (const Enumerator &E : DeviceAttrs) {
    int V = -12345;
    EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDeviceAttr(E.Value), 0),
              cudaSuccess)
        << E.Name;
    EXPECT_NE(V, -12345) << E.Name;
  }
}

TEST(CudartAttributes, ExactlyTheHeaderEnumeratorsAreAccepted) {
  // libcudart answers from the same table as libcuda's cuDeviceGetAttribute,
  // whose CUdevice_attribute has the same numbers plus some the runtime API
  // does not name (44, 102-105, ...): those must stay invalid values here.
  for (int A = -2; A < 400; ++A) {
    bool Named = false;
    for (const Enumerator &E : DeviceAttrs)
      Named |= E.Value == A && std::string(E.Name) != "cudaDevAttrMax";
    int V = 0;
    cudaError_t Got = cudaDeviceGetAttribute(&V, cudaDeviceAttr(A), 0);
    EXPECT_EQ(Got, Named ? cudaSuccess : cudaErrorInvalidValue) << A;
  }
  (void)cudaGetLastError();
}

TEST(CudartAttributes, InvalidArguments) {
  int V = 0;
  // 44 is a gap in the enumeration; cudaDevAttrMax is one past the last.
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDeviceAttr(44), 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrMax, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDeviceAttr(-1), 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetAttribute(&V, cudaDevAttrWarpSize, 1),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0),
            cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST(CudartAttributes, AgreeWithProperties) {
  cudaDeviceProp P;
  ASSERT_EQ(cudaGetDeviceProperties(&P, 0), cudaSuccess);
  // Every attribute whose value is also a cudaDeviceProp field.
  const struct {
    cudaDeviceAttr Attr;
    long long Prop;
    const char *Name;
  } Pairs[] = {
#define PAIR(A, F) {A, (long long)(F), #A}
      PAIR(cudaDevAttrMaxThreadsPerBlock, P.maxThreadsPerBlock),
      PAIR(cudaDevAttrMaxBlockDimX, P.maxThreadsDim[0]),
      PAIR(cudaDevAttrMaxBlockDimY, P.maxThreadsDim[1]),
      PAIR(cudaDevAttrMaxBlockDimZ, P.maxThreadsDim[2]),
      PAIR(cudaDevAttrMaxGridDimX, P.maxGridSize[0]),
      PAIR(cudaDevAttrMaxGridDimY, P.maxGridSize[1]),
      PAIR(cudaDevAttrMaxGridDimZ, P.maxGridSize[2]),
      PAIR(cudaDevAttrMaxSharedMemoryPerBlock, P.sharedMemPerBlock),
      PAIR(cudaDevAttrTotalConstantMemory, P.totalConstMem),
      PAIR(cudaDevAttrWarpSize, P.warpSize),
      PAIR(cudaDevAttrMaxPitch, P.memPitch),
      PAIR(cudaDevAttrMaxRegistersPerBlock, P.regsPerBlock),
      PAIR(cudaDevAttrTextureAlignment, P.textureAlignment),
      PAIR(cudaDevAttrMultiProcessorCount, P.multiProcessorCount),
      PAIR(cudaDevAttrIntegrated, P.integrated),
      PAIR(cudaDevAttrCanMapHostMemory, P.canMapHostMemory),
      PAIR(cudaDevAttrMaxTexture1DWidth, P.maxTexture1D),
      PAIR(cudaDevAttrMaxTexture2DWidth, P.maxTexture2D[0]),
      PAIR(cudaDevAttrMaxTexture2DHeight, P.maxTexture2D[1]),
      PAIR(cudaDevAttrMaxTexture3DWidth, P.maxTexture3D[0]),
      PAIR(cudaDevAttrMaxTexture3DHeight, P.maxTexture3D[1]),
      PAIR(cudaDevAttrMaxTexture3DDepth, P.maxTexture3D[2]),
      PAIR(cudaDevAttrMaxTexture2DLayeredWidth, P.maxTexture2DLayered[0]),
      PAIR(cudaDevAttrMaxTexture2DLayeredHeight, P.maxTexture2DLayered[1]),
      PAIR(cudaDevAttrMaxTexture2DLayeredLayers, P.maxTexture2DLayered[2]),
      PAIR(cudaDevAttrSurfaceAlignment, P.surfaceAlignment),
      PAIR(cudaDevAttrConcurrentKernels, P.concurrentKernels),
      PAIR(cudaDevAttrEccEnabled, P.ECCEnabled),
      PAIR(cudaDevAttrPciBusId, P.pciBusID),
      PAIR(cudaDevAttrPciDeviceId, P.pciDeviceID),
      PAIR(cudaDevAttrTccDriver, P.tccDriver),
      PAIR(cudaDevAttrGlobalMemoryBusWidth, P.memoryBusWidth),
      PAIR(cudaDevAttrL2CacheSize, P.l2CacheSize),
      PAIR(cudaDevAttrMaxThreadsPerMultiProcessor, P.maxThreadsPerMultiProcessor),
      PAIR(cudaDevAttrAsyncEngineCount, P.asyncEngineCount),
      PAIR(cudaDevAttrUnifiedAddressing, P.unifiedAddressing),
      PAIR(cudaDevAttrMaxTexture1DLayeredWidth, P.maxTexture1DLayered[0]),
      PAIR(cudaDevAttrMaxTexture1DLayeredLayers, P.maxTexture1DLayered[1]),
      PAIR(cudaDevAttrMaxTexture2DGatherWidth, P.maxTexture2DGather[0]),
      PAIR(cudaDevAttrMaxTexture2DGatherHeight, P.maxTexture2DGather[1]),
      PAIR(cudaDevAttrMaxTexture3DWidthAlt, P.maxTexture3DAlt[0]),
      PAIR(cudaDevAttrMaxTexture3DHeightAlt, P.maxTexture3DAlt[1]),
      PAIR(cudaDevAttrMaxTexture3DDepthAlt, P.maxTexture3DAlt[2]),
      PAIR(cudaDevAttrPciDomainId, P.pciDomainID),
      PAIR(cudaDevAttrTexturePitchAlignment, P.texturePitchAlignment),
      PAIR(cudaDevAttrMaxTextureCubemapWidth, P.maxTextureCubemap),
      PAIR(cudaDevAttrMaxTextureCubemapLayeredWidth, P.maxTextureCubemapLayered[0]),
      PAIR(cudaDevAttrMaxTextureCubemapLayeredLayers, P.maxTextureCubemapLayered[1]),
      PAIR(cudaDevAttrMaxSurface1DWidth, P.maxSurface1D),
      PAIR(cudaDevAttrMaxSurface2DWidth, P.maxSurface2D[0]),
      PAIR(cudaDevAttrMaxSurface2DHeight, P.maxSurface2D[1]),
      PAIR(cudaDevAttrMaxSurface3DWidth, P.maxSurface3D[0]),
      PAIR(cudaDevAttrMaxSurface3DHeight, P.maxSurface3D[1]),
      PAIR(cudaDevAttrMaxSurface3DDepth, P.maxSurface3D[2]),
      PAIR(cudaDevAttrMaxSurface1DLayeredWidth, P.maxSurface1DLayered[0]),
      PAIR(cudaDevAttrMaxSurface1DLayeredLayers, P.maxSurface1DLayered[1]),
      PAIR(cudaDevAttrMaxSurface2DLayeredWidth, P.maxSurface2DLayered[0]),
      PAIR(cudaDevAttrMaxSurface2DLayeredHeight, P.maxSurface2DLayered[1]),
      PAIR(cudaDevAttrMaxSurface2DLayeredLayers, P.maxSurface2DLayered[2]),
      PAIR(cudaDevAttrMaxSurfaceCubemapWidth, P.maxSurfaceCubemap),
      PAIR(cudaDevAttrMaxSurfaceCubemapLayeredWidth, P.maxSurfaceCubemapLayered[0]),
      PAIR(cudaDevAttrMaxSurfaceCubemapLayeredLayers, P.maxSurfaceCubemapLayered[1]),
      PAIR(cudaDevAttrMaxTexture2DLinearWidth, P.maxTexture2DLinear[0]),
      PAIR(cudaDevAttrMaxTexture2DLinearHeight, P.maxTexture2DLinear[1]),
      PAIR(cudaDevAttrMaxTexture2DLinearPitch, P.maxTexture2DLinear[2]),
      PAIR(cudaDevAttrMaxTexture2DMipmappedWidth, P.maxTexture2DMipmap[0]),
      PAIR(cudaDevAttrMaxTexture2DMipmappedHeight, P.maxTexture2DMipmap[1]),
      PAIR(cudaDevAttrComputeCapabilityMajor, P.major),
      PAIR(cudaDevAttrComputeCapabilityMinor, P.minor),
      PAIR(cudaDevAttrMaxTexture1DMipmappedWidth, P.maxTexture1DMipmap),
      PAIR(cudaDevAttrStreamPrioritiesSupported, P.streamPrioritiesSupported),
      PAIR(cudaDevAttrGlobalL1CacheSupported, P.globalL1CacheSupported),
      PAIR(cudaDevAttrLocalL1CacheSupported, P.localL1CacheSupported),
      PAIR(cudaDevAttrMaxSharedMemoryPerMultiprocessor, P.sharedMemPerMultiprocessor),
      PAIR(cudaDevAttrMaxRegistersPerMultiprocessor, P.regsPerMultiprocessor),
      PAIR(cudaDevAttrManagedMemory, P.managedMemory),
      PAIR(cudaDevAttrIsMultiGpuBoard, P.isMultiGpuBoard),
      PAIR(cudaDevAttrMultiGpuBoardGroupID, P.multiGpuBoardGroupID),
      PAIR(cudaDevAttrHostNativeAtomicSupported, P.hostNativeAtomicSupported),
      PAIR(cudaDevAttrPageableMemoryAccess, P.pageableMemoryAccess),
      PAIR(cudaDevAttrConcurrentManagedAccess, P.concurrentManagedAccess),
      PAIR(cudaDevAttrComputePreemptionSupported, P.computePreemptionSupported),
      PAIR(cudaDevAttrCanUseHostPointerForRegisteredMem,
           P.canUseHostPointerForRegisteredMem),
      PAIR(cudaDevAttrCooperativeLaunch, P.cooperativeLaunch),
      PAIR(cudaDevAttrMaxSharedMemoryPerBlockOptin, P.sharedMemPerBlockOptin),
      PAIR(cudaDevAttrHostRegisterSupported, P.hostRegisterSupported),
      PAIR(cudaDevAttrPageableMemoryAccessUsesHostPageTables,
           P.pageableMemoryAccessUsesHostPageTables),
      PAIR(cudaDevAttrDirectManagedMemAccessFromHost,
           P.directManagedMemAccessFromHost),
      PAIR(cudaDevAttrMaxBlocksPerMultiprocessor, P.maxBlocksPerMultiProcessor),
      PAIR(cudaDevAttrMaxPersistingL2CacheSize, P.persistingL2CacheMaxSize),
      PAIR(cudaDevAttrMaxAccessPolicyWindowSize, P.accessPolicyMaxWindowSize),
      PAIR(cudaDevAttrReservedSharedMemoryPerBlock, P.reservedSharedMemPerBlock),
      PAIR(cudaDevAttrSparseCudaArraySupported, P.sparseCudaArraySupported),
      PAIR(cudaDevAttrHostRegisterReadOnlySupported,
           P.hostRegisterReadOnlySupported),
      PAIR(cudaDevAttrTimelineSemaphoreInteropSupported,
           P.timelineSemaphoreInteropSupported),
      PAIR(cudaDevAttrMemoryPoolsSupported, P.memoryPoolsSupported),
      PAIR(cudaDevAttrGPUDirectRDMASupported, P.gpuDirectRDMASupported),
      PAIR(cudaDevAttrGPUDirectRDMAFlushWritesOptions,
           P.gpuDirectRDMAFlushWritesOptions),
      PAIR(cudaDevAttrGPUDirectRDMAWritesOrdering, P.gpuDirectRDMAWritesOrdering),
      PAIR(cudaDevAttrMemoryPoolSupportedHandleTypes,
           P.memoryPoolSupportedHandleTypes),
      PAIR(cudaDevAttrClusterLaunch, P.clusterLaunch),
      PAIR(cudaDevAttrDeferredMappingCudaArraySupported,
           P.deferredMappingCudaArraySupported),
      PAIR(cudaDevAttrIpcEventSupport, P.ipcEventSupported),
      PAIR(cudaDevAttrNumaConfig, P.deviceNumaConfig),
      PAIR(cudaDevAttrNumaId, P.deviceNumaId),
      PAIR(cudaDevAttrMpsEnabled, P.mpsEnabled),
      PAIR(cudaDevAttrHostNumaId, P.hostNumaId),
      PAIR(cudaDevAttrGpuPciDeviceId, P.gpuPciDeviceID),
      PAIR(cudaDevAttrGpuPciSubsystemId, P.gpuPciSubsystemID),
      PAIR(cudaDevAttrHostNumaMultinodeIpcSupported,
           P.hostNumaMultinodeIpcSupported),
#undef PAIR
  };
  for (const auto &Pair : Pairs) {
    int V = -12345;
    ASSERT_EQ(cudaDeviceGetAttribute(&V, Pair.Attr, 0), cudaSuccess)
        << Pair.Name;
    EXPECT_EQ((long long)V, Pair.Prop) << Pair.Name;
  }
  // Attributes CUDA 13 serves only this way are still sensible.
  int Clock = 0, MemClock = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&Clock, cudaDevAttrClockRate, 0), cudaSuccess);
  EXPECT_GT(Clock, 0);
  EXPECT_EQ(cudaDeviceGetAttribute(&MemClock, cudaDevAttrMemoryClockRate, 0),
            cudaSuccess);
  EXPECT_GT(MemClock, 0);
}

//===----------------------------------------------------------------------===//
// Functions and launches: what needs no registered kernel
//===----------------------------------------------------------------------===//

void notAKernel() {}

TEST(CudartFunctions, UnknownFunctionsAndBadArguments) {
  cudaFuncAttributes A;
  const void *F = reinterpret_cast<const void *>(&notAKernel);
  EXPECT_EQ(cudaFuncGetAttributes(&A, F), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaFuncGetAttributes(nullptr, F), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFuncSetAttribute(F, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 65536),
            cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaFuncSetCacheConfig(F, cudaFuncCachePreferL1),
            cudaErrorInvalidDeviceFunction);
  const char *Name = nullptr;
  EXPECT_EQ(cudaFuncGetName(&Name, F), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaFuncGetName(nullptr, F), cudaErrorInvalidValue);
  cudaFunction_t Fn = nullptr;
  EXPECT_EQ(cudaGetFuncBySymbol(&Fn, F), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaGetFuncBySymbol(nullptr, F), cudaErrorInvalidValue);
  size_t Smem = 0;
  EXPECT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&Smem, F, 1, 32),
            cudaErrorInvalidDeviceFunction);
  int N = 0;
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&N, F, 32, 0),
            cudaErrorInvalidDeviceFunction);
  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(1);
  Config.blockDim = dim3(32);
  EXPECT_EQ(cudaLaunchKernelExC(&Config, F, nullptr),
            cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaLaunchKernelExC(nullptr, F, nullptr), cudaErrorInvalidValue);
  Config.numAttrs = 1; // with no attribute array
  EXPECT_EQ(cudaLaunchKernelExC(&Config, F, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaOccupancyMaxPotentialClusterSize(nullptr, F, &Config),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaKernelSetAttributeForDevice(
                reinterpret_cast<cudaKernel_t>(const_cast<void *>(F)),
                cudaFuncAttributeMaxDynamicSharedMemorySize, 65536, 0),
            cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaKernelSetAttributeForDevice(
                nullptr, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536, 1),
            cudaErrorInvalidDevice);
  (void)cudaGetLastError();
}

} // namespace

namespace {

// Every function the toolkit's libcudart exports is exported here too, so
// that a program importing any of them loads; the unimplemented ones say
// so when called instead of being missing at start-up.
TEST(CudartExports, EveryToolkitNameResolves) {
  void *Lib = dlopen("libcudart.so.13", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(Lib, nullptr) << "the test links libcudart.so.13";
  std::vector<std::string> Missing;
#define CUHIP_RUNTIME_SYMBOL(Name)                                             \
  if (!dlsym(Lib, #Name))                                                      \
    Missing.push_back(#Name);
#include "RuntimeSymbols.def"
#undef CUHIP_RUNTIME_SYMBOL
  if (!dlsym(Lib, "cudaCreateChannelDesc"))
    Missing.push_back("cudaCreateChannelDesc");
  EXPECT_TRUE(Missing.empty()) << Missing.size() << " missing, first "
                               << (Missing.empty() ? "" : Missing[0]);
  dlclose(Lib);
}

TEST(CudartExports, UnimplementedFunctionsReturnNotSupported) {
  cudaMipmappedArray_t Mipmapped = nullptr;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  EXPECT_EQ(Desc.x, 32);
  EXPECT_EQ(Desc.y, 0);
  EXPECT_EQ(Desc.f, cudaChannelFormatKindFloat);
  Desc = cudaCreateChannelDesc(8, 8, 0, 0, cudaChannelFormatKindUnsigned);
  EXPECT_EQ(Desc.y, 8);
  EXPECT_EQ(Desc.f, cudaChannelFormatKindUnsigned);
  EXPECT_EQ(cudaMallocMipmappedArray(&Mipmapped, &Desc,
                                     make_cudaExtent(16, 16, 0), 2, 0),
            cudaErrorNotSupported);
  EXPECT_EQ(cudaGetLastError(), cudaErrorNotSupported);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

} // namespace

namespace {

// With no profiling tool attached, CUDA's profiler control succeeds and
// changes nothing; programs (matrixMul, asyncAPI) stop on any other answer.
TEST(CudartProfiler, StartAndStopSucceedWithoutATool) {
  (void)cudaGetLastError();
  EXPECT_EQ(cudaProfilerStart(), cudaSuccess);
  EXPECT_EQ(cudaProfilerStart(), cudaSuccess);
  EXPECT_EQ(cudaProfilerStop(), cudaSuccess);
  EXPECT_EQ(cudaProfilerStop(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

} // namespace

namespace {

int attribute(cudaDeviceAttr A) {
  int V = -1;
  EXPECT_EQ(cudaDeviceGetAttribute(&V, A, 0), cudaSuccess) << int(A);
  return V;
}

// The CPU backend reports what it implements, so that programs which check
// before they use a feature (streamOrderedAllocation, systemWideAtomics,
// simpleAttributes) run instead of waiving: pools, pageable and concurrent
// managed access (device memory is host memory), the persisting-L2 hints,
// and texture extents; features it lacks stay 0.
TEST(CudartAttributes, CpuBackendReportsWhatItImplements) {
  EXPECT_EQ(attribute(cudaDevAttrMemoryPoolsSupported), 1);
  EXPECT_EQ(attribute(cudaDevAttrManagedMemory), 1);
  EXPECT_EQ(attribute(cudaDevAttrConcurrentManagedAccess), 1);
  EXPECT_EQ(attribute(cudaDevAttrPageableMemoryAccess), 1);
  EXPECT_EQ(attribute(cudaDevAttrPageableMemoryAccessUsesHostPageTables), 1);
  EXPECT_EQ(attribute(cudaDevAttrDirectManagedMemAccessFromHost), 1);
  EXPECT_EQ(attribute(cudaDevAttrCanUseHostPointerForRegisteredMem), 1);
  EXPECT_EQ(attribute(cudaDevAttrHostRegisterSupported), 1);
  EXPECT_GT(attribute(cudaDevAttrMaxTexture2DWidth), 0);
  EXPECT_GT(attribute(cudaDevAttrMaxTexture3DDepth), 0);
  EXPECT_GT(attribute(cudaDevAttrMaxSurface2DLayeredLayers), 0);
  EXPECT_EQ(attribute(cudaDevAttrMaxTexture2DMipmappedWidth), 0);
  // Shared with other processes through memfds (POSIX descriptors).
  EXPECT_EQ(attribute(cudaDevAttrMemoryPoolSupportedHandleTypes),
            cudaMemHandleTypePosixFileDescriptor);
  EXPECT_EQ(attribute(cudaDevAttrIpcEventSupport), 1);
  EXPECT_EQ(attribute(cudaDevAttrGPUDirectRDMASupported), 0);

  // A program walking the persisting-L2 path: the set-aside takes up to the
  // maximum, and more is clamped to it.
  int MaxPersist = attribute(cudaDevAttrMaxPersistingL2CacheSize);
  int L2 = attribute(cudaDevAttrL2CacheSize);
  EXPECT_GT(MaxPersist, 0);
  EXPECT_LE(MaxPersist, L2);
  EXPECT_GT(attribute(cudaDevAttrMaxAccessPolicyWindowSize), 0);
  size_t Got = 0;
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, MaxPersist / 2),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceGetLimit(&Got, cudaLimitPersistingL2CacheSize),
            cudaSuccess);
  EXPECT_EQ(Got, size_t(MaxPersist / 2));
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                               size_t(MaxPersist) * 4),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceGetLimit(&Got, cudaLimitPersistingL2CacheSize),
            cudaSuccess);
  EXPECT_EQ(Got, size_t(MaxPersist));
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0), cudaSuccess);
}

} // namespace

namespace {

// Stream attributes as simpleAttributes uses them: an access-policy window
// within the device's maximum is kept and read back, defaults are CUDA's,
// and what a stream does not take is refused.
TEST(CudartStreamAttributes, WindowPolicyPriorityAndDefaults) {
  cudaStream_t S;
  ASSERT_EQ(cudaStreamCreate(&S), cudaSuccess);
  cudaStreamAttrValue V;
  std::memset(&V, 0x5a, sizeof(V));
  ASSERT_EQ(cudaStreamGetAttribute(S, cudaStreamAttributeAccessPolicyWindow, &V),
            cudaSuccess);
  EXPECT_EQ(V.accessPolicyWindow.base_ptr, nullptr);
  EXPECT_EQ(V.accessPolicyWindow.num_bytes, 0u);
  ASSERT_EQ(cudaStreamGetAttribute(S, cudaStreamAttributeSynchronizationPolicy,
                                   &V),
            cudaSuccess);
  EXPECT_EQ(V.syncPolicy, cudaSyncPolicyAuto);
  ASSERT_EQ(cudaStreamGetAttribute(S, cudaLaunchAttributeMemSyncDomainMap, &V),
            cudaSuccess);
  EXPECT_EQ(V.memSyncDomainMap.default_, 0);
  EXPECT_EQ(V.memSyncDomainMap.remote, 1);

  int Window = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&Window, cudaDevAttrMaxAccessPolicyWindowSize,
                                   0),
            cudaSuccess);
  void *Buf;
  ASSERT_EQ(cudaMalloc(&Buf, 1 << 20), cudaSuccess);
  cudaStreamAttrValue W = {};
  W.accessPolicyWindow.base_ptr = Buf;
  W.accessPolicyWindow.num_bytes = 1 << 20;
  W.accessPolicyWindow.hitRatio = 0.6f;
  W.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  W.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  ASSERT_EQ(cudaStreamSetAttribute(S, cudaStreamAttributeAccessPolicyWindow, &W),
            cudaSuccess);
  std::memset(&V, 0, sizeof(V));
  ASSERT_EQ(cudaStreamGetAttribute(S, cudaStreamAttributeAccessPolicyWindow, &V),
            cudaSuccess);
  EXPECT_EQ(V.accessPolicyWindow.base_ptr, Buf);
  EXPECT_EQ(V.accessPolicyWindow.num_bytes, size_t(1) << 20);
  EXPECT_EQ(V.accessPolicyWindow.hitRatio, 0.6f);
  EXPECT_EQ(V.accessPolicyWindow.hitProp, cudaAccessPropertyPersisting);
  EXPECT_EQ(V.accessPolicyWindow.missProp, cudaAccessPropertyStreaming);

  // Another stream takes the window with cudaStreamCopyAttributes.
  cudaStream_t T;
  ASSERT_EQ(cudaStreamCreate(&T), cudaSuccess);
  ASSERT_EQ(cudaStreamCopyAttributes(T, S), cudaSuccess);
  std::memset(&V, 0, sizeof(V));
  ASSERT_EQ(cudaStreamGetAttribute(T, cudaStreamAttributeAccessPolicyWindow, &V),
            cudaSuccess);
  EXPECT_EQ(V.accessPolicyWindow.base_ptr, Buf);

  // Invalid windows: too large, a ratio above 1, persisting misses.
  cudaStreamAttrValue Bad = W;
  Bad.accessPolicyWindow.num_bytes = size_t(Window) + 1;
  EXPECT_EQ(cudaStreamSetAttribute(S, cudaStreamAttributeAccessPolicyWindow, &Bad),
            cudaErrorInvalidValue);
  Bad = W;
  Bad.accessPolicyWindow.hitRatio = 1.5f;
  EXPECT_EQ(cudaStreamSetAttribute(S, cudaStreamAttributeAccessPolicyWindow, &Bad),
            cudaErrorInvalidValue);
  Bad = W;
  Bad.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  EXPECT_EQ(cudaStreamSetAttribute(S, cudaStreamAttributeAccessPolicyWindow, &Bad),
            cudaErrorInvalidValue);
  // Cooperative is a launch attribute, not a stream's.
  EXPECT_EQ(cudaStreamSetAttribute(S, cudaLaunchAttributeCooperative, &W),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamSetAttribute(S, cudaStreamAttributeAccessPolicyWindow,
                                   nullptr),
            cudaErrorInvalidValue);

  // Priority through the attribute is the stream's priority.
  int Least = 0, Greatest = 0, Priority = 0;
  ASSERT_EQ(cudaDeviceGetStreamPriorityRange(&Least, &Greatest), cudaSuccess);
  cudaStreamAttrValue P = {};
  P.priority = Greatest;
  ASSERT_EQ(cudaStreamSetAttribute(S, cudaLaunchAttributePriority, &P),
            cudaSuccess);
  ASSERT_EQ(cudaStreamGetPriority(S, &Priority), cudaSuccess);
  EXPECT_EQ(Priority, Greatest);

  // The legacy stream takes attributes too; a destroyed stream does not.
  ASSERT_EQ(cudaStreamSetAttribute(nullptr, cudaStreamAttributeAccessPolicyWindow,
                                   &W),
            cudaSuccess);
  ASSERT_EQ(cudaCtxResetPersistingL2Cache(), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(T), cudaSuccess);
  EXPECT_EQ(cudaStreamGetAttribute(T, cudaStreamAttributeAccessPolicyWindow, &V),
            cudaErrorInvalidResourceHandle);
  ASSERT_EQ(cudaStreamDestroy(S), cudaSuccess);
  ASSERT_EQ(cudaFree(Buf), cudaSuccess);
  (void)cudaGetLastError();
}

} // namespace
